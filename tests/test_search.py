"""Information-set MCTS: budgets, determinizations that keep to what a player has seen, seeded play."""
from __future__ import annotations

import math
import random

import pytest

from cardgen.errors import CardgenError
from cardgen.games.base import TERMINAL, Game, State
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


def test_a_search_policy_names_its_budget_and_what_a_tie_is_worth():
    from cardgen.search import SearchPolicy, parse_search

    assert parse_search("") == SearchPolicy(Budget(), None)
    assert parse_search("300:tie=1") == SearchPolicy(Budget(simulations=300), 1.0)
    assert parse_search("tie=0.5") == SearchPolicy(Budget(), 0.5)
    assert parse_search("0.5s:tie=.25") == SearchPolicy(Budget(simulations=None, seconds=0.5), 0.25)
    assert str(parse_search("300:tie=1")) == "mcts:300:tie=1" and str(parse_search("")) == "mcts"
    for bad, why in (("300:tie=2", "a number from 0"), ("300:tie=", "a number from 0"), ("tie=-1", "a number"),
                     ("300:tie=1:tie=0", "given twice"), ("300:300", "a second budget"),
                     ("300:draw=1", "unknown option 'draw'"), ("lots:tie=1", "mcts budget")):
        with pytest.raises(CardgenError, match=why):
            parse_search(bad)
    assert check_policy("mcts:300:tie=1") == "mcts:300:tie=1"
    for name in ("greedy:tie=1", "random:tie=1"):
        with pytest.raises(CardgenError, match="tie= is an option of mcts only"):
            check_policy(name)


def test_the_command_refuses_a_tie_for_a_policy_that_cannot_value_one(cli):
    for args in (("playtest", "common-carrier", "--policy", "greedy:tie=1"),
                 ("playtest", "common-carrier", "--vs", "mcts:10:tie=3"),
                 ("analyze", "common-carrier", "--policy", "mcts:10:tie=yes")):
        result = cli(*args)
        assert result.exit_code == 2, result.output
        assert "tie=" in result.output and "Traceback" not in result.output


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


def test_a_tie_is_worth_what_the_searching_player_says_and_half_to_the_rival_it_imagines():
    from cardgen.search import utility

    assert utility([0.0, 0.0], (1, 1.0)) == [0.5, 1.0]
    assert utility([0.0, 0.0], (0, 0.0)) == [0.0, 0.5]
    assert utility([1.0, 0.0], (1, 1.0)) == [1.0, 0.0]  # a decided game is what it is


class _Finish(Game):
    """One move ends the game: player 1 wins, draws, loses, or gambles on a hidden coin that comes
    up a win 7 times in 10 (dealt again in each determinization)."""

    name = "finish"
    search_keeps_tree = True  # the search keeps its root, whose statistics the tests read

    def __init__(self, moves=("win", "draw", "lose", "gamble")):
        super().__init__(2)
        self.moves = list(moves)

    def new_initial_state(self, rng: random.Random) -> _FinishState:
        return _FinishState(self, rng.random() < 0.7)


class _FinishState(State):
    def __init__(self, game: _Finish, coin: bool):
        self.game, self.coin, self.result = game, coin, None

    def current_player(self) -> int:
        return TERMINAL if self.result is not None else 0

    def legal_actions(self, player=None):
        return [] if self.result is not None else list(self.game.moves)

    def apply_action(self, action):
        self.result = ("win" if self.coin else "lose") if action == "gamble" else action

    def is_terminal(self) -> bool:
        return self.result is not None

    def returns(self):
        return {"win": [1.0, 0.0], "lose": [0.0, 1.0], "draw": [0.0, 0.0]}[self.result]

    def clone(self):
        other = _FinishState(self.game, self.coin)
        other.result = self.result
        return other

    def determinize(self, player, rng):
        return _FinishState(self.game, rng.random() < 0.7)


