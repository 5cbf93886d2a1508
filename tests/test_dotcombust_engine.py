"""dotCOMbust engine and deck checks, read against the original rules."""
from __future__ import annotations

import dataclasses
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.deck import load_deck
from cardgen.errors import CardgenError, Location
from cardgen.games.base import SIMULTANEOUS, TERMINAL, IllegalAction
from cardgen.games.dotcombust.assets import bundled_assets
from cardgen.games.dotcombust.policies import DotcombustGame
from cardgen.games.dotcombust.printing import check_deck, game_from_deck
from cardgen.games.dotcombust.rules import NOTHING_TO_SHOW, SIT_OUT, Pass, Show, parse_options
from cardgen.model import Back, Card, Deck

SMALL = {"Server Farm": 5, "Domain Name": 3, "Foosball Table": 4, "Aeron Chairs": 6,
         "Source Code": 2}
SF, DN, FT, AC, SC = range(5)
#: the bundled deck's assets, {name: part names}: what DotcombustGame() plays with
BUNDLED_ASSETS = bundled_assets()
BUNDLED_SIZES = [len(parts) for parts in BUNDLED_ASSETS.values()]


def small_game(players: int = 3, **options) -> DotcombustGame:
    return DotcombustGame(players, options=options, assets=SMALL)


def down(*assets: int) -> Pass:
    return Pass(tuple(assets), False)


def up(*assets: int) -> Pass:
    return Pass(tuple(assets), True)


def show(asset: int) -> Show:
    return Show(asset, True)


def keep(asset: int) -> Show:
    return Show(asset, False)


def counts(state, player: int) -> dict[str, int]:
    names = state.game.asset_names
    return {names[a]: c for a, c in enumerate(state.hands[player]) if c}


def random_playout(game, seed: int, max_turns: int = 2000, check=None):
    rng = random.Random(seed)
    state = game.new_initial_state(rng)
    history = []
    while not state.is_terminal() and state.turn < max_turns:
        joint = tuple(rng.choice(state.legal_actions(p)) for p in range(game.num_players))
        history.append(joint)
        state.apply_action(joint)
        if check:
            check(state)
    return state, history


def assert_cards_conserved(state) -> None:
    game = state.game
    for a, size in enumerate(game.asset_sizes):
        in_hands = sum(hand[a] for hand in state.hands)
        shown = sum(size for s in state.shown for x in s if x == a)
        assert in_hands + shown == size, game.asset_names[a]
        assert all(hand[a] >= 0 for hand in state.hands)
        if state.is_terminal():
            assert all(hand[a] < size for hand in state.hands), "complete assets are shown at the end"
    for p, assets in enumerate(state.pending):
        assert all(state.hands[p][a] == game.asset_sizes[a] for a in assets)
    assert state.hand_sizes == [sum(h) for h in state.hands]
    assert state.points == [sum(game.asset_sizes[a] - 1 for a in s) for s in state.shown]


# -- options -------------------------------------------------------------------


def test_options_accept_command_line_strings():
    opts = parse_options({"players": "6", "no_tagbacks": "true", "bitter_end": "no",
                          "both_barrels": "1", "assets": "10", "turn_limit": "300"})
    assert opts == {"players": 6, "no_tagbacks": True, "bitter_end": False,
                    "both_barrels": True, "assets": 10, "turn_limit": 300}


def test_options_default_to_four_players_all_assets_and_no_optional_rules():
    game = DotcombustGame()
    assert game.num_players == 4
    assert game.total_cards == 80 and len(game.asset_names) == 16
    assert not (game.no_tagbacks or game.bitter_end or game.both_barrels)


def test_the_engine_without_a_deck_plays_the_bundled_decks_assets():
    # one source of the deck: no stand-in table in the engine
    deck = load_deck("dotcombust")
    from_deck = game_from_deck(deck, deck.options)
    game = DotcombustGame()
    assert game.asset_names == from_deck.asset_names
    assert game.asset_sizes == from_deck.asset_sizes
    assert game.part_names == from_deck.part_names
    assert game.part_names[0] == tuple(deck.cards[0].fields["parts"])
    assert dict(zip(game.asset_names, game.part_names)) == BUNDLED_ASSETS


def test_the_bundled_assets_are_read_once_and_not_shared(monkeypatch):
    import cardgen.deck

    bundled_assets()

    def read_again(name):
        raise AssertionError(f"the bundled deck was read again: {name}")

    monkeypatch.setattr(cardgen.deck, "load_deck", read_again)
    bundled_assets()["Server Farm"] = ("changed",)
    assert bundled_assets() == BUNDLED_ASSETS
    assert DotcombustGame().asset_names == tuple(BUNDLED_ASSETS)


def test_unknown_option_is_refused_by_name():
    with pytest.raises(CardgenError, match="unknown option 'tagbacks'"):
        DotcombustGame(options={"tagbacks": True})


@pytest.mark.parametrize("value", [2, 13, "four", "", 4.5, True])
def test_players_must_be_3_to_12(value):
    with pytest.raises(CardgenError, match="option 'players' must be a whole number from 3 to 12"):
        DotcombustGame(options={"players": value})


def test_bool_options_name_allowed_values():
    with pytest.raises(CardgenError, match="option 'bitter_end' must be true or false, got 'maybe'"):
        DotcombustGame(options={"bitter_end": "maybe"})


def test_smaller_deck_keeps_the_first_assets():
    game = DotcombustGame(options={"assets": "3"})
    assert game.asset_names == tuple(list(BUNDLED_ASSETS)[:3])
    assert game.total_cards == sum(BUNDLED_SIZES[:3])


def test_smaller_deck_cannot_keep_more_assets_than_there_are():
    with pytest.raises(CardgenError, match="option 'assets' must be at most 16"):
        DotcombustGame(options={"assets": 17})


def test_deck_too_small_for_the_players_is_refused():
    with pytest.raises(CardgenError, match="2 cards each"):
        DotcombustGame(options={"players": 12, "assets": 2})


# -- setup and turn order ----------------------------------------------------------


