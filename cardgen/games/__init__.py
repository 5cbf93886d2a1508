"""Rules knowledge, one module per game.

Each game module exposes:

- a ``Game`` subclass (see ``base.py``) with its rule options, named in ``GAMES``;
- ``game_from_deck(deck, options) -> Game``: the engine for a built deck;
- ``check_deck(deck) -> list[Finding]``: the game's structural checks.

Modules are imported on first use so ``cardgen build`` does not pay for
engines it does not run.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .base import Game

#: the policies every game can be played with (``--policy``, ``--vs``)
POLICIES = ("random", "greedy")

#: each bundled game's rules module and Game class, as "module:Class"
GAMES = {
    "common-carrier": "cardgen.games.common_carrier:CommonCarrierGame",
    "dotcombust": "cardgen.games.dotcombust:DotcombustGame",
    "clusterfuck": "cardgen.games.clusterfuck:ClusterfuckGame",
}


def game_module(name: str) -> ModuleType | None:
    """The rules module of game ``name``, or None for a game without one."""
    target = GAMES.get(name)
    return importlib.import_module(target.partition(":")[0]) if target else None


def game_class(name: str) -> type[Game] | None:
    """The Game class of game ``name`` (its options, its engine), or None."""
    module = game_module(name)
    return getattr(module, GAMES[name].partition(":")[2]) if module else None
