"""Clusterfuck's rules: Asshole (President) with secret Social Status cards, as a state machine.

A climbing game with a traditional deck (3 low ... A, 2 high). Whoever wins a
trick may demand a card of another player, its best or one of a named rank;
the target complies or refuses by claiming higher status, and then the secret
status cards decide. Between rounds the Magnate keeps a status card and may
assign one, and the traditional exchange swaps the Asshole's best cards for
cards of the Magnate's choice. The first player crowned Magnate (first out of
a round) five times is the True Magnate and wins. Every reading of the seed
text that the original leaves open is listed in docs/rules-readings.md.

Only the rules live here: the table (``ClusterfuckRules``: players, options), a
position and its moves (``ClusterfuckState``) and the rules' own helpers. How
players choose is ``policies.py``'s, the fast random game ``playout.py``'s.
"""
from __future__ import annotations

import _random
import random
from typing import Any

from ...errors import CardgenError
from .. import base
from ..base import TERMINAL, Game, IllegalAction, OptionSpec, State, deal_out, sample, shuffle
from .cards import (
    _FOLLOWS,
    _LEADS,
    ASSIGN,
    BEST,
    COMPLY,
    DEMAND,
    GIVE_BACK,
    KEEP,
    NO_ASSIGN,
    NO_DEMAND,
    PASS,
    RANKS,
    REFUSE,
    SUITS,
    TWO,
    _deal,
    _hand_counts,
    _highest,
    _rank_names,
    action_to_string,
)

MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS = 3, 12, 8
#: traditional Asshole: the Asshole and the Magnate swap 2, the next pair 1;
#: 12 players hold 4 cards each, so 4 is the most a hand can always give
DEFAULT_EXCHANGE, MAX_EXCHANGE = 2, 4


def _check_player_count(players: Any) -> None:
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise CardgenError(
            f"option 'players' must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, got {players!r}"
        )


# ---------------------------------------------------------------- options


def read_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """Checked values of just the options given, from Python or command-line strings."""
    parsed = base.parse_options("clusterfuck", ClusterfuckRules.option_specs, options)
    return {name: parsed[name] for name in (options or {})}


# who gives what when a demand is refused
TARGET_GIVES, DEMANDER_GIVES, PROTECTED = "target gives", "demander gives", "protected"

# phases of a round: play, the demand after a trick, and between rounds the
# Magnate's two status choices and the exchange winners' give-backs
PLAY, CHOOSE_DEMAND, ANSWER_DEMAND, OVER, KEEP_STATUS, ASSIGN_STATUS, GIVING_BACK = range(7)


# ---------------------------------------------------------------- the table