def test_whole_deck_is_dealt_and_the_first_seats_get_the_extra_card():
    state = DotcombustGame(3).new_initial_state(random.Random(1))
    assert sum(state.hand_sizes) + sum(
        state.game.asset_sizes[a] for s in state.shown for a in s) == 80
    dealt = [sum(h) + sum(state.game.asset_sizes[a] for a in s)
             for h, s in zip(state.hands, state.shown)]
    assert dealt == [27, 27, 26]


def test_an_asset_complete_in_the_deal_is_decided_before_the_first_turn():
    state = small_game().state_from_hands(
        [{"Source Code": 2, "Server Farm": 2}, {"Domain Name": 2}, {"Aeron Chairs": 3}])
    assert state.turn == 0 and state.shown[0] == [] and state.points[0] == 0
    assert state.legal_actions(0) == [show(SC), keep(SC)]
    assert state.legal_actions(1) == state.legal_actions(2) == [NOTHING_TO_SHOW]
    state.apply_action((show(SC), NOTHING_TO_SHOW, NOTHING_TO_SHOW))
    assert state.shown[0] == [SC] and state.points[0] == 1
    assert counts(state, 0) == {"Server Farm": 2}
    assert state.turn == 0 and down(SF) in state.legal_actions(0)


def test_pass_offset_cycles_one_to_n_minus_one_and_never_to_yourself():
    game = DotcombustGame(4)
    assert [game.offset(t) for t in range(7)] == [1, 2, 3, 1, 2, 3, 1]
    state = game.new_initial_state(random.Random(0))
    assert [state.opponent(p) for p in range(4)] == [1, 2, 3, 0]


def test_everyone_plays_every_turn():
    state = DotcombustGame(5).new_initial_state(random.Random(2))
    assert state.current_player() == SIMULTANEOUS
    assert all(state.legal_actions(p) for p in range(5))
    with pytest.raises(ValueError, match="simultaneous"):
        state.legal_actions()


def test_a_play_is_one_or_two_cards_of_one_asset_both_up_or_both_down():
    state = small_game().state_from_hands(
        [{"Server Farm": 2, "Domain Name": 1}, {"Foosball Table": 2}, {"Aeron Chairs": 2}])
    assert state.legal_actions(0) == [down(SF), up(SF), down(SF, SF), up(SF, SF),
                                      down(DN), up(DN)]


def test_a_play_must_be_legal():
    state = small_game().state_from_hands(
        [{"Server Farm": 2}, {"Foosball Table": 2}, {"Aeron Chairs": 2}])
    with pytest.raises(ValueError, match="player 0 cannot play"):
        state.apply_action((down(DN), up(FT), up(AC)))
    with pytest.raises(ValueError, match="one play per player"):
        state.apply_action((down(SF), up(FT)))


# -- the four answers (3 players, turn 0: 0 passes to 1, 1 to 2, 2 to 0) -------------
# Players 1 and 2 make "quiet" plays: one card face up to someone without that asset.


def four_case_state(p0: dict, p1: dict):
    return small_game().state_from_hands([p0, p1, {"Aeron Chairs": 3}])


def play_turn_zero(state, p0_play, p1_play=None):
    p1_play = p1_play or up(FT)
    state.apply_action((p0_play, p1_play, up(AC)))
    return state


def test_one_face_down_to_a_holder_comes_back_with_one_other_part():
    state = four_case_state({"Server Farm": 2, "Domain Name": 1},
                            {"Server Farm": 2, "Foosball Table": 2})
    play_turn_zero(state, down(SF))
    assert counts(state, 0) == {"Server Farm": 3, "Domain Name": 1}
    assert counts(state, 1) == {"Server Farm": 1, "Foosball Table": 2}


def test_one_face_down_to_a_non_holder_is_kept():
    state = four_case_state({"Server Farm": 2, "Domain Name": 1}, {"Foosball Table": 2})
    play_turn_zero(state, down(SF))
    assert counts(state, 0) == {"Server Farm": 1, "Domain Name": 1}
    assert counts(state, 1) == {"Server Farm": 1, "Foosball Table": 2}


def test_two_face_down_to_a_holder_come_back_with_all_their_parts():
    state = four_case_state({"Server Farm": 2, "Domain Name": 1},
                            {"Server Farm": 2, "Foosball Table": 2})
    play_turn_zero(state, down(SF, SF))
    assert counts(state, 0) == {"Server Farm": 4, "Domain Name": 1}
    assert counts(state, 1) == {"Foosball Table": 2}


def test_two_face_down_to_a_non_holder_are_both_kept():
    state = four_case_state({"Server Farm": 2, "Domain Name": 1}, {"Foosball Table": 2})
    play_turn_zero(state, down(SF, SF))
    assert counts(state, 0) == {"Domain Name": 1}
    assert counts(state, 1) == {"Server Farm": 2, "Foosball Table": 2}


def test_one_face_up_to_a_holder_comes_back_with_one_other_part():
    state = four_case_state({"Server Farm": 1, "Domain Name": 1},
                            {"Server Farm": 3, "Foosball Table": 2})
    play_turn_zero(state, up(SF))
    assert counts(state, 0) == {"Server Farm": 2, "Domain Name": 1}
    assert counts(state, 1) == {"Server Farm": 2, "Foosball Table": 2}


def test_one_face_up_to_a_non_holder_just_comes_back():
    state = four_case_state({"Server Farm": 1, "Domain Name": 1}, {"Foosball Table": 2})
    play_turn_zero(state, up(SF))
    assert counts(state, 0) == {"Server Farm": 1, "Domain Name": 1}
    assert counts(state, 1) == {"Foosball Table": 2}


def test_two_face_up_to_a_holder_come_back_with_all_their_parts():
    state = four_case_state({"Server Farm": 2, "Domain Name": 1},
                            {"Server Farm": 2, "Foosball Table": 2})
    play_turn_zero(state, up(SF, SF))
    assert counts(state, 0) == {"Server Farm": 4, "Domain Name": 1}
    assert counts(state, 1) == {"Foosball Table": 2}


def test_two_face_up_to_a_non_holder_lose_only_one():
    state = four_case_state({"Server Farm": 2, "Domain Name": 1}, {"Foosball Table": 2})
    play_turn_zero(state, up(SF, SF))
    assert counts(state, 0) == {"Server Farm": 1, "Domain Name": 1}
    assert counts(state, 1) == {"Server Farm": 1, "Foosball Table": 2}


