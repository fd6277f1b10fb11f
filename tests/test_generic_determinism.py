"""Determinism of every registered ruleset: one seed, one game, byte for byte."""

from __future__ import annotations

import pytest

from commerce.bots import make_bot
from commerce.driver import play_game
from commerce.rules import Ruleset
from tests.harness import all_rulesets, random_game

RULESETS = all_rulesets()
BOTS = ("heuristic", "random")


def _record_json(rules: Ruleset, seed: int) -> str:
    players = min(max(3, rules.min_players), rules.max_players)
    bots = [make_bot(BOTS[i % len(BOTS)]) for i in range(players)]
    return play_game(rules, bots, seed=seed).to_json()


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.id)
def test_same_seed_gives_a_byte_identical_record(rules: Ruleset) -> None:
    first = _record_json(rules, 3)
    assert _record_json(rules, 3) == first
    assert _record_json(rules, 4) != first, "the seed must matter"


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.id)
def test_same_seed_gives_the_same_random_game(rules: Ruleset) -> None:
    players = rules.min_players
    first_state, first = random_game(rules, players, 7)
    second_state, second = random_game(rules, players, 7)
    assert first == second and first_state == second_state
