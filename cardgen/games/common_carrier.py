"""Common Carrier: two carriers lay network cards into a 5 x 5 service area.

Each turn a player draws two cards and plays two so that, at the end of the
turn, every card touches another at least corner to corner, touching edges
agree (both line or both blank) and the cards span at most 5 x 5. A card may
go on top of another; the top card is the node. A player wins when two nodes
exist such that every path between them runs over at least ``target`` of
their links. The readings chosen where the text is open are in
docs/rules-readings.md; the ones that shape the code are noted here.

An action is a whole turn: the tuple of placements ``(card, row, col,
turned)`` applied together, because only the end-of-turn position has to be
legal. The board is a bit set over a padded 11 x 11 grid (the first card goes
in the middle of the inner 9 x 9, so a 5 x 5 span always fits), which lets a
turn's legal plays be counted with a few dozen integer operations and sampled
uniformly without listing them. An action the state drew or chose itself is
applied without being checked again; one from outside is checked. An all-random
game is played out whole (``random_playout``): the draws of move by move play,
laid without making the actions. The greedy player scores each distinct outcome
once, mostly from the current board's distances (``_AfterMove``) rather than by
laying every play.
"""
from __future__ import annotations

import operator
import random
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from .. import numbers
from ..errors import CardgenError
from ..findings import Finding
from . import GameInfo, base
from .base import TERMINAL, Game, IllegalAction, OptionSpec, State

# --- cards ---------------------------------------------------------------

#: edge bits of a card mask
TOP, RIGHT, BOTTOM, LEFT = 1, 2, 4, 8
PBX_MASK, GOOSE_MASK = 15, 0
#: the 8 basic patterns, one orientation each (every line/blank combination
#: up to a 180-degree turn, except all lines and no lines)
BASIC_PATTERNS = (1, 2, 3, 5, 6, 7, 10, 11)
#: tie_resolution values: none, best own path, most own links
TIE_NONE, TIE_PATH, TIE_LINKS = 0, 1, 2
#: targets whose tie rate one playtest run reports
REPORTED_TARGETS = (5, 6, 7, 8)
SPAN = 5


def turned(mask: int) -> int:
    """The same card turned 180 degrees: top<->bottom, left<->right."""
    return ((mask << 2) | (mask >> 2)) & 15


def canonical(mask: int) -> int:
    """One key for a pattern and its turn."""
    return min(mask, turned(mask))


def mask_of(edges: Any) -> int:
    """Edge bits of a model ``Edges``."""
    return ((TOP if edges.top else 0) | (RIGHT if edges.right else 0)
            | (BOTTOM if edges.bottom else 0) | (LEFT if edges.left else 0))


def pattern_name(mask: int) -> str:
    sides = [n for bit, n in ((TOP, "top"), (RIGHT, "right"), (BOTTOM, "bottom"), (LEFT, "left"))
             if mask & bit]
    return "+".join(sides) if sides else "no lines"


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


# --- building a game from a deck ----------------------------------------

#: printed cards of one player: (mask, gray, copies, card id)
Printed = Sequence[tuple[int, bool, int, str]]


def standard_printing() -> list[tuple[int, bool, int, str]]:
    """One player's tiles as the bundled deck prints them (the original sheet printed 4 times: the 8
    basic patterns, PBX and goose egg): what an engine made without a deck plays."""
    from . import bundled_deck

    return _printing(bundled_deck("common-carrier").cards)


def game_from_deck(deck: Any, options: Mapping[str, Any] | None = None) -> CommonCarrierGame:
    """The engine for a built deck: each player's basic cards plus the chosen gray ones."""
    merged = {k: v for k, v in (deck.options or {}).items() if k in OPTION_NAMES}
    merged.update(options or {})
    return CommonCarrierGame(options=merged, printed=_deck_printing(deck))


def _deck_printing(deck: Any) -> list[list[tuple[int, bool, int, str]]]:
    return [_printing(c for c in deck.cards if c.owner == player) for player in (0, 1)]


def _printing(cards: Iterable[Any]) -> list[tuple[int, bool, int, str]]:
    return [(mask_of(card.edges), bool(card.gray), card.copies, card.id)
            for card in cards if card.kind == "tile" and card.edges is not None]


def check_deck(deck: Any) -> list[Finding]:
    """Structural checks: tiles, the 8 basic patterns, gray counts, a reachable target."""
    where = str(deck.path)
    findings: list[Finding] = []

    def error(message: str, card: Any = None, severity: str = "error") -> None:
        findings.append(Finding(where, message, card.id if card is not None else "",
                                getattr(card, "location", None) or deck.location, severity))

    for card in deck.cards:
        if card.kind == "reference":
            continue  # the printed rules card is not in play
        if card.kind != "tile":
            error(f"Common Carrier plays only tiles; this '{card.kind}' card is printed "
                  "but never used in play", card, severity="warning")
        elif card.edges is None:
            error("tile has no edges: give top, right, bottom and left as line or blank", card)
        elif card.owner not in (0, 1):
            error("tile belongs to no player (Common Carrier decks are per player)", card)
        else:
            mask = mask_of(card.edges)
            if card.gray and mask not in (PBX_MASK, GOOSE_MASK):
                error("a gray card must be a PBX (all four edges) or a goose egg (no edges), "
                      f"this one has {pattern_name(mask)}", card)
            if not card.gray and mask in (PBX_MASK, GOOSE_MASK):
                error(f"a card with {pattern_name(mask)} is a "
                      f"{'PBX' if mask else 'goose egg'} and must be gray", card)
    try:
        options = parse_options({k: v for k, v in (deck.options or {}).items() if k in OPTION_NAMES})
    except CardgenError as exc:
        error(exc.message)
        return findings
    printed = _deck_printing(deck)
    for player in (0, 1):
        present = {canonical(m) for m, gray, copies, _ in printed[player] if not gray and copies > 0}
        for pattern in BASIC_PATTERNS:
            if pattern not in present:
                error(f"player {player + 1} has no basic card with {pattern_name(pattern)} "
                      f"(or its 180-degree turn)")
    try:
        game = CommonCarrierGame(options=options, printed=printed)
    except CardgenError as exc:
        error(exc.message)
        return findings
    for player in (0, 1):
        if not game.target_reachable(player):
            error(f"player {player + 1}'s cards cannot make a path of {options['target']} own "
                  f"links in a 5 x 5 area (no placement found); lower the target")
    return findings


# --- the board geometry ----------------------------------------------------

