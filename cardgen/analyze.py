"""`cardgen analyze GAME`: the experiments behind the designers' questions in the original rules.

Each question quotes the seed's own words, runs the rule variants and seatings it needs through
the playtest runner with one policy, and answers in a sentence or two with numbers, the evidence
(figures with 95% intervals, games, policy, options) and whether the intervals separate the
alternatives. The answers are only as good as the policy that played: ``--policy`` says which.
"""
from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .errors import CardgenError
from .playtest import DEFAULT_MAX_MOVES, run_playtest
from .stats import rate_difference, wilson_interval

#: per game, the policy every seat plays in a full run and the games of each experiment: the
#: fewest simulations that beat greedy in `cardgen ladder` (Clusterfuck's mcts:100 is level with
#: it), sized so that a full run of one game takes 5 to 45 minutes on a 2-core machine with
#: --jobs 2 (docs/answers.md); --policy and --games make a bigger one
FULL_RUN: dict[str, tuple[str, int]] = {
    "common-carrier": ("mcts:300", 100),
    "dotcombust": ("mcts:100", 30),
    "clusterfuck": ("mcts:300", 40),
}
#: the policy and games of an experiment with --quick: under a minute for a game's questions
QUICK_RUN = ("greedy", 20)


@dataclass(frozen=True)
class Settings:
    """How hard to look: the policy every seat plays, games per experiment, seed, processes.

    ``policy`` and ``games`` left None take the game's full-run sizes (FULL_RUN), or QUICK_RUN's
    with ``quick``."""

    policy: str | None = None
    games: int | None = None
    seed: int = 1
    jobs: int = 1
    quick: bool = False
    #: a Dask scheduler's address, to play there instead of in local processes
    scheduler: str | None = None

    def for_game(self, game: str) -> Settings:
        """These settings with the game's sizes filled in."""
        policy, games = QUICK_RUN if self.quick else FULL_RUN.get(game, QUICK_RUN)
        return replace(self, policy=self.policy or policy, games=self.games or games)


@dataclass(frozen=True)
class Experiment:
    """One playtest of a bundled game: its options and players, every seat on the run's policy."""

    game: str
    options: tuple[tuple[str, Any], ...] = ()
    players: int | None = None

    def describe(self) -> str:
        parts = [f"{k}={v}" for k, v in self.options] + ([f"{self.players} players"] if self.players else [])
        return f"{self.game} ({', '.join(parts) or 'default rules'})"


def experiment(game: str, options: dict[str, Any] | None = None, players: int | None = None) -> Experiment:
    return Experiment(game, tuple(sorted((options or {}).items())), players)


#: each experiment's playtest report, by experiment
Results = dict[Experiment, dict[str, Any]]


@dataclass(frozen=True)
class Question:
    id: str
    game: str
    #: the seed's own words
    question: str
    #: the playtests the answer needs, planned before any is played (questions may share them)
    experiments: Callable[[Settings], list[Experiment]]
    #: the answer, evidence and confidence from the played experiments
    answer: Callable[[Settings, Results], dict[str, Any]]


def engine(game: str, options: dict[str, Any] | None = None, players: int | None = None) -> Any:
    """The engine of a bundled game's deck, printed as ``cardgen build`` with these options would."""
    from .build import BuildSettings, prepare_decks
    from .games import game_info

    chosen = dict(options or {}) | ({"players": players} if players is not None else {})
    deck = prepare_decks([game], BuildSettings(options=chosen))[0]
    info = game_info(deck.game)
    assert info is not None
    return info.from_deck(deck, deck.options)


#: per game, the moves after which a game counts as stalled (a timeout) instead of played on: under
#: To the Bitter End, players who search can pass assets round for ever (measured: a 3-player
#: mcts:100 game ran to the playtest's 10,000-move cap, 145 s), where a normal game is 20 to 90 moves
MAX_MOVES = {"dotcombust": 300}


