"""The resolve step: the names in a loaded deck that only the renderer or a game can check.

The loader (``deck.py``) knows neither: it keeps each icon, SVG, font file,
game id, rule option and card kind a deck names as a ``Reference``, with
where the deck wrote it. Every flow that loads a deck goes through
``load_resolved``, so a deck naming an unknown icon or game stops here,
before anything is written, with a message located where the deck wrote the
name (file:line:column, or the spreadsheet cell).
"""
from __future__ import annotations

from functools import cached_property
from pathlib import Path

from .deck import load_deck
from .errors import CardgenError
from .games import GameInfo, game_info
from .model import Deck, Reference
from .render.fonts import FontFileError, SystemFontError, register, system_family
from .render.icons import ICONS
from .render.svg import check_svg
from .schema import BUILT_KINDS
from .sheets.sizes import card_size, paper_size
from .yamlio import did_you_mean


def load_resolved(name: str | Path) -> Deck:
    """Read one deck file (a bundled id or a path) and resolve it: the deck every flow works on."""
    return resolve(load_deck(name))


def resolve(deck: Deck) -> Deck:
    """``deck`` once the renderer and its game know every name it uses; else a located CardgenError.

    The references are checked in the order the loader met them, so of two
    such mistakes the one it would have reported first still is.
    """
    resolver = _Resolver(deck)
    for reference in deck.references:
        resolver.check(reference)
    if deck.card and "orientation" not in deck.key_locations:
        # the card stands the way its size does: poker is portrait, business landscape
        deck = deck.with_(orientation="portrait" if card_size(deck.card).portrait else "landscape")
    return deck


class _Resolver:
    def __init__(self, deck: Deck):
        self.deck = deck
        #: a check per kind of reference (model.Reference lists them)
        self.checks = {"game": self.game, "icon": self.icon, "layout-icon": self.layout_icon,
                       "own-icon": self.own_icon, "svg": self.svg, "font": self.font,
                       "system-font": self.system_font, "when": self.option,
                       "unless": self.option, "backs": self.back_kind,
                       "card": self.size, "paper": self.size}

    def check(self, ref: Reference) -> None:
        self.checks[ref.kind](ref)

    @cached_property
    def info(self) -> GameInfo | None:
        return game_info(self.deck.game)

    @cached_property
    def icons(self) -> list[str]:
        return sorted(set(ICONS) | set(self.deck.icons))

    def game(self, ref: Reference) -> None:
        try:
            game_info(ref.name)
        except CardgenError as exc:
            raise CardgenError(exc.message, ref.location) from None

    def icon(self, ref: Reference) -> None:
        if ref.name not in self.icons:
            raise CardgenError(f"unknown icon '{ref.name}'{did_you_mean(ref.name, self.icons)}; icons: "
                               f"{', '.join(self.icons)}", ref.location)

    def layout_icon(self, ref: Reference) -> None:
        if ref.name not in self.icons:
            raise CardgenError(f"icon: unknown icon '{ref.name}'{did_you_mean(ref.name, self.icons)}", ref.location)

    def own_icon(self, ref: Reference) -> None:
        if ref.name in ICONS:
            raise CardgenError(f"'{ref.name}' is a built-in icon; give the deck's icon another name", ref.location)

    def svg(self, ref: Reference) -> None:
        assert ref.path is not None
        check_svg(ref.path, ref.name, ref.location)

    def font(self, ref: Reference) -> None:
        assert ref.path is not None
        try:
            register(ref.path, ref.index)
        except FontFileError as exc:
            raise CardgenError(f"font file '{ref.name}' is {exc}", ref.location) from None

    def system_font(self, ref: Reference) -> None:
        try:
            family = system_family(ref.name)
            for style, path in family.files:
                register(path, dict(family.indexes).get(style, 0))
        except SystemFontError as exc:
            raise CardgenError(str(exc), ref.location) from None
        except FontFileError as exc:
            raise CardgenError(f"the system font '{ref.name}' is {exc}", ref.location) from None

    def option(self, ref: Reference) -> None:
        """A ``when``/``unless`` names an option of the deck or its game: a typo would drop a card silently."""
        engine = self.info.engine if self.info else None
        known = sorted(set(self.deck.options) | {s.name for s in (engine.option_specs if engine else ())})
        name = ref.name.partition("=")[0].strip()
        if name not in known:
            raise CardgenError(f"{ref.kind}: '{ref.name}' names no option of this deck"
                               f"{did_you_mean(name, known)}; options: "
                               f"{', '.join(known) or 'none (add them under options:)'}", ref.location)

    def size(self, ref: Reference) -> None:
        """``card:`` names a card size and ``paper:`` a paper, by name or as WxH with units."""
        try:
            (card_size if ref.kind == "card" else paper_size)(ref.name)
        except CardgenError as exc:
            raise CardgenError(f"{ref.kind}: {exc.message}", ref.location) from None

    def back_kind(self, ref: Reference) -> None:
        """A key of ``backs`` that is no layout is a card kind: cardgen's or one the deck's game makes."""
        kinds = BUILT_KINDS + (self.info.card_kinds if self.info else ())
        layouts = sorted(self.deck.layouts)
        if ref.name not in self.deck.layouts and ref.name not in kinds:
            raise CardgenError(f"backs names '{ref.name}', which is neither a card kind ({', '.join(kinds)}) nor "
                               f"a layout{did_you_mean(ref.name, list(kinds) + layouts)}", ref.location)
