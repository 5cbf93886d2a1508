"""Play many seeded games with simple policies and report how a deck plays.

One runner drives every engine through the shared State verbs (see
``games/base.py``). Game i gets its own generator seeded from (seed, i), so a
report depends on the seed and the settings only, never on how many
processes played it; the speed figures (games_per_second, moves_per_second,
seconds) are the only ones that vary from run to run.

A game may offer faster or smarter policies than the generic ones:
``random_action(state, player, rng)`` (uniform among legal actions),
``greedy_action(state, player, rng)``, and on the state
``num_legal_actions(player)`` to count without listing.
"""
from __future__ import annotations

import json
import math
import multiprocessing
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .errors import CardgenError
from .files import atomic_path
from .games import POLICIES
from .games.base import SIMULTANEOUS, Game, GameRecord, State
from .progress import expect, tick

#: z for a two-sided 95% interval
Z95 = 1.959963984540054
DEFAULT_MAX_MOVES = 10_000
#: the figures that depend on the machine, not on the seed
TIMING_KEYS = ("games_per_second", "moves_per_second", "seconds")


def run_playtest(game: Game, games: int, seed: int, policy: str = "random",
                 vs: str | None = None, jobs: int = 1,
                 max_moves: int = DEFAULT_MAX_MOVES) -> dict[str, Any]:
    """Play ``games`` games; seat 0 uses ``policy``, the other seats ``vs``."""
    vs = vs or policy
    for name in (policy, vs):
        if name not in POLICIES:
            raise CardgenError(f"unknown policy '{name}'; policies are: {', '.join(POLICIES)}")
    if not isinstance(games, int) or games < 1:
        raise CardgenError(f"number of games must be at least 1, got {games!r}")
    if not isinstance(jobs, int) or jobs < 1:
        raise CardgenError(f"jobs must be at least 1, got {jobs!r}")
    if not isinstance(max_moves, int) or max_moves < 1:
        raise CardgenError(f"max_moves must be at least 1, got {max_moves!r}")
    seats = [policy] + [vs] * (game.num_players - 1)
    started = time.perf_counter()
    expect(games)
    if jobs == 1 or games < 2:
        records = []
        for i in range(games):
            records.append(play_game(game, i, seed, seats, max_moves))
            tick()
    else:
        chunks = _chunks(games, jobs * 8)
        records = []
        with multiprocessing.get_context().Pool(processes=min(jobs, len(chunks))) as pool:
            # in order, chunk by chunk, so the progress bar moves while the report stays the same
            for chunk, part in zip(chunks, pool.imap(_play_chunk, [(game, c, seed, seats, max_moves)
                                                                   for c in chunks])):
                records.extend(part)
                tick(len(chunk))
    seconds = time.perf_counter() - started
    report = _summarize(game, records, seed, seats, max_moves)
    report["seconds"] = seconds
    report["games_per_second"] = games / seconds if seconds > 0 else float("inf")
    moves = sum(r.length for r in records)
    report["moves_per_second"] = moves / seconds if seconds > 0 else float("inf")
    return report


