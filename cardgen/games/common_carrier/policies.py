"""Common Carrier's policies: the greedy player, the heuristic and the search's evaluation.

The greedy player scores each distinct outcome of a turn once, mostly from the current board's
distances (``_AfterMove``) rather than by laying every play. ``CommonCarrierGame`` (game.py) calls
these; they read the rules (rules.py) and never change them.
"""
from __future__ import annotations

import random

from ..base import IllegalAction
from .board import (
    _ORTH_STEPS,
    OPPOSITE,
    SIDE_BITS,
    SIDE_STEP,
    W,
    _best_path,
    _cell_list,
    _link_graph,
    _reach,
    cell_of,
)
from .plays import _placement_action
from .rules import CommonCarrierRules, CommonCarrierState


def heuristic(game: CommonCarrierRules, state: CommonCarrierState, player: int) -> float:
    """The best-path lead of ``player`` over the rival (plus or minus 1000 once the game is over)."""
    if state.finished:
        winners = state.winners()
        return 0.0 if not winners else (1000.0 if player in winners else -1000.0)
    return float(state.value(player) - state.value(1 - player))


def evaluate(game: CommonCarrierRules, state: CommonCarrierState) -> list[float]:
    """Each player's prospects for the search, in 0..1: a finished game's result (a tie 1/2 each),
    else 1/2 moved by the difference of the two best-path values as a share of the target."""
    if state.finished:
        winners = state.winners()
        return [0.5, 0.5] if not winners else [1.0 if p in winners else 0.0 for p in (0, 1)]
    lead = (state.value(0) - state.value(1)) / game.target
    return [0.5 + 0.5 * lead, 0.5 - 0.5 * lead]


def tie_chance(game: CommonCarrierRules, state: CommonCarrierState) -> float:
    """How likely the game is to end with no winner, for a search that values a tie otherwise than
    half a win: each player's distance from the target as a share of it, multiplied. To a player
    who counts a tie as a win (``mcts:N:tie=1``), ``evaluate`` moved by it comes to 1 minus the
    rival's best path as a share of the target, less as its own path grows (``1 - r/t * (1 -
    m/(2t))``): it blocks the rival first, playing for stalemate (docs/rules-readings.md)."""
    if state.finished:
        return 0.0 if state.winners() else 1.0
    target = game.target
    mine, theirs = (min(state.value(p), target) / target for p in (0, 1))
    return (1.0 - mine) * (1.0 - theirs)


def greedy_action(game: CommonCarrierRules, state: CommonCarrierState, player: int, rng: random.Random) -> tuple:
    """Best heuristic after the move (``_scored_plays``); ties drawn by ``rng``."""
    if state.finished or player != state.player:
        raise IllegalAction(f"player {player} has no move here")
    best = _scored_plays(game, state, player, _AfterMove(state), None)
    choice = _placement_action(state, rng.choice(best), game.card_mask)
    state._trusted = choice
    return choice


def heuristics_ahead(game: CommonCarrierRules, state: CommonCarrierState, player: int) -> list[float]:
    """``heuristic`` after each of ``player``'s legal actions, in ``legal_actions`` order (the
    search's ranking of its root): greedy's score of the play (``_scored_plays``, the measures
    worked out from the current board), which is the heuristic once the play wins or the game
    surely goes on (``CommonCarrierState._surely_goes_on``); any other play is laid on a copy and
    judged there, for the game may end with the cards run out."""
    if state.finished or player != state.player:
        return []
    scores: list[int] = []
    _scored_plays(game, state, player, _AfterMove(state), scores)
    actions = state.legal_actions()
    hand = state._next_hand()
    goes_on = state._surely_goes_on
    out = []
    for action, score in zip(actions, scores, strict=True):
        if score == 1000 or score == -1000 or (hand is not None and goes_on(action, hand)):
            out.append(float(score))
        else:
            trial = state.clone()
            trial.apply_action(action)
            out.append(heuristic(game, trial, player))
    return out


def _scored_plays(game: CommonCarrierRules, state: CommonCarrierState, player: int, after: _AfterMove,
                  scores: list[int] | None) -> list[tuple]:
    """Greedy's score of each of ``player``'s plays, in the order of ``legal_actions()`` (added to
    ``scores`` when given), and the best plays as (card, cell, oriented mask) once or twice, in that
    order.

    Plays that put the same kinds of card (whose cards they count for) on the same cells score
    the same, so each such outcome is scored once (``_AfterMove``), mostly from the distances
    of the current board without laying any card.
    """
    target = game.target
    both = after.both
    mine_now, theirs_now = after.best[player], after.best[1 - player]
    occ = state.occ
    #: per outcome (cells and whom the cards count for), its score
    outcomes: dict[tuple, int] = {}
    counts = game.card_counts
    note = scores.append if scores is not None else None
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
                score = outcomes.get(key)
                if score is None:
                    score = outcomes[key] = _score(target, *after.values_at(place, player))
                if note is not None:
                    note(score)
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
                        score = outcomes.get(key)
                        if score is None:
                            score = outcomes[key] = _score(target, *after.apart(
                                (a, c1, ma, b, y, mb), player, *key))
                    if note is not None:
                        note(score)
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
                score = outcomes.get(key)
                if score is None:
                    place = (a, x, ma, b, y, mb)
                    if not (occ >> x) & 1 and not (occ >> y) & 1:
                        score = _score(target, *after.side_by_side(place, player, key))
                    else:
                        score = _score(target, *after.values_at(place, player))
                    outcomes[key] = score
                if note is not None:
                    note(score)
                if score >= best_score:
                    if score > best_score:
                        best, best_score = [], score
                    best.append((a, x, ma, b, y, mb))
    return best


def _score(target: int, mine: int, theirs: int) -> int:
    """Greedy's score of the two measures after a play."""
    return 1000 if mine >= target else (-1000 if theirs >= target else mine - theirs)


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
                ecc[node], seen, _ = _reach(adjacent, node)
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