def play(settings: Settings, run: Experiment) -> dict[str, Any]:
    assert settings.policy is not None and settings.games is not None
    return run_playtest(engine(run.game, dict(run.options), run.players), settings.games, settings.seed,
                        policy=settings.policy, jobs=settings.jobs, scheduler=settings.scheduler,
                        max_moves=_max_moves(run))


def _max_moves(run: Experiment) -> int:
    return MAX_MOVES.get(run.game, DEFAULT_MAX_MOVES)


def _share(count: int, n: int) -> dict[str, Any]:
    low, high = wilson_interval(count, n)
    return {"rate": count / n if n else 0.0, "wilson_low": low, "wilson_high": high, "games": n}


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _separate(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a["wilson_high"] < b["wilson_low"] or b["wilson_high"] < a["wilson_low"]


# --- Common Carrier ---------------------------------------------------------------------------

CC_TARGET = experiment("common-carrier", {"target": 8})


def cc_target(settings: Settings, results: Results) -> dict[str, Any]:
    """Tie rates at targets 5..8 from one run at target 8: a game first reaching t ends there."""
    report = results[CC_TARGET]
    n = report["games"]
    ties = {t: _share(round(rate * n), n) for t, rate in report["tie_rate_by_target"].items()}
    answer = (f"With {settings.policy} play on both sides, games end in a tie {_pct(ties['7']['rate'])} of the "
              f"time at 7 links, {_pct(ties['6']['rate'])} at 6 and {_pct(ties['5']['rate'])} at 5 "
              f"({_pct(ties['8']['rate'])} at 8).")
    verdict = "7 is hard: most games tie" if ties["7"]["rate"] > 0.5 else "7 is reachable in most games"
    return {"answer": f"{answer} {verdict}.",
            "evidence": {"tie_rate_by_target": ties, "options": report["options"], "policy": settings.policy},
            "confidence": ("the intervals at 5, 6 and 7 do not overlap" if _separate(ties["5"], ties["6"])
                           and _separate(ties["6"], ties["7"]) else
                           "some neighbouring targets' intervals overlap: play more games")}


CC_ENDGAME = (("without Endgame", experiment("common-carrier")),
              ("with Endgame", experiment("common-carrier", {"endgame": True})))


def cc_last_player(settings: Settings, results: Results) -> dict[str, Any]:
    """Seat 2 (the player who moves last) against seat 1, without and with the Endgame rule."""
    evidence: dict[str, Any] = {"policy": settings.policy}
    parts = []
    separated = []
    for label, run in CC_ENDGAME:
        report = results[run]
        first, second = report["seat_win_rates"]
        diff, low, high = rate_difference(second["wins"], first["wins"], report["games"])
        evidence[label] = {"seat_1_wins": first["wins"], "seat_2_wins": second["wins"], "ties": report["draws"],
                           "games": report["games"], "seat_2_minus_seat_1": diff, "ci95": [low, high]}
        parts.append(f"{label} the last player wins {100 * diff:+.0f} points against the first "
                     f"(95% CI {100 * low:+.0f} to {100 * high:+.0f})")
        separated.append(low > 0 or high < 0)
    text = "; ".join(parts) + "."
    return {"answer": text[0].upper() + text[1:], "evidence": evidence,
            "confidence": ", ".join(f"{label}: {'a real difference' if s else 'within chance'}"
                                    for label, s in zip(("without Endgame", "with Endgame"), separated))}


#: the gray-card rule with 4 PBX for one player and 4 goose eggs for the other, on both seatings
CC_PBX = tuple(experiment("common-carrier", {"gray_rule": True, "gray_pbx_1": 4 if seat == 0 else 0,
                                             "gray_pbx_2": 4 if seat == 1 else 0}) for seat in (0, 1))


def cc_pbx(settings: Settings, results: Results) -> dict[str, Any]:
    """With the gray-card rule, a player choosing 4 PBX against one choosing 4 goose eggs, both seatings."""
    pbx_wins = goose_wins = games = ties = 0
    for pbx_seat, run in enumerate(CC_PBX):
        report = results[run]
        seats = report["seat_win_rates"]
        pbx_wins += seats[pbx_seat]["wins"]
        goose_wins += seats[1 - pbx_seat]["wins"]
        games += report["games"]
        ties += report["draws"]
    diff, low, high = rate_difference(pbx_wins, goose_wins, games)
    return {"answer": (f"The player who shuffles in 4 PBX wins {abs(100 * diff):.0f} points "
                       f"{'less' if diff < 0 else 'more'} often than the one with 4 goose eggs "
                       f"(95% CI {100 * low:+.0f} to {100 * high:+.0f} points; {pbx_wins}-{goose_wins}, "
                       f"{ties} ties in {games} games)."),
            "evidence": {"pbx_player_wins": pbx_wins, "goose_player_wins": goose_wins, "ties": ties,
                         "games": games, "pbx_minus_goose": diff, "ci95": [low, high], "policy": settings.policy},
            "confidence": "a real difference" if low > 0 or high < 0 else "within chance: play more games"}


# --- dotCOMbust -------------------------------------------------------------------------------

DCB_VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("base", {}), ("12 assets", {"assets": 12}), ("no tagbacks", {"no_tagbacks": True}),
    ("bitter end", {"bitter_end": True}), ("both barrels", {"both_barrels": True}))


