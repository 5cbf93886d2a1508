"""The shape every game engine shares, after OpenSpiel.

A Game holds the fixed parameters (players, options) and makes an initial
State from a seeded random generator. A State answers who moves, which moves
are legal, applies one, and says when the game is over and how it went.
Simultaneous turns are one joint action: a tuple with one entry per player.
The playtest runner drives every game through these verbs only.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Hashable, Sequence

#: ``current_player()`` of a state where every player moves at once.
SIMULTANEOUS = -2
#: ``current_player()`` of a finished game.
TERMINAL = -4

Action = Hashable


@dataclass(frozen=True)
class OptionSpec:
    """One rule option a game accepts, with its default and a one-line help."""

    name: str
    default: Any
    help: str
    choices: Sequence[Any] | None = None


class Game(ABC):
    """Fixed parameters of a game: players and rule options."""

    #: game id as used in deck files (``game: common-carrier``)
    name: str = ""
    #: rule options this game accepts, by name
    option_specs: tuple[OptionSpec, ...] = ()

    def __init__(self, num_players: int, options: dict[str, Any] | None = None):
        self.num_players = num_players
        self.options = {spec.name: spec.default for spec in self.option_specs}
        self.options.update(options or {})

    @abstractmethod
    def new_initial_state(self, rng: random.Random) -> "State":
        """Shuffle, deal and return the position before the first move."""

    def metrics(self, state: "State") -> dict[str, Any]:
        """Game-specific figures of one finished game (for the playtest report)."""
        return {}

    def summarize(self, metrics: list[dict[str, Any]]) -> dict[str, Any]:
        """Aggregate the per-game figures of many games into report entries."""
        return {}

    def heuristic(self, state: "State", player: int) -> float:
        """How good ``state`` is for ``player``; the greedy policy maximises it."""
        return 0.0


class State(ABC):
    """One position of a game."""

    @abstractmethod
    def current_player(self) -> int:
        """The player to move, SIMULTANEOUS, or TERMINAL."""

    @abstractmethod
    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Legal moves of ``player`` (default: the current player)."""

    @abstractmethod
    def apply_action(self, action: Action) -> None:
        """Play one move (a tuple of per-player moves when SIMULTANEOUS)."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> list[float]:
        """Per-player result of a finished game: 1 for a winner, 0 otherwise.

        A draw gives every player 0; a shared win gives each winner 1/k.
        """

    @abstractmethod
    def clone(self) -> "State": ...

    def winners(self) -> list[int]:
        """Seats that won; empty for a draw."""
        return [p for p, r in enumerate(self.returns()) if r > 0]


@dataclass
class GameRecord:
    """What the runner keeps of one played game."""

    seed: int
    length: int
    winners: list[int]
    timeout: bool
    branching: list[int] = field(default_factory=list)
    metrics: dict[str, Any] = field(default_factory=dict)
