"""Common Carrier engine: hand-built boards with known answers, playouts, properties."""
from __future__ import annotations

import collections
import dataclasses
import itertools
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.errors import CardgenError, Location
from cardgen.games.base import TERMINAL, IllegalAction
from cardgen.games.common_carrier import (
    BASIC_PATTERNS,
    BOTTOM,
    GOOSE_MASK,
    LEFT,
    PBX_MASK,
    RIGHT,
    TOP,
    CommonCarrierGame,
    board,
    check_deck,
    game_from_deck,
    plays,
    policies,
    printing,
    rules,
    standard_printing,
    target_reachable,
    turned,
)
from cardgen.model import Back, Card, Deck, Edges, Player

LR, TB = LEFT | RIGHT, TOP | BOTTOM


def roomy_game(**options) -> CommonCarrierGame:
    """Plenty of every card, so boards can be built freely."""
    printed = [(m, False, 12, f"basic-{m}") for m in BASIC_PATTERNS]
    printed += [(PBX_MASK, True, 30, "pbx"), (GOOSE_MASK, True, 8, "goose")]
    return CommonCarrierGame(options=options, printed=[printed, printed], gray=[(30, 8), (30, 8)])


def take(state: rules.CommonCarrierState, player: int, mask: int) -> tuple[int, bool]:
    """An unused card of ``player`` showing ``mask`` (turned if need be)."""
    game = state.game
    for card in game.cards_of(player, mask):
        if card in state.decks[player]:
            state.decks[player].remove(card)  # put() or give_turn() places it
            return card, game.card_mask[card] != mask
    raise AssertionError(f"no card {mask} left")


def lay(state: rules.CommonCarrierState, player: int, cells: dict[tuple[int, int], int]) -> None:
    for (row, col), mask in cells.items():
        card, is_turned = take(state, player, mask)
        state.put(card, row, col, is_turned)


#: a path of 8 cards, 7 links: along row 2, down column 6, back left on row 4
SEVEN_LINK_PATH = {(2, 2): RIGHT, (2, 3): LR, (2, 4): LR, (2, 5): LR, (2, 6): LEFT | BOTTOM,
                   (3, 6): TB, (4, 6): TOP | LEFT, (4, 5): RIGHT}


# --- hand-built boards ----------------------------------------------------------

def test_seven_own_links_on_one_path_make_seven():
    state = roomy_game().empty_state()
    lay(state, 0, SEVEN_LINK_PATH)
    assert state.is_legal_board()
    assert state.value(0) == 7
    assert state.value(1) == 0
    assert state.own_links(0) == 7


def test_playing_the_seventh_link_wins_the_game():
    game = roomy_game(target=7)
    state = game.empty_state()
    cells = dict(SEVEN_LINK_PATH)
    last = cells.pop((4, 5))
    lay(state, 0, cells)
    card, is_turned = take(state, 0, last)
    filler, _ = take(state, 0, GOOSE_MASK)
    state.give_turn(0, [card, filler])
    action = tuple(sorted([(card, 4, 5, is_turned), (filler, 5, 4, False)]))
    assert action in state.legal_actions()
    state.apply_action(action)
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.returns() == [1.0, 0.0]


def test_a_second_path_with_fewer_of_your_links_saves_the_opponent():
    ring = {(2, 2): RIGHT | BOTTOM, (2, 3): LR, (2, 4): LEFT | BOTTOM, (3, 4): TB,
            (4, 4): TOP | LEFT, (4, 3): LR, (4, 2): RIGHT | TOP}
    state = roomy_game().empty_state()
    lay(state, 0, ring)
    assert state.is_legal_board() and state.value(0) == 6
    lay(state, 1, {(3, 2): TB})  # the rival closes the ring: a way round at no cost
    assert state.is_legal_board()
    assert state.value(0) == 3
    assert state.value(1) == 0


def test_pbx_in_the_middle_of_a_path_counts_for_either_player():
    state = roomy_game().empty_state()
    lay(state, 0, {(3, 2): RIGHT})
    lay(state, 0, {(3, 3): PBX_MASK})
    lay(state, 0, {(3, 4): LR, (3, 5): LEFT})
    assert state.is_legal_board()
    assert state.value(0) == 3
    other = roomy_game().empty_state()
    lay(other, 1, {(3, 2): RIGHT, (3, 4): LR, (3, 5): LEFT})
    lay(other, 0, {(3, 3): PBX_MASK})  # player 1's links through player 0's PBX
    assert other.value(1) == 3 and other.value(0) == 0


def test_two_pbx_side_by_side_link_for_both_players():
    state = roomy_game().empty_state()
    lay(state, 0, {(3, 3): PBX_MASK, (3, 4): PBX_MASK})
    assert state.value(0) == 1 and state.value(1) == 1