def _dcb_counts(settings: Settings) -> tuple[int, ...]:
    return (3, 4) if settings.quick else (3, 4, 5, 6)


def _dcb_runs(settings: Settings) -> list[Experiment]:
    return [experiment("dotcombust", {**options, "players": players})
            for players in _dcb_counts(settings) for _, options in DCB_VARIANTS]


def dcb_variants(settings: Settings, results: Results) -> dict[str, Any]:
    """Each optional rule against the base game, per player count: turns, ties, the seats' spread."""
    table: dict[str, dict[str, Any]] = {}
    lines = []
    for players in _dcb_counts(settings):
        row = {}
        for label, options in DCB_VARIANTS:
            report = results[experiment("dotcombust", {**options, "players": players})]
            turns = report["game_figures"].get("mean turns per game")
            row[label] = {"mean_turns": turns, "ties": _share(report["draws"], report["games"]),
                          "stalled": _share(report["timeouts"], report["games"]),
                          "seat_rates": [s["rate"] for s in report["seat_win_rates"]],
                          "mean_score_spread": report["game_figures"].get("mean score spread")}
        table[str(players)] = row
        base = row["base"]["mean_turns"] or 1
        lines.append(f"{players} players: " + ", ".join(
            f"{label} {row[label]['mean_turns']:.0f} turns ({100 * (row[label]['mean_turns'] / base - 1):+.0f}%), "
            f"{_pct(row[label]['ties']['rate'])} ties"
            + (f", {_pct(row[label]['stalled']['rate'])} stalled" if row[label]["stalled"]["rate"] else "")
            for label, _ in DCB_VARIANTS))
    return {"answer": "; ".join(lines) + ".", "evidence": {"by_players": table, "policy": settings.policy},
            "confidence": "ties carry 95% intervals per cell; turn means are over "
                          f"{settings.games} games each, stalled games counted to their cut-off; a game still going "
                          f"after {MAX_MOVES['dotcombust']} moves counts as stalled"}


# --- Clusterfuck ------------------------------------------------------------------------------

def _cf_counts(settings: Settings) -> tuple[int, ...]:
    return (5, 8) if settings.quick else (5, 6, 7, 8)


def _cf_runs(settings: Settings) -> list[Experiment]:
    return [experiment("clusterfuck", players=players) for players in _cf_counts(settings)]


