"""Drawing a layout for one card: fields filled in, text fitted, kept as ops.

``plan`` turns a layout and a card's fields into a Plan: a list of drawing
ops (plain tuples) and the problems found on the way (text that does not
fit, a character no font has, art printed at too low a resolution). The
validator reads the problems and the PDF writer replays the ops, so each
face is laid out once; tests read the ops as data.

Op shapes (points, y up from the card's bottom-left):

    ("rect", x, y, w, h, fill, stroke, stroke_width, radius)
    ("ellipse", x, y, w, h, fill, stroke, stroke_width)
    ("line", x1, y1, x2, y2, color, width)
    ("text", x, baseline, font, size, color, string, width)
    ("icon", name, x, bottom, size, color)        an icon inline in text
    ("glyph", name, cx, cy, size, fill, ink)      a built-in vector icon
    ("image", path, x, y, w, h, clip)             raster art; clip is a box or None
    ("svg", path, x, y, w, h)                     vector art
    ("transform", a, b, c, d, e, f)               the ops up to the next ("end",) are mirrored
    ("end",)                                      and turned by this PDF matrix (``rotate``, ``mirror``)

A turned element is laid out in its own upright box (text fits there) and
turned as a whole, so its ops keep the coordinates of that box.
"""
from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..colors import NO_COLOR, ink_on, mix, parse_color_expr, to_hex
from ..errors import CardgenError, Location
from ..layouts import (
    DEFAULT_MIN_SIZE,
    DEFAULT_SIZE,
    Element,
    Layout,
    condition_on,
    parse_size,
    parse_span,
    substitute,
)
from ..model import PLAYER_MARKS, RGB, Card, Deck
from . import rich
from .common import INK
from .fonts import FontChain, default_family, describe, script_of
from .icons import ICONS
from .images import draw_glyph
from .shaping import shape
from .svg import check_svg, svg_size
from .text import TextOut

WHITE: RGB = (1.0, 1.0, 1.0)
#: printed resolution of raster art: below WARN_PPI a note that it could be sharper, below MIN_PPI a
#: warning that it prints soft (an error only under ``--strict``)
WARN_PPI = 300
MIN_PPI = 150
#: the severity of a warning that many cards may share (art printed soft, a font lacking a style): the
#: findings give one warning per message, naming its cards, not one per card
SHARED_WARNING = "shared-warning"
_WHOLE_FIELD = re.compile(r"^\{([A-Za-z_][A-Za-z0-9_]*)\}$")
_EPS = 0.01


@dataclass
class Plan:
    ops: list[tuple] = field(default_factory=list)
    #: (severity, message) for the validator
    problems: list[tuple[str, str]] = field(default_factory=list)
    #: the elements drawn, in order (the ones a ``when`` or ``unless`` left out are not): what
    #: ``cardgen serve`` outlines with its hints
    elements: list[Element] = field(default_factory=list)


class Env:
    """What laying out a deck's cards needs beyond the card: its box, fonts, icons, art folders."""

    def __init__(self, deck: Deck, width: float, height: float, bleed: float, safe: float):
        from ..deck import ART_DIR

        self.deck = deck
        self.width, self.height, self.bleed, self.safe = width, height, bleed, safe
        fallback = tuple(deck.fonts[name] for name in deck.font_fallback)
        self.chain = FontChain(fallback + (default_family(),))
        self.icon_names = frozenset(ICONS) | frozenset(deck.icons)
        self.roots = tuple(p.resolve() for p in (deck.folder, ART_DIR) if p is not None)
        #: file name (as a field gives it) -> art file: the loader's art is resolved and checked already,
        #: the rest is resolved once per build however many cards name it
        self.art_paths: dict[str, Path] = {str(p): p for p in (*(c.image for c in deck.cards), deck.back.image,
                                                               *deck.icons.values()) if p is not None}
        self._boxes: dict[int, tuple[float, float, float, float]] = {}
        self._turns: dict[int, tuple | None] = {}
        #: element -> its box pushed out into the bleed (``_box``), the same for every card
        self.bleed_boxes: dict[int, tuple[float, float, float, float]] = {}
        #: raster art file -> its upright size in pixels (``raster_size``)
        self.raster_sizes: dict[Path, tuple[int, int]] = {}

    def chain_for(self, font: str | None) -> FontChain:
        return self.chain.starting_with(self.deck.fonts.get(font)) if font else self.chain

    def box(self, element: Element) -> tuple[float, float, float, float]:
        """The element's box on this deck's card (the same for every card, so worked out once)."""
        key = id(element)
        if key not in self._boxes:
            self._boxes[key] = element.box(self.width, self.height, self.safe)
        return self._boxes[key]

    def turn(self, element: Element) -> tuple | None:
        """The ("transform", ...) op that mirrors and turns the element, or None."""
        key = id(element)
        if key not in self._turns:
            matrix = element.transform(self.width, self.height, self.safe)
            self._turns[key] = None if matrix is None else ("transform", *matrix)
        return self._turns[key]


