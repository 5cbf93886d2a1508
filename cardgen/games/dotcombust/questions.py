"""dotCOMbust's questions for `cardgen analyze`, in the seed's own words."""
from __future__ import annotations

from typing import Any

from ..questions import Chart, Experiment, Question, Questions, Results, Settings, experiment, pct, share

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
    """Each optional rule against the base game, per player count: turns, ties, the seats' spread."""
    table: dict[str, dict[str, Any]] = {}
    lines = []
    for players in _dcb_counts(settings):
        row = {}
        for label, options in DCB_VARIANTS:
            report = results[experiment("dotcombust", {**options, "players": players})]
            turns = report["game_figures"].get("mean turns per game")
            row[label] = {"mean_turns": turns, "ties": share(report["draws"], report["games"]),
                          "stalled": share(report["timeouts"], report["games"]),
                          "seat_rates": [s["rate"] for s in report["seat_win_rates"]],
                          "mean_score_spread": report["game_figures"].get("mean score spread")}
        table[str(players)] = row
        base = row["base"]["mean_turns"] or 1
        lines.append(f"{players} players: " + ", ".join(
            f"{label} {row[label]['mean_turns']:.0f} turns ({100 * (row[label]['mean_turns'] / base - 1):+.0f}%), "
            f"{pct(row[label]['ties']['rate'])} ties"
            + (f", {pct(row[label]['stalled']['rate'])} stalled" if row[label]["stalled"]["rate"] else "")
            for label, _ in DCB_VARIANTS))
    return {"answer": "; ".join(lines) + ".", "evidence": {"by_players": table, "policy": settings.policy},
            "confidence": "ties carry 95% intervals per cell; turn means are over "
                          f"{settings.games} games each, stalled games counted to their cut-off; a game still going "
                          f"after {MAX_MOVES} moves counts as stalled"}



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
