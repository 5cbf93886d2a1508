"""Every distinct face and back of a deck, as one build prints them.

A card is drawn with a layout (the one it names, else the one named after
its kind) or, for the few kinds data cannot say, by its Python module
(``tile``). Layout faces are planned once: the validator reads
their problems and the PDF writer replays their ops.
"""
from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..colors import to_hex
from ..errors import CardgenError, Location
from ..findings import Finding
from ..layouts import Element, Layout
from ..model import Card, Deck
from ..units import mm
from . import KIND_RENDERERS, RenderContext, text
from .layout import BUILTIN_FIELDS, SHARED_WARNING, Env, Plan, art_files, card_fields, draw, plan, player_fields

DEFAULT_SAFE = mm(3)
#: how many cards a warning about shared art names before it says "..."
NAMED_CARDS = 8
DEFAULT_BACK_COLOR = (0.16, 0.18, 0.24)
#: what a back layout knows of the deck's back, besides the card's own fields
BACK_FIELDS = ("back_title", "back_subtitle", "back_icon", "back_image", "back_art", "back_color")
PLAYER_FIELDS = ("player", "player_color", "player_number", "player_mark")
#: the fields of the playing cards a deck's ``standard_deck`` makes (prepare.py), for layouts named ``playing``
PLAYING_FIELDS = ("rank", "suit", "suit_icon", "suit_color")


class LayoutDrawing:
    """A planned face: replays its ops into the card box of a canvas; keeps which layout and elements
    drew it, for ``cardgen serve``'s hints."""

    def __init__(self, ops: list[tuple], layout: Layout | None = None, elements: Iterable[Element] = ()):
        self.ops = ops
        self.art = art_files(ops)
        self.layout = layout
        self.elements = tuple(elements)

    def __call__(self, canvas, width: float, height: float) -> None:
        draw(canvas, self.ops)


class PythonDrawing:
    """A face drawn by its kind's Python module (tile)."""

    def __init__(self, faces: Faces, card: Card):
        self.art: set[Path] = set()
        self.faces = faces
        self.card = card

    def __call__(self, canvas, width: float, height: float) -> None:
        ctx = self.faces.context(width, height)
        text.register_fonts()
        KIND_RENDERERS[self.card.kind](canvas, self.card, ctx)
        self.faces.python_problems.setdefault(self.card.id, []).extend(ctx.problems)


class Faces:
    """The drawings of a deck's cards on one sheet template, keyed so each distinct one is drawn once."""

    def __init__(self, deck: Deck, width: float, height: float, bleed: float):
        self.deck = deck
        self.width, self.height, self.bleed = width, height, bleed
        self.safe = deck.style.get("safe_margin", DEFAULT_SAFE)
        self.env = Env(deck, width, height, bleed, self.safe)
        self.drawings: dict[str, Any] = {}
        self.problems: dict[str, list[tuple[str, str]]] = {}
        self.locations: dict[str, Any] = {}
        self.python_problems: dict[str, list[tuple[str, str]]] = {}
        self._backs_read: dict[str, tuple[bool, bool]] = {}
        check_layouts(deck, self.env)

    def context(self, width: float, height: float) -> RenderContext:
        ctx = RenderContext(width=width, height=height, bleed=self.bleed, options=self.deck.options,
                            deck_name=self.deck.name, safe=self.safe)
        if "accent" in self.deck.style:
            ctx.accent = self.deck.style["accent"]
        return ctx

    # -- choosing layouts -----------------------------------------------------

    def layout_of(self, card: Card) -> Layout | None:
        layouts = self.deck.layouts
        if card.layout:
            return layouts[card.layout]
        name = card.kind
        if name == "generic" and not self.deck.landscape and layouts["generic"].builtin:
            name = "generic-portrait"
        if name in layouts:
            return layouts[name]
        if name in KIND_RENDERERS:
            return None
        raise CardgenError(f"cards of kind '{card.kind}' are drawn with a layout named '{card.kind}', and the "
                           f"deck has none (see the bundled decks for one to copy)", card.location)

    def back_layout_of(self, card: Card) -> Layout:
        backs = self.deck.backs
        layout = self.layout_of(card)
        name = (card.back_layout or (layout is not None and backs.get(layout.name)) or backs.get(card.kind)
                or self.deck.back.layout)
        return self.deck.layouts[name]

    # -- drawings ---------------------------------------------------------------

    def face(self, card: Card) -> str:
        """The key of the card's face drawing, planned on first use."""
        key = f"{card.id}@{card.owner}"
        if key not in self.drawings:
            layout = self.layout_of(card)
            if layout is None:
                self.drawings[key] = PythonDrawing(self, card)
            else:
                fields = card_fields(card, self.deck)
                if card.kind == "reference":
                    fields["lines"] = _reference_lines(card, self.deck.options)
                self._plan(key, layout, fields, card)
        return key

    def back(self, card: Card) -> str:
        """The key of the card's back drawing, planned on first use."""
        layout = self.back_layout_of(card)
        owned = card.owner >= 0 and bool(self.deck.players)
        tint = self.deck.back.tint_by_player and owned
        own, players = self._back_reads(layout)
        whose = owned and (tint or players)
        who = f"{card.id}@{card.owner}" if own else f"@{card.owner}" if whose else ""
        key = f"back:{layout.name}{':' + who if who else ''}"
        if key not in self.drawings:
            back = self.deck.back
            color = self.deck.players[card.owner].color if tint else back.color or DEFAULT_BACK_COLOR
            fields = card_fields(card, self.deck) if own else {"deck": self.deck.name}
            if whose:
                fields.update(player_fields(self.deck, card.owner))
            fields.update({"back_title": back.title, "back_subtitle": back.subtitle, "back_icon": back.icon,
                           "back_image": str(back.image) if back.image else "",
                           "back_art": str(back.image) if back.image else back.icon,
                           "back_color": to_hex(color)})
            self._plan(key, layout, fields, card if own else None)
        return key

    def _back_reads(self, layout: Layout) -> tuple[bool, bool]:
        """Whether a back layout reads the card's own fields, and whether it reads its player's:
        worked out once per layout, not once per card."""
        if layout.name not in self._backs_read:
            fields = layout.field_set
            own = fields - set(BACK_FIELDS) - set(PLAYER_FIELDS) - set(self.deck.options) - {"deck", "accent"}
            self._backs_read[layout.name] = bool(own), bool(fields & set(PLAYER_FIELDS))
        return self._backs_read[layout.name]

    def _plan(self, key: str, layout: Layout, fields: dict[str, Any], card: Card | None) -> None:
        who = card.id if card is not None else "back"
        where = card.location if card is not None else self.deck.key_locations.get("back", self.deck.location)
        result: Plan = plan(layout, fields, self.deck.options, self.env, who, where)
        self.drawings[key] = LayoutDrawing(result.ops, layout, result.elements)
        if result.problems:
            self.problems[key] = result.problems
        self.locations[key] = (who, where)

    def findings(self, cards: Iterable[Card]) -> list[Finding]:
        """What the validator reports about these cards' faces and backs: each problem once."""
        from ..progress import tick

        python: dict[str, Card] = {}
        for card in cards:
            self.face(card)
            self.back(card)
            tick()
            if self.layout_of(card) is None:
                python[card.id] = card
        out: list[Finding] = []
        deck_file = str(self.deck.path)
        seen: set[tuple[str, str]] = set()
        art: dict[str, dict[str, Location | None]] = {}  # message -> the cards it is about, in order
        for key, problems in self.problems.items():
            who, where = self.locations[key]
            for severity, message in problems:
                if severity == SHARED_WARNING:
                    art.setdefault(message, {}).setdefault(who, where)
                elif (who, message) not in seen:
                    seen.add((who, message))
                    out.append(Finding(deck_file, message, who, where, severity))
        out.extend(_shared_finding(deck_file, message, cards) for message, cards in art.items())
        if python:
            out.extend(self._python_findings(python))
        return out

    def _python_findings(self, cards: dict[str, Card]) -> list[Finding]:
        """Draw the Python-drawn faces once off the page and report their text problems."""
        from reportlab.pdfgen.canvas import Canvas

        scratch = Canvas(io.BytesIO(), pagesize=(self.width, self.height))
        self.python_problems.clear()
        for card in cards.values():
            scratch.saveState()
            self.drawings[self.face(card)](scratch, self.width, self.height)
            scratch.restoreState()
        out = []
        for card_id, problems in self.python_problems.items():
            card = cards[card_id]
            for what in dict.fromkeys(what for _, what in problems):
                out.append(Finding(str(self.deck.path), f"text does not fit: {what}", card_id, card.location))
        return out


