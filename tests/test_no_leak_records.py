"""What a saved game shows while it runs (the file's visible part, ``commerce replay``) is the
same for every history its player cannot tell apart (tests/harness/records.py)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from commerce.record import GameRecord
from commerce.rules import find_ruleset
from tests.harness import all_rulesets
from tests.harness.records import RecordReport, RecordSurfaces, check_records


@cache
def _report(rules_id: str) -> RecordReport:
    return check_records(find_ruleset(rules_id), games=8)


@pytest.mark.parametrize("rules_id", [r.id for r in all_rulesets()])
def test_a_saved_game_shows_its_player_nothing_more(rules_id):
    report = _report(rules_id)
    assert report.leaks == []
    assert report.games > 0


def test_twin_histories_are_compared_in_most_rulesets():
    compared = [r.id for r in all_rulesets() if _report(r.id).twins > 0]
    assert len(compared) >= len(all_rulesets()) - 2, compared


def _hidden_parity(path: Path) -> str:
    actions = GameRecord.load(path).actions
    return str(sum(map(ord, "".join(actions))) % 7)


@pytest.mark.parametrize("surface", ["visible", "replay"])
def test_the_harness_catches_a_one_bit_leak(surface):
    base = RecordSurfaces()
    original = getattr(base, surface)
    leaky = RecordSurfaces(**{surface: lambda p: original(p) + _hidden_parity(p)})
    caught = 0
    for rules_id in ("peel", "widow", "cox"):
        report = check_records(find_ruleset(rules_id), games=3, surfaces=leaky)
        caught += len(report.leaks)
    assert caught > 0


def test_the_harness_catches_replay_with_reveal():
    from commerce.cli import main

    def revealing(path: Path) -> str:
        import contextlib
        import io

        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            main(["replay", str(path), "--all", "--reveal"])
        return out.getvalue().replace(str(path), "FILE")

    report = check_records(find_ruleset("peel"), games=3,
                           surfaces=RecordSurfaces(replay=revealing))
    assert report.leaks
