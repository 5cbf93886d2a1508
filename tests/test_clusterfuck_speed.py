"""Clusterfuck's fast paths: forced moves made by the engine, random_action, num_legal_actions."""
from __future__ import annotations

import random

import pytest

from cardgen.games.clusterfuck import ClusterfuckGame, ClusterfuckState


def snapshot(state):
    return (state.phase, state.player, [h[:] for h in state.hands], state.status[:], state.trick_rank,
            state.trick_count, state.rounds_won[:], state.round_no)


@pytest.mark.parametrize("players", [3, 5, 8])
def test_the_engine_makes_exactly_the_forced_moves_a_player_would(players):
    """Stepping every move, forced ones included, and letting the engine make the forced ones give
    the same game, position for position at every real choice."""
    game = ClusterfuckGame(players)
    for seed in range(3):
        stepped = ClusterfuckState(game, random.Random(seed), plays_forced=False)
        quick = game.new_initial_state(random.Random(seed))
        rng = random.Random(seed)
        forced = choices = 0
        while not stepped.is_terminal():
            actions = stepped.legal_actions()
            if len(actions) == 1:
                stepped.apply_action(actions[0])
                forced += 1
                continue
            assert snapshot(stepped) == snapshot(quick)
            assert sorted(quick.legal_actions()) == sorted(actions)
            action = actions[rng.randrange(len(actions))]
            stepped.apply_action(action)
            quick.apply_action(action)
            choices += 1
        assert quick.is_terminal() and quick.winner == stepped.winner
        assert quick.cards_played() == stepped.cards_played()
        assert game.metrics(quick) == game.metrics(stepped)
        assert forced > 0 and choices > 0


def test_a_dealt_game_only_ever_asks_a_player_with_a_real_choice():
    game = ClusterfuckGame(8)
    state = game.new_initial_state(random.Random(3))
    rng = random.Random(3)
    while not state.is_terminal():
        actions = state.legal_actions()
        assert len(actions) >= 2
        state.apply_action(rng.choice(actions))


@pytest.mark.parametrize("players", [3, 4, 6, 8, 12])
def test_num_legal_actions_counts_the_legal_actions_and_random_action_draws_one(players):
    game = ClusterfuckGame(players)
    for seed in range(3):
        state = game.new_initial_state(random.Random(seed))
        rng = random.Random(100 + seed)
        while not state.is_terminal():
            p = state.current_player()
            actions = state.legal_actions()
            assert state.num_legal_actions(p) == state.num_legal_actions() == len(actions)
            assert state.num_legal_actions((p + 1) % players) == 0
            action = game.random_action(state, p, rng)
            assert action in actions
            state.apply_action(action)


def test_random_action_is_uniform_over_the_legal_actions():
    """At many positions, many draws: each legal action turns up about equally often, none other."""
    game = ClusterfuckGame(5)
    rng = random.Random(7)
    state = game.new_initial_state(random.Random(7))
    checked = 0
    while not state.is_terminal() and checked < 40:
        actions = state.legal_actions()
        if len(actions) <= 30 and rng.random() < 0.3:
            draws = 200 * len(actions)
            counts = dict.fromkeys(actions, 0)
            probe = random.Random(checked)
            for _ in range(draws):
                counts[game.random_action(state, state.current_player(), probe)] += 1
            # each count is Binomial(draws, 1/k): mean 200, sd under 15; 6 sd is far outside chance
            assert all(abs(c - 200) < 90 for c in counts.values()), counts
            checked += 1
        state.apply_action(rng.choice(actions))
    assert checked == 40


def test_a_seed_replays_the_same_fast_random_game():
    game = ClusterfuckGame(8)

    def play(seed):
        rng = random.Random(seed)
        state = game.new_initial_state(random.Random(seed))
        moves = 0
        while not state.is_terminal():
            state.apply_action(game.random_action(state, state.current_player(), rng))
            moves += 1
        return moves, state.rounds_won, state.cards_played()

    assert play(4) == play(4)
    assert play(4) != play(5)
