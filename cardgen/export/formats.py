"""What every writer shares: the declared ``Format``, the deck it writes (``DeckJob``) and its records.

Light on purpose: the command line reads the formats' declarations without
loading reportlab or pillow.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..model import Card, Deck, Player
    from ..render.faces import Faces
    from ..sheets import SheetTemplate
    from .cards import CardBox


@dataclass(frozen=True)
class Output:
    """One file a deck prints to, as ``prepare.plan_outputs`` plans it: whose it is and which cards it
    holds. Every format names its files after the output's stem."""

    path: Path
    cards: tuple[Card, ...]
    player: Player | None = None
    owner: int = -1

    @property
    def count(self) -> int:
        """Cards printed in this file, every copy counted."""
        return sum(c.copies for c in self.cards)


@dataclass(frozen=True)
class Export:
    """Files one format wrote for one deck: where, how many cards they hold, how many files, and for a
    file of sheets its pages."""

    format: str
    path: Path
    cards: int
    files: int = 1
    pages: int | None = None


@dataclass
class DeckJob:
    """One deck of a build as every writer sees it: the deck as printed, the outputs planned for it,
    the sheet and the deck's drawings on it. Each writer adds what it wrote to ``exports``."""

    deck: Deck
    outputs: Sequence[Output]
    template: SheetTemplate
    #: the drawings at the sheet's card size and art bleed (the validator read them)
    faces: Faces
    exports: list[Export] = field(default_factory=list)
    _card_faces: dict[float, tuple[Faces, CardBox]] = field(default_factory=dict, init=False, repr=False)

    def card_faces(self, bleed: float | None) -> tuple[Faces, CardBox]:
        """The drawings and card box of the card-by-card formats: ``bleed`` round each card (None: the
        sheet's, or the eighth of an inch print shops want), planned once for every format asking."""
        from ..render.faces import Faces
        from .cards import CardBox, print_shop_bleed

        bleed = bleed if bleed is not None else print_shop_bleed(self.template.bleed)
        if bleed not in self._card_faces:
            t = self.template
            width, height = (t.card_width, t.card_height) if self.deck.landscape else (t.card_height, t.card_width)
            self._card_faces[bleed] = Faces(self.deck, width, height, bleed), CardBox(width, height, bleed)
        return self._card_faces[bleed]


#: ``write(jobs, out_dir, options)``: every deck of the build at once (a format may combine them);
#: ``options`` holds the build settings the format declares, by name
Writer = Callable[[Sequence[DeckJob], Path, Mapping[str, Any]], None]


@dataclass(frozen=True)
class Format:
    """An output format, declared once by its writer's module."""

    #: what ``--format`` takes
    name: str
    #: what it writes, in a few words, for ``cardgen build --help``
    help: str
    #: the build settings (fields of ``BuildSettings``) the writer reads
    options: tuple[str, ...]
    #: the files it writes, as patterns under the output folder (``*`` a deck's or player's stem)
    files: tuple[str, ...]
    write: Writer


def printed_keys(faces: Faces, output: Output) -> tuple[list[tuple[Card, str, str]], dict[str, Any]]:
    """Each card of ``output`` with the keys of its face and back, and the drawings they name."""
    keys = [(card, faces.face(card), faces.back(card)) for card in output.cards]
    return keys, {key: faces.drawings[key] for _, face, back in keys for key in (face, back)}


def whose(output: Output) -> str:
    """`` – PLAYER`` for a player's output, for titles; nothing otherwise."""
    return f" – {output.player.name}" if output.player else ""