def _reference_lines(card: Card, options: dict) -> list[str]:
    from .reference import reference_lines

    return ([card.text] if card.text else []) + reference_lines(card, options)


def check_layouts(deck: Deck, env: Env) -> None:
    """Refuse layouts that name fields no card has, or place elements outside the card."""
    from ..yamlio import did_you_mean

    known = set(BUILTIN_FIELDS) | set(BACK_FIELDS) | set(deck.options)
    if deck.standard_deck is not None:
        known.update(PLAYING_FIELDS)
    for card in deck.cards:
        known.update(card.fields)
    for layout in deck.layouts.values():
        for element in layout.elements:
            label = f"element '{element.name}'" if element.name else f"a {element.type} element"
            for key, name in ([] if layout.builtin else element.referenced_fields()):  # cardgen's own: tested
                if name not in known:
                    raise CardgenError(f"{label} of layout '{layout.name}' uses {{{name}}} in {key}, but no card "
                                       f"has a field '{name}'{did_you_mean(name, sorted(known))}", element.at(key))
            for key in ("when", "unless"):
                condition = getattr(element, key)
                name = condition.partition("=")[0].strip()
                if condition and name not in known:
                    raise CardgenError(f"{label} of layout '{layout.name}': {key} names '{name}', which is no "
                                       f"field or rule option{did_you_mean(name, sorted(known))}",
                                       element.at(key))
            _check_inside(layout, element, label, env)


def _check_inside(layout: Layout, element, label: str, env: Env) -> None:
    x, y, w, h = element.bounds(env.width, env.height, env.safe)  # as turned, if it is
    xs, ys = sorted((x, x + w)), sorted((y, y + h))
    tolerance = 0.01
    over = max(-xs[0], xs[1] - env.width, -ys[0], ys[1] - env.height)
    if over > tolerance:
        size = f"{env.width / 72 * 25.4:.0f} x {env.height / 72 * 25.4:.0f} mm"
        raise CardgenError(f"{label} of layout '{layout.name}' reaches {over / 72 * 25.4:.1f} mm outside the "
                           f"card ({size} on this sheet); keep x + width and y + height within 100%",
                           element.location)


def _shared_finding(deck_file: str, message: str, cards: dict[str, Location | None]) -> Finding:
    """One warning for art that several cards print alike: the first card's line, every card named."""
    (first, where), *rest = cards.items()
    if not rest:
        return Finding(deck_file, message, first, where, "warning")
    names = list(cards)
    shown = ", ".join(names[:NAMED_CARDS]) + (", ..." if len(names) > NAMED_CARDS else "")
    return Finding(deck_file, f"{message}: cards {shown} ({len(names)})", "", where, "warning")
