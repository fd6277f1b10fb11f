"""The search bot in Pool Commerce: playouts scored by expected stakes (survival and the
pool), the few actions it searches, its budget."""

from __future__ import annotations

import random

import pytest

from commerce import engine
from commerce.bots import make_bot
from commerce.bots.search import default_iterations
from commerce.core import ActionKind, DecisionKind
from commerce.families.widow.search import (
    CANDIDATE_EXCHANGES,
    DEFAULT_ITERATIONS,
    POOL_ITERATIONS,
    candidates,
    playout,
    pool_model,
    pool_value,
    survival,
)
from commerce.rules import find_ruleset
from helpers import Table, start

POOL = find_ruleset("pool")


def test_survival_counts_the_others_going_out_and_the_horse() -> None:
    alone, _ = survival(2, (2,), False, 1)
    # Another player with one counter left is one more to outlast, but an easy one.
    assert survival(2, (2, 1), False, 1)[0] < alone
    assert survival(2, (2, 1), False, 1)[0] > survival(2, (2, 2), False, 1)[0]
    # A horse still to buy is one more counter for the first out: more survival, paid for.
    win_open, horses_open = survival(1, (3, 3), True, 1)
    win_shut, horses_shut = survival(1, (3, 3), False, 1)
    assert win_open > win_shut and horses_open < 0 == horses_shut
    # The chances of all the players add up to one, and the horse money to nothing.
    counts = (3, 2, 2, 1)
    total_win = total_horses = 0.0
    for i, c in enumerate(counts):
        w, h = survival(c, tuple(sorted(counts[:i] + counts[i + 1:])), True, 1)
        total_win += w
        total_horses += h
    assert total_win == pytest.approx(1.0) and total_horses == pytest.approx(0.0)


def test_pool_value_is_the_balance_plus_the_expected_pool() -> None:
    t = Table(start(POOL, 3, {1: "AS AH AD", 2: "2S 3H 5D", 0: "9S 9H 4C"}, "KC QD 8S",
                    starting_tokens=1))
    # Three players with one counter each and a horse to buy: a third of the pool each.
    assert pool_value(t.state, 0) == pytest.approx(-3 + 9 * survival(1, (1, 1), True, 1)[0]
                                                 + survival(1, (1, 1), True, 1)[1])
    assert pool_model(POOL) and not pool_model(find_ruleset("peel-old"))
    assert not pool_model(POOL.with_options(deals=5))


def test_playout_prices_the_horse_by_what_the_pool_may_pay() -> None:
    t = Table(start(POOL, 3, {1: "AS AH AD", 2: "2S 3H 5D", 0: "9S 9H 4C"}, "KC QD 8S",
                    starting_tokens=1))
    t.act("pass", "pass", "pass")
    assert t.decision.kind is DecisionKind.HORSE_OFFER and t.decision.seat == 2
    buy, decline = engine.legal_actions(t.state)
    assert buy.kind is ActionKind.BUY_HORSE
    rng = random.Random(0)
    # Buying: -4 stakes and a third of a pool of 10; declining: out, -3 stakes.
    gain_buy, _ = playout(t.state, buy, 2, rng)
    gain_decline, _ = playout(t.state, decline, 2, rng)
    assert gain_buy - gain_decline == pytest.approx((-4 + 10 / 3) - (-3))
    # A horse dearer than half the pool is not worth it to one of three.
    dear = Table(start(POOL.with_options(horse_price=5), 3,
                       {1: "AS AH AD", 2: "2S 3H 5D", 0: "9S 9H 4C"}, "KC QD 8S",
                       starting_tokens=1))
    dear.act("pass", "pass", "pass")
    buy, decline = engine.legal_actions(dear.state)
    assert playout(dear.state, buy, 2, rng)[0] < playout(dear.state, decline, 2, rng)[0]


def test_candidates_in_pool_are_few_with_the_heuristics_choice_first() -> None:
    hands = {1: "2S 7H JD", 2: "5S 6H 9D", 0: "3C 4C 8H"}
    t = Table(start(POOL, 3, hands, "KC QD TS"))
    state = t.state
    obs = engine.observe(state, t.decision.seat)
    legal = engine.legal_actions(state)
    swaps = [a for a in legal if a.kind is ActionKind.EXCHANGE]
    assert len(swaps) > CANDIDATE_EXCHANGES + 1
    picked = candidates(obs, legal)
    heuristic = legal.index(make_bot("heuristic").act(obs, legal, random.Random(0)))
    assert picked[0] == heuristic
    assert sum(legal[i].kind is ActionKind.EXCHANGE for i in picked) <= CANDIDATE_EXCHANGES + 1
    assert {a.kind for a in legal if a.kind is not ActionKind.EXCHANGE} <= {
        legal[i].kind for i in picked}
    old = Table(start("peel-old", 3, hands, "KC QD TS"))
    old_legal = engine.legal_actions(old.state)
    assert candidates(engine.observe(old.state, old.decision.seat), old_legal) == list(
        range(len(old_legal)))


def test_pool_has_its_own_default_budget() -> None:
    assert default_iterations("widow", POOL) == POOL_ITERATIONS
    assert default_iterations("widow", find_ruleset("peel-old")) == DEFAULT_ITERATIONS
    assert default_iterations("widow") == DEFAULT_ITERATIONS
