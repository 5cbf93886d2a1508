"""Information-set Monte Carlo tree search: the strong policy, for every engine that can determinize.

Single-observer IS-MCTS (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search",
2012). Each simulation samples a *determinization*: the real position with everything the searching
player cannot see dealt again at random (``State.determinize``). All determinizations walk one tree,
keyed by actions. A child is eligible only when its action is legal in this determinization, and
its exploration term counts how often it was *available*, not how often its parent was visited.
Simultaneous turns use decoupled UCT: each player picks its own part of the joint action by its own
statistics. Rollouts play uniformly random moves (the engine's fast ``random_action`` where it has
one), or the engine's own rollout policy where it has one (``Game.rollout_action``). A node keeps
the summed returns of every player and the player choosing there maximises their own mean, so the
search serves any number of players and any returns.

Why our own and not OpenSpiel's: pyspiel's IS-MCTS needs the game ported to its C++ API or
wrapped as a Python game with information-state strings and resampling hooks in its own terms,
and open_spiel has no wheel for every platform we support. The search needs one method from an
engine (``determinize``) and stays seeded: the same seed gives the same moves.
"""
from __future__ import annotations

import math
import random
import re
import time
from dataclasses import dataclass
from typing import Any

from .errors import CardgenError
from .games.base import SIMULTANEOUS, Game, State

#: simulations per move when ``mcts`` is named without a budget
DEFAULT_SIMULATIONS = 1000
#: the UCB exploration constant for returns in [0, 1]
EXPLORATION = 0.7
#: a rollout longer than this counts as a draw
MAX_ROLLOUT = 10_000
#: a guided search (a game with ``search_guided = True``) widens a node to about this many children
#: times the square root of its visits, best first by the game's heuristic
WIDENING = 1.0
#: ... and plays this many moves in its tree (its own move and the reply) before judging
GUIDED_DEPTH = 2
#: moves a rollout plays before asking a game that can judge positions (``Game.evaluate``); a game
#: may set its own as ``rollout_depth``
ROLLOUT_DEPTH = 4


@dataclass(frozen=True)
class Budget:
    """How much search a move gets: a number of simulations, or seconds of wall time."""

    simulations: int | None = DEFAULT_SIMULATIONS
    seconds: float | None = None

    def __str__(self) -> str:
        return f"{self.seconds:g}s" if self.seconds is not None else str(self.simulations)


def parse_budget(text: str) -> Budget:
    """``""`` (the default), ``2000`` simulations or ``0.5s`` of time per move."""
    text = text.strip()
    if not text:
        return Budget()
    match = re.fullmatch(r"([0-9]{1,7})", text)
    if match and int(text) >= 1:
        return Budget(simulations=int(text))
    match = re.fullmatch(r"([0-9]{1,4}(?:\.[0-9]{1,3})?)s", text)
    if match and float(match.group(1)) > 0:
        return Budget(simulations=None, seconds=float(match.group(1)))
    raise CardgenError(f"an mcts budget is a number of simulations (mcts:2000) or seconds (mcts:0.5s), "
                       f"got '{text}'")


def can_search(state: State) -> bool:
    """Whether the engine can deal a position again for a player (``State.determinize``)."""
    return state.determinize is not None


class _Node:
    """Statistics of one position in the tree: summed returns per player, visits, availability;
    at a simultaneous turn, per player, per own action: [visits, summed return, availability]."""

    __slots__ = ("avail", "children", "joint", "order", "totals", "visits")

    def __init__(self, players: int):
        self.children: dict[Any, _Node] = {}
        #: a guided root's legal actions, best first by the game's heuristic
        self.order: list[Any] | None = None
        self.visits = 0
        self.avail = 0
        self.totals = [0.0] * players
        self.joint: list[dict[Any, list[float]]] | None = None


