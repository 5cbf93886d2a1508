"""Clusterfuck's fast paths: forced moves made by the engine, random_action, num_legal_actions."""
from __future__ import annotations

import random

import pytest

from cardgen.games.clusterfuck.policies import ClusterfuckGame
from cardgen.games.clusterfuck.rules import ClusterfuckState


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


# --- a random game played out whole (random_playout) ------------------------------


def step_random(game, state, rng, max_moves=10_000):
    """The runner's all-random game, move by move through the checked ``apply_action``."""
    branching, moves = [], 0
    while not state.is_terminal() and moves < max_moves:
        player = state.current_player()
        branching.append(state.num_legal_actions(player))
        state.apply_action(game.random_action(state, player, rng))
        moves += 1
    return branching, moves


def position_of(state):
    """Everything a state holds but the card knowledge a playout stops tracking."""
    return {k: v for k, v in vars(state).items() if k not in ("seen_in_hand", "_beats")}


def stepped_and_played_out(game, seed, max_moves=10_000):
    stepped = game.new_initial_state(random.Random(seed))
    stepped_branching, stepped_moves = step_random(game, stepped, random.Random(seed + 1), max_moves)
    quick = game.new_initial_state(random.Random(seed))
    branching: list[int] = []
    moves = game.random_playout(quick, random.Random(seed + 1), max_moves, branching)
    return (stepped, stepped_branching, stepped_moves), (quick, branching, moves)


@pytest.mark.parametrize("players", [3, 4, 5, 8, 12])
def test_a_random_playout_is_the_checked_step_by_step_game_move_for_move(players):
    """The same draws make the same moves: every move legal (apply_action checks them), each
    decision's count of legal plays as num_legal_actions gives it, and the same end."""
    game = ClusterfuckGame(players)
    for seed in range(6):
        (stepped, stepped_branching, stepped_moves), (quick, branching, moves) = stepped_and_played_out(game, seed)
        assert quick.is_terminal()
        assert (branching, moves) == (stepped_branching, stepped_moves)
        assert position_of(quick) == position_of(stepped)
        assert quick.returns() == stepped.returns() and quick.winners() == stepped.winners()
        assert game.metrics(quick) == game.metrics(stepped)
        assert quick.cards_played() == stepped.cards_played()
        assert quick.cards_held() == stepped.cards_held()


def test_the_fast_playouts_copy_of_the_rules_is_the_step_code_game_by_game_over_many_seeds():
    """``playout._play_round_out`` is a second copy of the rules of a trick and a demand: over many
    seeds, every player count and exchange size, it plays each game the step code plays from the
    same draws (every decision's count of legal actions, the end, the figures, the cards)."""
    for seed in range(150):
        players = 3 + seed % 10
        options = {"exchange": seed % 5, "rounds_to_win": 1 + seed % 3}
        game = ClusterfuckGame(players, options)
        (stepped, stepped_branching, stepped_moves), (quick, branching, moves) = stepped_and_played_out(game, seed)
        assert (branching, moves) == (stepped_branching, stepped_moves), (seed, players)
        assert position_of(quick) == position_of(stepped), (seed, players)
        assert game.metrics(quick) == game.metrics(stepped)
        assert quick.cards_played() == stepped.cards_played() and quick.cards_held() == stepped.cards_held()


@pytest.mark.parametrize("options", [{"exchange": 0}, {"exchange": 4, "rounds_to_win": 2}, {"bluff": 1.0},
                                     {"status_powers": False}, {"status_powers": False, "exchange": 0}])
def test_a_random_playout_follows_the_options(options):
    game = ClusterfuckGame(6, options)
    for seed in range(3):
        (stepped, stepped_branching, _), (quick, branching, _) = stepped_and_played_out(game, seed)
        assert branching == stepped_branching and position_of(quick) == position_of(stepped)


def test_a_playout_cut_off_at_max_moves_stops_where_the_stepped_game_stops_and_plays_on_alike():
    game = ClusterfuckGame(8)
    for max_moves in (0, 1, 2, 3, 7, 40, 111, 250, 999):
        (stepped, stepped_branching, stepped_moves), (quick, branching, moves) = stepped_and_played_out(
            game, max_moves, max_moves)
        assert moves == stepped_moves == max_moves == len(branching)
        assert branching == stepped_branching and not quick.is_terminal()
        assert position_of(quick) == position_of(stepped)
        rng, again = random.Random(5), random.Random(5)
        assert step_random(game, quick, rng) == step_random(game, stepped, again)
        assert position_of(quick) == position_of(stepped)


def test_every_phase_can_be_where_a_playout_is_cut_off_and_resumed():
    """Cut off at every move of a game and go on with another playout: still the same game."""
    game = ClusterfuckGame(5, {"rounds_to_win": 2})
    (whole, _, length), _ = stepped_and_played_out(game, 3)
    phases = set()
    for cut in range(length + 1):
        state, rng, branching = game.new_initial_state(random.Random(3)), random.Random(4), []
        first = game.random_playout(state, rng, cut, branching)
        phases.add(state.phase)
        assert first + game.random_playout(state, rng, 10_000, branching) == length
        assert position_of(state) == position_of(whole)
    assert len(phases) == 7


