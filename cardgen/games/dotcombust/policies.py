"""How dotCOMbust players choose, and the game the flows play with them.

``DotcombustGame`` is the table of rules.py with its players: uniform random play (``random_action``,
and ``random_playout``, a whole game played out fast), the greedy player, the heuristic and the
search's evaluation. The rules know nothing of it.

The fast playout under the plain rules (``_play_out_plain``) resolves a turn in one loop of its own
instead of through ``DotcombustState.apply_action``: the step code played that way measured 2,800
games per CPU-second against this loop's 3,350 (target 3,000, bench/playtest.py). It is held equal
to the step code position by position over many seeds (tests/test_dotcombust_speed.py).
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import cast

from ..base import IllegalAction
from .knowledge import transactions
from .rules import NOTHING_TO_SHOW, DotcombustRules, DotcombustState, Pass, Show, progress

#: evaluate, in a search: a player's share moves from 1/N by the points it gained since the
#: searched position over this many (so a typical turn's gain or loss stays inside 0..1)
EVALUATE_GAIN = 6.0
#: evaluate, elsewhere: how many points of expected lead make a player e (2.72) times likelier to win
EVALUATE_SPREAD = 3.0
#: moves the search plays at random before it asks evaluate: none, it judges the position it
#: reached. A turn's outcome is already a gamble on hidden hands (does the receiver hold the
#: asset?), and every random turn after it adds noise that swamps the gap between good and bad
#: plays (mcts:200 against three greedy players, 30 games each: 3 wins at depth 0, 2 at 1, 2 at 4)
ROLLOUT_DEPTH = 0
#: share of greedy plays chosen at random instead (see greedy_action)
GREEDY_EXPLORE = 0.05


class DotcombustGame(DotcombustRules):
    """dotCOMbust as the flows play it: the rules with their players and the search's judgement."""

    rollout_depth = ROLLOUT_DEPTH

    def random_action(self, state: DotcombustState, player: int, rng: random.Random) -> Pass | Show:
        """A play drawn uniformly from ``state.legal_actions(player)``, mostly without listing them.

        A pass under the plain rules: plays of the whole deck are drawn at random until one is
        open to the hand (``_random_play``), so every legal play has the same chance. The play is
        noted on the state, so ``apply_action`` need not check it again.
        """
        if state.ended_by:
            raise IllegalAction("the game is over")
        play: Pass | Show
        if state._deciding:
            pending = state.pending[player]
            play = self._shows[pending[0]][rng.getrandbits(1)] if pending else NOTHING_TO_SHOW
        elif self._plain and not (state.bans and state.bans[player * self.num_players + state.opponent(player)]):
            play = self._flat[self._random_play(state.hands[player], rng)]
        else:
            legal = state.legal_passes(player)
            play = legal[int(rng.random() * len(legal))]
        trusted = state._trusted
        if trusted is None:
            trusted = state._trusted = [None] * self.num_players
        trusted[player] = play
        return play

    def random_playout(self, state: DotcombustState, rng: random.Random, max_moves: int,
                       branching: list[int]) -> int:
        """Everyone plays at random until the game ends or ``max_moves`` moves are made; returns
        the moves made, each decision's number of plays per player noted in ``branching``.

        The same draws as the runner's turns of ``random_action``, so the same game from the same
        rng, without checking its own plays or listing them. Under the plain rules without tagback
        bans a pass turn is drawn and resolved in one loop (``_play_out_plain``); under the other
        options it goes through random_action and the turn's resolution. The state tracks what the
        players know no longer (``known_parts`` None): a game played out is not searched.
        """
        state._log = state._known = None
        state._trusted = state._dealing = None
        if self._plain and state.bans is None and state._incoming is None:
            return self._play_out_plain(state, rng, max_moves, branching)
        n = self.num_players
        moves = 0
        while not state.ended_by and moves < max_moves:
            moves += 1
            if state._deciding:
                _random_shows(state, rng.getrandbits, branching)
                continue
            joint = []
            for p in range(n):
                branching.append(state.num_legal_actions(p))
                joint.append(cast(Pass, self.random_action(state, p, rng)))
            state._trusted = None
            state._apply_passes(joint)
        return moves

    def _play_out_plain(self, state: DotcombustState, rng: random.Random, max_moves: int,
                        branching: list[int]) -> int:
        """random_playout under the plain rules without tagback bans: a pass turn drawn as
        random_action draws it (one player after the other, from the hand before the turn) and
        resolved as _apply_passes resolves it. Every hand holds 2 cards or more (or the game is
        over), so everyone passes, and each player answers the one pass it gets."""
        n = self.num_players
        hands, sizes, weights = state.hands, state.hand_sizes, state.weights
        asset_sizes, weight, span, bits = self.asset_sizes, self._weight, self._span, self._bits
        draw = rng.getrandbits
        limit = self.turn_limit
        moves = 0
        while not state.ended_by and moves < max_moves:
            moves += 1
            if state._deciding:
                _random_shows(state, draw, branching)
                continue
            whole: list[tuple[int, int]] = []
            plays = []
            branching += weights  # each player's plays, before any pass leaves
            for p in range(n):  # draw, and the pass leaves the hand
                hand = hands[p]
                u = draw(bits)
                while u >= span or u & 3 >= weight[hand[u >> 2]]:  # as in _random_play
                    u = draw(bits)
                plays.append(u)
                a = u >> 2
                k = (u >> 1 & 1) + 1
                held = hand[a]
                if held == asset_sizes[a]:
                    whole.append((p, a))
                hand[a] = held - k
                sizes[p] -= k
                weights[p] += weight[held - k] - weight[held]
            arriving: list[tuple[int, int, int]] = []
            q = 1 + state.turn % (n - 1)
            for p, u in enumerate(plays):  # each receiver answers the one pass it gets
                if q == n:
                    q = 0
                a = u >> 2
                hand = hands[q]
                held = hand[a]
                if held:  # pass back the card(s) plus one part, or all parts
                    give = held if u & 2 else 1
                    hand[a] = held - give
                    sizes[q] -= give
                    weights[q] += weight[held - give] - weight[held]
                    arriving.append((p, a, (u >> 1 & 1) + 1 + give))
                elif u & 1:  # face up: one comes back; of two, the receiver keeps one
                    arriving.append((p, a, 1))
                    if u & 2:
                        arriving.append((q, a, 1))
                else:  # face down: the receiver keeps them all
                    arriving.append((q, a, (u >> 1 & 1) + 1))
                q += 1
            state.passes += n
            state._arrive(arriving, whole)
            state.turn += 1
            if min(sizes) <= 1 or (limit and state.turn >= limit):  # as _check_end asks
                state._check_end()
        return moves

    def _random_play(self, hand: list[int], rng: random.Random) -> int:
        """A play of ``hand`` drawn uniformly, as its index in ``_flat``: plays of the whole deck
        are drawn until one is the hand's. A hand under the plain rules holds 2 cards or more
        (or the game is over), so it opens 4 plays or more and the drawing ends."""
        weight, span, bits, draw = self._weight, self._span, self._bits, rng.getrandbits
        u = draw(bits)
        while u >= span or u & 3 >= weight[hand[u >> 2]]:
            u = draw(bits)
        return u

    def heuristic(self, state: DotcombustState, player: int) -> float:
        """Points, plus part credit for assets well on their way: the player's ``value``."""
        return self.value(state, player)

    def evaluate(self, state: DotcombustState) -> list[float]:
        """Each player's prospects in 0..1, summing to about 1, for the search.

        A finished game: its result, a draw an equal share. A position of a search (reached from
        a determinization): 1/N moved by what the player's expected score (``value``) gained or
        lost by its own passes since the searched position, over EVALUATE_GAIN. The gain, not
        the standing: one move changes a player's standing little, and a share of the win near
        0 or 1 hides the difference between two moves under the search's exploration (the
        standing is in the finished games' results). Its own passes only: what the others
        gained, and what the pass it had to answer cost it, depend on plays it did not choose
        and are noise to its own choice (measured, mcts:1000 alone against three greedy players,
        40 games: 7 wins and 12.6 points a game judging the whole gain, 8 and 13.4 judging its own
        passes). Elsewhere: a softmax of the expected scores.
        """
        n = self.num_players
        if state.ended_by:
            result = state.returns()
            return result if any(result) else [1.0 / n] * n
        values = [self.value(state, p) for p in range(n)]
        start = state._searched_from
        if start is not None:
            incoming = state._incoming or [0.0] * n
            gains = [v - s - i for v, s, i in zip(values, start, incoming)]
            return [min(1.0, max(0.0, 1.0 / n + g / EVALUATE_GAIN)) for g in gains]
        top = max(values)
        odds = [math.exp((v - top) / EVALUATE_SPREAD) for v in values]
        total = sum(odds)
        return [o / total for o in odds]

    def greedy_action(self, state: DotcombustState, player: int,
                      rng: random.Random) -> Pass | Show:
        """The play with the best expected gain for the player's own assets.

        It sees only what the table sees: its own hand and how many cards
        each other player holds; the parts it lacks are taken as spread at
        random over the other hands. Ties go at random, and one play in
        GREEDY_EXPLORE is any legal play, so two greedy players passing the
        same asset to each other (a wash) do not stall the game for ever.
        A completed asset is shown by ``greedy_show``.
        """
        if state.deciding():
            return self.greedy_show(state, player)
        legal = state.legal_passes(player)
        if len(legal) == 1 or rng.random() < GREEDY_EXPLORE:
            return rng.choice(legal)
        hand = state.hands[player]
        unseen = sum(state.hand_sizes) - state.hand_sizes[player]
        receiver = state.hand_sizes[state.opponent(player)]
        gains: dict[tuple[int, int, bool], float] = {}

        def expected_gain(a: int, k: int, up: bool) -> float:
            size, mine = self.asset_sizes[a], hand[a]
            missing = size - mine
            p_none = _chance_holds_none(unseen, missing, receiver)
            held = missing * receiver / unseen / (1 - p_none) if p_none < 1 else 0.0
            now = progress(mine, size)
            won = progress(mine + (1 if k == 1 else held), size) - now
            lost = progress(mine - (k - 1 if up else k), size) - now
            return (1 - p_none) * won + p_none * lost

        best: list[Pass] = []
        best_gain = float("-inf")
        for action in legal:
            gain = 0.0
            for deal in transactions(action):
                if deal not in gains:
                    gains[deal] = expected_gain(*deal)
                gain += gains[deal]
            if gain > best_gain + 1e-12:
                best, best_gain = [action], gain
            elif gain > best_gain - 1e-12:
                best.append(action)
        return rng.choice(best)

    def greedy_show(self, state: DotcombustState, player: int) -> Show:
        """Show a completed asset, unless that ends the game while not ahead.

        Shown or kept, a complete asset scores the same; the choice steers the
        end. Showing shrinks the hand towards the one card that ends the
        game, so a player who is not ahead keeps an asset whose showing would
        end it now, and plays on. "Ahead" uses what the table sees: the
        player's own points, every complete asset in hand counted, against
        the points the others have shown (their kept assets are hidden).
        Showing otherwise did a little better than keeping when behind or
        never showing (docs/rules-readings.md has the figures).
        """
        pending = state.pending[player]
        if not pending:
            return NOTHING_TO_SHOW
        asset = pending[0]
        if not state.show_would_end(player, asset):
            return Show(asset, True)
        mine = state.points[player] + sum(
            size - 1 for c, size in zip(state.hands[player], self.asset_sizes) if c == size)
        ahead = all(mine > state.points[q] for q in range(self.num_players) if q != player)
        return Show(asset, ahead)


def _random_shows(state: DotcombustState, draw: Callable[[int], int], branching: list[int]) -> None:
    """A show-or-keep decision at random for everyone, each player's number of plays noted in
    ``branching``: drawn as random_action draws it, resolved by the step code (``_apply_shows``)."""
    pending = state.pending
    branching += [2 if mine else 1 for mine in pending]
    shows = state.game._shows
    state._apply_shows([shows[mine[0]][draw(1)] if mine else NOTHING_TO_SHOW for mine in pending])


def _chance_holds_none(unseen: int, missing: int, hand: int) -> float:
    """Chance a hand of ``hand`` unseen cards has none of ``missing`` parts."""
    chance = 1.0
    for i in range(hand):
        if unseen - i <= 0:
            break
        chance *= max(unseen - missing - i, 0) / (unseen - i)
    return chance