def _root_means(moves, tie, simulations=600):
    from cardgen.search import Search

    game = _Finish(moves)
    search = Search(game, 0, Budget(simulations=simulations), tie=tie)
    choice = search.choose(game.new_initial_state(random.Random(1)), random.Random(2))
    root = search._root
    return choice, {a: child.totals[0] / child.visits for a, child in root.children.items()}


def test_a_tie_seeking_search_prefers_a_sure_draw_to_a_gamble_the_usual_search_takes():
    assert _root_means(("draw", "gamble"), None)[0] == "gamble"  # 0.7 of a win beats half of one
    choice, means = _root_means(("draw", "gamble"), 1.0)
    assert choice == "draw" and means["draw"] == 1.0 > means["gamble"]


def test_a_tie_seeking_search_prefers_a_draw_to_a_loss_and_values_it_as_a_win():
    choice, means = _root_means(("lose", "draw"), 1.0)
    assert choice == "draw" and means == {"lose": 0.0, "draw": 1.0}
    _, means = _root_means(("win", "draw"), 1.0)
    assert means == {"win": 1.0, "draw": 1.0}  # indifferent: a tie is as good as a win
    _, means = _root_means(("win", "draw"), None)
    assert means == {"win": 1.0, "draw": 0.5}


def test_a_tie_seeking_common_carrier_search_judges_a_position_by_the_rivals_path():
    """Where the search judges an unfinished position (Common Carrier after the reply), a seat that
    counts a tie as a win values it at 1 - r/t * (1 - m/(2t)): the rival's best path r weighs about
    twice its own m (docs/rules-readings.md)."""
    from cardgen.search import _judged

    game = CommonCarrierGame()
    state = game.new_initial_state(random.Random(5))
    rng = random.Random(6)
    while not (state.value(0) and state.value(1)):  # both have a path, neither has won
        state.apply_action(game.greedy_action(state, state.current_player(), rng))
    assert not state.is_terminal()
    m, r, t = state.value(1), state.value(0), game.target
    usual = game.evaluate(state)
    judged = _judged(game, state, usual, (1, 1.0))
    assert judged[0] == usual[0] and judged[1] == pytest.approx(1 - r / t * (1 - m / (2 * t)))
    assert _judged(game, state, usual, (1, 0.5)) == pytest.approx(usual)  # half a win: as usual
    assert _judged(game, state, usual, (1, 0.0))[1] < usual[1]


# -- dotCOMbust: the others' hands dealt again -----------------------------------

def _dotcombust_midgame(seed: int = 3, turns: int = 8, **options):
    from cardgen.games.dotcombust.policies import DotcombustGame

    game = DotcombustGame(options=options)
    state = game.new_initial_state(random.Random(seed))
    rng = random.Random(seed + 1)
    n = game.num_players
    for _ in range(turns):
        state.apply_action(tuple(rng.choice(state.legal_actions(p)) for p in range(n)))
    assert not state.is_terminal()
    return game, state


def test_a_dotcombust_determinization_keeps_what_the_player_has_seen():
    game, state = _dotcombust_midgame(no_tagbacks=True)
    n = game.num_players
    for me in range(n):
        others = set()
        for seed in range(20):
            det = state.determinize(me, random.Random(seed))
            assert det.hands[me] == state.hands[me]
            assert det.hand_sizes == state.hand_sizes == [sum(h) for h in det.hands]
            assert det.shown == state.shown and det.points == state.points and det.turn == state.turn
            for a in range(len(game.asset_sizes)):  # every part is still somewhere
                assert sum(h[a] for h in det.hands) == sum(h[a] for h in state.hands)
            for q in range(n):  # parts the player knows another holds stay there
                for a, parts in state.known_parts[me * n + q].items():
                    assert det.hands[q][a] >= parts
            assert det.legal_actions(me) == state.legal_actions(me)
            others.add(tuple(tuple(det.hands[q]) for q in range(n) if q != me))
        assert len(others) > 1  # hidden cards are really dealt again


