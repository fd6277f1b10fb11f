"""No option of a family with a compiled kernel can be forgotten by the kernel or its tests.

Each kernel declares, for every option its family reads, the values it plays (``SUPPORTED``,
:data:`commerce.rules.OptionValues`); it refuses the others by name
(:func:`commerce.rules.refusal`). Every option declares its values (choices, or a number's
bounds), so the differential tests (``test_<family>_kernel.py``'s
``test_every_declared_value_of_every_option_replays_or_is_refused``, from
:func:`tests.harness.options.option_cases`) play each value the kernel declares against the
reference and see each other value refused.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from commerce.errors import RulesetError
from commerce.families.cox import kernel as cox
from commerce.families.trading import kernel as trading
from commerce.families.widow import kernel as widow
from commerce.rules import (
    OptionValues,
    Ruleset,
    cover_values,
    family_option_names,
    option_bounds,
    option_choices,
    refusal,
    rulesets,
)
from tests.harness.options import SEED, option_cases

KERNELS: dict[str, tuple[Mapping[str, OptionValues], Callable[[Ruleset], None]]] = {
    "trading": (trading.SUPPORTED, trading.check_supported),
    "widow": (widow.SUPPORTED, widow.check_supported),
    "cox": (cox.SUPPORTED, cox.check_supported),
}


def _options(family: str) -> list[str]:
    names: dict[str, None] = {}
    for rules in rulesets():
        if rules.family == family:
            names.update(dict.fromkeys(family_option_names(rules)))
    return list(names)


def test_every_family_with_a_kernel_is_here() -> None:
    from commerce.family import family_spec

    with_kernel = {r.family for r in rulesets() if family_spec(r.family).kernel is not None}
    assert with_kernel == set(KERNELS)


@pytest.mark.parametrize("family", list(KERNELS))
def test_every_option_is_declared_by_the_kernel_with_values_it_may_take(family: str) -> None:
    supported, _ = KERNELS[family]
    names = _options(family)
    missing = [n for n in names if n not in supported]
    assert not missing, f"the {family} kernel's SUPPORTED does not declare {missing}"
    assert set(supported) == set(names), "SUPPORTED declares an option the family does not read"
    for name in names:
        declared = supported[name]
        if declared is None:
            continue
        choices, bounds = option_choices(name), option_bounds(name)
        for value in declared:
            assert (choices is not None and value in choices) or (
                bounds is not None and bounds[0] <= value <= bounds[1]), (name, value)


@pytest.mark.parametrize("family", list(KERNELS))
def test_every_value_to_cover_is_a_differential_case_or_no_ruleset(family: str) -> None:
    _, check = KERNELS[family]
    covered = {(c.option, c.value) for c in option_cases(family, check)}
    presets = [r for r in rulesets() if r.family == family and _plays(check, r)]
    assert presets, f"the {family} kernel plays none of its family's presets"
    for name in _options(family):
        for value in cover_values(name, SEED):  # raises for an option that declares no values
            if (name, value) in covered:
                continue
            for preset in presets:  # the preset plays it itself, or the rules refuse it
                if getattr(preset, name) != value:
                    with pytest.raises(RulesetError):
                        preset.with_options(**{name: value})


def test_an_option_the_kernel_does_not_declare_is_refused_by_name() -> None:
    from commerce.rules import find_ruleset

    peel = find_ruleset("peel")
    forgotten: dict[str, Any] = {k: v for k, v in trading.SUPPORTED.items() if k != "ante"}
    assert refusal(peel, forgotten, "the compiled kernel") == (
        "the compiled kernel does not play option ante=1 (it does not know the option)")
    with pytest.raises(RulesetError, match=r"max_rounds_per_deal=0 \(it plays 1 to 1000\); "
                                           "use --engine reference"):
        trading.check_supported(peel.with_options(max_rounds_per_deal=0))


def _plays(check: Callable[[Ruleset], None], rules: Ruleset) -> bool:
    try:
        check(rules)
    except RulesetError:
        return False
    return True
