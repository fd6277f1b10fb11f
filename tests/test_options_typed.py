"""Family options read typed: ``TradingOptions.of(rules)`` lets mypy catch a misspelt option,
and every option stays readable as ``rules.<option>`` at run time."""

from __future__ import annotations

import dataclasses
import sys
import textwrap
from pathlib import Path

import pytest

from commerce.errors import RulesetError
from commerce.families.cox.options import CoxOptions
from commerce.families.trading.options import TradingOptions
from commerce.families.vingtun.options import VingtUnOptions
from commerce.families.widow.options import WidowOptions
from commerce.rules import (
    FamilyOptions,
    RankingOptions,
    RoundOptions,
    Ruleset,
    find_ruleset,
    rulesets,
)

ROOT = Path(__file__).resolve().parent.parent


def _mypy(tmp_path: Path, name: str, code: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The error lines mypy (the project's strict settings) reports for *code*, which reads
    the package of this checkout."""
    from mypy import api

    snippet = tmp_path / f"{name}.py"
    snippet.write_text(textwrap.dedent(code))
    monkeypatch.setenv("MYPYPATH", str(ROOT / "src"))
    limit = sys.getrecursionlimit()
    try:
        stdout, stderr, _status = api.run([str(snippet), "--config-file",
                                           str(ROOT / "pyproject.toml"),
                                           "--cache-dir", str(tmp_path / "mypy_cache")])
    finally:  # mypy raises the process's recursion limit, which later tests rely on
        sys.setrecursionlimit(limit)
    assert not stderr, stderr
    return [line for line in stdout.splitlines() if ": error:" in line]


SNIPPET = """\
from commerce.families.trading.options import TradingOptions
from commerce.rules import Ruleset


def trade_cost(rules: Ruleset) -> int:
    return TradingOptions.of(rules).{option}
"""


def test_a_misspelt_option_fails_mypy_and_the_right_spelling_passes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wrong = _mypy(tmp_path, "wrong", SNIPPET.format(option="trade_cots"), monkeypatch)
    assert wrong and all("wrong.py:6: error" in line for line in wrong), wrong
    assert any('"TradingOptions" has no attribute "trade_cots"' in line for line in wrong), wrong
    assert _mypy(tmp_path, "right", SNIPPET.format(option="trade_cost"), monkeypatch) == []


def test_an_option_read_through_the_ruleset_is_unknown_to_mypy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # no catch-all __getattr__ on Ruleset: a read mypy cannot check is an error, not Any
    errors = _mypy(tmp_path, "through", """\
        from commerce.rules import Ruleset


        def trade_cost(rules: Ruleset) -> int:
            return rules.trade_cots
        """, monkeypatch)
    assert any('"Ruleset" has no attribute "trade_cots"' in line for line in errors), errors


def test_an_option_read_typed_has_its_type(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    errors = _mypy(tmp_path, "typed", """\
        from commerce.families.widow.options import WidowOptions
        from commerce.rules import Ruleset


        def widow_size(rules: Ruleset) -> str:
            return WidowOptions.of(rules).widow_size
        """, monkeypatch)
    assert len(errors) == 1 and "Incompatible return value type" in errors[0], errors


FAMILY_OPTIONS: dict[str, type[FamilyOptions]] = {
    "trading": TradingOptions, "widow": WidowOptions, "cox": CoxOptions,
    "vingtun": VingtUnOptions,
}


@pytest.mark.parametrize("rules", list(rulesets()), ids=lambda r: r.id)
def test_of_gives_a_rulesets_own_options_and_the_properties_stay(rules: Ruleset) -> None:
    own = FAMILY_OPTIONS[rules.family]
    assert own.of(rules) is rules.options
    for f in dataclasses.fields(rules.options):
        assert getattr(rules, f.name) == getattr(own.of(rules), f.name), f.name
    for other_family, other in FAMILY_OPTIONS.items():
        if other_family != rules.family:
            with pytest.raises(RulesetError, match=f"not {other.__name__}"):
                other.of(rules)


def test_the_shared_round_options_are_read_from_either_round_family() -> None:
    for name in ("peel", "pool"):
        rules = find_ruleset(name)
        assert RoundOptions.of(rules).deals_each == rules.deals_each == 1
        assert RankingOptions.of(rules).ranking == rules.ranking
    with pytest.raises(RulesetError, match="CoxOptions, not RankingOptions"):
        RankingOptions.of(find_ruleset("cox"))
