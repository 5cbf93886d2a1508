"""Clusterfuck: titles, deck checks, and the engine's rules, position by position."""
from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.errors import CardgenError, Location
from cardgen.games.base import TERMINAL, IllegalAction
from cardgen.games.clusterfuck.cards import (
    COMPLY,
    NO_ASSIGN,
    NO_DEMAND,
    PASS,
    RANKS,
    REFUSE,
    SUITS,
    action_to_string,
    assign_action,
    demand_action,
    give_back_action,
    keep_action,
    play_action,
)
from cardgen.games.clusterfuck.policies import ClusterfuckGame
from cardgen.games.clusterfuck.printing import check_deck, game_from_deck, status_cards, status_title
from cardgen.games.clusterfuck.rules import (
    ANSWER_DEMAND,
    ASSIGN_STATUS,
    CHOOSE_DEMAND,
    GIVING_BACK,
    KEEP_STATUS,
    PLAY,
    ClusterfuckState,
)
from cardgen.model import Card

# ---------------------------------------------------------------- helpers


def playout(game, seed, policy="random", check=None):
    """Play one game to the end; call ``check(state)`` after every move."""
    rng = random.Random(seed)
    state = game.new_initial_state(random.Random(seed))
    moves = 0
    while not state.is_terminal():
        if policy == "random":
            action = rng.choice(state.legal_actions())
        else:
            action = game.greedy_action(state, state.current_player(), rng)
        state.apply_action(action)
        moves += 1
        if check:
            check(state)
    return state, moves


def hand(state, seat):
    return " ".join(r for r, k in zip(RANKS, state.hands[seat]) for _ in range(k))


def status_deck(players, *, standard=None, titles=None, extra=(), options=None):
    cards = [
        Card(id=f"status-{k}", kind="status", fields={"number": k},
             title=(titles or {}).get(k, status_title(k, players)),
             location=Location("decks/clusterfuck.yaml", 10 + k, 5))
        for k in range(1, players + 1)
    ]
    if standard:
        cards += [Card(id=f"{r}-{s}", kind="playing", fields={"rank": r, "suit": s})
                  for r in RANKS for s in SUITS]
    opts = {"players": players, **({"standard_deck": True} if standard else {}), **(options or {})}
    return SimpleNamespace(
        path=Path("decks/clusterfuck.yaml"), options=opts, cards=tuple(cards) + tuple(extra),
        key_locations={"cards": Location("decks/clusterfuck.yaml", 9, 1)},
    )


def errors(findings):
    return [f for f in findings if f.severity == "error"]


# ---------------------------------------------------------------- titles


def test_eight_players_titles_sit_on_1_2_7_and_8():
    assert status_cards(8) == [
        (1, "Magnate"), (2, "Magnate's Lackey / Man-behind-the-Man"), (3, ""), (4, ""),
        (5, ""), (6, ""), (7, "Jackass"), (8, "Asshole / Desperado"),
    ]


def test_with_three_players_card_2_is_the_lackey_not_the_jackass():
    assert [t for _, t in status_cards(3)] == [
        "Magnate", "Magnate's Lackey / Man-behind-the-Man", "Asshole / Desperado"]


def test_with_four_players_every_card_has_a_title():
    assert [t for _, t in status_cards(4)] == [
        "Magnate", "Magnate's Lackey / Man-behind-the-Man", "Jackass", "Asshole / Desperado",
    ]


def test_twelve_players_leave_numbers_3_to_10_plain():
    titles = dict(status_cards(12))
    assert titles[11] == "Jackass" and titles[12] == "Asshole / Desperado"
    assert all(titles[k] == "" for k in range(3, 11))


@pytest.mark.parametrize("players", [2, 13, 0, "8", True])
def test_player_counts_outside_3_to_12_are_refused(players):
    with pytest.raises(CardgenError, match="players"):
        status_cards(players)


def test_a_status_number_outside_the_table_is_refused():
    with pytest.raises(CardgenError, match=r"1\.\.8"):
        status_title(9, 8)


# ---------------------------------------------------------------- options


def test_options_arrive_as_command_line_strings_or_values():
    game = ClusterfuckGame(options={"players": "6", "rounds_to_win": "3", "bluff": "0.5", "standard_deck": "yes"})
    assert ClusterfuckGame(options={"status_powers": "off"}).status_powers is False
    assert game.num_players == 6
    assert game.options == {"players": 6, "rounds_to_win": 3, "bluff": 0.5, "standard_deck": True, "exchange": 2,
                            "status_powers": True}
    assert ClusterfuckGame(5, {"bluff": 1, "standard_deck": False}).options["bluff"] == 1.0


def test_defaults_are_eight_players_five_rounds_and_a_fifth_bluff():
    game = ClusterfuckGame()
    assert (game.num_players, game.rounds_to_win, game.bluff, game.options["standard_deck"]) == (8, 5, 0.2, False)


def test_an_unknown_option_is_refused_with_the_known_names():
    known = "bluff, exchange, players, rounds_to_win, standard_deck"
    with pytest.raises(CardgenError, match=rf"unknown option 'blufff'.*{known}"):
        ClusterfuckGame(options={"blufff": "0.1"})


@pytest.mark.parametrize("name, value, allowed", [
    ("players", "2", "3 to 12"), ("players", "eight", "3 to 12"), ("players", 13, "3 to 12"),
    ("rounds_to_win", "0", "1 to 20"), ("rounds_to_win", 2.5, "1 to 20"),
    ("bluff", "1.5", "0 to 1"), ("bluff", "nan", "0 to 1"), ("bluff", "often", "0 to 1"),
    ("standard_deck", "maybe", "true or false"), ("standard_deck", 2, "true or false"),
    ("exchange", "5", "0 to 4"), ("exchange", "-1", "0 to 4"), ("exchange", "two", "0 to 4"),
])
def test_bad_option_values_name_the_option_and_the_allowed_values(name, value, allowed):
    with pytest.raises(CardgenError, match=f"option '{name}' must be .*{allowed}"):
        ClusterfuckGame(options={name: value})


