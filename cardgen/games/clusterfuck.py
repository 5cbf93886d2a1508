"""Clusterfuck: Asshole (President) with secret Social Status cards.

A climbing game with a traditional deck (3 low ... A, 2 high). Whoever wins a
trick may demand a card of another player, its best or one of a named rank;
the target complies or refuses by claiming higher status, and then the secret
status cards decide. Between rounds the Magnate keeps a status card and may
assign one, and the traditional exchange swaps the Asshole's best cards for
cards of the Magnate's choice. The first player crowned Magnate (first out of
a round) five times is the True Magnate and wins. Every reading of the seed
text that the original leaves open is listed in docs/rules-readings.md.

Suits never matter to the rules, so a hand is a count per rank and the state
stays small and cheap to clone.
"""
from __future__ import annotations

import _random
import math
import random
from collections.abc import Callable, Mapping
from functools import cache
from itertools import compress
from operator import getitem
from typing import Any

from ..errors import CardgenError
from ..findings import Finding
from . import GameInfo, base
from .base import TERMINAL, Game, IllegalAction, OptionSpec, State

# ---------------------------------------------------------------- cards

#: rank names from low to high; a hand is a list of counts in this order
RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
SUITS = ("spades", "hearts", "diamonds", "clubs")
TWO = RANKS.index("2")
DECK_SIZE = len(RANKS) * len(SUITS)

MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS = 3, 12, 8
#: traditional Asshole: the Asshole and the Magnate swap 2, the next pair 1;
#: 12 players hold 4 cards each, so 4 is the most a hand can always give
DEFAULT_EXCHANGE, MAX_EXCHANGE = 2, 4
ADVISED_PLAYERS = 5

MAGNATE = "Magnate"
LACKEY = "Magnate's Lackey / Man-behind-the-Man"
JACKASS = "Jackass"
ASSHOLE = "Asshole / Desperado"


def status_title(number: int, players: int) -> str:
    """The title printed on Social Status card ``number`` of a ``players`` deck.

    With 3 players card 2 is both the Lackey and the second highest; the
    Lackey wins because the Jackass title has no game consequence.
    """
    _check_player_count(players)
    if not 1 <= number <= players:
        raise CardgenError(f"status number must be 1..{players}, got {number}")
    if number == 1:
        return MAGNATE
    if number == players:
        return ASSHOLE
    if number == 2:
        return LACKEY
    if number == players - 1:
        return JACKASS
    return ""


def status_cards(players: int) -> list[tuple[int, str]]:
    """(number, title) of every Social Status card for ``players`` players."""
    _check_player_count(players)
    return [(k, status_title(k, players)) for k in range(1, players + 1)]


def _check_player_count(players: Any) -> None:
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise CardgenError(
            f"option 'players' must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, got {players!r}"
        )


# ---------------------------------------------------------------- options


def read_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """Checked values of just the options given, from Python or command-line strings."""
    parsed = base.parse_options("clusterfuck", ClusterfuckGame.option_specs, options)
    return {name: parsed[name] for name in (options or {})}


# ---------------------------------------------------------------- actions

PASS = 0
#: a play of ``count`` cards of rank index ``rank`` is 1 + 4*rank + (count-1)
NO_DEMAND = 60
COMPLY = 80
REFUSE = 81
#: the Magnate assigns no status card to anyone
NO_ASSIGN = 90
#: the Magnate keeps status card ``k`` for himself: KEEP + k
KEEP = 100
#: an exchange winner gives back one card of rank index ``r``: GIVE_BACK + r
GIVE_BACK = 120
#: a demand to seat ``q`` for its best card is DEMAND + 14*q, for a card of rank ``r`` DEMAND + 14*q + 1 + r
DEMAND = 200
#: the Magnate assigns status card ``k`` to seat ``q``: ASSIGN + 16*q + k
ASSIGN = 400
BEST = -1


def play_action(rank: int | str, count: int) -> int:
    """The action that plays ``count`` cards of ``rank`` (index or name)."""
    index = RANKS.index(rank) if isinstance(rank, str) else rank
    return 1 + 4 * index + (count - 1)


def demand_action(target: int, rank: int | str | None = None) -> int:
    """A demand to seat ``target`` for its best card, or for one card of ``rank`` (index or name)."""
    if rank is None:
        return DEMAND + 14 * target
    return DEMAND + 14 * target + 1 + (RANKS.index(rank) if isinstance(rank, str) else rank)


def keep_action(number: int) -> int:
    """The Magnate keeps Social Status card ``number``."""
    return KEEP + number


def assign_action(target: int, number: int) -> int:
    """The Magnate assigns Social Status card ``number`` to seat ``target``."""
    return ASSIGN + 16 * target + number


def give_back_action(rank: int | str) -> int:
    """An exchange winner gives back one card of ``rank`` (index or name)."""
    return GIVE_BACK + (RANKS.index(rank) if isinstance(rank, str) else rank)


def action_to_string(action: int) -> str:
    if action == PASS:
        return "pass"
    if action < NO_DEMAND:
        rank, count = divmod(action - 1, 4)
        return f"play {count + 1}x {RANKS[rank]}"
    if action == NO_DEMAND:
        return "no demand"
    if action in (COMPLY, REFUSE):
        return "comply" if action == COMPLY else "refuse"
    if action == NO_ASSIGN:
        return "assign no status card"
    if KEEP < action < GIVE_BACK:
        return f"keep status {action - KEEP}"
    if GIVE_BACK <= action < GIVE_BACK + 13:
        return f"give back a {RANKS[action - GIVE_BACK]}"
    if DEMAND <= action < ASSIGN:
        target, what = divmod(action - DEMAND, 14)
        card = "best card" if what == 0 else f"a {RANKS[what - 1]}"
        return f"demand {card} from seat {target}"
    if action > ASSIGN:
        target, number = divmod(action - ASSIGN, 16)
        return f"assign status {number} to seat {target}"
    return f"unknown action {action}"


# leading may play any set of one rank; following must match the count
_LEADS = [[[play_action(r, c) for c in range(1, k + 1)] for k in range(5)] for r in range(len(RANKS))]
_FOLLOWS = [[play_action(r, c) if c else 0 for r in range(len(RANKS))] for c in range(5)]
_FULL_DECK = [r for r in range(len(RANKS)) for _ in SUITS]
#: a shuffle's draws from the top (``_deal``): the place i drawn for and the bit length of its bound i + 1
_SHUFFLE_DRAWS = [(i, (i + 1).bit_length()) for i in range(DECK_SIZE - 1, 0, -1)]

# who gives what when a demand is refused
TARGET_GIVES, DEMANDER_GIVES, PROTECTED = "target gives", "demander gives", "protected"

# phases of a round: play, the demand after a trick, and between rounds the
# Magnate's two status choices and the exchange winners' give-backs
PLAY, CHOOSE_DEMAND, ANSWER_DEMAND, OVER, KEEP_STATUS, ASSIGN_STATUS, GIVING_BACK = range(7)
#: the rank indices, low to high
_RANK_INDICES = range(len(RANKS))
#: all the ranks' bits in the playout's rank bitmasks (``_rank_masks``)
_ALL_RANKS = (1 << len(RANKS)) - 1
#: ``_rank_masks`` sums a hand's four masks in one go, mask c in the 16 bits from 16 * (c - 1):
#: ``_LANE_BITS[r][h]`` is what h cards of rank r add, rank r's bit in the first h lanes
_LANE = 16
_LANE_BITS = [[sum(1 << (_LANE * k + r) for k in range(h)) for h in range(len(SUITS) + 1)] for r in range(len(RANKS))]


# ---------------------------------------------------------------- the game


