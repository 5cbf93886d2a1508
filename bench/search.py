"""Search speed: MCTS simulations per CPU-second per game at mcts:1000, beside OpenSpiel's Python MCTS.

Run from the repository root:

    .venv/bin/python bench/search.py                  # every registered game, 4 decisions each
    .venv/bin/python bench/search.py --decisions 10 --only common-carrier

Each game's figure times ``--decisions`` mcts:1000 decisions at positions reached by seeded random
play (the same positions every run), in this one process, in CPU seconds (``time.process_time``),
so the figures are per core and hold on a shared machine. A last figure plays the first
``--game-moves`` moves of one game with every seat searching at mcts:1000 through the playtest's
policy (where the search keeps its tree from one of a player's moves to the next) and counts the
simulations it runs, not those it inherits.

When ``open_spiel`` is importable (it is not a dependency: ``pip install open_spiel`` into the venv
to compare), the same run times OpenSpiel's Python ``MCTSBot`` with a random-rollout evaluator at
1,000 simulations on connect four, and prints each game's figure as a ratio of it. Target (issue 25):
at least 10,000 simulations a CPU-second at mcts:1000 in every game.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gameset import bench_games, decision_positions  # bench/gameset.py

from cardgen.games.base import SIMULTANEOUS, Game
from cardgen.search import Budget, Search, can_search, mcts_action

TARGET = 10_000
SIMULATIONS = 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=4, help="mcts:1000 decisions timed per game (default 4)")
    parser.add_argument("--game-moves", type=int, default=6,
                        help="moves of a whole mcts:1000 game timed per game (default 6; 0 skips)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", help="one game id")
    args = parser.parse_args(argv)

    peer = _open_spiel_rate(args.decisions, args.seed)
    if peer is None:
        print("open_spiel is not importable: no OpenSpiel figure (pip install open_spiel into the venv)")
    else:
        print(f"OpenSpiel Python MCTSBot, connect_four, {SIMULATIONS} simulations, random rollouts: "
              f"{peer:,.0f} simulations/CPU-s")
    print(f"\n{'game':28} {'decisions':>9} {'sims/CPU-s':>11} {'in play':>9} {'vs OpenSpiel':>13} {'target':>7}")
    for name, game in bench_games(args.only, width=28):
        rate = _decision_rate(game, args.decisions, args.seed)
        if rate is None:
            print(f"{name:28} cannot be searched (no determinize)")
            continue
        in_play = _play_rate(game, args.game_moves, args.seed) if args.game_moves > 0 else None
        label = f"{name}, {game.num_players} players"
        ratio = f"{rate / peer:12.2f}x" if peer else f"{'':>13}"
        played = f"{in_play:9,.0f}" if in_play is not None else f"{'':>9}"
        print(f"{label:28} {args.decisions:9d} {rate:11,.0f} {played} {ratio} {TARGET:7,d}")
    return 0


def _decision_rate(game: Game, decisions: int, seed: int) -> float | None:
    """Simulations per CPU-second of mcts:1000 decisions at positions spread over seeded random games."""
    if not can_search(game.new_initial_state(random.Random(seed))):
        return None
    cpu = 0.0
    for done, (state, player) in zip(range(decisions), decision_positions(game, seed, 30)):
        started = time.process_time()
        mcts_action(game, state, player, random.Random(done), Budget(simulations=SIMULATIONS))
        cpu += time.process_time() - started
    return decisions * SIMULATIONS / max(cpu, 1e-9)


def _play_rate(game: Game, moves: int, seed: int) -> float:
    """Simulations run per CPU-second over the first ``moves`` moves of one game, every seat at
    mcts:1000, each seat's search told the moves since its last (so it keeps its tree where the game
    allows, as in a playtest); an inherited tree's simulations are not counted again."""
    state = game.new_initial_state(random.Random(f"{seed}:play"))
    rng = random.Random(seed)
    searches = [Search(game, p, Budget(simulations=SIMULATIONS)) for p in range(game.num_players)]
    history: list[object] = []
    seen: dict[int, int] = {}

    def choose(player: int) -> object:
        since = history[seen[player]:] if player in seen else None
        seen[player] = len(history)
        return searches[player].choose(state, rng, since)

    started = time.process_time()
    for _ in range(moves):
        if state.is_terminal():
            break
        mover = state.current_player()
        if mover == SIMULTANEOUS:
            action: object = tuple(choose(p) for p in range(game.num_players))
        else:
            action = choose(mover)
        state.apply_action(action)
        history.append(action)
    cpu = max(time.process_time() - started, 1e-9)
    return sum(s.simulations for s in searches) / cpu


def _open_spiel_rate(decisions: int, seed: int) -> float | None:
    """Simulations per CPU-second of OpenSpiel's Python MCTS on connect four, at positions reached by
    a few seeded random moves; None when open_spiel is not installed."""
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        return None
    game = pyspiel.load_game("connect_four")
    rng = random.Random(seed)
    cpu = 0.0
    for i in range(decisions):
        state = game.new_initial_state()
        for _ in range(rng.randrange(0, 12)):
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            state = game.new_initial_state()
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed + i))
        bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=SIMULATIONS, evaluator=evaluator,
                           random_state=np.random.RandomState(seed + i), solve=False)
        started = time.process_time()
        bot.step(state)
        cpu += time.process_time() - started
    return decisions * SIMULATIONS / max(cpu, 1e-9)


if __name__ == "__main__":
    raise SystemExit(main())
