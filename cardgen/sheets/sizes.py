"""Named card sizes and papers, and ``WxH`` with units for any other.

A size is width x height as it stands: ``poker`` is 2.5 in wide and 3.5 in
tall (portrait), ``business`` 3.5 in wide and 2 in tall (landscape). Lengths
are points, like everything in ``sheets``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import CardgenError
from ..numbers import UNSIGNED
from ..units import POINTS_PER, mm

#: the smallest and largest card and paper sides cardgen takes, in points
CARD_LIMITS = (mm(10), mm(300))
PAPER_LIMITS = (mm(50), mm(1200))


@dataclass(frozen=True)
class Size:
    """A card size or a paper: its name as the user writes it, width and height in points."""

    name: str
    width: float
    height: float
    #: how a person says it: "2.5 x 3.5 in", "A4, 210 x 297 mm"
    label: str = ""

    @property
    def landscape(self) -> bool:
        return self.width > self.height

    @property
    def portrait(self) -> bool:
        return self.height > self.width

    def turned(self) -> Size:
        """The same size on its side."""
        return Size(self.name, self.height, self.width, self.label)


def _inches(name: str, width: float, height: float) -> Size:
    return Size(name, width * 72.0, height * 72.0, f"{width:g} x {height:g} in")


def _mm(name: str, width: float, height: float, label: str = "") -> Size:
    return Size(name, mm(width), mm(height), f"{label}{width:g} x {height:g} mm")


#: the card sizes ``card:`` names, as each stands upright
CARD_SIZES: dict[str, Size] = {s.name: s for s in (
    _inches("business", 3.5, 2),
    _mm("business-eu", 85, 55),
    _inches("poker", 2.5, 3.5),
    _inches("bridge", 2.25, 3.5),
    _inches("mini", 1.75, 2.5),
    _inches("tarot", 2.75, 4.75),
    _mm("euro", 59, 92),
    _inches("square", 2.5, 2.5),
)}

#: the papers ``paper:`` and ``--paper`` name, portrait
PAPERS: dict[str, Size] = {s.name: s for s in (
    Size("letter", 8.5 * 72, 11 * 72, "US Letter, 8.5 x 11 in"),
    _mm("a4", 210, 297, "A4, "),
    Size("legal", 8.5 * 72, 14 * 72, "US Legal, 8.5 x 14 in"),
    _mm("a3", 297, 420, "A3, "),
    Size("tabloid", 11 * 72, 17 * 72, "Tabloid, 11 x 17 in"),
)}

#: what a deck without ``card:`` prints on: business cards
DEFAULT_CARD = "business"

_UNIT = r"(mm|cm|in|pt)"
_DIMENSIONS = re.compile(rf"^\s*({UNSIGNED})\s*{_UNIT}?\s*[x×]\s*({UNSIGNED})\s*{_UNIT}\s*$", re.IGNORECASE)


def card_size(text: str) -> Size:
    """A named card size, or ``WxH`` with units (``63x88mm``, ``2.5x3.5in``); CardgenError otherwise."""
    return _size(text, CARD_SIZES, "card size", CARD_LIMITS)


def paper_size(text: str) -> Size:
    """A named paper, or ``WxH`` with units (``210x297mm``); CardgenError otherwise."""
    return _size(text, PAPERS, "paper", PAPER_LIMITS)


def _size(text: str, named: dict[str, Size], what: str, limits: tuple[float, float]) -> Size:
    key = str(text).strip().lower()
    if key in named:
        return named[key]
    match = _DIMENSIONS.match(key)
    if not match:
        from ..yamlio import did_you_mean

        raise CardgenError(f"unknown {what} '{text}'{did_you_mean(key, list(named))}; "
                           f"{what}s: {', '.join(named)}, or WIDTHxHEIGHT with a unit (63x88mm, 2.5x3.5in)")
    first, first_unit, second, unit = match.groups()
    width = float(first) * POINTS_PER[(first_unit or unit).lower()]
    height = float(second) * POINTS_PER[unit.lower()]
    low, high = limits
    for side in (width, height):
        if not low <= side <= high:
            raise CardgenError(f"{what} '{text}': each side must be from {low / mm(1):g} to "
                               f"{high / mm(1):g} mm")
    return Size(key, width, height, describe(width, height))


def describe(width: float, height: float) -> str:
    """``2.5 x 3.5 in`` for sizes in whole eighths of an inch, else ``63 x 88 mm``."""
    eighths = [side / 9.0 for side in (width, height)]
    if all(abs(e - round(e)) < 1e-6 for e in eighths):
        return f"{width / 72:g} x {height / 72:g} in"
    return f"{round(width / mm(1), 1):g} x {round(height / mm(1), 1):g} mm"


def same_size(a: tuple[float, float], b: tuple[float, float], tolerance: float = mm(4)) -> bool:
    """Whether two card sizes are the same card, either way round, within ``tolerance`` each side
    (the difference between US and European business-card stock)."""
    small_a, small_b = sorted(a), sorted(b)
    return all(abs(x - y) <= tolerance for x, y in zip(small_a, small_b))
