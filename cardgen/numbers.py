"""Numbers people type, on the command line and in deck files: one parser for all of them.

Only ASCII digits count (not ``²``, not ``٣``, not ``1_000``), at most nine before and nine after
the point, so a number is always finite and small enough for any arithmetic cardgen does with it.
Callers get None for anything else and say in their own words what they wanted.
"""
from __future__ import annotations

import re
from typing import Any

#: an unsigned decimal as a regular expression, for the parsers of lengths to build on
UNSIGNED = r"(?:[0-9]{1,9}(?:\.[0-9]{0,9})?|\.[0-9]{1,9})"
_WHOLE = re.compile(r"\s*([+-]?[0-9]{1,9})\s*")
_DECIMAL = re.compile(rf"\s*([+-]?{UNSIGNED})\s*")


def whole(value: Any) -> int | None:
    """An int from an int or from text such as ``7``, ``+7`` or ``-2``; None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    match = _WHOLE.fullmatch(value) if isinstance(value, str) else None
    return int(match.group(1)) if match else None


def decimal(value: Any) -> float | None:
    """A float from a finite int/float or from text such as ``1.5`` or ``-.5``; None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        number = float(value)
        return number if number - number == 0 else None  # finite: inf - inf and nan are nan
    match = _DECIMAL.fullmatch(value) if isinstance(value, str) else None
    return float(match.group(1)) if match else None
