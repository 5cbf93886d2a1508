"""How a greedy player judges a Goofspiel position (the search and the runner's greedy use it)."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rules import GopsState


def heuristic(state: GopsState, player: int) -> float:
    """Points so far, and the bid cards still in hand."""
    return state.points[player] + 0.1 * sum(state.hands[player])
