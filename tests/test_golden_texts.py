"""Golden texts independent of the bots (``tests/harness/golden.py``): every ruleset's
playthrough and perft-style counts are regenerated and compared with the stored files.

After an intended change of behaviour: ``PYTHONPATH=src python scripts/regenerate_golden.py``,
then review the diff like code.
"""

from __future__ import annotations

import difflib

import pytest

from commerce.rules import Ruleset
from tests.harness import all_rulesets
from tests.harness.golden import COUNTS, PLAYTHROUGHS, counts, playthrough, read_counts

RULESETS = all_rulesets()
REGENERATE = "run scripts/regenerate_golden.py after reviewing the change"


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.id)
def test_playthrough_is_unchanged(rules: Ruleset) -> None:
    path = PLAYTHROUGHS / f"{rules.id}.txt"
    assert path.exists(), f"missing {path}: {REGENERATE}"
    stored, now = path.read_text(), playthrough(rules)
    diff = "".join(list(difflib.unified_diff(stored.splitlines(True), now.splitlines(True),
                                             "stored", "now"))[:60])
    assert now == stored, f"the playthrough changed ({REGENERATE}):\n{diff}"


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.id)
def test_action_sequence_counts_are_unchanged(rules: Ruleset) -> None:
    path = COUNTS / f"{rules.id}.txt"
    assert path.exists(), f"missing {path}: {REGENERATE}"
    stored = read_counts(path)
    assert len(stored) >= 3
    assert counts(rules, len(stored)) == stored, REGENERATE


def test_every_golden_text_belongs_to_a_ruleset() -> None:
    ids = {r.id for r in RULESETS}
    for folder in (PLAYTHROUGHS, COUNTS):
        assert {p.stem for p in folder.glob("*.txt")} == ids