def test_cards_being_passed_are_not_in_the_hand_and_cannot_be_taken():
    # player 1's only Server Farm is on its way to player 2, so player 0's
    # face-up Server Farm finds no holder and simply comes back
    state = four_case_state({"Server Farm": 1, "Domain Name": 1},
                            {"Server Farm": 1, "Foosball Table": 2})
    play_turn_zero(state, up(SF), down(SF))
    assert counts(state, 0) == {"Server Farm": 1, "Domain Name": 1}
    assert counts(state, 1) == {"Foosball Table": 2}
    assert counts(state, 2) == {"Server Farm": 1, "Aeron Chairs": 3}


def test_cards_coming_back_this_turn_cannot_be_taken_either():
    # player 0 sends its only Server Farm up to player 1 (a holder) while
    # player 2 sends one face down to player 0: player 0 holds none right now,
    # so it keeps player 2's card, and gets its own back with one more
    state = small_game().state_from_hands(
        [{"Server Farm": 1, "Domain Name": 1}, {"Server Farm": 1, "Domain Name": 1},
         {"Server Farm": 2, "Aeron Chairs": 2}])
    state.apply_action((up(SF), up(DN), down(SF)))
    assert counts(state, 0) == {"Server Farm": 3, "Domain Name": 1}
    assert counts(state, 1) == {"Domain Name": 1}
    assert counts(state, 2) == {"Server Farm": 1, "Aeron Chairs": 2}


def test_order_of_seats_does_not_change_the_answers():
    # two players pass the same asset to each other (4 players, offset 2)
    game = DotcombustGame(4, assets=SMALL)
    state = game.state_from_hands(
        [{"Server Farm": 2, "Domain Name": 1}, {"Foosball Table": 2},
         {"Server Farm": 2, "Aeron Chairs": 1}, {"Aeron Chairs": 2}], turn=1)
    assert state.opponent(0) == 2 and state.opponent(2) == 0
    state.apply_action((up(SF), up(FT), up(SF), up(AC)))
    assert counts(state, 0) == {"Server Farm": 2, "Domain Name": 1}
    assert counts(state, 2) == {"Server Farm": 2, "Aeron Chairs": 1}


# -- completing assets, ending, winning -----------------------------------------------


def completed_server_farm():
    """Player 0 completes the Server Farm (5 parts) on turn 0 and holds 2 Domain Names."""
    state = four_case_state({"Server Farm": 4, "Domain Name": 2},
                            {"Server Farm": 1, "Foosball Table": 2})
    return play_turn_zero(state, down(SF))


def test_completing_an_asset_asks_its_holder_to_show_or_keep_it():
    # "When you complete a set, you may show it immediately ... or keep it in your hand"
    state = completed_server_farm()
    assert counts(state, 0) == {"Server Farm": 5, "Domain Name": 2}
    assert state.turn == 1 and state.current_player() == SIMULTANEOUS
    assert state.legal_actions(0) == [show(SF), keep(SF)]
    assert state.legal_actions(1) == state.legal_actions(2) == [NOTHING_TO_SHOW]
    assert state.shown[0] == [] and state.points[0] == 0
    with pytest.raises(IllegalAction, match="cannot play"):  # no passing until everyone has decided
        state.apply_action((up(DN), up(FT), up(AC)))


def test_a_shown_asset_is_laid_down_and_scores_one_less_than_its_parts():
    state = completed_server_farm()
    state.apply_action((show(SF), NOTHING_TO_SHOW, NOTHING_TO_SHOW))
    assert state.shown[0] == [SF] and state.points[0] == 4
    assert counts(state, 0) == {"Domain Name": 2} and state.hand_sizes[0] == 2
    assert not state.is_terminal() and state.turn == 1
    assert state.legal_actions(0) == [down(DN), up(DN), down(DN, DN), up(DN, DN)]


def test_a_kept_asset_stays_in_the_hand_and_scores_only_at_the_end():
    # "Note that you can show your points at the end of the game as well"
    state = completed_server_farm()
    state.apply_action((keep(SF), NOTHING_TO_SHOW, NOTHING_TO_SHOW))
    assert state.shown[0] == [] and state.points[0] == 0
    assert counts(state, 0) == {"Server Farm": 5, "Domain Name": 2} and state.hand_sizes[0] == 7
    # turn 1 (offset 2): player 1 gives its two Foosball Tables to player 0, the game ends
    state.apply_action((up(DN), down(FT, FT), up(AC)))
    assert state.ended_by == "empty hand" and counts(state, 1) == {}
    # everyone shows the sets they completed: the kept Server Farm scores now
    assert state.shown[0] == [SF] and state.points[0] == 4 and state.kept_to_end == [1, 0, 0]
    metrics = state.game.metrics(state)
    assert not metrics["ended_on_show"] and metrics["completed"] == metrics["kept_to_end"] == 1
    assert counts(state, 0) == {"Domain Name": 2, "Foosball Table": 2}
    assert state.winners() == [0]


def test_a_kept_asset_cannot_be_shown_later_in_the_game():
    # "show it immediately ... or keep it": the choice comes once, when the set is completed
    state = completed_server_farm()
    state.apply_action((keep(SF), NOTHING_TO_SHOW, NOTHING_TO_SHOW))
    state.apply_action((up(DN), up(FT), up(AC)))
    assert not state.deciding()
    assert all(isinstance(play, Pass) for p in range(3) for play in state.legal_actions(p))


def test_a_kept_assets_parts_are_ordinary_cards_of_the_hand():
    # a kept set is "in your hand": its parts may be passed like any others;
    # face up to a player without it (nobody else holds a part) it simply comes back
    state = completed_server_farm()
    state.apply_action((keep(SF), NOTHING_TO_SHOW, NOTHING_TO_SHOW))
    for play in (down(SF), up(SF), down(SF, SF), up(SF, SF)):
        assert play in state.legal_actions(0)
    state.apply_action((up(SF), up(FT), up(AC)))
    assert counts(state, 0) == {"Server Farm": 5, "Domain Name": 2}
    assert not state.deciding(), "a set that never left the hand is not completed again"