def test_dotcombust_a_part_kept_by_the_receiver_is_known_to_the_passer():
    from cardgen.games.dotcombust.policies import DotcombustGame
    from cardgen.games.dotcombust.rules import Pass

    game = DotcombustGame(3, assets=[3, 3, 3, 3])
    state = game.state_from_hands([[2, 1, 1, 0], [0, 1, 1, 2], [1, 1, 1, 1]])
    # turn 0 passes one seat left: 0 gives asset 0 face down to 1, who has none and keeps it
    state.apply_action((Pass((0,), False), Pass((1,), True), Pass((3,), True)))
    assert state.hands[1][0] == 1
    # seat 1's face-up pass to seat 2 and its answer (two parts back) are seen by the whole table
    assert state.known_parts[0 * 3 + 1] == {0: 1, 1: 2}
    # seat 2 saw only a card move to seat 1 face down, but knows the two parts it answered with
    assert state.known_parts[2 * 3 + 1] == {1: 2}
    for seed in range(10):
        assert state.determinize(0, random.Random(seed)).hands[1][0] >= 1
    assert any(state.determinize(2, random.Random(seed)).hands[1][0] == 0 for seed in range(20))


def test_dotcombust_determinizations_are_independent_copies():
    _, state = _dotcombust_midgame()
    before = [h[:] for h in state.hands]
    det = state.determinize(0, random.Random(1))
    det.hands[1][0] += 5
    det.points[0] += 9
    assert state.hands == before and det.known_parts is None and state.known_parts is not None


def test_mcts_plays_dotcombust_to_the_end_and_is_seeded():
    from cardgen.games.dotcombust.policies import DotcombustGame

    game = DotcombustGame(options={"assets": 8})
    one = run_playtest(game, 2, seed=3, policy="mcts:20", vs="random")
    two = run_playtest(game, 2, seed=3, policy="mcts:20", vs="random")
    keys = ("seat_win_rates", "length_counts", "outcomes")
    assert [one[k] for k in keys] == [two[k] for k in keys]
    assert one["outcomes"]["timeouts"] == 0


# -- Clusterfuck: the others' hands and secret statuses dealt again -------------

def _clusterfuck_after_exchange(seed: int = 2):
    """A game played at random into round 2, just after the exchange's give-backs."""
    from cardgen.games.clusterfuck.policies import ClusterfuckGame
    from cardgen.games.clusterfuck.rules import GIVING_BACK, PLAY

    game = ClusterfuckGame(options={"players": 5})
    state = game.new_initial_state(random.Random(seed))
    rng = random.Random(seed + 1)
    gave_back = False
    while not (gave_back and state.phase == PLAY):
        gave_back = gave_back or state.phase == GIVING_BACK
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.round_no == 2
    return game, state


def test_a_clusterfuck_determinization_keeps_what_the_player_has_seen():
    game, state = _clusterfuck_after_exchange()
    n = game.num_players
    for me in range(n):
        hands, statuses = set(), set()
        for seed in range(20):
            det = state.determinize(me, random.Random(seed))
            assert det.hands[me] == state.hands[me]
            assert det.held == state.held == [sum(h) for h in det.hands]
            assert det.played == state.played and det.out == state.out and det.order == state.order
            for r in range(13):  # every card is still somewhere
                assert sum(h[r] for h in det.hands) == sum(h[r] for h in state.hands)
            assert sorted(det.status) == sorted(state.status)
            for q in range(n):  # statuses the player knows, and cards it handed over, stay
                if state.known[me * n + q]:
                    assert det.status[q] == state.status[q]
                for r, cards in state.seen_in_hand[me * n + q].items():
                    assert det.hands[q][r] >= cards
            for i, number in enumerate(det.known):  # the others' knowledge follows the new deal
                assert number in (0, det.status[i % n])
            assert det.legal_actions(me) == state.legal_actions(me)
            hands.add(tuple(tuple(det.hands[q]) for q in range(n) if q != me))
            statuses.add(tuple(det.status))
        assert len(hands) > 1  # hidden cards are really dealt again
        assert len(statuses) > 1  # and so are the statuses the player has not seen


