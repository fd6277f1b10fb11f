"""The heuristic bot in the widow family (``commerce.families.widow.heuristic``)."""

from __future__ import annotations

import random

import pytest

from commerce import engine
from commerce.apps.tournament import tournament
from commerce.bots import make_bot
from commerce.cards import parse_cards
from commerce.core import DecisionKind
from commerce.driver import play_game
from commerce.families.widow.heuristic import best_target, knock_threshold, promise
from commerce.rules import find_ruleset
from helpers import Table, start

PRESETS = ["peel-old", "pool", "widow", "pounce", "no-pair-or-point"]


def _act(t: Table, seat: int) -> str:
    state = t.state
    bot = make_bot("heuristic")
    action = bot.act(engine.observe(state, seat), engine.legal_actions(state), random.Random(0))
    return engine.format_action(state, action)


@pytest.mark.parametrize("rules", PRESETS)
def test_heuristic_plays_whole_games_legally(rules):
    bots = [make_bot("heuristic"), make_bot("random"), make_bot("heuristic")]
    record = play_game(find_ruleset(rules), bots, seed=3)
    assert record.complete


def test_exchanges_towards_the_best_reachable_hand_then_done():
    t = Table(start("widow", 3, {1: "9S 9H 2D", 2: "5S 6H JD", 0: "3C 4C 7H"}, "9C KC QD"))
    t.act("pass")  # the dealer's blind exchange
    assert _act(t, 1) == "exchange 2D for 9C"  # a tricon of nines


def test_takes_two_cards_in_one_turn_step_by_step():
    t = Table(start("widow", 3, {1: "AS 2H 7D", 2: "5S 6H JD", 0: "3C 4C 7H"}, "AH AD 8C"))
    t.act("pass")
    first = _act(t, 1)
    assert first.startswith("exchange") and first.endswith(("AH", "AD"))
    t.act(first)
    assert t.decision.kind is DecisionKind.MORE_EXCHANGE
    second = _act(t, 1)
    assert second.startswith("exchange") and second.endswith(("AH", "AD"))
    t.act(second)
    hand = t.state.hands[1]
    assert sorted(hand) == sorted(parse_cards("AS AH AD"))


def test_old_game_exchanges_one_card_and_stands_when_nothing_helps():
    t = Table(start("peel-old", 3, {1: "AS KS QS", 2: "5S 6H JD", 0: "3C 4C 7H"}, "2H 9D 8C"))
    assert _act(t, 1) == "stand"  # the best sequence: stands at once
    t2 = Table(start("peel-old", 3, {1: "AS KH 2D", 2: "5S 6H JD", 0: "3C 4C 7H"}, "AH 9D 8C"))
    assert _act(t2, 1) == "exchange 2D for AH"


def test_knocks_when_no_exchange_helps():
    t = Table(start("widow", 3, {1: "QS QH 9D", 2: "5S 6H JD", 0: "3H 4H 7H"}, "2C 3D 6C"))
    t.act("pass")
    assert _act(t, 1) == "knock"


def test_always_pounces():
    t = Table(start("pounce", 3, {1: "9S 9H 9D", 2: "AS AH AD", 0: "9C 2D 4H"}, "KC 7S 5C"))
    t.act("pass", "pass", "knock", "exchange 9C for KC")
    assert t.decision.kind is DecisionKind.POUNCE_OFFER
    assert _act(t, 1) == "pounce 9C"


def test_dealer_takes_a_strong_widow_blind_and_leaves_a_poor_one():
    t = Table(start("widow", 3, {1: "5S 6H JD", 2: "2S 3H 8D", 0: "3C 4C 7H"}, "AS AH AD"))
    assert t.decision.kind is DecisionKind.BLIND_EXCHANGE
    assert _act(t, 0).startswith("exchange A")
    t2 = Table(start("widow", 3, {1: "5S 6H JD", 2: "2S 3H 8D", 0: "3C 4C 7H"}, "2C 3D 4D"))
    assert _act(t2, 0) == "pass"


def test_best_target_respects_the_turn_limit_and_promise():
    rules = find_ruleset("widow")
    hand = parse_cards("2S 7H JD")
    widow = parse_cards("AS AH AD")
    assert sorted(best_target(rules, hand, hand, widow, 3, False)) == sorted(widow)
    one = best_target(rules, hand, hand, widow, 1, False)
    assert len(set(one) & set(widow)) == 1
    # a pair promises more than three odd cards
    assert promise(rules, parse_cards("9S 9H 2D")) > promise(rules, parse_cards("2S 7H JD"))
    assert 0.9 < knock_threshold(rules, 3, 0.5) < 1.0


@pytest.mark.parametrize("rules", ["peel-old", "widow"])
def test_heuristic_beats_random(rules):
    result = tournament(find_ruleset(rules), players=4, bots=["random", "heuristic"],
                        games=10, seed=1)
    pair = result["pairs"][0]
    assert pair["a"] == "heuristic" and pair["ci95"][0] > 0
