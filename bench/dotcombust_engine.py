"""How fast the dotCOMbust engine plays whole games, random and greedy.

Run: .venv/bin/python bench/dotcombust_engine.py [--games 1000] [--players 4]
     [--option both_barrels=true ...]
The target is 200 four-player random games per second per core; one process,
so it measures one core. A turn is one joint move (everyone passes at once);
a play is one player's part of it.
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

from cardgen.games.dotcombust import DotcombustGame  # noqa: E402

#: greedy players can stall (mirror-image passes); the bench stops them here
MAX_TURNS = 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    options = dict(pair.split("=", 1) for pair in args.option)
    game = DotcombustGame(args.players, options=options)
    print(f"dotcombust engine, {args.players} players, {game.total_cards} cards, "
          f"options {options or 'none'}, {args.games} games per policy")
    for policy in ("random", "greedy"):
        games = args.games if policy == "random" else max(1, args.games // 5)
        games_per_s, turns_per_s, plays_per_s, turns, stalled = bench(game, policy, games)
        print(f"{policy:>6}: {games_per_s:8.1f} games/s  {turns_per_s:9.0f} turns/s  "
              f"{plays_per_s:9.0f} plays/s  {turns:6.1f} turns/game  "
              f"{stalled} of {games} stopped at {MAX_TURNS} turns")


def bench(game: DotcombustGame, policy: str, games: int):
    """Games, turns and plays per second, mean turns and stalled games."""
    turns = stalled = 0
    players = range(game.num_players)
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state(random.Random(seed))
        while not state.is_terminal() and state.turn < MAX_TURNS:
            if policy == "random":
                joint = tuple(rng.choice(state.legal_actions(p)) for p in players)
            else:
                joint = tuple(game.greedy_action(state, p, rng) for p in players)
            state.apply_action(joint)
        turns += state.turn
        stalled += not state.is_terminal()
    elapsed = time.perf_counter() - start
    return (games / elapsed, turns / elapsed, turns * game.num_players / elapsed,
            turns / games, stalled)


if __name__ == "__main__":
    main()