def card_fields(card: Card, deck: Deck) -> dict[str, Any]:
    """Everything ``{name}`` can name on this card: its keys, its own fields, the deck's.

    The title and text may hold ``{option}`` or ``{field}`` placeholders of
    their own; those are filled in too (a brace naming nothing stays as written).
    """
    from .reference import fill

    color = card.color or deck.style.get("accent") or (0.2, 0.2, 0.25)
    known = {**deck.options, **card.fields}
    fields: dict[str, Any] = {
        "id": card.id, "kind": card.kind, "copies": card.copies, "title": fill(card.title, known),
        "text": fill(card.text, known),
        "icon": card.icon, "image": str(card.image) if card.image else "",
        "art": str(card.image) if card.image else card.icon,
        "color": to_hex(color), "deck": deck.name, "accent": to_hex(deck.style.get("accent", (0.2, 0.2, 0.25))),
        "lines": [],
    }
    if card.owner >= 0 and deck.players:
        fields.update(player_fields(deck, card.owner))
    fields.update(card.fields)
    return fields


def player_fields(deck: Deck, owner: int) -> dict[str, Any]:
    """Whose card it is: name, colour, seat number and shape (``{player_mark}``, an icon name)."""
    player = deck.players[owner]
    return {"player": player.name, "player_color": to_hex(player.color), "player_number": owner + 1,
            "player_mark": PLAYER_MARKS[owner % len(PLAYER_MARKS)]}


BUILTIN_FIELDS = ("id", "kind", "copies", "title", "text", "icon", "image", "art", "color", "deck", "accent",
                  "lines", "player", "player_color", "player_number", "player_mark")


def plan(layout: Layout, fields: Mapping[str, Any], options: Mapping[str, Any], env: Env,
         who: str, where: Location | None) -> Plan:
    """Lay ``layout`` out for one card (``who`` names it in messages, ``where`` locates it)."""
    result = Plan()
    slots: list[tuple[Element, Any]] = []
    texts: list[_Text] = []
    values = {**options, **fields}
    for element in layout.elements:
        if element.when and not condition_on(element.when, fields, options):
            continue
        if element.unless and condition_on(element.unless, fields, options):
            continue
        try:
            drawn = _DRAW[element.type](element, values, env, result)
        except _Bad as exc:
            label = f"element '{element.name}'" if element.name else f"a {element.type} element"
            raise CardgenError(f"card '{who}', {label} of layout '{layout.name}': {exc}", where) from None
        if isinstance(drawn, _Text):
            texts.append(drawn)
        slots.append((element, drawn))
        result.elements.append(element)
    _share_group_sizes(texts)
    for element, slot in slots:
        if isinstance(slot, _Text):
            ops = _inline_art(slot.ops(), env, result)
            result.problems.extend(slot.problems(layout.name))
        else:
            ops = slot
        turn = env.turn(element)
        if turn is not None and ops:
            ops = [turn, *ops, ("end",)]
        result.ops.extend(ops)
    return result


def _inline_art(ops: list[tuple], env: Env, result: Plan) -> list[tuple]:
    """Inline icons that are the deck's own art files become art ops in the icon's square."""
    if not env.deck.icons:
        return ops
    out: list[tuple] = []
    for op in ops:
        if op[0] == "icon" and op[1] in env.deck.icons:
            _, name, x, bottom, size, _color = op
            out.extend(_art(env.deck.icons[name], x, bottom, size, size, "contain", result, f"icon '{name}'", env))
        else:
            out.append(op)
    return out


