"""A short fuzzing profile (the long one is `make fuzz`): mutated bundled and starter decks never crash."""
from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

from conftest import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(ROOT / "tools"))
from fuzz import mutate, sources

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
