"""Layouts: how a card looks, kept as data in the deck file (after Squib's layouts).

A layout is a list of named elements (text, rect, ellipse, line, image,
icon, list), each placed in a box measured from the card's top-left corner
in mm, in, cm, pt or % of the card (or of its safe area), or a sum such as
``100% - 6mm``; ``anchor`` says which point of the element the x and y
place; ``mirror`` and ``rotate`` turn what is drawn in the box about its
centre. A layout may ``extends`` another and override its elements by name.
Any text or attribute may hold ``{field}``, filled from the card's data.

Everything is checked here once, each mistake located at its element or
attribute; render/layout.py draws what comes out and trusts it.
"""
from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from .colors import NO_COLOR, parse_color_expr
from .errors import CardgenError, Location
from .numbers import UNSIGNED
from .resources import bundled
from .schema import MAX_TURN, MIRRORS
from .units import POINTS_PER
from .yamlio import Located, did_you_mean

ELEMENT_TYPES = ("text", "rect", "ellipse", "line", "image", "icon", "list")
COMMON_KEYS = ("name", "type", "x", "y", "width", "height", "anchor", "area", "bleed", "rotate", "mirror",
               "when", "unless", "remove")
TYPE_KEYS = {
    "text": ("text", "font", "size", "min_size", "color", "align", "valign", "leading", "group",
             "max_lines", "bold", "italic", "direction"),
    "rect": ("fill", "stroke", "stroke_width", "radius"),
    "ellipse": ("fill", "stroke", "stroke_width"),
    "line": ("color", "stroke_width"),
    "image": ("file", "fit"),
    "icon": ("icon", "fill", "color"),
    "list": ("items", "mark", "marker", "columns", "rows", "font", "size", "min_size", "color", "fill",
             "leading", "group", "gap", "bold", "direction"),
}
#: the fraction of an element's width and height from its top-left corner to its anchor
ANCHORS = {"top-left": (0.0, 0.0), "top": (0.5, 0.0), "top-right": (1.0, 0.0),
           "left": (0.0, 0.5), "center": (0.5, 0.5), "right": (1.0, 0.5),
           "bottom-left": (0.0, 1.0), "bottom": (0.5, 1.0), "bottom-right": (1.0, 1.0)}
AREAS = ("trim", "safe")
COLOR_KEYS = ("fill", "stroke", "color")
#: the keys whose values may hold {field}; sizes, lengths and choices are fixed by the layout
FIELD_KEYS = ("text", "fill", "stroke", "color", "file", "icon", "items", "mark")
LENGTH_KEYS = ("stroke_width", "radius")
SIZE_KEYS = ("size", "min_size")
#: text sizes in points when a text or list element gives none
DEFAULT_SIZE = 9.0
DEFAULT_MIN_SIZE = 6.0

_FIELD = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}")
_TERM = re.compile(rf"\s*([+-]?)\s*({UNSIGNED})\s*(mm|cm|in|pt|%)?\s*")
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


# --- lengths ---------------------------------------------------------------------

@dataclass(frozen=True)
class Span:
    """A length along the card: ``points`` plus ``percent`` of the reference (card or safe area)."""

    points: float = 0.0
    percent: float = 0.0

    def of(self, reference: float) -> float:
        return self.points + self.percent * reference / 100.0


FULL = Span(0.0, 100.0)


def parse_span(value: Any) -> Span:
    """``0``, ``"3mm"``, ``"50%"``, ``"100% - 6mm"``: ValueError for anything else, saying what is wrong
    with it (the caller names the key and what it takes)."""
    if isinstance(value, bool):
        raise ValueError(f"got {value!r}")
    if isinstance(value, (int, float)):
        if value != 0:
            raise ValueError(f"{value!r} needs a unit")
        return Span()
    text = str(value).strip()
    if not text:
        raise ValueError("got nothing")
    points = percent = 0.0
    pos = 0
    first = True
    while pos < len(text):
        match = _TERM.match(text, pos)
        if not match or match.end() == pos or (not first and not match.group(1)):
            raise ValueError(f"got {text!r}")
        sign = -1.0 if match.group(1) == "-" else 1.0
        number, unit = float(match.group(2)), match.group(3)
        if unit is None:
            if number != 0:
                raise ValueError(f"{match.group(2)} in {text!r} needs a unit")
            unit = "pt"
        if unit == "%":
            percent += sign * number
        else:
            points += sign * number * POINTS_PER[unit]
        pos = match.end()
        first = False
    return Span(points, percent)