def test_goose_egg_has_no_links_and_blocks_a_path():
    state = roomy_game().empty_state()
    lay(state, 0, {(3, 2): RIGHT, (3, 3): LEFT, (3, 4): GOOSE_MASK, (3, 5): RIGHT, (3, 6): LEFT})
    assert state.is_legal_board()
    assert state.value(0) == 1
    blocked = roomy_game().empty_state()
    lay(blocked, 0, {(3, 3): LR, (3, 4): GOOSE_MASK})
    assert not blocked.is_legal_board()


def test_a_card_played_on_top_is_the_node():
    state = roomy_game().empty_state()
    lay(state, 0, {(3, 3): RIGHT, (3, 4): LEFT})
    assert state.value(0) == 1
    under = state.top_card(3, 4)
    lay(state, 1, {(3, 4): LEFT})
    assert state.stack(3, 4) == [under, state.top_card(3, 4)]
    assert state.value(0) == 0  # the link is now player 0 to player 1: nobody's
    # stacking through the rules: cover a card so the edges change
    game = roomy_game()
    state = game.empty_state()
    lay(state, 0, {(3, 3): RIGHT, (3, 4): LEFT})
    a, _ = take(state, 0, TB)
    b, _ = take(state, 0, TB)
    state.give_turn(0, [a, b])
    actions = state.legal_actions()
    covering = [x for x in actions if {(r, c) for _, r, c, _ in x} == {(3, 3), (3, 4)}]
    assert covering, "two cards may be laid over two others in one turn"


def test_mid_turn_inconsistency_is_fixed_by_the_second_card():
    # each card alone would leave a line facing a blank; together they agree
    game = roomy_game()
    state = game.empty_state()
    lay(state, 0, {(3, 3): RIGHT, (3, 4): LEFT})
    a, _ = take(state, 0, TB)
    b, _ = take(state, 0, TB)
    state.give_turn(0, [a, b])
    for action in state.legal_actions():
        assert len(action) == 2
    # no legal single placement of a TB card on (3, 3) exists, but the pair does
    trial = state.clone()
    trial.put(a, 3, 3)
    assert not trial.is_legal_board()
    state.apply_action(((a, 3, 3, False), (b, 3, 4, False)))
    assert state.is_legal_board()


def test_six_in_a_row_breaks_the_5x5_limit():
    state = roomy_game().empty_state()
    lay(state, 0, {(4, c): LR for c in range(1, 6)})
    assert state.is_legal_board()
    lay(state, 0, {(4, 6): LR})
    assert not state.is_legal_board()


def test_no_legal_play_stretches_the_area_beyond_5x5():
    game = roomy_game()
    state = game.empty_state()
    lay(state, 0, {(4, c): LR for c in range(2, 7)})
    a, _ = take(state, 0, LR)
    b, _ = take(state, 0, LR)
    state.give_turn(0, [a, b])
    actions = state.legal_actions()
    assert actions
    assert all(2 <= c <= 6 for x in actions for _, _, c, _ in x)


def test_corner_to_corner_contact_is_enough():
    state = roomy_game().empty_state()
    lay(state, 0, {(3, 3): RIGHT, (4, 4): LEFT})
    assert state.is_legal_board()
    apart = roomy_game().empty_state()
    lay(apart, 0, {(3, 3): RIGHT, (5, 4): LEFT})
    assert not apart.is_legal_board()


def test_mismatched_edges_are_rejected():
    game = roomy_game()
    state = game.empty_state()
    lay(state, 0, {(3, 3): RIGHT})
    a, _ = take(state, 0, TB)
    b, _ = take(state, 0, TB)
    state.give_turn(0, [a, b])
    assert all((3, 4) not in {(r, c) for _, r, c, _ in x} or (3, 3) in {(r, c) for _, r, c, _ in x}
               for x in state.legal_actions())
    with pytest.raises(IllegalAction, match="illegal play"):
        state.apply_action(((a, 3, 4, False), (b, 2, 4, False)))


def test_turned_card_swaps_top_with_bottom_and_left_with_right():
    assert turned(TOP | RIGHT) == BOTTOM | LEFT
    assert turned(TB) == TB and turned(turned(TOP | RIGHT | LEFT)) == TOP | RIGHT | LEFT
    game = roomy_game()
    state = game.empty_state()
    card = game.cards_of(0, TOP | RIGHT)[0]
    assert game.card_mask[card] == TOP | RIGHT
    state.put(card, 4, 4, True)
    assert state.mask[board.cell_of(4, 4)] == BOTTOM | LEFT


def test_first_card_of_the_game_goes_in_the_middle_and_the_second_touches_it():
    game = CommonCarrierGame()
    state = game.new_initial_state(random.Random(0))
    actions = state.legal_actions()
    assert actions and all((4, 4) in {(r, c) for _, r, c, _ in a} for a in actions)
    for action in actions:
        (_, r1, c1, _), (_, r2, c2, _) = action
        assert max(abs(r1 - r2), abs(c1 - c2)) == 1


