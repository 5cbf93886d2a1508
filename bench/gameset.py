"""The registered games, as the benchmarks play them (shared by bench/playtest.py and bench/search.py)."""
from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import random

from cardgen.games import game_class, registry
from cardgen.games.base import SIMULTANEOUS, Game, State


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


def random_move(game: Game, state: State, rng: random.Random) -> None:
    """One seeded random move (a joint one in a simultaneous game)."""
    mover = state.current_player()
    players = range(game.num_players) if mover == SIMULTANEOUS else [mover]
    picks = [rng.choice(state.legal_actions(p)) for p in players]
    state.apply_action(tuple(picks) if mover == SIMULTANEOUS else picks[0])


def decision_positions(game: Game, seed: int, walk: int) -> Iterator[tuple[State, int]]:
    """(state, player) to decide for, endlessly: positions reached by up to ``walk`` seeded random moves
    from the last, a new seeded game each time one ends (the same positions every run)."""
    rng = random.Random(seed)
    state = game.new_initial_state(rng)
    game_no = 0
    while True:
        for _ in range(rng.randrange(0, walk)):
            if state.is_terminal():
                break
            random_move(game, state, rng)
        if state.is_terminal():
            game_no += 1
            state = game.new_initial_state(random.Random(f"{seed}:{game_no}"))
            continue
        mover = state.current_player()
        yield state, 0 if mover == SIMULTANEOUS else mover
