"""No seat is shown anything of what it cannot know, on any surface, in any ruleset.

The harness (``tests/harness/noleak.py``) relabels what a seat cannot know with the family's
``permute_hidden`` and compares every surface built for that seat. The self-test wraps each
surface with a one-bit leak (a parity of where the hidden cards lie) and demands that the
harness finds it.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from commerce.core import Event, Transition
from commerce.rules import Ruleset, find_ruleset
from tests.harness import all_rulesets
from tests.harness.noleak import SURFACES, Report, Surfaces, check_ruleset, hidden_bit, with_leak

STATES = 24
KNOWN: dict[tuple[str, str], str] = {
    # (ruleset, surface): why a leak is known and not yet fixed (an expected failure that
    # turns into an error once it is fixed). Empty: every surface of every ruleset holds.
}


@cache
def _report(rules_id: str) -> Report:
    rules = find_ruleset(rules_id)
    # The two-player research variants play a deal in five steps: sampling every fifth state
    # would meet only deals and showdowns, whose next events name the relabelled cards.
    every = 3 if rules.max_players == 2 else 5
    return check_ruleset(rules, states=STATES, every=every)


def _params() -> list[Any]:
    out = []
    for rules in all_rulesets():
        for surface in SURFACES:
            reason = KNOWN.get((rules.id, surface))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            out.append(pytest.param(rules.id, surface, marks=marks,
                                    id=f"{rules.id}-{surface}"))
    return out


@pytest.mark.parametrize("rules_id,surface", _params())
def test_no_surface_shows_a_seat_what_it_cannot_know(rules_id: str, surface: str) -> None:
    report = _report(rules_id)
    assert report.states == STATES
    assert report.checks[surface] > 0 or surface == "json", f"{surface} was never compared"
    assert surface not in report.leaks, "\n".join(report.leaks[surface])


class _Marked:
    """An observation that carries one more bit: read like the observation, compared with
    the bit."""

    def __init__(self, obs: Any, bit: str) -> None:
        self._obs, self._bit = obs, bit

    def __getattr__(self, name: str) -> Any:
        return getattr(self._obs, name)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, _Marked) and self._obs == other._obs
                and self._bit == other._bit)

    def __hash__(self) -> int:
        return hash((self._obs, self._bit))


def _leaky(surface: str) -> Surfaces:
    """The surfaces with *surface* showing one bit of what is hidden."""
    def observe(inner: Any) -> Any:
        return lambda state, seat: _Marked(inner(state, seat), hidden_bit(state))

    def json(inner: Any) -> Any:
        return lambda state, obs: f"{inner(state, obs)}{hidden_bit(state)}"

    def render(inner: Any) -> Any:
        return lambda spec, state, obs, names: inner(spec, state, obs, names) + hidden_bit(state)

    def event_text(inner: Any) -> Any:
        return lambda spec, state, events, names, seat: (
            *inner(spec, state, events, names, seat), hidden_bit(state))

    def legal(inner: Any) -> Any:
        return lambda spec, state, obs: (*inner(spec, state, obs), hidden_bit(state))

    def apply(inner: Any) -> Any:
        def leaky(state: Any, action: Any) -> Transition:
            t = inner(state, action)
            return t._replace(events=(*t.events, Event("leak", None,
                                                       (("bit", hidden_bit(state)),))))
        return leaky

    def encoding(inner: Any) -> Any:
        return lambda spec, state, obs: (*inner(spec, state, obs),
                                         float(hidden_bit(state) == "odd"))

    def choice(inner: Any) -> Any:
        return lambda state, obs, legal, rng: inner(state, obs, legal, rng) + hidden_bit(state)

    def server(inner: Any) -> Any:
        return lambda state, seat, names: inner(state, seat, names) + hidden_bit(state)

    wrappers = {"observe": observe, "json": json, "render": render, "table": render,
                "server": server,
                "event_text": event_text,
                "legal": legal, "events": apply, "heuristic": choice, "search": choice,
                "hint": choice, "encoding": encoding}
    name = "apply" if surface == "events" else surface
    return with_leak(Surfaces(), name, wrappers[surface])


SELF_TEST = [r for r in all_rulesets() if r.id in ("peel", "widow", "cox")]


@pytest.mark.parametrize("rules", SELF_TEST, ids=lambda r: r.id)
@pytest.mark.parametrize("surface", SURFACES)
def test_the_harness_catches_a_one_bit_leak_on_every_surface(rules: Ruleset,
                                                             surface: str) -> None:
    report = check_ruleset(rules, states=8, surfaces=_leaky(surface))
    assert surface in report.leaks, f"a leak on {surface} went unnoticed: {report.line()}"


@pytest.mark.parametrize("rules_id", ["peel", "widow", "cox"])
def test_a_bots_generator_gives_away_neither_the_seed_nor_another_seat(rules_id):
    import secrets

    from tests.harness.noleak import generator_leaks

    rules = find_ruleset(rules_id)
    for _ in range(3):
        seed = secrets.randbits(63)
        assert generator_leaks(rules, 3 if rules_id != "cox" else 4, seed) == []


def test_the_generator_attack_recovers_an_invertibly_seeded_generator():
    """The attack works: a generator seeded with a number is read back to that number."""
    import random as random_

    from tests.harness.noleak import seed_of

    for n in (0, 7, 2**31 + 5, 2**63 - 25, 2**200 + 3):
        assert seed_of(random_.Random(n).getstate()) == n


def test_the_search_bot_answers_an_offer_within_the_tables_pause():
    """Cox's "I buy", every seat asked: the search bot answers one it can take (a search)
    and one it cannot (at once) well within the normal pace's pause, which the table keeps
    the same for both (tests/test_table_pace.py)."""
    from commerce.cli.table.app import PACES
    from tests.harness.noleak import answer_times

    times = answer_times(find_ruleset("cox"), "search", players=4, games=1, seed=5)
    assert times[True] and times[False], "offers of both kinds were answered"
    assert max(times[True] + times[False]) < PACES["normal"] / 2, times
