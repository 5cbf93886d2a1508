"""Art on cards: PNG or JPEG (already checked by the loader) and SVG, drawn as vectors.

A PDF writer makes each art file one Form XObject (``define_art_form``) and
every card that shows it places that form, so a file used on 2,000 cards is
embedded, and hashed, once.
"""
from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.rl_accel import fp_str

if TYPE_CHECKING:
    from ..deck import ImageFacts

#: the longest side, in pixels, an art file is decoded to: 600 dpi across a 5 in card; a larger
#: file is decoded at this size, so a 40-megapixel photo costs tens of MB, not hundreds
MAX_SIDE = 3000


def raster(path: Path) -> ImageFacts:
    """``path``'s size and orientation, as the loader's check of this version of the file found them
    (it checks every image a deck or layout names): a deck whose 2,000 faces share an image reads
    it once, and an image edited while ``cardgen watch`` runs is read again."""
    from ..deck import check_image

    return check_image(path, path.name, None)


def _embedded(path: Path) -> tuple[str, int, int]:
    """The file to embed for ``path`` and its size in pixels."""
    art = raster(path)
    if art.turn == 1 and max(art.width, art.height) <= MAX_SIDE:
        return str(path), art.width, art.height
    stat = path.stat()
    return _copy(path, stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=256)
def _copy(path: Path, size: int, mtime_ns: int) -> tuple[str, int, int]:
    """A copy of ``path`` turned as its EXIF orientation says and scaled to at most MAX_SIDE pixels
    long (a JPEG decoded at a reduced scale to begin with). Always a file name: from a file
    reportlab embeds a JPEG's bytes as they are, while from an image in memory it decodes every
    pixel and keeps them."""
    from PIL import Image, ImageOps

    turn, jpeg = raster(path).turn, raster(path).jpeg
    with Image.open(path) as img:
        if jpeg and max(img.size) > MAX_SIDE:
            # decode at 1/2, 1/4 or 1/8 scale, as long as the result still covers MAX_SIDE
            scale = MAX_SIDE / max(img.size)
            img.draft("RGB", (math.ceil(img.width * scale), math.ceil(img.height * scale)))
        img.load()
        shown = ImageOps.exif_transpose(img) if turn != 1 else img
        shown.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.LANCZOS)
        folder = _scratch()
        small = folder / f"{len(list(folder.iterdir()))}.{'jpg' if jpeg else 'png'}"
        if jpeg:
            shown.convert("RGB").save(small, format="JPEG", quality=92)
        else:
            shown.save(small, format="PNG", compress_level=1)  # read back at once: its size matters not
        return str(small), shown.width, shown.height


def _source(path: Path) -> str:
    """The file to embed for ``path``."""
    return _embedded(path)[0]


@lru_cache(maxsize=1)
def _scratch() -> Path:
    """A private folder for the turned or scaled-down copies of art files, removed when the process ends."""
    import atexit
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="cardgen-art-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder


def natural_size(path: Path) -> tuple[float, float]:
    """The art's own size: pixels (as embedded) for raster art, points for SVG."""
    if path.suffix.lower() == ".svg":
        from .svg import svg_size

        return svg_size(path)
    _, width, height = _embedded(path)
    return float(width), float(height)


_FORMS_ATTR = "_cardgen_art_forms"
#: on a canvas: art file -> its natural size, for the art that has a form
_SIZES_ATTR = "_cardgen_art_sizes"
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
    # saveState, transform, doForm and restoreState as reportlab writes them, in one go: an icon
    # in running text is drawn some thousands of times a deck, and nothing else changes in between
    scale = size / GLYPH_BOX
    canvas._code += ("q", f"{fp_str(scale, 0, 0, scale, cx - size / 2, cy - size / 2)} cm",
                     f"/{canvas._doc.getXObjectName(form)} Do", "Q")
    canvas._formsinuse.append(form)


def define_art_form(canvas, path: Path, name: str) -> None:
    """Draw ``path`` once, at its natural size, as the form ``name``."""
    w, h = natural_size(path)
    sizes = getattr(canvas, _SIZES_ATTR, None)
    if sizes is None:
        sizes = {}
        setattr(canvas, _SIZES_ATTR, sizes)
    sizes[path] = (w, h)  # every card placing the form scales it by this size, not asking the file again
    canvas.beginForm(name, 0, 0, w, h)
    _draw_natural(canvas, path, w, h)
    canvas.endForm()


def draw_art(canvas, path: Path, x: float, y: float, width: float, height: float, form: str | None = None) -> None:
    """Draw ``path`` stretched into the box (callers keep the aspect ratio), through its form if it has one."""
    form = form or getattr(canvas, _FORMS_ATTR, {}).get(path)
    w, h = getattr(canvas, _SIZES_ATTR, {}).get(path) or natural_size(path)
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(width / w, height / h)
    if form:
        canvas.doForm(form)
    else:
        _draw_natural(canvas, path, w, h)
    canvas.restoreState()


def _draw_natural(canvas, path: Path, w: float, h: float) -> None:
    if path.suffix.lower() == ".svg":
        from .svg import draw_svg

        draw_svg(canvas, path)
    else:
        from .colorspace import writes_cmyk

        canvas.drawImage(_cmyk_source(path) if writes_cmyk(canvas) else _source(path), 0, 0, w, h, mask="auto")


def _cmyk_source(path: Path):
    """What a CMYK canvas embeds for ``path``: its pixels (as embedded in RGB) in inks."""
    stat = path.stat()
    return _cmyk_copy(path, stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=64)
def _cmyk_copy(path: Path, size: int, mtime_ns: int):
    """A JPEG becomes a CMYK JPEG (a file, embedded as it is), other art a CMYK image with its alpha
    kept (embedded Flate compressed with a soft mask)."""
    from PIL import Image

    from .colorspace import cmyk_pixels, cmyk_reader

    with Image.open(_source(path)) as img:
        img.load()
        if raster(path).jpeg:
            folder = _scratch()
            copy = folder / f"{len(list(folder.iterdir()))}.jpg"
            cmyk_pixels(img).save(copy, format="JPEG", quality=92)
            return str(copy)
        return cmyk_reader(img)
