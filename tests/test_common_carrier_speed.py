"""Common Carrier's shortcuts for speed give the answers the slow, obvious ways give."""
from __future__ import annotations

import random

import pytest

from cardgen.games.base import IllegalAction
from cardgen.games.common_carrier import CommonCarrierGame, board, plays, rules


def positions(game: CommonCarrierGame, games: int, seed: int = 0):
    """Every position of a few seeded random games, as (state, rng)."""
    for g in range(games):
        rng = random.Random(f"{seed}:{g}")
        state = game.new_initial_state(rng)
        while not state.is_terminal():
            yield state, rng
            state.apply_action(game.random_action(state, state.current_player(), rng))


def fresh_listing(state: rules.CommonCarrierState) -> list[tuple]:
    """legal_actions() of a copy with every cache dropped, the boards remembered too."""
    forget_boards()
    copy = state.clone()
    copy._invalidate()
    return copy.legal_actions()


def forget_boards() -> None:
    """Drop what the engine remembers of the boards it has seen (plays.py, board.py)."""
    plays._BOARDS.clear()
    board._PATHS.clear()


@pytest.mark.parametrize("options", [{}, {"gray_rule": True, "hole_card": True}])
def test_a_dealt_again_position_lists_the_plays_a_fresh_one_lists(options):
    game = CommonCarrierGame(options=options)
    for i, (state, rng) in enumerate(positions(game, 3)):
        for searcher in (state.player, 1 - state.player):
            dealt = state.determinize(searcher, rng)
            assert dealt.legal_actions() == fresh_listing(dealt)
            if i % 7 == 0:
                action = rng.choice(dealt.legal_actions())
                dealt.apply_action(action)  # listed: applied without a check
                assert dealt.is_legal_board()


def test_an_action_not_listed_is_still_refused_once_the_plays_are_listed():
    game = CommonCarrierGame()
    for i, (state, rng) in enumerate(positions(game, 2)):
        if i % 5:
            continue
        listed = state.legal_actions()
        legal = set(listed)
        (card, r, c, t), *rest = rng.choice(listed)
        for moved in ((card, r, c + 9, t), (card, r + 1, c, t), (card, r - 1, c + 1, t)):
            wrong = (moved, *rest)
            if tuple(sorted(wrong)) not in legal:  # the same play in either order is legal
                with pytest.raises(IllegalAction):
                    state.clone().apply_action(wrong)
        with pytest.raises(IllegalAction):
            state.clone().apply_action(["not", "a", "play"])


def test_a_board_seen_before_answers_what_a_board_worked_out_anew_answers():
    """The plays, their count, whether there is one, the checks of single plays and the win
    measure of a board met again come from what the engine remembers of it (as in a search, which
    meets each board in thousands of deals); they are what the board worked out from nothing gives."""
    game = CommonCarrierGame(options={"gray_rule": True, "hole_card": True})
    checked = met_again = 0
    for state, rng in positions(game, 4, seed=5):
        for searcher in (state.player, 1 - state.player):
            dealt = state.determinize(searcher, rng)
            listed = dealt.legal_actions()
            tries = [rng.choice(listed) for _ in range(3)] if listed else []
            # the same plays with a card moved by a cell: some legal, most not
            tries += [((card, r + 1, c, t), *rest) for (card, r, c, t), *rest in tries]
            remembered = plays._BOARDS.get((dealt.occ, *dealt.line)) is not None
            met_again += remembered
            seen = (listed, dealt.num_legal_actions(), dealt._has_play(),
                    [dealt.is_legal(dealt.player, a) for a in tries], dealt.value(0), dealt.value(1))
            forget_boards()
            anew = dealt.clone()
            anew._invalidate()
            assert (anew.legal_actions(), anew.num_legal_actions(), anew._has_play(),
                    [anew.is_legal(anew.player, a) for a in tries], anew.value(0), anew.value(1)) == seen
            checked += 1
    assert checked > 200 and met_again > 100


