"""One parser for the numbers people type: only ASCII digits, bounded, and never a traceback."""
from __future__ import annotations

import pytest

from cardgen import numbers
from cardgen.units import parse_length

HOSTILE = ["+-6", "--6", "²", "٣", "1_000", "1e3", "9" * 400, "nan", "inf", "-inf", "", " ", "0x10",
           "7.", "six", "\x00", "1 2"]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_whole_numbers_are_refused_not_raised(text):
    assert numbers.whole(text) is None


@pytest.mark.parametrize("text", [t for t in HOSTILE if t != "7."])
def test_hostile_decimals_are_refused_not_raised(text):
    assert numbers.decimal(text) is None


@pytest.mark.parametrize("text,value", [("7", 7), (" +7 ", 7), ("-2", -2), ("-0", 0), (12, 12)])
def test_whole_numbers(text, value):
    assert numbers.whole(text) == value


@pytest.mark.parametrize("text,value", [("1.5", 1.5), ("-.5", -0.5), ("7.", 7.0), (3, 3.0), (2.5, 2.5)])
def test_decimals(text, value):
    assert numbers.decimal(text) == value


def test_non_finite_and_boolean_values_are_not_numbers():
    assert numbers.decimal(float("inf")) is None and numbers.decimal(float("nan")) is None
    assert numbers.whole(True) is None and numbers.decimal(False) is None


@pytest.mark.parametrize("text", ["²mm", "٣mm", "9" * 400 + "mm", "1_0mm"])
def test_lengths_share_the_parser(text):
    with pytest.raises(ValueError, match="expected a length"):
        parse_length(text)


@pytest.mark.parametrize("args,words", [
    (["--option", "target=+-6"], "option 'target' must be a whole number"),
    (["--option", "target=²"], "option 'target' must be a whole number"),
    (["--option", "target=--6"], "option 'target' must be a whole number"),
    (["--gray", "pbx=²"], "--gray must be all, none"),
    (["--gray", "pbx=-1"], "--gray must be all, none"),
    (["--back-offset", "٣,1"], "--back-offset must be X,Y"),
    (["--front-offset", "1e400,0"], "--front-offset must be X,Y"),
])
def test_command_line_numbers_are_one_line_exit_2(cli, tmp_path, args, words):
    result = cli("build", "common-carrier", "--out", tmp_path, *args)
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not list(tmp_path.glob("*.pdf"))


def test_a_decks_own_option_value_is_checked_with_its_location(cli, tmp_path):
    from cardgen.resources import bundled

    text = (bundled("decks") / "common-carrier.yaml").read_text()
    assert "\n  target: 7\n" in text
    deck = tmp_path / "cc.yaml"
    deck.write_text(text.replace("\n  target: 7\n", "\n  target: \"+-6\"\n", 1))
    result = cli("validate", deck, "--games", "0")
    assert result.exit_code == 2, result.output
    assert "target" in result.output and "cc.yaml" in result.output and "Traceback" not in result.output
