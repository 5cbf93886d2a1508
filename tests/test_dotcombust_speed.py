"""dotCOMbust's fast paths give what the plain verbs give: counts, random plays, what players know."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from cardgen.games.base import IllegalAction
from cardgen.games.dotcombust.policies import DotcombustGame
from cardgen.games.dotcombust.rules import Pass
from cardgen.playtest import DEFAULT_MAX_MOVES, _play_out, play_game

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


# a smaller deck's plays are drawn as more bits than it has plays: the draws past them are redrawn
@pytest.mark.parametrize(("options", "games"), [({}, 3), ({"both_barrels": True}, 3), ({"assets": 5}, 8)])
def test_random_plays_are_uniform_over_exactly_the_legal_plays(options, games):
    game = DotcombustGame(4, options=options)
    rng = random.Random(7)
    tested = 0
    for i, state in enumerate(positions(game, games)):
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
    assert all(0.0 <= v <= 1.0 for v in judged)
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


# --- a random game played out whole (random_playout) -------------------------------

def test_a_game_played_out_whole_is_the_runners_game_from_the_same_seed():
    """The playout draws as random_action draws, so the runner's records do not depend on it."""
    for options in OPTION_SETS + [{"turn_limit": 12}]:
        for players in (3, 4, 7):
            game = DotcombustGame(players, options=options)
            for index in range(15):
                whole = play_game(game, index, 3, ["random"] * players)
                rng = random.Random(f"cardgen-playtest:3:{index}")
                state = game.new_initial_state(rng)
                branching: list[int] = []
                length = _play_out(game, state, ["random"] * players, rng, DEFAULT_MAX_MOVES, branching)
                assert (whole.length, whole.branching, whole.winners, whole.metrics, whole.played,
                        whole.held) == (length, branching, state.winners(), game.metrics(state),
                                        state.cards_played(), state.cards_held())


def played_out_move_by_move(game: DotcombustGame, seed: int):
    """Pairs of states after each move: one played out a move at a time, one by the checked verbs
    with the same draws; and each move's noted counts of plays."""
    out_rng, step_rng = random.Random(seed), random.Random(seed)
    out, step = game.new_initial_state(out_rng), game.new_initial_state(step_rng)
    while not step.is_terminal():
        noted: list[int] = []
        assert game.random_playout(out, out_rng, 1, noted) == 1
        joint = tuple(game.random_action(step, p, step_rng) for p in range(game.num_players))
        counts = [len(step.legal_actions(p)) for p in range(game.num_players)]
        step._trusted = None  # check every play again
        step.apply_action(joint)
        yield out, step, noted, counts
    after_the_end: list[int] = []
    assert out.is_terminal() and game.random_playout(out, out_rng, 5, after_the_end) == 0
    assert not after_the_end


#: everything a position is, but what the players know of each other (a playout tracks none of it)
POSITION = ("hands", "hand_sizes", "weights", "points", "shown", "pending", "turn", "passes", "bans",
            "kept_to_end", "ended_by", "ended_on_show", "last_completion", "_deciding")


@pytest.mark.parametrize("options", OPTION_SETS)
def test_every_move_of_a_playout_is_a_legal_move_and_notes_the_legal_plays(options):
    for players in (3, 4, 6):
        game = DotcombustGame(players, options=options)
        for seed in range(4):
            for out, step, noted, counts in played_out_move_by_move(game, seed):
                assert noted == counts
                for name in POSITION:
                    assert getattr(out, name) == getattr(step, name), name
            assert step.returns() == out.returns() and game.metrics(step) == game.metrics(out)


# the plain rules' playout resolves a pass turn in a loop of its own (policies._play_out_plain, kept
# for its speed): the second copy of the turn's rules, held here to the step code
@pytest.mark.parametrize(("options", "most_players"), [({}, 12), ({"assets": 5}, 8), ({"turn_limit": 25}, 12)])
def test_the_fast_playout_reaches_the_step_codes_position_after_every_move_over_many_seeds(
        options, most_players):
    games = moves_made = 0
    for seed in range(200):
        players = 3 + seed % (most_players - 2)
        game = DotcombustGame(players, options=options)
        assert game._plain and not game.no_tagbacks  # the playout takes its own loop
        moves = 0
        for out, step, noted, counts in played_out_move_by_move(game, 1000 + seed):
            assert noted == counts
            assert [getattr(out, name) for name in POSITION] == [getattr(step, name) for name in POSITION]
            moves += 1
        moves_made += moves
        assert moves and step.returns() == out.returns() and game.metrics(step) == game.metrics(out)
        games += 1
    assert games == 200 and moves_made > 1000


