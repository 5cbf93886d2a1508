"""Colours as the user writes them: CSS names or #hex."""
from __future__ import annotations

from PIL import ImageColor

from .model import RGB

GRAY: RGB = (0.62, 0.62, 0.62)


def parse_color(text: str) -> RGB:
    """``(r, g, b)`` in 0..1 for a CSS colour name or ``#rgb``/``#rrggbb``.

    Raises ValueError with the text that was not understood.
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"expected a colour name or #hex, got {text!r}")
    try:
        r, g, b = ImageColor.getrgb(text.strip())[:3]
    except ValueError:
        raise ValueError(
            f"unknown colour {text!r}: use a CSS name (red, teal, ...) or #rrggbb"
        ) from None
    return (r / 255, g / 255, b / 255)


def mix(color: RGB, other: RGB, amount: float) -> RGB:
    """``color`` moved ``amount`` (0..1) of the way towards ``other``."""
    return tuple(c + (o - c) * amount for c, o in zip(color, other))  # type: ignore[return-value]


def lighten(color: RGB, amount: float) -> RGB:
    return mix(color, (1.0, 1.0, 1.0), amount)


def darken(color: RGB, amount: float) -> RGB:
    return mix(color, (0.0, 0.0, 0.0), amount)


def luminance(color: RGB) -> float:
    r, g, b = color
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(color: RGB) -> RGB:
    """Black or white, whichever reads better on ``color``."""
    return (0.0, 0.0, 0.0) if luminance(color) > 0.55 else (1.0, 1.0, 1.0)
