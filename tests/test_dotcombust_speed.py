"""dotCOMbust's fast paths give what the plain verbs give: counts, random plays, what players know."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from cardgen.games.base import IllegalAction
from cardgen.games.dotcombust import DotcombustGame, Pass

OPTION_SETS = [{}, {"no_tagbacks": True}, {"both_barrels": True}, {"bitter_end": True},
               {"no_tagbacks": True, "both_barrels": True, "bitter_end": True}, {"assets": 5}]


def positions(game: DotcombustGame, games: int, seed: int = 0):
    """Every position of ``games`` seeded games played with random_action."""
    for index in range(games):
        rng = random.Random(f"{seed}:{index}")
        state = game.new_initial_state(rng)
        while not state.is_terminal():
            yield state
            state.apply_action(tuple(game.random_action(state, p, rng) for p in range(game.num_players)))


@pytest.mark.parametrize("options", OPTION_SETS)
def test_the_count_of_plays_is_the_length_of_the_list_everywhere(options):
    for players in (3, 4, 7):
        game = DotcombustGame(players, options=options)
        for state in positions(game, 6):
            for p in range(players):
                assert state.num_legal_actions(p) == len(state.legal_actions(p))


@pytest.mark.parametrize("options", OPTION_SETS)
def test_a_random_play_is_always_legal(options):
    game = DotcombustGame(4, options=options)
    rng = random.Random(1)
    for state in positions(game, 8):
        for p in range(4):
            assert game.random_action(state, p, rng) in state.legal_actions(p)


@pytest.mark.parametrize("options", [{}, {"both_barrels": True}])
def test_random_plays_are_uniform_over_exactly_the_legal_plays(options):
    game = DotcombustGame(4, options=options)
    rng = random.Random(7)
    tested = 0
    for i, state in enumerate(positions(game, 3)):
        if i % 9:
            continue
        for p in range(4):
            legal = state.legal_actions(p)
            if len(legal) < 2:
                continue
            draws = 400 * len(legal)
            seen = Counter(game.random_action(state, p, rng) for _ in range(draws))
            assert set(seen) == set(legal)
            # chi-square with len(legal) - 1 degrees of freedom, far in the tail
            chi2 = sum((seen[a] - 400) ** 2 / 400 for a in legal)
            assert chi2 < len(legal) + 8 * len(legal) ** 0.5 + 20, (legal, seen)
            tested += 1
    assert tested > 20


def test_a_random_play_from_another_position_is_checked_again():
    game = DotcombustGame(3, assets=[3, 3, 3, 3])
    drawn_on = game.state_from_hands([[2, 0, 0, 0], [0, 2, 0, 0], [0, 0, 2, 0]])
    state = game.state_from_hands([[0, 0, 0, 2], [0, 2, 0, 0], [0, 0, 2, 0]])
    joint = tuple(game.random_action(drawn_on, p, random.Random(p)) for p in range(3))
    with pytest.raises(IllegalAction, match="player 0 cannot play"):
        state.apply_action(joint)
    drawn_on.apply_action(joint)


def test_plays_drawn_before_a_move_are_checked_after_it():
    game = DotcombustGame(4)
    rng = random.Random(5)
    state = game.new_initial_state(rng)
    for _ in range(30):
        if state.is_terminal():
            break
        stale = tuple(game.random_action(state, p, rng) for p in range(4))
        state.apply_action(tuple(game.random_action(state, p, rng) for p in range(4)))
        if state.is_terminal():
            break
        legal = all(play in state.legal_actions(p) for p, play in enumerate(stale))
        if not legal:
            with pytest.raises(IllegalAction):
                state.clone().apply_action(stale)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_what_players_know_is_the_same_read_every_turn_or_only_at_the_end(options):
    game = DotcombustGame(4, options=options)
    for seed in range(4):
        rng = random.Random(seed)
        eager = game.new_initial_state(random.Random(seed))
        lazy = eager.clone()
        while not eager.is_terminal():
            joint = tuple(game.random_action(eager, p, rng) for p in range(4))
            eager.apply_action(joint)
            lazy.apply_action(joint)
            assert eager.known_parts is not None  # read (and learnt) every turn
            if rng.random() < 0.1:  # a clone carries what is not learnt yet
                assert lazy.clone().known_parts == eager.known_parts
        assert lazy.known_parts == eager.known_parts


def test_the_same_seed_deals_and_plays_the_same_game():
    game = DotcombustGame(4)

    def play(seed: int):
        rng = random.Random(seed)
        state = game.new_initial_state(rng)
        joints = []
        while not state.is_terminal():
            joints.append(tuple(game.random_action(state, p, rng) for p in range(4)))
            state.apply_action(joints[-1])
        return joints, state.points

    assert play(11) == play(11)
    assert play(11) != play(12)


def test_the_deal_is_a_shuffle_of_the_whole_deck():
    game = DotcombustGame(4)
    firsts = Counter()
    for seed in range(400):
        state = game.new_initial_state(random.Random(seed))
        assert [sum(h[a] for h in state.hands) for a in range(16)] == list(game.asset_sizes)
        assert state.hand_sizes == [20] * 4
        firsts[tuple(state.hands[0])] += 1
    assert len(firsts) == 400


def test_a_plain_tuple_equal_to_a_play_is_still_accepted():
    game = DotcombustGame(3, assets=[3, 3, 3, 3])
    state = game.state_from_hands([[2, 1, 1, 0], [0, 1, 1, 2], [1, 1, 1, 1]])
    state.apply_action((((0,), False), Pass((1,), True), Pass((3,), True)))
    assert state.turn == 1


def test_the_search_judges_a_finished_game_by_its_result():
    game = DotcombustGame(3, assets=[3, 3, 3, 3])
    over = game.state_from_hands([[1, 0, 0, 0], [0, 2, 0, 0], [0, 0, 2, 0]])
    assert over.is_terminal() and game.evaluate(over) == [1 / 3] * 3  # nobody scored: a draw


def test_the_search_judges_the_points_a_player_gained_by_its_own_passes():
    game = DotcombustGame(4)
    rng = random.Random(2)
    state = game.new_initial_state(rng)
    for _ in range(6):
        state.apply_action(tuple(game.random_action(state, p, rng) for p in range(4)))
    det = state.determinize(0, rng)
    assert game.evaluate(det) == [0.25] * 4  # nothing gained yet
    start = [game.value(det, p) for p in range(4)]
    for _ in range(3):
        if det.is_terminal():
            break
        det.apply_action(tuple(game.random_action(det, p, rng) for p in range(4)))
    judged = game.evaluate(det)
    assert all(0.0 <= v <= 1.0 for v in judged) and abs(sum(judged) - 1) < 0.5
    if not det.is_terminal():
        best = max(range(4), key=lambda p: game.value(det, p) - start[p] - det._incoming[p])
        assert judged[best] == max(judged)
    # off the search, a softmax of the expected scores
    plain = game.evaluate(state)
    assert abs(sum(plain) - 1) < 1e-9
    assert plain.index(max(plain)) == max(range(4), key=lambda p: game.value(state, p))


def test_what_answering_a_pass_cost_is_kept_apart_in_a_search():
    game = DotcombustGame(3, assets=[3, 3, 3, 3])
    state = game.state_from_hands([[2, 1, 1, 0], [0, 1, 1, 2], [1, 1, 1, 1]])
    det = state.determinize(0, random.Random(0))
    det.hands = [[2, 1, 1, 0], [0, 1, 1, 2], [1, 1, 1, 1]]  # as they are, to follow one turn
    det._searched_from = [game.value(det, p) for p in range(3)]
    # 0 asks 1 for asset 0 face down: 1 has none and keeps it (1 answered: +1 part of asset 0);
    # 1 asks 2 for asset 1 face up: 2 pays one back (2 answered: -1 part of asset 1);
    # 2 asks 0 for asset 3 face up: 0 has none, it comes back (0 answered: nothing)
    det.apply_action((Pass((0,), False), Pass((1,), True), Pass((3,), True)))
    size = 3

    def progress(count):
        return 0.5 * (size - 1) * (count / size) ** 2

    assert det._incoming == pytest.approx([0.0, progress(1), progress(0) - progress(1)])
