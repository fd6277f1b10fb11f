"""The search bot's candidates where a decision has many actions (the time it may take)."""

from __future__ import annotations

import dataclasses
import random

from commerce import engine
from commerce.cards import pack
from commerce.core import Action, ActionKind, DecisionKind
from commerce.families.widow.heuristic import widow_action
from commerce.families.widow.search import KEPT_EXCHANGES, MANY_EXCHANGES, candidates
from commerce.rules import find_ruleset
from tests.invariants import random_game

WIDOW = find_ruleset("widow")


def _turn():
    """A widow-game observation at an ordinary turn with a hand of three."""
    for seed in range(40):
        states: list = []
        random_game(WIDOW, 4, seed, each=states.append)
        for state in states:
            d = engine.decision(state)
            if d is not None and d.seat is not None and d.kind is DecisionKind.TURN:
                obs = engine.observe(state, d.seat)
                if len(obs.hand) == 3:
                    return obs
    raise AssertionError("no turn found")


def test_a_grown_widow_searches_only_the_exchanges_the_heuristic_values_most():
    obs = _turn()
    others = [c for c in pack(WIDOW.pack) if c not in obs.hand][:10]
    swaps = [Action(ActionKind.EXCHANGE, (g, t)) for g in obs.hand for t in others]
    legal = [*swaps, Action(ActionKind.PASS)]
    assert len(swaps) > MANY_EXCHANGES
    picked = [legal[i] for i in candidates(obs, legal)]
    assert picked[0] == widow_action(obs, legal, random.Random(0), 0.5)
    assert Action(ActionKind.PASS) in picked
    assert len([a for a in picked if a.kind is ActionKind.EXCHANGE]) <= KEPT_EXCHANGES + 1
    # an ordinary number of exchanges: every action is searched
    few = [*swaps[:MANY_EXCHANGES], Action(ActionKind.PASS)]
    assert candidates(obs, few) == list(range(len(few)))


def test_a_drawn_state_whose_playouts_run_past_the_time_counts_for_nothing(monkeypatch):
    """Every drawn state after the first is slow: the second is abandoned between two
    playouts (it used to be played through), and every action keeps the same
    number of samples (no state counted for some actions only)."""
    import time

    from commerce.bots import search as search_module

    rules = find_ruleset("cox")
    rng = random.Random(3)
    state = engine.new_game(rules, 3)
    while True:
        d = engine.decision(state)
        assert d is not None
        legal = engine.legal_actions(state)
        if d.seat is not None and len(legal) >= 3:
            break
        action = engine.sample_chance(state, rng) if d.seat is None else rng.choice(legal)
        state = engine.apply(state, action).state
    obs = engine.observe(state, d.seat)
    real = search_module.playout_for("cox")
    calls = []

    def slow(s, action, seat, r):
        calls.append(action)
        if len(calls) > len(legal):  # every drawn state after the first
            time.sleep(0.03)
        return real(s, action, seat, r)

    monkeypatch.setattr(search_module, "playout_for", lambda family: slow)
    # the Python playouts, timed here, not the compiled ones (SearchHooks.batch)
    hooks = dataclasses.replace(search_module._hooks("cox"), batch=None)
    monkeypatch.setattr(search_module, "_hooks", lambda family: hooks)
    estimates = search_module.search(obs, legal, random.Random(1), ms=40, halving=False)
    assert len(calls) < 2 * len(legal), len(calls)
    assert {e.samples for e in estimates} == {1}