def test_player_argument_and_players_option_must_agree():
    with pytest.raises(CardgenError, match="disagrees"):
        ClusterfuckGame(8, {"players": 6})


def test_game_from_deck_takes_the_decks_players_and_the_command_lines_overrides():
    deck = status_deck(6, options={"bluff": 0.4, "paper": "a4"})
    game = game_from_deck(deck, {"rounds_to_win": "2"})
    assert (game.num_players, game.bluff, game.rounds_to_win) == (6, 0.4, 2)
    assert game_from_deck(deck, {"players": "7"}).num_players == 7
    with pytest.raises(CardgenError, match="option 'bluff'"):
        game_from_deck(deck, {"bluff": "-1"})


# ---------------------------------------------------------------- deck checks


def test_a_correct_eight_player_deck_with_a_standard_deck_has_no_findings():
    assert check_deck(status_deck(8, standard=True)) == []


def test_a_missing_status_number_is_an_error_naming_the_deck():
    deck = status_deck(8)
    deck.cards = tuple(c for c in deck.cards if c.fields.get("number") != 5)
    [finding] = check_deck(deck)
    assert finding.severity == "error" and "status cards 5 are missing" in finding.message
    assert str(finding).startswith("decks/clusterfuck.yaml:9:1")


def test_a_repeated_status_number_names_the_card():
    deck = status_deck(5)
    deck.cards += (Card(id="again", kind="status", fields={"number": 3}),)
    [finding] = check_deck(deck)
    assert finding.card == "again" and "appears more than once" in finding.message


def test_a_status_card_printed_twice_is_a_repeat():
    deck = status_deck(5)
    deck.cards = tuple(c.with_(copies=2) if c.fields.get("number") == 4 else c for c in deck.cards)
    [finding] = check_deck(deck)
    assert finding.card == "status-4" and "more than once" in finding.message


def test_a_status_number_beyond_the_player_count_is_an_error():
    deck = status_deck(5, extra=(Card(id="six", kind="status", fields={"number": 6}),))
    [finding] = check_deck(deck)
    assert finding.card == "six" and "outside 1..5" in finding.message


def test_the_magnate_card_must_carry_the_magnate_title():
    [finding] = check_deck(status_deck(8, titles={1: "Boss"}))
    assert finding.card == "status-1" and "'Magnate'" in finding.message
    assert str(finding).startswith("decks/clusterfuck.yaml:11:5: error: card 'status-1'")


def test_a_title_half_is_accepted_and_the_asshole_title_on_a_plain_number_is_not():
    assert check_deck(status_deck(8, titles={8: "Desperado", 2: "man-behind-the-man"})) == []
    [finding] = check_deck(status_deck(8, titles={4: "Asshole"}))
    assert finding.card == "status-4" and "belongs to another number" in finding.message


def test_an_incomplete_standard_deck_lists_the_missing_cards():
    deck = status_deck(8, standard=True)
    deck.cards = tuple(c for c in deck.cards if c.id != "Q-hearts")
    [finding] = check_deck(deck)
    assert "missing Q of hearts" in finding.message


def test_a_playing_card_twice_or_off_the_deck_is_an_error():
    deck = status_deck(8, standard=True, extra=(
        Card(id="extra", kind="playing", fields={"rank": "A", "suit": "spades"}),
        Card(id="joker", kind="playing", fields={"rank": "1", "suit": "stars"}),
    ))
    found = {f.card: f.message for f in check_deck(deck)}
    assert "appears more than once" in found["extra"] and "not a card of a traditional deck" in found["joker"]


def test_standard_deck_on_without_playing_cards_is_an_error():
    deck = status_deck(8, options={"standard_deck": "true"})
    [finding] = check_deck(deck)
    assert "no playing cards" in finding.message


@pytest.mark.parametrize("players", [3, 4])
def test_fewer_than_five_players_is_a_warning_not_an_error(players):
    findings = check_deck(status_deck(players))
    assert [f.severity for f in findings] == ["warning"] and "not advised" in findings[0].message


def test_a_bad_player_count_in_the_deck_is_a_finding_not_a_crash():
    deck = status_deck(5)
    deck.options["players"] = 40
    [finding] = check_deck(deck)
    assert finding.severity == "error" and "'players'" in finding.message and finding.deck == "decks/clusterfuck.yaml"


# ---------------------------------------------------------------- tricks


def test_the_leader_must_play_and_may_lead_any_set_of_one_rank():
    state = ClusterfuckGame(4).position(["3 3 K", "4", "5", "6"], [1, 2, 3, 4])
    assert sorted(state.legal_actions()) == sorted([play_action("3", 1), play_action("3", 2), play_action("K", 1)])
    assert PASS not in state.legal_actions()
    with pytest.raises(ValueError):
        state.apply_action(PASS)


def test_a_follower_beats_with_the_same_count_of_a_higher_rank_or_passes():
    state = ClusterfuckGame(4).position(["5 5", "3 3 6 6 7 8 8 8 8", "5", "6"], [1, 2, 3, 4])
    state.apply_action(play_action("5", 2))
    assert state.current_player() == 1
    assert sorted(state.legal_actions()) == [PASS, play_action("6", 2), play_action("8", 2)]
    assert state.legal_actions(0) == []
    with pytest.raises(ValueError):
        state.apply_action(play_action("8", 3))


