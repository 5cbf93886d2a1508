"""Counting, listing and drawing the legal plays of a Common Carrier position.

An action is a whole turn: one or two placements applied together, because only the end-of-turn
position has to be legal. A turn's plays are grouped in combinations (which cards, in which
orientations) and each combination's plays are counted with a few dozen integer operations on the
board's bit sets, so a play can be drawn uniformly without listing them all (``_sample_placement``)
and listed in one fixed order when asked (``_combo_actions``). ``CommonCarrierState`` (rules.py)
keeps the position; this part of it only reads the position and its own caches.
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from .board import (
    _CANONICAL,
    _ORIENTATIONS,
    _ORTH_STEPS,
    _ROW_COL,
    _SIDE_PICK,
    _WINDOWS,
    CENTER,
    DIAG,
    DIAG_STEPS,
    INNER_SET,
    OPPOSITE,
    ORTH,
    SIDE_BITS,
    SIDE_STEP,
    SPAN,
    W,
    _cell_list,
    _col,
    _cols,
    _nth_bit,
    _orientations,
    _popcount,
    _row,
    _rows,
    _shift_back,
    canonical,
    row_col,
)


class Plays:
    """The plays of a position: the part of ``CommonCarrierState`` that counts, lists and draws them.

    A mixin: the state sets the attributes declared here and answers ``_cards_to_place``.
    """

    #: the game (card masks and owners)
    game: Any
    #: whether what a board answers is remembered beyond this position (rules.py)
    _remember: bool
    #: the board: cells whose top card has a line on each side, occupied cells and their 8 neighbours,
    #: the bounding box (rules.py)
    line: list[int]
    occ: int
    halo: int
    bbox: tuple[int, int, int, int] | None
    #: how many cards the decision places
    _level: int
    #: (weight, combination) pairs of this position once counted, and their total weight
    _combos: list | None
    _combo_total: int
    #: ``_board_sets`` of this position once computed, with the cells away from the board and the
    #: fronts it derives
    _sets: tuple[int, int, int, tuple[int, ...], Any] | None
    _away: tuple[int, int, int, int]
    _fronts: tuple[int, int, int, int]
    #: per oriented mask, its ``_near_set``; per (mask of a, mask of b) counted, the placements apart
    #: and all the placements (``_count_near``); per placement as (cell, oriented mask) once or twice,
    #: whether it leaves a legal board; per action ``is_legal`` checked with its cards held and the
    #: right number of them, whether its placements are legal: what the board alone answers, shared by
    #: every position with this board (``_BOARDS``)
    _near_cache: dict[int, tuple]
    _apart: dict[tuple[int, int], tuple[int, tuple, tuple]]
    _pair_total: dict[tuple[int, int], int]
    _laid_legal: dict[tuple, bool]
    _action_legal: dict[tuple, bool]

    def _cards_to_place(self) -> list[int]:
        """The cards the current decision places from (a hand, or the cards handed over)."""
        raise NotImplementedError

    def _board_sets(self) -> tuple:
        """Where cards may go: frontier, span window and per-side conflicts; with them the board's
        share of ``_BOARDS`` (found there if another position had this board lately), or, in a
        position that does not remember boards (``_remember``), its own."""
        if self._sets is not None:
            return self._sets
        if not self._remember:
            (self._sets, self._away, self._fronts), self._near_cache, self._apart, self._pair_total, \
                self._laid_legal, self._action_legal = self._board_sets_anew(), {}, {}, {}, {}, {}
            return self._sets
        key = (self.occ, *self.line)
        known = _BOARDS.get(key)
        if known is None:
            if len(_BOARDS) >= BOARD_MEMO:
                _BOARDS.clear()
            known = _BOARDS[key] = (*self._board_sets_anew(), {}, {}, {}, {}, {})
        (self._sets, self._away, self._fronts, self._near_cache, self._apart, self._pair_total,
         self._laid_legal, self._action_legal) = known
        return known[0]

    def _board_sets_anew(self) -> tuple:
        """``_board_sets``, ``_away`` and ``_fronts`` of this board, worked out."""
        occ = self.occ
        bad: tuple[int, ...]
        if not occ:
            frontier, window = 1 << CENTER, INNER_SET
            bad = (0,) * 8
            conflicts = None
        else:
            box = self.bbox
            assert box is not None  # an occupied board has a bounding box
            window = _window(box)
            frontier = self.halo & window
            bad = _conflicts(occ, self.line)
            r0, r1, c0, c1 = box
            conflicts = box if r1 - r0 == SPAN - 2 or c1 - c0 == SPAN - 2 else None
        # cells away from the board, shifted onto the cells diagonal to them (``_near_fits``)
        away = window & ~frontier
        # per side: cells that are near the board or whose neighbour on that side is
        fronts = (frontier | frontier << W, frontier | frontier >> 1,
                  frontier | frontier >> W, frontier | frontier << 1)
        return ((occ, frontier, window, bad, conflicts),
                (away << (W + 1), away << (W - 1), away >> (W - 1), away >> (W + 1)), fronts)

    def _fits(self, mask: int) -> tuple[int, tuple[int, int, int, int]]:
        """Cells where ``mask`` agrees with every neighbour, and with all but side d."""
        near = self._near_fits(mask)
        return near[5], near[4]

    def _near_fits(self, mask: int) -> tuple:
        """``_near_set`` of ``mask`` on this board, remembered until the board changes."""
        sets = self._sets or self._board_sets()
        cached = self._near_cache.get(mask)
        if cached is None:
            cached = self._near_cache[mask] = _near_set(sets, self._away, mask)
        return cached

    def _combo_list(self) -> list:
        """(weight, combination) pairs; weight is twice the number of actions it holds."""
        if self._combos is not None:
            return self._combos
        cards = self._cards_to_place()
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

    def _has_play(self) -> bool:
        """Whether the decision has a play at all (``_combo_list`` not empty). In a search's deal
        (``_remember``), whose plays are often never asked for, a hand of two cards to play both
        is looked at first (``_surely_playable``, on a board not met before) and then counted up
        to the first combination with a play, in ``_two_card_combos``' order; elsewhere the plays
        are drawn or listed next, so they are counted in full at once."""
        if not self._remember or self._combos is not None or self._level != 2:
            return bool(self._combo_list())
        cards = self._cards_to_place()
        if len(cards) != 2:
            return bool(self._combo_list())
        if self._sets is None:
            if (self.occ, *self.line) not in _BOARDS and self._surely_playable(*cards):
                return True
            self._board_sets()
        masks, totals = self.game.card_mask, self._pair_total
        a, b = cards
        if _CANONICAL[masks[a]] > _CANONICAL[masks[b]]:
            a, b = b, a
        oa, ob = _ORIENTATIONS[masks[a]], _ORIENTATIONS[masks[b]]
        for ma in oa:
            for mb in ob:
                n = totals.get((ma, mb))
                if n is None:
                    n = self._count_near(self._near_fits(ma), self._near_fits(mb))
                if n:
                    return True
        return False

    def _surely_playable(self, a: int, b: int) -> bool:
        """Whether cards ``a`` and ``b`` have a play seen at a glance on this board
        (``_playable_at_a_glance``). False says nothing."""
        return _playable_at_a_glance(self.game.card_mask, a, b, self.occ, self.halo, self.bbox, self.line)

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
        totals = self._pair_total
        if not totals:  # nothing counted on this board yet
            away = self._away
            near_a = [_near_set(sets, away, m) for m in oa]
            near_b = near_a if ob is oa else [_near_set(sets, away, m) for m in ob]
            count = self._count_near
            return [count(near_a[i], near_b[j]) for i, j in pairs]
        near_a = near_b = []
        counts = []
        for i, j in pairs:
            n = totals.get((oa[i], ob[j]))
            if n is None:
                if not near_a:  # each orientation's fit once, for the pairs not counted before
                    near_a = [self._near_fits(m) for m in oa]
                    near_b = near_a if ob is oa else [self._near_fits(m) for m in ob]
                n = self._count_near(near_a[i], near_b[j])
            counts.append(n)
        return counts

    def _count_pairs(self, ma: int, mb: int) -> int:
        """Ordered (cell for a, cell for b) pairs leaving a legal board, for hands other than two
        cards played together (``_pair_counts`` counts those): ``_count_near`` on the masks' cached
        ``_near_set``."""
        return self._count_near(self._near_fits(ma), self._near_fits(mb))

    def _count_near(self, near_a: tuple, near_b: tuple) -> int:
        """``_count_pairs`` given the two masks' ``_near_set`` (remembered for the board)."""
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
        self._pair_total[(ma, mb)] = n
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