class _Bad(Exception):
    """A value from the card's fields that cannot be drawn; plan() locates it at the card."""


# --- element kinds ---------------------------------------------------------------

def _color(element: Element, key: str, values: Mapping[str, Any], default: RGB | None) -> RGB | None:
    raw = element.attrs.get(key)
    if raw is None:
        return default
    text = substitute(str(raw), values).strip()
    if not text or text.lower() == NO_COLOR:
        return None
    try:
        return _parse_color(text)
    except ValueError as exc:
        raise _Bad(f"{key}: {exc}") from None


@lru_cache(maxsize=4096)
def _parse_color(text: str) -> RGB:
    return parse_color_expr(text)


def _length(element: Element, key: str, default: float) -> float:
    raw = element.attrs.get(key)
    return default if raw is None else parse_span(raw).points


def _box(element: Element, env: Env) -> tuple[float, float, float, float]:
    """The box an element draws in: with ``bleed``, its sides on the trim pushed out into the bleed.

    A turned element's sides are judged where they land: its box is turned, pushed out and turned
    back, so the drawing turned by its matrix covers the bleed. A box turned by no quarter turn has
    no side along the trim and gets no bleed."""
    if not element.bleed or not env.bleed:
        return env.box(element)
    key = id(element)
    if key not in env.bleed_boxes:
        env.bleed_boxes[key] = _bleed_box(element, env)
    return env.bleed_boxes[key]


def _bleed_box(element: Element, env: Env) -> tuple[float, float, float, float]:
    x, y, w, h = env.box(element)
    turn = env.turn(element)
    if turn is None:
        return _into_bleed((x, y, w, h), env)
    if element.rotate % 90:
        return x, y, w, h
    _, a, b, c, d, e, f = turn
    left, bottom, width, height = _into_bleed(element.bounds(env.width, env.height, env.safe), env)
    # the matrix is a quarter turn or mirror: its inverse is its transpose
    xs, ys = zip(*((a * (px - e) + b * (py - f), c * (px - e) + d * (py - f))
                   for px in (left, left + width) for py in (bottom, bottom + height)))
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def _into_bleed(box: tuple[float, float, float, float], env: Env) -> tuple[float, float, float, float]:
    x, y, w, h = box
    b = env.bleed
    if abs(x) < _EPS:
        x, w = x - b, w + b
    if abs(x + w - env.width) < _EPS:
        w += b
    if abs(y) < _EPS:
        y, h = y - b, h + b
    if abs(y + h - env.height) < _EPS:
        h += b
    return x, y, w, h


def _rect(element: Element, values, env: Env, result: Plan) -> list[tuple]:
    x, y, w, h = _box(element, env)
    fill = _color(element, "fill", values, None)
    stroke = _color(element, "stroke", values, None)
    if fill is None and stroke is None:
        return []
    op = "rect" if element.type == "rect" else "ellipse"
    width = _length(element, "stroke_width", 1.0)
    if op == "rect":
        return [(op, x, y, w, h, fill, stroke, width, _length(element, "radius", 0.0))]
    return [(op, x, y, w, h, fill, stroke, width)]


def _line(element: Element, values, env: Env, result: Plan) -> list[tuple]:
    x, y, w, h = env.box(element)
    color = _color(element, "color", values, INK)
    if color is None:
        return []
    return [("line", x, y + h, x + w, y, color, _length(element, "stroke_width", 1.0))]


def _icon(element: Element, values, env: Env, result: Plan) -> list[tuple]:
    name = substitute(str(element.attrs.get("icon", "")), values).strip()
    if not name:
        return []
    x, y, w, h = _box(element, env)
    if name in env.deck.icons:
        return _art(env.deck.icons[name], x, y, w, h, "contain", result, f"icon '{name}'", env)
    if name not in ICONS:
        from ..yamlio import did_you_mean

        raise _Bad(f"icon: unknown icon '{name}'{did_you_mean(name, sorted(env.icon_names))}")
    size = min(w, h)
    fill = _color(element, "fill", values, WHITE)
    ink = _color(element, "color", values, INK)
    return [("glyph", name, x + w / 2, y + h / 2, size, fill or WHITE, ink or INK)]