def play_game(game: Game, index: int, seed: int, seats: Sequence[str],
              max_moves: int = DEFAULT_MAX_MOVES) -> GameRecord:
    """Play game number ``index`` of a run seeded with ``seed``."""
    rng = random.Random(f"cardgen-playtest:{seed}:{index}")
    state = game.new_initial_state(rng)
    length = 0
    branching: list[int] = []
    while not state.is_terminal() and length < max_moves:
        player = state.current_player()
        if player == SIMULTANEOUS:
            action: Any = _joint_action(game, state, seats, rng, branching)
        else:
            action = _choose(game, state, player, seats[player], rng, branching)
        state.apply_action(action)
        length += 1
    timeout = not state.is_terminal()
    return GameRecord(seed=index, length=length, winners=[] if timeout else state.winners(),
                      timeout=timeout, branching=branching, metrics=game.metrics(state))


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a rate: honest near 0 and 1, unlike rate +- z*sd."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def format_report(report: dict[str, Any]) -> str:
    """The report as a readable text table."""
    vs = report["vs"]
    lines = [(f"Playtest: {report['game']}, {report['games']} games, seed {report['seed']}, "
             f"{report['policy']} vs {vs}")]
    if report.get("options"):
        lines.append("  options: " + ", ".join(f"{k}={_fmt(v)}" for k, v in report["options"].items()))
    rows = [
        ("completion", f"{report['completion']:.1%} of games have a winner"),
        ("draws", str(report["draws"])),
        ("timeouts", f"{report['timeouts']} (after {report['max_moves']} moves)"),
    ]
    for seat in report["seat_win_rates"]:
        rows.append((f"seat {seat['seat'] + 1} wins",
                     (f"{seat['rate']:.1%}  95% CI [{seat['wilson_low']:.1%}, {seat['wilson_high']:.1%}]"
                     f"  ({seat['wins']} games, {seat['policy']})")))
    rows += [
        ("game length", (f"mean {report['mean_length']:.1f}, median {report['median_length']:g}, "
                        f"min {report['min_length']}, max {report['max_length']}")),
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
    return "\n".join(lines)


def report_json(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=2, sort_keys=True, default=str)


def draw_report(report: dict[str, Any], path: str | Path) -> Path:
    """Charts of a report (seat win rates, game lengths, game figures) as .pdf or .png."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".pdf", ".png"):
        raise CardgenError(f"{path}: charts are written as .pdf or .png, not '{path.suffix or 'no extension'}'")
    drawing = _charts(report)
    with atomic_path(path) as tmp:
        if suffix == ".pdf":
            _write_pdf(drawing, str(tmp))
        else:
            _write_png(drawing, str(tmp))
    return path


# --- playing ----------------------------------------------------------------

def _play_chunk(args: tuple) -> list[GameRecord]:
    game, indices, seed, seats, max_moves = args
    return [play_game(game, i, seed, seats, max_moves) for i in indices]


def _chunks(count: int, parts: int) -> list[range]:
    size = max(1, math.ceil(count / parts))
    return [range(start, min(count, start + size)) for start in range(0, count, size)]


def _choose(game: Game, state: State, player: int, policy: str, rng: random.Random,
            branching: list[int]) -> Any:
    """One player's action by ``policy``; notes how many plays were open."""
    fast = getattr(game, f"{policy}_action", None)
    if fast is not None:
        count = getattr(state, "num_legal_actions", None)
        branching.append(count(player) if count else len(state.legal_actions(player)))
        return fast(state, player, rng)
    actions = state.legal_actions(player)
    branching.append(len(actions))
    if policy == "random" or len(actions) == 1:
        return rng.choice(actions)
    return _greedy(game, state, player, actions, rng, None)


def _joint_action(game: Game, state: State, seats: Sequence[str], rng: random.Random,
                  branching: list[int]) -> tuple:
    """Everyone's action at once; a generic greedy player assumes random opponents."""
    joint: list[Any] = []
    for player in range(game.num_players):
        fast = getattr(game, f"{seats[player]}_action", None)
        if seats[player] == "random" or fast is not None:
            joint.append(_choose(game, state, player, seats[player], rng, branching))
        else:
            actions = state.legal_actions(player)
            branching.append(len(actions))
            others = [rng.choice(state.legal_actions(p)) if p != player else None
                      for p in range(game.num_players)]
            joint.append(_greedy(game, state, player, actions, rng, others))
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
    decisions = [b for r in records for b in r.branching]
    seat_rates = []
    for seat in range(game.num_players):
        wins = sum(1 for r in records if seat in r.winners)
        low, high = wilson_interval(wins, n)
        seat_rates.append({"seat": seat, "policy": seats[seat], "wins": wins,
                           "rate": wins / n, "wilson_low": low, "wilson_high": high})
    figures = game.summarize([r.metrics for r in records])
    report: dict[str, Any] = {
        "game": game.name,
        "options": dict(game.options),
        "policy": seats[0],
        "vs": seats[1] if len(seats) > 1 else seats[0],
        "seed": seed,
        "max_moves": max_moves,
        "games": n,
        "completion": sum(1 for r in records if r.winners) / n,
        "draws": sum(1 for r in records if not r.winners and not r.timeout),
        "timeouts": sum(1 for r in records if r.timeout),
        "seat_win_rates": seat_rates,
        "mean_length": statistics.fmean(lengths),
        "median_length": statistics.median(lengths),
        "min_length": min(lengths),
        "max_length": max(lengths),
        "length_counts": {str(k): v for k, v in sorted(Counter(lengths).items())},
        "mean_branching": statistics.fmean(decisions) if decisions else 0.0,
        "multi_choice_share": (sum(1 for b in decisions if b > 1) / len(decisions)
                               if decisions else 0.0),
        "game_figures": figures,
    }
    for key, value in figures.items():
        report.setdefault(key, value)
    return report


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


def _bar_panel(title: str, labels: list[str], values: Sequence[float], value_max: float,
               percent: bool) -> Any:
    from reportlab.graphics.charts.barcharts import VerticalBarChart
    from reportlab.graphics.shapes import Group, String
    from reportlab.lib import colors

    group = Group()
    group.add(String(20, 180, title, fontName="Helvetica", fontSize=10))
    chart = VerticalBarChart()
    chart.x, chart.y, chart.width, chart.height = 60, 30, 380, 130
    chart.data = [values or [0]]
    chart.categoryAxis.categoryNames = labels or [""]
    chart.categoryAxis.labels.fontSize = 7
    chart.valueAxis.valueMin = 0
    chart.valueAxis.valueMax = value_max
    chart.valueAxis.labels.fontSize = 7
    if percent:
        chart.valueAxis.labelTextFormat = "%d%%"
    chart.bars[0].fillColor = colors.HexColor("#4477aa")
    group.add(chart)
    return group, chart


def _win_rate_panel(report: dict[str, Any]) -> Any:
    from reportlab.graphics.shapes import Line

    seats = report["seat_win_rates"]
    labels = [f"seat {s['seat'] + 1} ({s['policy']})" for s in seats]
    group, chart = _bar_panel("Win rate by seat, with 95% Wilson interval", labels,
                              [100 * s["rate"] for s in seats], 100, True)
    step = chart.width / max(1, len(seats))
    for i, s in enumerate(seats):
        x = chart.x + (i + 0.5) * step
        low = chart.y + chart.height * s["wilson_low"]
        high = chart.y + chart.height * s["wilson_high"]
        for line in (Line(x, low, x, high), Line(x - 6, low, x + 6, low),
                     Line(x - 6, high, x + 6, high)):
            line.strokeWidth = 1.2
            group.add(line)
    return group


def _length_panel(report: dict[str, Any]) -> Any:
    histogram = {int(k): v for k, v in report["length_counts"].items()}
    low, high = min(histogram), max(histogram)
    bins = min(20, high - low + 1)
    width = max(1, math.ceil((high - low + 1) / bins))
    counts = [0] * bins
    for length, games in histogram.items():
        counts[min(bins - 1, (length - low) // width)] += games
    labels = [str(low + i * width) if width == 1 else f"{low + i * width}-{low + (i + 1) * width - 1}"
              for i in range(bins)]
    top = max(counts) if counts else 1
    return _bar_panel("Game length (moves): number of games", labels, counts,
                      max(1, math.ceil(top * 1.1)), False)[0]


def _figure_panel(key: str, values: dict[str, Any]) -> Any:
    shown = {k: v for k, v in values.items() if v is not None}
    rates = all(0 <= v <= 1 for v in shown.values())
    numbers = [100 * v if rates else v for v in shown.values()]
    top = 100 if rates else max([1.0] + [float(v) for v in numbers])
    return _bar_panel(key.replace("_", " "), list(shown), numbers, top, rates)[0]


def _write_pdf(drawing: Any, path: str) -> None:
    from reportlab.graphics import renderPDF

    renderPDF.drawToFile(drawing, path)


def _write_png(drawing: Any, path: str) -> None:
    """Rasterise the chart's own PDF: reportlab's renderPM needs a C backend we do not ship."""
    import pypdfium2
    from reportlab.graphics import renderPDF

    document = pypdfium2.PdfDocument(renderPDF.drawToString(drawing))
    try:
        document[0].render(scale=2).to_pil().save(path, format="PNG")
    finally:
        document.close()
