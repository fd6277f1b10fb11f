"""The trading family's test hooks: where every card lies, and relabelling what a seat cannot
know without changing its observation."""

from __future__ import annotations

import random

import pytest

from commerce.cards import pack
from commerce.families.trading import FAMILY, rules
from commerce.rules import find_ruleset
from tests.invariants import random_game

PEEL = find_ruleset("peel")


def _states(ruleset, players: int, seeds: range) -> list:
    out: list = []
    for seed in seeds:
        random_game(ruleset, players, seed, each=out.append)
    return out


@pytest.mark.parametrize("rules_id,players", [("peel", 4), ("hoyle", 5),
                                              ("trade-and-barter", 3)])
def test_cards_in_play_hold_the_pack_once(rules_id, players):
    ruleset = find_ruleset(rules_id)
    assert FAMILY.cards_in_play is not None
    for state in _states(ruleset, players, range(3)):
        assert sorted(FAMILY.cards_in_play(state)) == list(pack(ruleset.pack))


@pytest.mark.parametrize("rules_id,players", [("peel", 4), ("hoyle", 5),
                                              ("trade-and-barter", 3)])
def test_permuting_hidden_cards_keeps_the_seats_observation(rules_id, players):
    permute = FAMILY.permute_hidden
    assert permute is not None
    rng = random.Random(7)
    changed = 0
    for state in _states(find_ruleset(rules_id), players, range(3)):
        for seat in range(players):
            other = permute(state, seat, rng)
            assert rules.observe(other, seat) == rules.observe(state, seat)
            assert sorted(FAMILY.cards_in_play(other)) == sorted(FAMILY.cards_in_play(state))
            changed += other != state
    assert changed > 100  # permuting does move hidden cards


def test_permuting_changes_what_the_seat_does_not_see():
    state = [s for s in _states(PEEL, 4, range(3)) if s.phase is rules.Phase.TURN][5]
    other = FAMILY.permute_hidden(state, 0, random.Random(1))
    assert other.hands[0] == state.hands[0]
    assert other.hands[1:] != state.hands[1:] or other.unseen != state.unseen
    # another seat's view does change: what seat 0 cannot know, seat 1 can
    assert rules.observe(other, 1) != rules.observe(state, 1)
