"""Cox's fast path plays exactly the reference rules, step for step.

Seeded games of every preset of the family, 2 to 4 players and several option variants, are
stepped on the reference and the fast path side by side. After every action the decision, the
legal actions (in order), the events, every seat's observation (and the review) and the state
(through ``to_reference``) must be the same. Every state's checks agree too: a few illegal
actions are refused by both with the same reason.
"""

from __future__ import annotations

import random

import pytest

from commerce.core import Action, ActionKind
from commerce.errors import IllegalActionError
from commerce.families.cox import fast, rules
from commerce.family import family_spec
from commerce.rules import find_ruleset

SPEC = family_spec("cox")
FAST = SPEC.fast
VARIANTS = [
    {},
    {"buy_offers": "eligible_only", "last_discard_buyable": "yes"},
    {"captain_can_be_fourth": True, "replacement_fallback": "skip"},
    {"last_discard_buyable": "no", "bank_double_order": "before_penalty",
     "bank_counts_for_clear_hand": True, "direction": "left"},
]
_PROBES = (Action(ActionKind.DRAW), Action(ActionKind.BUY), Action(ActionKind.DECLINE),
           Action(ActionKind.DISCARD, (0,)), Action(ActionKind.SELL_OUT, (76,)),
           Action(ActionKind.DISCARD, (1,)))


def _cases():
    for preset in SPEC.presets:
        base = preset.ruleset
        for i, options in enumerate(VARIANTS):
            for players in range(base.min_players, base.max_players + 1):
                yield base.id, options, players, 100 * i + players


def _error(step, state, action):
    try:
        step(state, action)
    except IllegalActionError as e:
        return e.reason, str(e)
    return None


@pytest.mark.parametrize("rules_id,options,players,seed", list(_cases()))
def test_fast_path_equals_reference_step_for_step(rules_id, options, players, seed):
    ruleset = find_ruleset(rules_id).with_options(hands_per_game=2, **options)
    rng = random.Random(seed)
    ref = rules.new_game(ruleset, players, seed % players)
    assert FAST is fast.FAST and SPEC.apply is rules.apply
    quick = FAST.new_game(ruleset, players, seed % players)
    assert FAST.to_reference(quick) == ref
    assert FAST.from_reference(ref) == quick
    steps = 0
    while True:
        d = rules.decision(ref)
        assert FAST.decision(quick) == d
        assert FAST.outcome(quick) == rules.outcome(ref)
        if d is None:
            break
        legal = rules.legal_actions(ref)
        assert FAST.legal_actions(quick) == legal
        for seat in [None, *range(players)]:
            assert FAST.observe(quick, seat) == rules.observe(ref, seat)
        assert fast.reveal_all(quick) == rules.reveal_all(ref)
        if steps % 7 == 0:
            for probe in _PROBES:
                assert _error(FAST.apply, quick, probe) == _error(rules.apply, ref, probe)
        if d.seat is None:
            assert FAST.sample_chance(quick, random.Random(steps)) == \
                rules.sample_chance(ref, random.Random(steps))
            # Now and then one card (or Directors card) at a time.
            action = rng.choice(legal) if rng.random() < 0.3 else rules.sample_chance(ref, rng)
        else:
            buys = [a for a in legal if a.kind is ActionKind.BUY]
            action = buys[0] if buys and rng.random() < 0.6 else rng.choice(legal)
        t_ref = rules.apply(ref, action)
        t_fast = FAST.apply(quick, action)
        assert t_fast.events == t_ref.events
        ref, quick = t_ref.state, t_fast.state
        assert FAST.to_reference(quick) == ref
        steps += 1
    assert steps > 50
