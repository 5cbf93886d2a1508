"""The intervals every report uses (cardgen.stats), against published worked examples."""
import pytest

from cardgen.stats import mean_interval, rate_difference, wilson_cc_interval, wilson_interval


def test_wilson_interval_known_values():
    assert wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson_interval(50, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_rate_difference_is_taken_on_the_games_either_seat_won():
    diff, low, high = rate_difference(130, 70, 200)
    assert diff == pytest.approx(0.30)
    q_low, q_high = wilson_cc_interval(130, 200)
    assert (low, high) == pytest.approx((2 * q_low - 1, 2 * q_high - 1))
    # 4 wins to 0 is no evidence (an exact sign test gives p = 0.125): the interval spans zero
    assert rate_difference(4, 0, 400)[1] < 0 < rate_difference(4, 0, 400)[2]
    diff, low, high = rate_difference(0, 0, 10)
    assert diff == 0 and low == -high and high == pytest.approx(wilson_cc_interval(0, 10)[1])


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