def test_when_all_others_pass_the_trick_winner_may_demand_then_leads():
    state = ClusterfuckGame(4).position(["K K", "3 3", "4 4", "5 5"], [1, 2, 3, 4])
    state.apply_action(play_action("K", 1))
    for _ in range(3):
        state.apply_action(PASS)
    assert state.current_player() == 0
    actions = state.legal_actions()
    assert NO_DEMAND in actions and {demand_action(q) for q in (1, 2, 3)} <= set(actions)
    # a demand names the best card or a rank the winner cannot see all four of
    # (the cards no hand holds are on the pile, and seat 0 holds the fourth K)
    assert {a for a in actions if a != NO_DEMAND} == {
        demand_action(q, r) for q in (1, 2, 3) for r in (None, "3", "4", "5")}
    state.apply_action(NO_DEMAND)
    assert state.current_player() == 0 and PASS not in state.legal_actions()


def test_with_status_powers_off_a_trick_winner_demands_nothing_and_leads():
    """docs/rules-readings.md, "Status powers off": the seed's "any time a player wins a round ...
    he/she can attempt to order another individual around" is the status cards' power; off, the game
    is "played like traditional Asshole"."""
    game = ClusterfuckGame(4, {"status_powers": False})
    state = game.position(["K K", "3 3", "4 4", "5 5"], [1, 2, 3, 4])
    state.apply_action(play_action("K", 1))
    for _ in range(3):
        state.apply_action(PASS)
    assert state.phase == PLAY and state.current_player() == 0
    assert NO_DEMAND not in state.legal_actions() and PASS not in state.legal_actions()
    # a whole game without a single demand, the exchange still made
    played = ClusterfuckGame(5, {"status_powers": False}).new_initial_state(random.Random(3))
    rng = random.Random(4)
    while not played.is_terminal():
        assert played.phase not in (CHOOSE_DEMAND, ANSWER_DEMAND)
        played.apply_action(rng.choice(played.legal_actions()))
    assert played.demands == 0 and played.rounds_played >= 5


def test_a_passed_player_may_play_again_when_the_trick_comes_round():
    state = ClusterfuckGame(3).position(["3 9", "5 A", "7 K"], [1, 2, 3])
    state.apply_action(play_action("3", 1))
    state.apply_action(PASS)                      # seat 1 passes
    state.apply_action(play_action("7", 1))       # seat 2 beats
    state.apply_action(play_action("9", 1))       # seat 0 beats
    assert state.current_player() == 1
    assert play_action("A", 1) in state.legal_actions()


def test_a_play_containing_a_two_ends_the_trick_at_once():
    state = ClusterfuckGame(4).position(["3 3", "2 2 4", "5 5", "6 6"], [1, 2, 3, 4])
    state.apply_action(play_action("3", 2))
    state.apply_action(play_action("2", 2))
    assert state.current_player() == 1 and NO_DEMAND in state.legal_actions()
    assert state.trick_count == 0


# ---------------------------------------------------------------- demands


def demand_position(statuses, hands=None, target=1):
    """Seat 0 wins a trick with an ace and demands from ``target``."""
    hands = hands or ["A 3 3", "K 4 4", "Q 5 5", "J 6 6"]
    state = ClusterfuckGame(len(statuses)).position(hands, statuses)
    state.apply_action(play_action("A", 1))
    while state.current_player() != 0:
        state.apply_action(PASS)
    state.apply_action(demand_action(target))
    assert state.current_player() == target and sorted(state.legal_actions()) == [COMPLY, REFUSE]
    return state


def test_a_complying_target_gives_its_best_card():
    state = demand_position([3, 2, 1, 4])
    state.apply_action(COMPLY)
    assert hand(state, 0) == "3 3 K" and hand(state, 1) == "4 4"
    assert state.current_player() == 0 and state.demands == 1 and state.refused == 0


def test_a_refusal_against_a_higher_status_still_gives_the_card():
    state = demand_position([1, 3, 2, 4])
    state.apply_action(REFUSE)
    assert hand(state, 0) == "3 3 K" and hand(state, 1) == "4 4"
    assert (state.refused, state.reversed) == (1, 0)


def test_a_refusal_by_the_higher_status_reverses_the_demand_and_the_demander_gives_two_best():
    state = demand_position([3, 2, 1, 4], hands=["A 3 3 9 Q", "K 4 4", "Q 5 5", "J 6 6"])
    state.apply_action(REFUSE)
    assert hand(state, 0) == "3 3" and hand(state, 1) == "4 4 9 Q K"
    assert (state.refused, state.reversed) == (1, 1)
    assert state.current_player() == 0


def test_the_asshole_wins_the_comparison_against_the_magnate():
    state = demand_position([4, 1, 2, 3])
    state.apply_action(REFUSE)
    assert hand(state, 0) == "3 3 K" and state.reversed == 0


def test_a_magnate_holding_two_2s_is_safe_from_the_asshole():
    state = demand_position([4, 1, 2, 3], hands=["A 3 3", "2 2 4", "Q 5 5", "J 6 6"])
    state.apply_action(REFUSE)
    assert hand(state, 0) == "3 3" and hand(state, 1) == "4 2 2" and state.protected == 1


def test_a_magnate_with_one_2_must_give_it_to_the_asshole():
    state = demand_position([4, 1, 2, 3], hands=["A 3 3", "2 4 4", "Q 5 5", "J 6 6"])
    state.apply_action(REFUSE)
    assert hand(state, 0) == "3 3 2" and hand(state, 1) == "4 4" and state.protected == 0


