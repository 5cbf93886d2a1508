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
    body_top = h - band_h - 6
    has_art = card.image is not None or bool(card.icon)
    if h > w:
        # portrait: art centred under the band, text below it
        art = min(w - 2 * s, (body_top - s) * 0.5) if has_art else 0.0
        art_box = ((w - art) / 2, body_top - art)
        text_box = (s, body_top - art - (6 if art else 0), w - 2 * s)
    else:
        # landscape: art on the left, text beside it
        art = min(body_top - s, w * 0.4) if has_art else 0.0
        art_box = (s, s + (body_top - s - art) / 2)
        text_box = (s + art + (6 if art else 0), body_top, w - 2 * s - art - (6 if art else 0))
    if card.image is not None:
        draw_image(canvas, card.image, art_box[0], art_box[1], art, art)
    elif card.icon:
        draw_icon(canvas, card.icon, art_box[0] + art / 2, art_box[1] + art / 2, art * 0.9,
                  lighten(color, 0.2), INK)
    if card.text:
        x, top, width = text_box
        fitted(canvas, ctx, card.id, "text", fill(card.text, ctx.options), text.REGULAR, 9, x,
               top, width, top - s, color=INK)
