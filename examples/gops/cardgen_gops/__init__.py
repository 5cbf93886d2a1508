"""Goofspiel (GOPS, the Game of Pure Strategy): a cardgen game plug-in.

It has the shape of cardgen's own games: ``rules.py`` (the state machine), ``policies.py`` (how a
greedy player judges a position), ``printing.py`` (the engine for a built deck and the deck's
structural checks), and here the declaration, ``GAME``, that pyproject.toml's entry point names.
See docs/writing-a-game.md in cardgen's repository.
"""
from __future__ import annotations

from cardgen.games import GameInfo

from .printing import check_deck, game_from_deck
from .rules import OPTION_SPECS, GopsGame, GopsState

__all__ = ["GAME", "OPTION_SPECS", "GopsGame", "GopsState", "check_deck", "game_from_deck"]

GAME = GameInfo(id="gops", name="Goofspiel", engine=GopsGame, from_deck=game_from_deck, check_deck=check_deck,
                players="2–4")
