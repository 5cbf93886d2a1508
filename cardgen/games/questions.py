"""What a game declares for `cardgen analyze`: its designers' questions and the experiments behind them.

A game's ``questions.py`` quotes the seed's own words, plans the playtests each answer needs
(``Experiment``: rule options and players, every seat on the run's one policy unless an experiment
says how the seats after the first play it) and answers from
their reports with numbers, evidence and a confidence. `cardgen analyze` (``cardgen/analyze.py``)
plays the experiments and names no game: everything it knows of one is declared here.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..stats import direction_or_bound, wilson_interval

#: the policy and games of an experiment with --quick: under a minute for a game's questions
QUICK_RUN = ("greedy", 20)


@dataclass(frozen=True)
class Settings:
    """How hard to look: the policy every seat plays, games per experiment, seed, processes.

    ``policy`` and ``games`` left None take the game's full-run sizes (``Questions.full_run``), or
    QUICK_RUN's with ``quick``."""

    policy: str | None = None
    games: int | None = None
    seed: int = 1
    jobs: int = 1
    quick: bool = False
    #: a Dask scheduler's address, to play there instead of in local processes
    scheduler: str | None = None
    #: play on, doubling the games of an answer's experiments, until its intervals separate the
    #: alternatives or are all this narrow (half-width as a share: 0.03 is 3 points), or until
    #: ``max_games``; None: play ``games`` once
    precision: float | None = None
    #: the most games an experiment may reach by doubling (the budget; default: 8 x ``games``)
    max_games: int | None = None

    def sized(self, full_run: tuple[str, int]) -> Settings:
        """These settings with a game's sizes filled in."""
        policy, games = QUICK_RUN if self.quick else full_run
        return replace(self, policy=self.policy or policy, games=self.games or games)


@dataclass(frozen=True)
class Experiment:
    """One playtest of a bundled game: its options and players, every seat on the run's policy;
    with ``vs``, the seats after the first on the run's policy with that option (``tie=1``: they
    play for the tie, ``tie_seeking``)."""

    game: str
    options: tuple[tuple[str, Any], ...] = ()
    players: int | None = None
    vs: str | None = None

    def describe(self) -> str:
        parts = [f"{k}={v}" for k, v in self.options] + ([f"{self.players} players"] if self.players else []) \
            + ([f"the seats after the first with {self.vs}"] if self.vs else [])
        return f"{self.game} ({', '.join(parts) or 'default rules'})"

    def seats(self, policy: str) -> tuple[str, str]:
        """The first seat's policy and the others', in a run of ``policy``."""
        return policy, policy if self.vs is None else with_option(policy, self.vs)


def experiment(game: str, options: dict[str, Any] | None = None, players: int | None = None,
               vs: str | None = None) -> Experiment:
    return Experiment(game, tuple(sorted((options or {}).items())), players, vs)


#: the option that makes a searching seat value a tie as a win (cardgen.search.parse_search)
TIE_SEEKING = "tie=1"


def searches(policy: str | None) -> bool:
    """Whether ``policy`` is the search, the one policy that takes options such as ``tie=1``."""
    return policy is not None and policy.partition(":")[0] == "mcts"


def with_option(policy: str, option: str) -> str:
    """``policy`` (an mcts one) with ``option`` (``KEY=VALUE``) in place of any it had of that key."""
    key = option.partition("=")[0]
    kept = [part for part in policy.split(":") if part.partition("=")[0] != key or "=" not in part]
    return ":".join([*kept, option])


#: each experiment's playtest report, by experiment
Results = dict[Experiment, dict[str, Any]]
#: the one chart that shows an answer's evidence: title, bar labels, values, whether they are %
Chart = tuple[str, list[str], list[float], bool]


@dataclass(frozen=True)
class Question:
    id: str
    #: the seed's own words
    question: str
    #: the playtests the answer needs, planned before any is played (questions may share them)
    experiments: Callable[[Settings], list[Experiment]]
    #: the answer, evidence and confidence from the played experiments
    answer: Callable[[Settings, Results], dict[str, Any]]
    #: the chart of an answer (the dict ``answer`` returned, with ``id`` and ``question``)
    chart: Callable[[dict[str, Any]], Chart | None] = lambda answer: None


@dataclass(frozen=True)
class Questions:
    """A game's questions and how a full run of them is sized."""

    questions: tuple[Question, ...]
    #: the policy every seat plays in a full run and the games of each experiment
    full_run: tuple[str, int]
    #: the moves after which one of the game's experiments counts a game as stalled (None: the
    #: playtest's own cap)
    max_moves: int | None = None


def half_width(*intervals: Any) -> float | None:
    """The widest half of the given (low, high) intervals, as a share: how far an answer is from
    being bounded within a precision (None for none)."""
    widths = [(high - low) / 2 for low, high in intervals if low is not None and high is not None]
    return max(widths) if widths else None


def share(count: int, n: int) -> dict[str, Any]:
    """A rate with its 95% Wilson interval and the games it is of."""
    low, high = wilson_interval(count, n)
    return {"rate": count / n if n else 0.0, "wilson_low": low, "wilson_high": high, "games": n}


def pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def separate(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two shares' intervals do not overlap."""
    return a["wilson_high"] < b["wilson_low"] or b["wilson_high"] < a["wilson_low"]


def difference_words(diff: float, low: float, high: float, more: str, less: str, either: str) -> str:
    """A difference in points as an answer may state it: its direction only when the 95% interval
    excludes zero, else the bound the interval sets ("no more than 4 points either way")."""
    ci = f"95% CI {100 * low:+.0f} to {100 * high:+.0f} points"
    kind, _ = direction_or_bound(low, high)
    if kind == "bound":
        bound = max(-low, high)
        return f"{either}: the difference is no more than {100 * bound:.0f} points either way ({ci})"
    return f"{more if kind == 'more' else less} by {abs(100 * diff):.0f} points ({ci})"
