"""The log's words from a seat's own view: "You" begins a sentence, and inside one the seat
reads "you" ("Bob pays you 2 stakes", "The last card goes to you"), in every ruleset, for
every seat, over seeded random games."""

from __future__ import annotations

import random
import re

import pytest

from commerce import engine
from commerce.family import family_spec
from commerce.rules import Ruleset
from tests.harness import all_rulesets

INSIDE = re.compile(r"(?<=[a-z,] )You\b")
"""'You' after a word or a comma: inside a sentence."""


@pytest.mark.parametrize("rules", all_rulesets(), ids=lambda r: r.id)
def test_a_seat_reads_you_inside_a_sentence(rules: Ruleset) -> None:
    players = min(max(3, rules.min_players), rules.max_players)
    names = [f"P{k}" for k in range(players)]
    describe = family_spec(rules.family).describe_event
    read = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = engine.new_game(rules, players, dealer=seed % players)
        while (d := engine.decision(state)) is not None:
            if d.seat is None:
                action = engine.sample_chance(state, rng)
            else:
                legal = engine.legal_actions(state)
                action = legal[rng.randrange(len(legal))]
            step = engine.apply(state, action)
            for viewer in range(players):
                for e in engine.visible_events(step.events, viewer):
                    line = describe(e, names, viewer)
                    if line is None:
                        continue
                    read += 1
                    assert not INSIDE.search(line), line
            state = step.state
    assert read > 0