def test_a_playout_stops_after_max_moves_and_plays_on_from_there():
    game = DotcombustGame(4)
    whole_rng, cut_rng = random.Random(9), random.Random(9)
    whole, cut = game.new_initial_state(whole_rng), game.new_initial_state(cut_rng)
    noted: list[int] = []
    length = game.random_playout(whole, whole_rng, DEFAULT_MAX_MOVES, noted)
    assert whole.is_terminal() and length > 20 and len(noted) == 4 * length
    first: list[int] = []
    assert game.random_playout(cut, cut_rng, 20, first) == 20
    assert not cut.is_terminal() and first == noted[:80]
    rest: list[int] = []
    assert game.random_playout(cut, cut_rng, DEFAULT_MAX_MOVES, rest) == length - 20
    assert first + rest == noted and cut.points == whole.points and cut.hands == whole.hands
    assert play_game(game, 0, 1, ["random"] * 4, max_moves=3).timeout


def test_a_played_out_game_keeps_every_card_and_knows_it_tracked_nothing():
    game = DotcombustGame(5)
    for seed in range(20):
        rng = random.Random(seed)
        state = game.new_initial_state(rng)
        game.random_playout(state, rng, DEFAULT_MAX_MOVES, [])
        for a, size in enumerate(game.asset_sizes):
            assert sum(h[a] for h in state.hands) + sum(size for s in state.shown if a in s) == size
        assert state.hand_sizes == [sum(h) for h in state.hands]
        assert state.known_parts is None


def test_a_search_position_is_played_out_with_what_answering_passes_cost():
    game = DotcombustGame(4)
    rng = random.Random(4)
    state = game.new_initial_state(rng)
    game.random_playout(state, rng, 10, [])
    det = state.determinize(1, rng)
    twin = det.clone()
    game.random_playout(det, random.Random(1), DEFAULT_MAX_MOVES, [])
    twin_rng = random.Random(1)
    while not twin.is_terminal():
        twin.apply_action(tuple(game.random_action(twin, p, twin_rng) for p in range(4)))
    assert det._incoming == twin._incoming and det.points == twin.points


def test_a_playout_is_the_same_game_from_the_same_seed_and_another_from_another():
    game = DotcombustGame(4)

    def play(seed: int):
        rng = random.Random(seed)
        state = game.new_initial_state(rng)
        branching: list[int] = []
        length = game.random_playout(state, rng, DEFAULT_MAX_MOVES, branching)
        return length, branching, game.metrics(state), state.cards_held()

    assert play(11) == play(11)
    assert play(11) != play(12)


@pytest.mark.parametrize("options", [{}, {"no_tagbacks": True, "both_barrels": True}])
def test_a_determinization_deals_from_the_position_as_it_is_now(options):
    """What a position's determinizations start from is worked out once per position and player
    (``_deal_plan``) and dropped by the next move: a determinization after moves, of a position
    dealt for before, is the one a fresh copy of that position deals with the same seed."""
    game = DotcombustGame(options={"players": 5, **options})
    rng = random.Random(3)
    dealt = 0
    for state in positions(game, 2, seed=4):
        for me in (0, 3):
            seed = rng.randrange(10**6)
            det = state.determinize(me, random.Random(seed))
            again = state.determinize(me, random.Random(seed))  # from the plan kept
            fresh = state.clone().determinize(me, random.Random(seed))
            for other in (again, fresh):
                assert (other.hands, other.weights, other.bans, other._searched_from) == (
                    det.hands, det.weights, det.bans, det._searched_from)
            assert det.hands[me] == state.hands[me] and det.hand_sizes == state.hand_sizes
            dealt += 1
    assert dealt > 50