class ClusterfuckGame(Game["ClusterfuckState"]):
    """Fixed table: player count and the rule options."""

    name = "clusterfuck"
    option_specs = (
        OptionSpec("players", DEFAULT_PLAYERS, f"number of players ({MIN_PLAYERS}..{MAX_PLAYERS}; "
                   "fewer than 5 is not advised)", minimum=MIN_PLAYERS, maximum=MAX_PLAYERS),
        OptionSpec("rounds_to_win", 5, "rounds a player must win as Magnate to become the True Magnate (1..20)",
                   minimum=1, maximum=20),
        OptionSpec("bluff", 0.2, "chance a greedy player refuses a demand it would lose (0..1)",
                   minimum=0.0, maximum=1.0),
        OptionSpec("standard_deck", False, "also print a 52-card deck and a reference card (printing only)"),
        OptionSpec("exchange", DEFAULT_EXCHANGE, "cards the Asshole gives the Magnate before each round after the "
                   "first, for as many of the Magnate's choice; each next pair inwards swaps one fewer "
                   f"(0 = no exchange, at most {MAX_EXCHANGE})", minimum=0, maximum=MAX_EXCHANGE),
    )

    def __init__(self, num_players: int | None = None, options: dict[str, Any] | None = None):
        checked = read_options(options)
        if num_players is None:
            num_players = checked.get("players", DEFAULT_PLAYERS)
        _check_player_count(num_players)
        if checked.get("players", num_players) != num_players:
            raise CardgenError(
                f"option 'players' ({checked['players']}) disagrees with the {num_players} players asked for"
            )
        checked["players"] = num_players
        super().__init__(num_players, checked)
        self.rounds_to_win: int = self.options["rounds_to_win"]
        self.bluff: float = self.options["bluff"]
        self.exchange: int = self.options["exchange"]

    @property
    def max_rounds(self) -> int:
        """Every round crowns one Magnate, so someone reaches the target by then."""
        return self.num_players * (self.rounds_to_win - 1) + 1

    def new_initial_state(self, rng: random.Random) -> ClusterfuckState:
        """A dealt game, in which the engine makes the forced moves (see ``ClusterfuckState``)."""
        return ClusterfuckState(self, rng)

    def position(
        self,
        hands: list[list[int]] | list[str],
        statuses: list[int],
        leader: int = 0,
        rounds_won: list[int] | None = None,
        round_no: int = 1,
        seed: int = 0,
        plays_forced: bool = False,
    ) -> ClusterfuckState:
        """A hand-built position at the start of a trick (for tests and examples).

        ``hands`` are rank counts or strings like "3 3 K 2"; cards no one holds
        are on the played pile. Players with no cards have already gone out,
        in seat order. Unlike a dealt game, such a position leaves every move
        to the players, forced ones included (see ``ClusterfuckState``), unless
        ``plays_forced``, so a test can step through a trick pass by pass.
        """
        return ClusterfuckState(self, random.Random(seed), hands, statuses, leader, rounds_won, round_no,
                                plays_forced)

    # ---- policies and report

    def random_action(self, state: ClusterfuckState, player: int, rng: random.Random) -> int:
        """A legal action of ``player`` drawn uniformly, without listing them all.

        Indices come from ``rng.random()`` scaled to the count (faster than ``randrange``; with at
        most a few hundred actions the bias is below 2**-44).
        """
        if player != state.player:
            raise IllegalAction(f"seat {player} has no move here")
        phase = state.phase
        random_ = rng.random
        if phase == PLAY:
            hand = state.hands[player]
            count = state.trick_count
            if not count:
                # one lead per card: the i-th card of a rank leads i of that rank
                i = int(random_() * state.held[player])
                r = 0
                while i >= hand[r]:
                    i -= hand[r]
                    r += 1
                return 1 + 4 * r + i
            beats = state._beats
            if beats is None:
                beats = state._beating_ranks()
            i = int(random_() * (len(beats) + 1))
            return _FOLLOWS[count][beats[i - 1]] if i else PASS
        if phase == ANSWER_DEMAND:
            return COMPLY if random_() < 0.5 else REFUSE
        if phase == CHOOSE_DEMAND:
            out, held, played, mine = state.out, state.held, state.played, state.hands[player]
            targets = [q for q in range(state.n) if q != player and not out[q] and held[q] >= 2]
            ranks = [r for r in range(13) if played[r] + mine[r] < 4]
            per = len(ranks) + 1
            i = int(random_() * (len(targets) * per + 1))
            if not i:
                return NO_DEMAND
            q, what = divmod(i - 1, per)
            return DEMAND + 14 * targets[q] + (1 + ranks[what - 1] if what else 0)
        if phase == KEEP_STATUS:
            return KEEP + 1 + int(random_() * (state.n - 1))
        if phase == GIVING_BACK:
            hand = state.hands[player]
            ranks = [r for r in range(13) if hand[r]]
            return GIVE_BACK + ranks[int(random_() * len(ranks))]
        if phase == ASSIGN_STATUS:
            numbers = state.unassigned()
            targets = state.assign_targets()
            i = int(random_() * (len(targets) * len(numbers) + 1))
            if not i:
                return NO_ASSIGN
            q, k = divmod(i - 1, len(numbers))
            return ASSIGN + 16 * targets[q] + numbers[k]
        raise IllegalAction("the game is over")

    def random_playout(self, state: ClusterfuckState, rng: random.Random, max_moves: int,
                       branching: list[int]) -> int:
        """The runner's all-random game, played out by the state (``ClusterfuckState.random_playout``)."""
        return state.random_playout(rng, max_moves, branching)

    def greedy_action(self, state: ClusterfuckState, player: int, rng: random.Random) -> int:
        """Lowest winning play, safe demands for the best card, honest answers but for bluffs;
        as Magnate keep card 1 and promote the runner-up; give back the lowest cards."""
        phase = state.phase
        if phase == PLAY:
            return state.lowest_winning_play()
        if phase == CHOOSE_DEMAND:
            return self._greedy_demand(state, player)
        if phase == KEEP_STATUS:
            return KEEP + 1
        if phase == ASSIGN_STATUS:
            return self._greedy_assign(state)
        if phase == GIVING_BACK:
            hand = state.hands[player]
            return GIVE_BACK + next(r for r in range(13) if hand[r])
        if state.refusal_outcome(state.trick_winner, player) != TARGET_GIVES:
            return REFUSE
        if state.demand_rank != BEST and not state.hands[player][state.demand_rank]:
            return COMPLY  # nothing to lose by complying, a status to show by refusing
        return REFUSE if rng.random() < self.bluff else COMPLY

    def _greedy_demand(self, state: ClusterfuckState, me: int) -> int:
        """Demand from the fullest hand among those this player should beat.

        A player knows its own status, the statuses made public at the start
        of the round and those seen in comparisons; an unknown target is only
        worth the risk from the upper half of the table. A demand always asks
        for the target's best card.

        The Asshole also goes after last round's Magnate while that player's
        card is unknown to him, because the Magnate usually keeps card 1.
        """
        n = state.n
        mine = state.status[me]
        known = state.known
        crowned = state.last_finish[0] if state.last_finish else -1
        best, best_score = NO_DEMAND, (0, 0)
        for q in state.demand_targets():
            theirs = known[me * n + q]
            if theirs:
                if not _demander_wins(mine, theirs, n):
                    continue
                score = (2, state.held[q])
            elif mine == n and q == crowned:
                score = (2, state.held[q])
            elif mine == n or mine > (n + 1) // 2:
                continue
            else:
                score = (1, state.held[q])
            if score > best_score:
                best, best_score = demand_action(q), score
        return best

    def _greedy_assign(self, state: ClusterfuckState) -> int:
        """The lowest number left goes to the player who went out second (a promotion)."""
        runner_up = state.last_finish[1]
        return ASSIGN + 16 * runner_up + min(state.unassigned())

    #: moves a search plays from a new node before it asks ``evaluate``
    rollout_depth = 10
    #: how often a rollout move is greedy's rather than a random one
    ROLLOUT_GREEDY = 0.9
    #: the search's exploration constant: ``evaluate``'s chances differ by little, so explore less
    exploration = 0.3

    def rollout_action(self, state: ClusterfuckState, player: int, rng: random.Random) -> int:
        """A search's rollout move: mostly greedy's (climbing games punish random play, so random
        rollouts misjudge a hand), now and then a random one so the rollouts still vary."""
        if rng.random() < self.ROLLOUT_GREEDY:
            return self.greedy_action(state, player, rng)
        return self.random_action(state, player, rng)
    #: ``evaluate``'s weights: a round's chances per unit of hand strength, the match's per round
    ROUND_SHARPNESS, MATCH_SHARPNESS = 1.0, 3.0
    #: what a set of each rank costs a hand (a low set is hard to be rid of, a high one takes a
    #: trick back), and what each card costs
    SET_COST = tuple(1.0 - 1.2 * r / TWO for r in range(len(RANKS)))
    CARD_COST = 0.1

    def evaluate(self, state: ClusterfuckState) -> list[float]:
        """Each player's chance of becoming the True Magnate as the search guesses it, summing to 1.

        This round's Magnate is the first out if someone is; else the chance of each player still
        in is a softmax of its hand's strength (few sets to play, low ones above all).
        A player's match chance is a softmax of its rounds won plus that chance."""
        n = state.n
        if state.winner is not None:
            return [1.0 if p == state.winner else 0.0 for p in range(n)]
        won = state.rounds_won
        if state.finish:
            magnate = state.finish[0]
            rounds = [won[p] + (1.0 if p == magnate else 0.0) for p in range(n)]
        else:
            out, hands, held = state.out, state.hands, state.held
            sharp, cost, per_card = self.ROUND_SHARPNESS, self.SET_COST, self.CARD_COST
            weights = [0.0 if out[p] else
                       math.exp(-sharp * (sum(c for c, k in zip(cost, hands[p]) if k) + per_card * held[p]))
                       for p in range(n)]
            total = sum(weights)
            rounds = [won[p] + weights[p] / total for p in range(n)]
        top = max(rounds)
        sharp = self.MATCH_SHARPNESS
        chances = [math.exp(sharp * (r - top)) for r in rounds]
        total = sum(chances)
        return [c / total for c in chances]

    def heuristic(self, state: ClusterfuckState, player: int) -> float:
        """Rounds won first, then fewer cards, then strong cards in hand."""
        hand = state.hands[player]
        return 100.0 * state.rounds_won[player] - 2.0 * state.held[player] + hand[TWO] + 0.5 * hand[TWO - 1]

    def metrics(self, state: ClusterfuckState) -> dict[str, Any]:
        return {
            "rounds": state.rounds_played,
            "true_magnate": state.winner,
            "demands": state.demands,
            "refused": state.refused,
            "reversed": state.reversed,
            "protected": state.protected,
            "named": state.named,
            "named_missing": state.named_missing,
            "keep_hits": list(state.keep_hits[1:]),
            "keep_rounds": state.keep_rounds,
        }

    def summarize(self, metrics: list[dict[str, Any]]) -> dict[str, Any]:
        """Means per game, and how often each status keeps its place.

        Status k keeps its place in a round (from round 2 on) when the player
        holding card k during that round finishes it in place k (1 = first
        out, N = last with cards).
        """
        if not metrics:
            return {}
        games = len(metrics)
        won = [m["rounds"] for m in metrics if m["true_magnate"] is not None]
        demands = sum(m["demands"] for m in metrics)
        refused = sum(m["refused"] for m in metrics)
        rounds = sum(m["keep_rounds"] for m in metrics)
        places = len(metrics[0]["keep_hits"])
        hits = [sum(m["keep_hits"][k] for m in metrics) for k in range(places)]
        keep = {str(k + 1): (hits[k] / rounds if rounds else None) for k in range(places)}
        from statistics import stdev

        from ..stats import Z95, wilson_interval

        spread = stdev(won) if len(won) > 1 else 0.0
        half = Z95 * spread / math.sqrt(len(won)) if won else 0.0
        mean = sum(won) / len(won) if won else None
        return {
            "rounds until a True Magnate (mean)": mean,
            "rounds until a True Magnate (95% CI)": [mean - half, mean + half] if mean is not None else None,
            "games with a True Magnate": len(won),
            "card demands per game": demands / games,
            "demands refused per game": refused / games,
            "demands reversed per game": sum(m["reversed"] for m in metrics) / games,
            "demands stopped by two 2s per game": sum(m["protected"] for m in metrics) / games,
            "demands naming a rank per game": sum(m["named"] for m in metrics) / games,
            "named rank not held per game": sum(m["named_missing"] for m in metrics) / games,
            "share of demands refused": refused / demands if demands else None,
            "Magnate keeps place": keep["1"],
            "Magnate keeps place (95% CI)": list(wilson_interval(hits[0], rounds)) if rounds else None,
            "rounds a status could be kept": rounds,
            "Asshole keeps place": keep[str(places)],
            "status keeps place": keep,
        }


