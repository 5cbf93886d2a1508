"""Common Carrier's cards and board as bit sets: edge bits, the padded grid, and the win measure.

The board is a bit set over a padded 11 x 11 grid (the first card goes in the middle of the inner
9 x 9, so a 5 x 5 span always fits): a cell is a bit, a set of cells an integer. The tables here are
built once at import. ``_best_path`` is the rules' win measure: the most of a player's links that
every path between two nodes runs over.
"""
from __future__ import annotations

import operator
from collections.abc import Iterator
from typing import Any

# --- cards ---------------------------------------------------------------

#: edge bits of a card mask
TOP, RIGHT, BOTTOM, LEFT = 1, 2, 4, 8
PBX_MASK, GOOSE_MASK = 15, 0
#: the 8 basic patterns, one orientation each (every line/blank combination
#: up to a 180-degree turn, except all lines and no lines)
BASIC_PATTERNS = (1, 2, 3, 5, 6, 7, 10, 11)
#: the most rows and columns the cards may span
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



def _orientations(mask: int) -> tuple[int, ...]:
    t = turned(mask)
    return (mask,) if t == mask else (mask, t)


_ORIENTATIONS = [_orientations(_m) for _m in range(16)]
_TURNED = [turned(_m) for _m in range(16)]
_CANONICAL = [canonical(_m) for _m in range(16)]
#: per mask, its four sides' conflicts from a board's ``bad`` (``_fits``)
_SIDE_PICK = [operator.itemgetter(*(2 * _i + (_m >> _i & 1) for _i in range(4))) for _m in range(16)]


def _popcount(x: int) -> int:
    return x.bit_count()


def _best_path(hl: int, vl: int, own: int, need: int = 0, remember: bool = False) -> int:
    """The win measure of a board given by its links (``hl``: cell to cell + 1, ``vl``: cell to
    cell + W) and the cells that count for the player.

    With ``need``, a measure below it may be returned as any number below it: no two nodes that one
    node reaches are farther apart than twice its farthest, so such a group is settled at once.
    With ``remember``, measured once per board lately seen (``_PATHS``): a search judges each board
    it tries in thousands of deals (a game played once meets each board once, and is not helped).
    """
    hp = hl & own & (own >> 1)
    vp = vl & own & (own >> W)
    if not (hp | vp):
        return 0
    if not remember:
        return _measured_path(hl, vl, hp, vp, need)
    key = (hl, vl, own, need)
    known = _PATHS.get(key)
    if known is None:
        if len(_PATHS) >= PATH_MEMO:
            _PATHS.clear()
        known = _PATHS[key] = _measured_path(hl, vl, hp, vp, need)
    return known


#: ``_best_path``'s answers, cleared when it holds this many
PATH_MEMO = 16384
_PATHS: dict[tuple[int, int, int, int], int] = {}


def _measured_path(hl: int, vl: int, hp: int, vp: int, need: int) -> int:
    """``_best_path`` worked out, given the player's links ``hp`` and ``vp``."""
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
    # how far the farthest node is from each; in a group without a loop (the most), the longest
    # path starts at a node farthest from any one, so two sweeps measure the group
    best = 0
    settled = looped = 0
    for source in adjacent:
        if settled >> source & 1:
            continue
        far, reached, farthest = _reach(adjacent, source)
        if 2 * far < need:
            settled |= reached
        elif not looped >> source & 1:
            if _is_tree(adjacent, reached):
                far = _reach(adjacent, (farthest & -farthest).bit_length() - 1)[0]
                settled |= reached
            else:
                looped |= reached
        if far > best:
            best = far
    return best


def _is_tree(adjacent: dict[int, int], nodes: int) -> bool:
    """Whether the nodes of one group (a bit set, every node linked to another) join without a loop:
    one link fewer than nodes."""
    ends = count = 0
    while nodes:
        low = nodes & -nodes
        nodes ^= low
        ends += adjacent[low.bit_length() - 1].bit_count()
        count += 1
    return ends == 2 * (count - 1)


def _reach(adjacent: dict[int, int], source: int, target: int = -1) -> tuple[int, int, int]:
    """Steps from ``source`` to the farthest node it reaches (or to ``target``, given one) over
    ``adjacent`` (each node's neighbours, a bit each), the nodes reached by then, and the farthest
    of them (those ``target`` is among)."""
    stop = 1 << target if target >= 0 else 0
    seen = layer = 1 << source
    d = 0
    while not layer & stop:
        last = layer
        nxt = 0
        while layer:
            low = layer & -layer
            layer ^= low
            nxt |= adjacent[low.bit_length() - 1]
        layer = nxt & ~seen
        if not layer:
            return d, seen, last
        seen |= layer
        d += 1
    return d, seen, layer


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

