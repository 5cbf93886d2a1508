"""Colours as the user writes them: CSS names or #hex."""
from __future__ import annotations

import difflib
import re
from functools import lru_cache

from PIL import ImageColor

#: a colour as ``(r, g, b)`` floats in 0..1
RGB = tuple[float, float, float]

GRAY: RGB = (0.62, 0.62, 0.62)

#: what a layout element's ``fill``, ``stroke`` or ``color`` says to paint nothing
NO_COLOR = "none"


def parse_color(text: str) -> RGB:
    """``(r, g, b)`` in 0..1 for a CSS colour name, ``#rgb``/``#rrggbb``, ``rgb()``, ``hsl()`` or ``hsv()``;
    a colour with alpha is refused (cards print opaque).

    Raises ValueError with the text that was not understood.
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"expected a colour name or #hex, got {text!r}")
    try:
        channels = ImageColor.getrgb(text.strip())
    except ValueError:
        close = difflib.get_close_matches(text.strip().lower(), list(ImageColor.colormap), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise ValueError(
            f"unknown colour {text!r}{hint}: use a CSS name (red, teal, ...) or #rrggbb"
        ) from None
    if len(channels) == 4:
        raise ValueError(f"colour {text!r} has an alpha channel; cards print opaque colours, so give it "
                         f"without one (#rrggbb, rgb(), hsl())")
    r, g, b = channels[:3]
    return (r / 255, g / 255, b / 255)


def mix(color: RGB, other: RGB, amount: float) -> RGB:
    """``color`` moved ``amount`` (0..1) of the way towards ``other``."""
    return tuple(c + (o - c) * amount for c, o in zip(color, other))  # type: ignore[return-value]


def lighten(color: RGB, amount: float) -> RGB:
    return mix(color, (1.0, 1.0, 1.0), amount)


def darken(color: RGB, amount: float) -> RGB:
    return mix(color, (0.0, 0.0, 0.0), amount)


def relative_luminance(color: RGB) -> float:
    """The share of white light the colour sends, sRGB linearised (0 black .. 1 white)."""
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in color)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def lightness(color: RGB) -> float:
    """CIE L* (0 black .. 100 white): how light the colour prints in greyscale."""
    y = relative_luminance(color)
    return 116 * y ** (1 / 3) - 16 if y > 216 / 24389 else y * 24389 / 27


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio of two colours (1 to 21); text wants at least 4.5."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink_on(color: RGB) -> RGB:
    """Black or white, whichever has the higher contrast on ``color``."""
    black, white = (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)
    return black if contrast(black, color) >= contrast(white, color) else white


_CALL = re.compile(r"^\s*(lighten|darken|ink_on|mix)\s*\((.*)\)\s*$", re.S)


def parse_color_expr(text: str) -> RGB:
    """A colour, or a colour made from others: ``lighten(C, 0.3)``, ``darken(C, 0.3)``,
    ``mix(C1, C2, 0.5)`` or ``ink_on(C)`` (black or white, whichever reads on C).

    Layouts use these so one field colour can give a band, a lighter panel
    and legible text on both. Raises ValueError naming what was not understood.
    """
    match = _CALL.match(text) if isinstance(text, str) else None
    if not match:
        return parse_color(text)
    name, inner = match.group(1), match.group(2)
    args = _split_args(inner)
    wanted = {"lighten": 2, "darken": 2, "ink_on": 1, "mix": 3}[name]
    if len(args) != wanted:
        raise ValueError(f"{name}() takes {wanted} argument{'s' if wanted > 1 else ''}, got {text!r}")
    if name == "ink_on":
        return ink_on(parse_color_expr(args[0]))
    try:
        amount = float(args[-1])
    except ValueError:
        raise ValueError(f"{name}(): the amount must be a number from 0 to 1, got {args[-1]!r}") from None
    if not 0 <= amount <= 1:
        raise ValueError(f"{name}(): the amount must be from 0 to 1, got {args[-1]!r}")
    if name == "mix":
        return mix(parse_color_expr(args[0]), parse_color_expr(args[1]), amount)
    base = parse_color_expr(args[0])
    return lighten(base, amount) if name == "lighten" else darken(base, amount)


def _split_args(inner: str) -> list[str]:
    """Top-level comma-separated arguments (nested calls keep their commas)."""
    args, depth, start = [], 0, 0
    for i, char in enumerate(inner):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            args.append(inner[start:i].strip())
            start = i + 1
    args.append(inner[start:].strip())
    return args


def to_hex(color: RGB) -> str:
    """``#rrggbb`` of a colour, so a colour can be a field's text."""
    return _hex(tuple(color))


@lru_cache(maxsize=1024)
def _hex(color: tuple[float, ...]) -> str:
    """``to_hex``, worked out once per colour (every card of a deck names its accent)."""
    return "#" + "".join(f"{round(c * 255):02x}" for c in color)