def full_pbx_board(game: CommonCarrierGame) -> rules.CommonCarrierState:
    """A 5 x 5 of PBX: only another PBX fits anywhere; player 1 will draw two PBX."""
    state = game.empty_state()
    lay(state, 0, {(r, c): PBX_MASK for r in range(2, 7) for c in range(2, 7)})
    state.decks[1] = game.cards_of(1, PBX_MASK)[:2]
    return state


def test_a_player_who_cannot_play_shows_the_cards_and_they_are_discarded():
    game = roomy_game(target=20)
    state = full_pbx_board(game)
    eggs = [take(state, 0, GOOSE_MASK)[0] for _ in range(2)]
    state.give_turn(0, eggs)
    assert state.current_player() == 1
    assert state.phase == rules.PHASE_TURN  # the opponent could not use them either
    assert sorted(state.discards[0]) == sorted(eggs)


def test_shown_cards_are_placed_by_the_opponent_when_one_fits():
    game = roomy_game(target=20)
    state = full_pbx_board(game)
    egg = take(state, 0, GOOSE_MASK)[0]
    pbx = take(state, 0, PBX_MASK)[0]
    state.give_turn(0, [egg, pbx])  # the PBX fits anywhere, the egg nowhere: no full play
    assert state.current_player() == 1 and state.phase == rules.PHASE_HANDOVER
    actions = state.legal_actions()
    assert actions and all(len(a) == 1 and a[0][0] == pbx for a in actions)
    state.apply_action(actions[0])
    assert egg in state.discards[0]
    assert state.current_player() == 1 and state.phase == rules.PHASE_TURN


def test_if_both_reach_the_target_on_one_move_the_mover_wins():
    game = roomy_game(target=1)
    state = game.empty_state()
    lay(state, 1, {(3, 3): RIGHT, (2, 4): BOTTOM})
    lay(state, 0, {(3, 5): LEFT})
    assert state.is_legal_board()
    a, _ = take(state, 0, PBX_MASK)
    b, _ = take(state, 0, GOOSE_MASK)
    state.give_turn(0, [a, b])
    state.apply_action(((a, 3, 4, False), (b, 4, 5, False)))
    assert state.value(0) == 1 and state.value(1) == 2
    assert state.winners() == [0]


def test_tie_resolution_one_gives_the_game_to_the_longer_path():
    game = roomy_game(tie_resolution=1)
    state = game.empty_state()
    lay(state, 0, {(3, 3): RIGHT, (3, 4): LR, (3, 5): LEFT})
    lay(state, 1, {(5, 3): RIGHT, (5, 4): LEFT})
    state.decks = [[], []]
    state._end_by_tie_resolution()
    assert state.winners() == [0]
    plain = roomy_game().empty_state()
    lay(plain, 0, {(3, 3): RIGHT, (3, 4): LEFT})
    plain.decks = [[], []]
    plain._end_by_tie_resolution()
    assert plain.is_terminal() and plain.winners() == []


def test_tie_resolution_falls_back_to_most_own_links_then_to_a_tie():
    for rule in (1, 2):
        state = roomy_game(tie_resolution=rule).empty_state()
        # equal best paths (1 each), but player 1 has two separate links
        lay(state, 0, {(3, 3): RIGHT, (3, 4): LEFT})
        lay(state, 1, {(5, 3): RIGHT, (5, 4): LEFT, (5, 6): RIGHT, (5, 7): LEFT})
        state._end_by_tie_resolution()
        assert state.winners() == [1] and state.decided_by == "tie_resolution"
    even = roomy_game(tie_resolution=1).empty_state()
    lay(even, 0, {(3, 3): RIGHT, (3, 4): LEFT})
    lay(even, 1, {(5, 3): RIGHT, (5, 4): LEFT})
    even._end_by_tie_resolution()
    assert even.is_terminal() and even.winners() == []


def test_the_two_cards_of_a_turn_go_to_different_cells():
    game = roomy_game()
    state = game.empty_state()
    lay(state, 0, {(3, 3): RIGHT, (3, 4): LEFT})
    a, _ = take(state, 0, TB)
    b, _ = take(state, 0, LEFT)
    state.give_turn(0, [a, b])
    for action in state.legal_actions():
        assert action[0][1:3] != action[1][1:3]
    with pytest.raises(IllegalAction, match="used twice"):
        state.apply_action(((a, 3, 4, False), (b, 3, 4, False)))


