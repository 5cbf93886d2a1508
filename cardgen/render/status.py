"""Clusterfuck's Social Status cards: number, title and the power reminder."""
from __future__ import annotations

from ..colors import ink_on
from . import text
from .common import INK, fitted

TOP_COLOR = (0.80, 0.64, 0.16)
BOTTOM_COLOR = (0.45, 0.12, 0.12)
MIDDLE_COLOR = (0.28, 0.30, 0.38)


def draw(canvas, card, ctx) -> None:
    w, h, s = ctx.width, ctx.height, ctx.safe
    players = ctx.options.get("players", card.number)
    color = card.color or (TOP_COLOR if card.number == 1 else BOTTOM_COLOR if card.number == players
                           else MIDDLE_COLOR)
    strip = w * 0.3
    canvas.setFillColorRGB(*color)
    canvas.rect(-ctx.bleed, -ctx.bleed, strip + ctx.bleed, h + 2 * ctx.bleed, stroke=0, fill=1)
    ink = ink_on(color)
    canvas.setFillColorRGB(*ink)
    number = str(card.number)
    size = min(h * 0.5, strip * 0.8 / (text.width(number, text.BOLD, 1.0) or 1.0))
    canvas.setFont(text.BOLD, size)
    canvas.drawCentredString(strip / 2, h * 0.48 - size * 0.2, number)
    canvas.setFont(text.REGULAR, 6.5)
    canvas.drawCentredString(strip / 2, s + 2, f"of {players}")
    canvas.drawCentredString(strip / 2, h - s - 7, "SOCIAL STATUS")
    x = strip + 8
    width = w - x - s
    title = card.title or f"Rank {card.number}"
    bottom = fitted(canvas, ctx, card.id, "title", title, text.BOLD, 14, x, h - s, width, h * 0.34,
                    color=INK)
    canvas.setStrokeColorRGB(*color)
    canvas.setLineWidth(1)
    canvas.line(x, bottom - 3, w - s, bottom - 3)
    fitted(canvas, ctx, card.id, "reminder text", card.text, text.REGULAR, 7.5, x, bottom - 7,
           width, bottom - 7 - s, color=INK)
