"""Bots see only their observation, the legal actions and their own generator.

A spy bot records the arguments of every call while the driver plays games of each preset;
each call is checked against the state the driver held at that moment: the observation is
``engine.observe(state, seat)``, the actions are ``engine.legal_actions(state)``, the generator
is the seat's own, and nothing reachable from them is a state, a generator or any object other
than plain data, nor holds another seat's hidden cards or the stock. After a game, no module of
the package may keep a state in a global either, where a bot could read it.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from collections.abc import Iterator, Sequence
from enum import Enum
from typing import Any

import pytest

from commerce import engine
from commerce.bots import make_bot
from commerce.core import Action
from commerce.driver import Driver
from commerce.family import family_names, family_spec
from commerce.rules import Ruleset, find_ruleset, rulesets

STATE_TYPES = {f: family_spec(f).state_type for f in family_names()}
"""Each family's state class."""
_PLAIN = (str, bytes, int, float, bool, type(None), Enum)
_MAX_STEPS = 400
"""At most this many steps of each game are checked (a game of Cox's runs to about 500)."""


class Spy:
    """A random bot that records every call's arguments."""

    name = "spy"
    spec = "random"

    def __init__(self) -> None:
        self.inner = make_bot("random")
        self.calls: list[tuple[Any, Sequence[Action], random.Random]] = []

    def act(self, obs: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        self.calls.append((obs, legal, rng))
        return self.inner.act(obs, legal, rng)


def reachable(*roots: Any) -> Iterator[Any]:
    """Every object reachable from *roots* through containers and dataclass fields.

    A ruleset is yielded but not entered (it is public data, compared as a whole); any
    object that is neither plain data, a container nor a dataclass fails the test.
    """
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        yield x
        if isinstance(x, (*_PLAIN, Ruleset)):
            continue
        if isinstance(x, dict):
            stack.extend(x)
            stack.extend(x.values())
        elif isinstance(x, tuple | list | set | frozenset):
            stack.extend(x)
        elif dataclasses.is_dataclass(x) and not isinstance(x, type):
            stack.extend(getattr(x, f.name) for f in dataclasses.fields(x))
        else:
            raise AssertionError(f"a bot can reach a {type(x).__qualname__}: {x!r:.80}")


def hidden_from(state: Any, seat: int) -> set[tuple[int, ...]]:
    """The card groups *seat* may not see now, each sorted: the stock, and the other seats'
    hands (or racks) except those shown to everyone (what a spectator sees, as after a
    showdown)."""
    public = engine.observe(state, None)
    groups: list[tuple[int, ...]] = []
    for held in ("hands", "racks"):
        groups.extend(cards for j, cards in enumerate(getattr(state, held, ()))
                      if j != seat and getattr(public, held)[j] is None)
    groups.append(tuple(getattr(state, "unseen", ())))
    groups.append(tuple(getattr(state, "bottom", ())))
    groups.extend(getattr(state, "bases", ()))
    return {tuple(sorted(g)) for g in groups if len(g) >= 3}


def _game(rules: Ruleset, seed: int) -> tuple[Driver, list[Spy]]:
    players = max(rules.min_players, min(4, rules.max_players))
    spies = [Spy() for _ in range(players)]
    return Driver(rules, spies, seed=seed), spies


@pytest.mark.parametrize("rules", rulesets(), ids=lambda r: r.id)
def test_a_bot_receives_its_observation_the_legal_actions_and_its_own_rng(rules):
    checked = 0
    for seed in range(1, 40):  # whole games (short ones in the mini variants) until enough
        checked += _check_every_call(rules, seed)
        if checked >= 60:
            break
    assert checked >= 60


def _check_every_call(rules: Ruleset, seed: int) -> int:
    """Play (part of) a game of spies, checking each call; return the calls checked."""
    driver, spies = _game(rules, seed)
    checked = 0
    for _ in range(_MAX_STEPS):
        state = driver.state
        d = engine.decision(state)
        if d is None:
            break
        before = [len(s.calls) for s in spies]
        driver.step()
        if d.seat is None:
            assert [len(s.calls) for s in spies] == before  # chance asks no bot
            continue
        seat = d.seat
        assert [len(s.calls) for s in spies] == [n + (i == seat) for i, n in enumerate(before)]
        obs, legal, rng = spies[seat].calls[-1]
        assert obs == engine.observe(state, seat) and getattr(obs, "seat", None) == seat
        assert tuple(legal) == engine.legal_actions(state)
        assert rng is driver.seat_rngs[seat]
        hidden = hidden_from(state, seat)
        # a group a spectator is shown too (a past deal's showdown in a 12-card pack may name
        # the cards another seat now holds) tells the seat nothing of where they are now
        hidden -= {tuple(sorted(x)) for x in reachable(engine.observe(state, None), ())
                   if isinstance(x, tuple) and all(type(c) is int for c in x)}
        for x in reachable(obs, legal):
            assert not isinstance(x, tuple(STATE_TYPES.values()))
            if isinstance(x, Ruleset):
                assert x == rules
            elif (isinstance(x, tuple) and len(x) >= 3 and all(type(c) is int for c in x)
                  and len(set(x)) == len(x)):
                assert tuple(sorted(x)) not in hidden, f"seat {seat} can see {x}"
        checked += 1
    return checked


def test_the_walk_finds_a_state_or_a_generator_handed_to_a_bot():
    rules = find_ruleset("peel")
    driver, _ = _game(rules, seed=1)
    driver.run()
    with pytest.raises(AssertionError):
        list(reachable((engine.observe(driver.state, 0), random.Random(1))))
    found = list(reachable({"cards": (driver.state,)}))
    assert any(isinstance(x, STATE_TYPES["trading"]) for x in found)


def module_states(family: str) -> list[str]:
    """The globals of the package's modules that hold a state of *family*, searched through
    containers a few levels deep."""
    state_type = STATE_TYPES[family]
    found = []
    for name, module in sorted(sys.modules.items()):
        if name != "commerce" and not name.startswith("commerce."):
            continue
        for attr, value in vars(module).items():
            stack: list[tuple[Any, int]] = [(value, 0)]
            while stack:
                x, depth = stack.pop()
                if isinstance(x, state_type):
                    found.append(f"{name}.{attr}")
                    break
                if depth >= 4 or isinstance(x, _PLAIN):
                    continue
                if isinstance(x, dict):
                    stack.extend((v, depth + 1) for v in (*x, *x.values()))
                elif isinstance(x, tuple | list | set | frozenset):
                    stack.extend((v, depth + 1) for v in x)
    return found


@pytest.mark.parametrize("family", [
    "trading",
    "widow",
    "cox",
])
def test_no_module_keeps_a_state_where_a_bot_could_read_it(family):
    rules = next(r for r in rulesets() if r.family == family)
    driver, spies = _game(rules, seed=3)
    for _ in range(_MAX_STEPS):
        if not driver.step() and driver.decision() is None:
            break
    assert any(s.calls for s in spies)
    assert module_states(family) == []
