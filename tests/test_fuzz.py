"""A short fuzzing profile (the long one is `make fuzz`): mutated bundled and starter decks, SVG art and
XLSX workbooks never crash."""
from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

from conftest import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(ROOT / "tools"))
from fuzz import (
    ART_DECK,
    FONT_DECKS,
    font_sources,
    mutate,
    mutate_font,
    mutate_svg,
    mutate_xlsx,
    sources,
    svg_sources,
    xlsx_source,
)

#: the bundled decks and the starter deck, each with its folder (the starter's removed at exit)
_STARTER = tempfile.TemporaryDirectory(prefix="cardgen-fuzz-starter-")
DECKS: list[tuple[str, Path]] = sources(Path(_STARTER.name))


def test_mutations_are_seeded():
    text = DECKS[0][0]
    assert mutate(text, random.Random(3)) == mutate(text, random.Random(3))
    assert mutate(text, random.Random(3)) != text


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, len(DECKS) - 1))
def test_a_mutated_deck_exits_0_1_or_2_without_a_traceback(tmp_path_factory, seed, which):
    import shutil

    text, folder = DECKS[which]
    work = tmp_path_factory.mktemp("fuzz")
    for extra in folder.iterdir():
        if extra.suffix in (".csv", ".xlsx", ".png", ".svg"):
            shutil.copy(extra, work / extra.name)
    deck = work / "fuzzed.yaml"
    deck.write_text(mutate(text, random.Random(seed)), encoding="utf-8", errors="surrogatepass")
    out = work / "out"
    from click.testing import CliRunner

    from cardgen.cli import main

    result = CliRunner().invoke(main, ["build", str(deck), "--out", str(out)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code in (0, 1, 2), result.output
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        assert not out.exists() or not any(out.iterdir())


ART = svg_sources()
BOOK = xlsx_source()


def test_svg_and_xlsx_mutations_are_seeded_and_change_the_file():
    assert len(ART) >= 5
    assert mutate_svg(ART[0], random.Random(4)) == mutate_svg(ART[0], random.Random(4)) != ART[0]
    assert mutate_xlsx(BOOK, random.Random(4)) == mutate_xlsx(BOOK, random.Random(4)) != BOOK


def _build(work: Path, deck_text: str) -> None:
    from click.testing import CliRunner

    from cardgen.cli import main

    deck = work / "fuzzed.yaml"
    deck.write_text(deck_text, encoding="utf-8")
    out = work / "out"
    result = CliRunner().invoke(main, ["build", str(deck), "--out", str(out)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    # 1: the deck builds but cannot be played (a mutated font's metrics can leave no room for a text)
    assert result.exit_code in (0, 1, 2), result.output
    assert "Traceback" not in result.output
    if result.exit_code == 1:
        assert "cannot be played as built" in result.output, result.output
    if result.exit_code == 2:
        assert len(result.output.strip().splitlines()) == 1, result.output
        assert not out.exists() or not any(out.iterdir())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, len(ART) - 1))
def test_mutated_svg_art_exits_0_or_2_with_one_line(tmp_path_factory, seed, which):
    work = tmp_path_factory.mktemp("svg")
    (work / "fuzzed.svg").write_text(mutate_svg(ART[which], random.Random(seed)), encoding="utf-8",
                                     errors="replace")
    _build(work, ART_DECK)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_a_mutated_xlsx_workbook_exits_0_or_2_with_one_line(tmp_path_factory, seed):
    import shutil

    work = tmp_path_factory.mktemp("xlsx")
    shutil.copytree(ROOT / "examples" / "argonauts" / "art", work / "art")
    (work / "fuzzed.xlsx").write_bytes(mutate_xlsx(BOOK, random.Random(seed)))
    deck = (ROOT / "examples" / "argonauts" / "argonauts.yaml").read_text(encoding="utf-8")
    _build(work, deck.replace("\ncsv: cards.csv\n", "\nxlsx: fuzzed.xlsx\n"))


FONTS = font_sources()
SOUND = (ROOT / "cardgen" / "fonts" / "DejaVuSans.ttf").read_bytes()


def test_font_mutations_are_seeded_and_change_the_file():
    assert len(FONTS) >= 4
    data = FONTS[0][1]
    assert mutate_font(data, random.Random(4)) == mutate_font(data, random.Random(4)) != data


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, len(FONTS) - 1), deck=st.integers(0, 1))
def test_a_mutated_font_exits_0_or_2_with_one_line(tmp_path_factory, seed, which, deck):
    work = tmp_path_factory.mktemp("font")
    (work / "fuzzed.ttf").write_bytes(mutate_font(FONTS[which][1], random.Random(seed)))
    (work / "sound.ttf").write_bytes(SOUND)
    _build(work, FONT_DECKS[deck])
