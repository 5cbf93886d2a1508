"""Rules knowledge, one module per game.

Each game module exposes:

- a ``Game`` subclass (see ``base.py``) with its rule options;
- ``game_from_deck(deck, options) -> Game``: the engine for a built deck;
- ``check_deck(deck) -> list[Finding]``: the game's structural checks.

Modules are imported on first use so ``cardgen build`` does not pay for
engines it does not run.
"""
from __future__ import annotations

import importlib
from types import ModuleType

#: the policies every game can be played with (``--policy``, ``--vs``)
POLICIES = ("random", "greedy")

GAME_MODULES = {
    "common-carrier": "cardgen.games.common_carrier",
    "dotcombust": "cardgen.games.dotcombust",
    "clusterfuck": "cardgen.games.clusterfuck",
}


def game_module(name: str) -> ModuleType | None:
    """The rules module of game ``name``, or None for a game without one."""
    path = GAME_MODULES.get(name)
    return importlib.import_module(path) if path else None
