"""`cardgen analyze GAME`: the experiments behind the designers' questions in the original rules.

Each question quotes the seed's own words, runs the rule variants and seatings it needs through
the playtest runner with one policy, and answers in a sentence or two with numbers, the evidence
(figures with 95% intervals, games, policy, options) and whether the intervals separate the
alternatives. The answers are only as good as the policy that played: ``--policy`` says which.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .errors import CardgenError
from .games.base import GameRecord
from .games.questions import Chart, Experiment, Question, Questions, Results, Settings
from .playtest import DEFAULT_MAX_MOVES, play_games, report_of, seats_of

__all__ = ["Settings", "analyze", "format_answers", "plan", "write_report"]


def engine(game: str, options: dict[str, Any] | None = None, players: int | None = None) -> Any:
    """The engine of a bundled game's deck, printed as ``cardgen build`` with these options would."""
    from .games import game_info
    from .prepare import BuildSettings, prepare_decks

    chosen = dict(options or {}) | ({"players": players} if players is not None else {})
    deck = prepare_decks([game], BuildSettings(options=chosen))[0]
    info = game_info(deck.game)
    assert info is not None
    return info.from_deck(deck, deck.options)


def play(settings: Settings, run: Experiment, records: list[GameRecord] | None = None) -> dict[str, Any]:
    """The report of ``run`` over ``settings.games`` games. Given the ``records`` of its first games
    played before (same seed), only the games after them are played, and ``records`` grows."""
    assert settings.policy is not None and settings.games is not None
    records = [] if records is None else records
    game = engine(run.game, dict(run.options), run.players)
    seats = seats_of(game, *run.seats(settings.policy))
    started = time.perf_counter()
    if len(records) < settings.games:
        records += play_games(game, range(len(records), settings.games), settings.seed, seats, _max_moves(run),
                              settings.jobs, settings.scheduler)
    return report_of(game, records[:settings.games], settings.seed, seats, _max_moves(run),
                     time.perf_counter() - started)


def _max_moves(run: Experiment) -> int:
    declared = _questions(run.game).max_moves
    return DEFAULT_MAX_MOVES if declared is None else declared


def _questions(game: str) -> Questions:
    """What ``game`` declares for analyze; an error naming the games that declare questions if none."""
    from .games import game_info, registry

    info = game_info(game)
    if info is None or info.questions is None:
        answering = [name for name in sorted(registry()) if _declares_questions(name)]
        raise CardgenError(f"no questions for '{game}'; games with questions: {', '.join(answering)}")
    return info.questions


def _declares_questions(game: str) -> bool:
    from .games import game_info

    try:
        info = game_info(game)
    except CardgenError:
        return False
    return info is not None and info.questions is not None


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


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
                f"{s.policy} play on every seat{self._others()}, seed {s.seed}"
                f"{' (quick)' if s.quick else ''}"
                + (f"; doubled up to {s.max_games or 8 * (s.games or 0)} games an experiment until each answer "
                   f"settles or is within {100 * s.precision:g} points" if s.precision is not None else ""))


    def _others(self) -> str:
        """Where some experiments play the seats after the first otherwise, which and how."""
        assert self.settings.policy is not None
        others = [run for run in self.experiments if run.vs is not None]
        if not others:
            return ""
        policies = sorted({run.seats(self.settings.policy)[1] for run in others})
        return (f" but the seats after the first in {_count(len(others), 'experiment')}, which play "
                f"{', '.join(policies)}")


