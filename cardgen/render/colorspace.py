"""How a PDF writes its colours: as given (RGB), or in printing inks (CMYK) for a press.

A ``CmykCanvas`` sends every colour set on it through ``colors.device_cmyk``:
cardgen's own drawing, its text objects, the art svglib draws through
reportlab (gradients too) and its crop marks and labels. Raster art and
colour glyph pictures are converted pixel by pixel (``cmyk_pixels``, the same
conversion) before they are embedded. An RGB build writes colours as reportlab
does. Both canvases are ``pdfcanvas.PdfCanvas``, whose forms keep the gradients
and opacities they use.
"""
from __future__ import annotations

from typing import Any

from PIL import Image, ImageChops, ImageMath
from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.lib.utils import ImageReader

from ..colors import COLOR_SPACES, device_cmyk, grey_black
from .pdfcanvas import PdfCanvas


def canvas_class(color_space: str) -> type[PdfCanvas]:
    """The canvas that writes colours in ``color_space``."""
    if color_space not in COLOR_SPACES:
        raise ValueError(f"unknown colour space {color_space!r}: one of {', '.join(COLOR_SPACES)}")
    return CmykCanvas if color_space == "cmyk" else PdfCanvas


def writes_cmyk(canvas: Any) -> bool:
    """Whether ``canvas`` writes inks, so its raster art must be converted too."""
    return isinstance(canvas, CmykCanvas)


#: the keywords of a CMYK PDF: the file says what its colours are, and that it names no output intent
#: (that needs a press profile, and none is bundled that may be redistributed: docs/cmyk.md)
CMYK_KEYWORDS = "CMYK, DeviceCMYK, no output intent"


class CmykCanvas(PdfCanvas):
    """A canvas whose every colour is CMYK: reportlab calls ``to_inks`` on each colour a fill or a stroke
    is set to (on the canvas and on its text objects), and the gradients svglib draws are given inks
    here, as reportlab's gradients do not ask it."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, enforceColorSpace=to_inks, **kwargs)
        self.setKeywords(CMYK_KEYWORDS)

    def linearGradient(self, x0, y0, x1, y1, colors, positions=None, extend=True):
        return super().linearGradient(x0, y0, x1, y1, [to_inks(c) for c in colors], positions, extend)

    def radialGradient(self, x, y, radius, colors, positions=None, extend=True):
        return super().radialGradient(x, y, radius, [to_inks(c) for c in colors], positions, extend)


def to_inks(color: Any) -> Any:
    """Any colour reportlab takes (a tuple, a ``colors.CmykColor``, a reportlab ``Color`` or
    ``CMYKColor``, a name) as inks. A colour that carried an alpha keeps it (reportlab then sets the
    opacity, as it does in RGB); a plain triple becomes a plain ``(c, m, y, k)``, written ``c m y k k``."""
    if isinstance(color, str):
        color = toColor(color)
    if isinstance(color, CMYKColor):
        return color
    if isinstance(color, Color):
        inks = device_cmyk((color.red, color.green, color.blue))
        return CMYKColor(*inks, alpha=color.alpha)
    if len(color) == 4:
        return tuple(color)
    return device_cmyk(color)


def cmyk_pixels(image: Image.Image) -> Image.Image:
    """``image`` (any mode, alpha left out) in CMYK by ``colors.device_cmyk``, pixel by pixel: a grey
    pixel is black ink alone."""
    if image.mode == "P" and "transparency" in image.info:
        image = image.convert("RGBA")  # as Pillow asks of a palette with transparency
    red, green, blue = image.convert("RGB").split()
    top = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    least = ImageChops.darker(ImageChops.darker(red, green), blue)
    most = top.convert("F")

    def ink(channel: Image.Image) -> Image.Image:
        # (max - channel) / max of full ink; a black pixel (max 0) divides to 0: no colour ink
        return ImageMath.lambda_eval(lambda a: (a["t"] - a["c"]) * 255 / a["t"], t=most,
                                     c=channel.convert("F")).convert("L")

    # colors.black_ink: greyness (min / max; 0 for black, divided by 0) between the naive black
    # 255 - max and a grey's black, looked up once for each of the 256 levels
    grey = top.point([round(grey_black(level / 255) * 255) for level in range(256)]).convert("F")
    black = ImageMath.lambda_eval(
        lambda a: (1 - a["n"] / a["t"]) * (255 - a["t"]) + a["n"] / a["t"] * a["g"],
        t=most, n=least.convert("F"), g=grey).convert("L")
    return Image.merge("CMYK", [ink(red), ink(green), ink(blue), black])


def cmyk_reader(image: Image.Image) -> Any:
    """An ImageReader of ``image`` in CMYK, its alpha (if any) kept as the soft mask reportlab writes."""
    transparent = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
    return _CmykReader(cmyk_pixels(image), image.convert("RGBA").getchannel("A") if transparent else None)


class _CmykReader(ImageReader):
    """reportlab keeps a CMYK image's pixels as they are but finds no alpha beside them: it is given here."""

    def __init__(self, image: Image.Image, alpha: Image.Image | None):
        super().__init__(image)
        self._alpha = alpha

    def getRGBData(self):
        data = super().getRGBData()
        self._dataA = ImageReader(self._alpha) if self._alpha is not None else None
        return data
