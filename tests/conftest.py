from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def cli():
    """Run ``cardgen ARGS...`` in-process; returns click's Result."""
    runner = CliRunner()

    def run(*args: str):
        return runner.invoke(main, [str(a) for a in args], catch_exceptions=False)

    return run