def test_passing_a_part_away_breaks_a_kept_asset_and_completing_it_again_asks_again():
    state = completed_server_farm()
    state.apply_action((keep(SF), NOTHING_TO_SHOW, NOTHING_TO_SHOW))
    # turn 1 (offset 2): player 0 passes to player 2, who holds no Server Farm and keeps it
    state.apply_action((down(SF), up(FT), up(AC)))
    assert counts(state, 0) == {"Server Farm": 4, "Domain Name": 2}
    assert counts(state, 2) == {"Server Farm": 1, "Aeron Chairs": 3}
    assert not state.deciding()
    # turn 2 (offset 1): player 2 passes it on to player 0 face down; player 0 holds
    # Server Farms, so it passes player 2's card back plus one of its own
    state.apply_action((up(DN), up(FT), down(SF)))
    assert counts(state, 2)["Server Farm"] == 2 and not state.deciding()
    # turn 3 (offset 2): player 2 passes both to player 1, who holds none and keeps them;
    # turn 4 (offset 1): player 0 asks player 1 with one face up and gets one back with it
    state.apply_action((up(DN), up(FT), down(SF, SF)))
    assert counts(state, 1)["Server Farm"] == 2
    state.apply_action((up(SF), up(FT), up(AC)))
    assert counts(state, 0)["Server Farm"] == 4 and not state.deciding()
    state.apply_action((up(DN), up(FT), up(AC)))  # offset 2: quiet
    state.apply_action((up(SF), up(FT), up(AC)))  # offset 1: the last part comes
    assert counts(state, 0)["Server Farm"] == 5
    assert state.legal_actions(0) == [show(SF), keep(SF)]


def test_showing_can_end_the_game():
    # the end is checked after the decisions: a hand shown down to one card ends it
    state = four_case_state({"Source Code": 1, "Domain Name": 1},
                            {"Source Code": 1, "Foosball Table": 2})
    play_turn_zero(state, down(SC))
    assert counts(state, 0) == {"Source Code": 2, "Domain Name": 1}
    keeping = state.clone()
    state.apply_action((show(SC), NOTHING_TO_SHOW, NOTHING_TO_SHOW))
    assert state.ended_by == "one card" and state.ended_on_show
    metrics = state.game.metrics(state)
    assert metrics["ended_on_show"] and metrics["completed"] == 1 and metrics["kept_to_end"] == 0
    keeping.apply_action((keep(SC), NOTHING_TO_SHOW, NOTHING_TO_SHOW))
    assert not keeping.is_terminal() and keeping.hand_sizes[0] == 3


def test_a_turn_that_ends_the_game_asks_nobody_to_show():
    # player 0 completes Source Code while player 1 gives away its last cards:
    # the game is over, and every completed set is shown and counted
    state = small_game().state_from_hands(
        [{"Source Code": 1, "Domain Name": 2}, {"Source Code": 1, "Foosball Table": 2},
         {"Aeron Chairs": 3}])
    state.apply_action((down(SC), down(FT, FT), up(AC)))
    assert state.is_terminal() and not state.ended_on_show
    assert state.legal_actions(0) == [] and state.pending == [[], [], []]
    assert state.shown[0] == [SC] and state.points == [1, 0, 0]


def test_two_assets_completed_at_once_are_decided_one_at_a_time():
    # Both Barrels: player 0 passes a Source Code and a Domain Name to player 1, who holds
    # the last part of each, and each comes back with it
    state = small_game(both_barrels=True).state_from_hands(
        [{"Source Code": 1, "Domain Name": 2, "Server Farm": 1},
         {"Source Code": 1, "Domain Name": 1, "Foosball Table": 2}, {"Aeron Chairs": 3}])
    assert not state.deciding()
    state.apply_action((down(DN, SC), up(FT), up(AC)))
    assert counts(state, 0) == {"Server Farm": 1, "Domain Name": 3, "Source Code": 2}
    assert state.legal_actions(0) == [show(DN), keep(DN)]
    state.apply_action((keep(DN), NOTHING_TO_SHOW, NOTHING_TO_SHOW))
    assert state.legal_actions(0) == [show(SC), keep(SC)]
    state.apply_action((show(SC), NOTHING_TO_SHOW, NOTHING_TO_SHOW))
    assert not state.deciding() and state.shown[0] == [SC] and state.points[0] == 1
    assert counts(state, 0) == {"Server Farm": 1, "Domain Name": 3}
    assert state.turn == 1


def test_the_game_ends_when_a_player_holds_one_card():
    state = four_case_state({"Server Farm": 2, "Domain Name": 1}, {"Foosball Table": 2})
    play_turn_zero(state, down(SF, SF))
    assert state.is_terminal() and state.ended_by == "one card"
    assert state.current_player() == TERMINAL
    assert state.legal_actions(0) == []


def test_the_game_ends_when_a_player_holds_no_card():
    state = four_case_state({"Server Farm": 2}, {"Foosball Table": 2})
    play_turn_zero(state, down(SF, SF))
    assert state.ended_by == "empty hand"


def test_the_game_goes_on_while_everyone_holds_two_cards():
    state = four_case_state({"Server Farm": 2, "Domain Name": 1}, {"Foosball Table": 2})
    play_turn_zero(state, up(SF))
    assert not state.is_terminal() and state.turn == 1


def test_most_points_wins():
    state = four_case_state({"Source Code": 1, "Domain Name": 1},
                            {"Source Code": 1, "Foosball Table": 2})
    play_turn_zero(state, down(SC))
    state.apply_action((show(SC), NOTHING_TO_SHOW, NOTHING_TO_SHOW))
    assert state.points == [1, 0, 0] and state.ended_by == "one card"
    assert state.returns() == [1.0, 0.0, 0.0] and state.winners() == [0]


def test_a_tie_on_points_is_a_draw():
    state = four_case_state({"Server Farm": 2}, {"Foosball Table": 2})
    play_turn_zero(state, down(SF, SF))
    assert state.points == [0, 0, 0]
    assert state.returns() == [0.0, 0.0, 0.0] and state.winners() == []


# -- what was played and what is held (the playtest's per-card figures) ----------