def test_the_count_stops_at_the_first_play_but_says_what_the_whole_count_says():
    """``_has_play`` (the turn flow asks only whether a hand can be played) agrees with counting
    every combination, for every pair of patterns in hand, on boards of random games and on a
    5 x 5 square of goose eggs, where a card with a line has nowhere to go (with a PBX in it, which
    no card may cover); its plays seen at a
    glance (``_surely_playable``: open cells, cards on top of lookalikes) are plays the count finds."""
    game = CommonCarrierGame(options={"gray_rule": True})
    kinds = [game.cards_of(0, mask)[:2] for mask in (*board.BASIC_PATTERNS, board.PBX_MASK, board.GOOSE_MASK)]
    walled = game.empty_state()
    egg = game.cards_of(1, board.GOOSE_MASK)[0]
    for r in range(2, 7):
        for c in range(2, 7):
            walled.put(egg, r, c)
    # and one a rule breaks (set up by hand): a PBX among the eggs, disagreeing with all four
    broken = walled.clone()
    broken.put(game.cards_of(1, board.PBX_MASK)[0], 4, 4)
    boards = [state.clone() for i, (state, _) in enumerate(positions(game, 3, seed=2)) if i % 4 == 0]
    stuck = seen = missed = 0
    for state in [walled, broken, *boards]:
        for x, first in enumerate(kinds):
            for second in kinds[x:]:
                copy = state.clone()
                copy.player, copy.phase, copy._level = 0, rules.PHASE_TURN, 2
                copy.hands[0] = [first[0], second[1 if second is first else 0]]
                copy._invalidate()
                forget_boards()
                glance = copy._surely_playable(*copy.hands[0])
                quick = copy._has_play()
                copy._remember = True  # as in a search's deal: the glance first
                copy._invalidate()
                searched = copy._has_play()
                copy._combos = None
                whole = bool(copy._combo_list())
                assert quick == searched == whole and (whole or not glance)
                stuck += not whole
                seen += glance
                missed += whole and not glance
    assert stuck > 5 and seen > 100 and missed > 5


# --- the runner's all-random game, played out whole by the engine ----------------

PLAYOUT_OPTIONS = [{}, {"hole_card": True}, {"endgame": True, "tie_resolution": 1},
                   {"gray_rule": True, "gray_pbx_1": 4, "gray_pbx_2": 1, "target": 5},
                   {"hole_card": True, "endgame": True, "tie_resolution": 2, "target": 6}]


def outcome(game: CommonCarrierGame, state: rules.CommonCarrierState) -> tuple:
    """Everything a playtest reads from a finished (or cut off) game, and where every card is."""
    return (state.moves, state.finished, state.winners(), state.returns(), state.decided_by,
            game.metrics(state), state.placed, state.placed_cells, state.decks, state.hands,
            state.discards, state.pending, state.cards_played(), state.cards_held(), str(state))


def checked_game(game: CommonCarrierGame, seed: int, max_moves: int = 10_000) -> tuple:
    """The game of ``seed`` move by move as the runner plays it, each drawn action applied as a copy
    (so the engine checks it) and found among the listed ones: (state, branching)."""
    rng = random.Random(seed)
    state = game.new_initial_state(random.Random(seed))
    branching = []
    while not state.is_terminal() and state.moves < max_moves:
        branching.append(state.num_legal_actions(state.player))
        drawn = game.random_action(state, state.player, rng)
        assert drawn in state.clone().legal_actions()
        state.apply_action(list(drawn))  # not the drawn object: checked
        assert state.is_legal_board()
    return state, branching


def played_out(game: CommonCarrierGame, seed: int, max_moves: int = 10_000) -> tuple:
    state = game.new_initial_state(random.Random(seed))
    branching: list[int] = []
    moves = game.random_playout(state, random.Random(seed), max_moves, branching)
    return state, branching, moves


@pytest.mark.parametrize("options", PLAYOUT_OPTIONS)
def test_a_playout_plays_the_game_the_checked_runner_plays(options):
    game = CommonCarrierGame(options=options)
    for seed in range(8):
        state, branching, moves = played_out(game, seed)
        checked, counted = checked_game(game, seed)
        assert state.is_terminal() and moves == state.moves
        assert outcome(game, state) == outcome(game, checked)
        assert branching == counted


def test_a_playout_counts_what_the_position_lists():
    game = CommonCarrierGame(options={"gray_rule": True})
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_initial_state(random.Random(seed))
        while not state.is_terminal():
            listed = len(fresh_listing(state))
            branching: list[int] = []
            game.random_playout(state, rng, 1, branching)
            assert branching == [listed]


