"""The shared playtest runner: report shape, reproducibility, intervals, charts."""
from __future__ import annotations

import random

import pytest

from cardgen.errors import CardgenError
from cardgen.games.base import SIMULTANEOUS, TERMINAL, Game, State
from cardgen.games.common_carrier import CommonCarrierGame
from cardgen.playtest import (
    CHART_WIDTH,
    TIMING_KEYS,
    draw_report,
    fit_labels,
    format_report,
    length_bins,
    play_game,
    report_json,
    run_playtest,
    seat_labels,
    verdict,
)
from cardgen.stats import rate_difference

REPORT_KEYS = {"games", "completion", "decisive", "outcomes", "verdict", "cards", "draws",
               "timeouts", "seat_win_rates", "mean_length",
               "median_length", "min_length", "max_length", "mean_branching",
               "multi_choice_share", "games_per_second", "moves_per_second",
               "tie_rate_by_target", "board_fill"}


def without_timing(report: dict) -> dict:
    return {k: v for k, v in report.items() if k not in TIMING_KEYS}


@pytest.fixture(scope="module")
def report() -> dict:
    return run_playtest(CommonCarrierGame(options={"target": 8}), 40, seed=7)


def test_report_has_every_figure(report):
    assert set(report) >= REPORT_KEYS
    assert report["games"] == 40
    assert set(report["tie_rate_by_target"]) == {"5", "6", "7", "8"}
    seats = report["seat_win_rates"]
    assert [s["seat"] for s in seats] == [0, 1]
    for seat in seats:
        assert seat["wilson_low"] <= seat["rate"] <= seat["wilson_high"]
    assert report["decisive"] == pytest.approx(sum(s["rate"] for s in seats))
    assert report["draws"] + report["timeouts"] + sum(s["wins"] for s in seats) == 40
    outcomes = report["outcomes"]
    assert sum(outcomes.values()) == pytest.approx(1)
    assert outcomes["ties"] == report["draws"] / 40 and outcomes["decisive"] == report["decisive"]
    assert report["completion"] == pytest.approx(1 - outcomes["timeouts"])
    assert report["min_length"] <= report["median_length"] <= report["max_length"]
    assert 0 < report["board_fill"] <= 1
    assert report["mean_branching"] > 1


def test_tie_rates_fall_as_the_target_falls(report):
    rates = report["tie_rate_by_target"]
    assert rates["5"] <= rates["6"] <= rates["7"] <= rates["8"]
    assert rates["8"] == pytest.approx(1 - report["decisive"])


def test_a_target_above_the_runs_own_is_not_guessed():
    report = run_playtest(CommonCarrierGame(options={"target": 6}), 5, seed=1)
    assert report["tie_rate_by_target"]["7"] is None
    assert report["tie_rate_by_target"]["6"] is not None


def test_same_seed_same_report_whatever_the_number_of_jobs(report):
    game = CommonCarrierGame(options={"target": 8})
    again = run_playtest(game, 40, seed=7, jobs=2)
    assert without_timing(again) == without_timing(report)
    other = run_playtest(game, 40, seed=8)
    assert without_timing(other) != without_timing(report)


def test_greedy_beats_random_at_common_carrier():
    report = run_playtest(CommonCarrierGame(), 6, seed=3, policy="greedy", vs="random")
    assert report["policy"] == "greedy" and report["vs"] == "random"
    assert report["seat_win_rates"][0]["wins"] >= 5


def test_timeouts_are_counted_when_games_run_long():
    report = run_playtest(CommonCarrierGame(), 3, seed=1, max_moves=4)
    assert report["timeouts"] == 3 and report["max_length"] == 4
    assert report["completion"] == 0 and report["draws"] == 0
    assert report["outcomes"] == {"decisive": 0, "ties": 0, "timeouts": 1}
    assert "3 games" in report["verdict"] and "100% were cut off after 4 moves" in report["verdict"]


def test_bad_settings_are_refused():
    game = CommonCarrierGame()
    with pytest.raises(CardgenError, match="unknown policy 'clever'"):
        run_playtest(game, 2, seed=1, policy="clever")
    with pytest.raises(CardgenError, match="at least 1"):
        run_playtest(game, 0, seed=1)


def test_text_and_json_reports(report):
    text = format_report(report)
    assert "seat 1 wins" in text and "tie rate by target" in text and "95% CI" in text
    assert '"tie_rate_by_target"' in report_json(report)


