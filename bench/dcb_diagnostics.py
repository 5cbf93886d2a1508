"""dotCOMbust search diagnostics: what would make a search beat the greedy player?

    .venv/bin/python bench/dcb_diagnostics.py dealt 100 --games 40      # a flat search over 100 deals
    .venv/bin/python bench/dcb_diagnostics.py seeing 30 --games 40      # the same, seeing every hand

Not a policy cardgen ships: a yardstick. The flat search tries every legal play of the player on
each of DEALS positions (``determinize``, or with ``seeing`` the true position: a cheat), the
others playing the greedy policy, and keeps the play with the best mean judgement
(``DotcombustGame.evaluate``: the player's gain from its own pass). Each play meets the same deals
(common random numbers), so plays are compared on equal luck. It plays greedy in a ladder
(cardgen.ladder, seat-balanced, 4 players) and prints the pair's result and the CPU seconds.

Measured (seed 1) when a face-up pass between two others was seen by the rest only as a number of
cards (before commit 008dc32): seeing every hand, 30 deals, 40 games a seating: search 71, greedy 5;
dealing the hidden hands, 100 deals: search 37, greedy 36. What the hidden hands hold was what a
search lacked to beat greedy; with face-up passes seen by the whole table, the deals tell it enough
for ``mcts:1000`` to beat greedy (docs/rules-readings.md).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cardgen.search as search
from cardgen.games.dotcombust.policies import DotcombustGame
from cardgen.ladder import run_ladder


def flat_search(deals: int, seeing: bool):
    """An ``mcts_action`` stand-in: every own play judged on the same ``deals`` positions."""

    def choose(game, state, player, rng, budget=None, exploration=None):
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        n = game.num_players
        totals = [0.0] * len(legal)
        for _ in range(deals):
            deal = _seen(state) if seeing else state.determinize(player, rng)
            joint = [None if q == player else game.greedy_action(deal, q, rng) for q in range(n)]
            for i, action in enumerate(legal):
                trial = deal.clone()
                joint[player] = action
                trial.apply_action(tuple(joint))
                totals[i] += game.evaluate(trial)[player]
        return legal[totals.index(max(totals))]
    return choose


def _seen(state):
    """The true position, marked as a search position as ``determinize`` marks its deals."""
    game = state.game
    deal = state._copy()
    deal._searched_from = [game.value(deal, q) for q in range(game.num_players)]
    deal._incoming = [0.0] * game.num_players
    return deal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("dealt", "seeing"))
    parser.add_argument("deals", type=int, help="positions each play is judged on, a move")
    parser.add_argument("--games", type=int, default=40, help="games on each seating (default 40)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    # the ladder's mcts seats move by the flat search (run in this process: --jobs 1)
    search.mcts_action = flat_search(args.deals, args.mode == "seeing")
    start = time.process_time()
    pair = run_ladder(DotcombustGame(4), ["greedy", "mcts:1"], args.games, args.seed, jobs=1)["pairs"][0]
    print(f"{args.mode}, {args.deals} deals, {args.games} games a seating, seed {args.seed}: "
          f"search {pair['b_wins']}, greedy {pair['a_wins']}, ties {pair['ties']}; greedy's score "
          f"{pair['a_score']:.0%} [{pair['wilson_low']:.0%}, {pair['wilson_high']:.0%}]; "
          f"{time.process_time() - start:.0f} CPU s")


if __name__ == "__main__":
    main()
