"""dotCOMbust asset parts: asset name and code, this part, the checklist.

Colour tells assets apart in colour; the letter code and the icon still do
when the deck is printed in black and white.
"""
from __future__ import annotations

from ..colors import ink_on, lighten
from . import text
from .common import INK, band, fitted
from .icons import draw_icon


def draw(canvas, card, ctx) -> None:
    w, h, s = ctx.width, ctx.height, ctx.safe
    color = card.color or ctx.accent
    band_h = h * 0.22
    band(canvas, ctx, h, band_h, color)
    ink = ink_on(color)
    # code badge, the code sized to sit inside the circle
    r = band_h * 0.38
    bx, by = s + r, h - band_h / 2 - 1
    canvas.setFillColorRGB(1, 1, 1)
    canvas.setStrokeColorRGB(*INK)
    canvas.setLineWidth(1)
    canvas.circle(bx, by, r, stroke=1, fill=1)
    canvas.setFillColorRGB(*INK)
    size = min(r * 1.1, r * 1.5 / (text.width(card.code, text.BOLD, 1.0) or 1.0))
    canvas.setFont(text.BOLD, size)
    canvas.drawCentredString(bx, by - size * 0.36, card.code)
    name_x = bx + r + 5
    fitted(canvas, ctx, card.id, "asset name", card.asset, text.BOLD, band_h * 0.5, name_x,
           h - (band_h - band_h * 0.5) / 2 + 1, w - name_x - s, band_h * 0.62, color=ink, max_lines=1)
    # this card's part
    top = h - band_h - 5
    bottom = fitted(canvas, ctx, card.id, "part name", card.title, text.BOLD, 13, s, top,
                    w * 0.7 - s, h * 0.2, color=INK)
    # the checklist, one or two columns, spread over the space above the footer
    n = len(card.parts)
    footer = s + 10
    columns = 1 if n <= 4 else 2
    per_column = -(-n // columns)
    list_top = bottom - 4
    list_w = w * 0.7 - s
    col_w = list_w / columns
    row_h = min(12.0, (list_top - footer) / per_column)
    size = min(7.5, row_h * 0.78)
    for i, part in enumerate(card.parts):
        col, row = divmod(i, per_column)
        x = s + col * col_w
        y = list_top - (row + 1) * row_h
        box = size * 0.9
        mine = part == card.title
        canvas.setStrokeColorRGB(*INK)
        canvas.setLineWidth(0.6)
        canvas.setFillColorRGB(*(color if mine else (1, 1, 1)))
        canvas.rect(x, y + 0.5, box, box, stroke=1, fill=1)
        if mine:
            canvas.setStrokeColorRGB(*ink)
            canvas.setLineWidth(1.1)
            canvas.lines([(x + box * 0.2, y + 0.5 + box * 0.5, x + box * 0.42, y + 0.5 + box * 0.22),
                          (x + box * 0.42, y + 0.5 + box * 0.22, x + box * 0.85, y + 0.5 + box * 0.85)])
        font = text.BOLD if mine else text.REGULAR
        avail = col_w - box - 7
        fsize = size
        while text.width(part, font, fsize) > avail and fsize > text.MIN_SIZE:
            fsize -= 0.25
        if text.width(part, font, fsize) > avail:
            ctx.text_problem(card.id, f"checklist entry {part!r} does not fit")
        canvas.setFillColorRGB(*INK)
        canvas.setFont(font, fsize)
        canvas.drawString(x + box + 3, y + 1.2, part)
    # icon and scoring
    icon_size = min(h * 0.45, w * 0.26)
    if card.icon:
        draw_icon(canvas, card.icon, w - s - icon_size / 2, (list_top + footer) / 2 + 2, icon_size,
                  lighten(color, 0.15), INK)
    canvas.setFillColorRGB(*INK)
    canvas.setFont(text.BOLD, 7.5)
    canvas.drawRightString(w - s, s, f"{n} parts = {n - 1} point{'s' if n != 2 else ''}")