def test_cards_held_are_the_asset_names_of_the_parts_in_hand_and_nothing_is_played_yet():
    state = DotcombustGame(4).new_initial_state(random.Random(5))
    held = state.cards_held()
    assert [len(names) for names in held] == state.hand_sizes == [20] * 4
    for p, names in enumerate(held):
        assert Counter(names) == {state.game.asset_names[a]: c
                                  for a, c in enumerate(state.hands[p]) if c}
    assert state.cards_played() == [[], [], [], []]


def test_a_shown_asset_is_played_once_and_leaves_the_held_cards():
    state = completed_server_farm()
    assert state.cards_held()[0] == ["Server Farm"] * 5 + ["Domain Name"] * 2
    state.apply_action((show(SF), NOTHING_TO_SHOW, NOTHING_TO_SHOW))
    assert state.cards_played() == [["Server Farm"], [], []]
    assert state.cards_held() == [["Domain Name"] * 2, ["Foosball Table"] * 2,
                                  ["Aeron Chairs"] * 3]


def test_a_kept_asset_is_held_until_it_is_shown_at_the_end():
    state = completed_server_farm()
    state.apply_action((keep(SF), NOTHING_TO_SHOW, NOTHING_TO_SHOW))
    assert state.cards_played() == [[], [], []]
    assert state.cards_held()[0].count("Server Farm") == 5
    state.apply_action((up(DN), down(FT, FT), up(AC)))  # player 1 runs dry: the end
    assert state.is_terminal()
    assert state.cards_played() == [["Server Farm"], [], []]
    assert state.cards_held() == [["Domain Name"] * 2 + ["Foosball Table"] * 2, [],
                                  ["Aeron Chairs"] * 3]


def test_every_card_is_played_within_a_shown_asset_or_held():
    game = DotcombustGame(5, options={"both_barrels": True})
    sizes = dict(zip(game.asset_names, game.asset_sizes))
    for seed in range(5):
        state, _ = random_playout(game, seed)
        played = sum(sizes[name] for names in state.cards_played() for name in names)
        held = sum(len(names) for names in state.cards_held())
        assert played + held == game.total_cards == 80
        assert [len(n) for n in state.cards_played()] == [len(s) for s in state.shown]


# -- optional rules -------------------------------------------------------------------


def test_no_tagbacks_bars_passing_an_asset_to_the_player_who_just_took_it():
    game = small_game(no_tagbacks=True)
    state = game.state_from_hands(
        [{"Server Farm": 3, "Domain Name": 2}, {"Foosball Table": 3},
         {"Aeron Chairs": 3, "Server Farm": 1}])
    # turn 0: player 0 gives away two Server Farms face down, player 1 keeps them
    state.apply_action((down(SF, SF), up(FT), up(AC)))
    assert counts(state, 1)["Server Farm"] == 2
    # turn 1 (offset 2): player 0 passes to player 2, Server Farm is fine there
    state.apply_action((up(DN), up(FT), up(AC)))
    assert state.opponent(0) == 1
    assert all(SF not in play.assets for play in state.legal_actions(0))
    assert state.legal_actions(0) == [down(DN), up(DN), down(DN, DN), up(DN, DN)]


def test_no_tagbacks_bars_the_answering_player_too_and_lasts_one_pass():
    game = small_game(no_tagbacks=True)
    state = game.state_from_hands(
        [{"Server Farm": 1, "Domain Name": 2}, {"Server Farm": 2, "Foosball Table": 2},
         {"Aeron Chairs": 3}])
    state.apply_action((up(SF), up(FT), up(AC)))  # player 1 must hand one over
    assert counts(state, 0)["Server Farm"] == 2
    assert state.opponent(1) == 0
    assert state.legal_actions(1) == [down(FT), up(FT), down(FT, FT), up(FT, FT)]
    # the ban is spent once player 1 has passed to player 0
    state.apply_action((up(DN), up(FT), up(AC)))
    state.apply_action((up(DN), up(FT), up(AC)))
    assert state.opponent(1) == 0 and down(SF) in state.legal_actions(1)


def test_no_tagbacks_never_leaves_a_player_without_a_play():
    game = small_game(no_tagbacks=True)
    state = game.state_from_hands(
        [{"Server Farm": 3}, {"Foosball Table": 3}, {"Aeron Chairs": 3, "Server Farm": 1}])
    state.apply_action((down(SF), up(FT), up(AC)))  # player 1 keeps a Server Farm
    state.apply_action((up(SF), up(FT), up(AC)))
    assert state.opponent(0) == 1 and state.legal_actions(0) == [
        down(SF), up(SF), down(SF, SF), up(SF, SF)]


def test_without_no_tagbacks_you_may_chase_your_asset():
    state = small_game().state_from_hands(
        [{"Server Farm": 3, "Domain Name": 2}, {"Foosball Table": 3},
         {"Aeron Chairs": 3, "Server Farm": 1}])
    state.apply_action((down(SF, SF), up(FT), up(AC)))
    state.apply_action((up(DN), up(FT), up(AC)))
    assert state.opponent(0) == 1 and down(SF) in state.legal_actions(0)


def test_both_barrels_passes_two_assets_face_down_as_two_transactions():
    game = small_game(both_barrels=True)
    state = game.state_from_hands(
        [{"Server Farm": 1, "Domain Name": 1, "Source Code": 1},
         {"Server Farm": 1, "Foosball Table": 2}, {"Aeron Chairs": 3}])
    assert down(SF, DN) in state.legal_actions(0)
    assert up(SF, DN) not in state.legal_actions(0)
    state.apply_action((down(SF, DN), up(FT), up(AC)))
    # Server Farm: player 1 holds one, so it comes back with another part;
    # Domain Name: player 1 holds none, so player 1 keeps it
    assert counts(state, 0) == {"Server Farm": 2, "Source Code": 1}
    assert counts(state, 1) == {"Domain Name": 1, "Foosball Table": 2}


def test_two_assets_at_once_only_with_both_barrels():
    state = small_game().state_from_hands(
        [{"Server Farm": 1, "Domain Name": 1}, {"Foosball Table": 2}, {"Aeron Chairs": 3}])
    assert all(len(set(p.assets)) < 2 for p in state.legal_actions(0))


