"""Common Carrier's rules: two carriers lay network cards into a 5 x 5 service area.

Each turn a player draws two cards and plays two so that, at the end of the
turn, every card touches another at least corner to corner, touching edges
agree (both line or both blank) and the cards span at most 5 x 5. A card may
go on top of another; the top card is the node. A player wins when two nodes
exist such that every path between them runs over at least ``target`` of
their links. The readings chosen where the text is open are in
docs/rules-readings.md; the ones that shape the code are noted here.

An action is a whole turn: the tuple of placements ``(card, row, col,
turned)`` applied together, because only the end-of-turn position has to be
legal. The board is a bit set (board.py), which lets a turn's legal plays be
counted and sampled uniformly without listing them (plays.py). An action the
state drew or chose itself is applied without being checked again; one from
outside is checked. An all-random game is played out whole
(``random_playout``): the draws of move by move play, laid by the same step
code without making the actions.
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...errors import CardgenError
from .. import base
from ..base import TERMINAL, Game, IllegalAction, OptionSpec, State, shuffle
from .board import (
    _HALO,
    _ROW_COL,
    _TURNED,
    BOTTOM,
    CELLS,
    CENTER,
    GOOSE_MASK,
    INNER,
    LEFT,
    OPPOSITE,
    PBX_MASK,
    RIGHT,
    SIDE_BITS,
    SIDE_STEP,
    SPAN,
    TOP,
    W,
    _best_path,
    _connected,
    _near,
    canonical,
    cell_of,
    mask_of,
    row_col,
    turned,
)
from .plays import Plays, _placement_action, _playable_at_a_glance

#: tie_resolution values: none, best own path, most own links
TIE_NONE, TIE_PATH, TIE_LINKS = 0, 1, 2
#: targets whose tie rate one playtest run reports
REPORTED_TARGETS = (5, 6, 7, 8)

# --- options -------------------------------------------------------------

OPTION_SPECS = (
    OptionSpec("target", 7, "links of yours every path between two nodes must use to win (1..20)",
               minimum=1, maximum=20),
    OptionSpec("hole_card", False, "draw one extra card at the start: play 2 of 3 each turn"),
    OptionSpec("endgame", False, "with an empty deck, play one card per turn"),
    OptionSpec("tie_resolution", 0,
               "0 none; 1 best own path wins (then most own links); 2 most own links wins",
               choices=(0, 1, 2)),
    OptionSpec("gray_rule", False, "the gray-card rule: each player shuffles in 4 gray cards of their choice "
                                   "(off: the basic game, gray cards set aside)"),
    OptionSpec("gray_pbx_1", None, "of player 1's 4 gray cards, how many are PBX (the rest goose eggs; "
                                   "default: as printed, else 2)", minimum=0, maximum=4),
    OptionSpec("gray_pbx_2", None, "of player 2's 4 gray cards, how many are PBX (the rest goose eggs; "
                                   "default: as printed, else 2)", minimum=0, maximum=4),
    OptionSpec("gray_announced", False, "with the gray-card rule, each player says which 4 gray cards they "
                                        "chose, so a searching player knows the rival's (off: the choice "
                                        "is secret)"),
)
OPTION_NAMES = tuple(spec.name for spec in OPTION_SPECS)
#: "Each player chooses 4 gray cards"
GRAY_CARDS = 4
#: what a reference card must say for the readings this engine plays (the bundled card is tested
#: against it): condition ("" for every game) -> phrases its line must contain
REFERENCE_READINGS = {
    "": ("one connected layout", "5 × 5", "every path between them uses at least {target}"),
    "hole_card": ("1 extra card",),
    "endgame": ("play 1 card a turn",),
    "gray_rule": ("4 gray cards of their own choice",),
    "tie_resolution=1": ("best winning path", "most links of your own"),
    "tie_resolution=2": ("most links of your own",),
}


def parse_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Options as given in Python or as ``key=value`` strings from the command line."""
    return base.parse_options("common-carrier", OPTION_SPECS, dict(options or {}))


# --- the cards an engine plays ---------------------------------------------

#: printed cards of one player: (mask, gray, copies, card id)
Printed = Sequence[tuple[int, bool, int, str]]


def standard_printing() -> list[tuple[int, bool, int, str]]:
    """One player's tiles as the bundled deck prints them (the original sheet printed 4 times: the 8
    basic patterns, PBX and goose egg): what an engine made without a deck plays."""
    from .. import bundled_deck

    return _printing(bundled_deck("common-carrier").cards)


def _printing(cards: Iterable[Any]) -> list[tuple[int, bool, int, str]]:
    """One player's printed tiles among ``cards``, as the engine takes them (``Printed``)."""
    return [(mask_of(card.fields["edges"]), bool(card.fields.get("gray")), card.copies, card.id)
            for card in cards if card.kind == "tile" and card.fields.get("edges") is not None]