def mcts_action(game: Game, state: State, player: int, rng: random.Random,
                budget: Budget = Budget(), exploration: float | None = None) -> Any:
    """The action (the player's own part at a simultaneous turn) the search likes best; the
    exploration constant is the game's own (``Game.exploration``) where it sets one."""
    determinize = state.determinize
    if determinize is None:
        raise CardgenError(f"{game.name or type(game).__name__}: the mcts policy needs the engine to "
                           f"deal hidden cards again (State.determinize); this engine does not")
    if exploration is None:
        exploration = EXPLORATION if game.exploration is None else game.exploration
    players = game.num_players
    root = _Node(players)
    guided = game.search_guided and state.current_player() != SIMULTANEOUS
    if guided:
        root.order = _ranked(game, state, player)
    deadline = time.perf_counter() + budget.seconds if budget.seconds is not None else None
    done = 0
    while True:
        if budget.simulations is not None and done >= budget.simulations:
            break
        if deadline is not None and done > 0 and time.perf_counter() >= deadline:
            break
        det = determinize(player, rng)
        if guided:
            _simulate_guided(game, det, root, rng, exploration)
        else:
            _simulate(game, det, root, rng, exploration)
        done += 1
    if root.joint is not None:
        own = root.joint[player]
        return max(own, key=lambda action: (own[action][0], own[action][1]))
    return max(root.children, key=lambda action: (root.children[action].visits,
                                                  root.children[action].totals[player]))


def _simulate(game: Game, det: State, root: _Node, rng: random.Random, exploration: float) -> None:
    """One walk down the tree, one new node, a random rollout, and the returns carried back up."""
    players = game.num_players
    path: list[_Node] = [root]
    joints: list[tuple[_Node, tuple]] = []
    node = root
    while not det.is_terminal():
        mover = det.current_player()
        if mover == SIMULTANEOUS:
            joint = _joint_choice(node, det, players, rng, exploration)
            joints.append((node, joint))
            det.apply_action(joint)
            child = node.children.get(joint)
            if child is None:
                node.children[joint] = child = _Node(players)
                path.append(child)
                break
            node = child
            path.append(node)
            continue
        legal = det.legal_actions(mover)
        untried = []
        for action in legal:
            child = node.children.get(action)
            if child is None:
                untried.append(action)
            else:
                child.avail += 1
        if untried:
            action = untried[rng.randrange(len(untried))]
            node.children[action] = child = _Node(players)
            child.avail = 1
            det.apply_action(action)
            path.append(child)
            break
        action = max(legal, key=lambda a: _ucb(node.children[a], mover, exploration))
        det.apply_action(action)
        node = node.children[action]
        path.append(node)
    returns = _rollout(game, det, rng)
    _back_up(path, returns)
    for visited, joint in joints:
        assert visited.joint is not None
        for p, action in enumerate(joint):
            stats = visited.joint[p][action]
            stats[0] += 1
            stats[1] += returns[p]


def _simulate_guided(game: Game, det: State, root: _Node, rng: random.Random, exploration: float) -> None:
    """One walk of a guided search: the searching player's move among the best few by the game's
    heuristic (more of them as the root is visited more: progressive widening), the reply among the
    opponent's best by the game's greedy policy in this deal and a few others, then a rollout as in
    the plain search (the game's judgement after its ``rollout_depth`` moves). Where a move has
    hundreds of plays, a plain search spreads 1,000 simulations over all of them and learns little
    of any; this one looks two moves deep at the plays worth it."""
    path: list[_Node] = [root]
    node = root
    for depth in range(GUIDED_DEPTH):
        if det.is_terminal():
            break
        mover = det.current_player()
        allowed = math.ceil(WIDENING * math.sqrt(node.visits + 1))
        if depth == 0:
            assert node.order is not None
            legal = node.order[:allowed]
        else:
            legal = det.legal_actions(mover)
        tried = [a for a in legal if a in node.children]
        for action in tried:
            node.children[action].avail += 1
        if len(tried) < min(allowed, len(legal)):
            if depth == 0:
                action = next(a for a in legal if a not in node.children)
            elif not node.children:
                action = _greedy_reply(game, det, mover, rng)
            else:
                untried = [a for a in legal if a not in node.children]
                action = untried[rng.randrange(len(untried))]
            node.children[action] = child = _Node(game.num_players)
            child.avail = 1
        else:
            action = max(tried, key=lambda a: _ucb(node.children[a], mover, exploration))
            child = node.children[action]
        det.apply_action(action)
        node = child
        path.append(node)
    _back_up(path, _rollout(game, det, rng))


