"""A round robin of playtest policies: which beats which, on both seats, with 95% intervals.

For each pair of policies A and B, one playtest puts A in seat 1 and B in every other seat and a
second puts B in seat 1 and A in the others, so neither profits from a seat. A's *score* against B is
its share of the wins, counted per seat: A's wins per seat it held, over A's plus B's. In a
two-player game that is simply A's share of the games either of them won; in an N-player game a seat
of A and a seat of B weigh the same, so two equal policies score 50% whatever N is.

The verdict rests on the games, not on rounded per-seat counts: the *difference* of A's and B's win
rates per seat held, each seating's taken on its games with Newcombe's square-and-add interval for
paired proportions (the games some B seat won weighted 1/(N-1)), the two seatings combined by
square-and-add as independent samples (MOVER). A beats B when that 95% interval lies above zero (the
score's interval, the same one scaled by the share of games won, then lies above 50%). Ties count for
neither.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from .errors import CardgenError
from .games.base import Game
from .playtest import check_policy, run_playtest
from .stats import combine_independent, paired_difference


def run_ladder(game: Game, policies: Sequence[str], games: int, seed: int, jobs: int = 1,
               play: Callable[..., dict[str, Any]] = run_playtest, scheduler: str | None = None) -> dict[str, Any]:
    """Every pair of ``policies``, ``games`` games on each seating; the ladder's report."""
    policies = [check_policy(p) for p in policies]
    if len(set(policies)) != len(policies) or len(policies) < 2:
        raise CardgenError(f"a ladder needs 2 or more different policies, got {', '.join(policies) or 'none'}")
    others = game.num_players - 1
    pairs = []
    for a, b in itertools.combinations(policies, 2):
        first = play(game, games, seed, policy=a, vs=b, jobs=jobs, scheduler=scheduler)
        second = play(game, games, seed, policy=b, vs=a, jobs=jobs, scheduler=scheduler)
        a_wins = _wins(first, seat_one=True) + _wins(second, seat_one=False)
        b_wins = _wins(first, seat_one=False) + _wins(second, seat_one=True)
        # per seat held: A held 1 seat in the first run and `others` in the second, B the reverse
        a_per_seat = _wins(first, True) + _wins(second, False) / others
        b_per_seat = _wins(first, False) / others + _wins(second, True)
        decided = a_per_seat + b_per_seat
        score = a_per_seat / decided if decided else 0.5
        diff, d_low, d_high = per_seat_difference(first, second, games, others)
        # A's score is 1/2 + the difference over twice the per-seat rate of games won
        won = decided / (2 * games)
        low, high = ((min(1.0, max(0.0, 0.5 + d / (2 * won))) for d in (d_low, d_high)) if won
                     else (0.0, 1.0))
        verdict = f"{a} beats {b}" if d_low > 0 else f"{b} beats {a}" if d_high < 0 else "no clear winner"
        pairs.append({"a": a, "b": b, "games": 2 * games, "a_wins": a_wins, "b_wins": b_wins,
                      "ties": first["draws"] + second["draws"], "timeouts": first["timeouts"] + second["timeouts"],
                      "a_score": score, "score_low": low, "score_high": high,
                      "difference": diff, "difference_ci95": [d_low, d_high], "method": METHOD,
                      "verdict": verdict, "seconds": first["seconds"] + second["seconds"],
                      "cpu_seconds": first.get("cpu_seconds", 0.0) + second.get("cpu_seconds", 0.0)})
    defaults = {spec.name: spec.default for spec in game.option_specs}
    changed = {k: v for k, v in game.options.items() if k in defaults and defaults[k] != v}
    return {"game": game.name, "players": game.num_players, "options": changed, "seed": seed,
            "games_per_seating": games,
            "policies": list(policies), "pairs": pairs, "ranking": _ranking(policies, pairs)}


METHOD = ("difference of win rates per seat held: Newcombe's paired square-and-add interval per seating, "
          "the two seatings combined by square-and-add (MOVER)")


def per_seat_difference(first: dict[str, Any], second: dict[str, Any], games: int,
                        others: int) -> tuple[float, float, float]:
    """A's win rate per seat held minus B's, over the two seatings (``first``: A in seat 1), with its
    95% interval. In each seating a game counts for seat 1 if it won, for the other seats if any of
    them won (a game two of them shared counts once), the other seats' rate weighted 1/``others``."""
    parts = []
    for report in (first, second):
        both, one, rest = _seat_one_against_the_rest(report)
        part = paired_difference(both, one, rest, games - both - one - rest, weights=(1.0, 1.0 / others))
        if report is second:  # seat 1 is B's here: A's minus B's is the other way round
            part = (-part[0], -part[2], -part[1])
        parts.append(part)
    return combine_independent(parts, (0.5, 0.5))


def _seat_one_against_the_rest(report: dict[str, Any]) -> tuple[int, int, int]:
    """Games seat 1 and another seat both won, seat 1 alone, other seats alone (from the report's
    ``winner_sets``; without it, the seat wins, no win shared)."""
    sets = report.get("winner_sets")
    if sets is None:
        seats = report["seat_win_rates"]
        return 0, seats[0]["wins"], sum(s["wins"] for s in seats[1:])
    both = one = rest = 0
    for key, count in sets.items():
        winners = key.split("+")
        if "1" in winners:
            if len(winners) > 1:
                both += count
            else:
                one += count
        else:
            rest += count
    return both, one, rest


def _wins(report: dict[str, Any], seat_one: bool) -> int:
    seats = report["seat_win_rates"]
    return seats[0]["wins"] if seat_one else sum(s["wins"] for s in seats[1:])


def _ranking(policies: Sequence[str], pairs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Policies by clear wins, then by mean score."""
    scores: dict[str, list[float]] = {p: [] for p in policies}
    beats = dict.fromkeys(policies, 0)
    for pair in pairs:
        scores[pair["a"]].append(pair["a_score"])
        scores[pair["b"]].append(1 - pair["a_score"])
        low, high = pair["difference_ci95"]
        winner = pair["a"] if low > 0 else pair["b"] if high < 0 else None
        if winner:
            beats[winner] += 1
    rows = [{"policy": p, "beats": beats[p], "mean_score": sum(scores[p]) / len(scores[p])} for p in policies]
    return sorted(rows, key=lambda r: (-r["beats"], -r["mean_score"]))


def format_ladder(report: dict[str, Any]) -> str:
    """The ladder as text: a line per pair, then the ranking."""
    options = "".join(f", {k}={v}" for k, v in report.get("options", {}).items())
    lines = [(f"Ladder: {report['game']}, {report['players']} players{options}, {report['games_per_seating']} "
              f"games on each seating, seed {report['seed']}")]
    width = max(len(f"{p['a']} vs {p['b']}") for p in report["pairs"])
    for pair in report["pairs"]:
        name = f"{pair['a']} vs {pair['b']}"
        low, high = pair["difference_ci95"]
        lines.append(f"  {name.ljust(width)}  {pair['a']} scores {pair['a_score']:.1%}  95% CI "
                     f"[{pair['score_low']:.1%}, {pair['score_high']:.1%}], {100 * pair['difference']:+.1f} "
                     f"points a seat [{100 * low:+.1f}, {100 * high:+.1f}]  ({pair['a_wins']}-{pair['b_wins']}, "
                     f"{pair['ties']} ties, {pair['games']} games, {pair['seconds']:.1f} s): {pair['verdict']}")
    lines.append("  ranking: " + ", ".join(f"{r['policy']} ({r['beats']} clear wins, mean score "
                                           f"{r['mean_score']:.1%})" for r in report["ranking"]))
    return "\n".join(lines)