def test_options_accept_command_line_strings_and_reject_bad_values():
    game = CommonCarrierGame(options={"target": "6", "hole_card": "true", "tie_resolution": "2"})
    assert game.target == 6 and game.hole_card is True and game.tie_resolution == 2
    with pytest.raises(CardgenError, match="target"):
        CommonCarrierGame(options={"target": "many"})
    with pytest.raises(CardgenError, match="from 1 to 20"):
        CommonCarrierGame(options={"target": 21})
    with pytest.raises(CardgenError, match=r"hole_card.*true or false"):
        CommonCarrierGame(options={"hole_card": "maybe"})
    with pytest.raises(CardgenError, match="unknown option 'colour'"):
        CommonCarrierGame(options={"colour": "red"})
    with pytest.raises(CardgenError, match=r"gray_pbx_1"):
        CommonCarrierGame(options={"gray_rule": True, "gray_pbx_1": 5})
    with pytest.raises(CardgenError, match=r"player 2 chooses 4 PBX and 0 goose eggs.*gray_pbx_2.*2 PBX and 2 goose"):
        CommonCarrierGame(options={"gray_rule": True, "gray_pbx_2": 4},
                          printed=[standard_printing(), [(m, g, c, s) for m, g, c, s in standard_printing()
                                                        if not g] + [(PBX_MASK, True, 2, "pbx"),
                                                                     (GOOSE_MASK, True, 2, "goose")]])


def test_hole_card_holds_three_cards_and_plays_two():
    game = CommonCarrierGame(options={"hole_card": True})
    state = game.new_initial_state(random.Random(4))
    assert len(state.hands[0]) == 3 and len(state.hands[1]) == 1
    state.apply_action(state.legal_actions()[0])
    assert len(state.hands[0]) == 1


def test_endgame_plays_one_card_per_turn_once_the_deck_is_empty():
    game = CommonCarrierGame(options={"endgame": True, "target": 20})
    state = game.new_initial_state(random.Random(2))
    rng = random.Random(2)
    seen_single = False
    while not state.is_terminal():
        if state.phase == rules.PHASE_TURN:
            assert state._level == (1 if not state.decks[state.player] else 2) or \
                len(state.hands[state.player]) == 1
            seen_single |= state._level == 1
        state.apply_action(game.random_action(state, state.player, rng))
    assert seen_single


def test_playing_for_stalemate_is_a_search_that_counts_a_tie_as_a_win():
    """docs/rules-readings.md, "Playing for stalemate": "Because the last player seems to have an
    advantage in 'playing for stalemate', when there are only two cards left in each player's hand,
    and none in their respective decks, each player only plays one card per turn." Read as the
    search with tie=1 on the last player's seat: a tie worth a win, the rival's path weighed first."""
    from cardgen.games.common_carrier.questions import CC_ENDGAME, CC_TIE
    from cardgen.search import _judged

    assert [run.seats("mcts:300") for _, run in CC_TIE] == [("mcts:300", "mcts:300:tie=1")] * 2
    assert [dict(run.options) for _, run in CC_TIE] == [dict(run.options) for _, run in CC_ENDGAME]
    game = CommonCarrierGame(options={"target": 4})
    state = game.new_initial_state(random.Random(7))
    rng = random.Random(8)
    judged = []
    while not state.is_terminal():
        if state.value(0) != state.value(1):
            usual = game.evaluate(state)
            tied = _judged(game, state, usual, (1, 1.0))
            r, m, t = state.value(0), state.value(1), game.target
            # the rival's path costs the tie-seeker 1/t a link, its own earns it r/(2t^2) a link
            assert tied[1] == pytest.approx(1 - r / t + m * r / (2 * t * t))
            judged.append(tied[1] >= usual[1])
        state.apply_action(game.greedy_action(state, state.player, rng))
    assert judged and all(judged)  # a tie-seeker never thinks a position worse than a player to win does
    assert game.tie_chance(state) == (0.0 if state.winners() else 1.0)


# --- playouts ------------------------------------------------------------------

OPTION_SETS = [{}, {"hole_card": True}, {"endgame": True, "tie_resolution": 1},
               {"hole_card": True, "endgame": True, "tie_resolution": 2, "target": 5},
               {"gray_rule": True, "gray_pbx_1": 4, "gray_pbx_2": 1, "target": 6}]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_random_playouts_keep_every_rule_at_every_step(options):
    game = CommonCarrierGame(options=options)
    total = [len(game.player_cards[p]) for p in (0, 1)]
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_initial_state(rng)
        while not state.is_terminal():
            for p in (0, 1):
                assert state.card_count(p) == total[p]
            assert state.is_legal_board()
            player = state.current_player()
            holding = state.pending if state.phase == rules.PHASE_HANDOVER else state.hands[player]
            assert holding, "whoever decides holds the cards to play"
            count = state.num_legal_actions()
            assert count >= 1
            if seed == 0:
                assert count == len(state.legal_actions())
            assert state.legal_actions(1 - player) == []
            state.apply_action(game.random_action(state, player, rng))
            assert state.moves <= 2 * sum(total)
        for p in (0, 1):
            assert state.card_count(p) == total[p]
        assert state.is_legal_board()
        if state.decided_by == "target":
            assert max(state.value(p) for p in (0, 1)) >= game.target
        else:
            assert not state.decks[0] and not state.decks[1]
            assert not state.hands[0] and not state.hands[1]


