"""The deck model sits below the renderer, the games and the flows: it imports none of them, not
even lazily inside a function; and colours, at the bottom, import no deck model."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import ROOT

PACKAGE = ROOT / "cardgen"
DECK_MODEL = ("deck", "model", "layouts", "schema", "yamlio")
FLOWS = ("build", "validate", "playtest", "ladder", "analyze", "preview", "calibrate", "watch", "search",
         "starter", "cli", "resolve")
ABOVE_THE_DECK_MODEL = ("render", "games", *FLOWS)


def imported_modules(path: Path) -> set[str]:
    """Every cardgen module a top-level module of the package imports, anywhere in the file (inside
    functions and ``if TYPE_CHECKING:`` too), as dotted names."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            # relative to the package: from . import build, from .render.icons import ICONS
            target = ("cardgen" + (f".{node.module}" if node.module else "")) if node.level else node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return {name for name in found if name == "cardgen" or name.startswith("cardgen.")}


def part_of(name: str) -> str:
    """The top part of cardgen a dotted module name is in: ``cardgen.render.icons`` -> ``render``."""
    return name.split(".")[1] if "." in name else ""


def test_the_reading_sees_relative_lazy_and_absolute_imports(tmp_path):
    source = ("import cardgen.games\nfrom .render.icons import ICONS\n"
              "def f():\n    from . import build\n    from .errors import Location\n")
    (tmp_path / "probe.py").write_text(source, encoding="utf-8")
    assert {part_of(name) for name in imported_modules(tmp_path / "probe.py")} == {"", "games", "render", "build",
                                                                                   "errors"}


@pytest.mark.parametrize("module", DECK_MODEL)
def test_the_deck_model_imports_nothing_from_render_games_or_the_flows(module):
    imports = imported_modules(PACKAGE / f"{module}.py")
    above = sorted(name for name in imports if part_of(name) in ABOVE_THE_DECK_MODEL)
    assert not above, f"cardgen/{module}.py imports {', '.join(above)}"


def test_colours_at_the_bottom_import_no_deck_model():
    imports = imported_modules(PACKAGE / "colors.py")
    upward = sorted(name for name in imports if part_of(name) in DECK_MODEL + ABOVE_THE_DECK_MODEL)
    assert not upward, f"cardgen/colors.py imports {', '.join(upward)}"
