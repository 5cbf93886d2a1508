"""Information-set MCTS: budgets, determinizations that keep to what a player has seen, seeded play."""
from __future__ import annotations

import random

import pytest

from cardgen.errors import CardgenError
from cardgen.games.common_carrier import CommonCarrierGame
from cardgen.playtest import check_policy, run_playtest
from cardgen.search import Budget, can_search, mcts_action, parse_budget


def test_budgets_are_simulations_or_seconds():
    assert parse_budget("") == Budget(simulations=1000)
    assert parse_budget("250") == Budget(simulations=250)
    assert parse_budget("0.5s") == Budget(simulations=None, seconds=0.5)
    for bad in ("0", "-3", "fast", "1e3", "0s", "²"):
        with pytest.raises(CardgenError, match="mcts budget"):
            parse_budget(bad)


def test_policy_names_are_checked():
    assert check_policy("mcts:300") == "mcts:300"
    with pytest.raises(CardgenError, match="unknown policy 'greedy:3'"):
        check_policy("greedy:3")
    with pytest.raises(CardgenError, match="mcts budget"):
        check_policy("mcts:lots")


def test_a_common_carrier_determinization_keeps_what_the_player_has_seen():
    game = CommonCarrierGame(options={"hole_card": True})
    state = game.new_initial_state(random.Random(3))
    rng = random.Random(4)
    for _ in range(6):
        state.apply_action(game.random_action(state, state.current_player(), rng))
    me = state.current_player()
    seen = []
    for seed in range(20):
        det = state.determinize(me, random.Random(seed))
        assert det.hands[me] == state.hands[me]
        assert det.placed == state.placed and det.discards == state.discards
        for p in (0, 1):
            assert sorted(det.hands[p] + det.decks[p]) == sorted(state.hands[p] + state.decks[p])
            assert len(det.hands[p]) == len(state.hands[p])
        assert det.legal_actions() == state.legal_actions()
        seen.append(tuple(det.hands[1 - me]) + tuple(det.decks[me]))
    assert len(set(seen)) > 1  # hidden cards are really dealt again


def test_mcts_takes_a_win_in_one():
    game = CommonCarrierGame(options={"target": 1})
    state = game.new_initial_state(random.Random(1))
    rng = random.Random(2)
    while not state.is_terminal():
        player = state.current_player()
        winning = []
        for action in state.legal_actions():
            trial = state.clone()
            trial.apply_action(action)
            if trial.winners() == [player]:
                winning.append(action)
        if winning:
            chosen = mcts_action(game, state, player, rng, Budget(simulations=400))
            assert chosen in winning
            return
        state.apply_action(game.random_action(state, player, rng))
    pytest.fail("no position with a win in one")


def test_mcts_play_is_seeded():
    game = CommonCarrierGame()
    one = run_playtest(game, 2, seed=5, policy="mcts:15", vs="random")
    two = run_playtest(game, 2, seed=5, policy="mcts:15", vs="random")
    keys = ("seat_win_rates", "length_counts", "outcomes")
    assert [one[k] for k in keys] == [two[k] for k in keys]
    assert one["policy"] == "mcts:15"


def test_an_engine_that_cannot_determinize_is_told_so():
    from tests.test_playtest import MatchingPennies

    game = MatchingPennies()
    state = game.new_initial_state(random.Random(1))
    assert not can_search(state)
    with pytest.raises(CardgenError, match="determinize"):
        mcts_action(game, state, 0, random.Random(1))


def test_mcts_beats_random_at_a_simultaneous_game():
    from cardgen_gops import GopsGame

    report = run_playtest(GopsGame(), 30, seed=1, policy="mcts:200", vs="random")
    first, second = report["seat_win_rates"]
    assert first["wins"] > 2 * second["wins"]
    assert "the mcts:200 player has the edge" in report["verdict"]


def test_a_draw_is_worth_more_than_a_loss_to_the_search():
    from cardgen.search import utility

    assert utility([0.0, 0.0]) == [0.5, 0.5]
    assert utility([1.0, 0.0]) == [1.0, 0.0]
    assert utility([0.0, 0.5, 0.5]) == [0.0, 0.5, 0.5]
    assert utility([0.0, 0.0, 0.0, 0.0]) == [0.25] * 4
