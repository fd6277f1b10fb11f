"""Pool Commerce (preset ``pool``): Peel and Hoyle's old way (docs/rulesets/peel-old.md, decisions
#25, #26)."""

from __future__ import annotations

from commerce import engine
from commerce.core import DecisionKind
from commerce.families.widow.observe import observe
from commerce.rules import find_ruleset
from helpers import Table, start

POOL = find_ruleset("pool")


def test_worst_hand_pays_a_counter_the_first_out_buys_a_horse_the_survivor_takes_the_pool(
) -> None:
    # Three players with one counter each (starting_tokens=1) to reach the end quickly.
    t = Table(start(POOL, 3, {1: "AS AH AD", 2: "2S 3H 5D", 0: "9S 9H 4C"}, "KC QD 8S",
                    starting_tokens=1))
    assert t.state.pool == 9 and t.state.balances == (-3, -3, -3)  # the entry stakes
    t.act("pass", "pass", "pass")
    # Seat 2 (2-3-5, the worst hand) puts his counter in the pool and is out: the first
    # player out may buy a horse.
    assert t.state.tokens == (1, 1, 0) and t.state.session.pool_counters == 1
    assert t.decision.seat == 2 and t.decision.kind is DecisionKind.HORSE_OFFER
    assert t.legal() == ["buy_horse", "decline"]
    t.act("buy_horse")
    assert t.state.tokens == (1, 1, 1) and t.state.pool == 10 and t.state.balances[2] == -4
    assert t.state.dealer == 1 and t.state.deal.order == (2, 0, 1)
    t.deal({2: "KS KH KD", 0: "2D 3C 5H", 1: "7S 7H 4D"}, "JC TD 8H")
    t.act("pass", "pass", "pass")
    assert t.state.tokens == (0, 1, 1) and t.state.session.out_in == (2, 0, 0)
    assert t.decision.kind is not DecisionKind.HORSE_OFFER  # only the first out, once
    assert observe(t.state, 1).out == (0,)
    assert t.state.dealer == 2 and t.state.deal.order == (1, 2)
    t.deal({1: "QS QH QC", 2: "2H 4D 6C"}, "JC TD 8H")
    t.act("pass", "pass")
    result = engine.outcome(t.state)
    assert result is not None
    assert result.reason == "one player is left in the game"
    assert result.payoffs == (-3, 7, -4)  # the survivor takes the pool of 10
    assert result.details["tokens"] == (0, 1, 0)
    assert result.details["out_in"] == (2, None, 3)
    assert result.details["pool_counters"] == 3 and result.details["horses"] == 1
    assert t.state.pool == 0


def test_declining_the_horse() -> None:
    t = Table(start(POOL, 3, {1: "AS AH AD", 2: "2S 3H 5D", 0: "9S 9H 4C"}, "KC QD 8S",
                    starting_tokens=1))
    t.act("pass", "pass", "pass", "decline")
    assert t.state.deal.order == (0, 1) and t.state.session.out_in == (0, 0, 1)
    assert [e.kind for e in t.events if e.kind.startswith("horse")] == ["horse_declined"]


def test_deal_prize_option() -> None:
    t = Table(start(POOL, 3, {1: "AS AH AD", 2: "2S 3H 5D", 0: "9S 9H 4C"}, "KC QD 8S",
                    deal_prize=2))
    t.act("pass", "pass", "pass")
    assert t.state.pool == 7 and t.state.balances == (-3, -1, -3)
