"""Play many seeded games with simple policies and report how a deck plays.

One runner drives every engine through the shared State verbs (see
``games/base.py``). Game i gets its own generator seeded from (seed, i), so a
report depends on the seed and the settings only, never on how many
processes played it; the speed figures (games_per_second, moves_per_second,
seconds) are the only ones that vary from run to run.

A game may offer faster or smarter policies than the generic ones, declared on ``Game``
(``games/base.py``): its own ``random_action``, ``greedy_action`` and ``random_playout`` (a whole
random game played by the engine), and on the state ``num_legal_actions`` to count without listing.
"""
from __future__ import annotations

import itertools
import json
import math
import multiprocessing
import random
import statistics
import textwrap
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .errors import CardgenError
from .files import atomic_path, check_output
from .games import POLICIES
from .games.base import SIMULTANEOUS, Game, GameRecord, State
from .games.guests import guest_play, is_guest
from .progress import expect, tick
from .stats import rate_difference, wilson_interval

DEFAULT_MAX_MOVES = 10_000
#: the figures that depend on the machine, not on the seed
TIMING_KEYS = ("games_per_second", "moves_per_second", "seconds", "cpu_seconds")


def run_playtest(game: Game, games: int, seed: int, policy: str = "random",
                 vs: str | None = None, jobs: int = 1,
                 max_moves: int = DEFAULT_MAX_MOVES, scheduler: str | None = None) -> dict[str, Any]:
    """Play ``games`` games; seat 0 uses ``policy``, the other seats ``vs``.

    The games run here (``jobs`` processes) or, given a ``scheduler`` address, as batches on an
    existing Dask cluster; the report is the same either way.
    """
    seats = seats_of(game, policy, vs)
    if not isinstance(games, int) or games < 1:
        raise CardgenError(f"number of games must be at least 1, got {games!r}")
    started = time.perf_counter()
    records = play_games(game, range(games), seed, seats, max_moves, jobs, scheduler)
    return report_of(game, records, seed, seats, max_moves, time.perf_counter() - started)


def seats_of(game: Game, policy: str, vs: str | None = None) -> list[str]:
    """Each seat's policy: the first ``policy``, the others ``vs`` (or ``policy``); both checked."""
    vs = vs or policy
    for name in (policy, vs):
        check_policy(name)
    return [policy] + [vs] * (game.num_players - 1)


def play_games(game: Game, indices: range, seed: int, seats: Sequence[str], max_moves: int = DEFAULT_MAX_MOVES,
               jobs: int = 1, scheduler: str | None = None) -> list[GameRecord]:
    """Games number ``indices`` of a run seeded with ``seed``, in order: each game's generator is
    seeded from (seed, its number), so games 100 to 199 played now are those a run of 200 plays
    after its first 100 (``cardgen analyze`` grows its experiments so)."""
    if len(indices) < 1 or indices.step != 1 or indices.start < 0:
        raise CardgenError(f"games to play must be a run of numbers from 0 up, got {indices!r}")
    if not isinstance(jobs, int) or jobs < 1:
        raise CardgenError(f"jobs must be at least 1, got {jobs!r}")
    if not isinstance(max_moves, int) or max_moves < 1:
        raise CardgenError(f"max_moves must be at least 1, got {max_moves!r}")
    expect(len(indices))
    if scheduler is not None:
        return _play_on_cluster(scheduler, [(game, c, seed, seats, max_moves) for c in _chunks(indices, 64)])
    if jobs == 1 or len(indices) < 2:
        records = []
        for i in indices:
            records.append(play_game(game, i, seed, seats, max_moves))
            tick()
        return records
    chunks = _chunks(indices, jobs * 8)
    records = []
    with multiprocessing.get_context().Pool(processes=min(jobs, len(chunks)), initializer=_quiet_worker) as pool:
        # in order, chunk by chunk, so the progress bar moves while the report stays the same
        for chunk, part in zip(chunks, pool.imap(_play_chunk, [(game, c, seed, seats, max_moves) for c in chunks])):
            records.extend(part)
            tick(len(chunk))
    return records


