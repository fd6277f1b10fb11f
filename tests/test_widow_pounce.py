"""Pounce Commerce (preset ``pounce``): CatsAtCards and EB1911 (docs/rulesets/pounce.md, decisions
#27-#29)."""

from __future__ import annotations

import pytest

from commerce import engine
from commerce.cards import parse_cards
from commerce.core import DecisionKind
from commerce.errors import IllegalActionError, IllegalReason
from commerce.families.widow.observe import observe
from commerce.hands import Category, compare, evaluate
from commerce.rules import find_ruleset
from helpers import Table, start

POUNCE = find_ruleset("pounce")


def test_four_of_a_kind_beats_every_three_card_hand() -> None:
    # docs/counts.md: four nines beat A-A-A
    assert evaluate(parse_cards("9S 9H 9D 9C"), POUNCE).category is Category.FOUR
    assert compare(parse_cards("9S 9H 9D 9C"), parse_cards("AS AH AD"), POUNCE).winner == "a"
    assert compare(parse_cards("9S 9H 9D 9C"), parse_cards("TS TH TD TC"), POUNCE).winner == "b"


def test_pounce_on_a_card_discarded_by_exchange_out_of_turn() -> None:
    hands = {1: "9S 9H 9D", 2: "AS AH AD", 0: "9C 2D 4H"}
    t = Table(start(POUNCE, 3, hands, "KC 7S 5C"))
    t.act("pass")  # the dealer declines his blind exchange
    t.act("pass")  # seat 1 passes (and may still pounce)
    t.act("knock")  # seat 2 knocks; seat 0 has the only final turn
    assert t.decision.seat == 0 and t.decision.kind is DecisionKind.FINAL_TURN
    t.act("exchange 9C for KC")
    # The fourth nine is in the widow: seat 1 may pounce at once, out of turn.
    assert t.decision.seat == 1 and t.decision.kind is DecisionKind.POUNCE_OFFER
    assert t.legal() == ["pounce 9C", "decline"]
    assert observe(t.state, 1).pounce_offer == parse_cards("9C")[0]
    # the offer is not shown to others: they see seat 0 going on with his final turn
    assert observe(t.state, 2).decision == engine.Decision(0, DecisionKind.MORE_EXCHANGE)
    assert observe(t.state, 2).pounce_offer is None
    t.act("pounce 9C")
    # A new card from the stock replaces it in the widow.
    assert engine.decision(t.state).is_chance
    t.act("deal 3D")
    assert t.state.widow == tuple(sorted(parse_cards("7S 5C 3D")))
    # Play resumes exactly where it was: seat 0 is still exchanging.
    assert t.decision.seat == 0 and t.decision.kind is DecisionKind.MORE_EXCHANGE
    pounced = t.kinds("pounced")[0]
    assert pounced.visible_to is None and pounced.seat == 1  # a pounce is public
    obs = observe(t.state, 2)
    assert obs.hand_sizes == (3, 4, 3) and obs.pounced == (1,)
    t.act("done")
    assert t.kinds("showdown")[0].get("winners") == (1,)
    assert t.state.tokens == (2, 4, 3)


def test_pounce_on_the_card_added_from_the_stock_and_declining() -> None:
    hands = {1: "9S 9H 9D", 2: "AS KH 2D", 0: "QC 2H 4H"}
    t = Table(start(POUNCE, 3, hands, "KC 7S 5C"))
    t.act("pass", "pass")  # blind declined; seat 1 passes
    t.act("exchange 2D for KC", "done")
    t.act("exchange QC for 7S", "done")
    assert engine.decision(t.state).is_chance  # round 2: a card for the widow
    t.act("deal 9C")
    assert t.decision.seat == 1 and t.decision.kind is DecisionKind.POUNCE_OFFER
    t.act("decline")
    declined = t.kinds("pounce_declined")[0]
    assert declined.visible_to == frozenset({1})  # nobody else learns of the offer
    assert t.decision.seat == 2 and t.decision.kind is DecisionKind.TURN
    assert parse_cards("9C")[0] in t.state.widow


def test_the_dealer_pounces_on_the_first_widow_after_looking() -> None:
    hands = {1: "2S 5H 7D", 2: "3S 6H 8D", 0: "9S 9H 9D"}
    t = Table(start(POUNCE, 3, hands, "9C 2C 3C"))
    assert t.decision.kind is DecisionKind.BLIND_EXCHANGE  # no offer while he is blind
    t.act("pass")
    assert t.decision.seat == 0 and t.decision.kind is DecisionKind.POUNCE_OFFER
    t.act("pounce 9C", "deal 4C")
    assert t.decision.seat == 1 and t.decision.kind is DecisionKind.TURN
    assert sorted(t.state.hands[0]) == sorted(parse_cards("9S 9H 9D 9C"))


def test_nobody_pounces_on_a_card_he_put_down_himself() -> None:
    hands = {1: "2S 5H 7D", 2: "3S 6H 8D", 0: "9S 9H 9D"}
    t = Table(start(POUNCE, 3, hands, "KC 2C 3C"))
    t.act("exchange KC", "done")  # blind: his first card, 9S, goes face up
    assert t.decision.seat == 1 and t.decision.kind is DecisionKind.TURN


def test_a_pounced_four_is_frozen_but_may_knock() -> None:
    t = Table(start(POUNCE, 3, {1: "2S 5H 7D", 2: "AS AH AD", 0: "9S 9H 9D"}, "9C 2C 3C"))
    t.act("pass", "pounce 9C", "deal 4C")
    t.act("exchange 2S for 2C", "done", "pass")  # seats 1 and 2
    assert t.decision.seat == 0
    assert t.legal() == ["pass", "knock"]  # his four may not be broken up
    with pytest.raises(IllegalActionError) as info:
        t.act("exchange 9S for 3C")
    assert info.value.reason is IllegalReason.NOT_ALLOWED_BY_RULES
    t.act("knock")
    assert t.decision.seat == 1 and t.decision.kind is DecisionKind.FINAL_TURN