def _back_up(path: list[_Node], returns: list[float]) -> None:
    """Count a walk's returns in every node it passed."""
    for visited in path:
        visited.visits += 1
        totals = visited.totals
        for p, value in enumerate(returns):
            totals[p] += value


def _ranked(game: Game, state: State, player: int) -> list[Any]:
    """``player``'s legal actions, best first by the game's heuristic one move ahead (ties in the
    engine's order)."""
    scored = []
    for i, action in enumerate(state.legal_actions(player)):
        trial = state.clone()
        trial.apply_action(action)
        scored.append((-game.heuristic(trial, player), i, action))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [action for _, _, action in scored]


def _greedy_reply(game: Game, det: State, mover: int, rng: random.Random) -> Any:
    greedy = game.greedy_action
    return greedy(det, mover, rng) if greedy is not None else _ranked(game, det, mover)[0]


def _ucb(child: _Node, mover: int, exploration: float) -> float:
    return child.totals[mover] / child.visits + exploration * math.sqrt(math.log(child.avail) / child.visits)


def _joint_choice(node: _Node, det: State, players: int, rng: random.Random, exploration: float) -> tuple:
    """Decoupled UCT: each player's own action by its own statistics, untried ones first."""
    if node.joint is None:
        node.joint = [{} for _ in range(players)]
    joint = []
    for p in range(players):
        own = node.joint[p]
        legal = det.legal_actions(p)
        untried = []
        for action in legal:
            stats = own.get(action)
            if stats is None:
                own[action] = stats = [0, 0.0, 0]
            stats[2] += 1
            if stats[0] == 0:
                untried.append(action)
        if untried:
            joint.append(untried[rng.randrange(len(untried))])
        else:
            joint.append(max(legal, key=lambda a: own[a][1] / own[a][0]
                             + exploration * math.sqrt(math.log(own[a][2]) / own[a][0])))
    return tuple(joint)


def _rollout(game: Game, state: State, rng: random.Random) -> list[float]:
    """Random moves to the end; or, for a game that can judge a position (``Game.evaluate``), for
    ROLLOUT_DEPTH moves and then its judgement. A game may play its rollouts its own way
    (``Game.rollout_action(state, player, rng)``, which need not be uniform)."""
    fast = game.rollout_action or game.random_action
    evaluate = game.evaluate
    depth = ROLLOUT_DEPTH if game.rollout_depth is None else game.rollout_depth
    limit = depth if evaluate is not None else MAX_ROLLOUT
    moves = 0
    while not state.is_terminal():
        if moves >= limit:
            return evaluate(state) if evaluate is not None else utility([0.0] * game.num_players)
        mover = state.current_player()
        if mover == SIMULTANEOUS:
            action: Any = tuple(_random(game, fast, state, p, rng) for p in range(game.num_players))
        else:
            action = _random(game, fast, state, mover, rng)
        state.apply_action(action)
        moves += 1
    return utility(state.returns())


def utility(returns: list[float]) -> list[float]:
    """What a finished game is worth to each player in the search: its returns, except that a draw
    (everyone 0) is worth an equal share to all, better than a loss (else the search would not
    tell saving a game from losing it)."""
    return returns if any(returns) else [1.0 / len(returns)] * len(returns)


def _random(game: Game, fast: Any, state: State, player: int, rng: random.Random) -> Any:
    if fast is not None:
        return fast(state, player, rng)
    actions = state.legal_actions(player)
    return actions[rng.randrange(len(actions))]
