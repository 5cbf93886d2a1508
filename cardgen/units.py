"""Lengths: points inside, ``mm``, ``in`` and ``pt`` at the edges."""
from __future__ import annotations

import re

from .numbers import UNSIGNED

POINTS_PER = {"pt": 1.0, "in": 72.0, "mm": 72.0 / 25.4, "cm": 72.0 / 2.54}

_LENGTH = re.compile(rf"^\s*(-?{UNSIGNED})\s*(pt|in|mm|cm)?\s*$")


def parse_length(text: str | int | float, default_unit: str | None = None) -> float:
    """Points for ``"3.5in"``, ``"85mm"``, ``"12pt"``; ValueError otherwise.

    A bare number is taken in ``default_unit``; with none given it must be 0,
    so that a forgotten unit never silently means points.
    """
    if isinstance(text, bool):
        raise ValueError(f"expected a length such as 3.5in or 85mm, got {text!r}")
    if isinstance(text, (int, float)):
        number, unit = float(text), None
    else:
        match = _LENGTH.match(str(text))
        if not match:
            raise ValueError(f"expected a length such as 3.5in or 85mm, got {text!r}")
        number, unit = float(match.group(1)), match.group(2)
    if unit is None:
        if default_unit is None and number != 0:
            raise ValueError(f"length {text!r} needs a unit (mm, in, cm or pt)")
        unit = default_unit or "pt"
    return number * POINTS_PER[unit]


def mm(value: float) -> float:
    """Points in ``value`` millimetres."""
    return value * POINTS_PER["mm"]
