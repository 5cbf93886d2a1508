"""Colours as the user writes them: CSS names, #hex, or inks as ``cmyk(c, m, y, k)``.

A colour is an ``(r, g, b)`` triple everywhere; one written in inks is a
``CmykColor``, the same triple (its inks as they show on screen) that keeps
the inks, so a ``--color-space cmyk`` build prints exactly what was asked.
``device_cmyk`` is the one conversion from RGB to inks (see its docstring).
"""
from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

#: a colour as ``(r, g, b)`` floats in 0..1
RGB = tuple[float, float, float]
#: a colour as inks ``(c, m, y, k)``, floats in 0..1
CMYK = tuple[float, float, float, float]

GRAY: RGB = (0.62, 0.62, 0.62)

#: how a PDF may write its colours (``--color-space``), the first the default: as given (RGB), or in
#: printing inks (CMYK, through ``device_cmyk``)
COLOR_SPACES = ("rgb", "cmyk")

#: what a layout element's ``fill``, ``stroke`` or ``color`` says to paint nothing
NO_COLOR = "none"


class CmykColor(tuple[float, float, float]):
    """A colour given in inks: the ``(r, g, b)`` it shows as on screen and in an RGB build, keeping
    its inks (``cmyk``, 0..1 each) for a CMYK build. Two colours are equal only when their inks are,
    so a form drawn in one is never reused for the other."""

    cmyk: CMYK

    def __new__(cls, cmyk: CMYK) -> CmykColor:
        inks = tuple(float(v) for v in cmyk)
        self = super().__new__(cls, cmyk_to_rgb(inks))  # type: ignore[arg-type]
        self.cmyk = inks  # type: ignore[assignment]
        return self

    def __getnewargs__(self) -> tuple[CMYK]:
        return (self.cmyk,)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CmykColor) and self.cmyk == other.cmyk

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(("cmyk", self.cmyk))

    def __repr__(self) -> str:
        return f"CmykColor({self.cmyk!r})"


#: colours known by name in inks: rich black is black ink over 60 % cyan and 40 % magenta and yellow, a
#: deeper black for large areas (never for text: four inks misregister on thin strokes)
NAMED_INKS: dict[str, CMYK] = {"rich-black": (0.6, 0.4, 0.4, 1.0)}

_CMYK_CALL = re.compile(r"^cmyk\s*\((.*)\)$", re.I | re.S)


