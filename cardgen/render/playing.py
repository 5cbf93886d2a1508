"""A traditional playing card in business-card size, 2 high."""
from __future__ import annotations

from . import text
from .common import INK
from .icons import draw_icon

RED = (0.78, 0.1, 0.12)
SUIT_ICON = {"spades": "spade", "hearts": "heart", "diamonds": "diamond", "clubs": "club"}
RANK_ORDER = "3 4 5 6 7 8 9 10 J Q K A 2"  # the footer's default: "low 3 … 2 high"


def draw(canvas, card, ctx) -> None:
    w, h, s = ctx.width, ctx.height, ctx.safe
    rank, suit = card.fields["rank"], card.fields["suit"]
    color = RED if suit in ("hearts", "diamonds") else INK
    for corner in (0, 180):
        canvas.saveState()
        if corner:
            canvas.translate(w, h)
            canvas.rotate(180)
        canvas.setFillColorRGB(*color)
        size = min(16.0, 18.0 / (text.width(rank, text.BOLD, 1.0) or 1.0))
        canvas.setFont(text.BOLD, size)
        canvas.drawCentredString(s + 9, h - s - 14, rank)
        draw_icon(canvas, SUIT_ICON[suit], s + 9, h - s - 26, 11, color, color)
        canvas.restoreState()
    draw_icon(canvas, SUIT_ICON[suit], w / 2, h / 2 + 8, h * 0.4, color, color)
    canvas.setFillColorRGB(*color)
    canvas.setFont(text.BOLD, 11)
    canvas.drawCentredString(w / 2, h / 2 - h * 0.2 - 9, rank)
    text.check(ctx, card.id, "footer", card.text)
    canvas.setFillColorRGB(*INK)
    canvas.setFont(text.REGULAR, 6)
    canvas.drawCentredString(w / 2, s + 1, card.text or f"low {RANK_ORDER} high")
