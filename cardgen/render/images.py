"""Raster art on cards (PNG or JPEG files the loader has already checked)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from reportlab.lib.utils import ImageReader


@lru_cache(maxsize=64)
def _reader(path: Path) -> ImageReader:
    return ImageReader(str(path))


def draw_image(canvas, path: Path, x: float, y: float, width: float, height: float) -> None:
    """Draw the image inside the box, keeping its aspect ratio, centred."""
    reader = _reader(path)
    iw, ih = reader.getSize()
    scale = min(width / iw, height / ih)
    dw, dh = iw * scale, ih * scale
    canvas.drawImage(reader, x + (width - dw) / 2, y + (height - dh) / 2, dw, dh, mask="auto")
