"""Bot parameters have documented ranges; anything else is one clear error."""

from __future__ import annotations

import pytest

from commerce.bots import make_bot
from commerce.bots.search import MAX_ITERATIONS, MAX_MS
from commerce.errors import CommerceError

JUNK = ["nan", "inf", "-inf", "-1", "0", str(10**12), "1e9", "abc", "", "9" * 5000]


OPTIONS = [
    ("search:iterations", "search option iterations must be a whole number from 1 to 100,000"),
    ("search:ms", "search option ms must be a number above 0 and at most 60,000"),
    ("heuristic:boldness", "heuristic option boldness must be a number from 0 to 1"),
]
CASES = [(option, needle, value) for option, needle in OPTIONS for value in JUNK
         if not (option == "heuristic:boldness" and value == "0")]  # a valid boldness


@pytest.mark.parametrize(("option", "needle", "value"), CASES)
def test_out_of_range_or_junk_values_are_refused(option, needle, value):
    with pytest.raises(CommerceError) as info:
        make_bot(f"{option}={value}")
    message = str(info.value)
    assert message.startswith(needle)
    assert len(message) < 120  # a 5000-digit value is cut short


@pytest.mark.parametrize(("spec", "attr", "value"), [
    ("search:iterations=1", "iterations", 1),
    (f"search:iterations={MAX_ITERATIONS}", "iterations", MAX_ITERATIONS),
    ("search:ms=0.5", "ms", 0.5),
    (f"search:ms={MAX_MS:.0f}", "ms", MAX_MS),
    ("heuristic:boldness=0", "boldness", 0.0),
    ("heuristic:boldness=1", "boldness", 1.0),
])
def test_the_ends_of_each_range_are_accepted(spec, attr, value):
    assert getattr(make_bot(spec), attr) == value


def test_the_limits_just_past_the_ends_are_refused():
    for spec in (f"search:iterations={MAX_ITERATIONS + 1}", f"search:ms={MAX_MS + 0.5}",
                 "heuristic:boldness=1.0001"):
        with pytest.raises(CommerceError):
            make_bot(spec)
