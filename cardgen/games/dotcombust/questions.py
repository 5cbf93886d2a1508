"""dotCOMbust's questions for `cardgen analyze`, in the seed's own words."""
from __future__ import annotations

from typing import Any

from ..questions import Chart, Experiment, Question, Questions, Results, Settings, experiment, half_width, pct, share

#: the moves after which a game counts as stalled (a timeout) instead of played on: under To the
#: Bitter End, players who search can pass assets round for ever (measured: a 3-player mcts:100
#: game ran to the playtest's 10,000-move cap, 145 s), where a normal game is 20 to 90 moves
MAX_MOVES = 300


DCB_VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("base", {}), ("12 assets", {"assets": 12}), ("no tagbacks", {"no_tagbacks": True}),
    ("bitter end", {"bitter_end": True}), ("both barrels", {"both_barrels": True}))


def _dcb_counts(settings: Settings) -> tuple[int, ...]:
    return (3, 4) if settings.quick else (3, 4, 5, 6)


def _dcb_runs(settings: Settings) -> list[Experiment]:
    return [experiment("dotcombust", {**options, "players": players})
            for players in _dcb_counts(settings) for _, options in DCB_VARIANTS]


def dcb_variants(settings: Settings, results: Results) -> dict[str, Any]:
    """Each optional rule against the base game, per player count: turns of the games that ended
    (95% interval; games cut off at the move cap counted apart), ties, the seats' spread."""
    table: dict[str, dict[str, Any]] = {}
    lines = []
    for players in _dcb_counts(settings):
        row = {}
        for label, options in DCB_VARIANTS:
            report = results[experiment("dotcombust", {**options, "players": players})]
            figures = report["game_figures"]
            row[label] = {"mean_turns": figures.get("turns per finished game (mean)"),
                          "turns_ci95": figures.get("turns per finished game (95% CI)"),
                          "finished_games": report["games"] - report["timeouts"],
                          "ties": share(report["draws"], report["games"]),
                          "stalled": share(report["timeouts"], report["games"]),
                          "seat_rates": [s["rate"] for s in report["seat_win_rates"]],
                          "mean_score_spread": figures.get("mean score spread")}
        table[str(players)] = row
        lines.append(f"{players} players: " + ", ".join(_cell_words(label, row[label]) for label, _ in DCB_VARIANTS))
    cells = [cell for row in table.values() for cell in row.values()]
    return {"answer": "; ".join(lines) + ".", "evidence": {"by_players": table, "policy": settings.policy},
            # no alternatives to separate: the answer is done when its rates are bounded
            "settled": False,
            "widest": half_width(*((c[k]["wilson_low"], c[k]["wilson_high"]) for c in cells
                                   for k in ("ties", "stalled"))),
            "confidence": "turns are means over the games that ended, with 95% Student t intervals; "
                          "ties and games cut off carry 95% Wilson intervals per cell; a game still going after "
                          f"{MAX_MOVES} moves is cut off and counted apart, not in the turns"}


def _cell_words(label: str, cell: dict[str, Any]) -> str:
    if cell["mean_turns"] is None:
        turns = "no game ended"
    else:
        low, high = cell["turns_ci95"]
        turns = f"{cell['mean_turns']:.0f} turns (95% CI {low:.0f} to {high:.0f})"
    stalled = f", {pct(cell['stalled']['rate'])} cut off" if cell["stalled"]["rate"] else ""
    return f"{label} {turns}, {pct(cell['ties']['rate'])} ties{stalled}"


def _variants_chart(answer: dict[str, Any]) -> Chart:
    evidence = answer["evidence"]
    labels, values = [], []
    for players, row in evidence["by_players"].items():
        for variant, cell in row.items():
            labels.append(f"{players}p {variant}")
            values.append(cell["mean_turns"] or 0.0)
    return "Turns per game by player count and rule", labels, values, False


QUESTIONS = Questions(
    questions=(
        Question("dcb-variants",
                 "80 cards is a lot for only 4 people. Take out a few assets to make hand sizes more managable. "
                 "(And No Tagbacks, To the Bitter End, Both Barrels: what does each do to game length and ties, "
                 "per player count?)", _dcb_runs, dcb_variants, _variants_chart),
    ),
    full_run=("mcts:100", 30),
    max_moves=MAX_MOVES,
)