def test_a_playout_stops_after_max_moves_and_goes_on_where_it_stopped():
    game = CommonCarrierGame()
    whole, whole_branching, _ = played_out(game, 3)
    assert whole.moves > 12
    rng = random.Random(3)
    state = game.new_initial_state(random.Random(3))
    branching: list[int] = []
    assert game.random_playout(state, rng, 12, branching) == 12
    assert not state.is_terminal() and state.moves == 12 and len(branching) == 12
    cut, _ = checked_game(game, 3, max_moves=12)
    assert outcome(game, state) == outcome(game, cut)
    assert game.random_playout(state, rng, 0, branching) == 0
    game.random_playout(state, rng, 10_000, branching)
    assert outcome(game, state) == outcome(game, whole) and branching == whole_branching


def test_the_same_seed_plays_out_the_same_game():
    game = CommonCarrierGame(options={"hole_card": True})
    first, second, other = played_out(game, 11), played_out(game, 11), played_out(game, 12)
    assert outcome(game, first[0]) == outcome(game, second[0]) and first[1:] == second[1:]
    assert outcome(game, first[0]) != outcome(game, other[0])


def test_the_win_measure_is_the_longest_of_the_distances_the_greedy_player_reads():
    game = CommonCarrierGame(options={"gray_rule": True, "target": 20})
    seen = stopped = 0
    for state, _ in positions(game, 4):
        line = state.line
        hl, vl = line[1] & (line[3] >> 1), line[2] & (line[0] >> board.W)
        for player in (0, 1):
            own = state.own[player]
            hp, vp = hl & own & (own >> 1), vl & own & (own >> board.W)
            _root, adjacent = board._link_graph(hl, vl, hp, vp)
            longest = max((board._reach(adjacent, node)[0] for node in adjacent), default=0)
            assert board._best_path(hl, vl, own) == longest
            # asked only whether it reaches ``need``: exact from there, any number below it else
            for need in range(1, 9):
                short = board._best_path(hl, vl, own, need)
                assert short == longest if longest >= need else short < need
                stopped += short != longest
            seen += longest > 2
    assert seen > 10 and stopped > 10


@pytest.mark.parametrize("options", [{}, {"endgame": True, "tie_resolution": 1, "target": 5},
                                     {"hole_card": True, "tie_resolution": 2},
                                     {"gray_rule": True, "gray_pbx_1": 4, "gray_pbx_2": 0, "target": 6}])
def test_the_heuristic_one_move_ahead_is_that_of_each_play_laid(options):
    """The search's ranking reads greedy's scores where the play wins or the game surely goes on,
    and lays the rest: the same heuristic as laying every play, also where the cards run out."""
    game = CommonCarrierGame(options=options)
    glanced = ended = 0
    for state, _ in positions(game, 3, seed=4):
        player = state.current_player()
        hand = state._next_hand()
        laid = []
        for action in state.legal_actions():
            trial = state.clone()
            trial.apply_action(action)
            laid.append(game.heuristic(trial, player))
            ended += trial.finished and trial.decided_by != "target"
            glanced += hand is not None and state._surely_goes_on(action, hand)
        assert game.heuristics_ahead(state.clone(), player) == laid
    assert glanced > 100
    assert ended > 0 or not (options.get("endgame") or options.get("tie_resolution"))


def test_the_win_measure_of_groups_with_and_without_loops_is_the_longest_distance():
    """Two sweeps measure a group without a loop; a group with one is measured from every node:
    either way the longest of the distances, on random links of a 5 x 5 area (loops many)."""
    rng = random.Random(8)
    area = [board.cell_of(r, c) for r in range(2, 7) for c in range(2, 7)]
    looped = 0
    for _ in range(400):
        hl = sum(1 << cell for cell in area if rng.random() < 0.6 and cell + 1 in area)
        vl = sum(1 << cell for cell in area if rng.random() < 0.6 and cell + board.W in area)
        own = sum(1 << cell for cell in area if rng.random() < 0.7)
        hp, vp = hl & own & (own >> 1), vl & own & (own >> board.W)
        _root, adjacent = board._link_graph(hl, vl, hp, vp)
        longest = max((board._reach(adjacent, node)[0] for node in adjacent), default=0)
        assert board._best_path(hl, vl, own) == longest
        links = sum(bin(n).count("1") for n in adjacent.values()) // 2
        groups = len({board._reach(adjacent, node)[1] for node in adjacent})
        looped += links > len(adjacent) - groups
    assert 50 < looped < 350