def _image(element: Element, values, env: Env, result: Plan) -> list[tuple]:
    name = substitute(str(element.attrs.get("file", "")), values).strip()
    if not name:
        return []
    path = _resolve_art(name, env)
    x, y, w, h = _box(element, env)
    return _art(path, x, y, w, h, element.attrs.get("fit", "contain"), result, f"image '{_shown(path, env)}'", env)


def _shown(path: Path, env: Env) -> str:
    """The art file as the designer knows it: beside the deck, its path from there; else its whole path."""
    return _relative(path, env.deck.path.parent)


@lru_cache(maxsize=1024)
def _relative(path: Path, folder: Path) -> str:
    """``path`` from ``folder`` when it lies inside it, else whole (worked out once per file)."""
    try:
        return path.resolve().relative_to(folder.resolve()).as_posix()
    except ValueError:
        return str(path)


def _resolve_art(name: str, env: Env) -> Path:
    """A file named by a field: the card's own art (already checked), or a file beside the deck or in art/."""
    if name not in env.art_paths:
        env.art_paths[name] = _find_art(name, env)
    return env.art_paths[name]


def _find_art(name: str, env: Env) -> Path:
    candidate = Path(name)
    if candidate.is_absolute():
        resolved = candidate.resolve()
        if any(resolved.is_relative_to(root) for root in env.roots) and resolved.is_file():
            return resolved
        raise _Bad(f"file: '{name}' must be relative to the deck file")
    from ..deck import resolve_art

    try:
        path = resolve_art(name, env.roots[0] if env.roots else Path("."), None)
        if path.suffix.lower() == ".svg":
            check_svg(path, name, None)
        return path
    except CardgenError as exc:
        raise _Bad(f"file: {exc.message}") from None


def _art(path: Path, x: float, y: float, w: float, h: float, fit: str, result: Plan, what: str,
         env: Env) -> list[tuple]:
    if path.suffix.lower() == ".svg":
        sw, sh = svg_size(path)
        dx, dy, dw, dh = _fit_box(sw, sh, x, y, w, h, "contain" if fit == "cover" else fit)
        return [("svg", path, dx, dy, dw, dh)]
    if path not in env.raster_sizes:  # asked once per build, not once per card naming the file
        env.raster_sizes[path] = raster_size(path)
    pw, ph = env.raster_sizes[path]
    dx, dy, dw, dh = _fit_box(pw, ph, x, y, w, h, fit)
    ppi = min(pw / (dw / 72.0), ph / (dh / 72.0)) if dw > 0 and dh > 0 else float("inf")
    if ppi < MIN_PPI:
        soft = (f"{what} is {ppi:.0f} ppi at its printed size ({pw} x {ph} px in {dw / 72 * 25.4:.0f} x "
                f"{dh / 72 * 25.4:.0f} mm; needs {MIN_PPI}, {WARN_PPI} look sharp)")
        result.problems.append((SHARED_WARNING, soft))
    elif ppi < WARN_PPI:
        result.problems.append((SHARED_WARNING, f"{what} prints at {ppi:.0f} ppi; {WARN_PPI} ppi look sharp"))
    clip = (x, y, w, h) if fit == "cover" else None
    return [("image", path, dx, dy, dw, dh, clip)]


def _fit_box(iw: float, ih: float, x: float, y: float, w: float, h: float, fit: str):
    if fit == "stretch" or iw <= 0 or ih <= 0:
        return x, y, w, h
    scale = (max if fit == "cover" else min)(w / iw, h / ih)
    dw, dh = iw * scale, ih * scale
    return x + (w - dw) / 2, y + (h - dh) / 2, dw, dh


def raster_size(path: Path) -> tuple[int, int]:
    """The art's pixels, turned as its EXIF orientation says (from the one opening of the file)."""
    from .images import raster

    return raster(path).upright_size