def test_bitter_end_one_card_is_given_and_nobody_passes_to_its_holder():
    game = small_game(bitter_end=True)
    state = game.state_from_hands(
        [{"Server Farm": 1}, {"Server Farm": 2, "Foosball Table": 1}, {"Aeron Chairs": 3}])
    assert not state.is_terminal()
    assert state.legal_actions(0) == [down(SF)]
    assert state.legal_actions(2) == [SIT_OUT]  # player 2 would pass to player 0
    state.apply_action((down(SF), up(FT), SIT_OUT))
    # a gift is kept even though player 1 holds Server Farms
    assert counts(state, 0) == {}
    assert counts(state, 1) == {"Server Farm": 3, "Foosball Table": 1}
    assert not state.is_terminal()


def test_bitter_end_players_without_cards_sit_out():
    game = small_game(bitter_end=True)
    state = game.state_from_hands(
        [{}, {"Server Farm": 2, "Foosball Table": 1}, {"Aeron Chairs": 3}])
    assert state.legal_actions(0) == [SIT_OUT]
    assert state.legal_actions(2) == [SIT_OUT]
    assert up(SF) in state.legal_actions(1)


def test_bitter_end_stops_when_fewer_than_two_players_hold_cards():
    game = small_game(bitter_end=True)
    state = game.state_from_hands([{"Domain Name": 1}, {}, {"Aeron Chairs": 2}])
    assert [state.legal_actions(p) for p in range(3)] == [[SIT_OUT]] * 3
    state.apply_action((SIT_OUT, SIT_OUT, SIT_OUT))
    assert not state.is_terminal()
    state.apply_action((down(DN), SIT_OUT, SIT_OUT))  # offset 2: player 0 gives to 2
    assert counts(state, 2) == {"Domain Name": 1, "Aeron Chairs": 2}
    assert state.is_terminal() and state.ended_by == "no cards left to pass"


def test_bitter_end_stops_when_no_asset_is_completed_for_five_rounds():
    game = small_game(bitter_end=True)
    state = game.state_from_hands(
        [{"Server Farm": 2}, {"Foosball Table": 2}, {"Aeron Chairs": 2}])
    turns = 0
    while not state.is_terminal():
        state.apply_action(tuple(up(a) for a in (SF, FT, AC)))
        turns += 1
    assert turns == 5 * 2 and state.ended_by == "pointless"


def test_turn_limit_ends_a_stalled_game():
    game = small_game(turn_limit=3)
    state = game.state_from_hands(
        [{"Server Farm": 2}, {"Foosball Table": 2}, {"Aeron Chairs": 2}])
    for _ in range(3):
        state.apply_action((up(SF), up(FT), up(AC)))
    assert state.ended_by == "turn limit"


# -- random play --------------------------------------------------------------------


OPTION_SETS = [{}, {"no_tagbacks": True}, {"both_barrels": True}, {"bitter_end": True},
               {"no_tagbacks": True, "both_barrels": True, "bitter_end": True}]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_random_games_keep_every_card_and_end(options):
    for players in (3, 4, 7):
        game = DotcombustGame(players, options=options)
        for seed in range(5):
            def check(state, game=game, players=players):
                assert_cards_conserved(state)
                if not state.is_terminal():
                    assert all(state.legal_actions(p) for p in range(players))
                    if not game.bitter_end:
                        assert min(state.hand_sizes) >= 2
            state, _ = random_playout(game, seed, check=check)
            assert state.is_terminal()


def test_same_seed_same_game_and_recorded_plays_replay_it():
    game = DotcombustGame(5, options={"no_tagbacks": True})
    first, history = random_playout(game, 42)
    second, again = random_playout(game, 42)
    assert history == again and first.hands == second.hands
    replay = game.new_initial_state(random.Random(42))
    for joint in history:
        replay.apply_action(joint)
    assert replay.hands == first.hands and replay.points == first.points
    assert replay.returns() == first.returns()


def test_a_clone_plays_on_alone():
    state = DotcombustGame(4, options={"no_tagbacks": True}).new_initial_state(random.Random(3))
    before = (repr(state.hands), list(state.points), state.turn, list(state.bans))
    copy = state.clone()
    rng = random.Random(0)
    while not copy.is_terminal():
        copy.apply_action(tuple(rng.choice(copy.legal_actions(p)) for p in range(4)))
    assert (repr(state.hands), state.points, state.turn, state.bans) == before


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 12),
       keep=st.integers(8, 16), no_tagbacks=st.booleans(), bitter_end=st.booleans(),
       both_barrels=st.booleans())
def test_any_table_plays_to_an_end_keeping_every_card(seed, players, keep, no_tagbacks,
                                                      bitter_end, both_barrels):
    options = {"players": players, "assets": keep, "no_tagbacks": no_tagbacks,
               "bitter_end": bitter_end, "both_barrels": both_barrels}
    try:
        game = DotcombustGame(options=options)
    except CardgenError:
        assert sum(BUNDLED_SIZES[:keep]) < 2 * players
        return
    state, _ = random_playout(game, seed, check=assert_cards_conserved)
    assert state.is_terminal()
    returns = state.returns()
    assert sum(returns) in (0.0, 1.0)
    if sum(returns):
        assert state.points[returns.index(1.0)] == max(state.points)


# -- policies and report --------------------------------------------------------------


def test_greedy_picks_a_legal_play_and_beats_random_play():
    game = DotcombustGame(4)
    wins = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new_initial_state(rng)
        while not state.is_terminal() and state.turn < 500:
            joint = []
            for p in range(4):
                play = (game.greedy_action(state, p, rng) if p == 0
                        else rng.choice(state.legal_actions(p)))
                assert play in state.legal_actions(p)
                joint.append(play)
            state.apply_action(tuple(joint))
        wins += state.winners() == [0]
    assert wins > 20


