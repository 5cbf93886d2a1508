"""What each player knows the others hold, learnt from the passes it saw.

A position logs its turns (the plays, and the cards that arrived in answer) and learns from the
log only when asked (``DotcombustState.known_parts``), so a game played without a search pays
nothing for it. ``known[x * n + q]`` is {asset: parts} player x knows q holds at least. A
determinization keeps those parts in q's hand (``DotcombustState.determinize``).
"""
from __future__ import annotations

from collections.abc import Sequence

#: the witness of a move the whole table sees (a face-up pass and its answer), in learn's moves
TABLE = -1


def catch_up(known: list[dict[int, int]], log: list[tuple], n: int) -> None:
    """Learn from the logged turns (see learn) what each player knows the others hold, and
    clear the log.

    A turn's entry is (offset, the plays, the cards that arrived in the order of the plays,
    who gave a last card); a laid-down asset's is (player, asset): its parts are on the table.
    An answer is read off its arrivals: the passer got more cards back than it passed when
    the receiver paid, the passer got one back or both kept one of a face-up pass the
    receiver had no part of, and the receiver got them all of a face-down one.
    """
    for entry in log:
        if len(entry) == 2:
            holder, asset = entry
            for x in range(n):
                known[x * n + holder].pop(asset, None)
            continue
        offset, action, arriving, gifts = entry
        moves: list[tuple[int, int, int, int]] = []
        answers = iter(arriving)
        for p, play in enumerate(action):
            cards = play[0]
            if not cards:
                continue
            q = (p + offset) % n
            # who sees p's cards move, and q's: each other, or (face up) the whole table
            by_q, by_p = (TABLE, TABLE) if play[1] else (q, p)
            moves += [(p, a, -1, by_q) for a in cards]
            if gifts is not None and gifts[p]:
                next(answers)
                moves.append((q, cards[0], 1, p))
                continue
            for a, k, _ in transactions(play):
                x, _, back = next(answers)
                if x == q:  # the receiver had none and kept them all
                    moves.append((q, a, k, by_p))
                elif back > k:  # the receiver paid back - k
                    moves += [(q, a, k - back, by_p), (p, a, back, by_q)]
                else:  # face up to a receiver with none: one comes back, of two it keeps one
                    moves.append((p, a, 1, by_q))
                    if k == 2:
                        next(answers)
                        moves.append((q, a, 1, by_p))
        learn(known, n, moves)
    log.clear()


def learn(known: list[dict[int, int]], n: int, moves: list[tuple[int, int, int, int]]) -> None:
    """What each player now knows the others hold at least, after one turn of passes.

    ``moves`` are (holder, asset, parts gained or lost, the other party).
    The two parties of a pass see its faces; everyone sees how many cards
    move, and the faces of a face-up pass (witness TABLE), so also what its
    answer moved: the cards that come back are parts of the asset shown.
    So x's lower bound on q's parts of asset a falls by every card q lost
    that x did not see (it might have been an a) and by the a's x saw q
    lose, floored at 0, and then rises by the a's x saw q gain.
    """
    lost = [0] * n
    seen_lost: dict[tuple[int, int], dict[int, int]] = {}
    seen_gained: dict[tuple[int, int], dict[int, int]] = {}
    for holder, a, change, witness in moves:
        if change < 0:
            lost[holder] -= change
        seen = seen_lost if change < 0 else seen_gained
        for x in (range(n) if witness == TABLE else (witness,)):
            if x != holder:
                row = seen.setdefault((x, holder), {})
                row[a] = row.get(a, 0) + abs(change)
    for x in range(n):
        for q in range(n):
            old = known[x * n + q]
            gained = seen_gained.get((x, q))
            if q == x or not (old or gained):
                continue
            saw = seen_lost.get((x, q), {})
            unseen = lost[q] - sum(saw.values())
            new = {}
            for a, c in old.items():
                c -= unseen + saw.get(a, 0)
                if c > 0:
                    new[a] = c
            for a, g in (gained or {}).items():
                new[a] = new.get(a, 0) + g
            known[x * n + q] = new


def transactions(action: Sequence) -> tuple[tuple[int, int, bool], ...]:
    """(asset, cards, face up) of each answer a play (a ``Pass``) asks for."""
    cards = action[0]
    if not cards:
        return ()
    if len(cards) == 2 and cards[0] != cards[1]:
        return ((cards[0], 1, False), (cards[1], 1, False))
    return ((cards[0], len(cards), action[1]),)