def _playable_at_a_glance(masks: list[int], a: int, b: int, occ: int, halo: int,
                          box: tuple[int, int, int, int] | None, line: list[int]) -> bool:
    """Whether cards ``a`` and ``b`` have a play by one of two plays seen at a glance, on the board
    of occupied cells ``occ`` (with ``halo``, ``box`` and ``line`` as the state keeps them), without
    its sets: two of three open cells (empty, near the board, no card beside them on any side: any
    card fits there, and of any three, two are not side by side) within rows and columns the two
    cannot stretch past 5 (``_open_regions``); or each card on top of a card showing the same lines
    on its own cell (as it lies or turned), agreeing with every neighbour there: the board keeps
    every line it had. False says nothing."""
    if box is None:
        return False
    window = _window(box)
    open_cells = halo & window & ~(occ | occ << 1 | occ >> 1 | occ << W | occ >> W)
    if open_cells.bit_count() >= 3:
        for region in _open_regions(box):
            if (open_cells & region).bit_count() >= 3:
                return True
    bad = _conflicts(occ, line)
    on_a = _lookalikes(masks[a], occ, line, bad, window)
    if not on_a:
        return False
    on_b = _lookalikes(masks[b], occ, line, bad, window)
    return bool(on_b) and (on_a != on_b or on_a & (on_a - 1) != 0)