def test_clusterfuck_determinizations_are_independent_copies():
    _, state = _clusterfuck_after_exchange()
    before, statuses = [h[:] for h in state.hands], state.status[:]
    det = state.determinize(0, random.Random(1))
    det.hands[1][0] += 5
    det.status[1] = 99
    det.known[0] = 99
    assert state.hands == before and state.status == statuses and state.known[0] != 99
    assert det.seen_in_hand is None and state.seen_in_hand is not None


def test_clusterfuck_the_exchange_winner_knows_what_it_gave_back():
    from cardgen.games.clusterfuck.cards import GIVE_BACK
    from cardgen.games.clusterfuck.policies import ClusterfuckGame
    from cardgen.games.clusterfuck.rules import GIVING_BACK

    game = ClusterfuckGame(options={"players": 5})
    state = game.new_initial_state(random.Random(4))
    rng = random.Random(5)
    while state.phase != GIVING_BACK:
        state.apply_action(rng.choice(state.legal_actions()))
    winner, loser, _ = state.owed[0]
    rank = state.legal_actions()[0] - GIVE_BACK
    state.apply_action(GIVE_BACK + rank)
    n = game.num_players
    assert state.seen_in_hand[winner * n + loser].get(rank, 0) >= 1
    for seed in range(10):
        assert state.determinize(winner, random.Random(seed)).hands[loser][rank] >= 1


def test_mcts_plays_clusterfuck_to_the_end_and_is_seeded():
    from cardgen.games.clusterfuck.policies import ClusterfuckGame

    game = ClusterfuckGame(options={"players": 4, "rounds_to_win": 1})
    one = run_playtest(game, 2, seed=3, policy="mcts:20", vs="random")
    two = run_playtest(game, 2, seed=3, policy="mcts:20", vs="random")
    keys = ("seat_win_rates", "length_counts", "outcomes")
    assert [one[k] for k in keys] == [two[k] for k in keys]
    assert one["outcomes"]["timeouts"] == 0


def test_common_carrier_judges_positions_for_the_search():
    game = CommonCarrierGame(options={"target": 5})
    state = game.new_initial_state(random.Random(4))
    assert game.evaluate(state) == [0.5, 0.5]
    rng = random.Random(5)
    while not state.is_terminal():
        judged = game.evaluate(state)
        assert sum(judged) == pytest.approx(1) and all(0 <= v <= 1 for v in judged)
        lead = state.value(0) - state.value(1)
        assert (judged[0] > 0.5) == (lead > 0) and (judged[0] < 0.5) == (lead < 0)
        state.apply_action(game.random_action(state, state.current_player(), rng))
    winners = state.winners()
    assert game.evaluate(state) == ([0.5, 0.5] if not winners else [float(p in winners) for p in (0, 1)])


def test_rollouts_stop_early_where_the_game_can_judge(monkeypatch):
    from cardgen import search

    game = CommonCarrierGame()
    game.rollout_depth = 3  # a game may set its own depth: here 3 moves
    state = game.new_initial_state(random.Random(2))
    moves = []
    real = type(state).apply_action

    def counting(self, action):
        moves.append(1)
        return real(self, action)

    monkeypatch.setattr(type(state), "apply_action", counting)
    search._rollout(game, state.clone(), random.Random(3))
    assert len(moves) == 3


