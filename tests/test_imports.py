"""The floors of the package and how its modules import one another.

Every module of ``src/commerce`` stands on one floor (:data:`FLOORS`, lowest first) and
imports only from its own floor or below; a module or package the table does not place fails,
so a new one must be placed. Beside the floors: no family imports another, the bots reach
the families only through their specs, no import circle (counting imports inside functions
too), no private name imported from another module, and no module found by a name built from
a string. ``docs/architecture.md`` ("The floors") draws the same table.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "commerce"

#: The floors, lowest first: each a name, whether its members import one another, and its
#: members (a package covers its modules).
FLOORS: tuple[tuple[str, bool, tuple[str, ...]], ...] = (
    ("core", True, (
        "commerce.errors", "commerce.cards", "commerce.hands", "commerce.rules",
        "commerce.core", "commerce.family", "commerce.engine", "commerce.determinize",
        "commerce.driver", "commerce.record", "commerce.seal", "commerce.text",
        "commerce.presentation", "commerce.encoding", "commerce.strength", "commerce.odds",
        "commerce.stats", "commerce.spread", "commerce.batch", "commerce.kernelkit")),
    # ``commerce`` itself, the package's ``__init__``, registers the built-in families.
    ("families", False, ("commerce.families", "commerce")),
    ("bots", True, ("commerce.bots",)),
    ("compiled drivers", True, ("commerce.compiled", "commerce.fast")),
    # simulate, tournament, the analyses, on one runner (commerce.apps.runner)
    ("applications", True, ("commerce.apps",)),
    ("services", False, ("commerce.server", "commerce.rl")),
    # the benchmarks time everything, the research API and the terminal's hint included
    ("command line", True, ("commerce.cli", "commerce.__main__", "commerce.bench")),
)


def _name(path: Path) -> str:
    """The dotted name of the module at *path* (a package's ``__init__`` is the package)."""
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {_name(path): path for path in sorted(SRC.rglob("*.py"))}


def _unit(module: str) -> str:
    """The member of :data:`FLOORS` that *module* belongs to: ``commerce.families.<family>``
    for a family's modules, otherwise ``commerce.<top>`` (or ``commerce`` itself)."""
    parts = module.split(".")
    if parts[:2] == ["commerce", "families"] and len(parts) > 2:
        return ".".join(parts[:3])
    return ".".join(parts[:2])


def _floor(unit: str) -> tuple[int, str, bool] | None:
    """The floor's rank, name and openness for *unit* (``None``: not placed)."""
    for rank, (name, open_, members) in enumerate(FLOORS):
        if any(unit == m or (m != "commerce" and unit.startswith(m + ".")) for m in members):
            return rank, name, open_
    return None


def _imports(module: str, *, inside_functions: bool = True) -> Iterator[tuple[str, str, int]]:
    """``(target, name, line)`` for each ``commerce`` import of *module*: *target* the module
    imported from (``from pkg import mod`` is ``pkg.mod`` when that is a module), *name* the
    name imported (empty for ``import x``). Imports inside functions and ``TYPE_CHECKING``
    blocks count unless *inside_functions* is false (then only the module's own body)."""
    tree = ast.parse(MODULES[module].read_text())
    nodes = ast.walk(tree) if inside_functions else iter(tree.body)
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{module}:{node.lineno} imports relatively"
            if node.module is None or node.module.split(".")[0] != "commerce":
                continue
            for alias in node.names:
                target = f"{node.module}.{alias.name}"
                yield (target if target in MODULES else node.module), alias.name, node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "commerce":
                    yield alias.name, "", node.lineno


def test_every_module_stands_on_a_floor():
    units = {_unit(m) for m in MODULES}
    unplaced = sorted(u for u in units if _floor(u) is None)
    assert not unplaced, f"place these on a floor in FLOORS and docs/architecture.md: {unplaced}"
    members = [m for _, _, ms in FLOORS for m in ms]
    assert len(members) == len(set(members))
    assert not [m for m in members if m not in MODULES], "FLOORS names a module that is gone"


def test_each_module_imports_only_from_its_floor_or_below():
    wrong = []
    for module in MODULES:
        source = _unit(module)
        rank, floor, open_ = _floor(source) or (-1, "", True)
        for target, _, line in _imports(module):
            unit = _unit(target)
            placed = _floor(unit)
            assert placed is not None, f"{module}:{line} imports {target}, on no floor"
            if placed[0] > rank:
                wrong.append(f"{module}:{line} ({floor}) imports {target} ({placed[1]})")
            elif (placed[0] == rank and not open_ and unit != source
                  and not unit.startswith(source + ".")):
                wrong.append(f"{module}:{line} imports {target}, beside it on the {floor} floor")
    assert wrong == []


def test_families_import_no_other_family():
    for module in MODULES:
        if module.startswith("commerce.families.") and module.count(".") > 2:
            for target, _, line in _imports(module):
                if target.startswith("commerce.families"):
                    assert _unit(target) == _unit(module), f"{module}:{line} imports {target}"


def test_bots_import_no_family_package():
    for module in MODULES:
        if _unit(module) == "commerce.bots":
            for target, _, line in _imports(module):
                assert not target.startswith("commerce.families"), f"{module}:{line}"


def _graph() -> dict[str, set[str]]:
    """Imports between the package's modules. A module's imports count wherever they are
    written, inside functions too (an import put off until a call is still an import); a
    package's ``__init__`` counts with its own body only: what it re-exports. (The functions
    of ``commerce.cli``'s ``__init__`` load each subcommand when it runs: that is the
    command's dispatch, not a dependency of the subcommands' helpers.)"""
    return {module: {target for target, _, _ in _imports(
                module, inside_functions=MODULES[module].name != "__init__.py")} - {module}
            for module in MODULES}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circle():
    graph = _graph()
    assert len(graph) > 150
    assert _circles(graph) == []


def test_the_circle_finder_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


#: A family's compiled files (its kernel and the compiled modules around it, and the Python
#: fast path) share their state layout as private slot names: these may import one another's
#: private names within the one family.
_COMPILED = re.compile(r"commerce\.families\.(\w+)\.(kernel\w*|compiled\w*|fast\.\w+)$")


def test_no_private_name_is_imported_from_another_module():
    wrong = []
    for module in MODULES:
        for target, name, line in _imports(module):
            if not name.startswith("_") or name.startswith("__") or target == module:
                continue
            mine, theirs = _COMPILED.match(module), _COMPILED.match(target)
            if mine and theirs and mine[1] == theirs[1]:
                continue
            wrong.append(f"{module}:{line} imports {name} from {target}")
    assert wrong == []


def test_no_module_is_found_by_a_name_built_from_a_string():
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert "importlib" not in {a.name for a in node.names}, module
            elif isinstance(node, ast.ImportFrom):
                assert node.module != "importlib", module
        assert "__import__(" not in path.read_text(), module