def plan(game: str, settings: Settings, only: Sequence[str] = ()) -> Plan:
    """The questions of ``game`` (or those named in ``only``) and the experiments they need."""
    declared = _questions(game)
    chosen = tuple(q for q in declared.questions if not only or q.id in only)
    if not chosen:
        raise CardgenError(f"no questions for '{game}' named {', '.join(only)}; its questions: "
                           + ", ".join(q.id for q in declared.questions))
    settings = settings.sized(declared.full_run)
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
    played: dict[Experiment, list[GameRecord]] = {}
    answers: dict[str, dict[str, Any]] = {}
    assert settings.games is not None
    games, todo = settings.games, list(the_plan.questions)
    budget = settings.max_games or 8 * games
    while True:
        sized = replace(settings, games=games)
        for run in dict.fromkeys(run for q in todo for run in q.experiments(settings)):
            records = played.setdefault(run, [])
            if len(records) != games:  # the same seed: the first games are those played before, kept
                results[run] = play(sized, run, records)
        for q in todo:
            answers[q.id] = {"id": q.id, "question": q.question, **q.answer(sized, results),
                             "games_an_experiment": games}
        if settings.precision is None:
            break
        todo = [q for q in todo if _stopped(answers[q.id], settings.precision, games, None) is None]
        if not todo or 2 * games > budget:
            break
        games *= 2
    if settings.precision is not None:
        for answer in answers.values():
            answer["stopped"] = _stopped(answer, settings.precision, answer["games_an_experiment"], budget)
    return {"game": game, "policy": settings.policy, "games": settings.games, "seed": settings.seed,
            "quick": settings.quick, "jobs": settings.jobs, "experiments": len(the_plan.experiments),
            "precision": settings.precision, "max_games": budget if settings.precision is not None else None,
            "total_games": sum(len(records) for records in played.values()),
            "questions": [answers[q.id] for q in the_plan.questions],
            "seconds": time.perf_counter() - started,
            "cpu_seconds": sum(record.cpu for records in played.values() for record in records)}


def _stopped(answer: dict[str, Any], precision: float, games: int, budget: int | None) -> str | None:
    """Why an answer's experiments stop growing: settled, bounded within ``precision``, or (given the
    ``budget``) out of games; None while it should play on."""
    if answer.get("settled"):
        return f"settled: its intervals separate the alternatives at {games} games an experiment"
    widest = answer.get("widest")
    if widest is not None and widest <= precision:
        return (f"bounded: every interval within +-{100 * widest:.1f} points (precision {100 * precision:g}) "
                f"at {games} games an experiment")
    if budget is None:
        return None
    left = f"the widest interval +-{100 * widest:.1f} points" if widest is not None else "its intervals overlap"
    return f"budget: {games} games an experiment (of {budget} at most) and {left}, over the precision"


def format_answers(report: dict[str, Any]) -> str:
    lines = [(f"Analysis: {report['game']}, {report['policy']} play, {report['games']} games an experiment "
              f"({report['total_games']} games), seed {report['seed']} ({report['seconds']:.0f} s, "
              f"{report['cpu_seconds'] / 60:.1f} CPU-minutes)")]
    for answer in report["questions"]:
        lines += ["", f"[{answer['id']}] \"{answer['question']}\"", f"  {answer['answer']}",
                  f"  confidence: {answer['confidence']}"]
        if answer.get("stopped"):
            lines.append(f"  stopped: {answer['stopped']}")
    return "\n".join(lines)


# --- the report with charts -----------------------------------------------------------------------

def chart_of(answer: dict[str, Any], game: str) -> Chart | None:
    """The one chart that shows an answer's evidence, as its question declares it."""
    chart = next((q.chart for q in _questions(game).questions if q.id == answer["id"]), None)
    return chart(answer) if chart is not None else None


def check_report_path(path: Any) -> Any:
    """``path`` if the report can be written there (.pdf or .html): asked before the games are played."""
    from pathlib import Path

    from .files import check_output

    path = Path(path)
    check_output(path, "another --report")
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
    drawings = [_drawing(answer, report["game"]) for answer in report["questions"]]
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


def _drawing(answer: dict[str, Any], game: str) -> Any:
    from reportlab.graphics.shapes import Drawing

    from .playtest import bar_panel

    chart = chart_of(answer, game)
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