def test_a_guided_search_widens_best_first_and_looks_two_moves_deep(monkeypatch):
    """Common Carrier has hundreds of plays a move: the search tries them best first by the
    heuristic, about sqrt(simulations) of them, each answered by the opponent's greedy reply first."""
    from cardgen import search

    game = CommonCarrierGame()
    assert game.search_guided
    state = game.new_initial_state(random.Random(5))
    rng = random.Random(6)
    for _ in range(4):
        state.apply_action(game.random_action(state, state.current_player(), rng))
    me = state.current_player()
    ranked = search._ranked(game, state, me)
    assert sorted(map(repr, ranked)) == sorted(map(repr, state.legal_actions()))
    scores = []
    for action in ranked:
        trial = state.clone()
        trial.apply_action(action)
        scores.append(game.heuristic(trial, me))
    assert scores == sorted(scores, reverse=True)
    roots = []
    real = search._simulate_guided
    monkeypatch.setattr(search, "_simulate_guided", lambda g, d, root, *a: roots.append(root) or real(g, d, root, *a))
    mcts_action(game, state, me, random.Random(7), Budget(simulations=400))
    root = roots[0]
    assert len(roots) == 400 and root.visits == 400
    assert set(root.children) == set(ranked[:len(root.children)])  # a prefix of the ranking
    assert len(root.children) <= math.ceil(search.WIDENING * math.sqrt(400)) < len(ranked)
    # a reply node holds the opponent's plays only, and no node is deeper than the reply
    for child in root.children.values():
        assert all(not grandchild.children for grandchild in child.children.values())


def test_rollouts_play_the_games_own_rollout_policy_where_it_has_one(monkeypatch):
    from cardgen import search

    game = CommonCarrierGame()
    game.rollout_depth = 3
    state = game.new_initial_state(random.Random(2))
    asked = []

    def rollout_action(state, player, rng):
        asked.append(player)
        return game.random_action(state, player, rng)

    monkeypatch.setattr(game, "rollout_action", rollout_action, raising=False)
    search._rollout(game, state.clone(), random.Random(3))
    assert len(asked) == 3


def test_the_search_explores_as_much_as_the_game_asks(monkeypatch):
    from cardgen import search

    game = CommonCarrierGame()
    game.search_guided = False  # the plain search, whose walks take the exploration constant
    state = game.new_initial_state(random.Random(2))
    used = []
    real = search._simulate

    def spying(game, det, root, rng, exploration, *rest):
        used.append(exploration)
        return real(game, det, root, rng, exploration, *rest)

    monkeypatch.setattr(search, "_simulate", spying)
    mcts_action(game, state, state.current_player(), random.Random(1), Budget(simulations=3))
    monkeypatch.setattr(game, "exploration", 0.25, raising=False)
    mcts_action(game, state, state.current_player(), random.Random(1), Budget(simulations=3))
    mcts_action(game, state, state.current_player(), random.Random(1), Budget(simulations=3), exploration=0.5)
    assert used == [search.EXPLORATION] * 3 + [0.25] * 3 + [0.5] * 3


# -- the move cap, lazy replies, the tree kept between moves -----------------------

class _Forever(Game):
    """A plug-in's game that never ends: two players take turns saying 0 or 1 for ever."""

    name = "forever"

    def __init__(self):
        super().__init__(2)
        self.applied = 0

    def new_initial_state(self, rng: random.Random) -> _ForeverState:
        return _ForeverState(self)


class _ForeverState(State):
    def __init__(self, game: _Forever):
        self.game, self.turn = game, 0

    def current_player(self) -> int:
        return self.turn % 2

    def legal_actions(self, player=None):
        return [0, 1]

    def apply_action(self, action):
        self.game.applied += 1
        self.turn += 1

    def is_terminal(self) -> bool:
        return False

    def returns(self):
        return [0.0, 0.0]

    def clone(self):
        other = _ForeverState(self.game)
        other.turn = self.turn
        return other

    def determinize(self, player, rng):
        return self.clone()


def test_mcts_honours_the_move_cap_in_a_game_that_never_ends():
    """Issue 26 row 11: random and greedy stopped at the cap, a search did not (its rollouts ran
    on past it): now no simulation plays beyond the moves the game has left."""
    game = _Forever()
    cap, budget = 60, 5
    report = run_playtest(game, 1, seed=1, policy="mcts:5", max_moves=cap)
    assert report["outcomes"]["timeouts"] == 1.0 and report["mean_length"] == cap
    # each of the cap's moves searched with 5 simulations, each playing at most the moves left
    assert game.applied <= cap + budget * sum(cap - m for m in range(cap))
    assert game.applied > cap * budget  # and the simulations did play moves


