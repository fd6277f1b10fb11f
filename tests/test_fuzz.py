"""Fuzzing in the suite: move notation, the command line and records (see ``fuzzing.py``).

Brief here (fewer examples under the ``ci`` profile, which CI loads); ``scripts/fuzz.py
--minutes N`` runs the same targets at length.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

import fuzzing
from fuzzing import (
    FAMILIES,
    check_cli,
    check_notation,
    check_record,
    check_record_file,
    cli_cases,
    damaged_record_files,
    damaged_records,
    examples,
    notation_texts,
)

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large]


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_notation_raises_notation_error_or_round_trips(family: str) -> None:
    seen: set[str] = set()

    @settings(max_examples=examples("notation"))
    @given(notation_texts(family))
    def check(text: str) -> None:
        seen.add(check_notation(family, text))

    check()
    assert seen == {"refused", "parsed"}  # both sides were reached


def test_command_line_exits_0_or_2_never_with_a_traceback() -> None:
    seen: set[str] = set()

    @settings(max_examples=examples("cli"), suppress_health_check=_SLOW_OK)
    @given(cli_cases())
    def check(case: tuple[list[str], str]) -> None:
        seen.add(check_cli(case))

    check()
    assert "refused" in seen


def test_damaged_records_are_refused_or_replay_correctly() -> None:
    seen: set[str] = set()

    @settings(max_examples=examples("records"), suppress_health_check=_SLOW_OK)
    @given(damaged_records())
    def check(text: str) -> None:
        seen.add(check_record(text))

    check()
    assert seen == {"refused", "loaded"}


@settings(max_examples=examples("cli"), suppress_health_check=_SLOW_OK)
@given(damaged_record_files())
def test_damaged_record_files_give_one_line_or_a_replay(case: tuple[bytes, str]) -> None:
    check_record_file(case)


# -- the checks can fail --------------------------------------------------------------------


def test_the_notation_check_fails_on_a_broken_round_trip(monkeypatch: Any) -> None:
    monkeypatch.setattr(fuzzing.engine, "format_action", lambda rules, action: "stand")
    with pytest.raises(AssertionError):
        check_notation("trading", "trade 7h")


@pytest.mark.parametrize("outcome", [1, "raise", "two lines"])
def test_the_cli_check_fails_on_exit_1_a_traceback_or_a_bad_error(monkeypatch: Any,
                                                                     outcome: Any) -> None:
    def fake(argv: list[str]) -> int:
        if outcome == "raise":
            raise IndexError("list index out of range")
        if outcome == "two lines":
            print("usage: commerce ...\ncommerce simulate: error: x", file=sys.stderr)
            return 2
        return 1

    monkeypatch.setattr(fuzzing, "main", fake)
    with pytest.raises((AssertionError, IndexError)):
        check_cli((["simulate"], ""))


def test_the_record_check_fails_when_a_replay_changes(monkeypatch: Any) -> None:
    text = fuzzing.base_records()[0]
    assert check_record(text) == "loaded"
    states = iter(range(10))
    monkeypatch.setattr(fuzzing, "replay", lambda record: next(states))
    monkeypatch.setattr(fuzzing.engine, "outcome", lambda state: state)
    with pytest.raises(AssertionError):
        check_record(text)