# --- the game ------------------------------------------------------------

class CommonCarrierRules(Game["CommonCarrierState"]):
    """Two players, their printed cards and the rule options: the rules, without the policies
    (``CommonCarrierGame`` in game.py adds those)."""

    name = "common-carrier"
    option_specs = OPTION_SPECS

    def __init__(self, num_players: int = 2, options: Mapping[str, Any] | None = None,
                 printed: Sequence[Printed] | None = None, gray: Sequence[tuple[int, int]] | None = None):
        """``gray`` gives each player's (PBX, goose eggs) directly, for set-ups; play takes them from the
        options: none in the basic game, 4 of each player's choice with ``gray_rule``."""
        if num_players != 2:
            raise CardgenError(f"Common Carrier is for 2 players, not {num_players}")
        parsed = parse_options(options)
        printed = printed or [standard_printing(), standard_printing()]
        chosen = list(gray) if gray is not None else self._gray_choice(parsed, printed)
        for player in (0, 1):
            parsed[f"gray_pbx_{player + 1}"] = chosen[player][0] if parsed["gray_rule"] or gray else None
        self.gray = chosen
        super().__init__(2, parsed)
        self.target: int = parsed["target"]
        self.hole_card: bool = parsed["hole_card"]
        self.endgame: bool = parsed["endgame"]
        self.tie_resolution: int = parsed["tie_resolution"]
        #: per card id: owner, printed mask, gray, PBX, the deck's card id
        self.card_owner: list[int] = []
        self.card_mask: list[int] = []
        self.card_pbx: list[bool] = []
        self.card_source: list[str] = []
        #: per card id, the players it counts for as bits (1 << owner, both for a PBX)
        self.card_counts: list[int] = []
        self.player_cards: list[list[int]] = [[], []]
        #: per player, the ids of every gray card printed for them by mask: the chosen ones, in play,
        #: and (only while the choice is secret) the others, never dealt, for a determinization to
        #: deal a choice the searching player cannot see (``CommonCarrierState.determinize``)
        self.gray_ids: list[dict[int, list[int]]] = [{PBX_MASK: [], GOOSE_MASK: []} for _ in (0, 1)]
        #: whether a player's choice of gray cards is hidden from the rival
        self.gray_secret: bool = bool(parsed["gray_rule"]) and not parsed["gray_announced"]
        unused: list[tuple[int, int, int, str]] = []
        for player in (0, 1):
            wanted = {PBX_MASK: chosen[player][0], GOOSE_MASK: chosen[player][1]}
            for mask, is_gray, copies, source in printed[player]:
                count = copies
                if is_gray:
                    count = min(copies, wanted.get(mask, 0))
                    wanted[mask] = wanted.get(mask, 0) - count
                    unused.append((player, mask, copies - count, source))
                for _ in range(count):
                    self.player_cards[player].append(self._new_card(player, mask, is_gray, source))
        # the gray cards a player left out get ids after every card in play, so those stay the same
        for player, mask, count, source in unused if self.gray_secret else ():
            for _ in range(count):
                self._new_card(player, mask, True, source)

    def _new_card(self, player: int, mask: int, is_gray: bool, source: str) -> int:
        card = len(self.card_owner)
        self.card_owner.append(player)
        self.card_mask.append(mask)
        self.card_pbx.append(is_gray and mask == PBX_MASK)
        self.card_source.append(source)
        self.card_counts.append(3 if is_gray and mask == PBX_MASK else 1 << player)
        if is_gray and mask in (PBX_MASK, GOOSE_MASK):
            self.gray_ids[player][mask].append(card)
        return card

    @staticmethod
    def _gray_choice(parsed: dict[str, Any], printed: Sequence[Printed]) -> list[tuple[int, int]]:
        """Each player's (PBX, goose eggs): none in the basic game; with the gray-card rule, 4 of the
        player's own choice ("Each player chooses 4 gray cards"), as the options say or the print shows."""
        if not parsed["gray_rule"]:
            return [(0, 0), (0, 0)]
        chosen = []
        for player in (0, 1):
            have_pbx = sum(c for m, g, c, _ in printed[player] if g and m == PBX_MASK)
            have_goose = sum(c for m, g, c, _ in printed[player] if g and m == GOOSE_MASK)
            pbx = parsed[f"gray_pbx_{player + 1}"]
            if pbx is None:
                pbx = have_pbx if have_pbx + have_goose == GRAY_CARDS else min(2, have_pbx)
            goose = GRAY_CARDS - pbx
            if pbx > have_pbx or goose > have_goose:
                raise CardgenError(f"player {player + 1} chooses {pbx} PBX and {goose} goose eggs (option "
                                   f"'gray_pbx_{player + 1}'), but {have_pbx} PBX and {have_goose} goose eggs "
                                   f"are printed for them")
            chosen.append((pbx, goose))
        return chosen

    def new_initial_state(self, rng: random.Random) -> CommonCarrierState:
        state = CommonCarrierState(self)
        for player in (0, 1):
            deck = list(self.player_cards[player])
            rng.shuffle(deck)
            state.decks[player] = deck
            if self.hole_card and deck:
                state.hands[player].append(deck.pop())
        state._start_turn(0)
        return state

    def empty_state(self) -> CommonCarrierState:
        """An empty board with every card still in its owner's unshuffled deck (for set-ups)."""
        state = CommonCarrierState(self)
        state.decks = [list(self.player_cards[0]), list(self.player_cards[1])]
        return state

    def cards_of(self, player: int, mask: int) -> list[int]:
        """Card ids of ``player`` printed with ``mask`` or its turn."""
        return [c for c in self.player_cards[player]
                if canonical(self.card_mask[c]) == canonical(mask)]

    def random_action(self, state: CommonCarrierState, player: int,
                      rng: random.Random) -> tuple:
        """A uniformly drawn legal action, without listing them all."""
        return state.sample_action(rng)

    def random_playout(self, state: CommonCarrierState, rng: random.Random, max_moves: int,
                       branching: list[int]) -> int:
        """Random moves until the game ends or ``max_moves`` are made (the runner's all-random game)."""
        return state.random_playout(rng, max_moves, branching)

    def metrics(self, state: CommonCarrierState) -> dict[str, Any]:
        return {"target": self.target, "reached": [list(r) for r in state.reached],
                "fill": bin(state.occ).count("1") / (SPAN * SPAN)}

    def summarize(self, metrics: list[dict[str, Any]]) -> dict[str, Any]:
        """Tie rate per target (exact for targets up to the run's own) and board fill."""
        if not metrics:
            return {"tie_rate_by_target": {str(t): None for t in REPORTED_TARGETS},
                    "board_fill": 0.0}
        rates: dict[str, float | None] = {}
        for index, target in enumerate(REPORTED_TARGETS):
            known = [m for m in metrics if target <= m["target"]]
            if not known or len(known) < len(metrics):
                rates[str(target)] = None
                continue
            ties = sum(1 for m in known if all(r[index] is None for r in m["reached"]))
            rates[str(target)] = ties / len(known)
        return {"tie_rate_by_target": rates,
                "board_fill": sum(m["fill"] for m in metrics) / len(metrics)}

    def _oriented(self, card: int, is_turned: bool) -> int:
        mask = self.card_mask[card]
        return turned(mask) if is_turned else mask

    def action_to_string(self, action: tuple) -> str:
        return ", ".join(f"{self.card_source[c]}#{c}{' turned' if t else ''} at ({r},{col})"
                         for c, r, col, t in action)


