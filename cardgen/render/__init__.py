"""How a card looks, given its card box in points. Knows nothing about paper.

Most cards are drawn from layouts, data in the deck file (see layouts.py
and render/layout.py); ``faces.Faces`` picks each card's layout and keeps
one drawing per distinct face and back. The kinds that data cannot say are
drawn by a Python module each (``KIND_RENDERERS``): today only Common
Carrier's tile, whose link lines run into the bleed to meet the neighbouring
card's (the playing card is the layout ``playing``, its bottom-right index
turned 180 degrees with ``rotate``). Renderers trust their
inputs (the loader checked them) and report text that does not fit into
``RenderContext.problems`` instead of printing it clipped.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..model import RGB
from . import tile

KIND_RENDERERS = {
    "tile": tile.draw,
}


@dataclass
class RenderContext:
    """What a Python-drawn card kind may know beyond the card: box, bleed, rule options."""

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