def test_charts_are_written_as_pdf_and_png(report, tmp_path):
    pdf = draw_report(report, tmp_path / "charts.pdf")
    assert pdf.read_bytes().startswith(b"%PDF")
    png = draw_report(report, tmp_path / "out" / "charts.png")
    assert png.read_bytes().startswith(b"\x89PNG")
    with pytest.raises(CardgenError, match=r"\.pdf or \.png"):
        draw_report(report, tmp_path / "charts.svg")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["charts.pdf", "out"]


# --- a tiny simultaneous game: the runner must drive joint actions ---------------

class MatchingPennies(Game):
    """Both players show a coin at once; player 0 wins on a match. Three rounds."""

    name = "pennies"

    def __init__(self):
        super().__init__(2)

    def new_initial_state(self, rng: random.Random) -> PenniesState:
        return PenniesState()

    def heuristic(self, state: PenniesState, player: int) -> float:
        return state.score if player == 0 else -state.score


class PenniesState(State):
    def __init__(self):
        self.round, self.score = 0, 0

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else SIMULTANEOUS

    def legal_actions(self, player=None):
        return [] if self.is_terminal() else [0, 1]

    def apply_action(self, action):
        a, b = action
        self.score += 1 if a == b else -1
        self.round += 1

    def is_terminal(self) -> bool:
        return self.round == 3

    def returns(self):
        return [1.0, 0.0] if self.score > 0 else [0.0, 1.0]

    def clone(self):
        other = PenniesState()
        other.round, other.score = self.round, self.score
        return other


def test_simultaneous_games_get_one_action_per_player():
    record = play_game(MatchingPennies(), 0, seed=1, seats=["random", "random"])
    assert record.length == 3 and len(record.branching) == 6
    assert record.branching == [2] * 6
    report = run_playtest(MatchingPennies(), 50, seed=2, policy="greedy")
    assert report["games"] == 50 and report["draws"] == 0
    assert report["mean_branching"] == 2 and report["multi_choice_share"] == 1


class PenniesPlayedOut(MatchingPennies):
    """Pennies whose engine plays all-random games out whole, as a fast engine may."""

    playouts = 0

    def random_playout(self, state, rng, max_moves, branching):
        type(self).playouts += 1
        moves = 0
        while not state.is_terminal() and moves < max_moves:
            branching += [2, 2]
            state.apply_action((rng.randrange(2), rng.randrange(2)))
            moves += 1
        return moves


def test_an_engine_plays_all_random_games_out_itself_and_no_others():
    game = PenniesPlayedOut()
    record = play_game(game, 0, seed=1, seats=["random", "random"])
    assert PenniesPlayedOut.playouts == 1
    assert record.length == 3 and record.branching == [2] * 6 and not record.timeout
    assert play_game(game, 0, seed=1, seats=["random", "random"], max_moves=2).timeout
    play_game(game, 0, seed=1, seats=["random", "greedy"])
    assert PenniesPlayedOut.playouts == 2


# --- reports people can read -------------------------------------------------------

def test_per_card_figures_count_plays_holdings_and_the_players_who_won(report):
    cards = report["cards"]
    # the basic game: 4 copies of each of 8 patterns a player, 2 players, and every card placed or held
    per_game = {name: card["plays_per_game"] + card["held_per_game"] for name, card in cards.items()}
    assert len(cards) == 8 and all(v <= 8 for v in per_game.values())
    wins = sum(s["wins"] for s in report["seat_win_rates"])
    for card in cards.values():
        assert card["players_who_played"] <= 2 * report["games"]
        if card["win_rate_when_played"] is not None:
            assert card["wilson_low"] <= card["win_rate_when_played"] <= card["wilson_high"]
            assert card["win_rate_when_played"] * card["players_who_played"] <= wins + 1e-9


def test_card_records_come_from_the_state():
    game = CommonCarrierGame()
    record = play_game(game, 0, seed=5, seats=["random", "random"])
    assert record.played is not None and record.held is not None
    assert sum(len(p) for p in record.played) + sum(len(h) for h in record.held) <= 64
    assert all(len(p) > 0 for p in record.played)


def test_engines_without_a_card_record_get_no_card_figures():
    assert run_playtest(MatchingPennies(), 10, seed=1)["cards"] is None


