"""Pieces the Python-drawn card kinds share: ink and a background that fills the bleed."""
from __future__ import annotations

#: text and lines in pure black, so printers lay them with the black ink alone
INK = (0.0, 0.0, 0.0)


def draw_background(canvas, ctx, color) -> None:
    """Fill the card and its bleed, so a slightly off cut shows no white."""
    b = ctx.bleed
    canvas.setFillColor(color)
    canvas.rect(-b, -b, ctx.width + 2 * b, ctx.height + 2 * b, stroke=0, fill=1)
