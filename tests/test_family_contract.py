"""The family contract: explicit registration, hooks checked at registration, per-family
options. (The floors of the package are checked in ``test_imports.py``.)"""

from __future__ import annotations

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
