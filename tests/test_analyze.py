"""cardgen analyze: each question quotes the seed, runs its experiments and answers with evidence."""
from __future__ import annotations

import itertools
import json
import re

import pytest

from cardgen.analyze import Settings, analyze, chart_of
from cardgen.games import game_info
from cardgen.games.base import GameRecord
from cardgen.games.questions import QUICK_RUN

IDS = ["cc-target", "cc-last-player", "cc-pbx", "dcb-variants", "cf-rounds", "cf-status-power"]
GAMES = ("common-carrier", "dotcombust", "clusterfuck")
#: per game, the full run's policy and games, as the game declares them
FULL_RUN = {game: game_info(game).questions.full_run for game in GAMES}


def test_every_question_of_the_issue_is_asked():
    assert [q.id for game in GAMES for q in game_info(game).questions.questions] == IDS


@pytest.mark.parametrize("game", ["common-carrier", "dotcombust", "clusterfuck"])
def test_a_quick_analysis_answers_with_evidence(game):
    report = analyze(game, Settings(policy="random", games=6, quick=True))
    assert report["questions"]
    for answer in report["questions"]:
        assert set(answer) >= {"id", "question", "answer", "evidence", "confidence"}
        assert answer["evidence"]["policy"] == "random"
        assert re.search(r"\d", answer["answer"]), answer["answer"]
        title, labels, values, _ = chart_of(answer, game)
        assert title and len(labels) == len(values) > 0
    json.dumps(report)


def test_the_command_names_unknown_games_and_questions(cli):
    result = cli("analyze", "clusterfuck", "--quick", "--games", "4", "--question", "cf-rounds", "--json")
    assert result.exit_code == 0, result.output
    assert [q["id"] for q in json.loads(result.output)["questions"]] == ["cf-rounds"]
    bad = cli("analyze", "gops", "--quick")
    assert bad.exit_code == 2 and "no questions for 'gops'" in bad.output


def test_the_report_is_written_as_pdf_or_html_with_a_chart_per_answer(tmp_path):
    from cardgen.analyze import write_report

    report = analyze("clusterfuck", Settings(policy="random", games=4, quick=True))
    for answer in report["questions"]:
        title, labels, values, _ = chart_of(answer, "clusterfuck")
        assert title and len(labels) == len(values) > 0
    pdf = write_report(report, tmp_path / "a.pdf").read_bytes()
    assert pdf.startswith(b"%PDF")
    html = write_report(report, tmp_path / "a.html").read_text(encoding="utf-8")
    assert html.count("<svg") == len(report["questions"]) and "cf-rounds" in html
    with pytest.raises(Exception, match=r"\.pdf or \.html"):
        write_report(report, tmp_path / "a.txt")


def test_the_plan_is_known_before_the_first_game_and_shares_experiments():
    from cardgen.analyze import plan

    full = plan("clusterfuck", Settings())
    # the status-power factorial (2 player counts x exchange 0, 2 x powers on, off) holds the
    # rounds question's four playtests: played once
    assert len(full.experiments) == 8 and len(full.questions) == 2
    assert (full.settings.policy, full.settings.games) == FULL_RUN["clusterfuck"]
    assert full.total_games == 8 * FULL_RUN["clusterfuck"][1]
    assert "8 experiments" in full.describe() and f"{full.total_games} games" in full.describe()
    quick = plan("dotcombust", Settings(quick=True, games=3))
    assert (quick.settings.policy, quick.settings.games) == (QUICK_RUN[0], 3)
    assert len(quick.experiments) == 2 * 5
    assert quick.estimate_seconds() > 0


def test_the_command_says_the_size_and_time_before_playing(cli):
    result = cli("analyze", "common-carrier", "--quick", "--games", "2", "--question", "cc-target")
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert first.startswith("analyze common-carrier: 1 question, 4 experiments of 2 games (8 games), greedy play")
    assert re.search(r"about \d+ s with 1 process", result.output)


