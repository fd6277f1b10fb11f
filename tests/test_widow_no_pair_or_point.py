"""No Pair or Point (preset ``no-pair-or-point``): CatsAtCards and EB1911
(docs/rulesets/no-pair-or-point.md, decision #20)."""

from __future__ import annotations

from commerce.cards import parse_cards
from commerce.hands import Category, evaluate
from commerce.rules import find_ruleset
from helpers import Table, start

NPP = find_ruleset("no-pair-or-point")
VOID = {1: "2S 5H 9D", 2: "3S 7H JD", 0: "4C 8S QH"}


def test_only_tricon_sequence_and_flush_are_recognised() -> None:
    assert evaluate(parse_cards("9S 9H 2D"), NPP).category is Category.NONE
    assert evaluate(parse_cards("AS KH QD"), NPP).category is Category.NONE
    assert evaluate(parse_cards("2H 7H 9H"), NPP).category is Category.FLUSH
    assert evaluate(parse_cards("AS 2S 3S"), NPP).category is Category.FLUSH


def test_if_nobody_qualifies_no_token_moves() -> None:
    t = Table(start(NPP, 3, VOID, "6D TC KS"))
    t.act("pass", "pass", "pass", "pass")
    show = t.kinds("showdown")[0]
    assert show.get("winners") == ()
    assert t.state.tokens == (3, 3, 3)
    assert not t.kinds("token_moved")


def test_a_hand_without_a_combination_cannot_win_and_void_hands_tie_for_lowest() -> None:
    t = Table(start(NPP, 3, {**VOID, 1: "2H 6H 9H"}, "6D TC KS"))
    t.act("pass", "pass", "pass", "pass")
    assert t.kinds("showdown")[0].get("winners") == (1,)
    assert t.state.tokens == (2, 5, 2)  # both void hands are lowest: each loses one


def test_fallback_to_the_full_ranking_option() -> None:
    t = Table(start(NPP, 3, VOID, "6D TC KS", no_qualifier_rule="fallback_full_ranking"))
    t.act("pass", "pass", "pass", "pass")
    # Under the full ranking: 4-8-Q (22) beats 3-7-J (20) beats 2-5-9 (16).
    assert t.kinds("showdown")[0].get("winners") == (0,)
    assert t.state.tokens == (4, 2, 3)
