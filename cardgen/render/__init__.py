"""How a card looks, given its card box in points. Knows nothing about paper.

``render_face`` draws one distinct card face into the box (0, 0, width,
height); ``render_back`` draws a back. One module per card kind. Renderers
trust their inputs (the loader checked them) and report text that does not
fit into ``RenderContext.problems`` instead of printing it clipped.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..model import RGB, Back, Card
from . import asset, generic, playing, reference, status, text, tile
from .common import draw_back, draw_background

KIND_RENDERERS = {
    "tile": tile.draw,
    "asset": asset.draw,
    "status": status.draw,
    "playing": playing.draw,
    "reference": reference.draw,
    "generic": generic.draw,
}


@dataclass
class RenderContext:
    """What a renderer may know beyond the card: box, bleed, rule options."""

    width: float
    height: float
    bleed: float = 0.0
    safe: float = 8.5  # 3 mm inside the trim
    accent: RGB = (0.2, 0.2, 0.25)
    options: dict[str, Any] = field(default_factory=dict)
    deck_name: str = ""
    #: text that did not fit, as (card id, what) pairs
    problems: list[tuple[str, str]] = field(default_factory=list)

    def text_problem(self, card_id: str, what: str) -> None:
        self.problems.append((card_id, what))


def render_face(canvas, card: Card, ctx: RenderContext) -> None:
    text.register_fonts()
    draw_background(canvas, ctx, (1.0, 1.0, 1.0))
    KIND_RENDERERS[card.kind](canvas, card, ctx)


def render_back(canvas, back: Back, color: RGB | None, ctx: RenderContext) -> None:
    text.register_fonts()
    draw_back(canvas, back, color, ctx)
