"""Clusterfuck's questions for `cardgen analyze`, in the seed's own words."""
from __future__ import annotations

import itertools
from typing import Any

from ...stats import clustered_difference, clustered_rate
from ..questions import (
    Chart,
    Experiment,
    Question,
    Questions,
    Results,
    Settings,
    difference_words,
    experiment,
    half_width,
    pct,
)

#: the player counts analyze plays: the fewest the seed advises ("fewer than 5 is not advised") and
#: its "hypothetical 8 player game"; counts between are left out because one game of mcts:300 play
#: costs 50 (5 players) to 85 (8 players) CPU-seconds, and the factorial needs 4 runs a count
PLAYER_COUNTS = (5, 8)


def _cf_counts(settings: Settings) -> tuple[int, ...]:
    return PLAYER_COUNTS


#: the cards the first and last out swap between rounds, as analyze plays them: none, and the
#: traditional Asshole's two (docs/rules-readings.md, "Card exchange between rounds")
EXCHANGES = (0, 2)
#: how every Clusterfuck answer reads the seed's "played like traditional Asshole"
READING = ("Clusterfuck is \"played like traditional Asshole\": cardgen reads that as including the "
           "traditional card exchange between rounds (the last out gives the first out their 2 best cards "
           "for 2 of their choice, the next pair inwards 1), which the seed does not describe, so each "
           "figure is given without the exchange (exchange 0) and with it (exchange 2).")


def _cell(players: int, exchange: int, powers: bool = True) -> Experiment:
    return experiment("clusterfuck", {"exchange": exchange, "status_powers": powers}, players=players)


def _rounds_runs(settings: Settings) -> list[Experiment]:
    return [_cell(players, exchange) for players in _cf_counts(settings) for exchange in EXCHANGES]


def _factorial_runs(settings: Settings) -> list[Experiment]:
    return [_cell(players, exchange, powers) for players in _cf_counts(settings)
            for exchange in EXCHANGES for powers in (True, False)]


def cf_rounds(settings: Settings, results: Results) -> dict[str, Any]:
    table: dict[str, dict[str, Any]] = {}
    intervals: dict[str, dict[str, Any]] = {}
    parts = []
    apart = []
    for exchange in EXCHANGES:
        key = f"exchange {exchange}"
        table[key], intervals[key] = {}, {}
        shown = []
        for players in _cf_counts(settings):
            figures = results[_cell(players, exchange)]["game_figures"]
            mean = figures.get("rounds until a True Magnate (mean)")
            ci = figures.get("rounds until a True Magnate (95% CI)")
            table[key][str(players)], intervals[key][str(players)] = mean, ci
            if mean is not None:
                shown.append((players, mean, ci))
        apart += [a[2][1] < b[2][0] or b[2][1] < a[2][0] for a, b in itertools.pairwise(shown) if a[2] and b[2]]
        parts.append(f"{'without' if exchange == 0 else 'with'} the exchange (exchange {exchange}) after " +
                     ", ".join(f"{rounds:.1f} rounds (95% CI {ci[0]:.1f} to {ci[1]:.1f}) with {players} players"
                               for players, rounds, ci in shown))
    return {"answer": "A True Magnate comes, on average, " + "; ".join(parts) + ". " + READING,
            # means in rounds: done when neighbouring counts are apart (a precision in points does not apply)
            "settled": bool(apart) and all(apart), "widest": None,
            "evidence": {"mean_rounds_by_exchange_and_players": table, "ci95": intervals,
                         "games_per_count": settings.games, "policy": settings.policy, "reading": READING},
            "confidence": ("each player count's interval is apart from the next" if apart and all(apart) else
                           "some neighbouring player counts' intervals overlap: the counts differ by less than "
                           "these games can tell")}