# --- text ------------------------------------------------------------------------

@dataclass
class _Text:
    """A text or list element, fitted on its own; groups may then make it smaller."""

    element: Element
    box: tuple[float, float, float, float]
    color: RGB
    items: list[rich.Prepared]
    size: float
    min_size: float
    fitted: Any
    missing: list[str]
    words: str
    chain: FontChain
    mark: int = -1
    marker: str = ""
    mark_fill: RGB = WHITE

    @property
    def group(self) -> str:
        return str(self.element.attrs.get("group", ""))

    def refit(self, size: float) -> None:
        _x, _y, w, h = self.box
        if self.element.type == "list":
            self.fitted = rich.fit_list_at(self.items, size, w, h, self.fitted.columns, _indent(self.marker),
                                           self.fitted.leading, self.fitted.gap)
        else:
            self.fitted = rich.fits_at(self.items[0], size, w, h, self.fitted.leading,
                                       self.element.attrs.get("max_lines"))

    def problems(self, layout: str) -> list[tuple[str, str]]:
        notes = [note for item in self.items for note in item.notes]
        if not self.missing and self.fitted.fits and not notes:
            return []
        out: list[tuple[str, str]] = []
        label = f"'{self.element.name}'" if self.element.name else f"a {self.element.type} element"
        out.extend((SHARED_WARNING, note) for note in dict.fromkeys(notes))
        for char in self.missing:
            out.append(("error", (f"{label} prints {describe(char)}, a {script_of(char)} character no font "
                                 f"has (fonts tried: {self.chain.names}){_font_hint(char)}")))
        if not self.fitted.fits:
            _x, _y, w, h = self.box
            out.append(("error", (f"text of {label} does not fit in {w / 72 * 25.4:.0f} x {h / 72 * 25.4:.0f} mm "
                                 f"even at {self.fitted.size:g} pt: {self.words[:40]!r}")))
        return out

    def ops(self) -> list[tuple]:
        x, y, w, h = self.box
        align = self.element.attrs.get("align", "start")
        if self.element.type == "text":
            return rich.block_ops(self.fitted, x, y + h, w, h, align,
                                  self.element.attrs.get("valign", "top"), self.color)
        return _list_ops(self, x, y + h, w)


def _text(element: Element, values, env: Env, result: Plan) -> _Text | list:
    words = substitute(str(element.attrs.get("text", "")), values)
    chain = env.chain_for(element.attrs.get("font"))
    runs = _parse(words, env, element)
    prepared = rich.prepare(runs, chain, str(element.attrs.get("direction", "auto")))
    if prepared.empty:
        return []
    size, min_size = _sizes(element)
    x, y, w, h = env.box(element)
    leading = float(element.attrs.get("leading", rich.LEADING))
    fitted = rich.fit(prepared, size, min_size, w, h, leading, element.attrs.get("max_lines"))
    color = _color(element, "color", values, INK) or INK
    return _Text(element, (x, y, w, h), color, [prepared], size, min_size, fitted, list(prepared.missing),
                 words, chain)


def _font_hint(char: str) -> str:
    """Where to find a font for ``char``'s script: Noto has one for nearly every script."""
    script = script_of(char)
    if script in ("Common", "Inherited", "Unknown"):
        return ""
    name = {"Han": "Noto Sans CJK JP", "Hiragana": "Noto Sans CJK JP", "Katakana": "Noto Sans CJK JP",
            "Hangul": "Noto Sans CJK KR"}.get(script, f"Noto Sans {script}")
    return f"; declare a font for {script} in fonts and font_fallback, for example {{system: {name}}}"


def _sizes(element: Element) -> tuple[float, float]:
    """The element's text size and the smallest it may shrink to."""
    size = _size(element.attrs.get("size", DEFAULT_SIZE))
    return size, min(size, _size(element.attrs.get("min_size", DEFAULT_MIN_SIZE)))


@lru_cache(maxsize=1024)
def _size(value: Any) -> float:
    return parse_size(value)


