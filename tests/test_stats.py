"""The intervals every report uses (cardgen.stats), against published worked examples."""
import math

import pytest

from cardgen.stats import (
    clustered_difference,
    clustered_rate,
    combine_independent,
    design_effect,
    direction_or_bound,
    independent_difference,
    mean_interval,
    paired_difference,
    rate_difference,
    t_quantile,
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


def test_mean_interval_reproduces_students_sleep_data():
    # Student (1908) / Cushny and Peebles: extra hours of sleep, drug 2 minus drug 1, for 10 patients;
    # R's t.test on these differences: mean 1.58, 95 percent confidence interval 0.7001142 2.4598858
    differences = [1.2, 2.4, 1.3, 1.3, 0.0, 1.0, 1.8, 0.8, 4.6, 1.4]
    assert mean_interval(differences) == pytest.approx((1.58, 0.7001142, 2.4598858), abs=1e-7)
    assert mean_interval([3.0]) == (3.0, 3.0, 3.0)
    assert mean_interval([]) is None


def test_t_quantiles_match_the_published_table():
    # two-sided 95% points of Student's t (Fisher and Yates' table; Abramowitz and Stegun 26.10)
    table = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 9: 2.262, 10: 2.228, 20: 2.086,
             29: 2.045, 60: 2.000, 120: 1.980}
    for df, t in table.items():
        assert t_quantile(0.95, df) == pytest.approx(t, abs=5e-4)
    # two-sided 99% and 90% points
    assert t_quantile(0.99, 10) == pytest.approx(3.169, abs=5e-4)
    assert t_quantile(0.90, 10) == pytest.approx(1.812, abs=5e-4)
    # the series beyond the exact sums joins them without a step, and tends to z
    assert t_quantile(0.95, 1000) == pytest.approx(t_quantile(0.95, 1001), abs=1e-5)
    assert t_quantile(0.95, 10 ** 7) == pytest.approx(1.959964, abs=1e-5)
    with pytest.raises(ValueError):
        t_quantile(0.95, 0)


def test_rounds_of_one_game_alike_count_as_one_trial_each_game():
    """Kish's design effect 1 + (m - 1) * rho: rounds that always go the same way within a game (rho
    1) are worth one trial a game, so the interval is that of the games (with k/(k-1) of k games)."""
    games = [(4, 4), (0, 4), (4, 4), (0, 4), (4, 4)]
    assert design_effect(games) == pytest.approx(4 * 5 / 4)
    rate, low, high, deff = clustered_rate(games)
    assert rate == 0.6 and deff == pytest.approx(5.0)
    assert (low, high) == pytest.approx(wilson_interval(12 / 5, 20 / 5))
    # independent-looking rounds: the design effect floors at 1, and the interval is plain Wilson
    spread = [(1, 2), (1, 2), (1, 2), (1, 2), (1, 2), (1, 2)]
    assert design_effect(spread) == 1.0 and clustered_rate(spread)[1:3] == wilson_interval(6, 12)
    # too few games, or all or none kept, leave nothing to estimate
    assert design_effect([(3, 5)]) == 1.0 and design_effect([(0, 5), (0, 4)]) == 1.0
    assert clustered_rate([]) == (0.0, 0.0, 1.0, 1.0)


def test_a_clustered_difference_is_newcombes_method_10_on_adjusted_intervals():
    # games of one round each: Newcombe's own example, widened only by k/(k-1)
    first = [(1, 1)] * 56 + [(0, 1)] * 14
    second = [(1, 1)] * 48 + [(0, 1)] * 32
    diff, low, high = clustered_difference(first, second)
    exact = independent_difference(56, 70, 48, 80)
    assert diff == pytest.approx(exact[0]) and low < exact[1] and high > exact[2]
    assert low == pytest.approx(exact[1], abs=0.005) and high == pytest.approx(exact[2], abs=0.005)
    # rounds alike within each game: the difference is as wide as one of games, not of rounds
    alike_first, alike_second = [(5, 5)] * 7 + [(0, 5)] * 3, [(5, 5)] * 3 + [(0, 5)] * 7
    _, low_alike, high_alike = clustered_difference(alike_first, alike_second)
    _, low_rounds, high_rounds = independent_difference(35, 50, 15, 50)
    assert high_alike - low_alike > 1.8 * (high_rounds - low_rounds)