def test_the_magnate_demanding_from_the_asshole_must_give_two_cards():
    state = demand_position([1, 4, 2, 3], hands=["A 3 3 8", "K 4 4", "Q 5 5", "J 6 6"])
    state.apply_action(REFUSE)
    assert hand(state, 0) == "3" and hand(state, 1) == "3 4 4 8 K" and state.reversed == 1


def test_a_reversed_demand_never_takes_the_demanders_last_card():
    state = demand_position([4, 1, 2, 3], hands=["A 3 9", "K 4 4", "Q 5 5", "J 6 6"], target=2)
    state.apply_action(REFUSE)
    assert hand(state, 0) == "3" and hand(state, 2) == "5 5 9 Q" and state.reversed == 1


def test_players_holding_one_card_cannot_be_asked_for_a_card():
    state = ClusterfuckGame(4).position(["A 3", "4", "5 5", "6"], [1, 2, 3, 4])
    state.apply_action(play_action("A", 1))
    for _ in range(3):
        state.apply_action(PASS)
    assert {ClusterfuckState.action_to_string(state, a).rsplit(" ", 1)[-1] for a in state.legal_actions()
            if a != NO_DEMAND} == {"2"}
    assert demand_action(2) in state.legal_actions() and demand_action(1) not in state.legal_actions()


def test_no_one_with_two_cards_means_no_demand_to_make():
    state = ClusterfuckGame(4).position(["A 3", "4", "5", "6"], [1, 2, 3, 4])
    state.apply_action(play_action("A", 1))
    for _ in range(3):
        state.apply_action(PASS)
    assert state.current_player() == 0 and state.legal_actions() == [play_action("3", 1)]


def test_a_refusal_shows_both_status_cards_to_the_two_players_only():
    state = demand_position([3, 2, 1, 4])
    n = state.n
    assert state.known[0 * n + 1] == 0
    state.apply_action(REFUSE)
    assert state.known[0 * n + 1] == 2 and state.known[1 * n + 0] == 3
    assert state.known[2 * n + 1] == 0



def named_demand_position(statuses, hands, target, rank):
    """Seat 0 wins a trick with an ace and demands one card of ``rank`` from ``target``."""
    state = ClusterfuckGame(len(statuses)).position(hands, statuses)
    state.apply_action(play_action("A", 1))
    while state.current_player() != 0:
        state.apply_action(PASS)
    state.apply_action(demand_action(target, rank))
    assert state.current_player() == target and sorted(state.legal_actions()) == [COMPLY, REFUSE]
    return state


def test_a_demand_may_name_a_rank_and_the_complying_target_gives_one_of_it():
    state = named_demand_position([3, 2, 1, 4], ["A 3 3", "K 4 4 7", "Q 5 5", "J 6 6"], 1, "4")
    state.apply_action(COMPLY)
    assert hand(state, 0) == "3 3 4" and hand(state, 1) == "4 7 K"
    assert (state.demands, state.named, state.named_missing) == (1, 1, 0)


def test_a_target_without_the_named_rank_has_nothing_to_give():
    state = named_demand_position([3, 2, 1, 4], ["A 3 3", "K 4 4", "Q 5 5", "J 6 6"], 1, "5")
    state.apply_action(COMPLY)
    assert hand(state, 0) == "3 3" and hand(state, 1) == "4 4 K"
    assert (state.named, state.named_missing) == (1, 1)


def test_a_refusal_that_fails_gives_the_named_card_not_the_best():
    state = named_demand_position([1, 3, 2, 4], ["A 3 3", "K 4 4", "Q 5 5", "J 6 6"], 1, "4")
    state.apply_action(REFUSE)
    assert hand(state, 0) == "3 3 4" and hand(state, 1) == "4 K"


def test_a_reversed_named_demand_still_costs_the_demander_its_two_best():
    state = named_demand_position([3, 2, 1, 4], ["A 3 3 9 Q", "K 4 4", "Q 5 5", "J 6 6"], 1, "4")
    state.apply_action(REFUSE)
    assert hand(state, 0) == "3 3" and hand(state, 1) == "4 4 9 Q K" and state.reversed == 1


def test_the_asshole_takes_whichever_card_he_names_from_an_unprotected_magnate():
    state = named_demand_position([4, 1, 2, 3], ["A 3 3", "2 4 4 K", "Q 5 5", "J 6 6"], 1, "K")
    state.apply_action(REFUSE)
    assert hand(state, 0) == "3 3 K" and hand(state, 1) == "4 4 2" and state.protected == 0


def test_a_magnate_with_two_2s_keeps_even_the_named_card():
    state = named_demand_position([4, 1, 2, 3], ["A 3 3", "2 2 4 K", "Q 5 5", "J 6 6"], 1, "K")
    state.apply_action(REFUSE)
    assert hand(state, 1) == "4 K 2 2" and state.protected == 1


def test_a_rank_the_winner_sees_all_four_of_cannot_be_named():
    state = ClusterfuckGame(4).position(["A 9 9 9 9 8 8 8", "K 4 4 8", "Q 5 5", "J 6 6"], [1, 2, 3, 4])
    state.apply_action(play_action("A", 1))
    for _ in range(3):
        state.apply_action(PASS)
    # 9: all four in seat 0's hand; 7: all four on the pile; A: three on it, one just played;
    # 8: three in seat 0's hand, the fourth somewhere it cannot see
    named = {state.action_to_string(a).split()[2] for a in state.legal_actions() if a != NO_DEMAND}
    assert named == {"card", "4", "5", "6", "8", "J", "Q", "K"}
    with pytest.raises(IllegalAction):
        state.apply_action(demand_action(1, "9"))


