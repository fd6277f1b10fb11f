"""A hand's points are the ruleset's own: Peel counts the three cards, Hoyle and Trade and Barter
the cards of one suit, at least two (CatsAtCards: "the point of the cards of one suit")."""

from __future__ import annotations

import json

import pytest

from commerce import engine
from commerce.cards import parse_cards
from commerce.cli import main
from commerce.families.trading import text
from commerce.hands import evaluate
from commerce.rules import find_ruleset


@pytest.mark.parametrize("rules_id,cards,points", [
    ("peel", "7C AD 5C", 23),
    ("trade-and-barter", "7C AD 5C", 12),
    ("hoyle", "7C AD 5C", 12),
    ("trade-and-barter", "KH QH JH", 30),   # a sequence: all three of one suit
    ("trade-and-barter", "2C 5D 9H", 0),    # no two of a suit: no point
    ("hoyle", "9C 9D 9H", 0),               # a tricon holds no point of one suit
])
def test_points_follow_the_ruleset(rules_id, cards, points):
    assert evaluate(parse_cards(cards), find_ruleset(rules_id)).points == points


@pytest.mark.parametrize("rules_id,points", [("peel", 23), ("trade-and-barter", 12),
                                             ("hoyle", 12)])
def test_hand_command_states_the_rulesets_points(capsys, rules_id, points):
    assert main(["hand", "7C", "AD", "5C", "--rules", rules_id]) == 0
    assert f"({points} points;" in capsys.readouterr().out
    assert main(["hand", "7C", "AD", "5C", "--rules", rules_id, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["points"] == points


def test_compare_states_the_rulesets_points(capsys):
    assert main(["compare", "7C AD 5C", "9H 2H 3S", "--rules", "trade-and-barter"]) == 0
    out = capsys.readouterr().out
    assert "(12 points;" in out and "(11 points;" in out
    assert "point of 12 beats point of 11" in out


def test_the_table_states_the_rulesets_points():
    rules = find_ruleset("trade-and-barter")
    state = engine.new_game(rules, players=3, dealer=0)
    # the eldest (seat 1) is dealt 7C AD 5C
    state = engine.apply(state, engine.parse_action(
        state, "deal 7C 2H 3D AD 4H 6D 5C 8S 9S")).state
    shown = text.render(engine.observe(state, 1), ["Ann", "Bob", "Cy"])
    assert "(point, 12 points)" in shown
