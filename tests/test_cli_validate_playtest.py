"""`cardgen validate` and `cardgen playtest` through click's test runner."""
from __future__ import annotations

import json

import pytest
from conftest import ROOT

from cardgen.playtest import TIMING_KEYS

BUNDLED = ["common-carrier", "dotcombust", "clusterfuck"]


@pytest.mark.parametrize("deck", BUNDLED)
def test_every_bundled_deck_is_playable(cli, deck):
    result = cli("validate", deck, "--games", "5")
    assert result.exit_code == 0, result.output
    assert f"{deck} (" in result.output and "playable" in result.output


def test_validate_json_lists_findings_and_the_playtest(cli):
    result = cli("validate", "common-carrier", "--games", "4", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)[0]
    assert report["playable"] is True
    assert report["playtest"]["games"] == 4


def test_a_deck_missing_a_basic_pattern_is_not_playable_and_build_refuses_it(cli, tmp_path):
    text = (tmp_path / "cc.yaml")
    source = (ROOT / "decks" / "common-carrier.yaml").read_text()
    lines = [line for line in source.splitlines() if "id: tee-horizontal" not in line]
    text.write_text("\n".join(lines) + "\n")
    result = cli("validate", text, "--games", "0")
    assert result.exit_code == 1
    assert "cc.yaml" in result.output and "NOT playable" in result.output
    built = cli("build", text, "--out", tmp_path / "out")
    assert built.exit_code == 1 and "--no-validate" in built.output
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").glob("*.pdf"))
    forced = cli("build", text, "--out", tmp_path / "out", "--no-validate")
    assert forced.exit_code == 0, forced.output


def test_gray_cards_asked_for_beyond_what_was_printed_are_reported(cli):
    result = cli("validate", "common-carrier", "--gray", "none", "--option", "gray_rule=true", "--games", "0")
    assert result.exit_code == 1
    assert "pbx" in result.output.lower()


def test_validate_bad_input_is_exit_2(cli, tmp_path):
    assert cli("validate", tmp_path / "missing.yaml").exit_code == 2
    assert cli("validate", "clusterfuck", "--players", "13").exit_code == 2


def test_clusterfuck_with_few_players_warns_but_is_playable(cli):
    result = cli("validate", "clusterfuck", "--players", "4", "--games", "2")
    assert result.exit_code == 0, result.output
    assert "warning" in result.output


@pytest.mark.parametrize("deck, extra", [
    ("common-carrier", []),
    ("dotcombust", ["--players", "4"]),
    ("clusterfuck", ["--players", "5"]),
])
def test_playtest_json_has_the_common_figures(cli, deck, extra):
    result = cli("playtest", deck, "--games", "6", "--seed", "3", "--json", *extra)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    for key in ("games", "completion", "draws", "timeouts", "seat_win_rates", "mean_length",
                "games_per_second"):
        assert key in report
    assert report["games"] == 6


def test_common_carrier_playtest_reports_tie_rate_for_targets_5_to_8(cli):
    report = json.loads(cli("playtest", "common-carrier", "--games", "8", "--json").output)
    assert set(report["tie_rate_by_target"]) == {"5", "6", "7", "8"}


def test_same_seed_same_report_whatever_jobs(cli):
    one = json.loads(cli("playtest", "common-carrier", "--games", "12", "--seed", "9", "--json").output)
    two = json.loads(cli("playtest", "common-carrier", "--games", "12", "--seed", "9", "--json",
                         "--jobs", "2").output)
    for report in (one, two):
        for key in TIMING_KEYS:
            report.pop(key)
    assert one == two


def test_playtest_text_report_and_chart(cli, tmp_path):
    chart = tmp_path / "report.pdf"
    result = cli("playtest", "common-carrier", "--games", "6", "--report", chart)
    assert result.exit_code == 0, result.output
    assert "completion" in result.output.lower()
    assert chart.read_bytes().startswith(b"%PDF")


def test_playtest_rejects_unknown_options_and_engineless_decks(cli, tmp_path):
    bad = cli("playtest", "common-carrier", "--games", "2", "--option", "targte=6")
    assert bad.exit_code == 2 and "did you mean 'target'" in bad.output
    cli("new", "plain", "--dir", tmp_path)
    none = cli("playtest", tmp_path / "plain" / "plain.yaml", "--games", "2")
    assert none.exit_code == 2 and "no game engine" in none.output
