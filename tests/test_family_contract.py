"""The family contract: explicit registration, hooks checked at registration, per-family
options, and the floors of the package (each imports only from below)."""

from __future__ import annotations

import ast
import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from commerce.errors import RulesetError
from commerce.family import FamilySpec, family_names, family_spec, register_family
from commerce.rules import family_option_names, find_ruleset, option_names, rulesets

SRC = Path(__file__).resolve().parent.parent / "src" / "commerce"


def test_every_preset_belongs_to_a_registered_family():
    names = set(family_names())
    packages = {p.name for p in (SRC / "families").iterdir()
                if (p / "__init__.py").is_file()}
    assert names == packages and {"trading", "widow", "cox"} <= names
    for ruleset in rulesets():
        spec = family_spec(ruleset.family)
        assert ruleset.id in {p.ruleset.id for p in spec.presets}


@pytest.mark.parametrize("hook", ["heuristic", "apply", "observe", "render", "validate"])
def test_a_family_with_a_missing_hook_is_refused_at_registration(hook):
    spec = dataclasses.replace(family_spec("widow"), name="widow-copy", presets=(),
                               **{hook: None})
    with pytest.raises(RulesetError, match=hook):
        register_family(spec)
    assert "widow-copy" not in family_names()


def test_a_family_cannot_register_twice():
    with pytest.raises(RulesetError, match="already registered"):
        register_family(family_spec("cox"))


def test_an_option_the_family_does_not_read_is_refused_with_the_ones_it_does():
    cox = find_ruleset("cox")
    with pytest.raises(RulesetError) as info:
        cox.with_options(trade_cost=5)
    message = str(info.value)
    assert "trade_cost" in message and "not read by the cox family" in message
    assert "hands_per_game" in message and "widow_size" not in message
    # The same option is fine where the family reads it.
    assert find_ruleset("peel").with_options(trade_cost=5).trade_cost == 5


def test_each_family_reads_only_options_that_exist():
    every = set(option_names())
    for ruleset in rulesets():
        names = family_option_names(ruleset)
        assert names and set(names) <= every


def _run(code: str) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env=env).stdout.strip()


def test_registering_a_ruleset_before_the_first_lookup_hides_no_preset():
    out = _run(
        "import dataclasses\n"
        "from commerce.rules import register, find_ruleset, rulesets\n"
        "import commerce.families.trading.presets as p\n"
        "register(dataclasses.replace(p.PEEL.ruleset, id='house-peel'))\n"
        "print(len(list(rulesets())), find_ruleset('peel').label)\n"
    )
    presets = sum(len(family_spec(name).presets) for name in family_names())
    assert out == f"{presets + 1} peel@2"


def test_a_preset_label_does_not_depend_on_import_order():
    first = _run("from commerce.rules import find_ruleset; print(find_ruleset('peel').label)")
    second = _run("from commerce.families.trading.presets import PEEL; "
                  "print(PEEL.ruleset.label)")
    assert first == second == "peel@2"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


CORE = ("cards", "hands", "rules", "core", "errors", "family", "engine", "record", "driver",
        "kernelkit", "determinize", "strength", "stats", "text", "odds", "encoding")
ABOVE_CORE = ("commerce.families", "commerce.bots", "commerce.cli", "commerce.simulate",
              "commerce.tournament", "commerce.analysis", "commerce.threshold", "commerce.bench",
              "commerce.rl")


def test_the_core_imports_nothing_above_it():
    for name in CORE:
        for module in _imports(SRC / f"{name}.py"):
            assert not module.startswith(ABOVE_CORE), f"commerce.{name} imports {module}"


def test_families_import_neither_bots_nor_applications_nor_each_other():
    for path in (SRC / "families").rglob("*.py"):
        family = path.relative_to(SRC / "families").parts[0]
        for module in _imports(path):
            assert not module.startswith(("commerce.bots", "commerce.cli", "commerce.simulate",
                                          "commerce.tournament", "commerce.analysis",
                                          "commerce.threshold", "commerce.rl")), \
                f"{path} imports {module}"
            if module.startswith("commerce.families.") and path.name != "__init__.py":
                assert module.split(".")[2] == family, f"{path} imports {module}"


def test_bots_import_no_family_package():
    for path in (SRC / "bots").rglob("*.py"):
        for module in _imports(path):
            assert not module.startswith("commerce.families"), f"{path} imports {module}"


def test_no_module_is_found_by_a_name_built_from_a_string():
    for path in SRC.rglob("*.py"):
        assert "importlib" not in _imports(path), f"{path} uses importlib"
        assert "__import__(" not in path.read_text(), path


def test_the_spec_is_typed_for_its_family():
    spec: FamilySpec[object, object] = family_spec("trading")
    assert spec.state_type.__name__ == "TradingState"
    assert spec.observation_type.__name__ == "TradingObservation"


def test_each_family_has_its_own_typed_options():
    from commerce.families.cox.options import CoxOptions
    from commerce.families.trading.options import TradingOptions
    from commerce.families.widow.options import WidowOptions

    peel, widow, cox = find_ruleset("peel"), find_ruleset("widow"), find_ruleset("cox")
    assert isinstance(peel.options, TradingOptions)
    assert isinstance(widow.options, WidowOptions)
    assert isinstance(cox.options, CoxOptions)
    assert peel.trade_cost == peel.options.trade_cost == 1
    with pytest.raises(AttributeError, match="trade_cost"):
        _ = cox.trade_cost
    changed = widow.with_options(widow_size="4", pack="32")
    assert (changed.options.widow_size, changed.pack) == (4, 32)
    assert changed.label == "widow@1+" and widow.label == "widow@1"
    assert changed.changed_options() == {"pack": 32, "max_players": 7, "widow_size": 4}


def test_a_ruleset_with_another_familys_options_is_refused():
    from commerce.families.cox.options import CoxOptions

    with pytest.raises(RulesetError, match="TradingOptions"):
        dataclasses.replace(find_ruleset("peel"), options=CoxOptions())


def test_rulesets_with_family_options_cross_processes():
    import pickle

    rules = find_ruleset("pool").with_options(horse_price=2)
    assert pickle.loads(pickle.dumps(rules)) == rules


def _module_graph() -> dict[str, set[str]]:
    """Module-level imports between the package's modules (``from pkg import mod`` is an
    edge to ``pkg.mod``; a package's own ``__init__`` is left out: it is the package's face)."""
    modules = {}
    for path in SRC.rglob("*.py"):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            continue
        modules[".".join(parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges: set[str] = set()
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    target = f"{node.module}.{alias.name}"
                    if target in modules:
                        edges.add(target)
                    elif node.module in modules:
                        edges.add(node.module)
            elif isinstance(node, ast.Import):
                edges.update(a.name for a in node.names if a.name in modules)
        graph[name] = edges
    return graph


def test_no_import_circle():
    graph = _module_graph()
    state: dict[str, int] = {}
    circles: list[str] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                circles.append(" -> ".join([*path[path.index(nxt):], nxt]))
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert graph and circles == []
