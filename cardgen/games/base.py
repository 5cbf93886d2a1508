"""The shape every game engine shares, after OpenSpiel.

A Game holds the fixed parameters (players, options) and makes an initial
State from a seeded random generator. A State answers who moves, which moves
are legal, applies one, and says when the game is over and how it went.
Simultaneous turns are one joint action: a tuple with one entry per player.
The playtest runner drives every game through these verbs only.
"""
from __future__ import annotations

import functools
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .. import numbers
from ..errors import CardgenError
from ..yamlio import did_you_mean


def shuffle(rng: Any, items: list[Any]) -> None:
    """What ``random.Random.shuffle(items)`` does with a generator in ``rng``'s state (a
    ``random.Random`` or a bare ``_random.Random``): its very draws (Fisher-Yates from the top, each
    index drawn below its bound from ``getrandbits`` of the bound's length, again while too high),
    without its method calls per item: an engine's determinization shuffles in every simulation."""
    n = len(items)
    steps = _SHUFFLE_STEPS.get(n)
    if steps is None:
        steps = _SHUFFLE_STEPS[n] = tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1))
    getrandbits = rng.getrandbits
    for i, bits in steps:
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


#: per list length, ``shuffle``'s (index, bits of its bound) from the top
_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}


def sample(rng: random.Random, population: list[Any], k: int) -> list[Any]:
    """``rng.sample(population, k)``, its very draws, without its checks where the population is
    small (21 or fewer, where it draws from a copy of the list; larger ones it is asked)."""
    n = len(population)
    if n > 21 or not 0 <= k <= n:
        return rng.sample(population, k)
    getrandbits = rng.getrandbits
    pool = list(population)
    result = []
    for i in range(k):
        bound = n - i
        bits = bound.bit_length()
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        result.append(pool[j])
        pool[j] = pool[bound - 1]
    return result


def deal_out(pool: list[int], fixed: list[tuple[int, list[int], int]], hands: list[list[int]]) -> None:
    """A determinization's deal of shuffled cards: per (seat, the counts per kind it is known to
    hold, how many more it gets) of ``fixed``, in order, ``hands[seat]`` becomes those counts and
    the next cards of ``pool`` (a kind per card) added on."""
    start = 0
    for seat, known, free in fixed:
        hand = known[:]
        for kind in pool[start:start + free]:
            hand[kind] += 1
        start += free
        hands[seat] = hand


class IllegalAction(ValueError):
    """An action the state does not allow now: the one error every engine raises for it."""


#: ``current_player()`` of a state where every player moves at once.
SIMULTANEOUS = -2
#: ``current_player()`` of a finished game.
TERMINAL = -4

#: each engine has its own action type (an int, a tuple, a named tuple; a
#: tuple of per-player moves when SIMULTANEOUS); the runner only passes them on
Action = Any
StateT = TypeVar("StateT", bound="State")