def test_every_action_reads_as_words():
    names = {
        PASS: "pass", play_action("10", 3): "play 3x 10", NO_DEMAND: "no demand",
        COMPLY: "comply", REFUSE: "refuse",
        demand_action(3): "demand best card from seat 3", demand_action(11, "Q"): "demand a Q from seat 11",
        keep_action(2): "keep status 2", NO_ASSIGN: "assign no status card",
        assign_action(11, 12): "assign status 12 to seat 11", give_back_action("3"): "give back a 3",
    }
    for action, words in names.items():
        assert action_to_string(action) == words

# ---------------------------------------------------------------- going out and rounds


def test_a_trick_winner_who_went_out_makes_no_demand_and_the_next_player_leads():
    state = ClusterfuckGame(4).position(["K", "3 3", "4 4", "5 5"], [1, 2, 3, 4])
    state.apply_action(play_action("K", 1))
    assert state.out[0] and state.finish == [0]
    for _ in range(3):
        state.apply_action(PASS)
    assert state.current_player() == 1 and PASS not in state.legal_actions()


def end_round_1(options=None):
    """Four players: seats 1, 2, 3 go out in turn, seat 0 is the new Asshole; round 2 has begun."""
    game = ClusterfuckGame(4, options)
    state = game.position(["5 5", "3", "4", "6"], [4, 3, 2, 1], leader=1)
    state.apply_action(play_action("3", 1))        # seat 1 out: Magnate
    state.apply_action(play_action("4", 1))        # seat 2 out second
    state.apply_action(play_action("6", 1))        # seat 3 out third
    return game, state


def test_round_end_crowns_the_first_out_reseats_by_finish_and_redeals():
    _, state = end_round_1({"exchange": 0})
    assert state.round_no == 2 and state.rounds_won == [0, 1, 0, 0]
    assert state.order == [1, 2, 3, 0]
    assert state.status == [4, 0, 0, 0] and state.phase == KEEP_STATUS
    state.apply_action(keep_action(1))
    state.apply_action(assign_action(2, 2))
    assert state.status == [4, 1, 2, 3]
    assert state.current_player() == 1 and state.phase == PLAY
    assert sum(state.held) == 52 and sorted(state.held) == [13, 13, 13, 13]
    # the new Asshole is public; the Magnate knows whom he gave card 2; the rest is secret
    n = 4
    assert [state.known[3 * n + q] for q in range(4)] == [4, 0, 0, 3]
    assert [state.known[1 * n + q] for q in range(4)] == [4, 1, 2, 0]
    assert [state.known[2 * n + q] for q in range(4)] == [4, 0, 2, 0]


def test_with_eight_players_the_first_four_in_the_new_seating_get_seven_cards():
    state = ClusterfuckGame(8).position(["3", "4", "5", "6", "7", "8", "9", "10 10"], list(range(1, 9)))
    for seat in range(7):
        state.apply_action(play_action(RANKS[seat], 1))
    assert state.order == list(range(8))
    assert state.held == [7, 7, 7, 7, 6, 6, 6, 6]
    state.apply_action(keep_action(1))
    state.apply_action(assign_action(1, 2))
    while state.phase == GIVING_BACK:
        state.apply_action(state.legal_actions()[0])
    assert state.held == [7, 7, 7, 7, 6, 6, 6, 6]
    assert state.status[0] == 1 and state.status[1] == 2 and state.status[7] == 8
    assert sorted(state.status[2:7]) == [3, 4, 5, 6, 7]


def test_the_first_player_magnate_of_rounds_to_win_rounds_is_the_true_magnate():
    game = ClusterfuckGame(3, {"rounds_to_win": 2})
    state = game.position(["3", "4 4", "5"], [1, 2, 3], rounds_won=[1, 0, 0], round_no=4)
    state.apply_action(play_action("3", 1))        # seat 0 out first
    state.apply_action(PASS)
    assert not state.is_terminal()
    state.apply_action(play_action("5", 1))        # seat 2 out: only seat 1 has cards
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.rounds_won == [2, 0, 0] and state.rounds_played == 4
    assert state.returns() == [1.0, 0.0, 0.0] and state.winners() == [0]
    assert state.legal_actions() == []


def test_a_magnate_and_asshole_who_keep_their_places_are_counted_from_round_2():
    game = ClusterfuckGame(3)
    state = game.position(["2", "3", "4"], [1, 2, 3], round_no=2)
    state.apply_action(play_action("2", 1))
    state.apply_action(play_action("3", 1))
    metrics = game.metrics(state)
    assert metrics["keep_hits"] == [1, 1, 1] and metrics["keep_rounds"] == 1
    summary = game.summarize([metrics, {**metrics, "keep_hits": [0, 1, 0], "keep_rounds": 1}])
    assert summary["Magnate keeps place"] == 0.5 and summary["Asshole keeps place"] == 0.5
    assert summary["status keeps place"] == {"1": 0.5, "2": 1.0, "3": 0.5}


def test_round_1_statuses_do_not_count_as_keeping_a_place():
    game = ClusterfuckGame(3)
    state = game.position(["2", "3", "4"], [1, 2, 3])
    state.apply_action(play_action("2", 1))
    state.apply_action(play_action("3", 1))
    assert game.metrics(state)["keep_rounds"] == 0



def test_the_magnate_chooses_his_own_status_card_from_all_but_the_asshole_card():
    _, state = end_round_1()
    assert state.current_player() == 1 and state.phase == KEEP_STATUS
    assert state.legal_actions() == [keep_action(k) for k in (1, 2, 3)]
    state.apply_action(keep_action(2))
    assert state.status[1] == 2 and state.phase == ASSIGN_STATUS and state.current_player() == 1
    with pytest.raises(IllegalAction):
        end_round_1()[1].apply_action(keep_action(4))


