"""Common Carrier tiles: a node in the owner's colour and shape, and its links.

Each link is a bold line from the node to the midpoint of its edge, running
to the trim (and into any bleed) so lines of neighbouring cards join when
laid side by side.
"""
from __future__ import annotations

from ..colors import GRAY, darken, lighten
from ..model import PLAYER_MARKS
from . import text
from .common import INK, draw_background
from .icons import draw_icon


def draw(canvas, card, ctx) -> None:
    w, h, b = ctx.width, ctx.height, ctx.bleed
    cx, cy = w / 2, h / 2
    edges = card.fields["edges"]
    fill = GRAY if card.fields.get("gray") else (card.color or ctx.accent)
    draw_background(canvas, ctx, lighten(fill, 0.9))
    canvas.saveState()
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(h * 0.1)
    canvas.setLineCap(0)
    ends = {"top": (cx, h + b), "bottom": (cx, -b), "left": (-b, cy), "right": (w + b, cy)}
    for side, end in ends.items():
        if getattr(edges, side):
            canvas.line(cx, cy, *end)
    canvas.restoreState()
    mark = PLAYER_MARKS[card.owner % len(PLAYER_MARKS)] if card.owner >= 0 else "circle"
    draw_icon(canvas, "node" if mark == "circle" else f"node-{mark}", cx, cy, h * 0.46, fill, darken(fill, 0.55))
    if card.title:
        text.check(ctx, card.id, "title", card.title)
        text.draw(canvas, ctx.safe, ctx.safe, card.title.upper(), 6.5, bold=True, color=INK)
