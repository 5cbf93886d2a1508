"""Art on cards: PNG or JPEG (already checked by the loader) and SVG, drawn as vectors.

A PDF writer makes each art file one Form XObject (``define_art_form``) and
every card that shows it places that form, so a file used on 2,000 cards is
embedded, and hashed, once.
"""
from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

from reportlab.lib.utils import ImageReader

#: the longest side, in pixels, an art file is decoded to: 600 dpi across a 5 in card; a larger
#: file is decoded at this size, so a 40-megapixel photo costs tens of MB, not hundreds
MAX_SIDE = 3000


@lru_cache(maxsize=8)
def _reader(path: Path) -> ImageReader:
    """The image as it should stand and at most MAX_SIDE pixels long: a photo's EXIF orientation
    applied, a larger file scaled down (a JPEG decoded at a reduced scale to begin with); a JPEG
    that needs neither is embedded as it is."""
    import io

    from PIL import Image, ImageOps

    with Image.open(path) as img:
        turn = exif_orientation(img)
        big = max(img.size) > MAX_SIDE
        if turn == 1 and not big:
            return ImageReader(str(path))
        jpeg = img.format in ("JPEG", "MPO")
        if jpeg and big:
            # decode at 1/2, 1/4 or 1/8 scale, as long as the result still covers MAX_SIDE
            scale = MAX_SIDE / max(img.size)
            img.draft("RGB", (math.ceil(img.width * scale), math.ceil(img.height * scale)))
        img.load()
        shown = ImageOps.exif_transpose(img) if turn != 1 else img
        shown.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.LANCZOS)
    if jpeg:
        buffer = io.BytesIO()
        shown.convert("RGB").save(buffer, format="JPEG", quality=92)
        buffer.seek(0)
        return ImageReader(buffer)
    return ImageReader(shown)


#: EXIF orientations that turn the picture a quarter, so width and height swap
QUARTER_TURNS = (5, 6, 7, 8)


def exif_orientation(img) -> int:
    """The EXIF orientation tag (1: as stored)."""
    try:
        return int(img.getexif().get(0x0112, 1) or 1)
    except (ValueError, TypeError, OSError):
        return 1


def natural_size(path: Path) -> tuple[float, float]:
    """The art's own size: pixels for raster art, points for SVG."""
    if path.suffix.lower() == ".svg":
        from .layout import svg_size

        return svg_size(path)
    return _reader(path).getSize()


_FORMS_ATTR = "_cardgen_art_forms"
#: built-in icons are drawn into a form of this size and scaled where they are placed
GLYPH_BOX = 100.0

Glyph = tuple[str, tuple[float, float, float], tuple[float, float, float]]


def use_art_forms(canvas, forms: dict) -> None:
    """Tell every later ``draw_art`` and ``draw_glyph`` on ``canvas`` which art files and
    icons (name, fill, ink) already have a form."""
    setattr(canvas, _FORMS_ATTR, forms)


def define_glyph_form(canvas, glyph: Glyph, name: str) -> None:
    """Draw the built-in icon ``glyph`` (name, fill, ink) once as the form ``name``."""
    from .icons import draw_icon

    icon, fill, ink = glyph
    canvas.beginForm(name, 0, 0, GLYPH_BOX, GLYPH_BOX)
    draw_icon(canvas, icon, GLYPH_BOX / 2, GLYPH_BOX / 2, GLYPH_BOX, fill, ink)
    canvas.endForm()


def draw_glyph(canvas, glyph: Glyph, cx: float, cy: float, size: float) -> None:
    """A built-in icon centred on (cx, cy), through its form when the writer made one."""
    form = getattr(canvas, _FORMS_ATTR, {}).get(glyph)
    if form is None:
        from .icons import draw_icon

        draw_icon(canvas, glyph[0], cx, cy, size, glyph[1], glyph[2])
        return
    scale = size / GLYPH_BOX
    canvas.saveState()
    canvas.transform(scale, 0, 0, scale, cx - size / 2, cy - size / 2)
    canvas.doForm(form)
    canvas.restoreState()


def define_art_form(canvas, path: Path, name: str) -> None:
    """Draw ``path`` once, at its natural size, as the form ``name``."""
    w, h = natural_size(path)
    canvas.beginForm(name, 0, 0, w, h)
    _draw_natural(canvas, path, w, h)
    canvas.endForm()


def draw_art(canvas, path: Path, x: float, y: float, width: float, height: float, form: str | None = None) -> None:
    """Draw ``path`` stretched into the box (callers keep the aspect ratio), through its form if it has one."""
    w, h = natural_size(path)
    form = form or getattr(canvas, _FORMS_ATTR, {}).get(path)
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(width / w, height / h)
    if form:
        canvas.doForm(form)
    else:
        _draw_natural(canvas, path, w, h)
    canvas.restoreState()


def draw_image(canvas, path: Path, x: float, y: float, width: float, height: float, form: str | None = None) -> None:
    """Draw the art inside the box, keeping its aspect ratio, centred."""
    iw, ih = natural_size(path)
    scale = min(width / iw, height / ih)
    dw, dh = iw * scale, ih * scale
    draw_art(canvas, path, x + (width - dw) / 2, y + (height - dh) / 2, dw, dh, form)


def _draw_natural(canvas, path: Path, w: float, h: float) -> None:
    if path.suffix.lower() == ".svg":
        from reportlab.graphics import renderPDF

        from .layout import svg_drawing

        renderPDF.draw(svg_drawing(path), canvas, 0, 0)
    else:
        canvas.drawImage(_reader(path), 0, 0, w, h, mask="auto")
