"""``CommonCarrierGame``: the rules of rules.py with the policies of policies.py, the engine the
game declares (``GAME.engine``) and every flow plays."""
from __future__ import annotations

import random

from . import policies
from .rules import CommonCarrierRules, CommonCarrierState


class CommonCarrierGame(CommonCarrierRules):
    """Two players, their printed cards and the rule options, played by the greedy player and
    judged for the search as policies.py says."""

    #: the search judges a position right after its tree moves: random moves after them only blur
    #: the judgement (greedy against mcts:1000, 20 games a seating: 9-1 at depth 4, 1-0 at depth 0)
    rollout_depth = 0
    #: hundreds of plays a move: the search looks two moves deep at the best few (search.py)
    search_guided = True

    def heuristic(self, state: CommonCarrierState, player: int) -> float:
        return policies.heuristic(self, state, player)

    def heuristics_ahead(self, state: CommonCarrierState, player: int) -> list[float]:
        return policies.heuristics_ahead(self, state, player)

    def evaluate(self, state: CommonCarrierState) -> list[float]:
        return policies.evaluate(self, state)

    def tie_chance(self, state: CommonCarrierState) -> float:
        return policies.tie_chance(self, state)

    def greedy_action(self, state: CommonCarrierState, player: int, rng: random.Random) -> tuple:
        return policies.greedy_action(self, state, player, rng)
