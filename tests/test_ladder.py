"""The policy ladder: scores per seat held, both seatings, intervals and verdicts."""
from __future__ import annotations

import json

import pytest

from cardgen.errors import CardgenError
from cardgen.ladder import run_ladder


class Table:
    option_specs = ()

    def __init__(self, players: int):
        self.num_players, self.name, self.options = players, "stub", {}


def stub_play(results):
    """A playtest that returns the given seat wins for each (policy, vs) seating."""
    def play(game, games, seed, policy, vs, jobs, scheduler):
        wins = results[(policy, vs)]
        return {"seat_win_rates": [{"wins": w} for w in wins], "draws": games - sum(wins), "timeouts": 0,
                "seconds": 0.0}
    return play


def test_two_players_score_the_share_of_games_either_won():
    play = stub_play({("random", "greedy"): [60, 30], ("greedy", "random"): [35, 65]})
    pair = run_ladder(Table(2), ["random", "greedy"], 100, 1, play=play)["pairs"][0]
    assert (pair["a_wins"], pair["b_wins"], pair["ties"]) == (125, 65, 10)
    assert pair["a_score"] == pytest.approx(125 / 190)
    assert pair["score_low"] > 0.5 and pair["verdict"] == "random beats greedy"
    assert pair["difference"] == pytest.approx((60 - 30 + 65 - 35) / 200)
    assert pair["difference_ci95"][0] > 0


def test_many_players_weigh_a_seat_of_each_policy_the_same():
    # 4 players, equal policies: each seat wins a quarter of the games, whoever sits where
    play = stub_play({("random", "greedy"): [25, 25, 25, 25], ("greedy", "random"): [25, 25, 25, 25]})
    report = run_ladder(Table(4), ["random", "greedy"], 100, 1, play=play)
    pair = report["pairs"][0]
    assert pair["a_score"] == pytest.approx(0.5) and pair["verdict"] == "no clear winner"
    assert pair["a_wins"] == 25 + 75 and pair["b_wins"] == 75 + 25


def test_the_ranking_counts_clear_wins_first():
    play = stub_play({("random", "greedy"): [80, 20], ("greedy", "random"): [20, 80],
                      ("random", "mcts:5"): [50, 50], ("mcts:5", "random"): [50, 50],
                      ("greedy", "mcts:5"): [10, 90], ("mcts:5", "greedy"): [90, 10]})
    ranking = run_ladder(Table(2), ["random", "greedy", "mcts:5"], 100, 1, play=play)["ranking"]
    assert [r["policy"] for r in ranking][-1] == "greedy"
    assert {r["policy"]: r["beats"] for r in ranking} == {"random": 1, "greedy": 0, "mcts:5": 1}


def test_a_ladder_needs_two_different_known_policies():
    with pytest.raises(CardgenError, match="2 or more different"):
        run_ladder(Table(2), ["random", "random"], 10, 1)
    with pytest.raises(CardgenError, match="unknown policy 'clever'"):
        run_ladder(Table(2), ["random", "clever"], 10, 1)


def test_the_ladder_command_plays_the_example_game(cli):
    from conftest import ROOT

    result = cli("ladder", ROOT / "examples" / "gops" / "gops.yaml", "--games", "10",
                 "--policies", "random,mcts:60", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["policies"] == ["random", "mcts:60"] and len(report["pairs"]) == 1
    assert report["pairs"][0]["games"] == 20
    text = cli("ladder", ROOT / "examples" / "gops" / "gops.yaml", "--games", "10", "--policies", "random,mcts:60")
    assert "random vs mcts:60" in text.output and "ranking:" in text.output
    bad = cli("ladder", "common-carrier", "--policies", "random,clever")
    assert bad.exit_code == 2 and "unknown policy 'clever'" in bad.output


def test_the_verdict_rests_on_the_games_not_on_rounded_per_seat_counts():
    """Issue 25: with more than two seats the score's interval was a Wilson interval on rounded
    per-seat counts; now each seating's games give a paired interval (Newcombe 1998, method 10),
    and the two seatings combine by square-and-add."""
    from cardgen.ladder import per_seat_difference
    from cardgen.stats import combine_independent, paired_difference

    # 5 players, 100 games a seating: A wins 30 from seat 1, its 4 seats win 52 when B sits there
    first = {"seat_win_rates": [{"wins": 30}, {"wins": 20}, {"wins": 20}, {"wins": 15}, {"wins": 15}]}
    second = {"seat_win_rates": [{"wins": 14}, {"wins": 13}, {"wins": 13}, {"wins": 13}, {"wins": 13}]}
    diff, low, high = per_seat_difference(first, second, 100, 4)
    one = paired_difference(0, 30, 70, 0, weights=(1, 0.25))
    two = paired_difference(0, 14, 52, 34, weights=(1, 0.25))
    assert (diff, low, high) == pytest.approx(combine_independent([one, (-two[0], -two[2], -two[1])], (0.5, 0.5)))
    assert diff == pytest.approx(((0.30 - 0.70 / 4) + (0.52 / 4 - 0.14)) / 2)
    # shared wins, as the playtest reports them, count for both sides
    first["winner_sets"] = {"1": 26, "1+2": 4, "2": 16, "3": 20, "4": 15, "5": 15}
    shared = per_seat_difference(first, second, 100, 4)
    assert shared != pytest.approx((diff, low, high))


def test_equal_policies_are_no_clear_winner_at_many_seats():
    play = stub_play({("random", "greedy"): [20, 20, 20, 20, 20], ("greedy", "random"): [21, 19, 20, 20, 20]})
    pair = run_ladder(Table(5), ["random", "greedy"], 100, 1, play=play)["pairs"][0]
    low, high = pair["difference_ci95"]
    assert low < 0 < high and pair["verdict"] == "no clear winner"
    assert pair["score_low"] < 0.5 < pair["score_high"]
