"""The card kind for decks of your own: title, art, text, colour."""
from __future__ import annotations

from ..colors import ink_on, lighten
from . import text
from .common import INK, band, fitted
from .icons import draw_icon
from .images import draw_image
from .reference import fill


def draw(canvas, card, ctx) -> None:
    w, h, s = ctx.width, ctx.height, ctx.safe
    color = card.color or ctx.accent
    band_h = h * 0.22
    band(canvas, ctx, h, band_h, color)
    fitted(canvas, ctx, card.id, "title", fill(card.title, ctx.options), text.BOLD, band_h * 0.5, s,
           h - band_h * 0.22, w - 2 * s, band_h * 0.7, color=ink_on(color), max_lines=1)
    x = s
    art = h - band_h - 2 * s - 4
    if card.image is not None:
        draw_image(canvas, card.image, s, s, art, art)
        x = s + art + 6
    elif card.icon:
        draw_icon(canvas, card.icon, s + art / 2, s + art / 2, art * 0.9, lighten(color, 0.2), INK)
        x = s + art + 6
    if card.text:
        fitted(canvas, ctx, card.id, "text", fill(card.text, ctx.options), text.REGULAR, 9, x,
               h - band_h - 6, w - x - s, h - band_h - 6 - s, color=INK)
