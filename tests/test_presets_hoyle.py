"""Hoyle's new way (preset ``hoyle``): Hoyle's Games Improved, pp. 68-70, and the Google Books
Hoyle p. 179 (docs/rulesets/hoyle.md)."""

from __future__ import annotations

from commerce.cards import parse_cards
from commerce.core import DecisionKind
from commerce.hands import Category, compare, evaluate
from commerce.rules import find_ruleset
from helpers import Table, start

HOYLE = find_ruleset("hoyle")
# Four players, the banker is seat 0; play goes to the right: seats 3, 2, 1, then the banker.
HANDS = {3: "2S 5H 9D", 2: "KH QH 4C", 1: "7S 7H 7D", 0: "AC TC 3D"}


def test_three_ranks_only_point_of_two_or_three_cards_of_a_suit() -> None:
    assert evaluate(parse_cards("KH QH 2H"), HOYLE).category is Category.POINT
    assert evaluate(parse_cards("9S 9H 2D"), HOYLE).category is Category.NONE  # no pair
    assert evaluate(parse_cards("7S 7H 7D"), HOYLE).category is Category.TRICON
    assert compare(parse_cards("AC TC 3D"), parse_cards("KH QH 4C"), HOYLE).winner == "a"


def test_play_and_barter_go_to_the_right_and_a_barter_may_not_be_refused() -> None:
    t = Table(start(HOYLE, 4, HANDS))
    assert t.decision.seat == 3  # the banker's right-hand player is eldest
    t.act("barter 2S")
    assert t.decision.seat == 2 and t.decision.kind is DecisionKind.BARTER_REPLY
    assert "stand" not in t.legal()  # he may not refuse
    t.act("give 4C")
    assert sorted(t.state.hands[3]) == sorted(parse_cards("4C 5H 9D"))


def test_ready_money_pays_the_banker_who_trades_with_the_stock_free() -> None:
    t = Table(start(HOYLE, 4, HANDS))
    assert t.state.balances == (-1, -1, -1, -1)  # one counter each, no double for the banker
    t.act("trade 2S", "deal 8D", "done")  # seat 3 pays a counter to the banker
    assert t.state.balances == (0, -1, -1, -2)
    t.act("trade 4C", "deal 8S", "done")
    t.act("trade 7D", "deal 6C", "done")
    t.act("trade 3D", "deal 5C", "done")  # the banker trades free
    assert t.state.balances == (2, -2, -2, -2)


def test_banker_counts_as_eldest_on_equal_hands_and_pays_nothing_when_he_wins() -> None:
    hands = {3: "KS QS 3D", 2: "2S 5H 9D", 1: "4C 6H 8D", 0: "KH QH 2C"}
    t = Table(start(HOYLE, 4, hands))
    t.act("stand")  # seat 3 stands on a point of 20 (two cards)
    assert t.kinds("showdown")[0].get("winners") == (0,)  # the banker's equal 20 wins
    # the pool of four, less his own counter (and the next deal's ante, already paid)
    assert t.state.balances[0] == 3 - 1


def test_banker_pays_the_winner_one_counter_and_there_is_no_stander_penalty() -> None:
    t = Table(start(HOYLE, 4, HANDS))
    t.act("stand")  # seat 3 stands on nothing and is beaten
    assert t.kinds("showdown")[0].get("winners") == (1,)  # tricon of sevens
    # seat 1 takes the pool (4) and a counter from the banker; seat 3 pays no penalty
    # (the next deal's antes are already paid)
    assert t.state.balances == (-2 - 1, 4 - 1, -1 - 1, -1 - 1)
