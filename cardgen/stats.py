"""Intervals for the figures cardgen reports: one module, at the bottom, for every flow and game.

playtest, ladder, analyze and the games' own summaries take their rates, differences and means
from here, so one method is named, tested and used wherever the same question is asked.
"""
from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

#: z for a two-sided 95% interval
Z95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a rate: honest near 0 and 1, unlike rate +- z*sd."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def wilson_cc_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval with continuity correction: conservative for small counts."""
    n, p = trials, successes / trials
    denominator = 2 * (n + z * z)
    low = 0.0 if successes == 0 else \
        (2 * n * p + z * z - 1 - z * math.sqrt(z * z - 2 - 1 / n + 4 * p * (n * (1 - p) + 1))) / denominator
    high = 1.0 if successes == n else \
        (2 * n * p + z * z + 1 + z * math.sqrt(z * z + 2 - 1 / n + 4 * p * (n * (1 - p) - 1))) / denominator
    return max(0.0, low), min(1.0, high)


def rate_difference(a: int, b: int, n: int, z: float = Z95) -> tuple[float, float, float]:
    """How many more of ``n`` games seat A won than seat B (a share), with a 95% interval.

    Both counts come from the same games, so the interval is taken on the games one of the two
    won: A's share of them gets a continuity-corrected Wilson interval (Newcombe 1998, method 4;
    at 4 wins to 0 it still spans an even split, as an exact sign test would), scaled back to all
    ``n`` games.
    """
    decided = a + b
    if decided == 0:
        # nobody won: the difference is 0 here, and could be as large as the share of games
        # that might have been won
        most = wilson_cc_interval(0, n, z)[1]
        return 0.0, -most, most
    q_low, q_high = wilson_cc_interval(a, decided, z)
    scale = decided / n
    return (a - b) / n, scale * (2 * q_low - 1), scale * (2 * q_high - 1)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float] | None:
    """The mean of ``values`` with its normal-approximation interval (mean +- z * sd / sqrt(n));
    None for no values, a zero-width interval for one."""
    if not values:
        return None
    mean = sum(values) / len(values)
    spread = statistics.stdev(values) if len(values) > 1 else 0.0
    half = z * spread / math.sqrt(len(values))
    return mean, mean - half, mean + half