def cf_rounds(settings: Settings, results: Results) -> dict[str, Any]:
    table = {}
    intervals = {}
    for players in _cf_counts(settings):
        figures = results[experiment("clusterfuck", players=players)]["game_figures"]
        table[str(players)] = figures.get("rounds until a True Magnate (mean)")
        intervals[str(players)] = figures.get("rounds until a True Magnate (95% CI)")
    shown = [(p, r, intervals[p]) for p, r in table.items() if r is not None]
    apart = [a[2][1] < b[2][0] or b[2][1] < a[2][0] for a, b in itertools.pairwise(shown) if a[2] and b[2]]
    return {"answer": "A True Magnate comes after " + ", ".join(
                f"{rounds:.1f} rounds (95% CI {ci[0]:.1f} to {ci[1]:.1f}) with {players} players"
                for players, rounds, ci in shown) + " on average.",
            "evidence": {"mean_rounds_by_players": table, "ci95_by_players": intervals,
                         "games_per_count": settings.games, "policy": settings.policy},
            "confidence": ("each player count's interval is apart from the next" if apart and all(apart) else
                           "neighbouring player counts' intervals overlap: the counts differ by less than "
                           "these games can tell")}


def cf_status_power(settings: Settings, results: Results) -> dict[str, Any]:
    """How often the Magnate keeps his place, against the 1 in N a powerless seat would have."""
    table = {}
    parts = []
    above = []
    for players in _cf_counts(settings):
        figures = results[experiment("clusterfuck", players=players)]["game_figures"]
        keeps = figures.get("Magnate keeps place") or 0.0
        low, high = figures.get("Magnate keeps place (95% CI)") or (0.0, 1.0)
        table[str(players)] = {"magnate_keeps_place": keeps, "ci95": [low, high], "by_chance": 1 / players,
                               "rounds": figures.get("rounds a status could be kept")}
        parts.append(f"{_pct(keeps)} with {players} players (95% CI {_pct(low)} to {_pct(high)}; "
                     f"chance: {_pct(1 / players)})")
        above.append(low > 1 / players)
    lifted = statistics.fmean(v["magnate_keeps_place"] / v["by_chance"] for v in table.values())
    return {"answer": "The Magnate keeps his place " + ", ".join(parts) +
                      f": {lifted:.1f} times what chance gives.",
            "evidence": {"by_players": table, "policy": settings.policy, "games_per_count": settings.games},
            "confidence": ("above chance at every player count" if all(above) else
                           f"above chance at {sum(above)} of {len(above)} player counts")
                          + " (rounds of one game are counted as if independent, so the intervals are "
                            "somewhat narrow)"}


QUESTIONS = (
    Question("cc-target", "common-carrier",
             "I have a hard time making 7, and often the game ends in a tie. Try 6, and then 5 ... "
             "Is 7 too easy?", lambda s: [CC_TARGET], cc_target),
    Question("cc-last-player", "common-carrier",
             "Because the last player seems to have an advantage in 'playing for stalemate' ... each player "
             "only plays one card per turn.", lambda s: [run for _, run in CC_ENDGAME], cc_last_player),
    Question("cc-pbx", "common-carrier", "Hint: the PBX works against you far more often than you would think.",
             lambda s: list(CC_PBX), cc_pbx),
    Question("dcb-variants", "dotcombust",
             "80 cards is a lot for only 4 people. Take out a few assets to make hand sizes more managable. "
             "(And No Tagbacks, To the Bitter End, Both Barrels: what does each do to game length and ties, "
             "per player count?)", _dcb_runs, dcb_variants),
    Question("cf-rounds", "clusterfuck", "How many rounds until a True Magnate, per player count?",
             _cf_runs, cf_rounds),
    Question("cf-status-power", "clusterfuck",
             "How much does a status card's power keep the Magnate on top?", _cf_runs, cf_status_power),
)


@dataclass(frozen=True)
class Plan:
    """What a run will play, known before the first game: its size, and an estimate of its time."""

    game: str
    settings: Settings
    questions: tuple[Question, ...]
    #: every distinct experiment, in the order they are played (questions may share one)
    experiments: tuple[Experiment, ...]

    @property
    def total_games(self) -> int:
        return len(self.experiments) * (self.settings.games or 0)

    def estimate_seconds(self) -> float:
        """Wall seconds the run should take: one timed game per distinct engine (game and players),
        scaled by the games of its experiments and shared out over the processes."""
        from .playtest import play_game

        assert self.settings.policy is not None and self.settings.games is not None
        per_game: dict[tuple[str, int | None], float] = {}
        total = 0.0
        for run in self.experiments:
            key = (run.game, run.players or dict(run.options).get("players"))
            if key not in per_game:
                game = engine(run.game, dict(run.options), run.players)
                began = time.process_time()
                play_game(game, 0, self.settings.seed, [self.settings.policy] * game.num_players,
                          _max_moves(run))
                per_game[key] = time.process_time() - began
            total += per_game[key] * self.settings.games
        return total / max(1, self.settings.jobs)

    def describe(self) -> str:
        s = self.settings
        return (f"analyze {self.game}: {_count(len(self.questions), 'question')}, "
                f"{_count(len(self.experiments), 'experiment')} of {s.games} games ({self.total_games} games), "
                f"{s.policy} play on every seat, seed {s.seed}"
                f"{' (quick)' if s.quick else ''}")


