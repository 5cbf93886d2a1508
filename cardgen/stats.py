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


def rate_difference(a: int, b: int, n: int, z: float = Z95, both: int = 0) -> tuple[float, float, float]:
    """How many more of ``n`` games seat A won than seat B (a share), with a 95% interval.

    Both rates come from the same games, so this is a difference of paired proportions: Newcombe's
    square-and-add interval for paired data (Newcombe 1998, "Improved confidence intervals for the
    difference between binomial proportions based on paired data", method 10), taken on all ``n``
    games (``both``: games the two shared), not only on the decided ones, so a handful of decided
    games among many ties gives an interval that still spans what the ties could hide.
    """
    return paired_difference(both, a - both, b - both, n - a - b + both, z)


def paired_difference(both: int, first_only: int, second_only: int, neither: int, z: float = Z95,
                      weights: tuple[float, float] = (1.0, 1.0)) -> tuple[float, float, float]:
    """``w1 * p1 - w2 * p2`` for two rates of the same trials, with Newcombe's square-and-add interval
    for paired data (1998, method 10: each rate's Wilson interval, combined with the correlation
    ``phi`` between the two); with weights other than 1 the same square-and-add (Zou and Donner's
    MOVER, 2008) for a weighted difference. The table is: trials counted by both rates, by the first
    only, by the second only, and by neither."""
    n = both + first_only + second_only + neither
    if n <= 0:
        return 0.0, -max(weights), max(weights)
    x1, x2 = both + first_only, both + second_only
    p1, p2 = x1 / n, x2 / n
    l1, u1 = wilson_interval(x1, n, z)
    l2, u2 = wilson_interval(x2, n, z)
    w1, w2 = weights
    margins = x1 * (n - x1) * x2 * (n - x2)
    phi = 0.0
    if margins > 0:
        cross = both * neither - first_only * second_only
        if cross > n / 2:
            phi = (cross - n / 2) / math.sqrt(margins)
        elif cross < 0:
            phi = cross / math.sqrt(margins)
    estimate = w1 * p1 - w2 * p2
    down1, up2 = w1 * (p1 - l1), w2 * (u2 - p2)
    up1, down2 = w1 * (u1 - p1), w2 * (p2 - l2)
    low = estimate - math.sqrt(max(0.0, down1 ** 2 + up2 ** 2 - 2 * phi * down1 * up2))
    high = estimate + math.sqrt(max(0.0, down2 ** 2 + up1 ** 2 - 2 * phi * down2 * up1))
    return estimate, low, high


def independent_difference(x1: int, n1: int, x2: int, n2: int, z: float = Z95) -> tuple[float, float, float]:
    """``x1/n1 - x2/n2`` for two independent samples with Newcombe's hybrid score interval
    (Newcombe 1998, "Interval estimation for the difference between independent proportions",
    method 10): each rate's Wilson interval, squared and added."""
    parts = [(x1 / n1, *wilson_interval(x1, n1, z)), (x2 / n2, *wilson_interval(x2, n2, z))]
    return combine_independent(parts, (1.0, -1.0))


def combine_independent(parts: Sequence[tuple[float, float, float]],
                        weights: Sequence[float]) -> tuple[float, float, float]:
    """``sum(w * estimate)`` of independent estimates, each given as (estimate, low, high), with the
    square-and-add interval of Zou and Donner's MOVER (2008): the distance from each estimate to the
    limit on the side that moves the sum the same way, weighted, squared and added. Seat-swapped
    runs are independent samples: their differences combine here, weighted by their games."""
    estimate = sum(w * e for w, (e, _, _) in zip(weights, parts))
    down = up = 0.0
    for w, (e, low, high) in zip(weights, parts):
        below, above = (e - low, high - e) if w >= 0 else (high - e, e - low)
        down += (w * below) ** 2
        up += (w * above) ** 2
    return estimate, estimate - math.sqrt(down), estimate + math.sqrt(up)


def direction_or_bound(low: float, high: float) -> tuple[str, float]:
    """What an interval of a difference lets an answer say: ``("more", low)`` or ``("less", -high)``
    when it excludes zero (the difference is at least that), else ``("bound", b)``: the difference
    is no more than ``b`` either way."""
    if low > 0:
        return "more", low
    if high < 0:
        return "less", -high
    return "bound", max(-low, high)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float] | None:
    """The mean of ``values`` with its normal-approximation interval (mean +- z * sd / sqrt(n));
    None for no values, a zero-width interval for one."""
    if not values:
        return None
    mean = sum(values) / len(values)
    spread = statistics.stdev(values) if len(values) > 1 else 0.0
    half = z * spread / math.sqrt(len(values))
    return mean, mean - half, mean + half
