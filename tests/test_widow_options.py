"""Widow-family options beyond the presets' defaults: other end conditions, the dealer's
all-or-nothing blind exchange (Hoyle's old way), the round limit (house rule)."""

from __future__ import annotations

from commerce import engine
from commerce.cards import parse_cards
from commerce.core import DecisionKind
from commerce.rules import find_ruleset
from helpers import Table, start

HANDS = {1: "AS 5S 2S", 2: "KH QH 9H", 0: "7C 8D 2H"}


def test_rounds_eq_players_ends_after_as_many_rounds_as_players() -> None:
    rules = find_ruleset("widow").with_options(end_condition="rounds_eq_players",
                                               pass_locks_out=False)
    t = Table(start(rules, 3, HANDS, "4D 6C JS"))
    t.act("pass")  # no blind exchange
    assert "knock" not in t.legal()
    for card in ("3C", "4C"):
        t.act("pass", "pass", "pass", f"deal {card}")
    assert t.state.turn.round == 3 and len(t.state.widow) == 5
    t.act("pass", "pass", "pass")
    assert t.kinds("showdown") and t.state.session.deal_number == 2


def test_all_or_nothing_blind_exchange_takes_the_whole_widow_and_locks() -> None:
    rules = find_ruleset("pool").with_options(dealer_blind_exchange="all_or_nothing")
    t = Table(start(rules, 3, HANDS, "4D 6C JS"))
    assert t.decision.kind is DecisionKind.BLIND_EXCHANGE
    assert t.legal() == ["pass", "exchange 4D 6C JS"]
    t.act("exchange 4D 6C JS")
    assert sorted(t.state.hands[0]) == sorted(parse_cards("4D 6C JS"))
    assert t.state.widow == tuple(sorted(parse_cards("7C 8D 2H")))
    assert t.decision.seat == 1
    t.act("pass", "pass")  # everyone else passes; the dealer may not exchange again
    assert t.kinds("showdown")


def test_round_limit_forces_a_showdown() -> None:
    rules = find_ruleset("peel-old").with_options(max_rounds_per_deal=2)
    t = Table(start(rules, 3, HANDS, "4D 6C JS"))
    t.act("exchange 2S for 4D", "exchange 9H for 2S", "exchange 2H for 9H")
    t.act("exchange 4D for 2H", "exchange 2S for 4D", "exchange 9H for 2S")
    assert [e.kind for e in t.events if e.kind == "round_limit"] == ["round_limit"]
    assert t.kinds("showdown")
    assert engine.decision(t.state) is not None  # the session goes on