def test_the_same_seed_replays_the_same_game():
    game = CommonCarrierGame(options={"hole_card": True})

    def play(seed: int) -> list:
        rng = random.Random(seed)
        state = game.new_initial_state(rng)
        moves = []
        while not state.is_terminal():
            action = game.random_action(state, state.player, rng)
            moves.append(action)
            state.apply_action(action)
        return moves + [tuple(state.winners())]

    assert play(11) == play(11)
    assert play(11) != play(12)


def _after_random_moves(options: dict, seed: int, moves: int) -> tuple:
    """A game with ``options``, a seeded deal and ``moves`` random moves: (game, state, rng)."""
    game = CommonCarrierGame(options=options)
    rng = random.Random(seed)
    state = game.new_initial_state(rng)
    for _ in range(moves):
        state.apply_action(game.random_action(state, state.player, rng))
    return game, state, rng


def test_sampled_actions_cover_exactly_the_listed_ones():
    _, state, rng = _after_random_moves({}, 9, 8)
    listed = set(state.legal_actions())
    by_index = set()
    for weight, combo in state._combo_list():
        units = weight if combo[0] == "same" else weight // 2
        by_index |= {state._combo_action_at(combo, i) for i in range(units)}
    assert by_index == listed
    assert all(state.sample_action(rng) in listed for _ in range(200))


@pytest.mark.parametrize("options,seed,moves", [({}, 9, 8), ({}, 3, 14), ({"hole_card": True}, 5, 10)])
def test_sampled_actions_are_drawn_uniformly(options, seed, moves):
    """Every listed action turns up about equally often (a chi-square test far out in the tail)."""
    _, state, rng = _after_random_moves(options, seed, moves)
    listed = state.legal_actions()
    expected = 40
    seen = collections.Counter(state.sample_action(rng) for _ in range(expected * len(listed)))
    assert set(seen) == set(listed)
    chi2 = sum((seen[a] - expected) ** 2 / expected for a in listed)
    dof = len(listed) - 1
    assert chi2 < dof + 6 * (2 * dof) ** 0.5


def _none_apart_but_some_swapped(state: rules.CommonCarrierState, combo: tuple) -> bool:
    """Whether ``combo`` of two kinds has no placements apart while the pairing with the two
    orientation indices swapped has some (a draw once read the wrong one of the two)."""
    kind, a, ma, b, mb = combo
    masks = state.game.card_mask
    oa, ob = board._ORIENTATIONS[masks[a]], board._ORIENTATIONS[masks[b]]
    i, j = oa.index(ma), ob.index(mb)
    swapped = state._apart.get((oa[j], ob[i])) if j < len(oa) and i < len(ob) else None
    return kind == "two" and state._apart[(ma, mb)][0] == 0 and swapped is not None and swapped[0] > 0


@pytest.mark.parametrize("options", [{}, {"gray_rule": True, "endgame": True}])
def test_each_combination_counts_its_listed_plays_and_every_pick_draws_one_of_them(options):
    """The combinations' weights are twice the plays listed, and each pick ``_sample_pair`` is given
    (the index ``sample_action`` draws) lays one of the listed plays: the ones drawn near the board and
    apart, the ones counted out (each a different play), two cards of a kind, two kinds with none
    apart where the swapped pairing has some."""
    game = CommonCarrierGame(options=options)
    masks = game.card_mask
    seen = {"drawn apart": 0, "counted out": 0, "cards of a kind": 0, "two kinds, none apart beside some": 0}
    for g in range(1000):
        # every position of six games; after that, games until a rare case has been seen
        if g >= 6 and all(seen.values()):
            break
        rng = random.Random(f"fast:{g}")
        state = game.new_initial_state(rng)
        while not state.is_terminal():
            combos = state._combo_list()
            assert state._combo_total == sum(weight for weight, _ in combos)
            # two cards of a kind list each position once, under one of the two pairings of their
            # orientations: the combination's own count for two kinds or one card
            by_combo = [state._combo_actions(combo) for _, combo in combos]
            assert 2 * sum(len(actions) for actions in by_combo) == state._combo_total
            listed = {action for actions in by_combo for action in actions}
            assert len(listed) == state._combo_total // 2
            for (weight, combo), actions in zip(combos, by_combo):
                if combo[0] != "same":
                    assert 2 * len(actions) == weight
                if combo[0] == "one":
                    continue
                rare = _none_apart_but_some_swapped(state, combo)
                if g >= 6 and not rare:
                    continue
                kind, _, ma, _, mb = combo
                apart = (state._apart.get((ma, mb)) or state._apart[(mb, ma)])[0]
                seen["cards of a kind"] += kind == "same"
                seen["two kinds, none apart beside some"] += rare
                counted_out = []
                for pick in range(weight if kind == "same" else weight // 2):
                    seen["drawn apart" if pick < apart else "counted out"] += 1
                    place = state._sample_pair(combo, pick, random.Random(pick))
                    action = plays._placement_action(state, place, masks)
                    assert action in listed
                    if pick >= apart:
                        counted_out.append(action)
                if kind == "two":
                    assert len(set(counted_out)) == len(counted_out)
            state.apply_action(game.random_action(state, state.current_player(), rng))
    # the picks above reached every way a pick is drawn
    assert all(seen.values()), seen


def _brute_force_positions(state: rules.CommonCarrierState) -> set:
    """Every legal end-of-turn position, by trying every placement near the board."""
    game = state.game
    cards = state.pending if state.phase == rules.PHASE_HANDOVER else state.hands[state.player]
    region = board._near(board._near(state.occ or 1 << board.CENTER)) & board.INNER_SET
    cells = list(board._bits(region))
    found = set()
    for chosen in itertools.permutations(cards, state._level):
        for where in itertools.permutations(cells, state._level):
            if not state.occ and board.CENTER not in where:
                continue
            for flips in itertools.product((False, True), repeat=state._level):
                trial = state.clone()
                for card, cell, flip in zip(chosen, where, flips):
                    trial._put(card, cell, game._oriented(card, flip))
                if trial.is_legal_board():
                    found.add(frozenset((board.canonical(game.card_mask[c]), cell, game._oriented(c, f))
                                        for c, cell, f in zip(chosen, where, flips)))
    return found


@pytest.mark.parametrize("options,seed,moves", [({}, 1, 0), ({}, 2, 5), ({}, 3, 12), ({}, 4, 20),
                                                ({"hole_card": True}, 5, 9),
                                                ({"endgame": True}, 6, 30)])
def test_listed_actions_match_brute_force(options, seed, moves):
    game, state, _ = _after_random_moves(options, seed, moves)
    assert not state.is_terminal(), "pick a position before the game ends"
    listed = {frozenset((board.canonical(game.card_mask[c]), board.cell_of(r, col), game._oriented(c, t))
                        for c, r, col, t in a) for a in state.legal_actions()}
    assert len(listed) == state.num_legal_actions()
    assert listed == _brute_force_positions(state)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 30))
