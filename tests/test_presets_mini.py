"""The small research variants: the 12-card pack, two players, one round a deal."""

from __future__ import annotations

import random

import pytest

from commerce import engine
from commerce.cards import format_cards, pack
from commerce.errors import RulesetError
from commerce.rules import Ruleset, find_ruleset

MINI = ("trade-and-barter-mini", "widow-mini")


def test_the_research_pack_is_the_ace_king_and_queen_of_each_suit():
    assert format_cards(pack(12)) == "QS QH QD QC KS KH KD KC AS AH AD AC"
    assert set(pack(12)) < set(pack(32)) < set(pack(52))


def test_the_research_pack_seats_at_most_three():
    peel = find_ruleset("peel").with_options(pack=12)
    assert (peel.min_players, peel.max_players) == (3, 3)
    with pytest.raises(RulesetError, match="at most 3 players with the 12-card pack"):
        find_ruleset("peel").with_options(pack=12, max_players=4)
    with pytest.raises(RulesetError, match="cards are dealt"):  # 3 hands and a widow of 5
        find_ruleset("widow").with_options(pack=12, widow_size=5)


def _longest_deal(rules: Ruleset, games: int) -> int:
    """The most seat decisions in one deal over *games* random games of two players."""
    longest = 0
    for seed in range(games):
        rng = random.Random(seed)
        state, decisions = engine.new_game(rules, 2, dealer=seed % 2), 0
        while (d := engine.decision(state)) is not None:
            if d.seat is None:
                action = engine.sample_chance(state, rng)
            else:
                action = rng.choice(engine.legal_actions(state))
                decisions += 1
            transition = engine.apply(state, action)
            if any(e.kind == "showdown" for e in transition.events):
                longest, decisions = max(longest, decisions), 0
            state = transition.state
    return longest


@pytest.mark.parametrize("rules_id", MINI)
def test_a_mini_variant_is_two_players_the_short_pack_and_one_round(rules_id: str):
    rules = find_ruleset(rules_id)
    assert (rules.version, rules.pack, rules.player_range()) == (1, 12, range(2, 3))
    one_round = _longest_deal(rules, 30)
    # the same game with the usual cap on rounds plays longer deals
    assert 0 < one_round < _longest_deal(rules.with_options(max_rounds_per_deal=50), 30)
    limit = {"trade-and-barter-mini": 4, "widow-mini": 4}[rules_id]  # turns, gives, finals
    assert one_round <= limit