def test_a_first_player_advantage_is_named_with_its_interval():
    report = run_playtest(MatchingPennies(), 200, seed=3)
    # random pennies: player 0 wins when the 3-round score is positive, half the time
    assert "No seat is clearly favoured" in report["verdict"]
    rigged = dict(report)
    rigged["seat_win_rates"] = [dict(s) for s in report["seat_win_rates"]]
    rigged["seat_win_rates"][0].update(wins=130, rate=0.65)
    rigged["seat_win_rates"][1].update(wins=70, rate=0.35)
    text = verdict(rigged)
    _, low, high = rate_difference(130, 70, 200)  # Newcombe's paired interval on all 200 games
    span = f"{round(100 * low)} to {round(100 * high)} points"
    assert f"Seat 1 wins 30 points more often than seat 2 (95% CI {span}): a first-player advantage." in text


def test_policies_that_differ_are_compared_in_words():
    report = run_playtest(CommonCarrierGame(), 12, seed=3, policy="greedy", vs="random")
    assert "Seat 1 (greedy) wins" in report["verdict"] and "than seat 2 (random)" in report["verdict"]
    assert "the greedy player has the edge" in report["verdict"]
    text = format_report(report)
    assert text.splitlines()[3].strip().startswith("Of 12 games")


def test_length_bins_stop_at_the_longest_game():
    labels, counts = length_bins({"7": 1, "40": 3, "61": 2})
    assert labels[0].startswith("7-") and labels[-1].split("-")[-1] == "61"
    assert sum(counts) == 6 and len(labels) == len(counts) <= 20
    assert length_bins({"5": 2, "8": 1}) == (["5", "6", "7", "8"], [2, 0, 0, 1])


@pytest.mark.parametrize("seats", [2, 5, 8, 12])
def test_seat_labels_never_overlap(seats):
    from reportlab.pdfbase.pdfmetrics import stringWidth

    policies = ["greedy"] + ["random"] * (seats - 1)
    labels, title = seat_labels(policies, ["ties", "timeouts"], CHART_WIDTH)
    shown = fit_labels(labels + ["ties", "timeouts"], CHART_WIDTH)
    step = CHART_WIDTH / len(shown)
    centres = [(i + 0.5) * step for i, label in enumerate(shown) if label]
    widths = [stringWidth(label, "Helvetica", 7) for label in shown if label]
    for (x1, w1), (x2, w2) in zip(zip(centres, widths), zip(centres[1:], widths[1:])):
        assert x1 + w1 / 2 < x2 - w2 / 2
    assert shown[:seats] == labels  # every seat keeps its label
    if "(" not in labels[0]:
        assert "seat 1: greedy" in title


def test_the_win_chart_draws_ties(tmp_path):
    from reportlab.graphics.charts.barcharts import VerticalBarChart

    from cardgen.playtest import _win_rate_panel

    report = run_playtest(CommonCarrierGame(options={"target": 8}), 10, seed=7)
    panel = _win_rate_panel(report)
    chart = next(c for c in panel.contents if isinstance(c, VerticalBarChart))
    assert chart.categoryAxis.categoryNames[-1] == "ties"
    assert chart.data[0][-1] == pytest.approx(100 * report["outcomes"]["ties"])


def test_the_best_and_worst_of_many_seats_are_compared_with_a_wider_interval():
    seats = [{"seat": i, "policy": "random", "wins": w, "rate": w / 200}
             for i, w in enumerate([33, 25, 18, 12, 29, 20, 32, 31])]
    report = {"games": 200, "outcomes": {"decisive": 1.0, "ties": 0.0, "timeouts": 0.0}, "max_moves": 10,
              "seat_win_rates": seats, "decisive": 1.0, "mean_length": 5, "min_length": 1, "max_length": 9}
    # 33 against 12 of 200 games would pass as a planned pair, not as the extremes of 28 pairs
    assert rate_difference(33, 12, 200)[1] > 0
    assert "No seat is clearly favoured" in verdict(report)
    assert "95% CI over all 28 pairs of seats" in verdict(report)


def test_chart_pdfs_carry_no_clock(report, tmp_path, monkeypatch):
    import time

    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    first = draw_report(report, tmp_path / "a.pdf").read_bytes()
    time.sleep(1.1)
    second = draw_report(report, tmp_path / "b.pdf").read_bytes()
    assert first == second
