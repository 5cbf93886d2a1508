"""SVG art, read with svglib and drawn as vectors (never rasterised)."""
from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import CardgenError, Location


class SvgError(ValueError):
    """An SVG file that cannot be drawn; ``check_svg`` turns it into a located error."""


def load_svg(path: Path) -> Any:
    """The reportlab Drawing of an SVG file; raises SvgError with what went wrong."""
    try:
        from svglib.svglib import svg2rlg
    except ImportError:
        raise SvgError("SVG art needs svglib: pip install 'cardgen[svg]'") from None
    # svglib logs what it skips and parse errors; cardgen reports its own way
    logging.getLogger("svglib").setLevel(logging.CRITICAL)
    try:
        drawing = svg2rlg(str(path))
    except Exception as exc:  # svglib raises lxml, ValueError and others on bad files
        raise SvgError(f"cannot read the SVG ({exc.__class__.__name__}: {str(exc)[:120]})") from None
    if drawing is None:
        raise SvgError("cannot read the SVG (not an SVG document)")
    if not drawing.width or not drawing.height or drawing.width <= 0 or drawing.height <= 0:
        raise SvgError("the SVG has no size: give its svg element width and height, or a viewBox")
    return drawing


@lru_cache(maxsize=256)
def svg_drawing(path: Path) -> Any:
    """``load_svg``, once per file and process: a face drawn many times parses its art once."""
    return load_svg(path)


def check_svg(path: Path, name: str, where: Location | None) -> None:
    """Refuse SVG art that cannot be drawn, located where the deck names it (the resolve step, and
    art a field names when a face is drawn)."""
    try:
        svg_drawing(path)
    except SvgError as exc:
        raise CardgenError(f"SVG '{name}': {exc}", where) from None


def svg_size(path: Path) -> tuple[float, float]:
    drawing = svg_drawing(path)
    return float(drawing.width), float(drawing.height)