def plan(game: str, settings: Settings, only: Sequence[str] = ()) -> Plan:
    """The questions of ``game`` (or those named in ``only``) and the experiments they need."""
    chosen = tuple(q for q in QUESTIONS if q.game == game and (not only or q.id in only))
    if not chosen:
        games = sorted({q.game for q in QUESTIONS})
        raise CardgenError(f"no questions for '{game}'" + (f" named {', '.join(only)}" if only else "") +
                           f"; games with questions: {', '.join(games)}")
    settings = settings.for_game(game)
    runs = tuple(dict.fromkeys(run for q in chosen for run in q.experiments(settings)))
    return Plan(game, settings, chosen, runs)


def analyze(game: str, settings: Settings, only: Sequence[str] = (),
            planned: Callable[[Plan], None] | None = None) -> dict[str, Any]:
    """Play the experiments behind ``game``'s questions (or those named in ``only``) and answer them.

    ``planned`` is told the plan before the first game (the command prints its size and time)."""
    the_plan = plan(game, settings, only)
    if planned is not None:
        planned(the_plan)
    settings = the_plan.settings
    started = time.perf_counter()
    results: Results = {}
    for run in the_plan.experiments:
        results[run] = play(settings, run)
    answers = [{"id": q.id, "question": q.question, **q.answer(settings, results)} for q in the_plan.questions]
    return {"game": game, "policy": settings.policy, "games": settings.games, "seed": settings.seed,
            "quick": settings.quick, "jobs": settings.jobs, "experiments": len(the_plan.experiments),
            "total_games": the_plan.total_games, "questions": answers,
            "seconds": time.perf_counter() - started}


def format_answers(report: dict[str, Any]) -> str:
    lines = [(f"Analysis: {report['game']}, {report['policy']} play, {report['games']} games an experiment "
              f"({report['total_games']} games), seed {report['seed']} ({report['seconds']:.0f} s)")]
    for answer in report["questions"]:
        lines += ["", f"[{answer['id']}] \"{answer['question']}\"", f"  {answer['answer']}",
                  f"  confidence: {answer['confidence']}"]
    return "\n".join(lines)


# --- the report with charts -----------------------------------------------------------------------

def chart_of(answer: dict[str, Any]) -> tuple[str, list[str], list[float], bool] | None:
    """The one chart that shows an answer's evidence: title, bar labels, values, whether they are %."""
    evidence, qid = answer["evidence"], answer["id"]
    if qid == "cc-target":
        ties = evidence["tie_rate_by_target"]
        return "Ties by target (links), %", list(ties), [100 * t["rate"] for t in ties.values()], True
    if qid == "cc-last-player":
        labels, values = [], []
        for label in ("without Endgame", "with Endgame"):
            games = evidence[label]["games"]
            for seat in (1, 2):
                labels.append(f"{label.split()[0]} E.: seat {seat}")
                values.append(100 * evidence[label][f"seat_{seat}_wins"] / games)
        return "Wins by seat, without and with the Endgame rule, %", labels, values, True
    if qid == "cc-pbx":
        games = evidence["games"]
        return ("Games won by the player with 4 PBX, with 4 goose eggs, and ties, %", ["4 PBX", "4 goose eggs", "ties"],
                [100 * evidence["pbx_player_wins"] / games, 100 * evidence["goose_player_wins"] / games,
                 100 * evidence["ties"] / games], True)
    if qid == "dcb-variants":
        labels, values = [], []
        for players, row in evidence["by_players"].items():
            for variant, cell in row.items():
                labels.append(f"{players}p {variant}")
                values.append(cell["mean_turns"] or 0.0)
        return "Turns per game by player count and rule", labels, values, False
    if qid == "cf-rounds":
        table = evidence["mean_rounds_by_players"]
        labels = [f"{p} players" for p in table]
        return "Rounds until a True Magnate, by player count", labels, list(table.values()), False
    if qid == "cf-status-power":
        table = evidence["by_players"]
        return ("How often the Magnate keeps his place, by player count, %", [f"{p} players" for p in table],
                [100 * v["magnate_keeps_place"] for v in table.values()], True)
    return None


