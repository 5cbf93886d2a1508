"""The registered games, as the benchmarks play them (shared by bench/playtest.py and bench/search.py)."""
from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgen.games import game_class, registry
from cardgen.games.base import Game


def default_game(name: str, players: Mapping[str, int] | None = None, width: int = 24) -> Game | None:
    """Game ``name``'s engine at its player count in ``players`` (else its default), or None with a
    message when it cannot be made."""
    try:
        cls = game_class(name)
        if cls is None:
            return None
        return cls(players[name]) if players and name in players else cls()
    except Exception as exc:
        print(f"{name:{width}} skipped: {exc.__class__.__name__}: {exc}")
        return None


def bench_games(only: str | None = None, players: Mapping[str, int] | None = None,
                width: int = 24) -> Iterator[tuple[str, Game]]:
    """(name, engine) of every registered game, or of ``only``, skipping those that cannot be made."""
    for name in registry():
        if only and name != only:
            continue
        game = default_game(name, players, width)
        if game is not None:
            yield name, game
