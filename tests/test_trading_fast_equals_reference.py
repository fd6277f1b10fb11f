"""The trading family's fast path plays exactly the reference rules, step for step.

Seeded games of every trading preset, at several table sizes and option variants, are played
through the reference (``rules``) and the fast path (``fast``) side by side. After every action
the decision, the legal actions (in order), the events, every seat's observation (and a
spectator's), the legality of stray actions and the state itself (``to_reference``) must agree.
"""

from __future__ import annotations

import random

import pytest

from commerce.core import Action, ActionKind
from commerce.errors import IllegalActionError
from commerce.families.trading import FAMILY, fast, rules
from commerce.rules import Ruleset, rulesets

PRESETS = [r for r in rulesets() if r.family == "trading"]
VARIANTS: list[tuple[str, dict[str, object]]] = [
    ("preset", {}),
    ("short-deals", {"max_rounds_per_deal": 2, "deals_each": 2}),
    ("piquet", {"pack": 32, "max_players": 7}),
    ("options", {"stander_penalty": "best_hand_only", "best_tie_rule": "split_pool",
                 "barter_direction": "right", "direction": "right", "dealer_may_trade": False,
                 "barter_partner_may_stand": True}),
    ("one-action-turns", {"stand_after_trade": False, "barter_return_from_original_hand": False,
                          "stand_allowed": "with_combination", "dealer_pays_winner": 0}),
    ("old-payments", {"stander_pays_equal_hands": True, "best_tie_rule": "dealer_as_eldest",
                      "may_barter": False, "trade_cost": 2, "dealer_trade_cost": 1}),
]
KINDS = list(ActionKind)


def _tables(r: Ruleset) -> list[int]:
    return sorted({r.min_players, 4, r.max_players})


CASES = [pytest.param(r.with_options(**opts), n, id=f"{r.id}-{name}-{n}")
         for r in PRESETS for name, opts in VARIANTS
         for n in _tables(r.with_options(**opts))]


def _outcome_of_check(check, state, action: Action) -> str:
    try:
        check(state, action)
    except IllegalActionError as exc:
        return f"{exc.reason}: {exc}"
    return "legal"


def _fast_check(state, action: Action) -> str:
    try:
        fast.apply(state, action)
    except IllegalActionError as exc:
        return f"{exc.reason}: {exc}"
    return "legal"


def _choose(legal: tuple[Action, ...], rng: random.Random) -> Action:
    """Mostly keep trading and bartering, so that deals run long (the stock runs down)."""
    stands = [a for a in legal if a.kind is ActionKind.STAND]
    others = [a for a in legal if a.kind is not ActionKind.STAND]
    if stands and (not others or rng.random() < 0.04):
        return stands[0]
    return rng.choice(others)


def play_side_by_side(ruleset: Ruleset, players: int, seed: int) -> int:
    """Play one game on both paths, comparing after every action; the number of steps."""
    rng = random.Random(seed)
    probe = random.Random(seed + 1)
    ref = rules.new_game(ruleset, players, seed % players)
    quick = fast.new_game(ruleset, players, seed % players)
    steps = 0
    while True:
        assert fast.to_reference(quick) == ref
        assert fast.from_reference(ref) == quick
        decision = rules.decision(ref)
        assert fast.decision(quick) == decision
        for seat in (None, *range(players)):
            assert fast.observe(quick, seat) == rules.observe(ref, seat)
        legal = rules.legal_actions(ref)
        assert fast.legal_actions(quick) == legal
        assert (fast.outcome(quick) is None) == (decision is not None)
        assert fast.outcome(quick) == rules.outcome(ref)
        stray = Action(probe.choice(KINDS), tuple(probe.randrange(-1, 53)
                                                   for _ in range(probe.choice((0, 1, 1, 2)))))
        assert _fast_check(quick, stray) == _outcome_of_check(rules.check, ref, stray)
        if decision is None:
            return steps
        if decision.seat is None:
            saved = rng.getstate()
            action = rules.sample_chance(ref, rng)
            rng.setstate(saved)
            assert fast.sample_chance(quick, rng) == action
            if ref.phase is rules.Phase.DEAL and probe.random() < 0.3:
                action = Action(ActionKind.DEAL, action.cards[:probe.randrange(1, 4)])
        else:
            action = _choose(legal, rng)
        a, b = rules.apply(ref, action), fast.apply(quick, action)
        assert b.events == a.events
        ref, quick = a.state, b.state
        steps += 1


@pytest.mark.parametrize("ruleset,players", CASES)
def test_fast_path_equals_reference(ruleset, players):
    seeds = 2 if ruleset.max_rounds_per_deal != 1 else 4  # one-round deals are short
    steps = sum(play_side_by_side(ruleset, players, seed) for seed in range(seeds))
    assert steps > 30


def test_the_family_names_its_fast_path():
    assert FAMILY.fast is not None
    assert FAMILY.fast.apply is fast.apply and FAMILY.apply is rules.apply
    assert FAMILY.state_type is rules.TradingState
