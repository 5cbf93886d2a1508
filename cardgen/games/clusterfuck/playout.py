"""Clusterfuck played at random, fast: a uniform random action drawn without listing the legal
ones, and whole random games (the playtest's all-random runs) played out in locals.

``_play_round_out`` is a second copy of the rules of a trick and a demand (``rules.py``'s step
code, inlined): it plays the tricks of a round in locals with rank bitmasks. It stays because the
one copy was measured too slow: a playout that drove the step code itself (the same draws
made through ``_put_down``, ``_pass``, ``_demand`` and ``_answer``, with the rank bitmasks kept in
the state) played 370 random 8-player games per CPU-second in ``bench/playtest.py``, this copy
570, where the target is 500. It makes the moves the step code makes from the same draws, and
``tests/test_clusterfuck_speed.py`` holds the two equal game by game, move by move, over many
seeds, player counts and options.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from itertools import compress
from operator import getitem

from ..base import IllegalAction
from .cards import (
    _FOLLOWS,
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
)
from .rules import (
    ANSWER_DEMAND,
    ASSIGN_STATUS,
    CHOOSE_DEMAND,
    GIVING_BACK,
    KEEP_STATUS,
    OVER,
    PLAY,
    ClusterfuckState,
    _demander_wins,
)

#: the rank indices, low to high
_RANK_INDICES = range(len(RANKS))
#: all the ranks' bits in the playout's rank bitmasks (``_rank_masks``)
_ALL_RANKS = (1 << len(RANKS)) - 1
#: ``_rank_masks`` sums a hand's four masks in one go, mask c in the 16 bits from 16 * (c - 1):
#: ``_LANE_BITS[r][h]`` is what h cards of rank r add, rank r's bit in the first h lanes
_LANE = 16
_LANE_BITS = [[sum(1 << (_LANE * k + r) for k in range(h)) for h in range(len(SUITS) + 1)] for r in range(len(RANKS))]


def random_action(state: ClusterfuckState, player: int, rng: random.Random) -> int:
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


def random_playout(state: ClusterfuckState, rng: random.Random, max_moves: int, branching: list[int]) -> int:
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
    state.seen_in_hand = None
    state._beats = state._dealing = None
    random_, note = rng.random, branching.append
    moves = 0
    while moves < max_moves:
        phase = state.phase
        if phase == OVER:
            break
        if phase == PLAY and state.plays_forced:
            moves = _play_round_out(state, random_, note, moves, max_moves)
        elif phase >= KEEP_STATUS:
            moves = _play_between_rounds(state, random_, note, moves, max_moves)
        else:
            note(state.num_legal_actions())
            state.apply_action(random_action(state, state.player, rng))
            moves += 1
    return moves

def _play_between_rounds(state: ClusterfuckState, random_: Callable[[], float], note: Callable[[int], None],
                         moves: int, max_moves: int) -> int:
    """``random_playout``'s moves between rounds, until the next round's play or until the moves
    run out: the Magnate keeping and assigning a status card, the exchange winners giving cards
    back, each drawn as ``random_action`` draws it and made unchecked."""
    while moves < max_moves:
        phase = state.phase
        if phase == KEEP_STATUS:
            count = state.n - 1
            state._keep(KEEP + 1 + int(random_() * count))
        elif phase == ASSIGN_STATUS:
            numbers, targets = state.unassigned(), state.assign_targets()
            count = 1 + len(targets) * len(numbers)
            i, target = int(random_() * count), -1
            if i:
                q, k = divmod(i - 1, len(numbers))
                target = targets[q]
                state.status[target] = numbers.pop(k)
            state._deal_statuses(target, numbers)
        elif phase == GIVING_BACK:
            ranks = list(compress(_RANK_INDICES, state.hands[state.player]))  # the ranks held
            count = len(ranks)
            state._hand_back(ranks[int(random_() * count)])
        else:
            break
        note(count)
        moves += 1
    return moves

def _play_round_out(state: ClusterfuckState, random_: Callable[[], float], note: Callable[[int], None],
                    moves: int, max_moves: int) -> int:
    """``random_playout``'s tricks and demands, from a play to the end of the round (the next
    deal is ``_end_round``'s) or until the moves run out; the state is written back.

    Play runs in locals: ``masks[c][p]`` has bit r set when ``p`` holds ``c`` or more cards of
    rank r, so whether and how ``p`` can follow is a shift and a bit count, and ``after[q]`` is
    the next seat in the round after ``q`` (and ``before[q]`` the one before), so the turn skips
    those who went out; a trick is over when the turn has passed ``last``, the one before its
    winner, so passes are counted only where play stops. Each pass of the outer loop is a trick
    and the demand its winner may make, each pass of the inner one a play or a pass.
    """
    n, hands, held, out, played = state.n, state.hands, state.held, state.out, state.played
    played_by, status, known = state.played_by, state.status, state.known
    demander_wins = _demander_wins_table(n)
    powers = state.game.status_powers
    masks = _rank_masks(hands)
    held_one = masks[1]
    after, before = [0] * n, [0] * n
    ring = state.order if state.active == n else [q for q in state.order if not out[q]]
    prev = ring[-1]
    for q in ring:
        after[prev], before[q], prev = q, prev, q
    r, c, winner, active = state.trick_rank, state.trick_count, state.trick_winner, state.active
    if out[winner]:  # the trick's winner went out: its links stay, to the players round it
        nxt = state._next_active(winner)
        after[winner], before[winner] = nxt, before[nxt]
    # p leads (no trick yet, c == 0) or, once there is one, is the last to have played (the
    # trick's winner); q is to follow it, and can beat it (the turn skips those who cannot)
    q = state.player
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
                    state.finish.append(p)
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
        if not powers:  # traditional Asshole: no demands
            continue
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
    state.demands += demands
    state.refused += refused
    state.reversed += reversed_
    state.protected += protected
    state.named += named
    state.named_missing += named_missing
    passes = 0
    if c and not round_over:  # stopped in a trick: all from the winner's next to q have passed
        t = after[winner]
        while t != q:
            passes += 1
            t = after[t]
    state.trick_rank, state.trick_count, state.trick_winner, state.passes = r, c, winner, passes
    state.active, state.target, state.demand_rank = active, target, demand_rank
    if round_over:
        state._end_round()
    elif phase == PLAY:
        state.phase, state.player = PLAY, q if c else p
    else:
        state.phase, state.player = phase, winner if phase == CHOOSE_DEMAND else target
    return moves


@cache
def _demander_wins_table(n: int) -> list[list[bool]]:
    """``_demander_wins`` for every pair of statuses at ``n`` players, looked up as [demander][target]."""
    return [[_demander_wins(demander, target, n) for target in range(n + 1)] for demander in range(n + 1)]


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