def test_greedy_shows_a_completed_asset_unless_that_ends_the_game_while_behind():
    game = small_game()
    rng = random.Random(0)
    # showing leaves 2 cards: the game goes on, so show
    state = completed_server_farm()
    assert not state.show_would_end(0, SF)
    assert game.greedy_action(state, 0, rng) == show(SF)
    assert game.greedy_action(state, 1, rng) == NOTHING_TO_SHOW
    # showing leaves 1 card and ends the game: show only when ahead on the table
    ahead = four_case_state({"Source Code": 1, "Domain Name": 1},
                            {"Source Code": 1, "Foosball Table": 2})
    play_turn_zero(ahead, down(SC))
    assert ahead.show_would_end(0, SC)
    assert game.greedy_action(ahead, 0, rng) == show(SC)
    # player 1 shows the Aeron Chairs (5 points) it was dealt; player 0's Source Code
    # scores 1, so player 0 keeps it and the game goes on
    behind = game.state_from_hands(
        [{"Source Code": 1, "Domain Name": 1},
         {"Source Code": 1, "Aeron Chairs": 6, "Foosball Table": 2},
         {"Domain Name": 1, "Server Farm": 2}])
    assert game.greedy_action(behind, 1, rng) == show(AC)
    behind.apply_action((NOTHING_TO_SHOW, show(AC), NOTHING_TO_SHOW))
    behind.apply_action((down(SC), up(FT), up(SF)))
    assert counts(behind, 0) == {"Source Code": 2, "Domain Name": 1}
    assert behind.legal_actions(0) == [show(SC), keep(SC)]
    assert game.greedy_action(behind, 0, rng) == keep(SC)


def test_under_bitter_end_showing_ends_the_game_only_if_fewer_than_two_hold_cards():
    game = small_game(bitter_end=True)
    two_others = game.state_from_hands([{"Source Code": 2}, {"Foosball Table": 2},
                                        {"Aeron Chairs": 2}])
    assert not two_others.show_would_end(0, SC)
    one_other = game.state_from_hands([{"Source Code": 2}, {}, {"Aeron Chairs": 2}])
    assert one_other.show_would_end(0, SC)
    one_other.apply_action((show(SC), NOTHING_TO_SHOW, NOTHING_TO_SHOW))
    assert one_other.ended_by == "no cards left to pass" and one_other.points == [1, 0, 0]


def test_heuristic_values_points_and_nearly_complete_assets():
    game = small_game()
    state = game.state_from_hands(
        [{"Server Farm": 4, "Domain Name": 1}, {"Server Farm": 1, "Domain Name": 1},
         {"Source Code": 2}])
    assert game.heuristic(state, 0) > game.heuristic(state, 1)
    # a complete asset is worth its points whether kept in hand or shown
    assert state.points[2] == 0 and game.heuristic(state, 2) == 1
    state.apply_action((NOTHING_TO_SHOW, NOTHING_TO_SHOW, show(SC)))
    assert state.points[2] == 1 and game.heuristic(state, 2) == 1


def test_metrics_and_summary_report_spread_completion_and_endings():
    game = DotcombustGame(4)
    metrics = [game.metrics(random_playout(game, seed)[0]) for seed in range(20)]
    m = metrics[0]
    assert m["spread"] == max(m["points"]) - min(m["points"])
    assert sum(total for _, total in m["completed_by_size"].values()) == 16
    assert m["ended_by"] in ("one card", "empty hand")
    summary = game.summarize(metrics)
    assert set(summary) == {"mean score spread", "assets completed by size",
                            "completed assets kept to the end", "mean passes per game",
                            "mean turns per game", "game ended by", "games ended by a show",
                            "mean points per seat", "turns per finished game (mean)",
                            "turns per finished game (95% CI)", "games cut off"}
    low, high = summary["turns per finished game (95% CI)"]
    assert low <= summary["turns per finished game (mean)"] <= high and summary["games cut off"] == 0
    # a game cut off at the move cap is counted apart, not in the turns
    cut = game.summarize(metrics + [dict(metrics[0], ended_by="unfinished", turns=10_000)])
    assert cut["games cut off"] == 1
    assert cut["turns per finished game (mean)"] == summary["turns per finished game (mean)"]
    # random players show and keep: some completed assets wait in hand for the end,
    # and some games end because a player showed their hand down to one card or none
    assert 0 < summary["completed assets kept to the end"] < 1
    assert 0 < summary["games ended by a show"] < 1
    assert all(m["kept_to_end"] <= m["completed"] for m in metrics)
    assert set(summary["assets completed by size"]) == {f"{s} parts" for s in range(2, 9)}
    assert all(0 <= v <= 1 for v in summary["assets completed by size"].values())
    assert abs(sum(summary["game ended by"].values()) - 1) < 1e-9
    assert len(summary["mean points per seat"]) == 4
    assert game.summarize([]) == {}


def test_plays_read_in_the_users_words():
    game = small_game()
    assert game.action_to_string(down(SF, SF)) == "2 Server Farm face down"
    assert game.action_to_string(up(DN)) == "1 Domain Name face up"
    assert game.action_to_string(down(SF, DN)) == "Server Farm + Domain Name face down"
    assert game.action_to_string(SIT_OUT) == "sit out"
    assert game.action_to_string(show(SF)) == "show Server Farm"
    assert game.action_to_string(keep(DN)) == "keep Domain Name"
    assert game.action_to_string(NOTHING_TO_SHOW) == "nothing to show"
    state = game.state_from_hands([{"Source Code": 2, "Server Farm": 2}, {"Domain Name": 2},
                                   {"Aeron Chairs": 3}])
    assert state.action_to_string((keep(SC), NOTHING_TO_SHOW, NOTHING_TO_SHOW)) == (
        "seat 0: keep Source Code; seat 1: nothing to show; seat 2: nothing to show")
    assert state.action_to_string(up(SF, SF)) == "pass 2 face up: Server Farm"


# -- deck checks ---------------------------------------------------------------------


def make_deck(assets: dict[str, list[str]] | None = None, options=None, cards=None) -> Deck:
    if cards is None:
        assets = assets or {name: [f"{name} {i}" for i in range(len(parts))]
                            for name, parts in BUNDLED_ASSETS.items()}
        cards = [Card(id=f"{name}-{i}", kind="asset", title=part,
                      fields={"asset": name, "parts": list(parts)})
                 for name, parts in assets.items() for i, part in enumerate(parts)]
    values = {"id": "dotcombust", "name": "dotCOMbust", "game": "dotcombust",
                  "path": Path("decks/dotcombust.yaml"), "orientation": "portrait",
                  "card_width": 144, "card_height": 252, "players": (), "per_player": False,
                  "back": Back(), "options": options or {}, "cards": tuple(cards)}
    known = {f.name for f in dataclasses.fields(Deck)}  # the model is still growing
    return Deck(**{k: v for k, v in values.items() if k in known})


