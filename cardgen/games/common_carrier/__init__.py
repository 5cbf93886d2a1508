"""Common Carrier (2 players): two carriers lay network cards into a 5 x 5 service area.

The game, declared once (``GAME``), and its public names. Its parts, each importing only those
before it:

- ``board``: the cards' edge bits, the board as bit sets, the win measure;
- ``plays``: counting, listing and drawing a position's legal plays (a part of the state);
- ``rules``: the state machine, ``CommonCarrierRules`` and ``CommonCarrierState``;
- ``policies``: the greedy player, the heuristic and the search's evaluation;
- ``game``: ``CommonCarrierGame``, the rules with their policies (the engine);
- ``printing``: the engine read from a deck, the deck's checks, the gray cards printed;
- ``questions``: the designers' questions `cardgen analyze` answers.
"""
from __future__ import annotations

from .. import BUNDLED_SETTINGS, GameInfo
from .board import BASIC_PATTERNS, BOTTOM, GOOSE_MASK, LEFT, PBX_MASK, RIGHT, TOP, canonical, turned
from .game import CommonCarrierGame
from .printing import (
    check_deck,
    customise,
    find_winning_layout,
    game_from_deck,
    parse_gray,
    target_reachable,
)
from .questions import QUESTIONS
from .rules import OPTION_SPECS, REFERENCE_READINGS, CommonCarrierRules, CommonCarrierState, standard_printing

GAME = GameInfo(id="common-carrier", name="Common Carrier", engine=CommonCarrierGame, from_deck=game_from_deck,
                check_deck=check_deck, customise=customise, build_settings=BUNDLED_SETTINGS["common-carrier"],
                players="2", questions=QUESTIONS)

__all__ = [
    "BASIC_PATTERNS",
    "BOTTOM",
    "GAME",
    "GOOSE_MASK",
    "LEFT",
    "OPTION_SPECS",
    "PBX_MASK",
    "REFERENCE_READINGS",
    "RIGHT",
    "TOP",
    "CommonCarrierGame",
    "CommonCarrierRules",
    "CommonCarrierState",
    "canonical",
    "check_deck",
    "customise",
    "find_winning_layout",
    "game_from_deck",
    "parse_gray",
    "standard_printing",
    "target_reachable",
    "turned",
]
