"""Common Carrier's printed deck: the engine read from a deck's cards, the deck's structural checks,
and the gray cards printed for each player (``--gray``).
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ... import numbers
from ...errors import CardgenError
from ...findings import Finding
from ...model import Edges
from .board import (
    BASIC_PATTERNS,
    BOTTOM,
    GOOSE_MASK,
    LEFT,
    PBX_MASK,
    RIGHT,
    SPAN,
    TOP,
    _orientations,
    canonical,
    mask_of,
    pattern_name,
)
from .game import CommonCarrierGame
from .rules import OPTION_NAMES, CommonCarrierRules, _printing, parse_options


def game_from_deck(deck: Any, options: Mapping[str, Any] | None = None) -> CommonCarrierGame:
    """The engine for a built deck: each player's basic cards plus the chosen gray ones."""
    merged = {k: v for k, v in (deck.options or {}).items() if k in OPTION_NAMES}
    merged.update(options or {})
    return CommonCarrierGame(options=merged, printed=_deck_printing(deck))


def _deck_printing(deck: Any) -> list[list[tuple[int, bool, int, str]]]:
    """Each player's printed tiles in the deck (``rules.Printed``)."""
    return [_printing(c for c in deck.cards if c.owner == player) for player in (0, 1)]


def _edges(card: Any) -> Edges | None:
    """A tile's links, which the deck file gives and the loader keeps in its fields."""
    return card.fields.get("edges")


def _gray(card: Any) -> bool:
    return bool(card.fields.get("gray", False))


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
        elif _edges(card) is None:
            error("tile has no edges: give top, right, bottom and left as line or blank", card)
        elif card.owner not in (0, 1):
            error("tile belongs to no player (Common Carrier decks are per player)", card)
        else:
            mask = mask_of(_edges(card))
            if _gray(card) and mask not in (PBX_MASK, GOOSE_MASK):
                error("a gray card must be a PBX (all four edges) or a goose egg (no edges), "
                      f"this one has {pattern_name(mask)}", card)
            if not _gray(card) and mask in (PBX_MASK, GOOSE_MASK):
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
        if not target_reachable(game, player):
            error(f"player {player + 1}'s cards cannot make a path of {options['target']} own "
                  f"links in a 5 x 5 area (no placement found); lower the target")
    return findings


# --- the validator's constructive check ------------------------------------

def target_reachable(game: CommonCarrierRules, player: int, budget: int = 200_000) -> bool:
    """Whether ``player``'s cards can be laid in 5 x 5 so they reach the target."""
    return find_winning_layout(game, player, budget) is not None


def find_winning_layout(game: CommonCarrierRules, player: int,
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


def _verify_layout(game: CommonCarrierRules, player: int, found: list,
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


# --- the gray cards printed (``--gray``) -------------------------------------

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


def customise(deck: Any, cards: list, options: Mapping[str, Any], settings: Any) -> list:
    """The gray cards printed for each player: all of them (choose at the table), none (the basic
    game), or each player's own choice of 4 (``--gray 3,1``)."""
    choice = parse_gray(settings.gray)
    if choice is None:
        return list(cards)
    out = []
    for card in cards:
        edges = _edges(card)
        if card.kind == "tile" and _gray(card) and edges is not None and edges.count() in (0, 4):
            for player, (pbx, goose) in enumerate(choice):
                wanted = pbx if edges.count() == 4 else goose
                if wanted:
                    out.append(card.with_(copies=wanted, owner=player))
        else:
            out.append(card)
    return out
