"""How fast the Clusterfuck engine plays whole games, random and greedy.

Run: .venv/bin/python bench/clusterfuck_engine.py [--games 200] [--players 8]
The target is 20 full eight-player games (to 5 Magnate rounds) per second per
core under random play; one process, so it measures one core.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

try:
    import cardgen  # noqa: F401
except ImportError:  # run from a checkout without an installed package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cardgen.games.clusterfuck import ClusterfuckGame  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--rounds-to-win", type=int, default=5)
    args = parser.parse_args()
    game = ClusterfuckGame(args.players, {"rounds_to_win": args.rounds_to_win})
    print(f"clusterfuck engine, {args.players} players, {args.rounds_to_win} Magnate rounds to win, "
          f"{args.games} games per policy")
    for policy in ("random", "greedy"):
        games_per_s, moves_per_s, rounds = bench(game, policy, args.games)
        print(f"{policy:>6}: {games_per_s:8.1f} games/s  {moves_per_s:10.0f} moves/s  "
              f"{rounds:5.1f} rounds/game")


def bench(game: ClusterfuckGame, policy: str, games: int) -> tuple[float, float, float]:
    """Games per second, moves per second and mean rounds of ``games`` seeded games."""
    moves = rounds = 0
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state(random.Random(seed))
        while not state.is_terminal():
            if policy == "random":
                action = rng.choice(state.legal_actions())
            else:
                action = game.greedy_action(state, state.current_player(), rng)
            state.apply_action(action)
            moves += 1
        rounds += state.rounds_played
    elapsed = time.perf_counter() - start
    return games / elapsed, moves / elapsed, rounds / games


if __name__ == "__main__":
    main()
