"""Every registered game (the bundled ones and installed plug-ins), held to one contract.

After OpenSpiel's random-simulation test: random playouts reach the end and
replay identically from the same seed; a decision node always offers an
action; anything that is not a legal action is refused with IllegalAction;
returns sum to 1 (a win, shared among winners) or 0 (a draw); a clone is
independent of its original; a state survives serialisation (pickle) and
plays on identically.
"""
from __future__ import annotations

import pickle
import random

import pytest

from cardgen.games import game_info, registry
from cardgen.games.base import SIMULTANEOUS, TERMINAL, IllegalAction

GAMES = sorted(registry())
MAX_MOVES = 20_000


def test_the_bundled_games_and_the_example_plug_in_are_registered():
    assert {"common-carrier", "dotcombust", "clusterfuck"} <= set(GAMES)
    assert "gops" in GAMES, "install the example plug-in: pip install -e examples/gops (make test does)"


def decide(state, rng):
    """A random action at this node: one action, or a joint one when everybody moves at once."""
    player = state.current_player()
    if player == SIMULTANEOUS:
        return tuple(rng.choice(state.legal_actions(p)) for p in range(state.game.num_players))
    return rng.choice(state.legal_actions())


def playout(state, seed):
    """Play to the end from ``state``; the actions, as strings, and the returns."""
    rng = random.Random(seed)
    history = []
    for _ in range(MAX_MOVES):
        if state.is_terminal():
            break
        action = decide(state, rng)
        history.append(state.action_to_string(action))
        state.apply_action(action)
    return history, state.returns()


def new_state(name, seed, moves=0):
    """A fresh game of ``name``, then up to ``moves`` random moves seeded like it."""
    info = game_info(name)
    state = info.engine().new_initial_state(random.Random(seed))
    rng = random.Random(seed)
    for _ in range(moves):
        if not state.is_terminal():
            state.apply_action(decide(state, rng))
    return state


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playouts_end_and_replay_identically_from_the_seed(name, seed):
    first = playout(new_state(name, seed), seed)
    again = playout(new_state(name, seed), seed)
    assert first == again
    history, returns = first
    assert history and all(isinstance(step, str) and step for step in history)
    assert sum(returns) == pytest.approx(1.0) or sum(returns) == pytest.approx(0.0)
    assert all(0.0 <= r <= 1.0 for r in returns)


@pytest.mark.parametrize("name", GAMES)
def test_every_decision_node_offers_an_action_and_terminal_states_none(name):
    state = new_state(name, 7)
    rng = random.Random(7)
    for _ in range(MAX_MOVES):
        player = state.current_player()
        if state.is_terminal():
            assert player == TERMINAL
            break
        if player == SIMULTANEOUS:
            assert all(state.legal_actions(p) for p in range(state.game.num_players))
        else:
            assert player >= 0 and state.legal_actions()
        state.apply_action(decide(state, rng))
    assert state.is_terminal()


@pytest.mark.parametrize("name", GAMES)
def test_what_is_not_a_legal_action_is_refused_with_one_error_type(name):
    state = new_state(name, 3)
    for garbage in [("not", "an", "action"), object(), 10**9, ()]:
        with pytest.raises(IllegalAction):
            state.clone().apply_action(garbage)
    rng = random.Random(3)
    action = decide(state, rng)
    finished = state.clone()
    playout(finished, 3)
    with pytest.raises(IllegalAction):
        finished.apply_action(action)  # nothing is legal once the game is over


@pytest.mark.parametrize("name", GAMES)
def test_a_clone_is_independent_of_its_original(name):
    state = new_state(name, 5, moves=3)
    before = (state.current_player(), state.is_terminal(), state.returns(), playout(state.clone(), 11))
    copy = state.clone()
    playout(copy, 99)
    assert copy.is_terminal()
    assert (state.current_player(), state.is_terminal(), state.returns(), playout(state.clone(), 11)) == before


@pytest.mark.parametrize("name", GAMES)
def test_a_state_survives_serialisation_and_plays_on_identically(name):
    state = new_state(name, 9, moves=2)
    restored = pickle.loads(pickle.dumps(state))
    assert restored.current_player() == state.current_player()
    assert playout(restored, 21) == playout(state.clone(), 21)


# --- every capability a game declares on Game and State (games/base.py) ------------------------

def declaring(capability):
    """The games whose engine declares ``capability`` (None where a game leaves it out)."""
    return [name for name in GAMES if getattr(game_info(name).engine, capability) is not None]


def test_every_bundled_game_declares_its_fast_paths_and_search_hooks():
    bundled = {"common-carrier", "dotcombust", "clusterfuck"}
    for capability in ("random_playout", "evaluate", "greedy_action"):
        assert bundled <= set(declaring(capability)), capability
    assert set(GAMES) <= {name for name in GAMES if new_state(name, 1).determinize is not None}