#: what each measured key of an element takes, for its error message
TAKES_BOX = "a length with a unit: mm, in, cm, pt or % (such as 3mm, 50% or 100% - 6mm)"
TAKES_STROKE = "a length such as 0.5mm or 1pt"
TAKES_SIZE = "points, a number such as 8 or 8pt (or a length such as 3mm)"


def parse_size(value: Any) -> float:
    """A text size: a number of points, or a length such as ``9pt`` or ``3mm``."""
    if isinstance(value, bool):
        raise ValueError(f"takes {TAKES_SIZE}, got {value!r}")
    if isinstance(value, (int, float)):
        number = float(value)
    else:
        try:
            number = float(str(value))
        except ValueError:
            try:
                span = parse_span(value)
            except ValueError:
                raise ValueError(f"takes {TAKES_SIZE}, got {value!r}") from None
            if span.percent:
                raise ValueError(f"takes {TAKES_SIZE}, not a percentage, got {value!r}") from None
            number = span.points
    if not 1.0 <= number <= 400.0:
        raise ValueError(f"a text size must be from 1 to 400 pt, got {value!r}")
    return number


def turn_matrix(degrees: float, mirror: str, cx: float, cy: float) -> tuple[float, float, float, float, float, float]:
    """The PDF matrix that mirrors (``horizontal`` or ``vertical``), then turns ``degrees`` clockwise as
    seen on the card (y up, so anticlockwise in PDF terms is negative), about the point (cx, cy)."""
    radians = math.radians(-degrees)
    cos, sin = _exact(math.cos(radians)), _exact(math.sin(radians))
    sx = -1.0 if mirror == "horizontal" else 1.0
    sy = -1.0 if mirror == "vertical" else 1.0
    a, b, c, d = cos * sx, sin * sx, -sin * sy, cos * sy
    return a, b, c, d, cx - (a * cx + c * cy), cy - (b * cx + d * cy)


def _exact(value: float) -> float:
    """cos and sin of quarter turns as the whole numbers they are (0, not 6e-17)."""
    near = round(value)
    return float(near) if abs(value - near) < 1e-12 else value


# --- fields ----------------------------------------------------------------------

def field_names(text: str) -> list[str]:
    """The ``{field}`` names in ``text`` (``{{`` and ``}}`` are literal braces)."""
    return [m.group(1) for m in _FIELD.finditer(text) if m.group(1)]


def substitute(text: str, values: Mapping[str, Any]) -> str:
    """``text`` with each ``{field}`` replaced by its value ("" when the card has none)."""
    if "{" not in text and "}" not in text:
        return text
    parts = _template(text)
    if len(parts) == 2 and not parts[0]:  # the whole text is one field, as most layouts' are
        return _field_text(values.get(parts[1], ""))
    out = []
    for i, part in enumerate(parts):
        out.append(_field_text(values.get(part, "")) if i % 2 else part)
    return "".join(out)


@lru_cache(maxsize=4096)
def _template(text: str) -> tuple[str, ...]:
    """``text`` cut once into literal text and the field names between: literal, name, literal, ...
    (``{{`` and ``}}`` already turned into braces); every card of a deck shares its layout's texts."""
    parts, literal, pos = [], [], 0
    for match in _FIELD.finditer(text):
        literal.append(text[pos:match.start()])
        pos = match.end()
        if match.group(1) is None:
            literal.append(match.group(0)[0])
        else:
            parts += ["".join(literal), match.group(1)]
            literal = []
    literal.append(text[pos:])
    if "".join(literal):
        parts.append("".join(literal))
    return tuple(parts)


def _field_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def condition_on(condition: str, fields: Mapping[str, Any], options: Mapping[str, Any]) -> bool:
    """``NAME`` is on when the card's field NAME is not empty, else when rule option NAME is on;
    ``NAME=VALUE`` when it equals VALUE."""
    name, wanted = _condition(condition)
    value = fields[name] if name in fields else options.get(name)
    if wanted is not None:
        return str(value).strip().lower() == wanted
    if isinstance(value, str):
        return value.strip().lower() not in ("", "0", "false", "no", "off")
    return bool(value)


@lru_cache(maxsize=1024)
def _condition(condition: str) -> tuple[str, str | None]:
    """A condition's field name and the value it wants (lower case), None for "not empty": read once
    per layout, not once per card."""
    name, sep, wanted = condition.partition("=")
    return name.strip(), wanted.strip().lower() if sep else None


def condition_name(condition: str) -> str:
    return condition.partition("=")[0].strip()