def test_mcts_alone_stops_its_simulations_at_the_moves_left():
    game = _Forever()
    state = game.new_initial_state(random.Random(1))
    mcts_action(game, state, 0, random.Random(2), Budget(simulations=10), moves_left=3)
    assert game.applied <= 10 * 3


def test_a_guided_reply_is_drawn_not_listed(monkeypatch):
    """Common Carrier's replies number in the hundreds: the search draws one (random_action) and
    checks only those it has tried; it never lists the reply set of a deal."""
    from cardgen.games.common_carrier.rules import CommonCarrierState

    game = CommonCarrierGame()
    state = game.new_initial_state(random.Random(5))
    rng = random.Random(6)
    for _ in range(6):
        state.apply_action(game.random_action(state, state.current_player(), rng))
    me = state.current_player()
    listed = []
    real = CommonCarrierState.legal_actions

    def listing(self, player=None):
        listed.append(self.current_player())
        return real(self, player)

    monkeypatch.setattr(CommonCarrierState, "legal_actions", listing)
    mcts_action(game, state, me, random.Random(7), Budget(simulations=300))
    # the root's plays are listed to rank them (and the greedy reply looks at its own), never the
    # rival's reply set in a simulation
    assert listed.count(1 - me) == 0 and listed.count(me) <= 2


def test_is_legal_agrees_with_the_listed_plays():
    game = CommonCarrierGame(options={"gray_rule": True})
    state = game.new_initial_state(random.Random(11))
    rng = random.Random(12)
    other = game.new_initial_state(random.Random(13))
    for _ in range(12):
        if state.is_terminal():
            break
        mover = state.current_player()
        legal = state.legal_actions()
        probe = state.clone()
        probe._legal = probe._legal_set = None  # checked from the cards and the board, not the list
        assert all(probe.is_legal(mover, a) for a in legal[:40])
        assert not probe.is_legal(1 - mover, legal[0])
        foreign = [a for a in other.legal_actions()[:40] if a not in set(legal)]
        assert not any(probe.is_legal(mover, a) for a in foreign)
        assert not probe.is_legal(mover, "nonsense") and not probe.is_legal(mover, ((1,),))
        state.apply_action(game.random_action(state, mover, rng))


def test_is_legal_remembered_for_a_board_holds_in_every_deal_of_it():
    """A search's deals share what a board answers: a reply checked in one deal (its cards held
    there) is answered again in another from the board, and still only where its cards are held
    and the decision places as many: as a check from scratch answers."""
    game = CommonCarrierGame(options={"hole_card": True})
    state = game.new_initial_state(random.Random(21))
    rng = random.Random(22)
    checked = held = 0
    for _ in range(10):
        if state.is_terminal():
            break
        mover = state.current_player()
        after = state.clone()
        after.apply_action(game.random_action(after, mover, rng))
        if after.is_terminal():
            break
        replier = after.current_player()
        deals = [after.determinize(mover, random.Random(seed)) for seed in range(6)]
        replies = [a for deal in deals for a in deal.legal_actions()[::7]]
        for deal in deals:
            probe = after.determinize(mover, random.Random(99))  # the same board, a hand of its own
            probe.hands[replier] = list(deal.hands[replier])
            probe._invalidate()
            fresh = deal.clone()  # checked from scratch: its own board answers, nothing listed
            fresh._remember = False
            fresh._invalidate()
            for reply in replies:
                legal = probe.is_legal(replier, reply)
                assert legal == (fresh._illegal(reply) is None)
                checked += 1
                held += legal
        state.apply_action(game.random_action(state, mover, rng))
    assert checked > 1000 and 100 < held < checked - 100