#: inner board is 9 x 9 (a 5 x 5 span around the first card always fits), padded by 1
INNER = 9
W = INNER + 2
CELLS = W * W
CENTER = (INNER // 2 + 1) * W + INNER // 2 + 1
#: sides in bit order, their step on the grid, and the opposite side's index
SIDE_BITS = (TOP, RIGHT, BOTTOM, LEFT)
SIDE_STEP = (-W, 1, W, -1)
OPPOSITE = (2, 3, 0, 1)
DIAG_STEPS = (-W - 1, -W + 1, W - 1, W + 1)


def cell_of(row: int, col: int) -> int:
    return (row + 1) * W + col + 1


def row_col(cell: int) -> tuple[int, int]:
    return cell // W - 1, cell % W - 1


def _bits(x: int) -> Iterator[int]:
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


def _cell_list(x: int) -> list[int]:
    """The cells of x in increasing order: a row of the inner board at a time, from a table."""
    if x & ~INNER_SET:
        return list(_bits(x))
    out: list[int] = []
    for shift, table in _ROW_TABLES:
        row = (x >> shift) & 511
        if row:
            out += table[row]
    return out


def _shift_back(x: int, step: int) -> int:
    """Cells c with c + step in x."""
    return x >> step if step > 0 else x << -step


def _nth_bit(x: int, n: int) -> int:
    """The n-th cell of x (cells of the inner board) in increasing order, counted a row at a time
    from the top or, when the top rows hold fewer than n + 1 cells, from the middle."""
    top = x & _TOP_ROWS
    k = top.bit_count()
    if n < k:
        row = _ROW_COL[(x & -x).bit_length() - 1][0]
    else:
        n -= k
        x ^= top
        row = INNER // 2
    while row < INNER:
        shift, table = _ROW_TABLES[row]
        cells = table[(x >> shift) & 511]
        if n < len(cells):
            return cells[n]
        n -= len(cells)
        row += 1
    raise IndexError(n)


INNER_SET = 0
ROW_SET = [0] * INNER
COL_SET = [0] * INNER
for _r in range(INNER):
    for _c in range(INNER):
        _bit = 1 << cell_of(_r, _c)
        INNER_SET |= _bit
        ROW_SET[_r] |= _bit
        COL_SET[_c] |= _bit
ORTH = [0] * CELLS
DIAG = [0] * CELLS
for _cell in range(CELLS):
    for _s in SIDE_STEP:
        if 0 <= _cell + _s < CELLS:
            ORTH[_cell] |= 1 << (_cell + _s)
    for _s in DIAG_STEPS:
        if 0 <= _cell + _s < CELLS:
            DIAG[_cell] |= 1 << (_cell + _s)


_ROW_COL = [row_col(_cell) for _cell in range(CELLS)]
#: per inner row: where its 9 cells start in a board's bits, and for each 9-bit pattern its cells
_ROW_TABLES = [(cell_of(_r, 0), [tuple(cell_of(_r, 0) + _c for _c in range(INNER) if _p >> _c & 1)
                                 for _p in range(1 << INNER)]) for _r in range(INNER)]
#: the inner board's top rows, above the middle one (``_nth_bit``)
_TOP_ROWS = sum(ROW_SET[:INNER // 2])
#: the span window of each bounding box seen (filled as boxes appear)
_WINDOWS: dict[tuple[int, int, int, int], int] = {}


def _rows(lo: int, hi: int) -> int:
    return sum(ROW_SET[r] for r in range(max(lo, 0), min(hi, INNER - 1) + 1))


def _cols(lo: int, hi: int) -> int:
    return sum(COL_SET[c] for c in range(max(lo, 0), min(hi, INNER - 1) + 1))


def _row(r: int) -> int:
    return ROW_SET[r] if 0 <= r < INNER else 0


def _col(c: int) -> int:
    return COL_SET[c] if 0 <= c < INNER else 0


def _near(x: int) -> int:
    """x and its 8 neighbours."""
    return (x | x << 1 | x >> 1 | x << W | x >> W
            | x << (W + 1) | x << (W - 1) | x >> (W + 1) | x >> (W - 1))


_HALO = [_near(1 << _cell) for _cell in range(CELLS)]


def _connected(x: int) -> bool:
    """Whether the cells of x are 8-connected."""
    if not x:
        return True
    seen = x & -x
    while True:
        grown = _near(seen) & x
        if grown == seen:
            return seen == x
        seen = grown


# --- the game ------------------------------------------------------------

class CommonCarrierGame(Game["CommonCarrierState"]):
    """Two players, their printed cards and the rule options."""

    name = "common-carrier"
    option_specs = OPTION_SPECS
    #: the search judges a position right after its tree moves: random moves after them only blur
    #: the judgement (greedy against mcts:1000, 20 games a seating: 9-1 at depth 4, 1-0 at depth 0)
    rollout_depth = 0
    #: hundreds of plays a move: the search looks two moves deep at the best few (search.py)
    search_guided = True

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
        for player in (0, 1):
            wanted = {PBX_MASK: chosen[player][0], GOOSE_MASK: chosen[player][1]}
            for mask, is_gray, copies, source in printed[player]:
                count = copies
                if is_gray:
                    count = min(copies, wanted.get(mask, 0))
                    wanted[mask] = wanted.get(mask, 0) - count
                for _ in range(count):
                    self.player_cards[player].append(len(self.card_owner))
                    self.card_owner.append(player)
                    self.card_mask.append(mask)
                    self.card_pbx.append(is_gray and mask == PBX_MASK)
                    self.card_source.append(source)
                    self.card_counts.append(3 if is_gray and mask == PBX_MASK else 1 << player)

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

    def heuristic(self, state: CommonCarrierState, player: int) -> float:
        if state.finished:
            winners = state.winners()
            return 0.0 if not winners else (1000.0 if player in winners else -1000.0)
        return float(state.value(player) - state.value(1 - player))

    def evaluate(self, state: CommonCarrierState) -> list[float]:
        """Each player's prospects for the search, in 0..1: a finished game's result (a tie 1/2 each),
        else 1/2 moved by the difference of the two best-path values as a share of the target."""
        if state.finished:
            winners = state.winners()
            return [0.5, 0.5] if not winners else [1.0 if p in winners else 0.0 for p in (0, 1)]
        lead = (state.value(0) - state.value(1)) / self.target
        return [0.5 + 0.5 * lead, 0.5 - 0.5 * lead]

    def greedy_action(self, state: CommonCarrierState, player: int,
                      rng: random.Random) -> tuple:
        """Best heuristic after the move; ties drawn by ``rng``.

        Plays that put the same kinds of card (whose cards they count for) on the same cells score
        the same, so each such outcome is scored once (``_AfterMove``), mostly from the distances
        of the current board without laying any card.
        """
        if state.finished or player != state.player:
            raise IllegalAction(f"player {player} has no move here")
        target = self.target
        after = _AfterMove(state)
        both = after.both
        mine_now, theirs_now = after.best[player], after.best[1 - player]
        occ = state.occ
        scores: dict[tuple, int] = {}
        counts = self.card_counts
        masks = self.card_mask
        # in the order of legal_actions(), without making each action unless it is among the best
        best: list[tuple] = []
        best_score = -2000  # below every score
        place: tuple
        for _, combo in state._combo_list():
            if combo[0] == "one":
                _, card, mask = combo
                fit, _ = state._fits(mask)
                for cell in _cell_list(fit & state._board_sets()[1]):
                    place = (card, cell, mask)
                    key: tuple = (cell, counts[card])
                    score = scores.get(key)
                    if score is None:
                        score = scores[key] = _score(target, *after.values_at(place, player))
                    if score >= best_score:
                        if score > best_score:
                            best, best_score = [], score
                        best.append(place)
                continue
            kind, a, ma, b, mb = combo
            ca, cb = counts[a], counts[b]
            same = kind == "same"  # two cards of a kind: each pair of cells once, lower cell first
            for c1, c2s, step in state._pair_chunks(ma, mb):
                if step == 0:  # a on c1 and b on any cell of c2s, never side by side
                    ix = both(c1, ca)
                    if ix is not None:
                        mine_x, theirs_x = max(mine_now, ix[1]), max(theirs_now, ix[3])
                        groups_mine, groups_theirs = ix[0], ix[2]
                    known = after.known(cb)
                    for y in _cell_list(c2s):
                        if same and y < c1:
                            continue
                        iy = known[y] if y in known else both(y, cb)
                        if ix is not None and iy is not None and not (groups_mine & iy[0] or groups_theirs & iy[2]):
                            # apart and on different groups: each hangs on the board on its own
                            mine = iy[1] if iy[1] > mine_x else mine_x
                            theirs = iy[3] if iy[3] > theirs_x else theirs_x
                            score = 1000 if mine >= target else (-1000 if theirs >= target else mine - theirs)
                        else:
                            # the same outcome either way round
                            key = (c1, ca, y, cb) if c1 < y else (y, cb, c1, ca)
                            score = scores.get(key)
                            if score is None:
                                score = scores[key] = _score(target, *after.apart(
                                    (a, c1, ma, b, y, mb), player, *key))
                        if score >= best_score:
                            if score > best_score:
                                best, best_score = [], score
                            best.append((a, c1, ma, b, y, mb))
                    continue
                for x in _cell_list(c2s):  # side by side: their shared edge may be a new link
                    y = x + step
                    if same and y < x:
                        continue
                    key = (x, ca, y, cb, ma, mb) if x < y else (y, cb, x, ca, mb, ma)
                    score = scores.get(key)
                    if score is None:
                        place = (a, x, ma, b, y, mb)
                        if not (occ >> x) & 1 and not (occ >> y) & 1:
                            score = _score(target, *after.side_by_side(place, player, key))
                        else:
                            score = _score(target, *after.values_at(place, player))
                        scores[key] = score
                    if score >= best_score:
                        if score > best_score:
                            best, best_score = [], score
                        best.append((a, x, ma, b, y, mb))
        choice = _placement_action(state, rng.choice(best), masks)
        state._trusted = choice
        return choice

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

    def target_reachable(self, player: int, budget: int = 200_000) -> bool:
        """Whether ``player``'s cards can be laid in 5 x 5 so they reach the target."""
        return find_winning_layout(self, player, budget) is not None

    def _oriented(self, card: int, is_turned: bool) -> int:
        mask = self.card_mask[card]
        return turned(mask) if is_turned else mask

    def action_to_string(self, action: tuple) -> str:
        return ", ".join(f"{self.card_source[c]}#{c}{' turned' if t else ''} at ({r},{col})"
                         for c, r, col, t in action)


# --- the state -----------------------------------------------------------

PHASE_TURN, PHASE_HANDOVER = 0, 1


class CommonCarrierState(State):
    """The board of stacks, each player's deck, hand and discards, and who decides."""

    def action_to_string(self, action: Any) -> str:
        return self.game.action_to_string(tuple(action))

    def __init__(self, game: CommonCarrierGame):
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
        #: per oriented mask, where it fits on this board (``_near_set``), reset with ``_sets``
        self._near_cache: dict[int, tuple] = {}
        #: per (mask of a, mask of b) counted, the placements with both near the board and apart,
        #: and the two masks' ``_near_set``
        self._apart: dict[tuple[int, int], tuple[int, tuple, tuple]] = {}
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
        cards shown in a hand-over are public; ``player``'s own hand is theirs to see."""
        # the mover's plays stay the same unless their hand is dealt again; then they are listed
        # once here and shared by every copy the search deals
        keep = player == self.player or self.phase == PHASE_HANDOVER
        if keep and not self.finished and self._legal_set is None:
            self.legal_actions()
            self._legal_set = frozenset(self._legal or ())
        other = self.clone()
        for p in (0, 1):
            if p == player:
                rng.shuffle(other.decks[p])
                continue
            unseen = other.hands[p] + other.decks[p]
            rng.shuffle(unseen)
            held = len(other.hands[p])
            other.hands[p], other.decks[p] = unseen[:held], unseen[held:]
        if not keep:
            other._invalidate()
        return other

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
        other._near_cache = dict(self._near_cache)
        other._apart = dict(self._apart)
        return other

    def legal_actions(self, player: int | None = None) -> list[tuple]:
        if self.finished or (player is not None and player != self.player):
            return []
        actions = self._legal
        if actions is None:
            actions = []
            for _, combo in self._combo_list():
                actions.extend(self._combo_actions(combo))
            self._legal = actions
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
        """``CommonCarrierGame.random_playout``: the plays ``sample_action`` draws (the same random
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
        return _best_path(line[1] & (line[3] >> 1), line[2] & (line[0] >> W), own)

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
            if self._combo_list():
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
            v = _best_path(hl, vl, own, need)
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
        if self._apart or self._near_cache:
            self._near_cache = {}
            self._apart = {}
        self._trusted = None
        self._legal = None
        self._legal_set = None

    # --- counting and listing legal plays ---------------------------------

    def _board_sets(self) -> tuple:
        """Where cards may go: frontier, span window and per-side conflicts."""
        if self._sets is not None:
            return self._sets
        occ = self.occ
        bad: tuple[int, ...]
        if not occ:
            frontier, window = 1 << CENTER, INNER_SET
            bad = (0,) * 8
            conflicts = None
        else:
            box = self.bbox
            assert box is not None  # an occupied board has a bounding box
            known = _WINDOWS.get(box)
            if known is None:
                r0, r1, c0, c1 = box
                known = _WINDOWS[box] = (_rows(r1 - SPAN + 1, r0 + SPAN - 1)
                                         & _cols(c1 - SPAN + 1, c0 + SPAN - 1))
            window = known
            frontier = self.halo & window
            l0, l1, l2, l3 = self.line
            # a cell conflicts on side i when its neighbour there is occupied and
            # shows a line (for a blank side) or a blank (for a line side)
            f0, f1, f2, f3 = l2 << W, l3 >> 1, l0 >> W, l1 << 1
            # (side 0 blank, side 0 line, side 1 blank, ...): picked by ``_SIDE_PICK``
            bad = (f0, occ << W & ~f0, f1, occ >> 1 & ~f1, f2, occ >> W & ~f2, f3, occ << 1 & ~f3)
            r0, r1, c0, c1 = box
            conflicts = box if r1 - r0 == SPAN - 2 or c1 - c0 == SPAN - 2 else None
        self._sets = (occ, frontier, window, bad, conflicts)
        # cells away from the board, shifted onto the cells diagonal to them (``_near_fits``)
        away = window & ~frontier
        self._away = (away << (W + 1), away << (W - 1), away >> (W - 1), away >> (W + 1))
        # per side: cells that are near the board or whose neighbour on that side is
        self._fronts = (frontier | frontier << W, frontier | frontier >> 1,
                        frontier | frontier >> W, frontier | frontier << 1)
        return self._sets

    def _fits(self, mask: int) -> tuple[int, tuple[int, int, int, int]]:
        """Cells where ``mask`` agrees with every neighbour, and with all but side d."""
        near = self._near_fits(mask)
        return near[5], near[4]

    def _near_fits(self, mask: int) -> tuple:
        """``_near_set`` of ``mask`` on this board, remembered until the board changes."""
        cached = self._near_cache.get(mask)
        if cached is None:
            cached = self._near_cache[mask] = _near_set(self._sets or self._board_sets(), self._away, mask)
        return cached

    def _combo_list(self) -> list:
        """(weight, combination) pairs; weight is twice the number of actions it holds."""
        if self._combos is not None:
            return self._combos
        cards = self.pending if self.phase == PHASE_HANDOVER else self.hands[self.player]
        game = self.game
        if self._level == 2 and len(cards) == 2:
            return self._two_card_combos(*cards)
        kinds: dict[int, list[int]] = {}
        for card in cards:
            kinds.setdefault(canonical(game.card_mask[card]), []).append(card)
        reps = [(k, ids) for k, ids in sorted(kinds.items())]
        combos: list[tuple[int, tuple[Any, ...]]] = []
        _occ, frontier, *_ = self._sets or self._board_sets()
        if self._level == 1:
            for _, ids in reps:
                card = ids[0]
                for mask in _orientations(game.card_mask[card]):
                    fit, _ = self._fits(mask)
                    n = bin(fit & frontier).count("1")
                    if n:
                        combos.append((2 * n, ("one", card, mask)))
        else:
            for i, (ka, ida) in enumerate(reps):
                for kb, idb in reps[i:]:
                    if ka == kb and len(ida) < 2:
                        continue
                    a, b = ida[0], (ida[1] if ka == kb else idb[0])
                    for ma in _orientations(game.card_mask[a]):
                        for mb in _orientations(game.card_mask[b]):
                            n = self._count_pairs(ma, mb)
                            if n:
                                if ka == kb:
                                    combos.append((n, ("same", a, ma, b, mb)))
                                else:
                                    combos.append((2 * n, ("two", a, ma, b, mb)))
        self._combos = combos
        self._combo_total = sum(weight for weight, _ in combos)
        return combos

    def _two_card_combos(self, a: int, b: int) -> list:
        """``_combo_list`` for a hand of two cards to play both (the usual turn), in its order (and
        their total weight)."""
        masks = self.game.card_mask
        ka, kb = _CANONICAL[masks[a]], _CANONICAL[masks[b]]
        if ka > kb:
            a, b = b, a
        oa = _ORIENTATIONS[masks[a]]
        combos: list[tuple[int, tuple[Any, ...]]] = []
        if ka == kb:
            # (m, m), (m, t), (t, t): (t, m) has as many as (m, t), the two cells swapped
            pairs = _SAME_PAIRS[len(oa)]
            for (i, j), n in zip(pairs, self._pair_counts(oa, oa, pairs)):
                if n:
                    combos.append((n, ("same", a, oa[i], b, oa[j])))
                    if i != j:
                        combos.append((n, ("same", a, oa[j], b, oa[i])))
        else:
            ob = _ORIENTATIONS[masks[b]]
            pairs = _ALL_PAIRS[len(oa)][len(ob)]
            for (i, j), n in zip(pairs, self._pair_counts(oa, ob, pairs)):
                if n:
                    combos.append((2 * n, ("two", a, oa[i], b, ob[j])))
        self._combos = combos
        self._combo_total = sum([weight for weight, _ in combos])
        return combos

    def _pair_counts(self, oa: tuple[int, ...], ob: tuple[int, ...], pairs: tuple) -> Sequence[int]:
        """``_count_near`` of the (i, j) in ``pairs``: card a on ``oa[i]``, b on ``ob[j]`` (the playout's
        inner loop)."""
        sets = self._sets or self._board_sets()
        away = self._away
        near_a = [_near_set(sets, away, m) for m in oa]
        near_b = near_a if ob is oa else [_near_set(sets, away, m) for m in ob]
        count = self._count_near
        return [count(near_a[i], near_b[j]) for i, j in pairs]

    def _count_pairs(self, ma: int, mb: int) -> int:
        """Ordered (cell for a, cell for b) pairs leaving a legal board, for hands other than two
        cards played together (``_pair_counts`` counts those): ``_count_near`` on the masks' cached
        ``_near_set``."""
        return self._count_near(self._near_fits(ma), self._near_fits(mb))

    def _count_near(self, near_a: tuple, near_b: tuple) -> int:
        """``_count_pairs`` given the two masks' ``_near_set``."""
        conflicts = (self._sets or self._board_sets())[4]
        fronts = self._fronts
        ma, pa, na, corner_a, exa, _ = near_a
        mb, pb, nb, corner_b, exb, _ = near_b
        pc = int.bit_count
        # cells for a and b, each near the board: any two cells but the same or orthogonal neighbours
        n = (na * nb - pc(pa & pb) - pc(pa & pb << W) - pc(pa & pb >> 1)
             - pc(pa & pb >> W) - pc(pa & pb << 1))
        if conflicts is not None:
            n -= self._span_conflicts(pa, pb, conflicts)
        self._apart[(ma, mb)] = (n, near_a, near_b)
        # one card away from the board, held on by the other at a corner
        n += corner_a + corner_b
        # orthogonal neighbours whose shared edges agree, at least one near the board
        # (a's side i faces b's side i + 2; b sits at a + step)
        if not (ma ^ (mb >> 2)) & 1:  # a's top, b's bottom: b = a - W
            n += pc(exa[0] & exb[2] << W & fronts[0])
        if not ((ma >> 1) ^ (mb >> 3)) & 1:  # a's right, b's left: b = a + 1
            n += pc(exa[1] & exb[3] >> 1 & fronts[1])
        if not ((ma >> 2) ^ mb) & 1:  # a's bottom, b's top: b = a + W
            n += pc(exa[2] & exb[0] >> W & fronts[2])
        if not ((ma >> 3) ^ (mb >> 1)) & 1:  # a's left, b's right: b = a - 1
            n += pc(exa[3] & exb[1] << 1 & fronts[3])
        return n

    @staticmethod
    def _span_conflicts(pa: int, pb: int, box: tuple[int, int, int, int]) -> int:
        """Pairs that each fit the 5 x 5 span alone but stretch it to 6 together."""
        r0, r1, c0, c1 = box
        pc = _popcount
        rows = r1 - r0 == SPAN - 2
        cols = c1 - c0 == SPAN - 2
        up, down, left, right = _row(r0 - 1), _row(r1 + 1), _col(c0 - 1), _col(c1 + 1)
        n = 0
        if rows:
            n += pc(pa & up) * pc(pb & down) + pc(pa & down) * pc(pb & up)
        if cols:
            n += pc(pa & left) * pc(pb & right) + pc(pa & right) * pc(pb & left)
        if rows and cols:
            for v, h in ((up, left), (up, right), (down, left), (down, right)):
                vo = down if v == up else up
                ho = right if h == left else left
                n -= pc(pa & v & h) * pc(pb & vo & ho)
        return n

    def _pair_chunks(self, ma: int, mb: int) -> Iterator[tuple[int, int, int]]:
        """The ordered pairs of ``_count_pairs`` as (c1, c2 set, step) chunks.

        step 0: c2 is any cell of the set; otherwise the set holds c1 cells
        and c2 = c1 + step.
        """
        occ, frontier, _window, _bad, conflicts = self._sets or self._board_sets()
        fa, exa = self._fits(ma)
        fb, exb = self._fits(mb)
        pa, pb = fa & frontier, fb & frontier
        qa, qb = fa & ~frontier, fb & ~frontier
        free_pb = pb & ~occ
        for c1 in _cell_list(pa):
            c2s = pb & ~((1 << c1) | ORTH[c1])
            if conflicts is not None:
                c2s &= ~self._stretching(c1, conflicts)
            if not (occ >> c1) & 1:
                c2s |= DIAG[c1] & qb
            if c2s:
                yield c1, c2s, 0
        for c1 in _cell_list(qa):
            c2s = DIAG[c1] & free_pb
            if c2s:
                yield c1, c2s, 0
        for step, ones in self._side_by_side(ma, exa, mb, exb):
            if ones:
                yield -1, ones, step

    def _side_by_side(self, ma: int, exa: tuple, mb: int, exb: tuple) -> Iterator[tuple[int, int]]:
        """For each side of a whose edge agrees with b's facing one: (step, the cells x where a on x
        and b on x + step fit, one of them near the board), given ``_fits``' sides of both."""
        for side, step in enumerate(SIDE_STEP):
            opp = OPPOSITE[side]
            if bool(ma & SIDE_BITS[side]) == bool(mb & SIDE_BITS[opp]):
                yield step, exa[side] & _shift_back(exb[opp], step) & self._fronts[side]

    @staticmethod
    def _stretching(c1: int, box: tuple[int, int, int, int]) -> int:
        """Cells that, with c1, would stretch the span past 5."""
        r0, r1, c0, c1_ = box
        r, c = row_col(c1)
        out = 0
        if r1 - r0 == SPAN - 2:
            if r == r0 - 1:
                out |= _row(r1 + 1)
            elif r == r1 + 1:
                out |= _row(r0 - 1)
        if c1_ - c0 == SPAN - 2:
            if c == c0 - 1:
                out |= _col(c1_ + 1)
            elif c == c1_ + 1:
                out |= _col(c0 - 1)
        return out

    def _combo_actions(self, combo: tuple) -> list[tuple]:
        out: list[tuple] = []
        if combo[0] == "one":
            _, card, mask = combo
            fit, _ = self._fits(mask)
            t = mask != self.game.card_mask[card]
            for cell in _cell_list(fit & self._board_sets()[1]):
                out.append(((card, *row_col(cell), t),))
            return out
        kind, a, ma, b, mb = combo
        masks = self.game.card_mask
        ta, tb = ma != masks[a], mb != masks[b]
        # each card's placement on each cell made once; the two in the order of their card ids
        at_a = [(a, r, c, ta) for r, c in _ROW_COL]
        at_b = [(b, r, c, tb) for r, c in _ROW_COL]
        a_first = a < b
        same = kind == "same"
        for c1, c2s, step in self._pair_chunks(ma, mb):
            if step == 0:
                xs: Iterable[int] = (c1,) * c2s.bit_count()
                ys: Iterable[int] = _cell_list(c2s)
            else:
                xs = _cell_list(c2s)
                ys = [x + step for x in xs]
            for x, y in zip(xs, ys):
                if same and x > y:
                    continue
                out.append((at_a[x], at_b[y]) if a_first else (at_b[y], at_a[x]))
        return out

    def _combo_action_at(self, combo: tuple, index: int) -> tuple:
        """The index-th ordered placement of a combination (same order as listing)."""
        return _placement_action(self, self._combo_placement_at(combo, index), self.game.card_mask)

    def _combo_placement_at(self, combo: tuple, index: int) -> tuple:
        """``_combo_action_at`` as (card, cell, oriented mask) once or twice."""
        if combo[0] == "one":
            _, card, mask = combo
            fit, _ = self._fits(mask)
            return card, _nth_bit(fit & self._board_sets()[1], index), mask
        kind, a, ma, b, mb = combo
        for c1, c2s, step in self._pair_chunks(ma, mb):
            n = _popcount(c2s)
            if index < n:
                if step == 0:
                    x, y = c1, _nth_bit(c2s, index)
                else:
                    x = _nth_bit(c2s, index)
                    y = x + step
                return _pair_placement(kind, a, ma, x, b, mb, y)
            index -= n
        raise AssertionError("index beyond the combination's count")

    def _sample_placement(self, rng: random.Random) -> tuple:
        """``sample_action`` as (card, cell, oriented mask) once or twice."""
        combos = self._combo_list()
        pick = _below(rng, self._combo_total)
        for weight, combo in combos:
            if pick < weight:
                if combo[0] == "one":
                    return self._combo_placement_at(combo, pick // 2)
                return self._sample_pair(combo, pick if combo[0] == "same" else pick // 2, rng)
            pick -= weight
        raise AssertionError("unreachable")

    def _sample_pair(self, combo: tuple, pick: int, rng: random.Random) -> tuple:
        """An ordered placement of a two-card combination, uniformly, given ``pick``: a uniform
        index among its placements.

        Most have both cards near the board and apart: if ``pick`` falls among those, they are
        drawn by drawing each card's cell near the board until the two are apart; the few others
        are counted out (``_count_pairs`` has the same parts in the same order).
        """
        kind, a, ma, b, mb = combo
        counted = self._apart.get((ma, mb))
        if counted is not None:
            apart, near_a, near_b = counted
        else:  # counted as (mb, ma): the same placements with the cards swapped
            apart, near_b, near_a = self._apart[(mb, ma)]
        if pick < apart:
            pa, na, pb, nb = near_a[1], near_a[2], near_b[1], near_b[2]
            conflicts = self._board_sets()[4]
            while True:
                i, j = divmod(_below(rng, na * nb), nb)
                x, y = _nth_bit(pa, i), _nth_bit(pb, j)
                if x == y or y - x in _ORTH_STEPS:
                    continue
                if conflicts is not None and (self._stretching(x, conflicts) >> y) & 1:
                    continue
                break
        else:
            x, y = self._counted_pair(pick - apart, near_a, near_b)
        return _pair_placement(kind, a, ma, x, b, mb, y)

    def _counted_pair(self, index: int, near_a: tuple, near_b: tuple) -> tuple[int, int]:
        """The index-th of the placements ``_sample_pair`` does not draw, given the two masks'
        ``_near_set``: a card away from the board at a corner of the other (a's near, then b's near;
        a diagonal at a time), then side by side."""
        occ = (self._sets or self._board_sets())[0]
        ma, pa, _, _, exa, _ = near_a
        mb, pb, _, _, exb, _ = near_b
        pc = int.bit_count
        for held, near in ((0, pa & ~occ), (1, pb & ~occ)):
            # the cells of ``near`` with the cell a diagonal step away away from the board
            for away, step in zip(self._away, DIAG_STEPS):
                cells = near & away
                k = pc(cells)
                if index < k:
                    x = _nth_bit(cells, index)
                    return (x + step, x) if held else (x, x + step)
                index -= k
        for step, ones in self._side_by_side(ma, exa, mb, exb):
            k = pc(ones)
            if index < k:
                x = _nth_bit(ones, index)
                return x, x + step
            index -= k
        raise AssertionError("index beyond the combination's count")

    def _pair_action(self, a: int, ma: int, x: int, b: int, mb: int, y: int) -> tuple:
        masks = self.game.card_mask
        rx, cx = _ROW_COL[x]
        ry, cy = _ROW_COL[y]
        first, second = (a, rx, cx, ma != masks[a]), (b, ry, cy, mb != masks[b])
        return (first, second) if first < second else (second, first)

    # --- checking an action from outside ----------------------------------

    def _check_listed(self, action: Any) -> None:
        """An action listed by ``legal_actions()`` for this position is legal; others are checked."""
        if self._legal is not None:
            listed = self._legal_set
            if listed is None:
                listed = self._legal_set = frozenset(self._legal)
            if type(action) is tuple and action in listed:
                return
        self._check_action(action)

    def _check_action(self, action: Sequence) -> None:
        cards = self.pending if self.phase == PHASE_HANDOVER else self.hands[self.player]
        if len(action) != self._level:
            raise IllegalAction(f"this turn places {self._level} card(s), got {len(action)}")
        seen_cards, seen_cells = set(), set()
        for placement in action:
            card, r, c, _ = placement
            if card not in cards or card in seen_cards:
                raise IllegalAction(f"card {card} is not available to play")
            if not (0 <= r < INNER and 0 <= c < INNER) or (r, c) in seen_cells:
                raise IllegalAction(f"cell ({r},{c}) is off the board or used twice")
            seen_cards.add(card)
            seen_cells.add((r, c))
        if not self._placement_legal(action):
            raise IllegalAction(f"illegal play: {self.game.action_to_string(tuple(action))}")

    def _placement_legal(self, action: Sequence) -> bool:
        """Lay the cards, check the end-of-turn conditions around them, lift them again."""
        cells = [cell_of(r, c) for _, r, c, _ in action]
        if not self.occ and CENTER not in cells:
            return False
        undo = [self._put_undoably(card, cell, self.game._oriented(card, t))
                for (card, _, _, t), cell in zip(action, cells)]
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


def _near_set(sets: tuple, away: tuple[int, int, int, int], mask: int) -> tuple:
    """Where ``mask`` fits on a board of ``_board_sets`` and ``_away``: ``mask``; the cells near the
    board where it fits, and how many; the ways to put a second card at a corner of one of them, away
    from the board; per side d, the cells where it agrees with every neighbour but that on side d;
    and every cell where it fits.

    Away from the board every mask fits (no neighbour to disagree with), so the second card's
    cells are the window's cells away from the board whatever its mask.
    """
    occ, frontier, window, bad, _ = sets
    b0, b1, b2, b3 = _SIDE_PICK[mask](bad)
    b01, b23 = b0 | b1, b2 | b3
    fit = window & ~(b01 | b23)
    near = fit & frontier
    free = near & ~occ
    corner = 0
    if free:
        a1, a2, a3, a4 = away
        corner = (free & a1).bit_count() + (free & a2).bit_count() + (free & a3).bit_count() + (free & a4).bit_count()
    return (mask, near, near.bit_count(), corner,
            (window & ~(b1 | b23), window & ~(b0 | b23), window & ~(b01 | b3), window & ~(b01 | b2)), fit)


def _pair_placement(kind: str, a: int, ma: int, x: int, b: int, mb: int, y: int) -> tuple:
    """The placement (a, x, ma, b, y, mb) as listing gives it: two cards of one kind on x > y
    swapped (the same position), the lower card id first."""
    if kind == "same" and x > y:
        x, ma, y, mb = y, mb, x, ma
    return (a, x, ma, b, y, mb) if a < b else (b, y, mb, a, x, ma)


def _below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` (the same draw), without its argument checks: it runs twice a move."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def _orientations(mask: int) -> tuple[int, ...]:
    t = turned(mask)
    return (mask,) if t == mask else (mask, t)


_ORIENTATIONS = [_orientations(_m) for _m in range(16)]
_TURNED = [turned(_m) for _m in range(16)]
_CANONICAL = [canonical(_m) for _m in range(16)]
#: per mask, its four sides' conflicts from a board's ``bad`` (``_fits``)
_SIDE_PICK = [operator.itemgetter(*(2 * _i + (_m >> _i & 1) for _i in range(4))) for _m in range(16)]


#: the (orientation of a, orientation of b) pairs ``_two_card_combos`` counts, by how many each has
_SAME_PAIRS = {1: ((0, 0),), 2: ((0, 0), (0, 1), (1, 1))}
_ALL_PAIRS = {i: {j: tuple((x, y) for x in range(i) for y in range(j)) for j in (1, 2)} for i in (1, 2)}


def _popcount(x: int) -> int:
    return x.bit_count()


def _best_path(hl: int, vl: int, own: int, need: int = 0) -> int:
    """The win measure of a board given by its links (``hl``: cell to cell + 1, ``vl``: cell to
    cell + W) and the cells that count for the player.

    With ``need``, a measure below it may be returned as any number below it: no two nodes that one
    node reaches are farther apart than twice its farthest, so such a group is settled at once.
    """
    hp = hl & own & (own >> 1)
    vp = vl & own & (own >> W)
    if not (hp | vp):
        return 0
    # ``_link_graph``'s nodes, but only those of cells on the player's links
    h0, v0 = hl & ~hp, vl & ~vp
    zero = h0 | h0 << 1 | v0 | v0 << W
    groups: list[tuple[int, int]] = []  # (cells, node) of the merged cells met
    adjacent: dict[int, int] = {}
    for cells, step in ((hp, 1), (vp, W)):
        while cells:
            bit = cells & -cells
            cells ^= bit
            ends = []
            for end in (bit, bit << step):
                node = end.bit_length() - 1
                if zero & end:
                    for group, named in groups:
                        if group & end:
                            node = named
                            break
                    else:
                        groups.append((_flood(end, h0, v0), node))
                ends.append(node)
            a, b = ends
            if a != b:
                adjacent[a] = adjacent.get(a, 0) | 1 << b
                adjacent[b] = adjacent.get(b, 0) | 1 << a
    if len(adjacent) <= 2:  # no node linked to another, or just two linked
        return len(adjacent) // 2
    # how far the farthest node is from each
    best = 0
    settled = 0
    for source in adjacent:
        if settled >> source & 1:
            continue
        far, reached = _reach(adjacent, source)
        if far > best:
            best = far
        if 2 * far < need:
            settled |= reached
    return best


def _reach(adjacent: dict[int, int], source: int, target: int = -1) -> tuple[int, int]:
    """Steps from ``source`` to the farthest node it reaches (or to ``target``, given one) over
    ``adjacent`` (each node's neighbours, a bit each), and the nodes reached by then."""
    stop = 1 << target if target >= 0 else 0
    seen = layer = 1 << source
    d = 0
    while not layer & stop:
        nxt = 0
        while layer:
            low = layer & -layer
            layer ^= low
            nxt |= adjacent[low.bit_length() - 1]
        layer = nxt & ~seen
        if not layer:
            break
        seen |= layer
        d += 1
    return d, seen


def _flood(group: int, h0: int, v0: int) -> int:
    """``group`` and every cell joined to it by the links ``h0`` (cell to cell + 1) and ``v0``
    (cell to cell + W)."""
    while True:
        grown = group | (group & h0) << 1 | (group >> 1) & h0 | (group & v0) << W | (group >> W) & v0
        if grown == group:
            return group
        group = grown


def _link_graph(hl: int, vl: int, hp: int, vp: int) -> tuple[dict[int, int], dict[int, int]]:
    """Cells joined by links that are not the player's (``hp``, ``vp`` are) are one node; the
    player's links join nodes. Returns each merged cell's node (a cell missing is its own node) and
    each node with a link of the player's, with the nodes those links join it to (a bit each)."""
    h0, v0 = hl & ~hp, vl & ~vp
    root: dict[int, int] = {}
    zero = h0 | h0 << 1 | v0 | v0 << W  # cells with a link that is not the player's
    while zero:
        low = zero & -zero
        group = _flood(low, h0, v0)
        zero &= ~group
        node = low.bit_length() - 1
        while group:
            bit = group & -group
            root[bit.bit_length() - 1] = node
            group ^= bit
    adjacent: dict[int, int] = {}
    for cells, step in ((hp, 1), (vp, W)):
        while cells:
            bit = cells & -cells
            cells ^= bit
            cell = bit.bit_length() - 1
            a, b = root.get(cell, cell), root.get(cell + step, cell + step)
            if a != b:
                adjacent[a] = adjacent.get(a, 0) | 1 << b
                adjacent[b] = adjacent.get(b, 0) | 1 << a
    return root, adjacent


_ORTH_STEPS = frozenset((1, -1, W, -W))


def _score(target: int, mine: int, theirs: int) -> int:
    """Greedy's score of the two measures after a play."""
    return 1000 if mine >= target else (-1000 if theirs >= target else mine - theirs)


def _placement_action(state: CommonCarrierState, place: tuple, masks: list[int]) -> tuple:
    """The action of ``(card, cell, mask)`` or ``(a, x, ma, b, y, mb)`` as legal_actions() gives it."""
    if len(place) == 6:
        a, x, ma, b, y, mb = place
        return state._pair_action(a, ma, x, b, mb, y)
    card, cell, mask = place
    return ((card, *row_col(cell), mask != masks[card]),)
#: a card that changes nobody's distances (see ``_AfterMove._piece``)
_NOTHING: tuple = (0, 0, 0, None)


class _AfterMove:
    """Both players' win measure after a play, from the current board's distances where it can.

    The edges of a card must agree with its neighbours, so the links on the board after a play are
    the links before plus, for each card laid on an empty cell, one to every neighbour showing it a
    line (and one between the two cards if they lie side by side, both with a line there). A card
    covering another keeps its links; only whom they count for may change. So a play is one or two
    new nodes hung on the nodes they link to: while no two of those links reach the same group of
    connected nodes, no path gets shorter and the longest new path runs from the farthest node of
    one link's group to the farthest of another's. Plays that close a loop are laid and measured
    from scratch.
    """

    def __init__(self, state: CommonCarrierState):
        self.state = state
        line = state.line
        self.hl, self.vl = line[1] & (line[3] >> 1), line[2] & (line[0] >> W)
        #: per player and covered cells that change hands: ``_graph``
        self.graphs: dict[tuple[int, int], tuple] = {}
        #: the measure per board, as (links across, links down, cells counting for the player): ``_path``
        self.full: dict[tuple[int, int, int], int] = {}
        self.facing: dict[int, list[int]] = {}
        #: ``facing`` as a set of cells
        self.facing_set: dict[int, int] = {}
        self.cells: dict[tuple[int, int, int], tuple | None] = {}
        self.player = state.player
        #: each player's measure now
        self.best = [self._graph(0, 0)[4], self._graph(1, 0)[4]]
        for q in (0, 1):
            self.full[(self.hl, self.vl, state.own[q])] = self.best[q]
        #: ``both``, per whom the card counts for (bits 1, 2 or 3), per cell
        self._both: list[dict[int, tuple | None]] = [{}, {}, {}, {}]

    def both(self, cell: int, bits: int) -> tuple | None:
        """A card counting for ``bits`` on ``cell`` (not beside the other card), for the player to
        move and the rival: (groups, longest path through it) twice, or None if it needs more."""
        known = self._both[bits]
        if cell in known:
            return known[cell]
        q = self.player
        mine = self._cell(q, cell, (bits >> q) & 1)
        theirs = self._cell(1 - q, cell, (bits >> (1 - q)) & 1)
        out = None
        if mine is not None and theirs is not None and mine[0] is not None and theirs[0] is not None:
            out = (mine[0], mine[2], theirs[0], theirs[2], mine[1], theirs[1])
        known[cell] = out
        return out

    def known(self, bits: int) -> dict[int, tuple | None]:
        """``both``'s answers so far for a card counting for ``bits``, by cell."""
        return self._both[bits]

    def side_by_side(self, place: tuple, player: int, key: tuple) -> tuple[int, int]:
        """``values_at`` of two cards on empty cells side by side: key (x, bits, y, bits, mask on x,
        mask on y)."""
        x, bx, y, by, mx, my = key
        ix, iy = self.both(x, bx), self.both(y, by)
        if ix is None or iy is None or ix[0] & iy[0] or ix[2] & iy[2]:
            return self.values_at(place, player)
        side = SIDE_STEP.index(y - x)
        mine = max(self.best[player], ix[1], iy[1])
        theirs = max(self.best[1 - player], ix[3], iy[3])
        if mx & SIDE_BITS[side] and my & SIDE_BITS[OPPOSITE[side]]:  # a link between them
            mine = max(mine, ix[4] + (bx >> player & by >> player & 1) + iy[4])
            theirs = max(theirs, ix[5] + (bx >> (1 - player) & by >> (1 - player) & 1) + iy[5])
        return mine, theirs

    def values(self, action: tuple, player: int) -> tuple[int, int]:
        """(``player``'s measure, the rival's) once ``action`` is laid."""
        game = self.state.game
        place: tuple = ()
        for card, r, c, t in action:
            place += (card, cell_of(r, c), game._oriented(card, t))
        return self.values_at(place, player)

    def values_at(self, place: tuple, player: int) -> tuple[int, int]:
        """``values`` of a play given as (card, cell, oriented mask) once or twice in a row."""
        state = self.state
        counts = state.game.card_counts
        occ = state.occ
        placed = [(place[i + 1], counts[place[i]], place[i + 2]) for i in range(0, len(place), 3)]
        link_xy = False
        if len(placed) == 2:
            (x, _, mx), (y, _, my) = placed
            step = y - x
            if step in _ORTH_STEPS:
                side = SIDE_STEP.index(step)
                link_xy = bool(mx & SIDE_BITS[side]) and bool(my & SIDE_BITS[OPPOSITE[side]])
                x_on, y_on = (occ >> x) & 1, (occ >> y) & 1
                if x_on and y_on:
                    return self._both_covered(placed, link_xy, player)
                if x_on or y_on:
                    return self._covered_beside(placed[::-1] if y_on else placed, link_xy, place, player)
        out = []
        for q in (player, 1 - player):
            v = self._measure(q, [(cell, (bits >> q) & 1) for cell, bits, _ in placed], link_xy)
            if v is None:
                return self._laid(place, player)
            out.append(v)
        return out[0], out[1]

    def _measure(self, q: int, placed: list[tuple[int, int]], link_xy: bool) -> int | None:
        """``q``'s measure once cards counting (cell, 0 or 1) for ``q`` are laid, from the distances
        of the board with the covered cards that change hands flipped: None if that does not do."""
        state = self.state
        own, occ = state.own[q], state.occ
        flip = 0
        new = []
        for cell, counts in placed:
            if (occ >> cell) & 1:
                if self._changes_hands(own, cell, counts):
                    flip |= 1 << cell
            else:
                new.append((cell, counts))
        return self._joined(q, flip, new, link_xy)

    def _both_covered(self, placed: list, link_xy: bool, player: int) -> tuple[int, int]:
        """``values`` of two cards covering two side by side.

        Each covering card agrees with its other neighbours as the covered one did, so the links
        stay as they were but the one between the two, which the play may make or break: only
        that link and whom the two cells count for may change.
        """
        (x, bits_x, _), (y, bits_y, _) = placed
        low = 1 << min(x, y)
        hl, vl = self.hl, self.vl
        if abs(x - y) == 1:
            hl = hl | low if link_xy else hl & ~low
        else:
            vl = vl | low if link_xy else vl & ~low
        own = self.state.own
        out = []
        for q in (player, 1 - player):
            flip = ((((own[q] >> x) ^ (bits_x >> q)) & 1) << x) | ((((own[q] >> y) ^ (bits_y >> q)) & 1) << y)
            out.append(self._path(hl, vl, own[q] ^ flip))
        return out[0], out[1]

    def _covered_beside(self, placed: list, link_xy: bool, place: tuple, player: int) -> tuple[int, int]:
        """``values`` of a card covering one on the board and a card on the empty cell beside it.

        The covering card keeps the covered one's links but the one towards the new card (there was
        none: the cell was empty), so the new card hangs on its other neighbours and, through
        their shared edge, on the covering card.
        """
        (x, bits_x, _), (y, bits_y, _) = placed
        state = self.state
        out = []
        for q in (player, 1 - player):
            own = state.own[q]
            cx, cy = (bits_x >> q) & 1, (bits_y >> q) & 1
            flip = 0
            if self._changes_hands(own, x, cx):
                flip = 1 << x
            links = [(n, cy & (own >> n) & 1) for n in self._facing(y) if n != x]
            if link_xy:
                links.append((x, cy & cx))
            graph = self._graph(q, flip)
            groups, _far, through, _one = _hung(graph, links)
            if groups is None:
                return self._laid(place, player)
            out.append(max(graph[4], through))
        return out[0], out[1]

    def apart(self, place: tuple, player: int, x: int, bx: int, y: int, by: int) -> tuple[int, int]:
        """``values_at`` of two cards not side by side on x and y (``bx``, ``by``: whom they count
        for)."""
        out = []
        for q in (player, 1 - player):
            cx, cy = (bx >> q) & 1, (by >> q) & 1
            pa = self._cell(q, x, cx)
            pb = self._cell(q, y, cy)
            if pa is None or pb is None:  # a covered card changes hands
                if pb is not None and not (self.state.occ >> y) & 1:  # the other hung on with it flipped
                    v = self._hung_one(self._graph(q, 1 << x), y, cy)
                elif pa is not None and not (self.state.occ >> x) & 1:
                    v = self._hung_one(self._graph(q, 1 << y), x, cx)
                else:
                    v = self._measure(q, [(x, cx), (y, cy)], False)
                if v is None:
                    return self._laid(place, player)
                out.append(v)
                continue
            ga, far_a, through_a, one_a = pa
            gb, far_b, through_b, one_b = pb
            if ga is None or gb is None:
                return self._laid(place, player)
            graph = self.graphs[(q, 0)]
            if ga & gb:
                if one_a is None or one_b is None:
                    return self._laid(place, player)
                (a, ca), (b, cb) = one_a, one_b
                d = _reach(graph[1], a, b)[0]
                out.append(max(graph[4], far_a, far_b, ca + d + cb))
            else:
                out.append(max(graph[4], through_a, through_b))
        return out[0], out[1]

    def _cell(self, q: int, cell: int, counts: int) -> tuple | None:
        """What one card on ``cell`` does to ``q``'s distances: a piece as ``_piece`` gives it
        (a covered card that keeps its owner or has no links: a piece with nothing), or None if the
        covered card changes hands."""
        key = (q, cell, counts)
        if key in self.cells:
            return self.cells[key]
        state = self.state
        if (state.occ >> cell) & 1:
            linked = self._facing(cell)
            if not self._changes_hands(state.own[q], cell, counts):
                out = _NOTHING  # every link here costs q what it did
            elif counts and len(linked) == 1:
                # q's card covers a card that was not q's and links to one node of q's: it hangs
                # off that node like a new card
                root, _adjacent, ecc, group, _best, _own, _pieces = self._graph(q, 0)
                node = root.get(linked[0], linked[0])
                far = 1 + ecc.get(node, 0)
                out = (1 << group.get(node, node), far, far, (node, 1))
            else:
                out = None
        else:
            out = self._piece(self._graph(q, 0), cell, counts)
        self.cells[key] = out
        return out

    def _facing(self, cell: int) -> list[int]:
        """Occupied neighbours of ``cell`` showing it a line."""
        linked = self.facing.get(cell)
        if linked is None:
            occ, line = self.state.occ, self.state.line
            linked = [cell + step for side, step in enumerate(SIDE_STEP)
                      if (occ >> (cell + step)) & 1 and (line[OPPOSITE[side]] >> (cell + step)) & 1]
            self.facing[cell] = linked
            self.facing_set[cell] = sum(1 << n for n in linked)
        return linked

    def _changes_hands(self, own: int, cell: int, counts: int) -> bool:
        """Whether a card counting ``counts`` (0 or 1) for the player whose cells are ``own``, laid
        on the card on ``cell``, changes that player's links: it counts otherwise and is linked to
        one of theirs."""
        if ((own >> cell) & 1) == counts:
            return False
        if cell not in self.facing_set:
            self._facing(cell)
        return bool(own & self.facing_set[cell])

    def _graph(self, q: int, flip: int) -> tuple:
        """``q``'s distances with the cells of ``flip`` changing hands: each cell's node, the
        nodes each node's links join it to (``_link_graph``), each node's eccentricity and group,
        the measure, the cells that count for ``q`` and the new cards hung on this board so far
        (``_piece``)."""
        graph = self.graphs.get((q, flip))
        if graph is None:
            own = self.state.own[q] ^ flip
            hp = self.hl & own & (own >> 1)
            vp = self.vl & own & (own >> W)
            root, adjacent = _link_graph(self.hl, self.vl, hp, vp)
            ecc, group = {}, {}
            for node in adjacent:
                ecc[node], seen = _reach(adjacent, node)
                group[node] = (seen & -seen).bit_length() - 1
            graph = self.graphs[(q, flip)] = (root, adjacent, ecc, group, max(ecc.values(), default=0), own, {})
        return graph

    def _piece(self, graph: tuple, cell: int, counts: int) -> tuple:
        """A new card on an empty cell, counting ``counts`` (0 or 1) for the player of ``graph``:
        the groups its links reach (a bit per group; None if one twice: a loop), its farthest
        reach, its longest path through it, and its one (node, cost) if it has one link."""
        pieces = graph[6]
        key = 2 * cell + counts
        piece = pieces.get(key)
        if piece is None:
            own = graph[5]
            piece = pieces[key] = _hung(graph, [(n, counts & (own >> n) & 1) for n in self._facing(cell)])
        return piece

    def _joined(self, q: int, flip: int, new: list[tuple[int, int]], link_xy: bool) -> int | None:
        """The measure with the new cells hung on, or None if they close a loop."""
        if not new:
            return self._path(self.hl, self.vl, self.state.own[q] ^ flip)
        graph = self._graph(q, flip)
        if len(new) == 1:
            return self._hung_one(graph, *new[0])
        best = graph[4]
        ga, far_a, through_a, one_a = self._piece(graph, *new[0])
        gb, far_b, through_b, one_b = self._piece(graph, *new[1])
        if ga is None or gb is None:
            return None
        if ga & gb:
            if link_xy or one_a is None or one_b is None:
                return None
            # each card linked to one node of the same group: the path between them
            (a, ca), (b, cb) = one_a, one_b
            d = _reach(graph[1], a, b)[0]
            return max(best, far_a, far_b, ca + d + cb)
        best = max(best, through_a, through_b)
        if link_xy:
            best = max(best, far_a + (new[0][1] & new[1][1]) + far_b)
        return best

    def _hung_one(self, graph: tuple, cell: int, counts: int) -> int | None:
        """The measure of ``graph``'s board with one new card on ``cell``, or None if it closes a loop."""
        groups, _far, through, _one = self._piece(graph, cell, counts)
        best = graph[4]
        return None if groups is None else (through if through > best else best)

    def _laid(self, place: tuple, player: int) -> tuple[int, int]:
        state = self.state
        undo = [state._put_undoably(place[i], place[i + 1], place[i + 2]) for i in range(0, len(place), 3)]
        line = state.line
        hl, vl = line[1] & (line[3] >> 1), line[2] & (line[0] >> W)
        out = self._path(hl, vl, state.own[player]), self._path(hl, vl, state.own[1 - player])
        for item in reversed(undo):
            state._lift(*item)
        return out

    def _path(self, hl: int, vl: int, own: int) -> int:
        """``_best_path``, once per board."""
        key = (hl, vl, own)
        v = self.full.get(key)
        if v is None:
            v = self.full[key] = _best_path(hl, vl, own)
        return v


def _hung(graph: tuple, links: list[tuple[int, int]]) -> tuple:
    """``_AfterMove._piece`` of a new card with links (cell, cost) to cards on a board whose
    ``_AfterMove._graph`` is ``graph``."""
    root, _adjacent, ecc, group, _best, _own, _pieces = graph
    first = second = 0  # the two farthest reaches
    groups: int | None = 0
    for n, cost in links:
        node = root.get(n, n)
        reach = cost + ecc.get(node, 0)
        if reach > first:
            first, second = reach, first
        elif reach > second:
            second = reach
        bit = 1 << group.get(node, node)
        groups = None if groups is None or groups & bit else groups | bit
    one = None
    if len(links) == 1:
        n, cost = links[0]
        one = (root.get(n, n), cost)
    return groups, first, first + second, one


# --- the validator's constructive check ------------------------------------

def find_winning_layout(game: CommonCarrierGame, player: int,
                        budget: int = 200_000) -> list[tuple[int, int, int, bool]] | None:
    """Lay ``player``'s cards as one path in a 5 x 5 area reaching the target.

    A depth-first search over paths whose cards link only along the path;
    the result is checked with the engine's own rules before it is returned.
    Returns the placements (card, row, col, turned), or None.
    """
    target = game.target
    by_kind: dict[int, list[int]] = {}
    for card in game.player_cards[player]:
        mask = game.card_mask[card]
        if mask != GOOSE_MASK:
            by_kind.setdefault(canonical(mask), []).append(card)
    # oriented masks a path can use, with the kind they come from
    # fewest lines first: a spare line can only get in the way
    shapes = sorted(((m, k) for k in by_kind for m in _orientations(game.card_mask[by_kind[k][0]])),
                    key=lambda s: (bin(s[0]).count("1"), s[0]))
    steps = {TOP: (-1, 0), RIGHT: (0, 1), BOTTOM: (1, 0), LEFT: (0, -1)}
    back = {TOP: BOTTOM, BOTTOM: TOP, LEFT: RIGHT, RIGHT: LEFT}
    nodes = [0]

    def place_ok(grid: dict, pos: tuple[int, int], mask: int, links: set[int]) -> bool:
        """``mask`` has lines exactly towards ``links`` among occupied neighbours."""
        r, c = pos
        for bit, (dr, dc) in steps.items():
            if (r + dr, c + dc) in grid and bool(mask & bit) != (bit in links):
                return False
        return True

    def search(grid: dict, pos: tuple[int, int], came: int, left: dict[int, int]) -> list | None:
        nodes[0] += 1
        if nodes[0] > budget:
            return None
        length = len(grid)  # cards already placed before pos
        last = length >= target
        moves = [None] if last else list(steps)
        for out in moves:
            if out is not None:
                nr, nc = pos[0] + steps[out][0], pos[1] + steps[out][1]
                if not (0 <= nr < SPAN and 0 <= nc < SPAN) or (nr, nc) in grid:
                    continue
                if _faced_by_line(grid, (nr, nc), pos, steps):
                    continue
            need = {b for b in (came, out) if b}
            for mask, kind in shapes:
                if left.get(kind, 0) == 0 or any(not mask & b for b in need):
                    continue
                if not place_ok(grid, pos, mask, need):
                    continue
                grid[pos] = mask
                left[kind] -= 1
                result: list[tuple[tuple[int, int], int, int]] | None
                if out is None:
                    result = [(pos, mask, kind)]
                else:
                    nxt = (pos[0] + steps[out][0], pos[1] + steps[out][1])
                    sub = search(grid, nxt, back[out], left)
                    result = [(pos, mask, kind)] + sub if sub is not None else None
                left[kind] += 1
                del grid[pos]
                if result is not None:
                    return result
                if nodes[0] > budget:
                    return None
        return None

    counts = {k: len(v) for k, v in by_kind.items()}
    if sum(counts.values()) < target + 1:
        return None
    starts = sorted(((r, c) for r in range(SPAN) for c in range(SPAN)),
                    key=lambda rc: (min(rc[0], SPAN - 1 - rc[0]) + min(rc[1], SPAN - 1 - rc[1]), rc))
    for start in starts:
        found = search({}, start, 0, dict(counts))
        if found is not None:
            return _verify_layout(game, player, found, by_kind)
        if nodes[0] > budget:
            break
    return None


def _faced_by_line(grid: dict, cell: tuple[int, int], came_from: tuple[int, int],
                   steps: dict) -> bool:
    """Whether a placed card other than ``came_from`` shows a line towards ``cell``."""
    r, c = cell
    for bit, (dr, dc) in steps.items():
        nb = (r + dr, c + dc)
        if nb != came_from and nb in grid:
            facing = {TOP: BOTTOM, BOTTOM: TOP, LEFT: RIGHT, RIGHT: LEFT}[bit]
            if grid[nb] & facing:
                return True
    return False


def _verify_layout(game: CommonCarrierGame, player: int, found: list,
                   by_kind: dict[int, list[int]]) -> list[tuple[int, int, int, bool]] | None:
    """Lay the found path on a real board and measure it with the engine."""
    state = game.empty_state()
    used: dict[int, int] = {}
    layout = []
    for (r, c), mask, kind in found:
        card = by_kind[kind][used.get(kind, 0)]
        used[kind] = used.get(kind, 0) + 1
        is_turned = mask != game.card_mask[card]
        state.put(card, r + 2, c + 2, is_turned)
        layout.append((card, r + 2, c + 2, is_turned))
    if state.is_legal_board() and state.value(player) >= game.target:
        return layout
    return None


# --- the game, declared ---------------------------------------------------------

def parse_gray(text: str) -> list[tuple[int, int]] | None:
    """Gray cards printed per player, as (PBX, goose eggs) for each player; None prints them all.

    ``all``; ``none`` (the basic game); ``N`` or ``N,M``: player 1 (and 2) choose N (M) PBX among their
    4 gray cards, the rest goose eggs; ``pbx=N,goose=M``: those counts for every player.
    """
    text = (text or "").strip()
    if text == "all":
        return None
    if text == "none":
        return [(0, 0), (0, 0)]
    if re.fullmatch(r"[0-9](,[0-9])?", text):
        choices = [int(n) for n in text.split(",")]
        if any(n > 4 for n in choices):
            raise CardgenError(f"--gray {text}: each player has 4 gray cards, so at most 4 PBX")
        return [(n, 4 - n) for n in (choices * 2)[:2]]
    counts: dict[str, int | None] = {"pbx": None, "goose": None}
    for part in text.split(","):
        key, _, value = part.partition("=")
        key, count = key.strip(), numbers.whole(value)
        if key not in counts or count is None or count < 0:
            raise CardgenError(f"--gray must be all, none, N or N,M (PBX among each player's 4 gray cards) or "
                               f"pbx=N,goose=M, got '{text}'")
        if count > 20:
            raise CardgenError(f"--gray {key}={value}: at most 20 copies per player")
        counts[key] = count
    pbx, goose = counts["pbx"], counts["goose"]
    return [(pbx if pbx is not None else 4, goose if goose is not None else 4)] * 2


def check_settings(settings: Any) -> None:
    """``--gray`` is this game's: refused before anything is built when it makes no sense."""
    parse_gray(getattr(settings, "gray", "all"))


def customise(deck: Any, cards: list, options: Mapping[str, Any], settings: Any) -> list:
    """The gray cards printed for each player: all of them (choose at the table), none (the basic
    game), or each player's own choice of 4 (``--gray 3,1``)."""
    choice = parse_gray(getattr(settings, "gray", "all"))
    if choice is None:
        return list(cards)
    out = []
    for card in cards:
        if card.kind == "tile" and card.gray and card.edges is not None and card.edges.count() in (0, 4):
            for player, (pbx, goose) in enumerate(choice):
                wanted = pbx if card.edges.count() == 4 else goose
                if wanted:
                    out.append(card.with_(copies=wanted, owner=player))
        else:
            out.append(card)
    return out


GAME = GameInfo(id="common-carrier", name="Common Carrier", engine=CommonCarrierGame, from_deck=game_from_deck,
                check_deck=check_deck, customise=customise, check_settings=check_settings, players="2")
