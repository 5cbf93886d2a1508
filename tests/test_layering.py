"""cardgen's modules import downward only, as docs/architecture.md draws them, and never in a circle.

The imports are read from the source (ast), every one of them: at the top of a module, inside a
function (a lazy import is still a dependency) and under TYPE_CHECKING (so is a type).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "cardgen"

#: the parts, by module (a dotted name below cardgen; a package stands for everything in it)
PARTS = {
    "bottom": ("__init__", "errors", "files", "units", "numbers", "colors", "resources", "stats",
               "findings", "progress"),
    "deck model": ("deck", "model", "layouts", "schema", "yamlio"),
    "games": ("games",),
    "render": ("render",),
    "sheets": ("sheets",),
    "export": ("export",),
    "flows": ("prepare", "resolve", "build", "validate", "playtest", "search", "ladder", "analyze",
              "preview", "calibrate", "starter", "serve", "preflight"),
    "cli": ("cli", "__main__"),
}

#: what each part may import besides itself (imports point down)
MAY_IMPORT = {
    "bottom": set(),
    "deck model": {"bottom"},
    "games": {"bottom", "deck model"},
    "render": {"bottom", "deck model"},
    "sheets": {"bottom", "deck model"},
    "export": {"bottom", "deck model", "render", "sheets"},
    "flows": {"bottom", "deck model", "games", "render", "sheets", "export"},
    "cli": {"bottom", "deck model", "games", "render", "sheets", "export", "flows"},
}

#: imports against the rules that the redesign (issue 21) is still taking out, each to be struck
#: from here as it goes; the test fails on any other, and on any entry that no longer exists
NOT_YET: set[tuple[str, str]] = set()


def modules() -> dict[str, Path]:
    """Every module of cardgen by dotted name below the package (``games.base``, ``deck``)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__" and len(parts) > 1:
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The cardgen modules that module ``name`` imports, anywhere in its source."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    if name == "__init__":
        package = []
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names if alias.name.startswith("cardgen.")]
            found.update(target.removeprefix("cardgen.") for target in targets)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                if not (node.module or "").startswith("cardgen"):
                    continue
                base = (node.module or "").split(".")[1:]
            else:
                base = package[:len(package) - (node.level - 1)] + (node.module.split(".") if node.module else [])
            module = ".".join(base)
            for alias in node.names:
                submodule = f"{module}.{alias.name}" if module else alias.name
                found.add(submodule if submodule in known else module or "__init__")
    found.discard(name)
    return {module for module in found if module in known}


def part_of(module: str) -> str:
    for part, members in PARTS.items():
        if any(module == member or module.startswith(member + ".") for member in members):
            return part
    raise AssertionError(f"cardgen.{module} belongs to no part: add it to PARTS (and docs/architecture.md)")


GRAPH = {name: imports_of(name, path, set(modules())) for name, path in modules().items()}


def test_every_module_belongs_to_a_part():
    for module in GRAPH:
        part_of(module)


def test_imports_point_down_only():
    wrong = sorted((module, target) for module, targets in GRAPH.items() for target in targets
                   if part_of(target) != part_of(module)
                   and part_of(target) not in MAY_IMPORT[part_of(module)]
                   and (module, target) not in NOT_YET)
    assert not wrong, "imports against the layering rules:\n" + "\n".join(
        f"  cardgen.{module} ({part_of(module)}) imports cardgen.{target} ({part_of(target)})"
        for module, target in wrong)
    gone = sorted(pair for pair in NOT_YET if pair[1] not in GRAPH.get(pair[0], set()))
    assert not gone, f"strike these from NOT_YET, they are gone: {gone}"


def test_no_module_imports_itself_back_through_others():
    cycle = find_cycle({module: targets - {t for m, t in NOT_YET if m == module} for module, targets in GRAPH.items()})
    assert cycle is None, "an import circle: " + " -> ".join(f"cardgen.{m}" for m in cycle or [])


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of the graph as a path that ends where it starts, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return stack[stack.index(target):] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


@pytest.mark.parametrize("graph, circle", [
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c", "a"]),
    ({"a": {"b"}, "b": {"c"}, "c": set()}, None),
])
def test_the_circle_finder_finds_circles_and_only_circles(graph, circle):
    assert find_cycle(graph) == circle


def test_the_import_reader_sees_lazy_relative_and_package_imports(tmp_path):
    source = tmp_path / "deck.py"
    source.write_text("from .render import fonts\nfrom . import numbers\n"
                      "def f():\n    from .games import game_info\n    from .games.base import Game\n")
    known = {"deck", "render", "render.fonts", "numbers", "games", "games.base"}
    assert imports_of("deck", source, known) == {"render.fonts", "numbers", "games", "games.base"}