def _parse(words: str, env: Env, element: Element, bold: bool = False) -> list[rich.Run]:
    try:
        return rich.parse(words, env.icon_names, parse_color_expr, bold=bold or bool(element.attrs.get("bold")),
                          italic=bool(element.attrs.get("italic")))
    except rich.MarkupError as exc:
        raise _Bad(f"text: {exc}") from None


def _list(element: Element, values, env: Env, result: Plan) -> _Text | list:
    raw = str(element.attrs.get("items", ""))
    whole = _WHOLE_FIELD.match(raw)
    value = values.get(whole.group(1)) if whole else None
    if isinstance(value, (list, tuple)):
        entries = [str(v) for v in value if str(v).strip()]
    else:
        entries = [line for line in substitute(raw, values).split("\n") if line.strip()]
    if not entries:
        return []
    mark_text = substitute(str(element.attrs.get("mark", "")), values).strip()
    mark = next((i for i, e in enumerate(entries) if mark_text and e.strip() == mark_text), -1)
    chain = env.chain_for(element.attrs.get("font"))
    direction = str(element.attrs.get("direction", "auto"))
    items = [rich.prepare(_parse(entry, env, element, bold=i == mark), chain, direction)
             for i, entry in enumerate(entries)]
    missing = list(dict.fromkeys(c for item in items for c in item.missing))
    size, min_size = _sizes(element)
    x, y, w, h = env.box(element)
    rows = element.attrs.get("rows")
    columns = int(element.attrs.get("columns") or (math.ceil(len(entries) / rows) if rows else 1))
    marker = str(element.attrs.get("marker", "bullet"))
    leading = float(element.attrs.get("leading", rich.LEADING))
    gap = float(element.attrs.get("gap", 0.35))
    fitted = rich.largest(size, min_size, lambda s: rich.fit_list_at(items, s, w, h, columns, _indent(marker),
                                                                     leading, gap))
    color = _color(element, "color", values, INK) or INK
    mark_fill = _color(element, "fill", values, color) or color
    return _Text(element, (x, y, w, h), color, items, size, min_size, fitted, missing, "; ".join(entries),
                 chain, mark, marker, mark_fill)


def _indent(marker: str) -> float:
    """The hanging indent of list entries, in ems."""
    return {"none": 0.0, "bullet": 0.85}.get(marker, 1.25)