def game_from_deck(deck: Any, options: Mapping[str, Any] | None = None) -> ClusterfuckGame:
    """The engine for a built deck: the deck's options, overridden by ``options``."""
    names = {spec.name for spec in ClusterfuckGame.option_specs}
    merged = {k: v for k, v in (deck.options or {}).items() if k in names}
    merged = read_options(merged)
    merged.update(read_options(dict(options or {})))
    return ClusterfuckGame(merged.get("players", DEFAULT_PLAYERS), merged)


def _demander_wins(demander: int, target: int, n: int) -> bool:
    """Whether a refused demand still gets the demander the card (status only)."""
    if demander == n and target == 1:
        return True
    if demander == 1 and target == n:
        return False
    return demander < target


@cache
def _demander_wins_table(n: int) -> list[list[bool]]:
    """``_demander_wins`` for every pair of statuses at ``n`` players, looked up as [demander][target]."""
    return [[_demander_wins(demander, target, n) for target in range(n + 1)] for demander in range(n + 1)]


# ---------------------------------------------------------------- the state


class ClusterfuckState(State):
    """One position: hands as rank counts, status cards, the trick in play.

    Forced moves are the engine's (``plays_forced``, on in every dealt game): a player whose only
    legal action is to pass (nothing in hand beats the trick), to lead its last card, or to give
    back its only rank in the exchange makes that move at once, inside the ``apply_action`` that
    brought the turn to it, so ``current_player()`` names only players with a real choice. The
    rules are the same (the passes still count towards ending the trick, the last card still goes
    out), only fewer moves are counted: a random 8-player game has about half the moves it had when
    every forced pass was one. Hand-built positions (``ClusterfuckGame.position``) leave them to
    the players unless asked.
    """

    def action_to_string(self, action: Any) -> str:
        return action_to_string(action)

    # set by _seat at the start of every round, then by the moves
    phase: int
    player: int
    trick_rank: int
    trick_count: int
    trick_winner: int
    passes: int
    target: int
    demand_rank: int
    finish: list[int]
    active: int
    #: between rounds: the seed of the secret status deal, and the exchange's
    #: give-backs still owed as [winner, loser, cards], first pair first
    status_seed: int
    owed: list[list[int]]

    def __init__(
        self,
        game: ClusterfuckGame,
        rng: random.Random,
        hands: list[list[int]] | list[str] | None = None,
        statuses: list[int] | None = None,
        leader: int = 0,
        rounds_won: list[int] | None = None,
        round_no: int = 1,
        plays_forced: bool = True,
    ):
        n = game.num_players
        #: whether the engine makes the forced moves itself (see the class docstring)
        self.plays_forced = plays_forced
        #: the ranks the player to move can follow with, once counted (``_beating_ranks``)
        self._beats: list[int] | None = None
        self.game = game
        self.n = n
        self.rounds_to_win = game.rounds_to_win
        self.deal_seed = rng.getrandbits(48)
        self.rounds_won = list(rounds_won) if rounds_won else [0] * n
        self.round_no = round_no
        self.rounds_played = round_no - 1
        self.winner: int | None = None
        # per-game figures
        self.demands = self.refused = self.reversed = self.protected = 0
        self.named = self.named_missing = 0
        self.exchange = game.exchange
        #: per player, how many cards of each rank they played this game
        self.played_by = [[0] * 13 for _ in range(n)]
        self.keep_hits = [0] * (n + 1)
        self.keep_rounds = 0
        self.last_finish: list[int] = []
        self.status_seed = 0
        #: seen_in_hand[p * n + q]: {rank: cards} p knows q holds at least, from the cards p
        #: handed q this round; None in a determinization, which tracks nothing (see determinize)
        self.seen_in_hand: list[dict[int, int]] | None = []
        if hands is None:
            statuses = list(range(1, n + 1))
            rng.shuffle(statuses)
            self._start_round(list(range(n)), statuses, rng.randrange(n), rng)
        else:
            self._set_position(hands, statuses or [], leader)
        self._lead(self.player)

    # ---- the OpenSpiel verbs

    def current_player(self) -> int:
        return self.player

    def legal_actions(self, player: int | None = None) -> list[int]:
        if player is not None and player != self.player:
            return []
        phase = self.phase
        if phase == PLAY:
            hand = self.hands[self.player]
            count = self.trick_count
            if count == 0:
                actions: list[int] = []
                for r in range(13):
                    if hand[r]:
                        actions += _LEADS[r][hand[r]]
                return actions
            follows = _FOLLOWS[count]
            actions = [PASS]
            for r in range(self.trick_rank + 1, 13):
                if hand[r] >= count:
                    actions.append(follows[r])
            return actions
        if phase == CHOOSE_DEMAND:
            ranks = self.demandable_ranks()
            actions = [NO_DEMAND]
            for q in self.demand_targets():
                base_action = DEMAND + 14 * q
                actions.append(base_action)
                actions += [base_action + 1 + r for r in ranks]
            return actions
        if phase == ANSWER_DEMAND:
            return [COMPLY, REFUSE]
        if phase == KEEP_STATUS:
            return [KEEP + k for k in range(1, self.n)]
        if phase == ASSIGN_STATUS:
            numbers = self.unassigned()
            return [NO_ASSIGN] + [ASSIGN + 16 * q + k for q in self.assign_targets() for k in numbers]
        if phase == GIVING_BACK:
            hand = self.hands[self.player]
            return [GIVE_BACK + r for r in range(13) if hand[r]]
        return []

    def num_legal_actions(self, player: int | None = None) -> int:
        """len(legal_actions(player)) without listing them."""
        if player is not None and player != self.player:
            return 0
        phase = self.phase
        if phase == PLAY:
            p = self.player
            count = self.trick_count
            if not count:
                return self.held[p]
            return 1 + len(self._beating_ranks())
        if phase == ANSWER_DEMAND:
            return 2
        if phase == CHOOSE_DEMAND:
            return 1 + len(self.demand_targets()) * (1 + len(self.demandable_ranks()))
        if phase == KEEP_STATUS:
            return self.n - 1
        if phase == GIVING_BACK:
            return 13 - self.hands[self.player].count(0)
        if phase == ASSIGN_STATUS:
            return 1 + len(self.assign_targets()) * len(self.unassigned())
        return 0

    def _beating_ranks(self) -> list[int]:
        """Ranks the player to move can follow with; kept until the next move, for random_action."""
        count, above = self.trick_count, self.trick_rank + 1
        beats = self._beats = [r for r, h in enumerate(self.hands[self.player][above:], above) if h >= count]
        return beats

    def apply_action(self, action: int) -> None:
        self._beats = None
        phase = self.phase
        if phase == PLAY:
            if action:
                self._play(action)
            else:
                self._pass()
        elif phase == CHOOSE_DEMAND:
            self._demand(action)
        elif phase == ANSWER_DEMAND:
            self._answer(action)
        elif phase == KEEP_STATUS:
            self._keep(action)
        elif phase == ASSIGN_STATUS:
            self._assign(action)
        elif phase == GIVING_BACK:
            self._give_back(action)
        else:
            raise IllegalAction("the game is over")

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        result = [0.0] * self.n
        if self.winner is not None:
            result[self.winner] = 1.0
        return result

    def clone(self) -> ClusterfuckState:
        return self._copy(True)

    def _copy(self, knowledge: bool) -> ClusterfuckState:
        """A copy; without ``knowledge`` it tracks no cards seen in hands (a determinization's)."""
        other = object.__new__(ClusterfuckState)
        other.__dict__.update(self.__dict__)
        other.hands = [h[:] for h in self.hands]
        other.played_by = [h[:] for h in self.played_by]
        other.owed = [o[:] for o in self.owed]
        for name in ("held", "played", "status", "out", "finish", "order", "seat_index",
                     "rounds_won", "known", "keep_hits", "last_finish"):
            setattr(other, name, getattr(self, name)[:])
        if self.seen_in_hand is not None:
            other.seen_in_hand = [d.copy() for d in self.seen_in_hand] if knowledge else None
        return other

    def determinize(self, player: int, rng: random.Random) -> ClusterfuckState:
        """The position as ``player`` might believe it: the others' hands and secret statuses dealt again.

        Public and kept: ``player``'s own hand and status, every hand's size,
        who is out, the played pile, the trick, the seating, rounds won, the
        demand or exchange in progress. Statuses ``player`` knows (``known``:
        the new Asshole's, those seen in a refusal, the one the Magnate
        assigned) are kept; the other statuses dealt are shuffled among their
        holders from the numbers ``player`` has not seen. Cards ``player``
        handed someone this round (a reversed demand, the exchange) stay in
        that hand as long as it may still hold them (``seen_in_hand``); the
        rest of the others' cards are dealt again, each hand keeping its
        size. The seeds of later deals and of the coming status deal are
        drawn again too. Conservative readings: a card handed between two
        others is unseen (its rank too, even a named one), and what a player
        shows not to hold (a best card, a named rank missing, a refusal's
        outcome) is not used. The copy tracks no card knowledge
        (``seen_in_hand`` None): it is searched, not determinized again.
        """
        n = self.n
        other = self._copy(False)
        other.deal_seed = rng.getrandbits(48)
        other.status_seed = rng.getrandbits(48)
        mine = self.known[player * n:(player + 1) * n]
        hidden = [q for q in range(n) if self.status[q] and not mine[q]]
        if hidden:
            unseen = sorted(set(range(1, n + 1)) - set(mine))
            for q, number in zip(hidden, rng.sample(unseen, len(hidden))):
                other.status[q] = number
            known = other.known
            for i, number in enumerate(known):  # what the others know follows the new deal
                if number:
                    known[i] = other.status[i % n]
        seen = self.seen_in_hand
        fixed: dict[int, list[int]] = {}
        pool: list[int] = []
        for q in range(n):
            if q == player:
                continue
            row = fixed[q] = [0] * 13
            if seen is not None:
                for r, c in seen[player * n + q].items():
                    row[r] = c
            for r, c in enumerate(self.hands[q]):
                pool += [r] * (c - row[r])
        rng.shuffle(pool)
        start = 0
        for q, hand in fixed.items():
            free = self.held[q] - sum(hand)
            for r in pool[start:start + free]:
                hand[r] += 1
            start += free
            other.hands[q] = hand
        return other

    def cards_played(self) -> list[list[str]]:
        """Per player, the rank name of every card they put into a trick this game, one
        entry per card per play (suits are not tracked, so "K" is any king)."""
        return [_rank_names(counts) for counts in self.played_by]

    def cards_held(self) -> list[list[str]]:
        """Per player, the rank names of the cards in hand now, low to high."""
        return [_rank_names(counts) for counts in self.hands]

    # ---- a random game played out whole

    def random_playout(self, rng: random.Random, max_moves: int, branching: list[int]) -> int:
        """Uniformly random moves until the game ends or ``max_moves`` are made; the moves made.

        Each decision draws one ``rng.random()`` and makes the move at that index of
        ``legal_actions()``, as ``random_action`` does, and notes its number of legal actions in
        ``branching``: the game the runner would play stepping ``random_action``, move for move,
        only faster. The tricks and demands of a round are played by ``_play_round_out``, the few
        moves between rounds by ``_play_between_rounds``; a demand where an earlier playout stopped,
        and a hand-built position that leaves forced moves to the players, are played by
        ``random_action`` and ``apply_action``. Cards seen in hands are no longer tracked
        (``seen_in_hand`` None, as in a determinization): in a random game no one uses them.
        """
        self.seen_in_hand = None
        self._beats = None
        random_, note, game = rng.random, branching.append, self.game
        moves = 0
        while moves < max_moves:
            phase = self.phase
            if phase == OVER:
                break
            if phase == PLAY and self.plays_forced:
                moves = self._play_round_out(random_, note, moves, max_moves)
            elif phase >= KEEP_STATUS:
                moves = self._play_between_rounds(random_, note, moves, max_moves)
            else:
                note(self.num_legal_actions())
                self.apply_action(game.random_action(self, self.player, rng))
                moves += 1
        return moves

    def _play_between_rounds(self, random_: Callable[[], float], note: Callable[[int], None], moves: int,
                             max_moves: int) -> int:
        """``random_playout``'s moves between rounds, until the next round's play or until the moves
        run out: the Magnate keeping and assigning a status card, the exchange winners giving cards
        back, each drawn as ``random_action`` draws it and made unchecked."""
        while moves < max_moves:
            phase = self.phase
            if phase == KEEP_STATUS:
                count = self.n - 1
                self._keep(KEEP + 1 + int(random_() * count))
            elif phase == ASSIGN_STATUS:
                numbers, targets = self.unassigned(), self.assign_targets()
                count = 1 + len(targets) * len(numbers)
                i, target = int(random_() * count), -1
                if i:
                    q, k = divmod(i - 1, len(numbers))
                    target = targets[q]
                    self.status[target] = numbers.pop(k)
                self._deal_statuses(target, numbers)
            elif phase == GIVING_BACK:
                ranks = list(compress(_RANK_INDICES, self.hands[self.player]))  # the ranks held
                count = len(ranks)
                self._hand_back(ranks[int(random_() * count)])
            else:
                break
            note(count)
            moves += 1
        return moves

    def _play_round_out(self, random_: Callable[[], float], note: Callable[[int], None], moves: int,
                        max_moves: int) -> int:
        """``random_playout``'s tricks and demands, from a play to the end of the round (the next
        deal is ``_end_round``'s) or until the moves run out; the state is written back.

        Play runs in locals: ``masks[c][p]`` has bit r set when ``p`` holds ``c`` or more cards of
        rank r, so whether and how ``p`` can follow is a shift and a bit count, and ``after[q]`` is
        the next seat in the round after ``q`` (and ``before[q]`` the one before), so the turn skips
        those who went out; a trick is over when the turn has passed ``last``, the one before its
        winner, so passes are counted only where play stops. Each pass of the outer loop is a trick
        and the demand its winner may make, each pass of the inner one a play or a pass.
        """
        n, hands, held, out, played = self.n, self.hands, self.held, self.out, self.played
        played_by, status, known = self.played_by, self.status, self.known
        demander_wins = _demander_wins_table(n)
        masks = _rank_masks(hands)
        held_one = masks[1]
        after, before = [0] * n, [0] * n
        ring = self.order if self.active == n else [q for q in self.order if not out[q]]
        prev = ring[-1]
        for q in ring:
            after[prev], before[q], prev = q, prev, q
        r, c, winner, active = self.trick_rank, self.trick_count, self.trick_winner, self.active
        if out[winner]:  # the trick's winner went out: its links stay, to the players round it
            nxt = self._next_active(winner)
            after[winner], before[winner] = nxt, before[nxt]
        # p leads (no trick yet, c == 0) or, once there is one, is the last to have played (the
        # trick's winner); q is to follow it, and can beat it (the turn skips those who cannot)
        q = self.player
        p = winner if c else q
        target, demand_rank = -1, BEST
        phase = PLAY  # where play stopped
        demands = refused = reversed_ = protected = named = named_missing = 0
        stop = round_over = False
        # the trick under way: the last to pass before it is over, and q's ranks that beat it
        # (bit r - above)
        last = before[winner]
        following, above = masks[c], r + 1
        b = following[q] >> above
        while not stop:
            while True:
                if c:
                    if moves == max_moves:
                        stop = True
                        break
                    k = b.bit_count() + 1
                    note(k)
                    moves += 1
                    j = int(random_() * k)
                    if j:  # the j-th rank that beats the trick
                        while j > 1:
                            b &= b - 1
                            j -= 1
                        r = above + (b & -b).bit_length() - 1
                        p = q
                else:
                    # any set of one rank; holding one card, p must lead it
                    hand, h = hands[p], held[p]
                    if h == 1:
                        r, c = held_one[p].bit_length() - 1, 1
                    elif moves == max_moves:
                        stop = True
                        break
                    else:
                        note(h)
                        moves += 1
                        i, r = int(random_() * h), 0
                        while i >= hand[r]:
                            i -= hand[r]
                            r += 1
                        c = i + 1
                    following, q = masks[c], p
                if p == q:  # (a player who passes never won the trick)
                    # p puts down c cards of rank r
                    hand, bit = hands[p], 1 << r
                    h = hand[r]
                    hand[r] = h - c
                    if c == 1:
                        masks[h][p] ^= bit
                    else:
                        for k in range(h - c + 1, h + 1):
                            masks[k][p] ^= bit
                    held[p] -= c
                    played[r] += c
                    played_by[p][r] += c
                    winner, last = p, before[p]
                    if not held[p]:
                        out[p] = True
                        self.finish.append(p)
                        active -= 1
                        if active == 1:
                            round_over = stop = True
                            break
                        # out of the ring; p's own link stays for the trick it won
                        nxt, prev = after[p], before[p]
                        after[prev], before[nxt] = nxt, prev
                    if r == TWO:
                        break
                    above = r + 1
                # the turn goes on: who cannot beat the trick passes (a forced move), until one
                # can or all have passed (the trick is over: the else breaks the trick's loop)
                while q != last:
                    q = after[q]
                    b = following[q] >> above
                    if b:
                        break
                else:
                    break
            if stop:
                break
            # the trick is over: its winner leads the next, or demands a card first; one who went
            # out on it leaves the lead to the next in the round
            r, c = -1, 0
            if out[winner]:
                p = after[winner]
                continue
            p = winner
            # any target with 2+ cards (in seat order), for its best card or a rank someone else
            # holds: the others still in, once round the ring
            targets, others, t = [], 0, after[winner]
            while t != winner:
                others |= held_one[t]
                if held[t] >= 2:
                    targets.append(t)
                t = after[t]
            if not targets:
                continue
            if moves == max_moves:
                phase = CHOOSE_DEMAND
                break
            targets.sort()
            per = others.bit_count() + 1
            k = 1 + len(targets) * per
            note(k)
            moves += 1
            j = int(random_() * k)
            if not j:
                continue
            t, what = divmod(j - 1, per)
            target, demand_rank = targets[t], BEST
            if what:
                # the what-th rank someone else holds: skip the few no one else does
                demand_rank, missing = what - 1, ~others & _ALL_RANKS
                while missing:
                    low = missing & -missing
                    if low.bit_length() > demand_rank + 1:
                        break
                    demand_rank += 1
                    missing ^= low
                named += 1
            demands += 1
            if moves == max_moves:
                phase = ANSWER_DEMAND
                break
            note(2)
            moves += 1
            # the target hands over the card demanded (its best, or one of the rank named if it
            # has one; a target holds two or more), unless it refuses and the two status cards
            # decide otherwise: two 2s protect it, or the demander hands over its two best instead
            giver, taker, cards, rank = target, winner, 1, demand_rank
            if random_() >= 0.5:  # refuse
                refused += 1
                mine, theirs = status[winner], status[target]
                known[winner * n + target], known[target * n + winner] = theirs, mine
                if mine == n and theirs == 1 and hands[target][TWO] >= 2:
                    protected += 1
                    cards = 0
                elif not demander_wins[mine][theirs]:
                    reversed_ += 1
                    giver, taker, cards, rank = winner, target, min(2, held[winner] - 1), BEST  # not its last
            if cards and rank != BEST and not hands[target][rank]:
                named_missing += 1
                cards = 0
            while cards:  # a card of the rank named or of the giver's best changes hands
                given = held_one[giver].bit_length() - 1 if rank == BEST else rank
                bit, src, dst = 1 << given, hands[giver], hands[taker]
                h = src[given]
                src[given] = h - 1
                masks[h][giver] ^= bit
                h = dst[given] + 1
                dst[given] = h
                masks[h][taker] |= bit
                held[giver] -= 1
                held[taker] += 1
                cards -= 1
            target, demand_rank = -1, BEST
        self.demands += demands
        self.refused += refused
        self.reversed += reversed_
        self.protected += protected
        self.named += named
        self.named_missing += named_missing
        passes = 0
        if c and not round_over:  # stopped in a trick: all from the winner's next to q have passed
            t = after[winner]
            while t != q:
                passes += 1
                t = after[t]
        self.trick_rank, self.trick_count, self.trick_winner, self.passes = r, c, winner, passes
        self.active, self.target, self.demand_rank = active, target, demand_rank
        if round_over:
            self._end_round()
        elif phase == PLAY:
            self.phase, self.player = PLAY, q if c else p
        else:
            self.phase, self.player = phase, winner if phase == CHOOSE_DEMAND else target
        return moves

    # ---- what policies may ask

    def demand_targets(self) -> list[int]:
        """Players still in the round, other than the trick winner, with 2+ cards."""
        w, out, held = self.trick_winner, self.out, self.held
        return [q for q in range(self.n) if q != w and not out[q] and held[q] >= 2]

    def demandable_ranks(self) -> list[int]:
        """Ranks the trick winner may name: some card of it is neither on this round's pile
        nor in the winner's own hand (what the winner can see)."""
        mine, played = self.hands[self.trick_winner], self.played
        return [r for r in range(13) if played[r] + mine[r] < len(SUITS)]

    def unassigned(self) -> list[int]:
        """Status numbers the Magnate has not yet handed out between rounds."""
        taken = set(self.status)
        return [k for k in range(1, self.n) if k not in taken]

    def assign_targets(self) -> list[int]:
        """Who the Magnate may assign a status card to: anyone but himself and the new Asshole."""
        return [q for q in range(self.n) if not self.status[q]]

    def refusal_outcome(self, demander: int, target: int) -> str:
        """What happens when ``target`` refuses ``demander``'s demand."""
        n, mine, theirs = self.n, self.status[demander], self.status[target]
        if mine == n and theirs == 1 and self.hands[target][TWO] >= 2:
            return PROTECTED
        return TARGET_GIVES if _demander_wins(mine, theirs, n) else DEMANDER_GIVES

    def lowest_winning_play(self) -> int:
        """Lead the lowest rank as a full set; follow with the lowest beating set."""
        hand = self.hands[self.player]
        count = self.trick_count
        if count == 0:
            for r in range(13):
                if hand[r]:
                    return _LEADS[r][hand[r]][-1]
        for r in range(self.trick_rank + 1, 13):
            if hand[r] >= count:
                return _FOLLOWS[count][r]
        return PASS

    def cards_total(self) -> int:
        """Cards in hands plus the played pile: 52 at every step."""
        return sum(self.held) + sum(self.played)

    def __str__(self) -> str:
        lines = [f"round {self.round_no}, rounds won {self.rounds_won}"]
        for p in self.order:
            hand = " ".join(r for r, k in zip(RANKS, self.hands[p]) for _ in range(k))
            mark = "*" if p == self.player else " "
            lines.append(f"{mark}seat {p} status {self.status[p]}: {hand or '(out)'}")
        if self.trick_count:
            lines.append(f"to beat: {self.trick_count}x {RANKS[self.trick_rank]} by seat {self.trick_winner}")
        return "\n".join(lines)

    # ---- a trick

    def _play(self, action: int) -> None:
        rank, extra = divmod(action - 1, 4)
        count = extra + 1
        p = self.player
        if not (0 < action < NO_DEMAND and self.hands[p][rank] >= count) or (
            self.trick_count and (count != self.trick_count or rank <= self.trick_rank)
        ):
            raise IllegalAction(f"illegal action {action_to_string(action)} for seat {p}")
        self._put_down(p, rank, count)

    def _put_down(self, p: int, rank: int, count: int) -> None:
        """``p`` plays ``count`` cards of ``rank`` (checked); play goes on to the next real choice."""
        self.hands[p][rank] -= count
        held = self.held[p] - count
        self.held[p] = held
        if self.seen_in_hand is not None:
            self._note_play(p, rank, count)
        self.played[rank] += count
        self.played_by[p][rank] += count
        self.trick_rank, self.trick_count, self.trick_winner, self.passes = rank, count, p, 0
        if not held:
            self.out[p] = True
            self.finish.append(p)
            self.active -= 1
            if self.active == 1:
                self._end_round()
                return
        if rank == TWO:
            self._end_trick()
        else:
            self._turn_after(p)

    def _pass(self) -> None:
        if not self.trick_count:
            raise IllegalAction("the leader must play")
        self.passes += 1
        needed = self.active if self.out[self.trick_winner] else self.active - 1
        if self.passes >= needed:
            self._end_trick()
        else:
            self._turn_after(self.player)

    def _turn_after(self, seat: int) -> None:
        """The turn goes round from ``seat``: a player who cannot beat the trick passes (a forced
        move the engine makes), the first who can gets the turn, and the trick ends when everyone
        it waits for has passed."""
        order, out, hands, n = self.order, self.out, self.hands, self.n
        above, count = self.trick_rank + 1, self.trick_count
        needed = self.active if out[self.trick_winner] else self.active - 1
        passes = self.passes
        i = self.seat_index[seat]
        while True:
            i += 1
            if i == n:
                i = 0
            q = order[i]
            if out[q]:
                continue
            if not self.plays_forced or max(hands[q][above:]) >= count:
                self.passes, self.player = passes, q
                return
            passes += 1
            if passes >= needed:
                self._end_trick()
                return

    def _end_trick(self) -> None:
        winner = self.trick_winner
        self.trick_rank, self.trick_count, self.passes = -1, 0, 0
        if self.out[winner]:
            self._lead(self._next_active(winner))
        elif self._can_demand(winner):
            self.phase, self.player = CHOOSE_DEMAND, winner
        else:
            self._lead(winner)

    def _lead(self, p: int) -> None:
        """``p`` leads the next trick; holding one card, it must lead it (a forced move the engine makes)."""
        self.phase, self.player = PLAY, p
        if self.held[p] == 1 and self.plays_forced:
            self._put_down(p, _highest(self.hands[p]), 1)

    def _can_demand(self, winner: int) -> bool:
        out, held = self.out, self.held
        return any(q != winner and not out[q] and held[q] >= 2 for q in range(self.n))

    def _next_active(self, seat: int) -> int:
        order, out, n = self.order, self.out, self.n
        i = self.seat_index[seat]
        while True:
            i += 1
            if i == n:
                i = 0
            q = order[i]
            if not out[q]:
                return q

    # ---- a demand

    def _demand(self, action: int) -> None:
        if action == NO_DEMAND:
            self._lead(self.trick_winner)
            return
        target, what = divmod(action - DEMAND, 14)
        winner = self.trick_winner
        # a target of demand_targets(), a rank of demandable_ranks()
        if not (action >= DEMAND and 0 <= target < self.n and target != winner and not self.out[target]
                and self.held[target] >= 2) or (
            what and self.played[what - 1] + self.hands[winner][what - 1] >= len(SUITS)
        ):
            raise IllegalAction(f"illegal action {action_to_string(action)}")
        self.demands += 1
        self.target, self.demand_rank = target, what - 1
        if what:
            self.named += 1
        self.phase, self.player = ANSWER_DEMAND, target

    def _answer(self, action: int) -> None:
        demander, target = self.trick_winner, self.target
        if action == COMPLY:
            self._hand_over_demanded(target, demander)
        elif action == REFUSE:
            self.refused += 1
            n = self.n
            self.known[demander * n + target] = self.status[target]
            self.known[target * n + demander] = self.status[demander]
            outcome = self.refusal_outcome(demander, target)
            if outcome == TARGET_GIVES:
                self._hand_over_demanded(target, demander)
            elif outcome == DEMANDER_GIVES:
                self.reversed += 1
                self._give(demander, target, 2)
            else:
                self.protected += 1
        else:
            raise IllegalAction(f"illegal action {action_to_string(action)}")
        self.target, self.demand_rank = -1, BEST
        self._lead(demander)

    def _hand_over_demanded(self, target: int, demander: int) -> None:
        """The target gives the card demanded: its best, or one of the named rank if it has one."""
        rank = self.demand_rank
        if rank == BEST:
            self._give(target, demander, 1)
        elif self.hands[target][rank]:
            self._move(target, demander, rank)
        else:
            self.named_missing += 1

    def _move(self, giver: int, taker: int, rank: int) -> None:
        self.hands[giver][rank] -= 1
        self.hands[taker][rank] += 1
        self.held[giver] -= 1
        self.held[taker] += 1
        if self.seen_in_hand is not None:
            self._note_handed(giver, taker, [rank])

    def _give(self, giver: int, taker: int, count: int, keep_one: bool = True) -> None:
        """The giver hands over its best cards, but never its last one after a demand."""
        src, dst = self.hands[giver], self.hands[taker]
        count = min(count, self.held[giver] - (1 if keep_one else 0))
        self.held[giver] -= count
        self.held[taker] += count
        r = TWO
        handed = []
        while count:
            while not src[r]:
                r -= 1
            src[r] -= 1
            dst[r] += 1
            handed.append(r)
            count -= 1
        if self.seen_in_hand is not None and handed:
            self._note_handed(giver, taker, handed)

    def _note_play(self, p: int, rank: int, count: int) -> None:
        """A play is public: the cards of ``rank`` anyone knew ``p`` held may be these."""
        seen = self.seen_in_hand
        assert seen is not None
        for row in seen[p::self.n]:  # seen[x * n + p] for every x
            c = row.get(rank) if row else None
            if c is not None:
                if c > count:
                    row[rank] = c - count
                else:
                    del row[rank]

    def _note_handed(self, giver: int, taker: int, ranks: list[int]) -> None:
        """Cards handed over are seen by the two; the others see only how many moved."""
        seen = self.seen_in_hand
        assert seen is not None
        n = self.n
        for x in range(n):
            row = seen[x * n + giver]
            if x == giver or not row:
                continue
            lost = ranks if x == taker else None
            for r in list(row):
                c = row[r] - (lost.count(r) if lost is not None else len(ranks))
                if c > 0:
                    row[r] = c
                else:
                    del row[r]
        row = seen[giver * n + taker]
        for r in ranks:
            row[r] = row.get(r, 0) + 1

    # ---- rounds

    def _end_round(self) -> None:
        last = self.out.index(False)
        finish = self.finish + [last]
        magnate = finish[0]
        self.rounds_won[magnate] += 1
        self.rounds_played = self.round_no
        if self.round_no >= 2:
            self.keep_rounds += 1
            status, hits = self.status, self.keep_hits
            for place, seat in enumerate(finish, 1):
                if status[seat] == place:
                    hits[place] += 1
        self.last_finish = finish
        self.finish = finish
        self.trick_count, self.trick_rank = 0, -1
        if self.rounds_won[magnate] >= self.rounds_to_win:
            self.winner = magnate
            self.phase, self.player = OVER, TERMINAL
            return
        self.round_no += 1
        # one generator for the round deals the cards and draws the seed of the
        # secret status deal: a shared seed would let a hand hint at a status
        rng = self._round_rng()
        self.status_seed = rng.getrandbits(48)
        statuses = [0] * self.n
        statuses[finish[-1]] = self.n
        self._start_round(finish, statuses, 0, rng)
        self.phase, self.player = KEEP_STATUS, magnate

    def _keep(self, action: int) -> None:
        number = action - KEEP
        if not 1 <= number < self.n:
            raise IllegalAction(f"illegal action {action_to_string(action)}: keep a status from 1 to {self.n - 1}")
        self.status[self.player] = number
        self.known[self.player * self.n + self.player] = number
        self.phase = ASSIGN_STATUS

    def _assign(self, action: int) -> None:
        target = -1
        if action != NO_ASSIGN:
            target, number = divmod(action - ASSIGN, 16)
            if action < ASSIGN or target not in self.assign_targets() or number not in self.unassigned():
                raise IllegalAction(f"illegal action {action_to_string(action)}")
            self.status[target] = number
        self._deal_statuses(target, self.unassigned())

    def _deal_statuses(self, assigned: int, rest: list[int]) -> None:
        """The rest of the status cards (``unassigned()``), shuffled and dealt secretly; then the exchange."""
        _shuffle(_random.Random(self.status_seed), rest)
        status = self.status
        for seat, number in zip([q for q in self.order if not status[q]], rest):
            status[seat] = number
        self._reset_knowledge()
        if assigned >= 0:
            self.known[self.player * self.n + assigned] = self.status[assigned]
        self._start_exchange()

    def _start_exchange(self) -> None:
        """Each loser gives its best cards at once; the winners owe as many back, of their choice.

        The first and the last out swap ``exchange`` cards, the second and the
        second last one fewer, and so on inwards while there are cards to swap.
        """
        n, finish, held = self.n, self.last_finish, self.held
        self.owed = owed = []
        for i in range(n // 2):
            winner, loser = finish[i], finish[n - 1 - i]
            cards = min(self.exchange - i, held[loser])
            if cards <= 0:
                break
            self._give(loser, winner, cards, keep_one=False)
            owed.append([winner, loser, cards])
        self._next_give_back()

    def _give_back(self, action: int) -> None:
        winner = self.owed[0][0]
        rank = action - GIVE_BACK
        if not 0 <= rank < 13 or not self.hands[winner][rank]:
            raise IllegalAction(f"illegal action {action_to_string(action)} for seat {winner}")
        self._hand_back(rank)

    def _hand_back(self, rank: int) -> None:
        """The exchange winner first owed a card gives one of ``rank`` (held) back."""
        owed = self.owed[0]
        self._move(owed[0], owed[1], rank)
        owed[2] -= 1
        self._next_give_back()

    def _next_give_back(self) -> None:
        """The next give-back owed; a winner holding a single rank gives it back (a forced move the
        engine makes); when all is given back the first in the seating leads."""
        owed = self.owed
        while True:
            while owed and not owed[0][2]:
                owed.pop(0)
            if not owed:
                self._lead(self.order[0])
                return
            winner, loser, _ = owed[0]
            self.phase, self.player = GIVING_BACK, winner
            held = self.held[winner]
            if held > len(SUITS) or not self.plays_forced:  # more cards than a rank has: a choice
                return
            hand = self.hands[winner]
            rank = _highest(hand)
            if hand[rank] != held:
                return
            self._move(winner, loser, rank)
            owed[0][2] -= 1

    def _round_rng(self) -> _random.Random:
        """The round's generator: ``random.Random``'s Mersenne Twister seeded alike, made without its
        Python-level seeding (the deal and ``_shuffle`` draw only ``getrandbits``; every round seeds
        two generators, this one and the status deal's)."""
        return _random.Random((self.deal_seed << 16) + self.round_no)

    def _start_round(self, order: list[int], statuses: list[int], leader_index: int,
                     rng: _random.Random | None) -> None:
        """Seat players in ``order``, deal all 52 from the leader, reset knowledge."""
        self.hands = _deal(rng or self._round_rng(), order, leader_index)
        self.played = [0] * 13
        self._seat(order, statuses, order[leader_index])

    def _seat(self, order: list[int], statuses: list[int], leader: int) -> None:
        n = self.n
        self.order = list(order)
        self.seat_index = seat_index = [0] * n
        for i, q in enumerate(order):
            seat_index[q] = i
        self.status = list(statuses)
        if self.seen_in_hand is not None:  # a new deal: nobody has handed anyone anything
            self.seen_in_hand = [{} for _ in range(n * n)]
        self.held = held = list(map(sum, self.hands))
        if all(held):  # a deal: everyone has cards
            self.out, self.finish = [False] * n, []
        else:
            self.out = out = [not h for h in held]
            self.finish = [q for q in range(n) if out[q]]
        self.active = n - len(self.finish)
        self._reset_knowledge()
        self.phase, self.player = PLAY, leader
        self.trick_rank, self.trick_count, self.trick_winner, self.passes = -1, 0, leader, 0
        self.target, self.demand_rank = -1, BEST
        self.owed = []

    def _reset_knowledge(self) -> None:
        """Everyone knows their own status and, from round 2, the new Asshole's."""
        n, status = self.n, self.status
        known = [0] * (n * n)
        known[::n + 1] = status
        if self.round_no >= 2 and self.last_finish:
            asshole = self.last_finish[-1]
            known[asshole::n] = [status[asshole]] * n
        self.known = known

    def _set_position(self, hands: list[list[int]] | list[str], statuses: list[int], leader: int) -> None:
        n = self.n
        if len(hands) != n or sorted(statuses) != list(range(1, n + 1)):
            raise ValueError(f"need {n} hands and statuses 1..{n}")
        self.hands = [_hand_counts(h) for h in hands]
        self.played = [len(SUITS) - sum(h[r] for h in self.hands) for r in range(13)]
        if min(self.played) < 0:
            raise ValueError("more than four cards of a rank")
        self._seat(list(range(n)), statuses, leader)
        if self.active < 2 or self.out[leader]:
            raise ValueError("a position needs two players with cards and a leader with cards")


def _highest(hand: list[int]) -> int:
    """The highest rank in a hand that holds a card."""
    r = TWO
    while not hand[r]:
        r -= 1
    return r


def _deal(rng: _random.Random, order: list[int], leader_index: int) -> list[list[int]]:
    """The 52 cards shuffled and dealt one at a time from ``order[leader_index]`` round ``order``.

    The draws are ``random.Random.shuffle``'s (Fisher-Yates from the top, each index drawn below
    its bound from ``getrandbits`` of the bound's length, again while too high), so the hands are
    those of shuffling the deck and dealing it; a place is final once drawn, so each card is dealt
    at once.
    """
    getrandbits = rng.getrandbits
    n = len(order)
    cards = _FULL_DECK[:]
    hands = [[0] * 13 for _ in range(n)]
    # card i goes to seats[i]: the hands from the leader's on round the order, over and over
    seats = [hands[q] for q in order[leader_index:] + order[:leader_index]] * (DECK_SIZE // n + 1)
    for i, bits in _SHUFFLE_DRAWS:
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        seats[i][cards[j]] += 1
        cards[j] = cards[i]
    seats[0][cards[0]] += 1
    return hands


def _shuffle(rng: _random.Random, items: list[int]) -> None:
    """What ``random.Random.shuffle(items)`` does with a generator in ``rng``'s state: its draws (as
    ``_deal`` makes them), made here."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        bits = (i + 1).bit_length()
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


def _rank_masks(hands: list[list[int]]) -> list[list[int]]:
    """``masks[c][p]``: bit r set when hand ``p`` holds ``c`` or more cards of rank r (c = 1..4).

    A hand's four masks are summed at once, one in each 16-bit lane (``_LANE_BITS``), then split."""
    n = len(hands)
    one, two, three, four = [0] * n, [0] * n, [0] * n, [0] * n
    for p, hand in enumerate(hands):
        lanes = sum(map(getitem, _LANE_BITS, hand))
        one[p] = lanes & _ALL_RANKS
        two[p] = lanes >> _LANE & _ALL_RANKS
        three[p] = lanes >> 2 * _LANE & _ALL_RANKS
        four[p] = lanes >> 3 * _LANE
    return [[0] * n, one, two, three, four]


def _rank_names(counts: list[int]) -> list[str]:
    """The rank name of every card counted, low to high."""
    names: list[str] = []
    for name, k in zip(RANKS, counts):
        if k:
            names += [name] * k
    return names


def _hand_counts(hand: list[int] | str) -> list[int]:
    if isinstance(hand, str):
        counts = [0] * 13
        for name in hand.split():
            counts[RANKS.index(name.upper())] += 1
        return counts
    return list(hand)


# ---------------------------------------------------------------- deck checks


def check_deck(deck: Any) -> list[Finding]:
    """Status cards 1..N with the right titles, and a full 52 when one is printed."""
    where = str(deck.path)
    findings: list[Finding] = []

    def find(message: str, card: Any = None, severity: str = "error", key: str = "") -> None:
        location = card.location if card is not None else deck.key_locations.get(key) or None
        findings.append(Finding(where, message, card.id if card is not None else "", location, severity))

    options = deck.options or {}
    try:
        players = read_options({"players": options.get("players", DEFAULT_PLAYERS)})["players"]
        standard = read_options({"standard_deck": options.get("standard_deck", False)})["standard_deck"]
    except CardgenError as e:
        find(e.message, key="options")
        return findings
    if players < ADVISED_PLAYERS:
        find(f"{players} players: fewer than {ADVISED_PLAYERS} is not advised by the rules",
             severity="warning", key="options")

    _check_status_cards(deck, players, find)
    playing = [c for c in deck.cards if c.kind == "playing"]
    if standard or playing:
        _check_standard_deck(playing, standard, find)
    return findings


def _check_status_cards(deck: Any, players: int, find: Callable[..., None]) -> None:
    seen: dict[int, Any] = {}
    for card in deck.cards:
        if card.kind != "status":
            continue
        number = card.fields.get("number", 0)
        if not 1 <= number <= players:
            find(f"status number {number} is outside 1..{players} for {players} players", card)
            continue
        if number in seen or card.copies != 1:
            find(f"status number {number} appears more than once", card)
        seen.setdefault(number, card)
        expected = status_title(number, players)
        if not _title_matches(card.title, expected, players):
            if expected:
                find(f"status {number} must be titled '{expected}', got '{card.title}'", card)
            else:
                find(f"status {number} carries the title '{card.title}', which belongs to another number", card)
    missing = [k for k in range(1, players + 1) if k not in seen]
    if missing:
        find(f"status cards {', '.join(map(str, missing))} are missing: "
             f"{players} players need one card each numbered 1..{players}", key="cards")


def _title_matches(title: str, expected: str, players: int) -> bool:
    """A title matches its full text or one of its '/' halves; plain numbers carry no rank title."""
    given = " ".join(title.split()).casefold()
    if expected:
        halves = {expected.casefold()} | {part.strip().casefold() for part in expected.split("/")}
        return given in halves
    titled = {_title.casefold() for _title in (MAGNATE, LACKEY, JACKASS, ASSHOLE)}
    titled |= {part.strip().casefold() for t in (LACKEY, ASSHOLE) for part in t.split("/")}
    return given not in titled


def _check_standard_deck(playing: list[Any], standard: bool, find: Callable[..., None]) -> None:
    if not playing:
        find("option standard_deck is true but the deck has no playing cards", key="options")
        return
    seen: dict[tuple[str, str], int] = {}
    for card in playing:
        rank, suit = str(card.fields.get("rank", "")).upper(), str(card.fields.get("suit", "")).lower()
        if rank not in RANKS or suit not in SUITS:
            find(f"playing card '{card.fields.get('rank')} of {card.fields.get('suit')}' is not a card of a "
                 f"traditional deck (ranks {', '.join(RANKS)}; suits {', '.join(SUITS)})", card)
            continue
        key = (rank, suit)
        seen[key] = seen.get(key, 0) + card.copies
        if seen[key] > 1:
            find(f"{rank} of {suit} appears more than once", card)
    missing = [f"{r} of {s}" for r in RANKS for s in SUITS if (r, s) not in seen]
    if missing:
        shown = ", ".join(missing[:6]) + (f" and {len(missing) - 6} more" if len(missing) > 6 else "")
        find(f"the traditional deck needs all 52 cards; missing {shown}", key="cards")


__all__ = [
    "ASSIGN",
    "COMPLY",
    "DEMAND",
    "DEMANDER_GIVES",
    "GIVE_BACK",
    "KEEP",
    "NO_ASSIGN",
    "NO_DEMAND",
    "PASS",
    "PROTECTED",
    "RANKS",
    "REFUSE",
    "SUITS",
    "TARGET_GIVES",
    "ClusterfuckGame",
    "ClusterfuckState",
    "action_to_string",
    "assign_action",
    "check_deck",
    "demand_action",
    "game_from_deck",
    "give_back_action",
    "keep_action",
    "play_action",
    "read_options",
    "status_cards",
    "status_title",
]


# --- the game, declared ---------------------------------------------------------

#: Social Status colours: the Magnate's gold, the Asshole's red, the ranks between
STATUS_COLORS = {"top": (0.80, 0.64, 0.16), "bottom": (0.45, 0.12, 0.12), "middle": (0.28, 0.30, 0.38)}


def customise(deck: Any, cards: list, options: Mapping[str, Any], settings: Any) -> list:
    """One Social Status card per player, numbered 1..N, before the deck's own cards."""
    from ..colors import parse_color
    from ..model import Card

    players = options["players"]
    color = deck.status.get("color")
    status = []
    for number, title in status_cards(players):
        rank = "top" if number == 1 else "bottom" if number == players else "middle"
        status.append(Card(id=f"status-{number}", kind="status", title=title,
                           text=deck.status.get("text", ""),
                           color=parse_color(color) if color else STATUS_COLORS[rank],
                           location=deck.key_locations.get("status"),
                           fields={"number": number, "players": players, "rank": rank}))
    return status + cards


from .clusterfuck_questions import QUESTIONS as ANALYZE_QUESTIONS  # noqa: E402

GAME = GameInfo(id="clusterfuck", name="Clusterfuck", engine=ClusterfuckGame, from_deck=game_from_deck,
                check_deck=check_deck, customise=customise, card_kinds=("status",), players="5–8+",
                questions=ANALYZE_QUESTIONS)