def report_of(game: Game, records: list[GameRecord], seed: int, seats: Sequence[str], max_moves: int,
              seconds: float) -> dict[str, Any]:
    """The report of played games (``play_games``), ``seconds`` the wall time they took."""
    if is_guest(type(game).__module__):
        report = guest_play(game, lambda _: _summarize(game, records, seed, seats, max_moves), "its summary")
    else:
        report = _summarize(game, records, seed, seats, max_moves)
    report["seconds"] = seconds
    report["cpu_seconds"] = sum(r.cpu for r in records)
    report["games_per_second"] = len(records) / seconds if seconds > 0 else float("inf")
    moves = sum(r.length for r in records)
    report["moves_per_second"] = moves / seconds if seconds > 0 else float("inf")
    return report


def play_game(game: Game, index: int, seed: int, seats: Sequence[str],
              max_moves: int = DEFAULT_MAX_MOVES) -> GameRecord:
    """Play game number ``index`` of a run seeded with ``seed`` (a plug-in's as a guest: what it
    raises is one message naming it, ``games/guests.py``)."""
    if not is_guest(type(game).__module__):
        return _play_game(game, index, seed, seats, max_moves, [])
    return guest_play(game, lambda states: _play_game(game, index, seed, seats, max_moves, states),
                      f"game {index + 1} (seed {seed})")


def _play_game(game: Game, index: int, seed: int, seats: Sequence[str], max_moves: int,
               states: list[State]) -> GameRecord:
    began = time.process_time()
    rng = random.Random(f"cardgen-playtest:{seed}:{index}")
    state = game.new_initial_state(rng)
    states.append(state)
    branching: list[int] = []
    playout = game.random_playout
    if playout is not None and all(policy == "random" for policy in seats):
        length = playout(state, rng, max_moves, branching)
    else:
        length = _play_out(game, state, seats, rng, max_moves, branching)
    timeout = not state.is_terminal()
    return GameRecord(seed=index, length=length, winners=[] if timeout else state.winners(),
                      timeout=timeout, branching=branching, metrics=game.metrics(state),
                      played=state.cards_played(), held=state.cards_held(), cpu=time.process_time() - began)


def _play_out(game: Game, state: State, seats: Sequence[str], rng: random.Random, max_moves: int,
              branching: list[int]) -> int:
    """Each seat moves by its policy until the game ends or ``max_moves`` moves are made (a search
    too: its simulations stop at the cap)."""
    history: list[Any] = []
    choosers = [_chooser(game, state, policy, history, max_moves) for policy in seats]
    length = 0
    while not state.is_terminal() and length < max_moves:
        player = state.current_player()
        if player == SIMULTANEOUS:
            action: Any = _joint_action(game, state, seats, choosers, rng, branching)
        else:
            action = choosers[player](state, player, rng, branching)
        state.apply_action(action)
        history.append(action)
        length += 1
    return length


def format_report(report: dict[str, Any]) -> str:
    """The report as readable text: the verdict in words, then the figures."""
    vs = report["vs"]
    lines = [(f"Playtest: {report['game']}, {report['games']} games, seed {report['seed']}, "
             f"{report['policy']} vs {vs}")]
    if report.get("options"):
        lines.append("  options: " + ", ".join(f"{k}={_fmt(v)}" for k, v in report["options"].items()))
    lines += ["", *("  " + line for line in textwrap.wrap(report["verdict"], 76)), ""]
    outcomes = report["outcomes"]
    rows = [
        ("outcomes", (f"{outcomes['decisive']:.1%} decisive, {outcomes['ties']:.1%} ties, "
                      f"{outcomes['timeouts']:.1%} timeouts (cut off at {report['max_moves']} moves)")),
        ("completion", f"{report['completion']:.1%} of games reached an end (decisive or tie)"),
    ]
    for seat in report["seat_win_rates"]:
        rows.append((f"seat {seat['seat'] + 1} wins",
                     (f"{seat['rate']:.1%}  95% CI [{seat['wilson_low']:.1%}, {seat['wilson_high']:.1%}]"
                     f"  ({seat['wins']} games, {seat['policy']})")))
    rows += [
        ("game length", (f"mean {report['mean_length']:.1f}, median {report['median_length']:g}, "
                        f"min {report['min_length']}, max {report['max_length']} moves")),
        ("branching", (f"mean {report['mean_branching']:.1f} legal plays; "
                      f"{report['multi_choice_share']:.1%} of decisions have a choice")),
        ("speed", (f"{report['games_per_second']:.1f} games/s, "
                  f"{report['moves_per_second']:.0f} moves/s")),
    ]
    for key, value in report.get("game_figures", {}).items():
        text = _fmt(value)
        if key == "tie_rate_by_target" and None in value.values():
            # a game ends when the run's own target is reached, so higher ones are unknown
            text += "  (n/a: above this run's target; run with --option target=8 to see all)"
        rows.append((key.replace("_", " "), text))
    width = max(len(name) for name, _ in rows)
    lines += [f"  {name.ljust(width)}  {text}" for name, text in rows]
    lines += _card_table(report.get("cards"))
    return "\n".join(lines)


