"""Playtest speed: games and moves per CPU-second, per game and policy, and MCTS time per decision.

Run from the repository root:

    .venv/bin/python bench/playtest.py                 # full run
    .venv/bin/python bench/playtest.py --big 0 --mcts-moves 0   # engines only

Every case plays in this one process and is timed in CPU seconds (``time.process_time``), so the
figures are per core and hold on a shared machine. The targets, per core (issue 13's; Common
Carrier's random target is issue 21's, what its one Python path does since the C copy went):

  common-carrier        random 1,400 games/s, greedy 50 games/s
  dotcombust, 4 players random 3,000 games/s
  clusterfuck, 8 players random 500 games/s
  mcts:1000             under 1 s of CPU per decision in every game

The MCTS figure times ``--mcts-moves`` decisions per game at 1,000 simulations, from positions
reached by random play (seeded), and reports the mean and the slowest. A last ``--big``-game
Common Carrier run with ``--jobs`` processes is timed on the wall clock (the design asks for 10,000
games in under 30 s with 2 jobs).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gameset import bench_games, decision_positions, default_game  # bench/gameset.py

from cardgen.games.base import Game
from cardgen.playtest import run_playtest

#: the player counts the targets name (others play at the engine's default)
PLAYERS = {"dotcombust": 4, "clusterfuck": 8}
TARGETS = {("common-carrier", "random"): 1400, ("common-carrier", "greedy"): 50,
           ("dotcombust", "random"): 3000, ("clusterfuck", "random"): 500}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="random games per game (default 300)")
    parser.add_argument("--greedy-games", type=int, default=30, help="greedy games per game (default 30)")
    parser.add_argument("--mcts-moves", type=int, default=5,
                        help="mcts:1000 decisions timed per game (default 5; 0 skips)")
    parser.add_argument("--big", type=int, default=10_000,
                        help="games in the Common Carrier multi-process run (0 skips it)")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the big run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", help="one game id")
    args = parser.parse_args(argv)

    print(f"{'game':24} {'policy':8} {'games':>6} {'games/CPU-s':>12} {'moves/CPU-s':>12} {'target':>8}")
    for name, game in bench_games(args.only, PLAYERS):
        label = f"{name}, {game.num_players} players"
        variants = [(label, game)]
        if name == "common-carrier":
            variants.append(("  gray_rule=true", type(game)(options={"gray_rule": True})))
        for label, variant in variants:
            for policy, count in (("random", args.games), ("greedy", args.greedy_games)):
                if count <= 0:
                    continue
                started = time.process_time()
                report = run_playtest(variant, count, args.seed, policy=policy)
                cpu = max(time.process_time() - started, 1e-9)
                moves = report["mean_length"] * count
                target = TARGETS.get((name, policy)) if variant is game else None
                print(f"{label:24} {policy:8} {count:6d} {count / cpu:12.1f} {moves / cpu:12.0f} "
                      f"{target or '':>8}")
        if args.mcts_moves > 0:
            mean, worst = _mcts_seconds(game, args.mcts_moves, args.seed)
            if mean is not None:
                print(f"{'':24} mcts:1000 CPU s a decision: mean {mean:.2f}, slowest {worst:.2f} (target < 1)")
    if args.big > 0 and not args.only:
        game = default_game("common-carrier", PLAYERS)
        if game is not None:
            started = time.perf_counter()
            report = run_playtest(game, args.big, args.seed, jobs=args.jobs)
            seconds = time.perf_counter() - started
            print(f"\ncommon-carrier, {args.big} random games, jobs={args.jobs}: {seconds:.1f} s wall "
                  f"({report['games_per_second']:.0f} games/s, {report['moves_per_second']:.0f} moves/s)")
    return 0


def _mcts_seconds(game: Game, moves: int, seed: int) -> tuple[float | None, float]:
    """CPU seconds of mcts:1000 decisions at positions spread over seeded random games."""
    from cardgen.search import Budget, can_search, mcts_action

    if not can_search(game.new_initial_state(random.Random(seed))):
        return None, 0.0
    times = []
    for state, player in decision_positions(game, seed, 40):
        if len(times) == moves:
            break
        started = time.process_time()
        mcts_action(game, state, player, random.Random(len(times)), Budget(simulations=1000))
        times.append(time.process_time() - started)
    return sum(times) / len(times), max(times)


if __name__ == "__main__":
    raise SystemExit(main())
