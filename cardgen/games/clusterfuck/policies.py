"""How Clusterfuck players choose, and the game the flows play with them.

``ClusterfuckGame`` is the table of ``rules.py`` with its policies: uniform random (``playout.py``),
greedy (lowest winning play, safe demands, honest answers but for bluffs), the search's rollout
policy, evaluation and exploration, the heuristic, and the playtest's per-game figures and their
summary. The rules know nothing of it.
"""
from __future__ import annotations

import math
import random
from itertools import compress
from typing import Any

from ...stats import clustered_rate, mean_interval
from .cards import (
    _FOLLOWS,
    _LEADS,
    ASSIGN,
    BEST,
    COMPLY,
    GIVE_BACK,
    KEEP,
    NO_DEMAND,
    PASS,
    RANKS,
    REFUSE,
    TWO,
    demand_action,
)
from .playout import random_action, random_playout
from .rules import (
    ASSIGN_STATUS,
    CHOOSE_DEMAND,
    GIVING_BACK,
    KEEP_STATUS,
    PLAY,
    TARGET_GIVES,
    ClusterfuckRules,
    ClusterfuckState,
    _demander_wins,
)


class ClusterfuckGame(ClusterfuckRules):
    """Clusterfuck as the flows play it: the rules, their policies and the playtest report."""

    def random_action(self, state: ClusterfuckState, player: int, rng: random.Random) -> int:
        """A legal action of ``player`` drawn uniformly (``playout.random_action``)."""
        return random_action(state, player, rng)

    def random_playout(self, state: ClusterfuckState, rng: random.Random, max_moves: int,
                       branching: list[int]) -> int:
        """The runner's all-random game, played out whole (``playout.random_playout``)."""
        return random_playout(state, rng, max_moves, branching)

    def greedy_action(self, state: ClusterfuckState, player: int, rng: random.Random) -> int:
        """Lowest winning play, safe demands for the best card, honest answers but for bluffs;
        as Magnate keep card 1 and promote the runner-up; give back the lowest cards."""
        phase = state.phase
        if phase == PLAY:
            return lowest_winning_play(state)
        if phase == CHOOSE_DEMAND:
            return self._greedy_demand(state, player)
        if phase == KEEP_STATUS:
            return KEEP + 1
        if phase == ASSIGN_STATUS:
            return self._greedy_assign(state)
        if phase == GIVING_BACK:
            hand = state.hands[player]
            return GIVE_BACK + next(r for r in range(13) if hand[r])
        if state.refusal_outcome(state.trick_winner, player) != TARGET_GIVES:
            return REFUSE
        if state.demand_rank != BEST and not state.hands[player][state.demand_rank]:
            return COMPLY  # nothing to lose by complying, a status to show by refusing
        return REFUSE if rng.random() < self.bluff else COMPLY

    def _greedy_demand(self, state: ClusterfuckState, me: int) -> int:
        """Demand from the fullest hand among those this player should beat.

        A player knows its own status, the statuses made public at the start
        of the round and those seen in comparisons; an unknown target is only
        worth the risk from the upper half of the table. A demand always asks
        for the target's best card.

        The Asshole also goes after last round's Magnate while that player's
        card is unknown to him, because the Magnate usually keeps card 1.
        """
        n = state.n
        mine = state.status[me]
        known = state.known
        crowned = state.last_finish[0] if state.last_finish else -1
        best, best_score = NO_DEMAND, (0, 0)
        for q in state.demand_targets():
            theirs = known[me * n + q]
            if theirs:
                if not _demander_wins(mine, theirs, n):
                    continue
                score = (2, state.held[q])
            elif mine == n and q == crowned:
                score = (2, state.held[q])
            elif mine == n or mine > (n + 1) // 2:
                continue
            else:
                score = (1, state.held[q])
            if score > best_score:
                best, best_score = demand_action(q), score
        return best

    def _greedy_assign(self, state: ClusterfuckState) -> int:
        """The lowest number left goes to the player who went out second (a promotion)."""
        runner_up = state.last_finish[1]
        return ASSIGN + 16 * runner_up + min(state.unassigned())

    #: moves a search plays from a new node before it asks ``evaluate``
    rollout_depth = 10
    #: how often a rollout move is greedy's rather than a random one
    ROLLOUT_GREEDY = 0.9
    #: the search's exploration constant: ``evaluate``'s chances differ by little, so explore less
    exploration = 0.3

    def rollout_action(self, state: ClusterfuckState, player: int, rng: random.Random) -> int:
        """A search's rollout move: mostly greedy's (climbing games punish random play, so random
        rollouts misjudge a hand), now and then a random one so the rollouts still vary."""
        if rng.random() < self.ROLLOUT_GREEDY:
            return self.greedy_action(state, player, rng)
        return self.random_action(state, player, rng)
    #: ``evaluate``'s weights: a round's chances per unit of hand strength, the match's per round
    ROUND_SHARPNESS, MATCH_SHARPNESS = 1.0, 3.0
    #: what a set of each rank costs a hand (a low set is hard to be rid of, a high one takes a
    #: trick back), and what each card costs
    SET_COST = tuple(1.0 - 1.2 * r / TWO for r in range(len(RANKS)))
    CARD_COST = 0.1

    def evaluate(self, state: ClusterfuckState) -> list[float]:
        """Each player's chance of becoming the True Magnate as the search guesses it, summing to 1.

        This round's Magnate is the first out if someone is; else the chance of each player still
        in is a softmax of its hand's strength (few sets to play, low ones above all).
        A player's match chance is a softmax of its rounds won plus that chance."""
        n = state.n
        if state.winner is not None:
            return [1.0 if p == state.winner else 0.0 for p in range(n)]
        won = state.rounds_won
        if state.finish:
            magnate = state.finish[0]
            rounds = [won[p] + (1.0 if p == magnate else 0.0) for p in range(n)]
        else:
            out, hands, held = state.out, state.hands, state.held
            sharp, cost, per_card = self.ROUND_SHARPNESS, self.SET_COST, self.CARD_COST
            weights = [0.0 if out[p] else math.exp(-sharp * (sum(compress(cost, hands[p])) + per_card * held[p]))
                       for p in range(n)]
            total = sum(weights)
            rounds = [won[p] + weights[p] / total for p in range(n)]
        top = max(rounds)
        sharp = self.MATCH_SHARPNESS
        chances = [math.exp(sharp * (r - top)) for r in rounds]
        total = sum(chances)
        return [c / total for c in chances]

    def heuristic(self, state: ClusterfuckState, player: int) -> float:
        """Rounds won first, then fewer cards, then strong cards in hand."""
        hand = state.hands[player]
        return 100.0 * state.rounds_won[player] - 2.0 * state.held[player] + hand[TWO] + 0.5 * hand[TWO - 1]

    def metrics(self, state: ClusterfuckState) -> dict[str, Any]:
        return {
            "rounds": state.rounds_played,
            "true_magnate": state.winner,
            "demands": state.demands,
            "refused": state.refused,
            "reversed": state.reversed,
            "protected": state.protected,
            "named": state.named,
            "named_missing": state.named_missing,
            "keep_hits": list(state.keep_hits[1:]),
            "keep_rounds": state.keep_rounds,
        }

    def summarize(self, metrics: list[dict[str, Any]]) -> dict[str, Any]:
        """Means per game, and how often each status keeps its place.

        Status k keeps its place in a round (from round 2 on) when the player
        holding card k during that round finishes it in place k (1 = first
        out, N = last with cards). The Magnate's rate has an interval with
        games as clusters of rounds (Rao and Scott's design effect), and its
        counts per game so that runs can be compared the same way.
        """
        if not metrics:
            return {}
        games = len(metrics)
        won = [m["rounds"] for m in metrics if m["true_magnate"] is not None]
        demands = sum(m["demands"] for m in metrics)
        refused = sum(m["refused"] for m in metrics)
        rounds = sum(m["keep_rounds"] for m in metrics)
        places = len(metrics[0]["keep_hits"])
        hits = [sum(m["keep_hits"][k] for m in metrics) for k in range(places)]
        keep = {str(k + 1): (hits[k] / rounds if rounds else None) for k in range(places)}
        # the rounds of one game are not independent trials: the Magnate's rate carries the design
        # effect of its games (stats.clustered_rate), and each game's count for comparing runs
        magnate_games = [(m["keep_hits"][0], m["keep_rounds"]) for m in metrics]
        _, magnate_low, magnate_high, magnate_deff = clustered_rate(magnate_games)
        rounds_to_magnate = mean_interval(won)
        return {
            "rounds until a True Magnate (mean)": rounds_to_magnate[0] if rounds_to_magnate else None,
            "rounds until a True Magnate (95% CI)": list(rounds_to_magnate[1:]) if rounds_to_magnate else None,
            "games with a True Magnate": len(won),
            "card demands per game": demands / games,
            "demands refused per game": refused / games,
            "demands reversed per game": sum(m["reversed"] for m in metrics) / games,
            "demands stopped by two 2s per game": sum(m["protected"] for m in metrics) / games,
            "demands naming a rank per game": sum(m["named"] for m in metrics) / games,
            "named rank not held per game": sum(m["named_missing"] for m in metrics) / games,
            "share of demands refused": refused / demands if demands else None,
            "Magnate keeps place": keep["1"],
            "Magnate keeps place (95% CI)": [magnate_low, magnate_high] if rounds else None,
            "Magnate keeps place (design effect)": magnate_deff,
            "Magnate keeps place (rounds kept and rounds, per game)": magnate_games,
            "rounds a status could be kept": rounds,
            "Asshole keeps place": keep[str(places)],
            "status keeps place": keep,
        }


def lowest_winning_play(state: ClusterfuckState) -> int:
    """Lead the lowest rank as a full set; follow with the lowest beating set."""
    hand = state.hands[state.player]
    count = state.trick_count
    if count == 0:
        for r in range(13):
            if hand[r]:
                return _LEADS[r][hand[r]][-1]
    for r in range(state.trick_rank + 1, 13):
        if hand[r] >= count:
            return _FOLLOWS[count][r]
    return PASS