def cf_status_power(settings: Settings, results: Results) -> dict[str, Any]:
    """A factorial: status powers on or off, crossed with exchange 0 and 2, at each player count; how
    often the Magnate keeps his place in each cell, and each factor's effect with the other held."""
    by_players: dict[str, Any] = {}
    sentences = []
    settled = []
    for players in _cf_counts(settings):
        cells: dict[tuple[int, bool], list[tuple[int, int]]] = {}
        shown: dict[str, dict[str, Any]] = {}
        for exchange in EXCHANGES:
            for powers in (True, False):
                figures = results[_cell(players, exchange, powers)]["game_figures"]
                games = [(kept, rounds) for kept, rounds in
                         figures.get("Magnate keeps place (rounds kept and rounds, per game)") or []]
                cells[exchange, powers] = games
                rate, low, high, deff = clustered_rate(games)
                rounds = sum(n for _, n in games)
                shown[f"exchange {exchange}, powers {'on' if powers else 'off'}"] = {
                    "magnate_keeps_place": rate if rounds else None, "ci95": [low, high], "rounds": rounds,
                    "games": len(games), "design_effect": deff}
        effects = {}
        words = []
        for name, pairs in (("status powers (on - off)", [((e, True), (e, False), f"exchange {e}")
                                                          for e in EXCHANGES]),
                            ("exchange (2 - 0)", [((2, p), (0, p), f"powers {'on' if p else 'off'}")
                                                  for p in (True, False)])):
            for one, other, held in pairs:
                if not (sum(n for _, n in cells[one]) and sum(n for _, n in cells[other])):
                    continue
                diff, low, high = clustered_difference(cells[one], cells[other])
                effects[f"{name}, {held}"] = {"difference": diff, "ci95": [low, high]}
                settled.append(low > 0 or high < 0)
                words.append(f"{name.split(' (')[0]} with {held}: " + difference_words(
                    diff, low, high, "more often", "less often", "no clear effect"))
        by_players[str(players)] = {"cells": shown, "effects": effects, "by_chance": 1 / players}
        sentences.append(f"With {players} players the Magnate keeps his place " + ", ".join(
            f"{pct(v['magnate_keeps_place'] or 0.0)} ({k})" for k, v in shown.items())
            + " (chance: " + pct(1 / players) + "); " + "; ".join(words))
    every = [e["ci95"] for row in by_players.values() for e in row["effects"].values()]
    return {"answer": ". ".join(sentences) + ". " + READING,
            "settled": bool(settled) and all(settled), "widest": half_width(*every),
            "evidence": {"by_players": by_players, "policy": settings.policy, "games_per_cell": settings.games,
                         "method": CLUSTER_METHOD, "reading": READING},
            "confidence": (f"{sum(settled)} of {len(settled)} effects have an interval that excludes zero; "
                           f"the rounds of one game are counted as a cluster, not as independent trials")}


#: how cf-status-power's rates and effects are measured (cardgen.stats.clustered_rate)
CLUSTER_METHOD = ("the Magnate keeps his place or not in each round from the second; the rounds of one game "
                  "are a cluster: each cell's rate has the Wilson interval of its effective size (Rao and "
                  "Scott 1992: rounds divided by the design effect of its games, at least 1), each effect "
                  "the difference of two cells' rates by Newcombe's (1998) method 10 on those intervals")


def _rounds_chart(answer: dict[str, Any]) -> Chart:
    table = answer["evidence"]["mean_rounds_by_exchange_and_players"]
    labels = [f"{p} pl., {k}" for k, row in table.items() for p in row]
    return ("Rounds until a True Magnate, by player count and exchange", labels,
            [v or 0.0 for row in table.values() for v in row.values()], False)


def _status_chart(answer: dict[str, Any]) -> Chart:
    table = answer["evidence"]["by_players"]
    labels = [f"{p}: {k}" for p, row in table.items() for k in row["cells"]]
    return ("How often the Magnate keeps his place, by players, exchange and status powers, %", labels,
            [100 * (v["magnate_keeps_place"] or 0.0) for row in table.values() for v in row["cells"].values()],
            True)


QUESTIONS = Questions(
    questions=(
        Question("cf-rounds", "How many rounds until a True Magnate, per player count?", _rounds_runs, cf_rounds,
                 _rounds_chart),
        Question("cf-status-power", "How much does a status card's power keep the Magnate on top?",
                 _factorial_runs, cf_status_power, _status_chart),
    ),
    # mcts:100 is level with greedy in `cardgen ladder`; mcts:300 beats it. A game of mcts:300 play
    # is 50 CPU-seconds with 5 players and 85 with 8 (1,300 to 2,000 searched moves), so 6 games a
    # run keep the 8 runs within an hour of CPU; --games plays more
    full_run=("mcts:300", 6),
)