#: rows of the per-card table in the text report (the JSON has every card)
CARD_ROWS = 30


def _card_table(cards: dict[str, Any] | None) -> list[str]:
    if not cards:
        return []
    ranked = sorted(cards.items(), key=lambda item: (item[1]["win_rate_when_played"] is None,
                                                     -(item[1]["win_rate_when_played"] or 0), item[0]))
    name_width = max(4, *(len(name) for name, _ in ranked[:CARD_ROWS]))
    lines = ["", ("  cards, best first: plays and copies held at the end per game; win rate of the players "
                  "who played it"),
             f"    {'card'.ljust(name_width)}  played   held  win rate when played"]
    for name, card in ranked[:CARD_ROWS]:
        rate = card["win_rate_when_played"]
        won = "never played" if rate is None else \
            f"{rate:6.1%}  95% CI [{card['wilson_low']:.0%}, {card['wilson_high']:.0%}]"
        lines.append(f"    {name.ljust(name_width)}  {card['plays_per_game']:6.2f} {card['held_per_game']:6.2f}  "
                     f"{won}")
    if len(ranked) > CARD_ROWS:
        lines.append(f"    ... {len(ranked) - CARD_ROWS} more cards in --json")
    return lines


def report_json(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=2, sort_keys=True, default=str)


def check_report_path(path: str | Path) -> Path:
    """``path`` if the charts can be written there (.pdf or .png): asked before the games are played."""
    path = Path(path)
    check_output(path, "another --report")
    if path.suffix.lower() not in (".pdf", ".png"):
        raise CardgenError(f"{path}: charts are written as .pdf or .png, not '{path.suffix or 'no extension'}'")
    return path


def draw_report(report: dict[str, Any], path: str | Path) -> Path:
    """Charts of a report (seat win rates, game lengths, game figures) as .pdf or .png."""
    path = check_report_path(path)
    suffix = path.suffix.lower()
    drawing = _charts(report)
    with atomic_path(path) as tmp:
        if suffix == ".pdf":
            _write_pdf(drawing, str(tmp))
        else:
            _write_png(drawing, str(tmp))
    return path


# --- playing ----------------------------------------------------------------

