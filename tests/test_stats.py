"""The intervals every report uses (cardgen.stats), against published worked examples."""
import math

import pytest

from cardgen.stats import (
    combine_independent,
    direction_or_bound,
    independent_difference,
    mean_interval,
    paired_difference,
    rate_difference,
    wilson_cc_interval,
    wilson_interval,
)


def test_wilson_interval_known_values():
    assert wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson_interval(50, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_paired_difference_reproduces_newcombes_square_and_add_worked_example():
    # Fagerland, Lydersen and Laake, "Statistical Analysis of Contingency Tables" (2017), chapter 8:
    # complete response before and after consolidation therapy (Cavo et al. 2012), the table
    # [[59, 6], [16, 80]]; Newcombe's square-and-add interval: -0.0621 (95% CI -0.1186 to -0.0046)
    assert paired_difference(59, 6, 16, 80) == pytest.approx((-0.0621, -0.1186, -0.0046), abs=1e-4)


def test_independent_difference_reproduces_newcombes_method_10():
    # Newcombe (1998), "Interval estimation for the difference between independent proportions:
    # comparison of eleven methods", Table II, method 10: 56/70 - 48/80 and 9/10 - 3/10
    assert independent_difference(56, 70, 48, 80) == pytest.approx((0.2, 0.0524, 0.3339), abs=1e-4)
    assert independent_difference(9, 10, 3, 10) == pytest.approx((0.6, 0.1705, 0.8090), abs=1e-4)


def test_combining_independent_runs_is_square_and_add():
    one, two = (0.1, 0.0, 0.3), (-0.2, -0.3, 0.0)
    estimate, low, high = combine_independent([one, two], (0.5, 0.5))
    assert estimate == pytest.approx(-0.05)
    assert low == pytest.approx(-0.05 - math.sqrt(0.05 ** 2 + 0.05 ** 2))
    assert high == pytest.approx(-0.05 + math.sqrt(0.1 ** 2 + 0.1 ** 2))
    # a negative weight takes each part's other side: the same as independent_difference
    p1, p2 = (56 / 70, *wilson_interval(56, 70)), (48 / 80, *wilson_interval(48, 80))
    assert combine_independent([p1, p2], (1, -1)) == pytest.approx(independent_difference(56, 70, 48, 80))


def test_a_seat_difference_is_taken_on_every_game_not_only_the_decided_ones():
    """Issue 25: on the decided games alone, 1 decided game in 100 gave [-0.9, +1.0] points (an upper
    limit at the estimate) while 0 decided games gave +-20: now the ties count as games."""
    diff, low, high = rate_difference(1, 0, 100)
    assert diff == pytest.approx(0.01) and high > 0.04 and low < -0.02
    _, low0, high0 = rate_difference(0, 0, 100)
    assert low0 == pytest.approx(-high0) and high0 == pytest.approx(wilson_interval(0, 100)[1])
    assert high0 < high  # a decided game can only widen what 100 tied games leave open
    # 4 wins to 0 in 400 games is no evidence of a difference
    assert rate_difference(4, 0, 400)[1] < 0 < rate_difference(4, 0, 400)[2]
    # shared wins are counted by both seats
    assert rate_difference(10, 10, 50, both=5) == pytest.approx(paired_difference(5, 5, 5, 35))


def test_an_answer_names_a_direction_only_when_the_interval_excludes_zero():
    assert direction_or_bound(0.02, 0.1) == ("more", 0.02)
    assert direction_or_bound(-0.1, -0.03) == ("less", 0.03)
    assert direction_or_bound(-0.07, 0.04) == ("bound", 0.07)


def test_wilson_with_continuity_correction_known_values():
    # Newcombe (1998), Table I, methods 3 (score) and 4 (score with continuity correction)
    assert wilson_interval(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson_cc_interval(81, 263) == pytest.approx((0.2535, 0.3682), abs=1e-4)
    assert wilson_cc_interval(0, 20) == pytest.approx((0.0, 0.2005), abs=1e-4)


def test_mean_interval_is_the_normal_approximation_around_the_mean():
    mean, low, high = mean_interval([2.0, 4.0, 6.0, 8.0])
    # sd of 2, 4, 6, 8 is 2.582; 1.96 * 2.582 / sqrt(4) = 2.530
    assert mean == 5.0
    assert (low, high) == pytest.approx((5.0 - 2.5303, 5.0 + 2.5303), abs=1e-4)
    assert mean_interval([3.0]) == (3.0, 3.0, 3.0)
    assert mean_interval([]) is None