def test_a_search_keeps_its_tree_between_moves_where_every_move_is_seen():
    from cardgen_gops import GopsGame

    from cardgen.search import Search

    game = GopsGame(options={"cards": 4})  # 16 joint bids a turn: 200 simulations try them all
    assert game.search_keeps_tree
    state = game.new_initial_state(random.Random(3))
    search = Search(game, 0, Budget(simulations=200))
    rng = random.Random(4)
    mine = search.choose(state, rng)
    root = search._root
    theirs = state.legal_actions(1)[0]
    joint = (mine, theirs)
    state.apply_action(joint)
    carried = root.children.get(joint)
    assert carried is not None and carried.visits > 0
    search.choose(state, rng, since=[joint])
    assert search._root is carried and carried.visits >= 200 + 1
    assert search.simulations == 400
    # a move the tree never tried, or no moves told: a new tree
    fresh = Search(game, 0, Budget(simulations=50))
    fresh.choose(state, rng)
    assert fresh._carried(None) is None and fresh._carried([("no", "such")]) is None


def test_a_kept_tree_plays_the_same_seeded_game():
    from cardgen_gops import GopsGame

    one = run_playtest(GopsGame(), 3, seed=2, policy="mcts:60", vs="random")
    two = run_playtest(GopsGame(), 3, seed=2, policy="mcts:60", vs="random")
    keys = ("seat_win_rates", "length_counts", "outcomes")
    assert [one[k] for k in keys] == [two[k] for k in keys]


def _rival_gray(game, cards):
    from cardgen.games.common_carrier.board import GOOSE_MASK, PBX_MASK

    ids = game.gray_ids[1]
    return (sum(1 for c in cards if c in ids[PBX_MASK]), sum(1 for c in cards if c in ids[GOOSE_MASK]))


def test_the_rivals_gray_card_choice_is_secret_to_the_search():
    """Issue 25: "Each player chooses 4 gray cards" is each player's secret; the determinization
    dealt the rival's hand from the rival's real cards, so the search knew it (docs/rules-readings.md)."""
    options = {"gray_rule": True, "gray_pbx_1": 2, "gray_pbx_2": 4}
    game = CommonCarrierGame(options=options)
    state = game.new_initial_state(random.Random(3))
    real = state.hands[1] + state.decks[1]
    assert _rival_gray(game, real) == (4, 0)
    choices = set()
    for seed in range(40):
        det = state.determinize(0, random.Random(seed))
        rival = det.hands[1] + det.decks[1]
        assert len(det.hands[1]) == len(state.hands[1]) and len(rival) == len(real)
        pbx, goose = _rival_gray(game, rival)
        assert pbx + goose == 4  # still 4 gray cards, of a choice the print allows
        assert sorted(c for c in rival if game.card_mask[c] not in (15, 0)) == \
            sorted(c for c in real if game.card_mask[c] not in (15, 0))
        assert det.hands[0] == state.hands[0] and det.legal_actions() == state.legal_actions()
        choices.add(pbx)
    assert choices == {0, 1, 2, 3, 4}
    # a determinization with a choice the rival did not make plays on like any other
    det = state.determinize(0, random.Random(5))
    rng = random.Random(6)
    for _ in range(30):
        if det.is_terminal():
            break
        det.apply_action(game.random_action(det, det.current_player(), rng))
    # announced, the search deals from the rival's real gray cards
    told = CommonCarrierGame(options=options | {"gray_announced": True})
    state = told.new_initial_state(random.Random(3))
    for seed in range(10):
        det = state.determinize(0, random.Random(seed))
        assert _rival_gray(told, det.hands[1] + det.decks[1]) == (4, 0)


def test_a_secret_gray_choice_leaves_the_game_itself_unchanged():
    """The left-out gray cards only get ids after every card in play: the deal is the same."""
    options = {"gray_rule": True, "gray_pbx_1": 1, "gray_pbx_2": 3}
    secret = CommonCarrierGame(options=options)
    told = CommonCarrierGame(options=options | {"gray_announced": True})
    assert secret.player_cards == told.player_cards
    assert len(secret.card_owner) == len(told.card_owner) + 8
    one, two = secret.new_initial_state(random.Random(9)), told.new_initial_state(random.Random(9))
    assert (one.hands, one.decks) == (two.hands, two.decks)