def test_every_sampled_play_leaves_a_legal_board(seed, steps):
    game = CommonCarrierGame()
    rng = random.Random(seed)
    state = game.new_initial_state(rng)
    for _ in range(steps):
        if state.is_terminal():
            break
        action = state.sample_action(rng)
        assert state._placement_legal(action)
        state.apply_action(action)
        assert state.is_legal_board()


@settings(max_examples=40, deadline=None)
@given(cells=st.dictionaries(st.tuples(st.integers(2, 6), st.integers(2, 6)),
                             st.sampled_from(sorted(set(BASIC_PATTERNS) | {PBX_MASK})),
                             min_size=1, max_size=12),
       owners=st.lists(st.integers(0, 1), min_size=12, max_size=12))
def test_best_path_value_is_bounded_by_own_links_and_symmetric_in_pbx(cells, owners):
    game = roomy_game()
    state = game.empty_state()
    for (cell, mask), owner in zip(sorted(cells.items()), owners):
        lay(state, owner, {cell: mask})
    for p in (0, 1):
        assert 0 <= state.value(p) <= state.own_links(p)
    assert state.value(0) == _value_by_enumeration(state, 0)


def _value_by_enumeration(state: rules.CommonCarrierState, player: int) -> int:
    """Max over pairs of the min own-link count, by Bellman-Ford over all cells."""
    nodes = [c for c in range(board.CELLS) if state.top[c] >= 0]
    edges = []
    for c in nodes:
        for side, step in ((1, 1), (2, board.W)):
            d = c + step
            if (state.top[d] >= 0 and state.mask[c] & board.SIDE_BITS[side]
                    and state.mask[d] & board.SIDE_BITS[board.OPPOSITE[side]]):
                own = (state.own[player] >> c) & 1 and (state.own[player] >> d) & 1
                edges.append((c, d, 1 if own else 0))
    best = 0
    for source in nodes:
        dist = {source: 0}
        for _ in nodes:
            for a, b, w in edges:
                for x, y in ((a, b), (b, a)):
                    if x in dist and dist[x] + w < dist.get(y, 1 << 30):
                        dist[y] = dist[x] + w
        best = max(best, max(dist.values()))
    return best


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 30),
       options=st.sampled_from([{}, {"gray_rule": True, "gray_pbx_1": 4, "gray_pbx_2": 1},
                                {"gray_rule": True, "hole_card": True}]))