def test_the_magnate_may_assign_one_card_to_anyone_but_himself_and_the_asshole():
    _, state = end_round_1()
    state.apply_action(keep_action(2))
    assert sorted(state.legal_actions()) == sorted(
        [NO_ASSIGN] + [assign_action(q, k) for q in (2, 3) for k in (1, 3)])
    state.apply_action(assign_action(3, 1))
    assert state.status == [4, 2, 3, 1]
    with pytest.raises(IllegalAction):
        state.clone().apply_action(assign_action(0, 1))


def test_without_an_assignment_the_rest_are_dealt_at_random_and_stay_secret():
    seen = set()
    for seed in range(12):
        game = ClusterfuckGame(6, {"exchange": 0})
        state = game.position(["3", "4", "5", "6", "7", "8 8"], list(range(1, 7)), seed=seed)
        for seat in range(5):
            state.apply_action(play_action(RANKS[seat], 1))
        state.apply_action(keep_action(1))
        state.apply_action(NO_ASSIGN)
        assert state.status[0] == 1 and state.status[5] == 6 and sorted(state.status[1:5]) == [2, 3, 4, 5]
        assert [state.known[0 * 6 + q] for q in range(6)] == [1, 0, 0, 0, 0, 6]
        seen.add(tuple(state.status))
    assert len(seen) > 3


def test_exchange_the_asshole_gives_his_best_cards_and_the_magnate_chooses_what_goes_back():
    _, state = end_round_1({"exchange": 2})
    dealt = [list(h) for h in state.hands]
    state.apply_action(keep_action(1))
    state.apply_action(assign_action(2, 2))
    # the Asshole (seat 0) has given his 2 best, the third out (seat 3) his best, at once
    best = [r for r in reversed(range(13)) for _ in range(dealt[0][r])][:2]
    assert state.held == [11, 15, 14, 12]
    assert all(state.hands[1][r] >= dealt[1][r] + best.count(r) for r in set(best))
    assert state.phase == GIVING_BACK and state.current_player() == 1
    assert state.legal_actions() == [give_back_action(r) for r in range(13) if state.hands[1][r]]
    lowest = next(r for r in range(13) if state.hands[1][r])
    state.apply_action(give_back_action(lowest))
    assert state.current_player() == 1 and state.held[0] == 12
    state.apply_action(state.legal_actions()[-1])      # the Magnate may give back any card, even a 2
    assert state.current_player() == 2 and state.phase == GIVING_BACK
    state.apply_action(state.legal_actions()[0])
    assert state.phase == PLAY and state.current_player() == 1
    assert state.held == [13, 13, 13, 13] and state.cards_total() == 52


def test_with_exchange_zero_the_round_starts_after_the_status_cards():
    _, state = end_round_1({"exchange": "0"})
    state.apply_action(keep_action(1))
    state.apply_action(NO_ASSIGN)
    assert state.phase == PLAY and state.current_player() == 1 and state.held == [13] * 4


@pytest.mark.parametrize("players, exchange, pairs", [
    (8, 2, [(0, 7, 2), (1, 6, 1)]), (8, 3, [(0, 7, 3), (1, 6, 2), (2, 5, 1)]),
    (3, 2, [(0, 2, 2)]), (4, 4, [(0, 3, 4), (1, 2, 3)]), (12, 4, [(0, 11, 4), (1, 10, 3), (2, 9, 2), (3, 8, 1)]),
])
def test_each_pair_inwards_swaps_one_card_fewer(players, exchange, pairs):
    game = ClusterfuckGame(players, {"exchange": exchange})
    hands = [RANKS[seat % 12] for seat in range(players - 1)] + ["2 2"]
    state = game.position(hands, list(range(1, players + 1)))
    for seat in range(players - 1):
        state.apply_action(play_action(hands[seat], 1))
    state.apply_action(keep_action(1))
    state.apply_action(NO_ASSIGN)
    assert [tuple(o) for o in state.owed] == pairs
    dealt = 52 // players
    for winner, loser, cards in pairs:
        assert state.held[loser] <= dealt + 1 - cards and state.held[winner] >= dealt + cards
    while state.phase == GIVING_BACK:
        state.apply_action(state.legal_actions()[0])
    assert state.held == [dealt + (1 if i < 52 % players else 0) for i in range(players)]


def test_greedy_magnate_keeps_card_1_promotes_the_runner_up_and_gives_back_his_lowest():
    game, state = end_round_1()
    rng = random.Random(0)
    assert game.greedy_action(state, 1, rng) == keep_action(1)
    state.apply_action(keep_action(1))
    assert game.greedy_action(state, 1, rng) == assign_action(2, 2)
    state.apply_action(assign_action(2, 2))
    lowest = next(r for r in range(13) if state.hands[1][r])
    assert game.greedy_action(state, 1, rng) == give_back_action(lowest)
    _, other = end_round_1()
    other.apply_action(keep_action(2))
    assert game.greedy_action(other, 1, rng) == assign_action(2, 1)


def test_greedy_asshole_demands_from_last_rounds_magnate_whose_card_is_secret():
    game, state = end_round_1({"exchange": 0})
    state.apply_action(keep_action(1))
    state.apply_action(NO_ASSIGN)
    state.trick_winner = state.player = 0
    state.phase = CHOOSE_DEMAND
    assert state.known[0 * 4 + 1] == 0
    assert game.greedy_action(state, 0, random.Random(0)) == demand_action(1)


