"""build, validate and playtest see the same decks: one function prepares them, shared options are declared once."""
from __future__ import annotations

import json
import re

import pytest

from cardgen import deck as deck_module
from cardgen.cli import main
from cardgen.errors import CardgenError
from cardgen.games import POLICIES
from cardgen.playtest import check_policy
from cardgen.sheets import DUPLEX_MODES, template_names

#: one set of settings for every bundled deck at once: each deck takes what it knows
SETTINGS = ["--option", "target=6", "--option", "assets=12", "--players", "5",
            "--color", "teal", "--color", "orange", "--gray", "pbx=2,goose=1"]


def printed_cards(build_output: str) -> dict[str, int]:
    """Cards per deck id from `cardgen build`'s lines ``output/ID[-player].pdf: N cards, ...``."""
    counts: dict[str, int] = {}
    for deck, count in re.findall(r"([a-z0-9-]+?)(?:-player-\d+|-shared)?\.pdf: (\d+) cards?", build_output):
        counts[deck] = counts.get(deck, 0) + int(count)
    return counts


def test_build_and_validate_agree_on_every_bundled_deck_with_the_same_settings(cli, tmp_path):
    built = cli("build", "--out", tmp_path, *SETTINGS)
    assert built.exit_code == 0, built.output
    checked = cli("validate", "--games", "2", "--json", *SETTINGS)
    assert checked.exit_code == 0, checked.output
    reports = json.loads(checked.output)
    assert {r["deck"]: r["cards"] for r in reports} == printed_cards(built.output)
    assert all(r["playable"] for r in reports)
    # the settings reached the decks that know them
    counts = printed_cards(built.output)
    assert counts["clusterfuck"] == 5  # one status card per player
    assert counts["common-carrier"] == 2 * (32 + 2 + 1 + 1)  # basic, 2 PBX, 1 goose egg, reference card


@pytest.mark.parametrize("args", [["--option", "target=6"], ["--players", "5"], ["--option", "nope=1"]])
def test_validate_resolves_settings_for_several_decks_as_build_does(cli, tmp_path, args):
    built = cli("build", "--out", tmp_path, *args)
    checked = cli("validate", "--games", "0", *args)
    assert checked.exit_code == built.exit_code
    if built.exit_code:
        assert checked.output.splitlines()[-1] == built.output.splitlines()[-1]


def test_playtest_plays_the_deck_as_built_with_the_same_settings(cli):
    result = cli("playtest", "clusterfuck", "--games", "2", "--players", "5", "--json")
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.output)["seat_win_rates"]) == 5


def test_no_deck_named_and_none_bundled_is_an_error_saying_where_it_looked(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(deck_module, "DECKS_DIR", tmp_path)
    for command in ("build", "validate"):
        result = cli(command)
        assert result.exit_code == 2, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and str(tmp_path) in lines[0] and "no bundled decks" in lines[0]


def option_help(command: str) -> dict[str, str]:
    params = main.commands[command].params
    return {p.name: p.help for p in params if getattr(p, "help", None)}


@pytest.mark.parametrize("name", ["sheet", "colors", "gray", "players", "options"])
def test_shared_options_say_the_same_in_every_command(name):
    helps = {command: option_help(command).get(name) for command in ("build", "validate", "playtest", "calibrate")}
    declared = {text for text in helps.values() if text is not None}
    assert len(declared) == 1, helps


def test_choices_come_from_the_data_they_name():
    build = {p.name: p for p in main.commands["build"].params}
    assert tuple(build["duplex"].type.choices) == DUPLEX_MODES
    assert all(name in build["sheet"].help for name in template_names())
    playtest = {p.name: p for p in main.commands["playtest"].params}
    assert playtest["policy"].metavar == "|".join(POLICIES) + "[:BUDGET][:tie=V]"
    for name in POLICIES:
        assert check_policy(name) == name
    with pytest.raises(CardgenError, match="unknown policy"):
        check_policy("clever")


def test_bundled_data_is_found_through_the_package():
    from cardgen.resources import bundled

    assert (bundled("decks") / "common-carrier.yaml").is_file()
    assert (bundled("art") / "cardgen-logo.png").is_file()
    assert bundled("decks").resolve().samefile(deck_module.DECKS_DIR)
