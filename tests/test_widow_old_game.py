"""Peel's Old Game (preset ``peel-old``): Peel, Round Games with Cards
(docs/rulesets/peel-old.md)."""

from __future__ import annotations

import pytest

from commerce import engine
from commerce.cards import parse_cards
from commerce.core import DecisionKind
from commerce.errors import IllegalActionError, IllegalReason
from commerce.rules import find_ruleset
from helpers import Table, start

OLD = find_ruleset("peel-old")
# Four players, dealer seat 0: seats 1, 2, 3 then the dealer.
HANDS = {1: "AS KD 2C", 2: "TH TD 4S", 3: "7C 8C 9C", 0: "3H 5D JC"}
WIDOW = "QS QH 6D"


def test_one_card_exchanges_with_a_face_up_widow_and_no_trading() -> None:
    t = Table(start(OLD, 4, HANDS, WIDOW))
    assert t.decision.seat == 1 and t.decision.kind is DecisionKind.TURN  # no blind exchange
    legal = t.legal()
    assert legal[:2] == ["pass", "stand"] and len(legal) == 2 + 9
    assert "knock" not in legal
    t.act("exchange 2C for QS")
    assert t.decision.seat == 2  # only one card a turn


def test_two_stands_then_one_more_exchange_for_each_non_passer() -> None:
    t = Table(start(OLD, 4, HANDS, WIDOW))
    t.act("stand")  # seat 1
    t.act("exchange 4S for QS")  # seat 2
    t.act("stand")  # seat 3: two have stood
    assert t.decision.seat == 0 and t.decision.kind is DecisionKind.FINAL_TURN
    t.act("exchange 3H for QH")  # the dealer's one more exchange
    assert t.decision.seat == 2 and t.decision.kind is DecisionKind.FINAL_TURN
    assert len(t.state.widow) == 3  # no card is ever added
    t.act("pass")
    show = t.kinds("showdown")[0]
    assert show.get("winners") == (3,)  # 7-8-9 of clubs, a sequence
    # No pool: the winner receives one stake from each other player.
    assert t.state.balances == (-1, -1, -1, 3)


def test_passing_locks_out_and_the_deal_ends_when_all_have_passed() -> None:
    t = Table(start(OLD, 4, HANDS, WIDOW))
    t.act("pass", "exchange 4S for QS", "pass", "pass")
    assert t.decision.seat == 2  # round 2: only seat 2 has not passed
    with pytest.raises(IllegalActionError) as info:
        engine.apply(t.state, engine.parse_action(t.state, "pass"), seat=1)
    assert info.value.reason is IllegalReason.NOT_YOUR_TURN
    t.act("pass")
    assert t.kinds("showdown")[0].get("winners") == (3,)


def test_exactly_tied_winners_are_each_paid_by_every_other_player() -> None:
    hands = {1: "KS QS 9S", 2: "KH QH 9H", 0: "2D 5C 7H"}
    t = Table(start(OLD, 3, hands, "3D 4C 8S"))
    t.act("pass", "pass", "pass")
    assert t.kinds("showdown")[0].get("winners") == (1, 2)
    assert t.state.balances == (-2, 1, 1)


def test_a_session_ends_when_everyone_has_dealt() -> None:
    t = Table(start(OLD, 3, {1: "KS QS 9S", 2: "2H 5H 9D", 0: "2D 5C 7H"}, "3D 4C 8S"))
    t.act("pass", "pass", "pass")
    for _ in range(2):
        assert engine.outcome(t.state) is None
        dealer = t.state.dealer
        seats = [(dealer + i) % 3 for i in (1, 2, 3)]
        t.deal({seats[0]: "AS AH AD", seats[1]: "2S 3H 5D", seats[2]: "4C 6H 8D"}, "9C TC JC")
        t.act("pass", "pass", "pass")
    result = engine.outcome(t.state)
    assert result is not None and result.details["deals"] == 3
    assert sum(result.payoffs) == 0
    assert parse_cards("AS")[0] in t.state.hands[t.state.deal.order[0]]