def test_a_hand_built_position_is_played_out_like_stepping_forced_moves_or_not():
    game = ClusterfuckGame(4)
    hands = ["3 3 4 9 K", "5 5 6 J", "7 8 8 Q A", "10 10 2 2"]
    for forced in (False, True):
        stepped = game.position(hands, [2, 1, 4, 3], leader=1, plays_forced=forced)
        quick = game.position(hands, [2, 1, 4, 3], leader=1, plays_forced=forced)
        expected = step_random(game, stepped, random.Random(9))
        branching: list[int] = []
        assert game.random_playout(quick, random.Random(9), 10_000, branching) == expected[1]
        assert branching == expected[0] and position_of(quick) == position_of(stepped)


def test_the_runner_plays_all_random_clusterfuck_games_out_whole_with_the_stepped_record():
    from cardgen import playtest

    game = ClusterfuckGame(8)
    seats = ["random"] * 8
    for index in range(3):
        record = playtest.play_game(game, index, seed=11, seats=seats)
        rng = random.Random(f"cardgen-playtest:11:{index}")
        state = game.new_initial_state(rng)
        branching: list[int] = []
        length = playtest._play_out(game, state, seats, rng, playtest.DEFAULT_MAX_MOVES, branching)
        assert (record.length, record.branching, record.winners) == (length, branching, state.winners())
        assert record.metrics == game.metrics(state)
        assert (record.played, record.held) == (state.cards_played(), state.cards_held())


@pytest.mark.parametrize("players", [3, 7, 8, 12])
def test_a_deal_gives_the_hands_of_shuffling_the_deck_and_dealing_it_from_the_leader(players):
    from cardgen.games.clusterfuck.cards import _FULL_DECK, _deal

    for seed in range(200):
        order = random.Random(seed).sample(range(players), players)
        leader = seed % players
        shuffler, dealer = random.Random(seed), random.Random(seed)
        cards = _FULL_DECK[:]
        shuffler.shuffle(cards)
        hands = [[0] * 13 for _ in range(players)]
        for i, rank in enumerate(cards):
            hands[order[(leader + i) % players]][rank] += 1
        assert _deal(dealer, order, leader) == hands
        assert shuffler.random() == dealer.random()  # the same draws, no more


def test_the_playouts_rank_masks_mark_the_ranks_a_hand_holds_c_times_or_more():
    from cardgen.games.clusterfuck.playout import _rank_masks

    rng = random.Random(1)
    for _ in range(300):
        hands = [[rng.randrange(5) for _ in range(13)] for _ in range(rng.randrange(3, 13))]
        masks = _rank_masks(hands)
        assert len(masks) == 5 and not any(masks[0])
        for c in range(1, 5):
            assert masks[c] == [sum(1 << r for r, h in enumerate(hand) if h >= c) for hand in hands]


def test_the_round_generators_are_random_random_seeded_alike_and_shuffle_as_it_does():
    """The rounds' generators (``_random.Random(seed)``) draw what ``random.Random(seed)`` draws,
    and ``base.shuffle`` and ``base.sample`` make ``shuffle``'s and ``sample``'s draws: the same
    orders, and the generators left alike."""
    import _random

    from cardgen.games.base import sample
    from cardgen.games.base import shuffle as _shuffle

    for seed in [*range(300), 2**48 - 1, 2**64 + 5, 12345678901234567890123]:
        items = list(range(1, 1 + seed % 13))
        expected, got = items[:], items[:]
        reference, quick = random.Random(seed), _random.Random(seed)
        reference.shuffle(expected)
        _shuffle(quick, got)
        assert got == expected
        assert reference.getrandbits(64) == quick.getrandbits(64)  # the same draws, no more
        assert quick.random() == reference.random()
        for k in range(len(items) + 1):  # and ``base.sample`` makes ``sample``'s
            assert sample(quick, items, k) == reference.sample(items, k)
            assert reference.getrandbits(64) == quick.getrandbits(64)
    many = list(range(40))  # a larger population: ``sample`` itself
    assert sample(random.Random(1), many, 30) == random.Random(1).sample(many, 30)
    state = ClusterfuckGame(5).new_initial_state(random.Random(3))
    twister = random.Random((state.deal_seed << 16) + state.round_no).getstate()[1]
    assert state._round_rng().getstate() == twister


def test_a_seed_replays_the_same_played_out_game_and_another_seed_another():
    game = ClusterfuckGame(8)

    def play(seed):
        state, branching = game.new_initial_state(random.Random(seed)), []
        moves = game.random_playout(state, random.Random(seed), 10_000, branching)
        return moves, branching, position_of(state)

    assert play(4) == play(4)
    assert play(4) != play(5)


def test_a_determinization_deals_from_the_position_as_it_is_now():
    """What a position's determinizations start from is worked out once per position and player
    (``_deal_plan``) and dropped by the next move: a determinization after moves, of a position
    dealt for before, is the one a fresh copy of that position deals with the same seed."""
    game = ClusterfuckGame(5)
    state = game.new_initial_state(random.Random(8))
    rng = random.Random(9)
    dealt = 0
    while not state.is_terminal() and state.round_no < 4:
        for me in {0, state.player}:
            seed = rng.randrange(10**6)
            det = state.determinize(me, random.Random(seed))
            again = state.determinize(me, random.Random(seed))  # from the plan kept
            fresh = state.clone().determinize(me, random.Random(seed))
            for other in (again, fresh):
                assert (other.hands, other.status, other.known, other.deal_seed, other.status_seed) == (
                    det.hands, det.status, det.known, det.deal_seed, det.status_seed)
            assert det.hands[me] == state.hands[me] and det.held == state.held
            dealt += 1
        state.apply_action(game.greedy_action(state, state.player, rng))
    assert dealt > 100