def test_cards_played_and_held_name_each_card_by_its_rank():
    game = ClusterfuckGame(4)
    state = game.position(["3 3 K", "4 4 10", "5 5", "6 6"], [1, 2, 3, 4])
    assert state.cards_played() == [[], [], [], []]
    assert state.cards_held() == [["3", "3", "K"], ["4", "4", "10"], ["5", "5"], ["6", "6"]]
    state.apply_action(play_action("3", 2))
    state.apply_action(play_action("4", 2))
    state.apply_action(PASS)
    state.apply_action(PASS)
    state.apply_action(PASS)
    state.apply_action(NO_DEMAND)
    state.apply_action(play_action("10", 1))
    assert state.cards_played() == [["3", "3"], ["4", "4", "10"], [], []]
    assert state.cards_held() == [["K"], [], ["5", "5"], ["6", "6"]]


def test_cards_played_add_up_over_rounds_and_survive_a_clone():
    game = ClusterfuckGame(5, {"rounds_to_win": 2})
    state, _ = playout(game, 3)
    played = state.cards_played()
    assert sum(len(p) for p in played) > 52 * (state.rounds_played - 1)
    assert all(name in RANKS for p in played for name in p)
    held = state.cards_held()
    assert [len(h) for h in held] == state.held and sum(state.held) + sum(state.played) == 52
    copy = state.clone()
    copy.played_by[0][0] += 1
    assert state.cards_played() == played

# ---------------------------------------------------------------- playouts


@pytest.mark.parametrize("players", [3, 5, 8, 12])
def test_random_games_keep_52_cards_and_end_within_the_round_bound(players):
    game = ClusterfuckGame(players)
    per_round_bound = 52 * (13 * players + 2)

    for seed in range(4):
        seen = {"round": 1, "moves": 0}

        def check(state, seen=seen):
            assert state.cards_total() == 52
            assert all(all(k >= 0 for k in h) for h in state.hands)
            assert [sum(h) for h in state.hands] == state.held
            assert all(state.held[p] == 0 for p in state.finish[:-1] or state.finish)
            if state.is_terminal():
                return
            assert state.legal_actions()
            assert state.held[state.current_player()] > 0
            assert state.round_no <= game.max_rounds
            if state.round_no != seen["round"]:
                seen["round"], seen["moves"] = state.round_no, 0
            seen["moves"] += 1
            assert seen["moves"] <= per_round_bound

        state, _ = playout(game, seed, check=check)
        assert max(state.rounds_won) == game.rounds_to_win
        assert sum(state.rounds_won) == state.rounds_played <= game.max_rounds
        assert state.returns().count(1.0) == 1


def test_a_seed_replays_the_same_game():
    game = ClusterfuckGame(8)
    first, moves = playout(game, 11)
    again, moves_again = playout(game, 11)
    assert (moves, first.rounds_won, first.winner) == (moves_again, again.rounds_won, again.winner)
    assert (first.cards_played(), first.cards_held()) == (again.cards_played(), again.cards_held())
    assert first.round_no > 2, "the replay should cover status choices and exchanges"
    other, other_moves = playout(game, 12)
    assert (other_moves, other.rounds_won) != (moves, first.rounds_won)


def test_a_clone_plays_on_without_touching_the_original():
    game = ClusterfuckGame(6)
    state = game.new_initial_state(random.Random(5))
    rng = random.Random(5)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    before = str(state), list(state.held), state.current_player()
    copy = state.clone()
    while not copy.is_terminal():
        copy.apply_action(rng.choice(copy.legal_actions()))
    assert (str(state), list(state.held), state.current_player()) == before


def test_greedy_games_finish_with_a_true_magnate():
    game = ClusterfuckGame(8)
    for seed in range(3):
        state, _ = playout(game, seed, policy="greedy", check=lambda s: s.cards_total() == 52 or pytest.fail())
        assert state.winner is not None and state.rounds_won[state.winner] == 5


def test_greedy_plays_the_lowest_winning_play_and_leads_its_lowest_set():
    game = ClusterfuckGame(4)
    state = game.position(["5 5", "3 6 6 9 9 2 2", "5", "6"], [1, 2, 3, 4])
    assert game.greedy_action(state, 0, random.Random(0)) == play_action("5", 2)
    state.apply_action(play_action("5", 2))
    assert game.greedy_action(state, 1, random.Random(0)) == play_action("6", 2)
    state = game.position(["K", "3 Q", "5", "6"], [1, 2, 3, 4])
    state.apply_action(play_action("K", 1))
    assert game.greedy_action(state, 1, random.Random(0)) == PASS


def test_search_rollouts_play_mostly_greedy_and_legal_moves_throughout():
    game = ClusterfuckGame(5)
    rng = random.Random(7)
    greedy = played = 0
    for seed in range(3):
        state = game.new_initial_state(random.Random(seed))
        while not state.is_terminal():
            player = state.current_player()
            action = game.rollout_action(state, player, rng)
            assert action in state.legal_actions()
            greedy += action == game.greedy_action(state.clone(), player, random.Random(0))
            played += 1
            state.apply_action(action)
    assert greedy / played > game.ROLLOUT_GREEDY - 0.1


def test_greedy_refuses_when_it_would_win_and_bluffs_at_the_bluff_rate():
    honest = ClusterfuckGame(4, {"bluff": 0})
    always = ClusterfuckGame(4, {"bluff": "1"})
    higher = demand_position([3, 2, 1, 4])
    lower = demand_position([1, 3, 2, 4])
    assert honest.greedy_action(higher, 1, random.Random(0)) == REFUSE
    assert honest.greedy_action(lower, 1, random.Random(0)) == COMPLY
    assert always.greedy_action(lower, 1, random.Random(0)) == REFUSE
    half = ClusterfuckGame(4, {"bluff": 0.5})
    rng = random.Random(3)
    refusals = sum(half.greedy_action(lower, 1, rng) == REFUSE for _ in range(400))
    assert 150 < refusals < 250