def errors(findings):
    return [f for f in findings if f.severity == "error"]


def test_the_full_deck_passes_its_checks():
    assert check_deck(make_deck()) == []


def test_an_asset_needs_two_parts():
    deck = make_deck({"Server Farm": ["Rack"], "Domain Name": ["a", "b"]})
    where = Location("decks/dotcombust.yaml", 14, 5)
    deck = deck.with_(cards=(deck.cards[0].with_(location=where),) + deck.cards[1:])
    found = errors(check_deck(deck))
    assert any(str(f) == "decks/dotcombust.yaml:14:5: error: card 'Server Farm-0': asset "
               "'Server Farm' lists 1 part(s); an asset needs 2 or more" for f in found)
    assert all(f.deck == "decks/dotcombust.yaml" for f in found)


def test_part_names_of_an_asset_are_distinct():
    found = check_deck(make_deck({"Server Farm": ["Rack", "Rack", "Fan"]}))
    assert any("Rack more than once" in f.message for f in errors(found))


def test_every_card_of_an_asset_lists_the_same_parts():
    deck = make_deck({"Server Farm": ["Rack", "Fan"], "Domain Name": ["a", "b"]})
    cards = list(deck.cards)
    cards[1] = cards[1].with_(fields={**cards[1].fields, "parts": ["Rack", "Fan", "Cable"]})
    found = check_deck(deck.with_(cards=tuple(cards)))
    assert any(f.card == "Server Farm-1" and "lists parts" in f.message
               for f in errors(found))


def test_each_listed_part_is_printed_exactly_once():
    deck = make_deck({"Server Farm": ["Rack", "Fan", "Cable"]})
    cards = list(deck.cards)
    cards[2] = cards[2].with_(title="Fan")
    found = errors(check_deck(deck.with_(cards=tuple(cards))))
    assert any(f.card == "Server Farm-2" and "'Fan' is printed 2 times" in f.message
               for f in found)
    assert any("no card for part(s) Cable" in f.message for f in found)
    cards[2] = cards[2].with_(title="Cable", copies=2)
    found = errors(check_deck(deck.with_(cards=tuple(cards))))
    assert any("'Cable' is printed 2 times" in f.message for f in found)


def test_a_card_names_a_part_of_its_asset():
    deck = make_deck({"Server Farm": ["Rack", "Fan"]})
    cards = [deck.cards[0], deck.cards[1].with_(title="Toaster")]
    found = errors(check_deck(deck.with_(cards=tuple(cards))))
    assert any(f.card == "Server Farm-1" and "'Toaster' is not in" in f.message for f in found)


def test_a_deck_other_than_80_cards_is_worth_a_warning():
    found = check_deck(make_deck({"A": ["x", "y"], "B": ["p", "q", "r"],
                                  "C": ["1", "2"], "D": ["1", "2"]}))
    assert not errors(found)
    assert [f.severity for f in found] == ["warning"] and "80 cards" in found[0].message


def test_a_smaller_deck_counts_only_the_kept_assets():
    assert check_deck(make_deck(options={"assets": 12})) == []
    found = errors(check_deck(make_deck(options={"assets": 2, "players": 8})))
    assert any("fewer than 2 cards" in f.message for f in found)


def test_dotcombust_needs_three_players():
    where = Location("decks/dotcombust.yaml", 21, 3)
    deck = make_deck(options={"players": 2}).with_(key_locations={"options": where})
    found = errors(check_deck(deck))
    assert [str(f) for f in found] == [
        ("decks/dotcombust.yaml:21:3: error: option 'players' must be a whole "
        "number from 3 to 12, got 2")]


def test_a_smaller_deck_asking_for_more_assets_than_printed_is_refused():
    found = errors(check_deck(make_deck(options={"assets": 17})))
    assert any("'assets' must be at most 16" in f.message for f in found)


def test_every_player_is_dealt_two_cards():
    deck = make_deck({"A": ["x", "y"], "B": ["p", "q", "r"]}, options={"players": 3})
    found = errors(check_deck(deck))
    assert any("5 cards dealt to 3 players" in f.message for f in found)


def test_game_from_deck_uses_the_decks_assets_and_options():
    deck = make_deck(options={"players": 5, "assets": 10, "layout": "ignored"})
    game = game_from_deck(deck, {"both_barrels": "true"})
    assert game.num_players == 5 and game.both_barrels
    assert game.asset_names == tuple(list(BUNDLED_ASSETS)[:10])
    first = next(iter(BUNDLED_ASSETS))
    assert game.part_names[0] == tuple(f"{first} {i}" for i in range(len(BUNDLED_ASSETS[first])))
    game = game_from_deck(deck, {"players": "3"})
    assert game.num_players == 3
    game = game_from_deck(deck, deck.options)  # what the validator passes
    assert game.num_players == 5 and not game.both_barrels


def test_game_from_deck_refuses_an_unplayable_deck():
    with pytest.raises(CardgenError, match="needs 2 or more"):
        game_from_deck(make_deck({"A": ["x"], "B": ["p", "q"]}), {})
    with pytest.raises(CardgenError, match="unknown option 'colour'"):
        game_from_deck(make_deck(), {"colour": "red"})


BUNDLED = Path(__file__).resolve().parents[1] / "decks" / "dotcombust.yaml"


def test_the_bundled_deck_passes_and_plays():
    deck = load_deck(BUNDLED)
    assert check_deck(deck) == []
    game = game_from_deck(deck, deck.options)
    assert game.total_cards == 80 and all(2 <= s <= 8 for s in game.asset_sizes)
    assert all(len(parts) == size for parts, size in zip(game.part_names, game.asset_sizes))
    state, _ = random_playout(game, 7, check=assert_cards_conserved)
    assert state.is_terminal()