def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the parent, which stops the pool and reports once; the pool's own
    SIGTERM ends a worker quietly (not through the command line's handler, which forking copied)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _play_chunk(args: tuple) -> list[GameRecord]:
    game, indices, seed, seats, max_moves = args
    return [play_game(game, i, seed, seats, max_moves) for i in indices]


#: how often a batch is tried again when the worker running it is lost
CLUSTER_RETRIES = 3
#: how long to wait for the scheduler to answer
CLUSTER_TIMEOUT = "10s"


def _play_on_cluster(scheduler: str, batches: list[tuple]) -> list[GameRecord]:
    """Every batch on the Dask cluster at ``scheduler``, collected in order.

    A batch is a pure function of its arguments (each game seeds its own generator), so a batch
    whose worker is lost is simply run again elsewhere: never lost, never counted twice.
    """
    try:
        from distributed import Client
    except ImportError:
        raise CardgenError("--scheduler needs dask.distributed: pip install 'cardgen[cluster]'") from None
    try:
        client = Client(scheduler, timeout=CLUSTER_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:
        raise CardgenError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    records: list[GameRecord] = []
    try:
        futures = client.map(_play_chunk, batches, pure=False, retries=CLUSTER_RETRIES)
        for batch, future in zip(batches, futures):
            records.extend(future.result())
            tick(len(batch[1]))
    finally:
        client.close()
    return records


def _chunks(indices: range, parts: int) -> list[range]:
    size = max(1, math.ceil(len(indices) / parts))
    return [range(start, min(indices.stop, start + size)) for start in range(indices.start, indices.stop, size)]


def check_policy(name: str) -> str:
    """``name`` if it names a policy (``random``, ``greedy``, ``mcts``, ``mcts:BUDGET``,
    ``mcts:BUDGET:tie=V``), else the error."""
    kind, _, rest = name.partition(":")
    if kind in POLICIES and kind != "mcts" and rest.partition("=")[0].strip() == "tie":
        why = ("greedy looks no further than its own move, so it sees a tie only on a game's last move, "
               "where it already takes one over a loss") if kind == "greedy" else "random judges no move"
        raise CardgenError(f"policy '{name}': tie= is an option of mcts only (mcts:300:tie=1); {why}")
    if kind not in POLICIES or (rest and kind != "mcts"):
        raise CardgenError(f"unknown policy '{name}'; policies are: {', '.join(POLICIES)} "
                           f"(mcts:2000 for 2000 simulations a move, mcts:0.5s for half a second, "
                           f"mcts:300:tie=1 to value a tie as a win)")
    if kind == "mcts":
        from .search import parse_search

        parse_search(rest)
    return name


#: one seat's way to move: (state, player, rng, branching) -> action, noting how many plays were open
Chooser = Callable[[State, int, random.Random, list[int]], Any]


def _chooser(game: Game, state: State, policy: str, history: list[Any] | None = None,
             max_moves: int | None = None) -> Chooser:
    """How a seat playing ``policy`` moves in this game, worked out once a game, not once a move:
    the game's own fast policy and legal-play count where it has them. A searching seat reads the
    game's moves so far (``history``, which the caller extends): those since its last move let it
    keep its tree, and their number how many moves are left before ``max_moves``."""
    if policy.startswith("mcts"):
        from .search import Search, parse_search

        searching = parse_search(policy.partition(":")[2])
        searches: dict[int, Search] = {}
        seen: dict[int, int] = {}
        moves: list[Any] = history if history is not None else []

        def search(state: State, player: int, rng: random.Random, branching: list[int]) -> Any:
            branching.append(state.num_legal_actions(player))
            seat = searches.get(player)
            if seat is None:
                seat = searches[player] = Search(game, player, searching.budget, tie=searching.tie)
            since = moves[seen[player]:] if history is not None and player in seen else None
            seen[player] = len(moves)
            left = None if max_moves is None else max_moves - len(moves)
            return seat.choose(state, rng, since, left)
        return search
    fast = game.random_action if policy == "random" else game.greedy_action
    if fast is not None:
        def own(state: State, player: int, rng: random.Random, branching: list[int]) -> Any:
            branching.append(state.num_legal_actions(player))
            return fast(state, player, rng)
        return own

    def generic(state: State, player: int, rng: random.Random, branching: list[int]) -> Any:
        actions = state.legal_actions(player)
        branching.append(len(actions))
        if policy == "random" or len(actions) == 1:
            return rng.choice(actions)
        return _greedy(game, state, player, actions, rng, None)
    return generic


def _joint_action(game: Game, state: State, seats: Sequence[str], choosers: Sequence[Chooser],
                  rng: random.Random, branching: list[int]) -> tuple:
    """Everyone's action at once; a generic greedy player assumes random opponents."""
    joint: list[Any] = []
    for player in range(game.num_players):
        if seats[player] == "greedy" and game.greedy_action is None:
            actions = state.legal_actions(player)
            branching.append(len(actions))
            others = [rng.choice(state.legal_actions(p)) if p != player else None
                      for p in range(game.num_players)]
            joint.append(_greedy(game, state, player, actions, rng, others))
        else:
            joint.append(choosers[player](state, player, rng, branching))
    return tuple(joint)


def _greedy(game: Game, state: State, player: int, actions: list, rng: random.Random,
            others: list | None) -> Any:
    """The action whose result the game's heuristic likes best; ties by the rng."""
    best: list = []
    best_score = -math.inf
    for action in actions:
        trial = state.clone()
        if others is None:
            trial.apply_action(action)
        else:
            trial.apply_action(tuple(action if p == player else a for p, a in enumerate(others)))
        score = game.heuristic(trial, player)
        if score > best_score:
            best, best_score = [action], score
        elif score == best_score:
            best.append(action)
    return rng.choice(best)


# --- the report --------------------------------------------------------------

def _summarize(game: Game, records: list[GameRecord], seed: int, seats: Sequence[str],
               max_moves: int) -> dict[str, Any]:
    n = len(records)
    lengths = [r.length for r in records]
    # counted list by list (C loops): a random Clusterfuck game notes some 1,500 decisions
    decisions = sum(len(r.branching) for r in records)
    plays = sum(sum(r.branching) for r in records)
    choices = decisions - sum(r.branching.count(1) + r.branching.count(0) for r in records)
    seat_rates = []
    for seat in range(game.num_players):
        wins = sum(1 for r in records if seat in r.winners)
        low, high = wilson_interval(wins, n)
        seat_rates.append({"seat": seat, "policy": seats[seat], "wins": wins,
                           "rate": wins / n, "wilson_low": low, "wilson_high": high})
    figures = game.summarize([r.metrics for r in records])
    decisive = sum(1 for r in records if r.winners)
    timeouts = sum(1 for r in records if r.timeout)
    draws = n - decisive - timeouts
    report: dict[str, Any] = {
        "game": game.name,
        "options": dict(game.options),
        "policy": seats[0],
        "vs": seats[1] if len(seats) > 1 else seats[0],
        "seed": seed,
        "max_moves": max_moves,
        "games": n,
        "completion": sum(1 for r in records if not r.timeout) / n,
        "decisive": decisive / n,
        "outcomes": {"decisive": decisive / n, "ties": draws / n, "timeouts": timeouts / n},
        "draws": draws,
        "timeouts": timeouts,
        "seat_win_rates": seat_rates,
        #: games by the seats that won them (1-based, "+" between seats sharing a win)
        "winner_sets": {"+".join(str(p + 1) for p in key): count for key, count in
                        sorted(Counter(tuple(sorted(r.winners)) for r in records if r.winners).items())},
        "mean_length": statistics.fmean(lengths),
        "median_length": statistics.median(lengths),
        "min_length": min(lengths),
        "max_length": max(lengths),
        "length_counts": {str(k): v for k, v in sorted(Counter(lengths).items())},
        "mean_branching": plays / decisions if decisions else 0.0,
        "multi_choice_share": choices / decisions if decisions else 0.0,
        "game_figures": figures,
        "cards": _card_figures(records),
    }
    for key, value in figures.items():
        report.setdefault(key, value)
    report["verdict"] = verdict(report)
    return report


def _card_figures(records: list[GameRecord]) -> dict[str, dict[str, Any]] | None:
    """Per card: plays and copies held at the end per game, and how often the players who played it
    won; None when the engine keeps no record of cards."""
    if any(r.played is None or r.held is None for r in records):
        return None
    plays: Counter[str] = Counter()
    held: Counter[str] = Counter()
    players: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for record in records:
        for seat, (played, hand) in enumerate(zip(record.played or [], record.held or [])):
            plays.update(played)
            if hand:
                held.update(hand)
            names = set(played)
            players.update(names)
            if seat in record.winners:
                wins.update(names)
    n = len(records)
    figures = {}
    for name in sorted(set(plays) | set(held)):
        low, high = wilson_interval(wins[name], players[name])
        figures[name] = {"plays_per_game": plays[name] / n, "held_per_game": held[name] / n,
                         "players_who_played": players[name],
                         "win_rate_when_played": wins[name] / players[name] if players[name] else None,
                         "wilson_low": low, "wilson_high": high}
    return figures


def verdict(report: dict[str, Any]) -> str:
    """One paragraph in words: how games end, whether a seat or a policy has the edge, how long."""
    n, outcomes = report["games"], report["outcomes"]
    sentences = [_outcome_sentence(n, outcomes, report["max_moves"])]
    seats = report["seat_win_rates"]
    if len(seats) > 1 and report["decisive"] > 0:
        sentences.append(_seat_sentence(seats, n))
    sentences.append(f"Games last {report['mean_length']:.0f} moves on average "
                     f"({report['min_length']} to {report['max_length']}).")
    return " ".join(sentences)


def _outcome_sentence(n: int, outcomes: dict[str, float], max_moves: int) -> str:
    parts = [f"{_pct(outcomes['decisive'])} had a winner", f"{_pct(outcomes['ties'])} ended in a tie"]
    if outcomes["timeouts"]:
        parts.append(f"{_pct(outcomes['timeouts'])} were cut off after {max_moves} moves")
    text = f"Of {n} games, " + ", ".join(parts[:-1]) + " and " + parts[-1] + "."
    if outcomes["ties"] + outcomes["timeouts"] > 0.5:
        text += " Most games end without a winner."
    return text


def _seat_sentence(seats: list[dict[str, Any]], n: int) -> str:
    """Seat 1 against the best other seat when policies differ; else the best seat against the worst."""
    if len({s["policy"] for s in seats}) > 1:
        first = seats[0]
        other = max(seats[1:], key=lambda s: s["rate"])
        diff, low, high = rate_difference(first["wins"], other["wins"], n)
        pair = (f"Seat 1 ({first['policy']}) wins {_points(diff)} {'more' if diff >= 0 else 'less'} often "
                f"than seat {other['seat'] + 1} ({other['policy']}) (95% CI {_span(low, high)})")
        if low > 0 or high < 0:
            better = first["policy"] if diff > 0 else other["policy"]
            return f"{pair}: the {better} player has the edge, so choices matter."
        return f"{pair}: within chance, so with these policies the choices make no clear difference."
    best = max(seats, key=lambda s: s["rate"])
    worst = min(seats, key=lambda s: s["rate"])
    # the best and the worst of k seats differ by chance more often than one planned pair: the
    # interval is widened for all k(k-1)/2 pairs it was picked from (Bonferroni)
    pairs = len(seats) * (len(seats) - 1) // 2
    z = statistics.NormalDist().inv_cdf(1 - 0.05 / (2 * pairs))
    diff, low, high = rate_difference(best["wins"], worst["wins"], n, z)
    ci = "95% CI" if pairs == 1 else f"95% CI over all {pairs} pairs of seats"
    pair = f"seat {best['seat'] + 1} wins {_points(diff)} more often than seat {worst['seat'] + 1}"
    if low <= 0:
        return (f"No seat is clearly favoured: {pair}, but the {ci} ({_span(low, high)}) "
                f"includes no difference.")
    if best["seat"] == 0:
        kind = "a first-player advantage"
    elif best["seat"] == len(seats) - 1:
        kind = "a last-player advantage"
    else:
        kind = "an advantage for that seat"
    return f"{pair[0].upper()}{pair[1:]} ({ci} {_span(low, high)}): {kind}."


def _pct(share: float) -> str:
    return f"{100 * share:.0f}%"


def _points(diff: float) -> str:
    points = abs(100 * diff)
    return f"{_number(points)} point{'' if _number(points) == '1' else 's'}"


def _span(low: float, high: float) -> str:
    return f"{_number(100 * low)} to {_number(100 * high)} points"


def _number(value: float) -> str:
    """Whole numbers, with one decimal below 10 so that a small interval still shows its sign."""
    text = f"{value:.1f}" if abs(value) < 10 else f"{value:.0f}"
    return "0" if text in ("0.0", "-0.0", "-0") else text.removesuffix(".0")


def _fmt(value: Any) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, dict):
        return "  ".join(f"{k}: {_fmt(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_fmt(v) for v in value)
    return str(value)


# --- charts -------------------------------------------------------------------

def _charts(report: dict[str, Any]) -> Any:
    from reportlab.graphics.shapes import Drawing, Line, String

    panels = [_win_rate_panel(report), _length_panel(report)]
    for key, value in report.get("game_figures", {}).items():
        if isinstance(value, dict) and value and all(
                v is None or isinstance(v, (int, float)) for v in value.values()):
            panels.append(_figure_panel(key, value))
    width, panel_height = 480, 200
    drawing = Drawing(width, 40 + panel_height * len(panels))
    drawing.add(String(20, drawing.height - 24,
                       f"{report['game']}: {report['games']} games, seed {report['seed']}, "
                       f"{report['policy']} vs {report['vs']}", fontName="Helvetica-Bold",
                       fontSize=12))
    for i, panel in enumerate(panels):
        panel.translate(0, drawing.height - 40 - panel_height * (i + 1))
        drawing.add(panel)
    drawing.add(Line(20, 10, width - 20, 10, strokeWidth=0.3))
    return drawing


def bar_panel(title: str, labels: list[str], values: Sequence[float], value_max: float,
               percent: bool) -> Any:
    from reportlab.graphics.charts.barcharts import VerticalBarChart
    from reportlab.graphics.shapes import Group, String
    from reportlab.lib import colors

    group = Group()
    group.add(String(20, 180, title, fontName="Helvetica", fontSize=10))
    chart = VerticalBarChart()
    chart.x, chart.y, chart.width, chart.height = 60, 30, CHART_WIDTH, 130
    chart.data = [values or [0]]
    chart.categoryAxis.categoryNames = fit_labels(labels, CHART_WIDTH) or [""]
    chart.categoryAxis.labels.fontName = LABEL_FONT
    chart.categoryAxis.labels.fontSize = LABEL_SIZE
    chart.valueAxis.valueMin = 0
    chart.valueAxis.valueMax = value_max
    chart.valueAxis.labels.fontSize = 7
    if percent:
        chart.valueAxis.labelTextFormat = "%d%%"
    chart.bars[0].fillColor = colors.HexColor("#4477aa")
    group.add(chart)
    return group, chart


def _win_rate_panel(report: dict[str, Any]) -> Any:
    """Each seat's win rate with its interval, then ties and timeouts: the bars add up to 100%."""
    from reportlab.graphics.shapes import Line
    from reportlab.lib import colors

    seats = report["seat_win_rates"]
    outcomes = report["outcomes"]
    extra = [("ties", outcomes["ties"])] + ([("timeouts", outcomes["timeouts"])] if outcomes["timeouts"] else [])
    policies = [s["policy"] for s in seats]
    labels, title = seat_labels(policies, [name for name, _ in extra], CHART_WIDTH)
    labels += [name for name, _ in extra]
    group, chart = bar_panel(f"Win rate by seat{title}, and the games nobody won; 95% Wilson intervals",
                              labels, [100 * s["rate"] for s in seats] + [100 * v for _, v in extra], 100, True)
    for i in range(len(seats), len(labels)):
        chart.bars[(0, i)].fillColor = colors.HexColor("#bbbbbb")
    step = chart.width / max(1, len(labels))
    for i, s in enumerate(seats):
        x = chart.x + (i + 0.5) * step
        low = chart.y + chart.height * s["wilson_low"]
        high = chart.y + chart.height * s["wilson_high"]
        tick = min(6.0, step / 4)
        for line in (Line(x, low, x, high), Line(x - tick, low, x + tick, low),
                     Line(x - tick, high, x + tick, high)):
            line.strokeWidth = 1.2
            group.add(line)
    return group


#: the plotting area of a chart panel, and the size of its axis labels
CHART_WIDTH = 380
LABEL_FONT, LABEL_SIZE = "Helvetica", 7
#: the least space between two neighbouring axis labels, in points
LABEL_GAP = 4


def seat_labels(policies: Sequence[str], extra: Sequence[str], width: float) -> tuple[list[str], str]:
    """Seat labels that fit beside each other and the ``extra`` bars' labels, longest form first
    ("seat 1 (random)", "seat 1", "1"), and what the panel title must add when the policies are left
    out of the labels."""
    mixed = len(set(policies)) > 1
    forms = [lambda n, p: f"seat {n} ({p})", lambda n, p: f"seat {n}", lambda n, p: str(n)]
    for form in forms:
        labels = [form(i + 1, p) for i, p in enumerate(policies)]
        if _labels_fit(labels + list(extra), width):
            break
    if "(" in labels[0]:
        return labels, ""
    if mixed:
        return labels, f" (seat 1: {policies[0]}, others: {policies[1]})"
    return labels, f" (all {policies[0]})"


def _labels_fit(labels: Sequence[str], width: float, every: int = 1) -> bool:
    """Whether the non-empty ``labels`` of bars spread evenly across ``width`` points, keeping every
    ``every``-th, stand clear of their neighbours."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    step = width / max(1, len(labels)) * every
    widths = [stringWidth(label, LABEL_FONT, LABEL_SIZE) for label in labels[::every]]
    return all((a + b) / 2 + LABEL_GAP <= step for a, b in itertools.pairwise(widths))


def fit_labels(labels: Sequence[str], width: float) -> list[str]:
    """The labels of ``len(labels)`` bars across ``width`` points, every k-th one kept (the first
    always) so that no two overlap; ranges ``a-b`` are cut to ``a`` first if that lets more stay."""
    def every(names: list[str]) -> int:
        return next(k for k in range(1, len(names) + 1) if _labels_fit(names, width, k))

    names = list(labels)
    if every(names) > 1:
        starts = [n.split("-")[0] if "-" in n.lstrip("-") else n for n in names]
        names = starts if every(starts) < every(names) else names
    k = every(names)
    return [n if i % k == 0 else "" for i, n in enumerate(names)]


def length_bins(length_counts: dict[str, int], most: int = 20) -> tuple[list[str], list[int]]:
    """Histogram of game lengths in at most ``most`` equal bins from the shortest to the longest game;
    the last bin stops at the longest game."""
    histogram = {int(k): v for k, v in length_counts.items()}
    low, high = min(histogram), max(histogram)
    width = max(1, math.ceil((high - low + 1) / most))
    bins = math.ceil((high - low + 1) / width)
    counts = [0] * bins
    for length, games in histogram.items():
        counts[(length - low) // width] += games
    labels = []
    for i in range(bins):
        start, end = low + i * width, min(high, low + (i + 1) * width - 1)
        labels.append(str(start) if start == end else f"{start}-{end}")
    return labels, counts


def _length_panel(report: dict[str, Any]) -> Any:
    labels, counts = length_bins(report["length_counts"])
    top = max(counts) if counts else 1
    return bar_panel("Game length (moves): number of games", labels, counts,
                      max(1, math.ceil(top * 1.1)), False)[0]


def _figure_panel(key: str, values: dict[str, Any]) -> Any:
    shown = {k: v for k, v in values.items() if v is not None}
    rates = all(0 <= v <= 1 for v in shown.values())
    numbers = [100 * v if rates else v for v in shown.values()]
    top = 100 if rates else max([1.0] + [float(v) for v in numbers])
    return bar_panel(key.replace("_", " "), list(shown), numbers, top, rates)[0]


def _write_pdf(drawing: Any, path: str) -> None:
    """The charts as a PDF with no clock in it (``invariant``): the same report, the same bytes."""
    from reportlab.graphics import renderPDF
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(path, pagesize=(drawing.width, drawing.height), invariant=1)
    renderPDF.draw(drawing, canvas, 0, 0)
    canvas.showPage()
    canvas.save()


def _write_png(drawing: Any, path: str) -> None:
    """Rasterise the chart's own PDF: reportlab's renderPM needs a C backend we do not ship."""
    import pypdfium2
    from reportlab.graphics import renderPDF

    document = pypdfium2.PdfDocument(renderPDF.drawToString(drawing))
    try:
        document[0].render(scale=2).to_pil().save(path, format="PNG")
    finally:
        document.close()
