"""Text on cards: an embedded Latin-1 font, wrapping and shrink-to-fit.

Vera ships with reportlab, covers Latin-1, and is embedded in every PDF, so
cards print the same on any machine.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

REGULAR = "CardgenVera"
BOLD = "CardgenVeraBold"
_FONT_FILES = {REGULAR: "Vera.ttf", BOLD: "VeraBd.ttf"}
MIN_SIZE = 5.0
LEADING = 1.18


def register_fonts() -> None:
    """Register the embedded fonts once per process."""
    _register()


@lru_cache(maxsize=1)
def _register() -> None:
    folder = Path(reportlab.__file__).resolve().parent / "fonts"
    for name, file in _FONT_FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(folder / file)))


def width(text: str, font: str, size: float) -> float:
    register_fonts()
    return pdfmetrics.stringWidth(text, font, size)


@dataclass(frozen=True)
class Block:
    """Text laid out in a box: its size and lines, or ``fits=False``."""

    lines: tuple[str, ...]
    size: float
    fits: bool

    @property
    def leading(self) -> float:
        return self.size * LEADING

    @property
    def height(self) -> float:
        return len(self.lines) * self.leading


def fit(text: str, font: str, size: float, box_width: float, box_height: float,
        min_size: float = MIN_SIZE, max_lines: int | None = None) -> Block:
    """Wrap ``text`` to ``box_width``, shrinking from ``size`` until it fits.

    Explicit newlines are kept. When even ``min_size`` does not fit, the
    block at ``min_size`` comes back with ``fits=False`` so the caller can
    report the card by name rather than print clipped text.
    """
    current = size
    while True:
        lines = wrap(text, font, current, box_width)
        tall = len(lines) * current * LEADING
        wide = max((width(line, font, current) for line in lines), default=0.0)
        ok = tall <= box_height + 0.01 and wide <= box_width + 0.01
        if max_lines is not None:
            ok = ok and len(lines) <= max_lines
        if ok:
            return Block(tuple(lines), current, True)
        if current <= min_size:
            return Block(tuple(lines), current, False)
        current = max(min_size, current - 0.5)


def wrap(text: str, font: str, size: float, box_width: float) -> list[str]:
    """Greedy word wrap; a word wider than the box stays whole (and won't fit)."""
    out: list[str] = []
    for paragraph in text.split("\n"):
        words = paragraph.split()
        if not words:
            out.append("")
            continue
        line = words[0]
        for word in words[1:]:
            candidate = f"{line} {word}"
            if width(candidate, font, size) <= box_width:
                line = candidate
            else:
                out.append(line)
                line = word
        out.append(line)
    return out


def draw_block(canvas, block: Block, font: str, x: float, top: float, align: str = "left",
               box_width: float = 0.0) -> float:
    """Draw ``block`` with its first baseline under ``top``; returns the bottom."""
    canvas.setFont(font, block.size)
    y = top - block.size * 0.93
    for line in block.lines:
        if align == "center":
            canvas.drawCentredString(x + box_width / 2, y, line)
        elif align == "right":
            canvas.drawRightString(x + box_width, y, line)
        else:
            canvas.drawString(x, y, line)
        y -= block.leading
    return top - block.height


def fit_list(items: list[str], font: str, size: float, box_width: float, box_height: float,
             indent: float, gap: float = 0.35, min_size: float = MIN_SIZE) -> tuple[list[Block], bool]:
    """A bulleted list: each item wrapped with a hanging indent, all at one size.

    Shrinks until the items and the gaps between them (``gap`` x size) fit.
    """
    current = size
    while True:
        blocks = [Block(tuple(wrap(item, font, current, box_width - indent)), current, True) for item in items]
        tall = sum(b.height for b in blocks) + gap * current * max(0, len(blocks) - 1)
        wide = max((width(line, font, current) for b in blocks for line in b.lines), default=0.0)
        if tall <= box_height + 0.01 and wide <= box_width - indent + 0.01:
            return blocks, True
        if current <= min_size:
            return blocks, False
        current = max(min_size, current - 0.25)
