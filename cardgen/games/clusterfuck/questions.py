"""Clusterfuck's questions for `cardgen analyze`, in the seed's own words."""
from __future__ import annotations

import itertools
import statistics
from typing import Any

from ..questions import Chart, Experiment, Question, Questions, Results, Settings, experiment, pct


def _cf_counts(settings: Settings) -> tuple[int, ...]:
    return (5, 8) if settings.quick else (5, 6, 7, 8)


def _cf_runs(settings: Settings) -> list[Experiment]:
    return [experiment("clusterfuck", players=players) for players in _cf_counts(settings)]


def cf_rounds(settings: Settings, results: Results) -> dict[str, Any]:
    table = {}
    intervals = {}
    for players in _cf_counts(settings):
        figures = results[experiment("clusterfuck", players=players)]["game_figures"]
        table[str(players)] = figures.get("rounds until a True Magnate (mean)")
        intervals[str(players)] = figures.get("rounds until a True Magnate (95% CI)")
    shown = [(p, r, intervals[p]) for p, r in table.items() if r is not None]
    apart = [a[2][1] < b[2][0] or b[2][1] < a[2][0] for a, b in itertools.pairwise(shown) if a[2] and b[2]]
    return {"answer": "A True Magnate comes after " + ", ".join(
                f"{rounds:.1f} rounds (95% CI {ci[0]:.1f} to {ci[1]:.1f}) with {players} players"
                for players, rounds, ci in shown) + " on average.",
            "evidence": {"mean_rounds_by_players": table, "ci95_by_players": intervals,
                         "games_per_count": settings.games, "policy": settings.policy},
            "confidence": ("each player count's interval is apart from the next" if apart and all(apart) else
                           "neighbouring player counts' intervals overlap: the counts differ by less than "
                           "these games can tell")}


def cf_status_power(settings: Settings, results: Results) -> dict[str, Any]:
    """How often the Magnate keeps his place, against the 1 in N a powerless seat would have."""
    table = {}
    parts = []
    above = []
    for players in _cf_counts(settings):
        figures = results[experiment("clusterfuck", players=players)]["game_figures"]
        keeps = figures.get("Magnate keeps place") or 0.0
        low, high = figures.get("Magnate keeps place (95% CI)") or (0.0, 1.0)
        table[str(players)] = {"magnate_keeps_place": keeps, "ci95": [low, high], "by_chance": 1 / players,
                               "rounds": figures.get("rounds a status could be kept")}
        parts.append(f"{pct(keeps)} with {players} players (95% CI {pct(low)} to {pct(high)}; "
                     f"chance: {pct(1 / players)})")
        above.append(low > 1 / players)
    lifted = statistics.fmean(v["magnate_keeps_place"] / v["by_chance"] for v in table.values())
    return {"answer": "The Magnate keeps his place " + ", ".join(parts) +
                      f": {lifted:.1f} times what chance gives.",
            "evidence": {"by_players": table, "policy": settings.policy, "games_per_count": settings.games},
            "confidence": ("above chance at every player count" if all(above) else
                           f"above chance at {sum(above)} of {len(above)} player counts")
                          + " (rounds of one game are counted as if independent, so the intervals are "
                            "somewhat narrow)"}


def _rounds_chart(answer: dict[str, Any]) -> Chart:
    evidence = answer["evidence"]
    table = evidence["mean_rounds_by_players"]
    labels = [f"{p} players" for p in table]
    return "Rounds until a True Magnate, by player count", labels, list(table.values()), False


def _status_chart(answer: dict[str, Any]) -> Chart:
    evidence = answer["evidence"]
    table = evidence["by_players"]
    return ("How often the Magnate keeps his place, by player count, %", [f"{p} players" for p in table],
            [100 * v["magnate_keeps_place"] for v in table.values()], True)


QUESTIONS = Questions(
    questions=(
        Question("cf-rounds", "How many rounds until a True Magnate, per player count?", _cf_runs, cf_rounds,
                 _rounds_chart),
        Question("cf-status-power", "How much does a status card's power keep the Magnate on top?", _cf_runs,
                 cf_status_power, _status_chart),
    ),
    # mcts:100 is level with greedy in `cardgen ladder`; mcts:300 beats it
    full_run=("mcts:300", 40),
)