# --- the model -------------------------------------------------------------------

@dataclass(frozen=True)
class Element:
    """One thing drawn on a card, in a box given relative to the trim or safe area."""

    name: str
    type: str
    x: Span = Span()
    y: Span = Span()
    width: Span = FULL
    height: Span = FULL
    anchor: str = "top-left"
    area: str = "trim"
    #: push the sides that lie on the trim out into the bleed (backgrounds, bands)
    bleed: bool = False
    #: degrees the drawing is turned clockwise about the box's centre, after ``mirror``
    rotate: float = 0.0
    #: "horizontal", "vertical" or "" (none)
    mirror: str = ""
    when: str = ""
    unless: str = ""
    #: the type's own attributes as written (text and colours may hold {field})
    attrs: Mapping[str, Any] = field(default_factory=dict)
    location: Location | None = None
    #: where each key was written, for errors that point at it
    where: Mapping[str, Location] = field(default_factory=dict)

    def at(self, key: str) -> Location | None:
        return self.where.get(key, self.location)

    def box(self, card_width: float, card_height: float, safe: float) -> tuple[float, float, float, float]:
        """(left, bottom, width, height) in points, PDF-style with y up from the card's bottom."""
        if self.area == "safe":
            ox, oy, rw, rh = safe, safe, card_width - 2 * safe, card_height - 2 * safe
        else:
            ox, oy, rw, rh = 0.0, 0.0, card_width, card_height
        w, h = self.width.of(rw), self.height.of(rh)
        fx, fy = ANCHORS[self.anchor]
        left = ox + self.x.of(rw) - fx * w
        top = oy + self.y.of(rh) - fy * h
        return left, card_height - top - h, w, h

    def transform(self, card_width: float, card_height: float,
                  safe: float) -> tuple[float, float, float, float, float, float] | None:
        """The PDF matrix (a, b, c, d, e, f) that mirrors and turns the element about its box's centre,
        or None when it is drawn as laid out. Whatever is drawn (text fitted, art placed) is laid out in
        the unturned box first."""
        if not self.rotate and not self.mirror:
            return None
        left, bottom, w, h = self.box(card_width, card_height, safe)
        return turn_matrix(self.rotate, self.mirror, left + w / 2, bottom + h / 2)

    def bounds(self, card_width: float, card_height: float, safe: float) -> tuple[float, float, float, float]:
        """(left, bottom, width, height) of the smallest upright box around the turned element."""
        left, bottom, w, h = self.box(card_width, card_height, safe)
        matrix = self.transform(card_width, card_height, safe)
        if matrix is None:
            return left, bottom, w, h
        a, b, c, d, e, f = matrix
        xs, ys = zip(*((a * x + c * y + e, b * x + d * y + f)
                       for x in (left, left + w) for y in (bottom, bottom + h)))
        return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)

    def referenced_fields(self) -> list[tuple[str, str]]:
        """(attribute, field name) for every ``{field}`` in the attributes."""
        return [(key, name) for key, value in self.attrs.items() if isinstance(value, str)
                for name in field_names(value)]


@dataclass(frozen=True)
class Layout:
    name: str
    elements: tuple[Element, ...]
    location: Location | None = None
    builtin: bool = False

    @cached_property
    def field_set(self) -> frozenset[str]:
        """Every field and option name the layout's elements use (text, attributes, conditions)."""
        names = {name for e in self.elements for _, name in e.referenced_fields()}
        names.update(condition_name(c) for e in self.elements for c in (e.when, e.unless) if c)
        return frozenset(names)


# --- reading ---------------------------------------------------------------------

@dataclass
class _Source:
    """A layout as written, before ``extends`` is resolved."""

    name: str
    doc: Located
    path: tuple
    builtin: bool

    @property
    def data(self) -> dict:
        node = self.doc.data
        for part in self.path:
            node = node[part]
        return node


_Entry = tuple[dict[str, Any], dict[str, Location], Location]


@lru_cache(maxsize=1)
def builtin_layouts() -> dict[str, _Source]:
    """The layouts cardgen ships (cardgen/layouts/*.yaml), which any deck may use or extend."""
    from .schema import LAYOUTS_FILE_SCHEMA
    from .yamlio import check_schema, load_located

    out: dict[str, _Source] = {}
    for path in sorted(bundled("layouts").glob("*.yaml")):
        doc = load_located(path, f"cardgen/layouts/{path.name}", shipped=True)
        check_schema(doc, LAYOUTS_FILE_SCHEMA)
        for name in doc.data.get("layouts", {}):
            out[name] = _Source(name, doc, ("layouts", name), True)
    return out