def test_docs_answers_are_written_from_the_json_of_a_run(tmp_path):
    import sys

    from conftest import ROOT

    sys.path.insert(0, str(ROOT / "tools"))
    from answers_md import render

    report = json.loads(json.dumps(analyze("clusterfuck", Settings(policy="random", games=3, quick=True))))
    text = render([report])
    assert "    cardgen analyze clusterfuck --policy random --games 3 --seed 1 --quick" in text
    for answer in report["questions"]:
        assert f"### {answer['id']}" in text and answer["answer"] in text
    assert re.search(r"8 experiments of 3 games: 24 games played, \d+ minutes on the machine that ran it "
                     r"\(1 process\), \d+ CPU-minutes\.", text)
    # a run grown to a precision gives its budget in the command and where each answer stopped
    grown = json.loads(json.dumps(analyze("clusterfuck", Settings(policy="random", games=2, quick=True,
                                                                   precision=0.5, max_games=4))))
    text = render([grown])
    assert "    cardgen analyze clusterfuck --policy random --games 2 --seed 1 --precision 50 --max-games 4 --quick" \
        in text and "grown to at most 4 an experiment" in text
    for answer in grown["questions"]:
        assert f"*Stopped:* {answer['stopped']}." in text
    # a budget no bigger than the first games is not called growing
    kept = {**grown, "max_games": 2, "total_games": 16}
    assert "8 experiments of 2 games, its budget (each answer says whether it settled): 16 games played" \
        in render([kept])


def test_a_ladder_row_never_rounds_an_interval_onto_the_50_percent_line():
    """The verdict turns on whether the interval excludes 50 %: a bound of 49.96 % is not shown as 50."""
    import sys

    from conftest import ROOT

    sys.path.insert(0, str(ROOT / "tools"))
    from answers_md import render

    pair = {"a": "greedy", "b": "mcts:300", "games": 400, "a_wins": 181, "b_wins": 219, "ties": 0,
            "a_score": 0.4261, "score_low": 0.3487, "score_high": 0.49959, "verdict": "mcts:300 beats greedy"}
    ladder = {"game": "clusterfuck", "players": 5, "seed": 2, "options": {"players": 5}, "pairs": [pair],
              "policies": ["greedy", "mcts:300"], "games_per_seating": 200}
    assert "| 43% (35-49.96%) | mcts:300 beats greedy |" in render([ladder])
    pair.update(score_low=0.401, score_high=0.5552)
    assert "(40-56%)" in render([ladder])


def test_clusterfuck_answers_carry_95_percent_intervals():
    report = analyze("clusterfuck", Settings(policy="random", games=6, quick=True))
    rounds, power = report["questions"]
    for exchange, row in rounds["evidence"]["mean_rounds_by_exchange_and_players"].items():
        for players, mean in row.items():
            low, high = rounds["evidence"]["ci95"][exchange][players]
            assert low <= mean <= high
            assert f"{mean:.1f} rounds (95% CI {low:.1f} to {high:.1f}) with {players} players" in rounds["answer"]
    assert set(rounds["evidence"]["mean_rounds_by_exchange_and_players"]) == {"exchange 0", "exchange 2"}
    for answer in (rounds, power):  # the reading of "traditional Asshole" is stated in each answer
        assert "played like traditional Asshole" in answer["answer"] and "exchange 0" in answer["answer"]
    for row in power["evidence"]["by_players"].values():
        assert len(row["cells"]) == 4  # status powers on and off, crossed with exchange 0 and 2
        for cell in row["cells"].values():
            low, high = cell["ci95"]
            assert 0 <= low <= cell["magnate_keeps_place"] <= high <= 1 and cell["rounds"] > 0
        assert len(row["effects"]) == 4
        for effect in row["effects"].values():
            low, high = effect["ci95"]
            assert low <= effect["difference"] <= high