def test_greedy_scores_every_play_as_if_it_were_laid(seed, steps, options):
    """The measure after a play, worked out from the current board, is the one measured from
    scratch on the board with the cards laid."""
    game = CommonCarrierGame(options={"target": 20, **options})
    rng = random.Random(seed)
    state = game.new_initial_state(rng)
    for _ in range(steps):
        if state.is_terminal():
            return
        state.apply_action(state.sample_action(rng))
    if state.is_terminal():
        return
    player = state.current_player()
    after = policies._AfterMove(state)
    for action in state.legal_actions():
        laid = state.clone()
        for card, r, c, t in action:
            laid._put(card, board.cell_of(r, c), game._oriented(card, t))
        measured = (laid.value(player), laid.value(1 - player))
        assert after.values(action, player) == measured
        if len(action) == 2:
            (a, ra, ca, ta), (b, rb, cb, tb) = action
            x, y = board.cell_of(ra, ca), board.cell_of(rb, cb)
            ma, mb = game._oriented(a, ta), game._oriented(b, tb)
            counts = game.card_counts
            place = (a, x, ma, b, y, mb)
            if y - x not in board._ORTH_STEPS:
                assert after.apart(place, player, x, counts[a], y, counts[b]) == measured
                ix, iy = after.both(x, counts[a]), after.both(y, counts[b])
                if ix is not None and iy is not None and not (ix[0] & iy[0] or ix[2] & iy[2]):
                    # greedy's shortcut for two cards apart on different groups
                    assert (max(after.best[player], ix[1], iy[1]),
                            max(after.best[1 - player], ix[3], iy[3])) == measured
            elif not (state.occ >> x) & 1 and not (state.occ >> y) & 1:
                key = (x, counts[a], y, counts[b], ma, mb) if x < y else (y, counts[b], x, counts[a], mb, ma)
                assert after.side_by_side(place, player, key) == measured



@pytest.mark.parametrize("options", [{}, {"gray_rule": True, "gray_pbx_1": 3, "gray_pbx_2": 2, "target": 5},
                                     {"hole_card": True, "target": 6}])
def test_greedy_plays_one_of_the_best_plays_by_laying_each(options):
    game = CommonCarrierGame(options=options)
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state(rng)
        while not state.is_terminal():
            player = state.current_player()
            scores = {}
            for action in state.legal_actions():
                laid = state.clone()
                for card, r, c, t in action:
                    laid._put(card, board.cell_of(r, c), game._oriented(card, t))
                mine, theirs = laid.value(player), laid.value(1 - player)
                scores[action] = (1000 if mine >= game.target else -1000 if theirs >= game.target
                                  else mine - theirs)
            chosen = game.greedy_action(state, player, rng)
            assert scores[chosen] == max(scores.values())
            state.apply_action(chosen)


def test_only_the_engines_own_draw_skips_the_check():
    _, state, rng = _after_random_moves({}, 4, 3)
    drawn = state.sample_action(rng)
    (card, r, c, t), second = drawn
    # an equal action built elsewhere is checked (and passes); a forged one is refused
    state.clone().apply_action((drawn[0], drawn[1]))
    with pytest.raises(IllegalAction):
        state.clone().apply_action(((card, r, c, t), (second[0], 0, 0, second[3])))
    # once the position changes, the drawn action is checked again
    moved = state.clone()
    moved.put(second[0], 0, 0)
    with pytest.raises(IllegalAction):
        moved.apply_action(drawn)
    state.apply_action(drawn)
    assert state.is_legal_board()


# --- decks -----------------------------------------------------------------------

def make_deck(options=None, drop=None, extra=()) -> Deck:
    cards = []
    for owner in (0, 1):
        for mask in BASIC_PATTERNS:
            if drop == (owner, mask):
                continue
            cards.append(Card(id=f"p{owner}-{mask}", kind="tile", copies=4, owner=owner,
                              fields={"edges": _edges(mask)}, location=Location("cc.yaml", 10 + mask)))
        cards.append(Card(id=f"p{owner}-pbx", kind="tile", copies=4, owner=owner,
                          fields={"edges": _edges(PBX_MASK), "gray": True}))
        cards.append(Card(id=f"p{owner}-goose", kind="tile", copies=4, owner=owner,
                          fields={"edges": _edges(GOOSE_MASK), "gray": True}))
    cards.extend(extra)
    return Deck(id="cc", name="Common Carrier", game="common-carrier", path=Path("decks/cc.yaml"),
                orientation="landscape",
                players=(Player("red", (1, 0, 0)), Player("blue", (0, 0, 1))), per_player=True,
                back=Back(), options=options or {}, cards=tuple(cards))


def _edges(mask: int) -> Edges:
    return Edges(top=bool(mask & TOP), right=bool(mask & RIGHT), bottom=bool(mask & BOTTOM),
                 left=bool(mask & LEFT))


def test_the_standard_deck_passes_its_checks_and_builds_a_game():
    deck = make_deck()
    assert check_deck(deck) == []
    game = game_from_deck(deck, {"target": "6"})
    assert game.target == 6 and len(game.player_cards[0]) == 32
    assert len(game_from_deck(deck, {"gray_rule": "true"}).player_cards[1]) == 36


def test_deck_checks_name_the_missing_pattern_and_too_many_gray_cards():
    findings = check_deck(make_deck(drop=(1, TOP | RIGHT)))
    assert any("player 2" in f.message and "top+right" in f.message for f in findings)
    assert all(f.deck == "decks/cc.yaml" for f in findings)
    few = make_deck(options={"gray_rule": True, "gray_pbx_2": 4})
    few = dataclasses.replace(few, cards=tuple(dataclasses.replace(c, copies=2) if c.fields.get("gray") else c
                                               for c in few.cards))
    findings = check_deck(few)
    assert any("gray_pbx_2" in f.message and "2 PBX and 2 goose eggs are printed" in f.message
               for f in findings)
    with pytest.raises(CardgenError, match="gray_pbx_1"):
        game_from_deck(few, {"gray_pbx_1": 0})


