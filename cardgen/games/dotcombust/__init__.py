"""dotCOMbust (3+ players): creditors pass asset parts around until someone runs dry.

The game, declared once (``GAME``), and its public names. Its parts, each importing only those
before it:

- ``assets``: the deck's game data (each card's asset and part list), the bundled deck's assets;
- ``knowledge``: what each player knows the others hold, learnt from the passes it saw;
- ``rules``: the state machine, ``DotcombustRules`` and ``DotcombustState``, its plays and options;
- ``policies``: random play (and a fast whole-game playout), the greedy player, the heuristic and
  the search's evaluation, and ``DotcombustGame``, the rules with their players (the engine);
- ``printing``: the engine read from a deck, the deck's checks, the smaller deck printed.
"""
from __future__ import annotations

from .. import GameInfo
from .assets import bundled_assets
from .policies import DotcombustGame
from .printing import FULL_DECK_CARDS, check_deck, customise, game_from_deck
from .questions import QUESTIONS
from .rules import (
    NOTHING_TO_SHOW,
    OPTION_SPECS,
    SIT_OUT,
    DotcombustRules,
    DotcombustState,
    Pass,
    Show,
    parse_options,
)

GAME = GameInfo(id="dotcombust", name="dotCOMbust", engine=DotcombustGame, from_deck=game_from_deck,
                check_deck=check_deck, customise=customise, players="3+", questions=QUESTIONS)

__all__ = [
    "FULL_DECK_CARDS",
    "GAME",
    "NOTHING_TO_SHOW",
    "OPTION_SPECS",
    "SIT_OUT",
    "DotcombustGame",
    "DotcombustRules",
    "DotcombustState",
    "Pass",
    "Show",
    "bundled_assets",
    "check_deck",
    "customise",
    "game_from_deck",
    "parse_options",
]