def read_layouts(doc: Located | None) -> dict[str, Layout]:
    """Every layout a deck can use: cardgen's own, then the deck's (same name: the deck's wins).

    ``extends`` is resolved, overrides merged by element name and each
    element checked; a deck layout that extends its own name extends the
    built-in one of that name. Icon names are the renderer's, so the resolve
    step checks those.
    """
    builtins = builtin_layouts()
    own = {}
    if doc is not None:
        for name in doc.data.get("layouts", {}) or {}:
            if not _NAME.match(name):
                raise doc.error(("layouts", name), f"layout name '{name}' must be lower-case letters, digits, "
                                                   f"- and _", key=True)
            own[name] = _Source(name, doc, ("layouts", name), False)
    reader = _Reader(builtins, own)
    names = list(dict.fromkeys(list(builtins) + list(own)))
    return {name: reader.layout(own.get(name) or builtins[name]) for name in names}


def _circle(names: list[str]) -> str:
    """``a -> b -> a``; a long circle by its first few layouts and its length."""
    if len(names) <= 6:
        return " -> ".join(names)
    return f"{' -> '.join(names[:4])} -> ... -> {names[-1]} ({len(names) - 1:,} layouts)"


class _Reader:
    def __init__(self, builtins: dict[str, _Source], own: dict[str, _Source]):
        self.builtins = builtins
        self.own = own
        self.cache: dict[tuple[str, bool], list[_Entry]] = {}

    def layout(self, source: _Source) -> Layout:
        entries = self.entries(source)
        elements = tuple(self.element(entry) for entry in entries)
        return Layout(source.name, elements, source.doc.where(source.path), source.builtin)

    def parent(self, source: _Source, name: str) -> _Source:
        at = source.path + ("extends",)
        if not source.builtin and name in self.own and name != source.name:
            return self.own[name]
        if name in self.builtins and (name != source.name or not source.builtin):
            return self.builtins[name]
        known = sorted(set(self.own) | set(self.builtins))
        listed = ", ".join(known[:20]) + (f"... ({len(known):,} in all)" if len(known) > 20 else "")
        raise source.doc.error(at, f"layout '{source.name}' extends '{name}', which is no layout"
                                   f"{did_you_mean(name, known)}; layouts: {listed}")

    def entries(self, source: _Source) -> list[_Entry]:
        """``source``'s elements, its ``extends`` chain merged in: the chain is walked up in a loop, not
        by recursion, so 2,000 layouts each extending the next are read as readily as two."""
        key = (source.name, source.builtin)
        lineage, seen = [source], {key: 0}
        node = source
        while (node.name, node.builtin) not in self.cache and "extends" in node.data:
            parent = self.parent(node, node.data["extends"])
            parent_key = (parent.name, parent.builtin)
            if parent_key in seen:
                raise node.doc.error(node.path + ("extends",), "layouts extend each other in a circle: "
                                     + _circle([n.name for n in lineage[seen[parent_key]:]] + [parent.name]))
            seen[parent_key] = len(lineage)
            lineage.append(parent)
            node = parent
        for i in range(len(lineage) - 1, -1, -1):
            node = lineage[i]
            if (node.name, node.builtin) not in self.cache:
                inherited = self.cache[(lineage[i + 1].name, lineage[i + 1].builtin)] if i + 1 < len(lineage) else []
                self.cache[(node.name, node.builtin)] = self.merge(node, inherited)
        return self.cache[key]

    def merge(self, source: _Source, inherited: list[_Entry]) -> list[_Entry]:
        """``source``'s own elements over the ``inherited`` ones, by name."""
        data = source.data
        merged = [(dict(e), dict(w), loc) for e, w, loc in inherited]
        by_name = {e.get("name"): i for i, (e, _, _) in enumerate(merged)}
        seen: set[str] = set()
        for index, entry in enumerate(data.get("elements", []) or []):
            path = source.path + ("elements", index)
            where = {k: source.doc.where(path + (k,)) for k in entry}
            where.update({f"key:{k}": source.doc.key_where(path + (k,)) for k in entry})
            loc = source.doc.where(path)
            name = entry.get("name")
            if name is not None:
                if name in seen:
                    raise source.doc.error(path + ("name",), f"layout '{source.name}' has two elements named '{name}'")
                seen.add(name)
            if name is not None and name in by_name:
                i = by_name[name]
                if entry.get("remove"):
                    merged[i] = ({}, {}, loc)
                    continue
                base, base_where, _ = merged[i]
                if "type" in entry and entry["type"] != base.get("type"):
                    base = {k: v for k, v in base.items() if k in COMMON_KEYS}
                merged[i] = ({**base, **entry}, {**base_where, **where}, loc)
            else:
                if entry.get("remove"):
                    known = [str(e["name"]) for e, _, _ in merged if e.get("name")]
                    raise source.doc.error(path + ("remove",), f"element '{name}' is removed but layout "
                                                               f"'{source.name}' inherits no element of that name"
                                                               f"{did_you_mean(str(name), known)}")
                if "type" not in entry:
                    raise source.doc.error(path, f"element {name or index + 1} of layout '{source.name}' needs a "
                                                 f"type ({', '.join(ELEMENT_TYPES)})")
                if name is not None:
                    by_name[name] = len(merged)
                merged.append((dict(entry), where, loc))
        return [m for m in merged if m[0]]

    def element(self, entry: _Entry) -> Element:
        data, where, loc = entry
        kind = data["type"]
        allowed = COMMON_KEYS + TYPE_KEYS[kind]
        for key in data:
            if key not in allowed:
                raise CardgenError(f"a {kind} element has no key '{key}'{did_you_mean(key, list(allowed))}; "
                                   f"{kind} keys: {', '.join(TYPE_KEYS[kind])}", where.get(f"key:{key}", loc))

        def span(key: str, default: Span) -> Span:
            if key not in data:
                return default
            try:
                return parse_span(data[key])
            except ValueError as exc:
                raise CardgenError(f"{key} takes {TAKES_BOX}; {exc}", where.get(key, loc)) from None

        attrs = {k: v for k, v in data.items() if k not in COMMON_KEYS}
        for key, value in attrs.items():
            self.check_value(kind, key, value, where.get(key, loc))
        line = kind == "line"
        rotate, mirror = self.turn(data, where, loc)
        return Element(
            name=data.get("name", "") or "", type=kind,
            x=span("x", Span()), y=span("y", Span()),
            width=span("width", Span() if line else FULL), height=span("height", Span() if line else FULL),
            anchor=data.get("anchor", "top-left"), area=data.get("area", "trim"), bleed=bool(data.get("bleed")),
            rotate=rotate, mirror=mirror,
            when=str(data.get("when", "") or ""), unless=str(data.get("unless", "") or ""),
            attrs=attrs, location=loc, where=where,
        )

    @staticmethod
    def turn(data: Mapping[str, Any], where: Mapping[str, Location], loc: Location) -> tuple[float, str]:
        """``rotate`` (degrees) and ``mirror``, checked at their line."""
        rotate = data.get("rotate", 0)
        if isinstance(rotate, bool) or not isinstance(rotate, (int, float)) or not math.isfinite(rotate):
            raise CardgenError(f"rotate: expected a number of degrees such as 90 or -45, got {rotate!r}",
                               where.get("rotate", loc))
        if abs(rotate) > MAX_TURN:
            raise CardgenError(f"rotate: {rotate:g} degrees is out of range; turn from -{MAX_TURN:g} to "
                               f"{MAX_TURN:g} degrees", where.get("rotate", loc))
        mirror = data.get("mirror") or ""
        if mirror and mirror not in MIRRORS:
            raise CardgenError(f"mirror: expected {' or '.join(MIRRORS)}, got {mirror!r}"
                               f"{did_you_mean(str(mirror), list(MIRRORS))}", where.get("mirror", loc))
        return float(rotate) % 360.0, str(mirror)

    def check_value(self, kind: str, key: str, value: Any, where: Location) -> None:
        """Check what can be checked before the cards fill in their fields."""
        if isinstance(value, str) and field_names(value):
            if key not in FIELD_KEYS:
                raise CardgenError(f"{key} cannot hold a {{field}}; fields fill in {', '.join(FIELD_KEYS)}", where)
            return
        try:
            if key in COLOR_KEYS:
                if str(value).strip().lower() != NO_COLOR:
                    parse_color_expr(str(value))
            elif key in LENGTH_KEYS:
                try:
                    span = parse_span(value)
                except ValueError:
                    span = Span(-1.0)
                if span.percent or span.points < 0:
                    raise ValueError(f"takes {TAKES_STROKE}, got {value!r}")
            elif key in SIZE_KEYS:
                parse_size(value)
        except ValueError as exc:
            joiner = " " if str(exc).startswith("takes ") else ": "
            raise CardgenError(f"{key}{joiner}{exc}", where) from None