def test_greedy_complies_with_a_named_demand_it_cannot_fill_and_refuses_one_it_would_win():
    always = ClusterfuckGame(4, {"bluff": 1})
    lacking = named_demand_position([1, 3, 2, 4], ["A 3 3", "K 4 4", "Q 5 5", "J 6 6"], 1, "5")
    assert always.greedy_action(lacking, 1, random.Random(0)) == COMPLY
    holding = named_demand_position([1, 3, 2, 4], ["A 3 3", "K 4 4", "Q 5 5", "J 6 6"], 1, "4")
    assert always.greedy_action(holding, 1, random.Random(0)) == REFUSE
    higher = named_demand_position([3, 2, 1, 4], ["A 3 3", "K 4 4", "Q 5 5", "J 6 6"], 1, "5")
    assert always.greedy_action(higher, 1, random.Random(0)) == REFUSE

def test_greedy_asshole_goes_after_the_known_magnate_and_a_low_status_keeps_quiet():
    game = ClusterfuckGame(4)
    state = game.position(["A 3", "K 4 4", "Q 5 5 5", "J 6"], [4, 1, 2, 3], round_no=2)
    state.known[0 * 4 + 1] = 1
    state.apply_action(play_action("A", 1))
    for _ in range(3):
        state.apply_action(PASS)
    assert game.greedy_action(state, 0, random.Random(0)) == demand_action(1)
    state.known[0 * 4 + 1] = 0
    assert game.greedy_action(state, 0, random.Random(0)) == NO_DEMAND


def test_greedy_magnate_demands_from_the_fullest_hand_but_never_from_the_known_asshole():
    game = ClusterfuckGame(4)
    state = game.position(["A 3", "K 4 4", "Q 5 5 5 7", "J 6"], [1, 2, 4, 3])
    state.apply_action(play_action("A", 1))
    for _ in range(3):
        state.apply_action(PASS)
    assert game.greedy_action(state, 0, random.Random(0)) == demand_action(2)
    state.known[0 * 4 + 2] = 4
    assert game.greedy_action(state, 0, random.Random(0)) == demand_action(1)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(3, 12), seed=st.integers(0, 2**32), rounds=st.integers(1, 3),
       greedy=st.booleans())
def test_any_table_plays_to_a_single_true_magnate_with_every_card_accounted_for(players, seed, rounds, greedy):
    game = ClusterfuckGame(players, {"rounds_to_win": rounds})

    def check(state):
        assert state.cards_total() == 52
        if state.phase not in (KEEP_STATUS, ASSIGN_STATUS):
            assert sorted(state.status) == list(range(1, players + 1))
        assert sorted(state.order) == list(range(players))

    state, _ = playout(game, seed, policy="greedy" if greedy else "random", check=check)
    assert state.winners() == [state.winner] and state.rounds_won[state.winner] == rounds
    metrics = game.metrics(state)
    assert metrics["refused"] <= metrics["demands"]
    assert metrics["reversed"] + metrics["protected"] <= metrics["refused"]
    assert metrics["keep_rounds"] == state.rounds_played - 1


def test_the_summary_reports_means_per_game():
    game = ClusterfuckGame(8)
    metrics = [game.metrics(playout(game, seed)[0]) for seed in range(4)]
    summary = game.summarize(metrics)
    assert summary["rounds until a True Magnate (mean)"] == sum(m["rounds"] for m in metrics) / 4
    assert summary["card demands per game"] == sum(m["demands"] for m in metrics) / 4
    assert 0 <= summary["Magnate keeps place"] <= 1 and 0 <= summary["Asshole keeps place"] <= 1
    assert set(summary["status keeps place"]) == {str(k) for k in range(1, 9)}
    assert game.summarize([]) == {}


def test_each_round_draws_its_statuses_and_its_deal_from_one_generator(monkeypatch):
    # two generators from the same seed would tie the deal to the secret statuses
    seeds_used = []
    original = ClusterfuckState._round_rng

    def counting(self):
        seeds_used.append(self.round_no)
        return original(self)

    monkeypatch.setattr(ClusterfuckState, "_round_rng", counting)
    game = ClusterfuckGame(5, {"rounds_to_win": 3})
    rng = random.Random(7)
    state = game.new_initial_state(random.Random(7))
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.round_no > 2
    assert len(seeds_used) == len(set(seeds_used)), "a round seeded two shuffles alike"


# ---------------------------------------------------------------- the printed reference


@pytest.mark.parametrize("exchange, line", [
    ("3", "gives the Magnate his 3 best cards and gets back any 3 the Magnate chooses"), ("0", None)])
def test_the_reference_card_states_the_exchange_only_when_it_is_on(exchange, line):
    from cardgen.deck import load_deck
    from cardgen.prepare import BuildSettings, prepare
    from cardgen.render.reference import reference_lines

    deck = prepare(load_deck("clusterfuck"), BuildSettings(options={"standard_deck": "true", "exchange": exchange}))
    (card,) = [c for c in deck.cards if c.kind == "reference"]
    lines = reference_lines(card, deck.options)
    exchange_lines = [text for text in lines if "best cards" in text]
    assert len(exchange_lines) == (0 if line is None else 1)
    assert line is None or line in exchange_lines[0]
    assert any("may give one more" in text for text in lines)
    assert any("a card you name" in text for text in lines)


def test_playtest_takes_the_exchange_option_from_the_command_line(cli):
    off = cli("playtest", "clusterfuck", "--games", "3", "--option", "exchange=0", "--json")
    assert off.exit_code == 0, off.output
    assert '"exchange": 0' in off.output
    bad = cli("playtest", "clusterfuck", "--games", "3", "--option", "exchange=9")
    assert bad.exit_code != 0 and "option 'exchange' must be a whole number from 0 to 4" in bad.output
