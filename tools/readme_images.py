"""Render the README's pictures from real build output.

    .venv/bin/python tools/readme_images.py     # after `make build`
"""
from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "images"
SCALE = 0.9  # pixels per point


def pages(pdf_name: str, indexes: list[int]) -> list[Image.Image]:
    pdf = pdfium.PdfDocument(str(ROOT / "output" / pdf_name))
    return [pdf[i].render(scale=SCALE).to_pil().convert("RGB") for i in indexes]


def side_by_side(images: list[Image.Image], gap: int = 16) -> Image.Image:
    width = sum(i.width for i in images) + gap * (len(images) + 1)
    height = max(i.height for i in images) + 2 * gap
    sheet = Image.new("RGB", (width, height), (200, 200, 200))
    x = gap
    for image in images:
        sheet.paste(image, (x, gap))
        x += image.width + gap
    return sheet


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    side_by_side(pages("common-carrier-player-1.pdf", [0, 1])).save(OUT / "common-carrier-sheet.png", optimize=True)
    side_by_side(pages("dotcombust.pdf", [2]) + pages("clusterfuck.pdf", [0])).save(
        OUT / "dotcombust-clusterfuck.png", optimize=True)


if __name__ == "__main__":
    main()
