"""Trade and Barter (preset ``trade-and-barter``): CatsAtCards, *Commerce*
(docs/rulesets/trade-and-barter.md)."""

from __future__ import annotations

import pytest

from commerce.cards import parse_cards
from commerce.core import DecisionKind
from commerce.errors import IllegalActionError, IllegalReason
from commerce.hands import compare
from commerce.rules import find_ruleset
from helpers import Table, start

TB = find_ruleset("trade-and-barter")


def test_point_is_the_pips_of_one_suit_more_cards_win_equal_points() -> None:
    # docs/counts.md
    assert compare(parse_cards("KH QH 2H"), parse_cards("AS KS 3D"), TB).winner == "a"
    assert compare(parse_cards("KH QH 4C"), parse_cards("TD 8D 2D"), TB).winner == "b"
    assert compare(parse_cards("AS 2S 3S"), parse_cards("2H 3H 4H"), TB).winner == "b"


def test_knock_only_with_a_combination() -> None:
    t = Table(start(TB, 3, {1: "2S 5H 9D", 2: "KH QH 4C", 0: "7C 8C 9C"}))
    assert t.decision.seat == 1
    assert "stand" not in t.legal()
    with pytest.raises(IllegalActionError) as info:
        t.act("stand")
    assert info.value.reason is IllegalReason.NOT_ALLOWED_BY_RULES


def test_knock_ends_the_deal_at_once_and_the_best_hand_takes_the_pot() -> None:
    t = Table(start(TB, 3, {1: "KH QH 2H", 2: "AS KS 3D", 0: "7C 9D 4H"}))
    assert t.state.pool == 3  # everyone antes one to the pot
    t.act("stand")
    assert t.kinds("showdown")[0].get("winners") == (1,)
    assert t.state.balances == (-1 - 1, 2 - 1, -1 - 1)  # the next deal's antes are paid


def test_equal_points_and_cards_go_to_the_player_nearest_the_dealers_left() -> None:
    t = Table(start(TB, 3, {1: "2S 5H 9D", 2: "KH QH 4C", 0: "KS QS 3D"}))
    t.act("barter 2S")  # seat 1 bartered to his left
    assert t.decision.seat == 2 and t.decision.kind is DecisionKind.BARTER_REPLY
    assert "stand" not in t.legal()
    t.act("give 4C")
    assert t.decision.seat == 2 and t.decision.kind is DecisionKind.TURN  # no stand after
    t.act("stand")  # seat 2 knocks on K-Q of hearts (20)
    assert t.kinds("showdown")[0].get("winners") == (2,)  # nearer the dealer's left than 0


def test_a_trade_costs_nothing_and_the_card_goes_under_the_stock() -> None:
    t = Table(start(TB, 3, {1: "2S 5H 9D", 2: "KH QH 4C", 0: "KS QS 3D"}))
    t.act("trade 2S")
    assert t.decision.is_chance
    t.act("deal 5S")
    assert t.state.bottom == parse_cards("2S")
    assert t.state.balances == (-1, -1, -1)  # only the antes
    assert t.decision.seat == 2  # the trade was his turn


def test_trade_cost_option_follows_janeausten() -> None:
    t = Table(start(TB, 3, {1: "2S 5H 9D", 2: "KH QH 4C", 0: "KS QS 3D"}, trade_cost=1))
    t.act("trade 2S", "deal 5S")
    assert t.state.balances == (0, -2, -1)
