"""Clusterfuck: Asshole (President) with secret Social Status cards, for 5 to 8 players or more.

The game is one package: ``cards`` (ranks, hands, the action numbers), ``rules`` (the state
machine: the table and a position's moves), ``playout`` (random play, fast), ``policies`` (greedy,
the search's rollouts and evaluation, the heuristic, and ``ClusterfuckGame``, the rules with their
policies, which the flows play) and ``printing`` (the status cards, the printed deck and its
checks). Each imports only the ones before it; this module declares the game.
"""
from __future__ import annotations

from .. import GameInfo
from .cards import (
    ASSIGN,
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
    action_to_string,
    assign_action,
    demand_action,
    give_back_action,
    keep_action,
    play_action,
)
from .policies import ClusterfuckGame
from .printing import CARD_KINDS, check_deck, customise, game_from_deck, status_cards, status_title
from .questions import QUESTIONS
from .rules import DEMANDER_GIVES, PROTECTED, TARGET_GIVES, ClusterfuckRules, ClusterfuckState, read_options

GAME = GameInfo(id="clusterfuck", name="Clusterfuck", engine=ClusterfuckGame, from_deck=game_from_deck,
                check_deck=check_deck, customise=customise, card_kinds=CARD_KINDS, players="5–8+",
                questions=QUESTIONS)

__all__ = [
    "ASSIGN",
    "COMPLY",
    "DEMAND",
    "DEMANDER_GIVES",
    "GAME",
    "GIVE_BACK",
    "KEEP",
    "NO_ASSIGN",
    "NO_DEMAND",
    "PASS",
    "PROTECTED",
    "RANKS",
    "REFUSE",
    "SUITS",
    "TARGET_GIVES",
    "ClusterfuckGame",
    "ClusterfuckRules",
    "ClusterfuckState",
    "action_to_string",
    "assign_action",
    "check_deck",
    "demand_action",
    "game_from_deck",
    "give_back_action",
    "keep_action",
    "play_action",
    "read_options",
    "status_cards",
    "status_title",
]
