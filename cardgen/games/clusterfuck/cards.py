"""Clusterfuck's cards and actions: ranks and suits, a hand as a count per rank, the deal's
shuffle, and the numbers that name every action (with their words, ``action_to_string``).

Suits never matter to the rules, so a hand is a count per rank and a state stays small and cheap
to clone. Everything here is data and pure functions; ``rules.py`` plays by them.
"""
from __future__ import annotations

import _random

# ---------------------------------------------------------------- cards

#: rank names from low to high; a hand is a list of counts in this order
RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
SUITS = ("spades", "hearts", "diamonds", "clubs")
TWO = RANKS.index("2")
DECK_SIZE = len(RANKS) * len(SUITS)

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
