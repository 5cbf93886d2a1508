"""Information-set Monte Carlo tree search: the strong policy, for every engine that can determinize.

Single-observer IS-MCTS (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search",
2012). Each simulation samples a *determinization*: the real position with everything the searching
player cannot see dealt again at random (``State.determinize``). All determinizations walk one tree,
keyed by actions. A child is eligible only when its action is legal in this determinization, and
its exploration term counts how often it was *available*, not how often its parent was visited.
Simultaneous turns use decoupled UCT: each player picks its own part of the joint action by its own
statistics. Children are made lazily where moves are many (a guided node samples a reply with the
engine's ``random_action`` and checks only the children it has tried, all at once with
``State.legal_among``, never listing the whole reply set), selection reads square roots and
logarithms from tables, and a player's search keeps its tree from one of its moves to the next
where every move is seen by every player (``Game.search_keeps_tree``). Rollouts play uniformly
random moves (the engine's fast ``random_action`` where it has one), or the engine's own rollout
policy where it has one (``Game.rollout_action``), and stop at the game's move cap. A node keeps
the summed returns of every player and the player choosing there maximises their own mean, so the
search serves any number of players and any returns. A draw is worth 1/players to each (``utility``),
unless the searching player is told to value it otherwise (``mcts:300:tie=1`` plays for the tie as
for a win).

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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .errors import CardgenError
from .games.base import SIMULTANEOUS, Game, State

#: simulations per move when ``mcts`` is named without a budget
DEFAULT_SIMULATIONS = 1000
#: the UCB exploration constant for returns in [0, 1]
EXPLORATION = 0.7
#: a rollout longer than this counts as a draw (and so does one that reaches the game's move cap)
MAX_ROLLOUT = 1_000
#: a guided reply node draws at most this many random replies looking for one it has not tried
#: before it lists them all
REPLY_DRAWS = 16
#: a guided search (a game with ``search_guided = True``) widens a node to about this many children
#: times the square root of its visits, best first by the game's heuristic
WIDENING = 1.0
#: ... and plays this many moves in its tree (its own move and the reply) before judging
GUIDED_DEPTH = 2
#: moves a rollout plays before asking a game that can judge positions (``Game.evaluate``); a game
#: may set its own as ``rollout_depth``
ROLLOUT_DEPTH = 4


#: a player who values a draw otherwise than 1/players, and what it is worth to them (0 to 1)
Tie = tuple[int, float]


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


@dataclass(frozen=True)
class SearchPolicy:
    """The ``mcts`` policy as named: its budget a move, and what a tie is worth to the searching
    seat (None: an equal share, 1/players, as to everyone else; 1: as much as a win, so it plays for
    the tie; 0: no more than a loss)."""

    budget: Budget = Budget()
    tie: float | None = None

    def __str__(self) -> str:
        parts = ["mcts"] + ([str(self.budget)] if self.budget != Budget() else []) \
            + ([f"tie={self.tie:g}"] if self.tie is not None else [])
        return ":".join(parts)


#: what the options of ``mcts:BUDGET:OPTION...`` are, for the error that names a wrong one
SEARCH_OPTIONS = "tie=V (what a tie is worth to this seat, 0 to 1: tie=1 plays for the tie as for a win)"


def parse_search(text: str) -> SearchPolicy:
    """What follows ``mcts:``: an optional budget (``300``, ``0.5s``), then options as ``KEY=VALUE``
    (``tie=1``), each after a colon: ``""``, ``300``, ``300:tie=1``, ``tie=1``."""
    parts = text.split(":") if text.strip() else []
    budget = Budget()
    if parts and "=" not in parts[0]:
        budget = parse_budget(parts.pop(0))
    tie: float | None = None
    for part in parts:
        key, equals, value = part.partition("=")
        key = key.strip()
        if not equals or key != "tie":
            what = f"a second budget '{part}'" if not equals else f"unknown option '{key}'"
            raise CardgenError(f"mcts:{text}: {what}; after the budget come options: {SEARCH_OPTIONS}")
        if tie is not None:
            raise CardgenError(f"mcts:{text}: tie= is given twice")
        tie = _tie_value(value.strip(), text)
    return SearchPolicy(budget, tie)


def _tie_value(value: str, text: str) -> float:
    if re.fullmatch(r"(?:0|1)(?:\.0{1,3})?|0?\.[0-9]{1,3}", value):  # 0 to 1, nothing else
        return float(value)
    raise CardgenError(f"mcts:{text}: tie= is what a tie is worth to this seat, a number from 0 (a loss) to 1 "
                       f"(a win) with at most 3 decimals, got '{value}'")


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
        self.joint: list[dict[Any, list[Any]]] | None = None


def mcts_action(game: Game, state: State, player: int, rng: random.Random,
                budget: Budget = Budget(), exploration: float | None = None,
                moves_left: int | None = None, tie: float | None = None) -> Any:
    """The action (the player's own part at a simultaneous turn) the search likes best, from a new
    tree; the exploration constant is the game's own (``Game.exploration``) where it sets one.
    ``moves_left``: moves until the game is cut off (the playtest's move cap); a simulation that
    reaches it counts as a draw. ``tie``: what a draw is worth to ``player`` (see ``Search``)."""
    return Search(game, player, budget, exploration, tie).choose(state, rng, moves_left=moves_left)


class Search:
    """One player's search through one game. ``choose`` spends the budget on a move; told the moves
    made since its last choice (``since``, its own included), it carries on from the tree it grew
    then, where every move is seen by every player (``Game.search_keeps_tree``), and starts a new
    tree otherwise. The same seed gives the same moves either way.

    ``tie``: what a draw (a finished game with no winner, or one cut off) is worth to the searching
    player, 0 to 1; None: 1/players, as to every other player (``utility``). With 1 the player
    plays for the tie as for a win. The rivals it imagines still value a draw at 1/players. Where
    the game judges unfinished positions (``Game.evaluate``) and says how likely they are to end
    with no winner (``Game.tie_chance``), the player's judgement moves by that chance times the
    difference of its tie's worth from 1/players; else a tie counts only where the search sees
    the game finish."""

    def __init__(self, game: Game, player: int, budget: Budget = Budget(),
                 exploration: float | None = None, tie: float | None = None):
        self.game = game
        self.player = player
        self.budget = budget
        self.exploration = (EXPLORATION if game.exploration is None else game.exploration) \
            if exploration is None else exploration
        self.keeps_tree = bool(game.search_keeps_tree) and not game.search_guided
        self.tie: Tie | None = None if tie is None else (player, tie)
        #: simulations this search has run (a carried tree's earlier ones counted once)
        self.simulations = 0
        self._root: _Node | None = None

    def choose(self, state: State, rng: random.Random, since: Sequence[Any] | None = None,
               moves_left: int | None = None) -> Any:
        game, player, budget = self.game, self.player, self.budget
        determinize = state.determinize
        if determinize is None:
            raise CardgenError(f"{game.name or type(game).__name__}: the mcts policy needs the engine to "
                               f"deal hidden cards again (State.determinize); this engine does not")
        root = self._carried(since) if self.keeps_tree else None
        if root is None:
            root = _Node(game.num_players)
        guided = game.search_guided and state.current_player() != SIMULTANEOUS
        if guided:
            root.order = _ranked(game, state, player)
        simulate = _simulate_guided if guided else _simulate
        exploration = self.exploration
        deadline = time.perf_counter() + budget.seconds if budget.seconds is not None else None
        done = 0
        while True:
            if budget.simulations is not None and done >= budget.simulations:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            if root.visits + 2 >= len(_SQRT_LOG):
                _grow_tables(2 * (root.visits + (budget.simulations or 1024)) + 2)
            simulate(game, determinize(player, rng), root, rng, exploration, moves_left, self.tie)
            done += 1
        self.simulations += done
        self._root = root if self.keeps_tree else None
        if root.joint is not None:
            own = root.joint[player]
            return max(own, key=lambda action: (own[action][0], own[action][1]))
        return max(root.children, key=lambda action: (root.children[action].visits,
                                                      root.children[action].totals[player]))

    def _carried(self, since: Sequence[Any] | None) -> _Node | None:
        """The node of the last tree the moves ``since`` lead to, or None (no tree, or a move the
        tree never tried)."""
        node = self._root
        if node is None or since is None:
            return None
        for action in since:
            node = node.children.get(action)
            if node is None:
                return None
        return node


#: sqrt(log(n)) and 1/sqrt(n) for n = 0, 1, 2...: selection reads them instead of computing them
_SQRT_LOG: list[float] = [0.0]
_INV_SQRT: list[float] = [0.0]


def _grow_tables(size: int) -> None:
    for n in range(len(_SQRT_LOG), size):
        _SQRT_LOG.append(math.sqrt(math.log(n)))
        _INV_SQRT.append(1.0 / math.sqrt(n))


_grow_tables(DEFAULT_SIMULATIONS * 4)


def _simulate(game: Game, det: State, root: _Node, rng: random.Random, exploration: float,
              moves_left: int | None = None, tie: Tie | None = None) -> None:
    """One walk down the tree, one new node, a rollout, and the returns carried back up. Each step
    lists the mover's legal actions once: it counts every tried one as available, scores each by
    UCB (from tables) only while no untried one has turned up, and expands an untried one at random."""
    players = game.num_players
    path: list[_Node] = [root]
    joints: list[tuple[_Node, tuple]] = []
    node = root
    sqrt_log, inv_sqrt = _SQRT_LOG, _INV_SQRT
    moves = 0
    cap = MAX_ROLLOUT if moves_left is None else moves_left
    while not det.is_terminal() and moves < cap:
        mover = det.current_player()
        moves += 1
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
        children = node.children
        untried: list[Any] | None = None
        best: Any = None
        best_value = -math.inf
        for action in det.legal_actions(mover):
            child = children.get(action)
            if child is None:
                if untried is None:
                    untried = [action]
                else:
                    untried.append(action)
                continue
            avail = child.avail = child.avail + 1
            if untried is None:
                visits = child.visits
                value = child.totals[mover] / visits + exploration * sqrt_log[avail] * inv_sqrt[visits]
                if value > best_value:
                    best_value, best = value, action
        if untried is not None:
            action = untried[rng.randrange(len(untried))]
            children[action] = child = _Node(players)
            child.avail = 1
            det.apply_action(action)
            path.append(child)
            break
        if best is None:
            raise CardgenError(f"{game.name or type(game).__name__}: player {mover + 1} has no legal "
                               f"move in an unfinished position")
        det.apply_action(best)
        node = children[best]
        path.append(node)
    returns = _rollout(game, det, rng, None if moves_left is None else moves_left - moves, tie)
    _back_up(path, returns)
    for visited, joint in joints:
        assert visited.joint is not None
        for p, action in enumerate(joint):
            stats = visited.joint[p][action]
            stats[0] += 1
            stats[1] += returns[p]


def _simulate_guided(game: Game, det: State, root: _Node, rng: random.Random, exploration: float,
                     moves_left: int | None = None, tie: Tie | None = None) -> None:
    """One walk of a guided search: the searching player's move among the best few by the game's
    heuristic (more of them as the root is visited more: progressive widening), the reply among the
    opponent's greedy reply and random ones, widened the same way, then a rollout as in the plain
    search (the game's judgement after its ``rollout_depth`` moves). Where a move has hundreds of
    plays, a plain search spreads 1,000 simulations over all of them and learns little of any; this
    one looks two moves deep at the plays worth it. The reply set is never listed: a new reply is
    drawn with the engine's ``random_action`` until it is one not tried yet, and only the tried
    replies are checked (``State.legal_among``) in this deal."""
    path: list[_Node] = [root]
    node = root
    sqrt_log, inv_sqrt = _SQRT_LOG, _INV_SQRT
    depth = 0
    cap = GUIDED_DEPTH if moves_left is None else min(GUIDED_DEPTH, moves_left)
    while depth < cap and not det.is_terminal():
        mover = det.current_player()
        allowed = math.ceil(WIDENING * math.sqrt(node.visits + 1))
        children = node.children
        # every tried child legal in this deal is available once more, and scored by UCB in the
        # same pass (the score is used only if no new child is made)
        at_root = depth == 0  # the root's children are a prefix of its ranking, all legal in every deal
        tried = 0
        best_value = -math.inf
        for a in children if at_root else det.legal_among(mover, children):
            candidate = children[a]
            tried += 1
            avail = candidate.avail = candidate.avail + 1
            visits = candidate.visits
            value = candidate.totals[mover] / visits + exploration * sqrt_log[avail] * inv_sqrt[visits]
            if value > best_value:
                best_value, action, child = value, a, candidate
        if tried < allowed:
            if at_root:
                order = node.order
                assert order is not None
                if tried < len(order):
                    action = order[tried]
                    children[action] = child = _Node(game.num_players)
                    child.avail = 1
            elif tried < det.num_legal_actions(mover):
                action = _new_reply(game, det, mover, children, rng)
                children[action] = child = _Node(game.num_players)
                child.avail = 1
        det.apply_action(action)
        node = child
        path.append(node)
        depth += 1
    _back_up(path, _rollout(game, det, rng, None if moves_left is None else moves_left - depth, tie))


def _new_reply(game: Game, det: State, mover: int, children: dict[Any, _Node], rng: random.Random) -> Any:
    """A reply this node has not tried: the game's greedy one first, then random ones, drawn (at
    most REPLY_DRAWS times) rather than listed."""
    if not children:
        return _greedy_reply(game, det, mover, rng)
    draw = game.random_action
    if draw is not None:
        for _ in range(REPLY_DRAWS):
            action = draw(det, mover, rng)
            if action not in children:
                return action
    untried = [a for a in det.legal_actions(mover) if a not in children]
    return untried[rng.randrange(len(untried))]


def _back_up(path: list[_Node], returns: list[float]) -> None:
    """Count a walk's returns in every node it passed."""
    for visited in path:
        visited.visits += 1
        totals = visited.totals
        for p, value in enumerate(returns):
            totals[p] += value


def _ranked(game: Game, state: State, player: int) -> list[Any]:
    """``player``'s legal actions, best first by the game's heuristic one move ahead (ties in the
    engine's order): the game's ``heuristics_ahead`` where it has one, else each action laid on a
    copy."""
    actions = state.legal_actions(player)
    ahead = game.heuristics_ahead
    if ahead is not None:
        values = ahead(state, player)
    else:
        values = []
        for action in actions:
            trial = state.clone()
            trial.apply_action(action)
            values.append(game.heuristic(trial, player))
    order = sorted(range(len(actions)), key=lambda i: (-values[i], i))
    return [actions[i] for i in order]


def _greedy_reply(game: Game, det: State, mover: int, rng: random.Random) -> Any:
    greedy = game.greedy_action
    return greedy(det, mover, rng) if greedy is not None else _ranked(game, det, mover)[0]


def _joint_choice(node: _Node, det: State, players: int, rng: random.Random, exploration: float) -> tuple:
    """Decoupled UCT: each player's own action by its own statistics, untried ones first."""
    per_player = node.joint
    if per_player is None:
        per_player = node.joint = [{} for _ in range(players)]
    sqrt_log, inv_sqrt = _SQRT_LOG, _INV_SQRT
    joint = []
    for p in range(players):
        own = per_player[p]
        untried: list[Any] | None = None
        best: Any = None
        best_value = -math.inf
        for action in det.legal_actions(p):
            stats = own.get(action)
            if stats is None:
                own[action] = stats = [0, 0.0, 0]
            avail = stats[2] = stats[2] + 1
            visits = stats[0]
            if not visits:
                if untried is None:
                    untried = [action]
                else:
                    untried.append(action)
            elif untried is None:
                value = stats[1] / visits + exploration * sqrt_log[avail] * inv_sqrt[visits]
                if value > best_value:
                    best_value, best = value, action
        if untried is not None:
            joint.append(untried[rng.randrange(len(untried))])
        elif best is None:
            raise CardgenError(f"{det.__class__.__name__}: player {p + 1} has no legal move at a "
                               f"simultaneous turn")
        else:
            joint.append(best)
    return tuple(joint)


def _rollout(game: Game, state: State, rng: random.Random, moves_left: int | None = None,
             tie: Tie | None = None) -> list[float]:
    """Random moves to the end; or, for a game that can judge a position (``Game.evaluate``), for
    ROLLOUT_DEPTH moves and then its judgement. A game may play its rollouts its own way
    (``Game.rollout_action(state, player, rng)``, which need not be uniform). A rollout that reaches
    the game's move cap (``moves_left``) or MAX_ROLLOUT moves is a draw: the game is cut off there.
    ``tie``: the player who values a draw otherwise, and its worth (``Search``)."""
    draw = game.rollout_action or game.random_action or _listed_random
    evaluate = game.evaluate
    depth = ROLLOUT_DEPTH if game.rollout_depth is None else game.rollout_depth
    limit = depth if evaluate is not None else MAX_ROLLOUT
    cap = MAX_ROLLOUT if moves_left is None else moves_left
    players = game.num_players
    # the state's verbs looked up once: a rollout makes thousands of moves a decision
    is_terminal, current_player, apply_action = state.is_terminal, state.current_player, state.apply_action
    moves = 0
    while not is_terminal():
        if moves >= cap:
            return utility([0.0] * players, tie)
        if moves >= limit:
            if evaluate is None:
                return utility([0.0] * players, tie)
            return evaluate(state) if tie is None else _judged(game, state, evaluate(state), tie)
        mover = current_player()
        if mover == SIMULTANEOUS:
            apply_action(tuple(draw(state, p, rng) for p in range(players)))
        else:
            apply_action(draw(state, mover, rng))
        moves += 1
    return utility(state.returns(), tie)


def utility(returns: list[float], tie: Tie | None = None) -> list[float]:
    """What a finished game is worth to each player in the search: its returns, except that a draw
    (everyone 0) is worth an equal share to all, better than a loss (else the search would not
    tell saving a game from losing it), or, to the player ``tie`` names, what it says."""
    if any(returns):
        return returns
    shares = [1.0 / len(returns)] * len(returns)
    if tie is not None:
        shares[tie[0]] = tie[1]
    return shares


def _judged(game: Game, state: State, values: list[float], tie: Tie) -> list[float]:
    """The game's judgement of an unfinished position (``Game.evaluate``, a tie counted 1/players),
    the tie-valuing player's part moved by the game's chance of a tie (``Game.tie_chance``) times
    the difference of its tie's worth from 1/players, kept within 0..1."""
    chance = game.tie_chance
    if chance is None:
        return values
    player, worth = tie
    moved = list(values)
    moved[player] = min(1.0, max(0.0, moved[player] + (worth - 1.0 / len(values)) * chance(state)))
    return moved


def _listed_random(state: State, player: int, rng: random.Random) -> Any:
    """A uniformly random legal action, for an engine that cannot draw one without listing them."""
    actions = state.legal_actions(player)
    return actions[rng.randrange(len(actions))]
