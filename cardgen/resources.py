"""Files shipped inside the package: bundled decks, art and sheet templates.

decks/ and art/ live at the top of the repository, where people look for
them and edit them; ``cardgen/decks`` and ``cardgen/art`` are links to them,
and the wheel carries their contents as package data. Everything is found
through ``importlib.resources``, so the same code works from a checkout, an
editable install and an installed wheel.
"""
from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def bundled(folder: str) -> Path:
    """The shipped folder ``folder`` ("decks", "art", "sheets") as a real path.

    cardgen is installed unzipped (it is not zip-safe), so the resource is a
    file-system folder and the loader can resolve and compare paths in it.
    """
    return Path(str(files("cardgen") / folder))


def bundled_names(folder: str, suffix: str = ".yaml") -> list[str]:
    """The stems of the files ending in ``suffix`` in a shipped folder, sorted."""
    return sorted(p.stem for p in bundled(folder).glob(f"*{suffix}"))
