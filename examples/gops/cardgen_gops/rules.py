"""Goofspiel's rules: the state machine and nothing else.

Each player holds the cards 1 to N of their own suit; a shuffled prize suit of 1 to N lies face
down. Each turn a prize is turned up and every player bids one card from their hand, face down, all
at once; bids are shown and the highest bid alone takes the prize (its value in points). If the
highest bid is tied, nobody takes it. Bids are discarded. After N turns the most points wins;
equal most points is a shared win.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from cardgen.games.base import SIMULTANEOUS, TERMINAL, Game, IllegalAction, OptionSpec, State, parse_options

from . import policies

OPTION_SPECS = (
    OptionSpec("players", 2, "players, each with a suit of bid cards", minimum=2, maximum=4),
    OptionSpec("cards", 13, "cards in each suit (1 to N)", minimum=3, maximum=13),
)


class GopsGame(Game["GopsState"]):
    """Fixed for a game: how many players, how many cards a suit."""

    name = "gops"
    option_specs = OPTION_SPECS
    #: every bid is shown once made, so a player's search keeps its tree from one turn to the next
    search_keeps_tree = True

    def __init__(self, options: Mapping[str, Any] | None = None):
        parsed = parse_options("gops", OPTION_SPECS, dict(options or {}))
        super().__init__(parsed["players"], parsed)
        self.cards = parsed["cards"]

    def new_initial_state(self, rng: random.Random) -> GopsState:
        prizes = list(range(1, self.cards + 1))
        rng.shuffle(prizes)
        return GopsState(self, prizes)

    def heuristic(self, state: GopsState, player: int) -> float:
        return policies.heuristic(state, player)

    def metrics(self, state: GopsState) -> dict[str, Any]:
        return {"points": list(state.points), "ties": state.ties}

    def summarize(self, metrics: list[dict[str, Any]]) -> dict[str, Any]:
        turns = sum(self.cards for _ in metrics) or 1
        return {"tied_bids_share": round(sum(m["ties"] for m in metrics) / turns, 4)}


class GopsState(State):
    """The prizes left, each hand, the points, and the turn's prize."""

    def __init__(self, game: GopsGame, prizes: list[int]):
        self.game = game
        self.prizes = prizes
        self.hands = [list(range(1, game.cards + 1)) for _ in range(game.num_players)]
        self.points = [0] * game.num_players
        self.ties = 0

    @property
    def prize(self) -> int:
        return self.prizes[0]

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else SIMULTANEOUS

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self.is_terminal() or player is None:
            return []
        return list(self.hands[player])

    def apply_action(self, action: Any) -> None:
        """A joint action: one bid per player, all at once."""
        if self.is_terminal():
            raise IllegalAction("the game is over")
        bids = tuple(action)
        if len(bids) != self.game.num_players:
            raise IllegalAction(f"one bid per player ({self.game.num_players}), got {len(bids)}")
        for player, bid in enumerate(bids):
            if bid not in self.hands[player]:
                raise IllegalAction(f"player {player + 1} does not hold {bid!r}")
        for player, bid in enumerate(bids):
            self.hands[player].remove(bid)
        high = max(bids)
        if bids.count(high) == 1:
            self.points[bids.index(high)] += self.prize
        else:
            self.ties += 1
        self.prizes.pop(0)

    def is_terminal(self) -> bool:
        return not self.prizes

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.game.num_players
        best = max(self.points)
        winners = [p for p, points in enumerate(self.points) if points == best]
        if len(winners) == len(self.points):
            return [0.0] * len(self.points)  # everyone level: a draw
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(len(self.points))]

    def clone(self) -> GopsState:
        copy = GopsState.__new__(GopsState)
        copy.game = self.game
        copy.prizes = list(self.prizes)
        copy.hands = [list(hand) for hand in self.hands]
        copy.points = list(self.points)
        copy.ties = self.ties
        return copy

    def determinize(self, player: int, rng: random.Random) -> GopsState:
        """Hands and points are public; only the order of the prizes after this one is hidden."""
        copy = self.clone()
        rest = copy.prizes[1:]
        rng.shuffle(rest)
        copy.prizes[1:] = rest
        return copy

    def action_to_string(self, action: Any) -> str:
        if isinstance(action, int):
            return f"bid {action}"
        return ", ".join(f"player {p + 1} bids {bid}" for p, bid in enumerate(action)) + f" for {self.prize}"