def parse_color(text: str) -> RGB:
    """``(r, g, b)`` in 0..1 for a CSS colour name, ``#rgb``/``#rrggbb``, ``rgb()``, ``hsl()`` or ``hsv()``;
    a ``CmykColor`` for ``cmyk(c, m, y, k)`` (per cent of each ink) or ``rich-black``. A colour with
    alpha is refused (cards print opaque).

    Raises ValueError with the text that was not understood.
    """
    from PIL import ImageColor  # here, not at the top: the command line reads COLOR_SPACES

    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"expected a colour name or #hex, got {text!r}")
    written = text.strip()
    if written.lower() in NAMED_INKS:
        return CmykColor(NAMED_INKS[written.lower()])
    inks = _CMYK_CALL.match(written)
    if inks:
        return CmykColor(_inks(inks.group(1), text))
    try:
        channels = ImageColor.getrgb(written)
    except ValueError:
        import difflib

        close = difflib.get_close_matches(written.lower(), [*ImageColor.colormap, *NAMED_INKS], n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise ValueError(
            f"unknown colour {text!r}{hint}: use a CSS name (red, teal, ...), #rrggbb or cmyk(c, m, y, k)"
        ) from None
    if len(channels) == 4:
        raise ValueError(f"colour {text!r} has an alpha channel; cards print opaque colours, so give it "
                         f"without one (#rrggbb, rgb(), hsl())")
    r, g, b = channels[:3]
    return (r / 255, g / 255, b / 255)


def _inks(inner: str, text: str) -> CMYK:
    """The four per cents of ``cmyk(...)`` as 0..1."""
    parts = [p.strip().removesuffix("%").strip() for p in inner.split(",")]
    try:
        values = [float(p) for p in parts]
    except ValueError:
        values = []
    if len(values) != 4 or not all(0 <= v <= 100 for v in values):
        raise ValueError(f"colour {text!r}: cmyk() takes four per cents of ink from 0 to 100, "
                         f"cyan, magenta, yellow and black, e.g. cmyk(0, 80, 95, 0)")
    return values[0] / 100, values[1] / 100, values[2] / 100, values[3] / 100


def device_cmyk(color: RGB) -> CMYK:
    """The inks that print ``color``: a ``CmykColor``'s own, else a device conversion.

    With v = max(r, g, b), each colour ink is (v - channel) / v, so one of C, M, Y is always 0 (at
    most 300 % ink in all) and a neutral grey (black text too) is black ink alone. The black ink
    is ``black_ink(v, s)``: for a grey, the black that prints as light as the grey shows on screen
    on ISO 12647-2 coated paper (``K_RAMP``); for a fully saturated colour the naive 1 - v; between
    the two by saturation s = (v - min) / v. ``cmyk_to_rgb`` undoes it. It is not a press profile's
    conversion: no profile is bundled that may be redistributed (docs/cmyk.md).
    """
    if isinstance(color, CmykColor):
        return color.cmyk
    r, g, b = (float(v) for v in color)
    top = max(r, g, b)
    if top <= 0:
        return 0.0, 0.0, 0.0, 1.0
    black = black_ink(top, (top - min(r, g, b)) / top)
    # to 1/10,000 of full ink: finer than any press, and the content streams stay short
    return round((top - r) / top, 4), round((top - g) / top, 4), round((top - b) / top, 4), round(black, 4)


#: black ink alone on ISO 12647-2 coated paper (FOGRA39): CIE L* printed at each per cent of black,
#: from Fogra's FOGRA39L characterization data (as Debian's icc-profiles-free ships it, zlib licence)
K_RAMP = ((0, 95.00), (2, 93.85), (3, 93.24), (5, 92.03), (7, 90.81), (10, 88.97), (15, 85.89), (20, 82.79),
          (25, 79.47), (30, 76.12), (40, 69.28), (50, 61.82), (60, 54.14), (70, 45.53), (75, 41.11),
          (80, 36.62), (85, 31.72), (90, 26.69), (95, 21.46), (98, 18.18), (100, 16.00))


def black_ink(top: float, saturation: float) -> float:
    """The black ink of a colour whose brightest channel is ``top``, by ``saturation`` (0 grey, 1 a
    pure hue): a grey's black ``grey_black(top)``, moving to the naive 1 - top as saturation grows."""
    return saturation * (1.0 - top) + (1.0 - saturation) * grey_black(top)


@lru_cache(maxsize=4096)
def grey_black(level: float) -> float:
    """The black ink (0..1) that prints the grey ``(level, level, level)`` as light as a screen shows
    it: its L* (0..100) put on the press's range, from black ink's darkest to the paper (black
    point compensation), and looked up on ``K_RAMP``. Black is 100 % black ink, white none."""
    darkest, paper = K_RAMP[-1][1], K_RAMP[0][1]
    target = darkest + lightness((level, level, level)) / 100 * (paper - darkest)
    for (k0, l0), (k1, l1) in pairwise(K_RAMP):
        if target >= l1:
            return min(1.0, max(0.0, (k0 + (l0 - target) / (l0 - l1) * (k1 - k0)) / 100))
    return 1.0


def cmyk_to_rgb(cmyk: CMYK) -> RGB:
    """The RGB of inks, the inverse of ``device_cmyk``: the brightest channel v whose black is K
    (found by halving: the black falls as v grows), each channel v (1 - its ink)."""
    c, m, y, k = cmyk
    saturation = max(c, m, y) - min(c, m, y)
    low, high = 0.0, 1.0
    for _ in range(40):
        middle = (low + high) / 2
        if black_ink(middle, saturation) > k:
            low = middle
        else:
            high = middle
    top = (low + high) / 2
    return top * (1 - c), top * (1 - m), top * (1 - y)


def mix(color: RGB, other: RGB, amount: float) -> RGB:
    """``color`` moved ``amount`` (0..1) of the way towards ``other``; mixed in inks when either is
    given in inks, so ``lighten(rich-black, 0.5)`` is half of each of its inks."""
    if isinstance(color, CmykColor) or isinstance(other, CmykColor):
        a, b = device_cmyk(color), device_cmyk(other)
        return CmykColor(tuple(x + (y - x) * amount for x, y in zip(a, b)))  # type: ignore[arg-type]
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
    """``#rrggbb`` of a colour (``cmyk(c,m,y,k)`` of one given in inks), so a colour can be a field's text."""
    if isinstance(color, CmykColor):
        return "cmyk(" + ",".join(f"{round(v * 100, 2):g}" for v in color.cmyk) + ")"
    return _hex(tuple(color))


@lru_cache(maxsize=1024)
def _hex(color: tuple[float, ...]) -> str:
    """``to_hex``, worked out once per colour (every card of a deck names its accent)."""
    return "#" + "".join(f"{round(c * 255):02x}" for c in color)
