"""Pieces every card kind uses: background with bleed, bands, safe area."""
from __future__ import annotations

from ..colors import darken, ink_on, lighten
from . import text
from .icons import draw_icon

INK = (0.13, 0.13, 0.15)


def draw_background(canvas, ctx, color) -> None:
    """Fill the card and its bleed, so a slightly off cut shows no white."""
    b = ctx.bleed
    canvas.setFillColorRGB(*color)
    canvas.rect(-b, -b, ctx.width + 2 * b, ctx.height + 2 * b, stroke=0, fill=1)


def band(canvas, ctx, top: float, height: float, color) -> None:
    """A full-width coloured band reaching into the bleed at the sides (and top)."""
    b = ctx.bleed
    extra = b if top >= ctx.height - 0.01 else 0.0
    canvas.setFillColorRGB(*color)
    canvas.rect(-b, top - height, ctx.width + 2 * b, height + extra, stroke=0, fill=1)


def fitted(canvas, ctx, card_id: str, what: str, words: str, font: str, size: float,
           x: float, top: float, width: float, height: float, align: str = "left",
           color=INK, max_lines=None) -> float:
    """Draw ``words`` shrunk to fit the box; note it on the context if it cannot."""
    block = text.fit(words, font, size, width, height, max_lines=max_lines)
    if not block.fits:
        ctx.text_problem(card_id, f"{what} does not fit in {width:.0f} x {height:.0f} pt even at "
                                  f"{text.MIN_SIZE:g} pt: {words[:40]!r}")
    canvas.setFillColorRGB(*color)
    return text.draw_block(canvas, block, font, x, top, align, width)


def draw_back(canvas, back, color, ctx) -> None:
    """The shared back: logo icon, title and subtitle on the back colour."""
    base = color or back.color or (0.16, 0.18, 0.24)
    draw_background(canvas, ctx, base)
    w, h, s = ctx.width, ctx.height, ctx.safe
    ink = ink_on(base)
    frame = lighten(base, 0.35) if ink == (1.0, 1.0, 1.0) else darken(base, 0.35)
    canvas.setStrokeColorRGB(*frame)
    canvas.setLineWidth(2)
    canvas.roundRect(s, s, w - 2 * s, h - 2 * s, 8, stroke=1, fill=0)
    canvas.setLineWidth(0.7)
    canvas.roundRect(s + 4, s + 4, w - 2 * s - 8, h - 2 * s - 8, 6, stroke=1, fill=0)
    icon_size = min(w, h) * 0.34
    if back.image is not None:
        from .images import draw_image

        draw_image(canvas, back.image, w / 2 - icon_size / 2, h * 0.52, icon_size, icon_size)
    elif back.icon:
        draw_icon(canvas, back.icon, w / 2, h * 0.52 + icon_size / 2, icon_size, lighten(base, 0.25)
                  if ink == (1.0, 1.0, 1.0) else darken(base, 0.15), ink)
    inner = w - 2 * s - 16
    bottom = fitted(canvas, ctx, "back", "back title", back.title, text.BOLD, min(w, h) * 0.15,
                    s + 8, h * 0.47, inner, h * 0.22, align="center", color=ink, max_lines=1)
    if back.subtitle:
        fitted(canvas, ctx, "back", "back subtitle", back.subtitle, text.REGULAR, min(w, h) * 0.065,
               s + 8, bottom - 2, inner, bottom - s - 6, align="center", color=ink)