def test_deck_checks_flag_a_gray_card_with_some_edges():
    odd = Card(id="odd-gray", kind="tile", owner=0, fields={"edges": _edges(TOP), "gray": True},
               location=Location("cc.yaml", 40, 3))
    findings = check_deck(make_deck(extra=(odd,)))
    assert [f.card for f in findings] == ["odd-gray"]
    assert findings[0].location == Location("cc.yaml", 40, 3)


def test_the_target_is_shown_reachable_by_an_actual_layout():
    game = CommonCarrierGame(options={"target": 8})
    layout = printing.find_winning_layout(game, 0)
    assert layout is not None and len(layout) == 9
    state = game.empty_state()
    for card, r, c, t in layout:
        state.put(card, r, c, t)
    assert state.is_legal_board() and state.value(0) >= 8
    few = [(m, False, 1, f"b{m}") for m in BASIC_PATTERNS]
    small = CommonCarrierGame(options={"target": 8}, printed=[few, few])
    assert not target_reachable(small, 0)  # 8 cards cannot make 8 links


def test_the_rules_card_is_not_a_tile_and_needs_none_of_its_checks():
    rules = Card(id="reference", kind="reference", title="Common Carrier")
    assert check_deck(make_deck(extra=(rules,))) == []
    other = Card(id="promo", kind="generic", title="Promo")
    findings = check_deck(make_deck(extra=(other,)))
    assert [(f.card, f.severity) for f in findings] == [("promo", "warning")]


def test_an_unreachable_target_is_a_finding():
    cards = []
    for owner in (0, 1):
        for mask in BASIC_PATTERNS:
            cards.append(Card(id=f"p{owner}-{mask}", kind="tile", copies=1, owner=owner,
                              fields={"edges": _edges(mask)}))
    deck = make_deck().with_(cards=tuple(cards), options={"target": 8})
    findings = check_deck(deck)
    assert any("cannot make a path of 8" in f.message for f in findings)


def test_the_reference_card_says_what_the_engine_plays():
    from cardgen.deck import load_deck
    from cardgen.games.common_carrier import OPTION_SPECS, REFERENCE_READINGS

    card = next(c for c in load_deck("common-carrier").cards if c.kind == "reference")
    specs = {spec.name: spec for spec in OPTION_SPECS}
    by_condition: dict[str, list[str]] = {}
    for text, when, unless in card.lines:
        by_condition.setdefault(when, []).append(text)
        for condition in filter(None, (when, unless)):
            name, _, value = condition.partition("=")
            assert name in specs, f"the card's line depends on '{name}', which the engine does not have"
            if value:
                assert specs[name].parse(value) in (specs[name].choices or ()), condition
    for condition, phrases in REFERENCE_READINGS.items():
        lines = " ".join(by_condition.get(condition, []))
        for phrase in phrases:
            assert phrase in lines, f"the card does not say '{phrase}' for {condition or 'every game'}"


def test_the_basic_game_sets_the_gray_cards_aside():
    game = CommonCarrierGame()
    assert len(game.player_cards[0]) == len(game.player_cards[1]) == 32
    assert not any(game.card_pbx)


def test_with_the_gray_card_rule_each_player_chooses_their_own_four():
    game = CommonCarrierGame(options={"gray_rule": True, "gray_pbx_1": 3, "gray_pbx_2": 0})
    masks = [[game.card_mask[c] for c in game.player_cards[p] if game.card_mask[c] in (PBX_MASK, GOOSE_MASK)]
             for p in (0, 1)]
    assert sorted(masks[0]) == [GOOSE_MASK] + [PBX_MASK] * 3
    assert masks[1] == [GOOSE_MASK] * 4
    assert len(game.player_cards[0]) == len(game.player_cards[1]) == 36
    default = CommonCarrierGame(options={"gray_rule": True})
    assert default.gray == [(2, 2), (2, 2)]


def test_the_engine_without_a_deck_plays_the_bundled_deck():
    from cardgen.deck import bundled_decks, load_deck
    from cardgen.prepare import BuildSettings, prepare

    built = prepare(load_deck(bundled_decks()["common-carrier"]), BuildSettings())
    from_deck = game_from_deck(built, {"gray_rule": True})
    plain = CommonCarrierGame(options={"gray_rule": True})
    for player in (0, 1):
        assert sorted(plain.card_source[c] for c in plain.player_cards[player]) == \
            sorted(from_deck.card_source[c] for c in from_deck.player_cards[player])
    assert sorted(set(plain.card_source)) == sorted(c.id for c in built.cards if c.kind == "tile" and c.owner == 0)
