"""Text on the Python-drawn card kinds: the bundled DejaVu Sans, embedded in every PDF.

Layouts set their text through rich.py; the few kinds drawn in Python
(the tile) use these two faces and ``check`` what they print against
the font, so a character it lacks is reported rather than printed as a box.
"""
from __future__ import annotations

from reportlab.pdfbase import pdfmetrics

from .fonts import FontChain, default_family, describe, register

REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"


def register_fonts() -> None:
    """Register the bundled faces once per process, under their plain names."""
    family = default_family()
    register(family.file("regular"))
    register(family.file("bold"))


def width(text: str, font: str, size: float) -> float:
    register_fonts()
    return pdfmetrics.stringWidth(text, font, size)


def check(ctx, card_id: str, what: str, words: str) -> None:
    """Report characters of ``words`` that the bundled font lacks."""
    for char in FontChain().missing(words):
        ctx.text_problem(card_id, f"{what} prints {describe(char)}, which no font has")
