"""The deck model: what the loader produces and everything downstream trusts.

Lengths are in points. Colours are ``(r, g, b)`` floats in 0..1. Every object
that came from a file keeps its Location so later checks can point at it.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .colors import RGB
from .errors import Location

if TYPE_CHECKING:
    from .layouts import Layout

EDGE_SIDES = ("top", "right", "bottom", "left")
#: each player's shape, in seat order: on their backs and, in Common Carrier, as their nodes,
#: so a black-and-white print still tells whose card is whose
PLAYER_MARKS = ("circle", "square", "diamond", "hexagon")
#: the font family cardgen ships and every fallback chain ends with
DEFAULT_FAMILY = "DejaVu Sans"


@dataclass(frozen=True)
class Edges:
    """Which sides of a tile carry a link line."""

    top: bool = False
    right: bool = False
    bottom: bool = False
    left: bool = False

    def count(self) -> int:
        return self.top + self.right + self.bottom + self.left


@dataclass(frozen=True)
class Player:
    name: str
    color: RGB


@dataclass(frozen=True)
class Card:
    """One distinct card face; ``copies`` of it are printed."""

    id: str
    kind: str
    copies: int = 1
    title: str = ""
    text: str = ""
    icon: str = ""
    image: Path | None = None
    color: RGB | None = None
    #: the player whose deck this card is in (per-player decks), else -1
    owner: int = -1
    #: reference cards: (text, when-option, unless-option) per line
    lines: tuple[tuple[str, str, str], ...] = ()
    #: print this card only when this rule option is on
    when: str = ""
    location: Location | None = None
    #: the card's own data (YAML ``fields``, extra spreadsheet columns), filled into layouts; a
    #: game's data too (a tile's ``edges`` and ``gray``, an asset's parts, a status card's number)
    fields: Mapping[str, Any] = field(default_factory=dict)
    #: the layout it is drawn with ("" for its kind's)
    layout: str = ""
    #: a layout drawn as its back ("" for the deck's)
    back_layout: str = ""
    #: per-player decks: printed once, not once per player
    shared: bool = False

    def with_(self, **changes: Any) -> Card:
        return replace(self, **changes)


@dataclass(frozen=True)
class Back:
    """What the back of every card shows."""

    title: str = ""
    subtitle: str = ""
    icon: str = ""
    image: Path | None = None
    color: RGB | None = None
    #: tint the back with the owning player's colour
    tint_by_player: bool = False
    #: the layout the backs are drawn with
    layout: str = "back"


#: the face each style falls back to when a family lacks it, nearest first
STYLE_FALLBACK = {"bold_italic": ("bold_italic", "bold", "italic"), "bold": ("bold",), "italic": ("italic",),
                  "regular": ()}


@dataclass(frozen=True)
class FontFamily:
    """A named font family: a font file (and its face in a collection) per style, or a system family.

    ``files`` maps styles (regular, bold, italic, bold_italic) to files and ``indexes`` to faces in a
    collection (.ttc, .otc), 0 when not given. A ``system`` family names a family installed on the
    machine, found through fontconfig by the renderer. ``features`` are OpenType features, on (1),
    off (0) or an alternate's number, applied to every run of the family.
    """

    name: str
    files: tuple[tuple[str, Path], ...]
    indexes: tuple[tuple[str, int], ...] = ()
    system: str = ""
    features: tuple[tuple[str, int], ...] = ()

    def style_for(self, style: str) -> str:
        """The style of the family that prints ``style``: itself, the nearest it has, or regular."""
        own = dict(self.files)
        return next((s for s in STYLE_FALLBACK.get(style, ()) if s in own), "regular")

    def file(self, style: str) -> Path:
        return dict(self.files)[self.style_for(style)]

    def face(self, style: str) -> tuple[Path, int]:
        """The file and face index that print ``style``."""
        chosen = self.style_for(style)
        return dict(self.files)[chosen], dict(self.indexes).get(chosen, 0)


@dataclass(frozen=True)
class Reference:
    """A name in the deck that the loader cannot check on its own, kept with where it was written.

    Icons, SVG art and font files need the renderer; the game id, rule options and card kinds need
    the game. The loader records each in the order it meets them, and the resolve step the flows
    call after loading checks them in that order, located as the loader would have located them.
    """

    #: "game"; "icon" (of a card, asset or back), "layout-icon" (of a layout element) or "own-icon"
    #: (the name of one of the deck's icons: no built-in's); "svg" or "font" (a file found);
    #: "system-font" (a family installed on the machine);
    #: "when" or "unless" (a rule option); "backs" (a card kind or layout given a back); "card" or
    #: "paper" (a card size or paper, by name or WxH)
    kind: str
    #: as the deck wrote it
    name: str
    location: Location | None = None
    #: the file found ("svg" and "font")
    path: Path | None = None
    #: the face of a font collection ("font")
    index: int = 0


@dataclass(frozen=True)
class Deck:
    """A loaded, checked deck definition."""

    id: str
    name: str
    game: str
    path: Path
    #: "landscape" or "portrait": which way the card stands (by default the way its ``card`` size
    #: does); the sheet template gives the exact size
    orientation: str
    players: tuple[Player, ...]
    per_player: bool
    back: Back
    options: dict[str, Any]
    cards: tuple[Card, ...]
    location: Location | None = None
    #: where each top-level key was written, for findings that point at it
    key_locations: dict[str, Location] = field(default_factory=dict)
    #: deck-wide look: accent colour, safe margin
    style: dict[str, Any] = field(default_factory=dict)
    #: Clusterfuck: the Social Status cards' reminder text and colour
    status: dict[str, Any] = field(default_factory=dict)
    #: Clusterfuck: the traditional 52-card deck, printed when its option is on
    standard_deck: dict[str, Any] | None = None
    #: layouts by name: cardgen's built-in ones and the deck's own
    layouts: Mapping[str, Layout] = field(default_factory=dict)
    #: a back layout per card kind or layout name
    backs: Mapping[str, str] = field(default_factory=dict)
    #: font families the deck declares, and the order every character tries them in
    fonts: Mapping[str, FontFamily] = field(default_factory=dict)
    font_fallback: tuple[str, ...] = ()
    #: the deck's own icons: name -> PNG, JPEG or SVG file
    icons: Mapping[str, Path] = field(default_factory=dict)
    #: per-player decks: shared cards go in "each" player's PDF or a "separate" one
    shared_cards: str = "each"
    #: the folder of the deck file, where field-named art is looked up
    folder: Path | None = None
    #: who made it (the PDFs' Author)
    author: str = ""
    #: the card size as the deck names it (``poker``, ``63x88mm``); empty: business cards
    card: str = ""
    #: the paper the deck prints on by default (``letter``, ``a4``, ``210x297mm``); empty: see
    #: ``prepare.deck_template``
    paper: str = ""
    #: what the resolve step checks: the names only a renderer or a game knows, in file order
    references: tuple[Reference, ...] = ()

    @property
    def landscape(self) -> bool:
        return self.orientation == "landscape"

    def with_(self, **changes: Any) -> Deck:
        return replace(self, **changes)