def decision_nodes(name, seed, limit=400):
    """States along one random game of ``name``, each a clone, with the player to move."""
    state = new_state(name, seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_terminal():
            return
        player = state.current_player()
        movers = range(state.game.num_players) if player == SIMULTANEOUS else [player]
        yield state.clone(), list(movers)
        state.apply_action(decide(state, rng))


@pytest.mark.parametrize("name", GAMES)
def test_declared_policies_choose_legal_actions_and_counts_match_the_listing(name):
    game = game_info(name).engine()
    policies = {label: policy for label, policy in (("random_action", game.random_action),
                                                    ("greedy_action", game.greedy_action),
                                                    ("rollout_action", game.rollout_action))
                if policy is not None}
    rng = random.Random(5)
    earlier: list = []
    refused = 0
    for state, movers in decision_nodes(name, 5):
        for player in movers:
            legal = state.legal_actions(player)
            assert state.num_legal_actions(player) == len(legal)
            assert all(state.is_legal(player, a) for a in legal), f"{name}: is_legal refused a listed action"
            probes = earlier[:8] + legal[:8]  # another node's moves, mostly not legal here, and legal ones
            among = state.clone().legal_among(player, probes)
            assert among == [a for a in probes if state.clone().is_legal(player, a)], \
                f"{name}: legal_among is not is_legal"
            refused += len(probes) - len(among)
            earlier = legal
            others = [p for p in range(game.num_players) if p not in movers]
            assert not any(state.is_legal(p, a) for p in others for a in legal[:5]), \
                f"{name}: is_legal let a player move out of turn"
            for label, policy in policies.items():
                assert policy(state.clone(), player, rng) in legal, f"{name}: {label} chose an illegal action"
            assert isinstance(game.heuristic(state, player), (int, float))
    assert refused > 0, f"{name}: no probe of legal_among was refused"


@pytest.mark.parametrize("name", declaring("random_playout"))
def test_a_declared_random_playout_plays_the_runners_game(name):
    from cardgen.playtest import _play_out

    game = game_info(name).engine()
    assert game.random_playout is not None
    for seed in range(8):
        fast, slow = game.new_initial_state(random.Random(seed)), game.new_initial_state(random.Random(seed))
        fast_rng, slow_rng = random.Random(seed), random.Random(seed)
        fast_branching: list[int] = []
        slow_branching: list[int] = []
        moves = game.random_playout(fast, fast_rng, MAX_MOVES, fast_branching)
        assert moves == _play_out(game, slow, ["random"] * game.num_players, slow_rng, MAX_MOVES, slow_branching)
        assert fast_branching == slow_branching
        assert fast.returns() == slow.returns()
        assert fast_rng.getstate() == slow_rng.getstate()


@pytest.mark.parametrize("name", declaring("heuristics_ahead"))
def test_declared_heuristics_ahead_are_those_of_each_action_laid(name):
    game = game_info(name).engine()
    assert game.heuristics_ahead is not None
    for state, movers in decision_nodes(name, 13, limit=200):
        for player in movers:
            laid = []
            for action in state.legal_actions(player):
                trial = state.clone()
                trial.apply_action(action)
                laid.append(game.heuristic(trial, player))
            assert game.heuristics_ahead(state.clone(), player) == laid


@pytest.mark.parametrize("name", declaring("evaluate"))
def test_a_declared_evaluation_judges_every_unfinished_position(name):
    game = game_info(name).engine()
    assert game.evaluate is not None
    assert game.rollout_depth is None or game.rollout_depth >= 0
    for state, _ in decision_nodes(name, 9):
        values = game.evaluate(state)
        assert len(values) == game.num_players and all(0.0 <= v <= 1.0 for v in values)


@pytest.mark.parametrize("name", declaring("tie_chance"))
def test_a_declared_tie_chance_is_a_chance_of_every_unfinished_position(name):
    """What a search that values a tie otherwise (mcts:N:tie=V) moves its judgement by."""
    game = game_info(name).engine()
    assert game.tie_chance is not None and game.evaluate is not None
    for state, _ in decision_nodes(name, 9):
        assert 0.0 <= game.tie_chance(state) <= 1.0


@pytest.mark.parametrize("name", GAMES)
def test_a_determinization_keeps_what_the_player_sees(name):
    for state, movers in decision_nodes(name, 11, limit=120):
        assert state.determinize is not None
        for player in movers:
            det = state.determinize(player, random.Random(player))
            assert det.current_player() == state.current_player()
            assert sorted(map(repr, det.legal_actions(player))) == sorted(map(repr, state.legal_actions(player)))


@pytest.mark.parametrize("name", GAMES)
def test_search_settings_and_summaries_are_of_the_declared_kinds(name):
    game = game_info(name).engine()
    assert game.exploration is None or game.exploration > 0
    assert isinstance(game.search_guided, bool) and isinstance(game.search_keeps_tree, bool)
    finished = [new_state(name, seed) for seed in (1, 2)]
    for state in finished:
        playout(state, 3)
    summary = game.summarize([game.metrics(state) for state in finished])
    assert isinstance(summary, dict) and all(isinstance(key, str) for key in summary)