@dataclass(frozen=True)
class OptionSpec:
    """One rule option a game accepts, with its default and a one-line help.

    The value's type is the default's (bool, int or float; a None default
    means an optional whole number). ``minimum``/``maximum`` bound numbers,
    ``choices`` lists the only values allowed, and ``words`` maps words a
    user may type (``all``) to values.
    """

    name: str
    default: Any
    help: str
    choices: Sequence[Any] | None = None
    minimum: float | None = None
    maximum: float | None = None
    words: tuple[tuple[str, Any], ...] = ()

    def parse(self, value: Any) -> Any:
        """The checked value of this option from Python or command-line text."""
        if isinstance(value, str):
            word = dict(self.words).get(value.strip().lower(), _NO_WORD)
            if word is not _NO_WORD:
                return word
        if value is None and self.default is None:
            return None
        if isinstance(self.default, str):
            return str(value)
        if isinstance(self.default, bool):
            parsed = _parse_bool(value)
            if parsed is None:
                raise self._error("true or false", value)
            return parsed
        number = _parse_number(value, whole=not isinstance(self.default, float))
        if number is None or (self.minimum is not None and number < self.minimum) \
                or (self.maximum is not None and number > self.maximum):
            raise self._error(self._allowed(), value)
        if self.choices is not None and number not in self.choices:
            raise self._error(self._allowed(), value)
        return number

    def _allowed(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(str(c) for c in self.choices)
        noun = "a number" if isinstance(self.default, float) else "a whole number"
        if self.minimum is not None and self.maximum is not None:
            return f"{noun} from {self.minimum:g} to {self.maximum:g}"
        if self.minimum is not None:
            return f"{noun} of at least {self.minimum:g}"
        return noun

    def _error(self, allowed: str, value: Any) -> CardgenError:
        return CardgenError(f"option '{self.name}' must be {allowed}, got {value!r}")


def parse_options(game: str, specs: Sequence[OptionSpec], options: dict[str, Any] | None) -> dict[str, Any]:
    """Every option of ``specs`` at its default, then ``options`` checked on top.

    One parser for every game, so ``--option`` behaves the same everywhere.
    """
    by_name = {spec.name: spec for spec in specs}
    parsed = {spec.name: spec.default for spec in specs}
    for name, value in (options or {}).items():
        spec = by_name.get(name)
        if spec is None:
            hint = did_you_mean(name, list(by_name))
            raise CardgenError(f"unknown option '{name}' for {game}{hint}; options: {', '.join(sorted(by_name))}")
        parsed[name] = spec.parse(value)
    return parsed


_NO_WORD = object()
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _parse_bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
        return value.strip().lower() in _TRUE
    return None


def _parse_number(value: Any, whole: bool) -> float | int | None:
    """A finite number from ``value``; for whole numbers, only integers or digits."""
    return numbers.whole(value) if whole else numbers.decimal(value)


#: a seat's way to move: ``(state, player, rng) -> action``
Policy = Callable[[StateT, int, random.Random], Action]
#: a whole random game at once: ``(state, rng, max_moves, branching) -> moves made``
Playout = Callable[[StateT, random.Random, int, list[int]], int]


class Game(ABC, Generic[StateT]):
    """Fixed parameters of a game: players and rule options, and the game's own policies.

    Everything the flows (playtest, search, ladder, analyze) use of a game is declared here, once.
    The optional parts are ``None`` where a game leaves them out, and the flows then use their
    generic code; nothing is looked up by name. docs/writing-a-game.md has the whole table.
    """

    #: game id as used in deck files (``game: common-carrier``)
    name: str = ""
    #: rule options this game accepts, by name
    option_specs: tuple[OptionSpec, ...] = ()

    #: a uniformly random legal move, faster than listing them all; None: the runner lists them
    random_action: Policy[StateT] | None = None
    #: the game's own greedy policy; None: the runner's, which tries every move and keeps the one
    #: ``heuristic`` likes best (assuming random opponents at a simultaneous turn)
    greedy_action: Policy[StateT] | None = None
    #: the search's rollout policy, which need not be uniform; None: ``random_action``, else uniform
    rollout_action: Policy[StateT] | None = None
    #: a whole game of uniformly random legal moves played by the engine itself: it notes each
    #: decision's number of legal plays in ``branching`` as the runner would and returns the moves
    #: made (at most ``max_moves``); it must make the same moves as the runner would with
    #: ``random_action`` from the same generator (the conformance test holds it to that)
    random_playout: Playout[StateT] | None = None
    #: each player's prospects in 0..1 for an unfinished position; with it the search plays
    #: ``rollout_depth`` moves of a rollout and then asks it, instead of playing the game out
    evaluate: Callable[[StateT], list[float]] | None = None
    #: the chance in 0..1 that an unfinished position ends with no winner, by the game's judgement
    #: (``evaluate`` counts such an end 1/players to each): a search told to value a tie otherwise
    #: (``mcts:N:tie=V``) moves its own judgement by it; None: it counts a tie only where it sees the
    #: game finish
    tie_chance: Callable[[StateT], float] | None = None
    #: the search's exploration constant; None: the search's default
    exploration: float | None = None
    #: the search ranks a node's moves by ``heuristic`` and widens to the next as visits grow
    search_guided: bool = False
    #: ``heuristic(state after the action, player)`` for each of ``player``'s legal actions, in
    #: ``legal_actions`` order, worked out faster than laying each on a copy; None: the search lays
    #: each (``(state, player) -> list of floats``)
    heuristics_ahead: Callable[[StateT, int], list[float]] | None = None
    #: rollout moves before ``evaluate`` judges; None: the search's default
    rollout_depth: int | None = None
    #: every move is seen by every player (no action carries a card another may not see), so a
    #: player's search may keep its tree from one of its moves to the next
    search_keeps_tree: bool = False

    def __init__(self, num_players: int, options: dict[str, Any] | None = None):
        self.num_players = num_players
        self.options = {spec.name: spec.default for spec in self.option_specs}
        self.options.update(options or {})

    @abstractmethod
    def new_initial_state(self, rng: random.Random) -> StateT:
        """Shuffle, deal and return the position before the first move."""

    def metrics(self, state: StateT) -> dict[str, Any]:
        """Game-specific figures of one finished game (for the playtest report)."""
        return {}

    def summarize(self, metrics: list[dict[str, Any]]) -> dict[str, Any]:
        """Aggregate the per-game figures of many games into report entries."""
        return {}

    def heuristic(self, state: StateT, player: int) -> float:
        """How good ``state`` is for ``player``; the greedy policy maximises it."""
        return 0.0


class State(ABC):
    """One position of a game."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every engine's ``apply_action`` refuses what is not an action of the game with IllegalAction,
        whatever shape it has (an engine checks its own actions; a malformed one fails in its own way)."""
        super().__init_subclass__(**kwargs)
        apply = cls.__dict__.get("apply_action")
        if apply is None or getattr(apply, "_guarded", False):
            return

        @functools.wraps(apply)
        def guarded(self: State, action: Action) -> None:
            try:
                apply(self, action)
            except IllegalAction:
                raise
            except (TypeError, ValueError, IndexError, KeyError, AttributeError) as exc:
                raise IllegalAction(f"not an action of this game now: {action!r} ({exc})") from None

        guarded._guarded = True  # type: ignore[attr-defined]
        cls.apply_action = guarded  # type: ignore[method-assign]

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
    def clone(self) -> State: ...

    def action_to_string(self, action: Action) -> str:
        """The action in words, for logs, reports and error messages."""
        return str(action)

    #: ``determinize(player, rng) -> State``: a copy of this position as ``player`` might believe it
    #: is, whatever is hidden from them (the others' hands, the order of every deck) dealt again at
    #: random, consistent with all they have seen. The mcts policy needs it; an engine without hidden
    #: information returns a clone. None: the game cannot be searched.
    determinize: Callable[[int, random.Random], State] | None = None

    def is_legal(self, player: int, action: Action) -> bool:
        """Whether ``action`` is one of ``player``'s legal moves now; an engine may check faster
        than it lists (the search asks it of the moves it has tried, in each deal)."""
        return action in self.legal_actions(player)

    def legal_among(self, player: int, actions: Iterable[Action]) -> list[Action]:
        """Those of ``actions``, in their order, that ``is_legal`` allows ``player`` now; an engine may
        check many at once faster (the search asks it of the replies it has tried, in each deal)."""
        return [action for action in actions if self.is_legal(player, action)]

    def num_legal_actions(self, player: int) -> int:
        """How many legal moves ``player`` has; an engine may count faster than it lists."""
        return len(self.legal_actions(player))

    def cards_played(self) -> list[list[str]] | None:
        """Per player, the names of the cards they put into play this game (a card once per play),
        for the playtest's per-card figures; None if the engine keeps no such record."""
        return None

    def cards_held(self) -> list[list[str]] | None:
        """Per player, the names of the cards in their hand now (at the end: held, never played);
        None if the engine keeps no such record."""
        return None

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
    #: per player, the cards they played and the cards in hand at the end (None: not recorded)
    played: list[list[str]] | None = None
    held: list[list[str]] | None = None
    #: CPU seconds the game took in the process that played it (a figure of the machine, not the seed)
    cpu: float = 0.0
