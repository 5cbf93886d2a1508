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


def wilson_interval(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
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


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float] | None:
    """The mean of ``values`` with its Student t interval (mean +- t(n-1) * sd / sqrt(n)), honest
    for the handful of games an expensive experiment plays, where the normal approximation's 1.96
    is too narrow (t is 2.26 for 10 values); None for no values, a zero-width interval for one."""
    if not values:
        return None
    mean = sum(values) / len(values)
    if len(values) == 1:
        return mean, mean, mean
    half = t_quantile(confidence, len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def t_quantile(confidence: float, df: int) -> float:
    """The t such that a Student t variable with ``df`` degrees of freedom lies within +-t with
    probability ``confidence``: the exact distribution of an integer ``df`` (Abramowitz and Stegun
    26.7.3-4), solved by bisection; beyond MAX_EXACT_DF the Cornish-Fisher series about z (26.7.5)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    if df > MAX_EXACT_DF:
        z = statistics.NormalDist().inv_cdf((1 + confidence) / 2)
        g1 = (z ** 3 + z) / 4
        g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
        g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
        return z + g1 / df + g2 / df ** 2 + g3 / df ** 3
    low, high = 0.0, 1.0
    while _t_within(high, df) < confidence:
        high *= 2
    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if _t_within(middle, df) < confidence:
            low = middle
        else:
            high = middle
    return (low + high) / 2


#: beyond this many degrees of freedom t_quantile uses the series (error far below 1e-6)
MAX_EXACT_DF = 1000


def _t_within(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with integer ``df`` (Abramowitz and Stegun 26.7.3 and 26.7.4)."""
    theta = math.atan(t / math.sqrt(df))
    c2, sine = math.cos(theta) ** 2, math.sin(theta)
    if df % 2 == 0:
        term = total = 1.0
        for k in range(2, df - 1, 2):  # 1, (1/2)cos^2, (1*3)/(2*4)cos^4 ... up to cos^(df-2)
            term *= (k - 1) / k * c2
            total += term
        return sine * total
    if df == 1:
        return 2 * theta / math.pi
    term = total = math.cos(theta)
    for k in range(3, df - 1, 2):  # cos, (2/3)cos^3 ... up to cos^(df-2)
        term *= (k - 1) / k * c2
        total += term
    return 2 / math.pi * (theta + sine * total)


def clustered_rate(clusters: Sequence[tuple[int, int]], z: float = Z95) -> tuple[float, float, float, float]:
    """A rate pooled over clusters of trials that need not be independent within a cluster (the rounds
    of one game: ``(successes, trials)`` per game), with the Wilson interval of its effective size
    (Rao and Scott 1992, "A simple method for the analysis of clustered binary data"): successes
    and trials divided by the design effect, the ratio estimator's variance over clusters (Taylor
    linearisation, with the k/(k-1) of k clusters) against the binomial variance, never below 1.
    Returns the rate, its interval and the design effect."""
    trials = sum(n for _, n in clusters)
    successes = sum(x for x, _ in clusters)
    if trials == 0:
        return 0.0, 0.0, 1.0, 1.0
    rate = successes / trials
    deff = design_effect(clusters)
    low, high = wilson_interval(successes / deff, trials / deff, z)
    return rate, low, high, deff


def design_effect(clusters: Sequence[tuple[int, int]]) -> float:
    """How many times the variance of a rate pooled over clusters exceeds the binomial variance of
    as many independent trials (Kish's deff, 1 + (m - 1) * rho for clusters of m), estimated from
    the clusters (``clustered_rate``); at least 1, and 1 where it cannot be estimated (fewer than 2
    clusters with trials, or a rate of 0 or 1)."""
    used = [(x, n) for x, n in clusters if n > 0]
    k = len(used)
    trials = sum(n for _, n in used)
    rate = sum(x for x, _ in used) / trials if trials else 0.0
    if k < 2 or rate in (0.0, 1.0):
        return 1.0
    spread = sum((x - rate * n) ** 2 for x, n in used)
    variance = k / (k - 1) * spread / trials ** 2
    return max(1.0, variance / (rate * (1 - rate) / trials))


def clustered_difference(first: Sequence[tuple[int, int]], second: Sequence[tuple[int, int]],
                         z: float = Z95) -> tuple[float, float, float]:
    """The first pooled rate minus the second, from independent sets of clusters: Newcombe's method 10
    (square-and-add of each rate's interval) on the design-effect-adjusted Wilson intervals of
    ``clustered_rate``; with clusters of one trial each, close to ``independent_difference``."""
    parts = [clustered_rate(clusters, z)[:3] for clusters in (first, second)]
    return combine_independent(parts, (1.0, -1.0))