def _list_ops(text: _Text, x: float, top: float, width: float) -> list[tuple]:
    fitted = text.fitted
    size = fitted.size
    col_gap = 6.0
    col_w = (width - (fitted.columns - 1) * col_gap) / fitted.columns
    per_column = -(-len(fitted.entries) // fitted.columns)
    indent = _indent(text.marker) * size
    ops: list[tuple] = []
    bullet_font = text.chain.fonts("bold")[0]
    for i, lines in enumerate(fitted.entries):
        column, row = divmod(i, per_column)
        if row == 0:
            baseline = top - size * 0.93
        left = x + column * (col_w + col_gap)
        marked = i == text.mark
        if text.marker == "bullet":
            bullet = shape("\u2022", bullet_font)
            ops.append(("text", left, baseline, bullet_font, size, text.color, "\u2022", bullet.w1 * size,
                        (bullet,)))
        elif text.marker == "check":
            box = size * 0.85
            bottom = baseline - size * 0.05
            ops.append(("rect", left, bottom, box, box, text.mark_fill if marked else WHITE, text.color,
                        max(0.5, size * 0.08), 0.0))
            if marked:
                tick = _tick(left, bottom, box)
                ops.extend(("line", *segment, WHITE if sum(text.mark_fill) < 1.6 else INK, max(0.8, size * 0.14))
                           for segment in tick)
        for line in lines:
            ops.extend(rich.line_ops(line, size, left + indent, baseline, text.color))
            baseline -= size * fitted.leading
        baseline -= fitted.gap * size
    return ops


def _tick(x: float, y: float, box: float) -> list[tuple[float, float, float, float]]:
    return [(x + box * 0.2, y + box * 0.5, x + box * 0.42, y + box * 0.22),
            (x + box * 0.42, y + box * 0.22, x + box * 0.85, y + box * 0.85)]


def _share_group_sizes(texts: list[_Text]) -> None:
    """Text elements of one ``group`` on a card take the smallest size any of them needed."""
    groups: dict[str, list[_Text]] = {}
    for text in texts:
        if text.group:
            groups.setdefault(text.group, []).append(text)
    for members in groups.values():
        size = min(t.fitted.size for t in members)
        for text in members:
            if text.fitted.size != size:
                text.refit(size)


_DRAW = {"rect": _rect, "ellipse": _rect, "line": _line, "icon": _icon, "image": _image, "text": _text,
         "list": _list}


# --- replaying ops on a canvas -----------------------------------------------------

def draw(canvas, ops: list[tuple]) -> None:
    """Replay ``ops`` on a reportlab canvas (art and icons through the forms the writer made, if any)."""
    text = TextOut(canvas)
    inline: list[tuple] = []  # icons met inside a text run, drawn when the run ends
    for op in ops:
        kind = op[0]
        if kind == "icon" and text.open:
            inline.append(op)
            continue
        if kind == "text":
            text.add(op)
            continue
        if text.open:
            text.close()
            _draw_inline(canvas, inline)
        if kind == "transform":
            canvas.saveState()
            canvas.transform(*op[1:])
        elif kind == "end":
            canvas.restoreState()
        elif kind == "rect":
            _, x, y, w, h, fill, stroke, width, radius = op
            _paint(canvas, fill, stroke, width)
            if radius:
                canvas.roundRect(x, y, w, h, radius, stroke=int(stroke is not None), fill=int(fill is not None))
            else:
                canvas.rect(x, y, w, h, stroke=int(stroke is not None), fill=int(fill is not None))
        elif kind == "ellipse":
            _, x, y, w, h, fill, stroke, width = op
            _paint(canvas, fill, stroke, width)
            canvas.ellipse(x, y, x + w, y + h, stroke=int(stroke is not None), fill=int(fill is not None))
        elif kind == "line":
            _, x1, y1, x2, y2, color, width = op
            canvas.setStrokeColor(color)
            canvas.setLineWidth(width)
            canvas.line(x1, y1, x2, y2)
        elif kind == "glyph":
            _, name, cx, cy, size, fill, ink = op
            draw_glyph(canvas, (name, fill, ink), cx, cy, size)
        elif kind == "icon":
            _draw_inline(canvas, [op])
        elif kind in ("image", "svg"):
            _place_art(canvas, op)
    if text.open:
        text.close()
        _draw_inline(canvas, inline)


def _draw_inline(canvas, icons: list[tuple]) -> None:
    for _, name, x, bottom, size, color in icons:
        draw_glyph(canvas, inline_glyph(name, color), x + size / 2, bottom + size / 2, size)
    icons.clear()


@lru_cache(maxsize=1024)
def inline_glyph(name: str, color: RGB) -> tuple[str, RGB, RGB]:
    """An icon in text: drawn in the text's colour, filled light on dark ink (dark on light)."""
    return (name, mix(color, ink_on(color), 0.7), color)


def _paint(canvas, fill: RGB | None, stroke: RGB | None, width: float) -> None:
    # the colour itself, not its channels: one given in inks keeps them on a CMYK canvas
    if fill is not None:
        canvas.setFillColor(fill)
    if stroke is not None:
        canvas.setStrokeColor(stroke)
        canvas.setLineWidth(width)


def _place_art(canvas, op: tuple) -> None:
    from .images import draw_art

    if op[0] == "svg":
        _, path, x, y, w, h = op
        clip = None
    else:
        _, path, x, y, w, h, clip = op
    canvas.saveState()
    if clip is not None:
        p = canvas.beginPath()
        p.rect(*clip)
        canvas.clipPath(p, stroke=0, fill=0)
    draw_art(canvas, path, x, y, w, h)
    canvas.restoreState()


def art_files(ops: list[tuple]) -> set:
    """The art files and built-in icons ``ops`` draw, so a writer can make each one form, drawn once."""
    out: set = set()
    for op in ops:
        if op[0] in ("image", "svg"):
            out.add(op[1])
        elif op[0] == "glyph":
            out.add((op[1], op[5], op[6]))
        elif op[0] == "icon":
            out.add(inline_glyph(op[1], op[5]))
    return out