def _lookalikes(mask: int, occ: int, line: list[int], bad: tuple[int, ...], window: int) -> int:
    """Cells in ``window`` whose top card shows the lines of ``mask`` or of its turn, where that
    orientation agrees with every neighbour (given the board's ``_conflicts``)."""
    l0, l1, l2, l3 = line
    out = 0
    for m in _ORIENTATIONS[mask]:
        same = (occ & window & (l0 if m & 1 else ~l0) & (l1 if m & 2 else ~l1)
                & (l2 if m & 4 else ~l2) & (l3 if m & 8 else ~l3))
        if same:
            b0, b1, b2, b3 = _SIDE_PICK[m](bad)
            out |= same & ~(b0 | b1 | b2 | b3)
    return out


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


def _conflicts(occ: int, line: list[int]) -> tuple[int, ...]:
    """Per side of a cell, the cells where a card blank on that side, then one with a line there,
    disagrees with the neighbour: (side 0 blank, side 0 line, side 1 blank, ...), picked per mask by
    ``_SIDE_PICK``. A cell conflicts on side i when its neighbour there is occupied and shows a line
    (for a blank side) or a blank (for a line side)."""
    l0, l1, l2, l3 = line
    f0, f1, f2, f3 = l2 << W, l3 >> 1, l0 >> W, l1 << 1
    return (f0, occ << W & ~f0, f1, occ >> 1 & ~f1, f2, occ >> W & ~f2, f3, occ << 1 & ~f3)


def _open_regions(box: tuple[int, int, int, int]) -> tuple[int, ...]:
    """Sets of cells near a board of bounding box ``box`` in which any two cards keep it within 5 x 5:
    every cell, unless it spans 4 rows (then the rows above it or those below it, not both) or 4
    columns (likewise)."""
    known = _REGIONS.get(box)
    if known is None:
        r0, r1, c0, c1 = box
        rows = (_rows(r0 - 1, r1), _rows(r0, r1 + 1)) if r1 - r0 == SPAN - 2 else (-1,)
        cols = (_cols(c0 - 1, c1), _cols(c0, c1 + 1)) if c1 - c0 == SPAN - 2 else (-1,)
        known = _REGIONS[box] = tuple(r & c for r in rows for c in cols)
    return known


#: ``_open_regions`` of each bounding box seen
_REGIONS: dict[tuple[int, int, int, int], tuple[int, ...]] = {}


def _window(box: tuple[int, int, int, int]) -> int:
    """The cells a card may go on without stretching the board of bounding box ``box`` past 5 x 5."""
    known = _WINDOWS.get(box)
    if known is None:
        r0, r1, c0, c1 = box
        known = _WINDOWS[box] = _rows(r1 - SPAN + 1, r0 + SPAN - 1) & _cols(c1 - SPAN + 1, c0 + SPAN - 1)
    return known


#: what a board alone answers (``Plays._board_sets``), by (occupied cells, the four line sets): a
#: search meets each board it tries in thousands of deals; cleared when it holds this many boards
BOARD_MEMO = 4096
_BOARDS: dict[tuple[int, ...], tuple] = {}


def _below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` (the same draw), without its argument checks: it runs twice a move."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r



#: the (orientation of a, orientation of b) pairs ``_two_card_combos`` counts, by how many each has
_SAME_PAIRS = {1: ((0, 0),), 2: ((0, 0), (0, 1), (1, 1))}
_ALL_PAIRS = {i: {j: tuple((x, y) for x in range(i) for y in range(j)) for j in (1, 2)} for i in (1, 2)}


def _placement_action(state: Plays, place: tuple, masks: list[int]) -> tuple:
    """The action of ``(card, cell, mask)`` or ``(a, x, ma, b, y, mb)`` as legal_actions() gives it."""
    if len(place) == 6:
        a, x, ma, b, y, mb = place
        return state._pair_action(a, ma, x, b, mb, y)
    card, cell, mask = place
    return ((card, *row_col(cell), mask != masks[card]),)