def check_report_path(path: Any) -> Any:
    """``path`` if the report can be written there (.pdf or .html): asked before the games are played."""
    from pathlib import Path

    path = Path(path)
    if path.suffix.lower() not in (".pdf", ".html"):
        raise CardgenError(f"{path}: the analysis report is written as .pdf or .html, not "
                           f"'{path.suffix or 'no extension'}'")
    return path


def write_report(report: dict[str, Any], path: Any) -> Any:
    """The answers with their charts, as .pdf or .html (the charts inline as SVG)."""
    from html import escape

    from .files import atomic_path

    path = check_report_path(path)
    suffix = path.suffix.lower()
    drawings = [_drawing(answer) for answer in report["questions"]]
    with atomic_path(path) as tmp:
        if suffix == ".pdf":
            _write_pdf(report, drawings, str(tmp))
        else:
            from reportlab.graphics import renderSVG

            parts = [f"<!doctype html><meta charset='utf-8'><title>{escape(report['game'])} analysis</title>",
                     ("<style>body{font-family:sans-serif;max-width:46em;margin:2em auto}"
                      "blockquote{color:#444}</style>"),
                     f"<h1>{escape(report['game'])}: answers from {escape(report['policy'])} play</h1>",
                     f"<p>{report['games']} games an experiment, seed {report['seed']}.</p>"]
            for answer, drawing in zip(report["questions"], drawings):
                parts += [f"<h2>{escape(answer['id'])}</h2>", f"<blockquote>{escape(answer['question'])}</blockquote>",
                          f"<p>{escape(answer['answer'])}</p>", f"<p><em>{escape(answer['confidence'])}</em></p>"]
                if drawing is not None:
                    svg = renderSVG.drawToString(drawing)
                    parts.append(svg[svg.index("<svg"):])
            tmp.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return path


def _drawing(answer: dict[str, Any]) -> Any:
    from reportlab.graphics.shapes import Drawing

    from .playtest import bar_panel

    chart = chart_of(answer)
    if chart is None:
        return None
    title, labels, values, percent = chart
    top = 100.0 if percent else max([1.0, *values]) * 1.1
    drawing = Drawing(480, 200)
    drawing.add(bar_panel(title, labels, values, top, percent)[0])
    return drawing


def _write_pdf(report: dict[str, Any], drawings: list[Any], path: str) -> None:
    import textwrap

    from reportlab.graphics import renderPDF
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(path, pagesize=A4, invariant=1)
    height = A4[1]
    for answer, drawing in zip(report["questions"], drawings):
        y = height - 60
        canvas.setFont("Helvetica-Bold", 14)
        canvas.drawString(50, y, f"{report['game']}: {answer['id']} ({report['policy']} play)")
        y -= 24
        for font, text in (("Helvetica-Oblique", answer["question"]), ("Helvetica", answer["answer"]),
                           ("Helvetica", "Confidence: " + answer["confidence"])):
            canvas.setFont(font, 10)
            for line in textwrap.wrap(text, 95):
                canvas.drawString(50, y, line)
                y -= 13
            y -= 8
        if drawing is not None:
            renderPDF.draw(drawing, canvas, 50, y - 210)
        canvas.showPage()
    canvas.save()
