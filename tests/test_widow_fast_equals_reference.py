"""The widow family's fast path plays exactly the reference rules, step for step.

Seeded games of every preset, from the fewest to the most players, under several option
variants, step the reference (:mod:`commerce.families.widow.rules`) and the fast path
(:mod:`commerce.families.widow.fast`) side by side. After every action the decision, the
legal actions (in order), the events, every seat's observation and the state itself (through
``to_reference``) must be the same; so must chance's draws from equal RNGs.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from commerce.core import Action
from commerce.errors import RulesetError
from commerce.families.widow import fast, observe, rules
from commerce.families.widow.options import validate
from commerce.families.widow.presets import PRESETS
from commerce.families.widow.state import Phase
from commerce.rules import Ruleset

VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"max_exchange_per_turn": 1, "pass_locks_out": False, "direction": "right"},
    {"end_condition": "rounds_eq_players", "add_widow_card_each_round": True,
     "exchange_all_three_locks": False},
    {"dealer_blind_exchange": "all_or_nothing", "worst_tie_rule": "all_lose",
     "max_rounds_per_deal": 3},
    {"pounce": True, "four_of_a_kind": True, "pounce_after_pass": False,
     "pounce_on_initial_widow": True, "best_tie_rule": "dealer_as_eldest"},
    {"token_flow": "lowest_to_pool", "buy_a_horse": True, "starting_tokens": 1,
     "deal_prize": 1, "worst_tie_rule": "none"},
)


def _rulesets() -> list[tuple[str, Ruleset]]:
    out = []
    for preset in PRESETS:
        base = preset.ruleset
        for i, options in enumerate(VARIANTS):
            try:
                ruleset = base.with_options(**options)
                validate(ruleset)
            except RulesetError:
                continue
            out.append((f"{base.id}-{i}", ruleset))
    return out


RULESETS = _rulesets()


def _rigged(r: Any, action: Action, rng: random.Random) -> Action:
    """*action*, the whole initial deal, with the cards of a random seat made a tricon."""
    order = r.deal.order
    m = len(order)
    rank = rng.randrange(13 - r.ruleset.pack // 4, 13)  # a rank of the pack
    suits = rng.sample(range(4), 4)
    tricon = [4 * rank + suit for suit in suits[:3]]
    fourth = 4 * rank + suits[3]
    rest = [c for c in action.cards if c not in tricon and c != fourth]
    rest += [c for c in r.deal.stock if c not in action.cards and c not in tricon
             and c != fourth]
    rest.insert(3 * m - 3 if rng.random() < 0.7 else 0, fourth)  # in the widow, or a hand
    holder = rng.randrange(m - 1)  # not the dealer, who may exchange blind
    cards = [tricon[k // m] if k < 3 * m and k % m == holder else rest.pop(0)
             for k in range(len(action.cards))]
    return Action(action.kind, tuple(cards))


def _step_both(ruleset: Ruleset, players: int, seed: int) -> tuple[int, int]:
    """Play one game on both paths: the number of actions compared, and of pounce offers."""
    ruleset = ruleset if ruleset.deals else ruleset.with_options(deals=3)
    rng = random.Random(seed)
    dealer = seed % players
    r: Any = rules.new_game(ruleset, players, dealer)
    f: Any = fast.new_game(ruleset, players, dealer)
    steps = pounces = 0
    while True:
        assert fast.to_reference(f) == r
        assert fast.from_reference(r) == f
        d = rules.decision(r)
        assert fast.decision(f) == d
        for seat in (None, *range(players)):
            assert fast.observe(f, seat) == observe.observe(r, seat)
        assert fast.reveal_all(f) == observe.reveal_all(r)
        assert fast.outcome(f) == rules.outcome(r)
        if d is None:
            return steps, pounces
        legal = rules.legal_actions(r)
        assert fast.legal_actions(f) == legal
        if d.seat is None:
            k = rng.randrange(1 << 30)
            action = rules.sample_chance(r, random.Random(k))
            assert fast.sample_chance(f, random.Random(k)) == action
            if ruleset.pounce and len(r.deal.stock) == ruleset.pack and rng.random() < 0.7:
                action = _rigged(r, action, rng)  # a tricon dealt: pounces happen
            elif len(action.cards) > 1 and rng.random() < 0.3:
                action = Action(action.kind, action.cards[:1])  # a deal one card at a time
        else:
            action = legal[rng.randrange(len(legal))]
        tr = rules.apply(r, action)
        tf = fast.apply(f, action)
        assert tf.events == tr.events
        r, f = tr.state, tf.state
        steps += 1
        pounces += r.turn.phase is Phase.POUNCE


@pytest.mark.parametrize(("name", "ruleset"), RULESETS, ids=[n for n, _ in RULESETS])
def test_fast_path_equals_the_reference(name: str, ruleset: Ruleset) -> None:
    steps = pounces = 0
    low, high = ruleset.min_players, min(ruleset.max_players, 7)
    games = 24 if low == high else 1  # one table size (the two-player variants): more games
    for players in range(low, high + 1):
        for game in range(games):
            done, pounced = _step_both(ruleset, players,
                                       seed=players * 101 + len(name) + 1000 * game)
            steps += done
            pounces += pounced
    assert steps > 100
    if ruleset.pounce:
        assert pounces  # the pounce offers were compared too


def test_the_variants_cover_every_preset() -> None:
    assert {r.id for _, r in RULESETS} == {p.ruleset.id for p in PRESETS}
    assert len(RULESETS) >= 2 * len(PRESETS)