class ClusterfuckRules(Game["ClusterfuckState"]):
    """Fixed table: player count and the rule options. The game the flows play, with its policies,
    is ``policies.ClusterfuckGame``."""

    name = "clusterfuck"
    option_specs = (
        OptionSpec("players", DEFAULT_PLAYERS, f"number of players ({MIN_PLAYERS}..{MAX_PLAYERS}; "
                   "fewer than 5 is not advised)", minimum=MIN_PLAYERS, maximum=MAX_PLAYERS),
        OptionSpec("rounds_to_win", 5, "rounds a player must win as Magnate to become the True Magnate (1..20)",
                   minimum=1, maximum=20),
        OptionSpec("bluff", 0.2, "chance a greedy player refuses a demand it would lose (0..1)",
                   minimum=0.0, maximum=1.0),
        OptionSpec("standard_deck", False, "also print a 52-card deck and a reference card (printing only)"),
        OptionSpec("status_powers", True, "the mod's status powers: a trick's winner may demand a card, "
                   "settled by comparing Social Status cards (false: traditional Asshole, no demands; "
                   "for analyze's factorial)"),
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
        self.status_powers: bool = self.options["status_powers"]

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


def _demander_wins(demander: int, target: int, n: int) -> bool:
    """Whether a refused demand still gets the demander the card (status only)."""
    if demander == n and target == 1:
        return True
    if demander == 1 and target == n:
        return False
    return demander < target


# ---------------------------------------------------------------- the state


class ClusterfuckState(State):
    """One position: hands as rank counts, status cards, the trick in play.

    Forced moves are the engine's (``plays_forced``, on in every dealt game): a player whose only
    legal action is to pass (nothing in hand beats the trick), to lead its last card, or to give
    back its only rank in the exchange makes that move at once, inside the ``apply_action`` that
    brought the turn to it, so ``current_player()`` names only players with a real choice. The
    rules are the same (the passes still count towards ending the trick, the last card still goes
    out), only fewer moves are counted: a random 8-player game has about half the moves it had when
    every forced pass was one. Hand-built positions (``ClusterfuckRules.position``) leave them to
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
        game: ClusterfuckRules,
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
        #: per player, ``_deal_plan`` of this position once a determinization for them asked for it
        self._dealing: dict[int, tuple] | None = None
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
        self._beats = self._dealing = None
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
        other._dealing = None
        other.hands = [h[:] for h in self.hands]
        other.played_by = [h[:] for h in self.played_by]
        other.owed = [o[:] for o in self.owed]
        # each list by name: a loop of setattr costs a search's determinization a fifth more
        other.held, other.played, other.status = self.held[:], self.played[:], self.status[:]
        other.out, other.finish, other.order = self.out[:], self.finish[:], self.order[:]
        other.seat_index, other.rounds_won, other.known = self.seat_index[:], self.rounds_won[:], self.known[:]
        other.keep_hits, other.last_finish = self.keep_hits[:], self.last_finish[:]
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
        plan = self._dealing.get(player) if self._dealing is not None else None
        if plan is None:
            if self._dealing is None:
                self._dealing = {}
            plan = self._dealing[player] = self._deal_plan(player)
        hidden, unseen, known_at, pool, fixed = plan
        other = self._copy(False)
        other.deal_seed = rng.getrandbits(48)
        other.status_seed = rng.getrandbits(48)
        if hidden:
            status = other.status
            for q, number in zip(hidden, sample(rng, unseen, len(hidden))):  # rng.sample's draws
                status[q] = number
            # what the others know follows the new deal
            known, n = other.known, self.n
            for i in known_at:
                known[i] = status[i % n]
        pool = pool[:]
        shuffle(rng, pool)  # rng.shuffle's very draws, made faster
        deal_out(pool, fixed, other.hands)
        return other

    def _deal_plan(self, player: int) -> tuple:
        """What every determinization for ``player`` of this position starts from (the search deals
        thousands of one position): the seats whose status is dealt again and the numbers dealt,
        the places in ``known`` of statuses someone knows (they follow the new deal), the unseen
        cards in the order they are shuffled, and per other seat the cards it is known to keep and
        how many it is dealt."""
        n = self.n
        mine = self.known[player * n:(player + 1) * n]
        hidden = [q for q in range(n) if self.status[q] and not mine[q]]
        unseen = sorted(set(range(1, n + 1)) - set(mine)) if hidden else []
        known_at = [i for i, number in enumerate(self.known) if number] if hidden else []
        seen = self.seen_in_hand
        fixed: dict[int, list[int]] = {}
        pool: list[int] = []
        for q in range(n):
            if q == player:
                continue
            row = fixed[q] = [0] * 13
            held = seen[player * n + q] if seen is not None else None
            if held:
                for r, c in held.items():
                    row[r] = c
                for r, c in enumerate(self.hands[q]):
                    if c > row[r]:
                        pool += [r] * (c - row[r])
            else:
                for r, c in enumerate(self.hands[q]):
                    if c:
                        pool += [r] * c
        return hidden, unseen, known_at, pool, [(q, row, self.held[q] - sum(row)) for q, row in fixed.items()]

    def cards_played(self) -> list[list[str]]:
        """Per player, the rank name of every card they put into a trick this game, one
        entry per card per play (suits are not tracked, so "K" is any king)."""
        return [_rank_names(counts) for counts in self.played_by]

    def cards_held(self) -> list[list[str]]:
        """Per player, the rank names of the cards in hand now, low to high."""
        return [_rank_names(counts) for counts in self.hands]


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
        passes, forced = self.passes, self.plays_forced
        i = self.seat_index[seat]
        while True:
            i += 1
            if i == n:
                i = 0
            q = order[i]
            if out[q]:
                continue
            if not forced or max(hands[q][above:]) >= count:
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
        if not self.game.status_powers:
            return False
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
        shuffle(_random.Random(self.status_seed), rest)
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
        Python-level seeding (the deal and ``shuffle`` draw only ``getrandbits``; every round seeds
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