# --- the state -----------------------------------------------------------

#: a player deciding on their own turn, or placing the cards the rival could not play
PHASE_TURN, PHASE_HANDOVER = 0, 1


class CommonCarrierState(Plays, State):
    """The board of stacks, each player's deck, hand and discards, and who decides."""

    def action_to_string(self, action: Any) -> str:
        return self.game.action_to_string(tuple(action))

    def __init__(self, game: CommonCarrierRules):
        self.game = game
        self.top = [-1] * CELLS
        self.mask = [0] * CELLS
        self.occ = 0
        #: the occupied cells and their 8 neighbours
        self.halo = 0
        #: cells whose top card has a line on side i (TOP, RIGHT, BOTTOM, LEFT)
        self.line = [0, 0, 0, 0]
        #: cells whose top card counts for player p (owned by p, or a PBX)
        self.own = [0, 0]
        self.bbox: tuple[int, int, int, int] | None = None
        #: every card placed, in order, buried ones included
        self.placed: list[int] = []
        self.placed_cells: list[int] = []
        self.decks: list[list[int]] = [[], []]
        self.hands: list[list[int]] = [[], []]
        self.discards: list[list[int]] = [[], []]
        self.player = 0
        self.phase = PHASE_TURN
        #: cards handed over to ``player`` by the opponent (hand-over phase)
        self.pending: list[int] = []
        self.quota = 2
        self.endgame_turn = False
        self.moves = 0
        self.finished = False
        self._winners: list[int] = []
        #: how the game ended: "target", "tie_resolution" or "cards_out"
        self.decided_by = ""
        #: per player, the move at which their best path first reached 5, 6, 7, 8
        self.reached: list[list[int | None]] = [[None] * 4, [None] * 4]
        self._level = 0
        self._sets: tuple[int, int, int, tuple[int, ...], Any] | None = None
        self._away: tuple[int, int, int, int] = (0, 0, 0, 0)
        self._fronts: tuple[int, int, int, int] = (0, 0, 0, 0)
        self._combos: list | None = None
        #: the sum of the weights in ``_combos``
        self._combo_total = 0
        #: per oriented mask, where it fits on this board (``_near_set``); per (mask of a, mask of b)
        #: counted, the placements with both near the board and apart, and the two masks'
        #: ``_near_set``, and all the placements; per placement laid, whether the board is legal:
        #: the board's share of plays.py's ``_BOARDS``, set with ``_sets``
        self._near_cache: dict[int, tuple] = {}
        self._apart: dict[tuple[int, int], tuple[int, tuple, tuple]] = {}
        self._pair_total: dict[tuple[int, int], int] = {}
        self._laid_legal: dict[tuple, bool] = {}
        self._action_legal: dict[tuple, bool] = {}
        #: whether what a board answers is remembered beyond this position (``_BOARDS``, and
        #: ``_best_path``'s memo): in a search's deals, which meet each board in thousands of them
        #: (``determinize`` sets it); a game played once meets each board once
        self._remember = False
        #: the last action this state drew or chose itself for the current position: applying
        #: that very object needs no check (reset whenever the position changes)
        self._trusted: tuple | None = None
        #: ``legal_actions()`` of this position once listed, and as a set once an action from
        #: outside is checked against it (shared by clones until the position changes: the search
        #: lists the same root position once per simulation)
        self._legal: list[tuple] | None = None
        self._legal_set: frozenset[tuple] | None = None

    # --- the OpenSpiel verbs ---------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.finished else self.player

    def is_terminal(self) -> bool:
        return self.finished

    def returns(self) -> list[float]:
        return [1.0 if p in self._winners else 0.0 for p in (0, 1)]

    def winners(self) -> list[int]:
        return list(self._winners)

    def cards_played(self) -> list[list[str]]:
        """Per player, the cards of theirs on the board (buried ones too; a hand-over placement counts
        for the card's owner), by the deck's card id."""
        return self._names(self.placed)

    def cards_held(self) -> list[list[str]]:
        return self._names(self.hands[0] + self.hands[1])

    def determinize(self, player: int, rng: random.Random) -> CommonCarrierState:
        """The position as ``player`` might believe it: the rival's hand dealt again from the rival's
        unseen cards (hand and deck), and both decks in a new order. The board, the discards and the
        cards shown in a hand-over are public; ``player``'s own hand is theirs to see. With the
        gray-card rule the rival's choice of gray cards is secret (unless ``gray_announced``): their
        unseen gray cards are chosen again (``_gray_choice_again``)."""
        # the mover's plays stay the same unless their hand is dealt again; then they are listed
        # once here and shared by every copy the search deals
        keep = player == self.player or self.phase == PHASE_HANDOVER
        if keep and not self.finished and self._legal_set is None:
            self.legal_actions()
        other = self.clone()
        for p in (0, 1):
            if p == player:
                shuffle(rng, other.decks[p])
                continue
            unseen = other.hands[p] + other.decks[p]
            if self.game.gray_secret:
                unseen = self._gray_choice_again(p, unseen, rng)
            shuffle(rng, unseen)
            held = len(other.hands[p])
            other.hands[p], other.decks[p] = unseen[:held], unseen[held:]
        if not keep:
            other._invalidate()
        other._remember = True
        return other

    def _gray_choice_again(self, rival: int, unseen: list[int], rng: random.Random) -> list[int]:
        """``unseen`` with the rival's hidden gray cards chosen again: "Each player chooses 4 gray
        cards" is the rival's secret, so as many PBX among them as any choice the print allows and
        the open cards (board, discards, a hand-over) leave possible, each such choice equally
        likely; the rest goose eggs."""
        ids = self.game.gray_ids[rival]
        pbx, goose = ids[PBX_MASK], ids[GOOSE_MASK]
        gray = set(pbx) | set(goose)
        plain = [c for c in unseen if c not in gray]
        hidden = len(unseen) - len(plain)
        if not hidden:
            return unseen
        shown = set(self.placed) | set(self.discards[rival]) | set(self.pending)
        free_pbx = [c for c in pbx if c not in shown]
        free_goose = [c for c in goose if c not in shown]
        low, high = max(0, hidden - len(free_goose)), min(hidden, len(free_pbx))
        count = low + rng.randrange(high - low + 1)
        return plain + rng.sample(free_pbx, count) + rng.sample(free_goose, hidden - count)

    def _cards_to_place(self) -> list[int]:
        return self.pending if self.phase == PHASE_HANDOVER else self.hands[self.player]

    def _names(self, cards: Sequence[int]) -> list[list[str]]:
        named: list[list[str]] = [[], []]
        for card in cards:
            named[self.game.card_owner[card]].append(self.game.card_source[card])
        return named

    def clone(self) -> CommonCarrierState:
        other = CommonCarrierState.__new__(CommonCarrierState)
        other.__dict__.update(self.__dict__)
        other.top, other.mask = self.top[:], self.mask[:]
        other.line, other.own, other.placed = self.line[:], self.own[:], self.placed[:]
        other.placed_cells = self.placed_cells[:]
        other.decks = [d[:] for d in self.decks]
        other.hands = [h[:] for h in self.hands]
        other.discards = [d[:] for d in self.discards]
        other.pending = self.pending[:]
        other.reached = [r[:] for r in self.reached]
        other._winners = self._winners[:]
        return other

    def legal_actions(self, player: int | None = None) -> list[tuple]:
        if self.finished or (player is not None and player != self.player):
            return []
        actions = self._legal
        if actions is None:
            actions = []
            for _, combo in self._combo_list():
                actions.extend(self._combo_actions(combo))
            # as a set at once, so the copies that apply them (the search's) share it
            self._legal, self._legal_set = actions, frozenset(actions)
        return list(actions)

    def num_legal_actions(self, player: int | None = None) -> int:
        """len(legal_actions()) without listing them."""
        if self.finished or (player is not None and player != self.player):
            return 0
        self._combo_list()
        return self._combo_total // 2

    def sample_action(self, rng: random.Random) -> tuple:
        """A legal action drawn uniformly: pick a combination by its count, then a pair in it."""
        action = _placement_action(self, self._sample_placement(rng), self.game.card_mask)
        self._trusted = action
        return action

    def random_playout(self, rng: random.Random, max_moves: int, branching: list[int]) -> int:
        """``CommonCarrierRules.random_playout``: the plays ``sample_action`` draws (the same random
        draws, so the same game as move by move), laid without making or checking actions."""
        moves = 0
        lay, sample, count = self._lay, self._sample_placement, branching.append
        while not self.finished and moves < max_moves:
            place = sample(rng)  # counts the plays first
            count(self._combo_total // 2)
            lay(place)
            moves += 1
        return moves

    def apply_action(self, action: Sequence) -> None:
        if self.finished:
            raise IllegalAction("the game is over")
        if action is not self._trusted or action is None:
            self._check_listed(action)
        masks = self.game.card_mask
        place: tuple = ()
        for card, r, c, t in action:
            place += (card, (r + 1) * W + c + 1, _TURNED[masks[card]] if t else masks[card])
        self._lay(place)

    # --- what the rules ask about a position ----------------------------

    def value(self, player: int) -> int:
        """Max over node pairs of the fewest of ``player``'s links on any path between them."""
        line, own = self.line, self.own[player]
        return _best_path(line[1] & (line[3] >> 1), line[2] & (line[0] >> W), own, 0, self._remember)

    def own_links(self, player: int) -> int:
        """How many links on the board are ``player``'s (a PBX counts for both)."""
        line, own = self.line, self.own[player]
        hp = line[1] & (line[3] >> 1) & own & (own >> 1)
        vp = line[2] & (line[0] >> W) & own & (own >> W)
        return hp.bit_count() + vp.bit_count()

    def is_legal_board(self) -> bool:
        """The end-of-turn conditions, checked from scratch (the slow, obvious way)."""
        cells = [c for c in range(CELLS) if self.top[c] >= 0]
        if not cells:
            return True
        rows = [row_col(c)[0] for c in cells]
        cols = [row_col(c)[1] for c in cells]
        if max(rows) - min(rows) >= SPAN or max(cols) - min(cols) >= SPAN:
            return False
        for cell in cells:
            for side, step in enumerate(SIDE_STEP):
                other = cell + step
                if self.top[other] >= 0:
                    mine = bool(self.mask[cell] & SIDE_BITS[side])
                    theirs = bool(self.mask[other] & SIDE_BITS[OPPOSITE[side]])
                    if mine != theirs:
                        return False
        return _connected(self.occ)

    def top_card(self, row: int, col: int) -> int:
        """The id of the card on top at (row, col), or -1."""
        return self.top[cell_of(row, col)]

    def stack(self, row: int, col: int) -> list[int]:
        """Every card ever placed at (row, col), bottom first."""
        here = cell_of(row, col)
        return [card for card, cell in zip(self.placed, self.placed_cells) if cell == here]

    def put(self, card: int, row: int, col: int, is_turned: bool = False) -> None:
        """Lay a card without asking the rules (for setting up positions)."""
        for pile in (*self.decks, *self.hands, *self.discards, self.pending):
            if card in pile:
                pile.remove(card)
        self.placed.append(card)
        self.placed_cells.append(cell_of(row, col))
        self._put(card, cell_of(row, col), self.game._oriented(card, is_turned))
        self._invalidate()

    def give_turn(self, player: int, hand: Sequence[int]) -> None:
        """Make it ``player``'s turn holding ``hand`` (for setting up positions)."""
        for card in hand:
            for pile in (*self.decks, *self.hands, *self.discards):
                if card in pile:
                    pile.remove(card)
        self.hands[player] = list(hand)
        self.finished, self._winners, self.decided_by = False, [], ""
        self.phase, self.pending = PHASE_TURN, []
        self._begin_decision(player, self.hands[player])

    def card_count(self, player: int) -> int:
        """All of ``player``'s cards wherever they are (the total never changes)."""
        owner = self.game.card_owner
        return (len(self.decks[player]) + len(self.hands[player]) + len(self.discards[player])
                + sum(1 for c in self.placed if owner[c] == player)
                + sum(1 for c in self.pending if owner[c] == player))

    def __str__(self) -> str:
        glyph = "o╵╶└╷│┌├╴┘─┴┐┤┬┼"
        return "\n".join("".join(glyph[self.mask[cell_of(r, c)]] if self.top[cell_of(r, c)] >= 0
                                  else "·" for c in range(INNER)) for r in range(INNER))

    # --- turn flow ----------------------------------------------------------

    def _start_turn(self, player: int) -> None:
        """Draw two and find what ``player`` can play; pass over a player with no cards."""
        for _ in range(2):
            other = 1 - player
            deck, hand = self.decks[player], self.hands[player]
            if deck:
                hand.append(deck.pop())
                if deck:
                    hand.append(deck.pop())
            if hand:
                self.phase, self.pending = PHASE_TURN, []
                self.endgame_turn = self.game.endgame and not deck
                self._begin_decision(player, hand)
                return
            if not self.decks[other] and not self.hands[other]:
                break
            player = other
        self._end_by_tie_resolution()

    def _begin_decision(self, player: int, cards: list[int]) -> None:
        """Settle what ``player`` must play; hand over or discard if it cannot be done.

        On their own turn a player makes the full play (two cards, one in the
        endgame) or none. Shown cards are placed by the opponent as many as
        fit, one at a time if need be.
        """
        self.player = player
        if self.phase == PHASE_TURN:
            quota = min(1 if self.endgame_turn else 2, len(cards))
            levels: Iterable[int] = (quota,)
        else:
            quota = min(self.quota, len(cards))
            levels = range(quota, 0, -1)
        self.quota = quota
        self._invalidate()
        for level in levels:
            self._level = level
            self._combos = None
            if self._has_play():
                return
        if self.phase == PHASE_TURN:
            handed, self.hands[player] = list(cards), []
            self._start_handover(player, handed, quota)
        else:
            self.discards[1 - player].extend(self.pending)
            self.pending = []
            self.phase = PHASE_TURN
            self._start_turn(player)

    def _start_handover(self, owner: int, cards: list[int], quota: int) -> None:
        self.phase = PHASE_HANDOVER
        self.pending = cards
        self.quota = min(quota, len(cards))
        self._begin_decision(1 - owner, cards)

    def _lay(self, place: tuple) -> None:
        """Make a play given as (card, cell, oriented mask) once or twice in a row: lay the cards,
        then the turn flow."""
        player = self.player
        if len(place) == 3:
            a, x, ma = place
            played: tuple = (a,)
            self.placed.append(a)
            self.placed_cells.append(x)
            self._put(a, x, ma)
        else:
            a, x, ma, b, y, mb = place
            played = (a, b)
            self.placed += played
            self.placed_cells += (x, y)
            self._put(a, x, ma)
            self._put(b, y, mb)
        self.moves += 1
        if self.phase == PHASE_TURN:
            # a full play leaves only the hole card (or, in the endgame, the rest)
            hand = self.hands[player]
            self.hands[player] = [] if len(hand) == len(played) else [c for c in hand if c not in played]
            if not self._check_win(player):
                self._start_turn(1 - player)
        else:
            self.discards[1 - player].extend(c for c in self.pending if c not in played)
            self.pending = []
            self.phase = PHASE_TURN
            if not self._check_win(player):
                self._start_turn(player)

    def _check_win(self, mover: int) -> bool:
        """Record who reached 5..8 and end the game if someone reached the target.

        If both reach it on one move, the player who moved wins.
        """
        target = self.game.target
        reached = []
        line = self.line
        hl, vl = line[1] & (line[3] >> 1), line[2] & (line[0] >> W)
        least = min(target, REPORTED_TARGETS[0])
        for player in (mover, 1 - mover):
            own = self.own[player]
            links = (hl & own & (own >> 1)).bit_count() + (vl & own & (own >> W)).bit_count()
            if links < least:
                continue
            marks = self.reached[player]
            # the measure matters once it can reach a mark not yet made, or the target
            need = target
            for i, t in enumerate(REPORTED_TARGETS):
                if marks[i] is None:
                    need = min(need, t)
                    break
            if links < need:
                continue
            v = _best_path(hl, vl, own, need, self._remember)
            for i, t in enumerate(REPORTED_TARGETS):
                if v >= t and marks[i] is None:
                    marks[i] = self.moves
            if v >= target:
                reached.append(player)
        if reached:
            self.decided_by = "target"
            self._finish([reached[0]])
            return True
        return False

    def _next_hand(self) -> list[int] | None:
        """The cards the next decider holds after a play that wins nobody the game (the rival
        after a turn, the mover after placing the cards handed over), drawn as ``_start_turn``
        draws them, when that decision plays two of them; None otherwise (an endgame turn of one
        card, fewer than two cards)."""
        nxt = 1 - self.player if self.phase == PHASE_TURN else self.player
        deck = self.decks[nxt]
        if self.game.endgame and len(deck) <= 2:
            return None
        cards = self.hands[nxt] + deck[:-3:-1]
        return cards if len(cards) >= 2 else None

    def _surely_goes_on(self, action: Sequence, hand: list[int]) -> bool:
        """Whether, after ``action`` (a legal one that wins nobody the game), the next decider
        holding ``hand`` (``_next_hand``) surely has a play, so the game goes on: two of its cards
        have a play at a glance (``_playable_at_a_glance``) on the board with ``action`` laid.
        False says nothing."""
        masks = self.game.card_mask
        occ, halo, box = self.occ, self.halo, self.bbox
        l0, l1, l2, l3 = self.line
        for card, r, c, t in action:
            cell = (r + 1) * W + c + 1
            bit = 1 << cell
            keep = ~bit
            occ |= bit
            halo |= _HALO[cell]
            mask = _TURNED[masks[card]] if t else masks[card]
            l0 = l0 | bit if mask & TOP else l0 & keep
            l1 = l1 | bit if mask & RIGHT else l1 & keep
            l2 = l2 | bit if mask & BOTTOM else l2 & keep
            l3 = l3 | bit if mask & LEFT else l3 & keep
            if box is None:
                box = (r, r, c, c)
            elif r < box[0] or r > box[1] or c < box[2] or c > box[3]:
                box = (min(box[0], r), max(box[1], r), min(box[2], c), max(box[3], c))
        line = [l0, l1, l2, l3]
        return any(_playable_at_a_glance(masks, hand[i], hand[j], occ, halo, box, line)
                   for i in range(len(hand)) for j in range(i + 1, len(hand)))

    def _end_by_tie_resolution(self) -> None:
        rule = self.game.tie_resolution
        self.decided_by = "tie_resolution" if rule else "cards_out"
        if rule == TIE_PATH:
            a, b = self.value(0), self.value(1)
            if a != b:
                self._finish([0 if a > b else 1])
                return
        if rule in (TIE_PATH, TIE_LINKS):
            a, b = self.own_links(0), self.own_links(1)
            if a != b:
                self._finish([0 if a > b else 1])
                return
        self._finish([])

    def _finish(self, winners: list[int]) -> None:
        self.finished = True
        self._winners = winners
        self._invalidate()

    # --- the board, incrementally --------------------------------------------

    def _put_undoably(self, card: int, cell: int, mask: int) -> tuple:
        """``_put``, returning what ``_lift`` needs to undo it."""
        undo = (cell, self.top[cell], self.mask[cell], self.bbox)
        self._put(card, cell, mask)
        return undo

    def _put(self, card: int, cell: int, mask: int) -> None:
        """Lay ``card`` on ``cell``."""
        bit = 1 << cell
        line, own = self.line, self.own
        counts = self.game.card_counts[card]
        if self.top[cell] >= 0:  # a card covered: its sides and owners go
            keep = ~bit
            line[0] &= keep
            line[1] &= keep
            line[2] &= keep
            line[3] &= keep
            own[0] &= keep
            own[1] &= keep
        self.top[cell] = card
        self.mask[cell] = mask
        self.occ |= bit
        self.halo |= _HALO[cell]
        if mask & TOP:
            line[0] |= bit
        if mask & RIGHT:
            line[1] |= bit
        if mask & BOTTOM:
            line[2] |= bit
        if mask & LEFT:
            line[3] |= bit
        if counts & 1:
            own[0] |= bit
        if counts & 2:
            own[1] |= bit
        r, c = _ROW_COL[cell]
        box = self.bbox
        if box is None:
            self.bbox = (r, r, c, c)
        else:
            r0, r1, c0, c1 = box
            if r < r0 or r > r1 or c < c0 or c > c1:
                self.bbox = (min(r0, r), max(r1, r), min(c0, c), max(c1, c))

    def _lift(self, cell: int, card: int, mask: int, bbox: Any) -> None:
        if card < 0:
            bit = 1 << cell
            self.top[cell], self.mask[cell] = -1, 0
            self.occ &= ~bit
            self.halo = _near(self.occ)
            self.line = [x & ~bit for x in self.line]
            self.own = [x & ~bit for x in self.own]
        else:
            self._put(card, cell, mask)
        self.bbox = bbox

    def _invalidate(self) -> None:
        self._sets = None
        self._combos = None
        self._trusted = None
        self._legal = None
        self._legal_set = None


    # --- checking an action from outside ----------------------------------

    def _check_listed(self, action: Any) -> None:
        """An action listed by ``legal_actions()`` for this position is legal; others are checked."""
        listed = self._legal_set
        if listed is not None and type(action) is tuple and action in listed:
            return
        self._check_action(action)

    def is_legal(self, player: int, action: Any) -> bool:
        """Whether ``action`` is ``player``'s to make now, checked without listing the plays (the
        search asks this of the replies it has tried, in each deal); a legal one is then applied
        without a second check."""
        if self.finished or player != self.player:
            return False
        if action is self._trusted:
            return True
        cards = self.pending if self.phase == PHASE_HANDOVER else self.hands[self.player]
        try:  # most replies a search tried in another deal use a card this hand does not hold
            for placement in action:
                if placement[0] not in cards:
                    return False
        except (TypeError, IndexError, KeyError):
            return False
        legal = self._legal_set
        ok = legal is not None and type(action) is tuple and action in legal
        if not ok:  # listed plays are one order of each: the same play in another order is legal too
            try:
                if type(action) is not tuple:
                    ok = self._illegal(action) is None
                elif len(action) == self._level:
                    # the cards are held and as many as the decision places: the rest is the board's
                    if self._sets is None:
                        self._board_sets()
                    known = self._action_legal.get(action)
                    if known is None:
                        known = self._action_legal[action] = self._illegal(action) is None
                    ok = known
            except (TypeError, ValueError, IndexError):
                ok = False
        if ok:
            self._trusted = action
        return ok

    def legal_among(self, player: int, actions: Iterable[Any]) -> list[Any]:
        """``is_legal`` of each of ``actions`` (the replies a search has tried), in one pass: most
        use a card this hand does not hold, and are passed over without a call each."""
        if self.finished or player != self.player:
            return []
        cards = self.pending if self.phase == PHASE_HANDOVER else self.hands[self.player]
        trusted = self._trusted
        is_legal = self.is_legal
        out = []
        for action in actions:
            if action is trusted:
                out.append(action)
                continue
            try:
                for placement in action:
                    if placement[0] not in cards:
                        break
                else:
                    if is_legal(player, action):
                        out.append(action)
            except (TypeError, IndexError, KeyError):
                continue
        if out and self._trusted is not out[-1] and trusted is out[-1]:
            self._trusted = trusted  # as is_legal of each in turn leaves it: the last legal one
        return out

    def _check_action(self, action: Sequence) -> None:
        reason = self._illegal(action)
        if reason is not None:
            raise IllegalAction(reason)

    def _illegal(self, action: Sequence) -> str | None:
        """Why ``action`` cannot be played now, or None: the cards first (cheap), then the board."""
        cards = self._cards_to_place()
        if len(action) != self._level:
            return f"this turn places {self._level} card(s), got {len(action)}"
        seen_cards, seen_cells = set(), set()
        for placement in action:
            card, r, c, _ = placement
            if card not in cards or card in seen_cards:
                return f"card {card} is not available to play"
            if not (0 <= r < INNER and 0 <= c < INNER) or (r, c) in seen_cells:
                return f"cell ({r},{c}) is off the board or used twice"
            seen_cards.add(card)
            seen_cells.add((r, c))
        if not self._placement_legal(action):
            return f"illegal play: {self.game.action_to_string(tuple(action))}"
        return None

    def _placement_legal(self, action: Sequence) -> bool:
        """Lay the cards, check the end-of-turn conditions around them, lift them again (once per
        board and placement: the board's ``_laid_legal``)."""
        cells = [cell_of(r, c) for _, r, c, _ in action]
        masks = [self.game._oriented(card, t) for card, _, _, t in action]
        if self._sets is None:
            self._board_sets()
        key = (*cells, *masks)
        known = self._laid_legal.get(key)
        if known is None:
            known = self._laid_legal[key] = self._laid_legally(action, cells, masks)
        return known

    def _laid_legally(self, action: Sequence, cells: list[int], masks: list[int]) -> bool:
        if not self.occ and CENTER not in cells:
            return False
        undo = [self._put_undoably(card, cell, mask) for (card, *_), cell, mask in zip(action, cells, masks)]
        assert self.bbox is not None  # cards were just laid
        r0, r1, c0, c1 = self.bbox
        ok = r1 - r0 < SPAN and c1 - c0 < SPAN and _connected(self.occ)
        for cell in cells if ok else ():
            for side, step in enumerate(SIDE_STEP):
                if self.top[cell + step] >= 0 and (
                        bool(self.mask[cell] & SIDE_BITS[side])
                        != bool(self.mask[cell + step] & SIDE_BITS[OPPOSITE[side]])):
                    ok = False
        for item in reversed(undo):
            self._lift(*item)
        return ok