def test_the_status_power_answer_names_an_effect_only_when_its_interval_excludes_zero():
    from cardgen.games.clusterfuck.questions import _cell, cf_status_power
    from cardgen.games.questions import Settings as QSettings

    def figures(kept, rounds, alike=False):
        """20 games of rounds/20 rounds each; the Magnate's keeps spread evenly over them, or (alike)
        whole games kept and whole games lost."""
        per = rounds // 20
        if alike:
            games = [[per, per]] * (kept // per) + [[0, per]] * (20 - kept // per)
        else:
            games = [[kept // 20 + (g < kept % 20), per] for g in range(20)]
        return {"game_figures": {"Magnate keeps place (rounds kept and rounds, per game)": games}}

    settings = QSettings(policy="greedy", games=20, quick=True)
    results = {}
    for players in (5, 8):
        results[_cell(players, 0, True)] = figures(60, 200)
        results[_cell(players, 0, False)] = figures(58, 200)   # powers: no clear effect
        results[_cell(players, 2, True)] = figures(120, 200)   # exchange: a clear one
        results[_cell(players, 2, False)] = figures(118, 200)
    answer = cf_status_power(settings, results)
    assert "status powers with exchange 0: no clear effect: the difference is no more than" in answer["answer"]
    assert "exchange with powers on: more often by 30 points" in answer["answer"]
    # the same rounds, but each game kept or lost whole: 20 games, not 200 rounds, and the
    # exchange's 30 points (60% against 30%) are no longer beyond chance
    for players in (5, 8):
        for exchange, kept in ((0, 60), (2, 120)):
            results[_cell(players, exchange, True)] = figures(kept, 200, alike=True)
    clustered = cf_status_power(settings, results)
    cell = clustered["evidence"]["by_players"]["5"]["cells"]["exchange 2, powers on"]
    assert cell["design_effect"] > 5 and cell["games"] == 20 and cell["rounds"] == 200
    assert "exchange with powers on: no clear effect" in clustered["answer"]
    assert "cluster" in clustered["confidence"] and "Rao and Scott" in clustered["evidence"]["method"]


def test_docs_answers_show_the_ladders_with_their_options(cli):
    import sys

    from conftest import ROOT

    sys.path.insert(0, str(ROOT / "tools"))
    from answers_md import render

    result = cli("ladder", "common-carrier", "--option", "target=5", "--policies", "random,greedy", "--games", "2",
                 "--json")
    assert result.exit_code == 0, result.output
    ladder = json.loads(result.output)
    assert ladder["options"] == {"target": 5}
    text = render([ladder])
    assert "## How strong the players are" in text
    assert "| common-carrier | 2 | target=5 | 1 | random vs greedy | 4 |" in text
    # the command under the table plays the same ladder again
    command = re.search(r"- `cardgen (ladder [^`]*)`", text).group(1)
    assert command == "ladder common-carrier --option target=5 --policies random,greedy --games 2 --seed 1"
    again = json.loads(cli(*command.split(), "--json").output)
    timing = ("seconds", "cpu_seconds")
    assert [{k: v for k, v in p.items() if k not in timing} for p in again["pairs"]] == \
        [{k: v for k, v in p.items() if k not in timing} for p in ladder["pairs"]]


def test_the_help_and_the_readme_give_the_full_run_sizes_the_code_plays(cli):
    """The full run's policy and games per game are stated in `analyze --help` and the README; a
    change to FULL_RUN must change them too."""
    from conftest import ROOT

    helped = " ".join(re.sub(r"-\n\s*", "-", cli("analyze", "--help").output).split())  # unwrapped
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    names = {"common-carrier": "Common Carrier", "dotcombust": "dotCOMbust", "clusterfuck": "Clusterfuck"}
    for game, (policy, games) in FULL_RUN.items():
        assert f"{games} for {game}" in helped and policy in helped, game
        assert re.search(rf"`{policy}`[^()]*?\b{games}\b[^()]*?{names[game]}", readme), game
    assert f"{QUICK_RUN[0]} with --quick" in helped and f"{QUICK_RUN[1]} with --quick" in helped


def test_common_carrier_seat_answers_name_a_direction_only_when_the_interval_excludes_zero():
    from cardgen.games.common_carrier.questions import CC_ENDGAME, CC_PBX, cc_last_player, cc_pbx
    from cardgen.games.questions import Settings as QSettings

    def report(first, second, games=100):
        return {"seat_win_rates": [{"wins": first}, {"wins": second}], "games": games,
                "draws": games - first - second}

    settings = QSettings(policy="greedy", games=100)
    # issue 25: "wins 2 points less often" with a 95% CI of -7 to +4 is a direction the interval
    # does not support; 1 decided game in 100 is no evidence either
    results = {CC_ENDGAME[0][1]: report(20, 18), CC_ENDGAME[1][1]: report(0, 1)}
    answer = cc_last_player(settings, results)["answer"]
    assert "less often" not in answer and "more often" not in answer
    assert answer.count("no more than") == 2 and "points either way" in answer
    results = {CC_ENDGAME[0][1]: report(10, 40), CC_ENDGAME[1][1]: report(30, 30)}
    last = cc_last_player(settings, results)
    answer = last["answer"]
    # as the seed frames it: each seat's wins and the ties, the last player's edge, the rule's effect
    assert answer.startswith("Without Endgame seat 1 wins 10%, seat 2 40%, 50% tie; the last player wins more "
                             "often than the first by 30 points")
    assert "the Endgame rule changes ties: down by 10 points" not in answer  # 50% -> 40%: within chance
    assert "the Endgame rule changes ties: no clear change" in answer
    assert "the Endgame rule changes the first player's wins: up by 20 points" in answer
    assert last["evidence"]["with Endgame"]["tie"]["rate"] == pytest.approx(0.4)
    pbx = cc_pbx(settings, {CC_PBX[0]: report(40, 20), CC_PBX[1]: report(20, 40)})
    assert "The player who shuffles in 4 PBX wins more often" in pbx["answer"]
    assert pbx["evidence"]["ci95"][0] > 0 and "MOVER" in pbx["evidence"]["method"]
    pbx = cc_pbx(settings, {CC_PBX[0]: report(30, 28), CC_PBX[1]: report(29, 31)})
    assert "within chance: the difference is no more than" in pbx["answer"]


def test_each_common_carrier_target_is_played_as_its_own_game():
    """Issue 25: tie rates at 5, 6 and 7 read from games played to 8 hold only for players that
    ignore the target; greedy and mcts use it."""
    from cardgen.analyze import plan

    planned = plan("common-carrier", Settings(quick=True, games=3))
    targets = sorted(dict(run.options).get("target") for run in planned.experiments
                     if set(dict(run.options)) == {"target"})
    assert targets == [5, 6, 7, 8]
    report = analyze("common-carrier", Settings(policy="greedy", games=3, quick=True), ["cc-target"])
    ties = report["questions"][0]["evidence"]["tie_rate_by_target"]
    assert set(ties) == {"5", "6", "7", "8"} and all(t["games"] == 3 for t in ties.values())


def test_dotcombust_lengths_carry_intervals_and_count_cut_off_games_apart():
    from cardgen.games.dotcombust.questions import DCB_VARIANTS, dcb_variants
    from cardgen.games.questions import Settings as QSettings
    from cardgen.games.questions import experiment

    def report(mean, cut):
        return {"games": 30, "draws": 3, "timeouts": cut, "seat_win_rates": [{"rate": 0.3}] * 3,
                "game_figures": {"turns per finished game (mean)": mean,
                                 "turns per finished game (95% CI)": [mean - 2, mean + 2],
                                 "mean turns per game": 999.0}}

    settings = QSettings(policy="greedy", games=30, quick=True)
    results = {experiment("dotcombust", {**options, "players": players}): report(20.0 + i, 4 if i == 3 else 0)
               for players in (3, 4) for i, (_, options) in enumerate(DCB_VARIANTS)}
    answer = dcb_variants(settings, results)
    assert "base 20 turns (95% CI 18 to 22), 10% ties" in answer["answer"]
    assert "bitter end 23 turns (95% CI 21 to 25), 10% ties, 13% cut off" in answer["answer"]
    assert "999" not in answer["answer"]  # the mean over every game, cut off ones too, is not used
    cell = answer["evidence"]["by_players"]["3"]["bitter end"]
    assert cell["finished_games"] == 26 and cell["stalled"]["games"] == 30


def _fake_pbx_play(pbx_rate, goose_rate):
    """A playtest stand-in for cc-pbx: seat results at fixed rates, the same games for the same seed
    (the first N of a larger run are those of the smaller one)."""
    calls = []

    def play(settings, run, records):
        calls.append((run, settings.games))
        records += [GameRecord(seed=i, length=1, winners=[], timeout=False)
                    for i in range(len(records), settings.games)]
        pbx_seat = 0 if dict(run.options).get("gray_pbx_1") == 4 else 1
        n = settings.games
        pbx, goose = round(pbx_rate * n), round(goose_rate * n)
        wins = [pbx, goose] if pbx_seat == 0 else [goose, pbx]
        return {"seat_win_rates": [{"wins": w} for w in wins], "games": n, "draws": n - pbx - goose}
    return play, calls


def test_a_growing_experiment_plays_each_game_once_and_answers_as_one_run_of_its_size(monkeypatch):
    import cardgen.analyze as analysis

    asked = []
    real = analysis.play_games

    def counted(game, indices, *args):
        asked.append((game.options["gray_pbx_1"], indices))
        return real(game, indices, *args)

    monkeypatch.setattr(analysis, "play_games", counted)
    grown = analysis.analyze("common-carrier", Settings(policy="greedy", games=4, precision=0.001, max_games=16),
                             ["cc-pbx"])
    assert grown["questions"][0]["games_an_experiment"] == 16
    for seating in (4, 0):
        assert [indices for pbx, indices in asked if pbx == seating] == [range(0, 4), range(4, 8), range(8, 16)]
    assert grown["cpu_seconds"] > 0 and grown["total_games"] == 32
    once = analysis.analyze("common-carrier", Settings(policy="greedy", games=16), ["cc-pbx"])
    assert once["questions"][0]["evidence"] == grown["questions"][0]["evidence"]


def test_an_answer_plays_on_until_it_is_settled_and_says_so(monkeypatch):
    import cardgen.analyze as analysis

    play, calls = _fake_pbx_play(0.45, 0.35)
    monkeypatch.setattr(analysis, "play", play)
    settings = Settings(policy="greedy", games=50, precision=0.03, max_games=1600)
    report = analysis.analyze("common-carrier", settings, ["cc-pbx"])
    answer = report["questions"][0]
    assert answer["stopped"].startswith("settled") and answer["evidence"]["ci95"][0] > 0
    sizes = sorted({games for _, games in calls})
    assert sizes[0] == 50 and all(b == 2 * a for a, b in itertools.pairwise(sizes))  # doubling
    assert answer["games_an_experiment"] == sizes[-1] < 1600
    assert report["total_games"] == 2 * sizes[-1]
    assert analysis.analyze("common-carrier", settings, ["cc-pbx"])["questions"] == report["questions"]


def test_an_answer_that_cannot_settle_is_bounded_or_stops_at_its_budget(monkeypatch):
    import cardgen.analyze as analysis

    play, _ = _fake_pbx_play(0.40, 0.40)
    monkeypatch.setattr(analysis, "play", play)
    # equal rates never separate: at 3 points the budget of 400 games runs out first
    answer = analysis.analyze("common-carrier", Settings(policy="greedy", games=100, precision=0.03,
                                                         max_games=400), ["cc-pbx"])["questions"][0]
    assert answer["stopped"].startswith("budget: 400 games an experiment (of 400 at most)")
    assert "no more than" in answer["answer"]
    # at 10 points, 200 games a seating bound it
    answer = analysis.analyze("common-carrier", Settings(policy="greedy", games=100, precision=0.10,
                                                         max_games=3200), ["cc-pbx"])["questions"][0]
    assert answer["stopped"].startswith("bounded") and answer["games_an_experiment"] <= 200
    # without --precision: the games asked, once, and no stop line
    once = analysis.analyze("common-carrier", Settings(policy="greedy", games=100), ["cc-pbx"])["questions"][0]
    assert "stopped" not in once and once["games_an_experiment"] == 100


def test_the_command_plays_on_to_a_precision_and_says_where_each_answer_stopped(cli):
    result = cli("analyze", "common-carrier", "--quick", "--games", "2", "--question", "cc-pbx",
                 "--precision", "50", "--max-games", "4")
    assert result.exit_code == 0, result.output
    assert "doubled up to 4 games an experiment until each answer settles or is within 50 points" in result.output
    assert "  stopped: " in result.output


def test_the_last_player_question_plays_seat_2_for_the_tie_where_the_policy_searches():
    """Issue 25: "the last player seems to have an advantage in 'playing for stalemate'": with the
    search, two more arms where seat 2 counts a tie as a win, without and with Endgame."""
    from cardgen.analyze import plan

    assert len(plan("common-carrier", Settings(policy="greedy", games=2), ["cc-last-player"]).experiments) == 2
    searching = plan("common-carrier", Settings(policy="mcts:5", games=2), ["cc-last-player"])
    assert [run.seats("mcts:5") for run in searching.experiments] == \
        [("mcts:5", "mcts:5")] * 2 + [("mcts:5", "mcts:5:tie=1")] * 2
    assert ("mcts:5 play on every seat but the seats after the first in 2 experiments, which play mcts:5:tie=1, "
            "seed 1") in searching.describe()
    answer = analyze("common-carrier", Settings(policy="mcts:5", games=3), ["cc-last-player"])["questions"][0]
    tie = answer["evidence"]["playing_for_the_tie"]
    assert tie["seat_1_policy"] == "mcts:5" and tie["seat_2_policy"] == "mcts:5:tie=1"
    for label in ("without Endgame", "with Endgame"):
        assert {arm["games"] for arm in tie[label]["arms"].values()} == {3}
        assert tie[label]["not_losing"]["ci95"][0] <= tie[label]["not_losing"]["tie_minus_usual"]
    assert "method 10" in tie["method"] and "playing for the tie gains in games not lost" in answer["answer"]
    assert "playing for the tie (mcts:5:tie=1 against mcts:5)" in answer["confidence"]
    title, labels, values, _ = chart_of(answer, "common-carrier")
    assert "seat 2 playing for the tie" in title and len(labels) == len(values) == 8
    plain = analyze("common-carrier", Settings(policy="greedy", games=2), ["cc-last-player"])["questions"][0]
    assert "playing_for_the_tie" not in plain["evidence"] and "greedy cannot" in plain["confidence"]


def test_the_tie_seeking_gain_is_stated_only_where_its_interval_excludes_zero():
    from cardgen.games.common_carrier.questions import CC_ENDGAME, CC_TIE, cc_last_player
    from cardgen.games.questions import Settings as QSettings

    def report(first, second, games=100):
        return {"seat_win_rates": [{"wins": first}, {"wins": second}], "games": games,
                "draws": games - first - second}

    # without Endgame playing for the tie turns 30 of the first player's wins in 100 into ties; with
    # Endgame it changes nothing
    results = {CC_ENDGAME[0][1]: report(30, 10), CC_TIE[0][1]: report(5, 8),
               CC_ENDGAME[1][1]: report(20, 10), CC_TIE[1][1]: report(20, 10)}
    last = cc_last_player(QSettings(policy="mcts:300", games=100), results)
    answer = last["answer"]
    assert ("without Endgame, the last player playing for the tie does not lose 95% of games against 70% "
            "playing as usual, more often by 25 points") in answer
    assert "and wins 8% of games against 10% playing as usual, no clear difference: the difference is no more" \
        in answer
    assert ("with Endgame, the last player playing for the tie does not lose 80% of games against 80% playing "
            "as usual, no clear difference") in answer
    assert "the Endgame rule changes what playing for the tie gains in games not lost: down by 25 points" in answer
    gain = last["evidence"]["playing_for_the_tie"]["without Endgame"]["not_losing"]
    assert gain["ci95"][0] > 0 and gain["tie_minus_usual"] == pytest.approx(0.25)
    assert not last["settled"]  # the win differences are within chance
    assert last["widest"] >= max((high - low) / 2 for low, high in [gain["ci95"]])

