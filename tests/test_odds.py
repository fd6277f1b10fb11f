"""category_odds against the exact counts of docs/counts.md."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from commerce.odds import category_odds
from commerce.rules import Ruleset, find_ruleset

PEEL = find_ruleset("peel")


@pytest.mark.parametrize(
    ("rules", "total", "expected"),
    [
        (PEEL, 22100,
         {"tricon": 52, "sequence": 48, "flush": 1096, "pair": 3744, "point": 17160}),
        (PEEL.with_options(ace_low_sequence=False, flush_compare="high_card"), 22100,
         {"tricon": 52, "sequence": 44, "flush": 1100, "pair": 3744, "point": 17160}),
        (PEEL.with_options(allow_wraparound=True), 22100,
         {"tricon": 52, "sequence": 52, "flush": 1092, "pair": 3744, "point": 17160}),
        (PEEL.with_options(pack=32, max_players=7), 4960,
         {"tricon": 32, "sequence": 24, "flush": 200, "pair": 1344, "point": 3360}),
        (PEEL.with_options(ranking="suit_point", ace_low_sequence=False), 22100,
         {"tricon": 52, "sequence": 44, "point": 1100 + 12168, "none": 8736}),
        (PEEL.with_options(ranking="suit_point", pack=32, max_players=7), 4960,
         {"tricon": 32, "sequence": 24, "point": 200 + 2688, "none": 2016}),
        (PEEL.with_options(ranking="no_pair_or_point", ace_low_sequence=False), 22100,
         {"tricon": 52, "sequence": 44, "flush": 1100, "none": 20904}),
        (PEEL.with_options(ranking="no_pair_or_point", pack=32, max_players=7), 4960,
         {"tricon": 32, "sequence": 24, "flush": 200, "none": 4704}),
        (PEEL.with_options(four_of_a_kind=True, ace_low_sequence=False), 22100,
         {"tricon": 52, "sequence": 44, "flush": 1100, "pair": 3744, "point": 17160}),
    ],
)
def test_category_odds(rules: Ruleset, total: int, expected: dict[str, int]) -> None:
    odds = category_odds(rules)
    assert odds["rules"] == "peel"
    assert odds["pack"] == rules.pack
    assert odds["total"] == total
    assert odds["categories"] == expected
    assert list(odds["categories"]) == list(expected)  # strongest first
    assert list(odds["probabilities"]) == list(expected)
    for name, n in expected.items():
        assert odds["probabilities"][name] == pytest.approx(n / total)
    assert sum(odds["probabilities"].values()) == pytest.approx(1.0)
    json.dumps(odds)


def test_peel_percentages() -> None:
    odds = category_odds(PEEL)
    percent = {k: round(100 * p, 4) for k, p in odds["probabilities"].items()}
    assert percent == {"tricon": 0.2353, "sequence": 0.2172, "flush": 4.9593, "pair": 16.9412,
                       "point": 77.6471}
    assert odds["label"] == "peel@2"
    assert category_odds(PEEL.with_options(pack=32, max_players=7))["label"] == "peel@2+"


def test_rules_core_does_not_import_numpy() -> None:
    # Every module but batch (numpy's own), the compiled kernels (numba's: kernelkit, compiled and
    # each family's kernel, kernel_env, kernel_cuda and compiled_* parts), the learned bot (its
    # network runs in numpy) and the application
    # layer (__main__, cli, rl, and apps, whose runner gives its tables as numpy columns).
    code = (
        "import sys, importlib, pkgutil, commerce\n"
        "for m in pkgutil.walk_packages(commerce.__path__, 'commerce.'):\n"
        "    if m.name not in ('commerce.batch', 'commerce.__main__', 'commerce.cli', "
        "'commerce.kernelkit', 'commerce.compiled', 'commerce.bots.learned') and "
        "not m.name.endswith(('.kernel', '.kernel_env', '.kernel_cuda')) and "
        "'.compiled_' not in m.name and "
        "not m.name.startswith(('commerce.cli.', 'commerce.rl', 'commerce.apps')):\n"
        "        importlib.import_module(m.name)\n"
        "print('commerce.odds' in sys.modules, 'numpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert out.stdout.split() == ["True", "False"]
