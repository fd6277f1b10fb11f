"""The widow family's hooks for the generic tests: ``cards_in_play`` and ``permute_hidden``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from commerce import engine
from commerce.cards import pack
from commerce.family import family_spec
from commerce.rules import find_ruleset

PRESETS = ["peel-old", "pool", "widow", "pounce", "no-pair-or-point"]
SPEC = family_spec("widow")


def _states(preset: str, seeds: range) -> list[Any]:
    """Every state of a few short random games."""
    rules = find_ruleset(preset).with_options(deals=2)
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        s: Any = engine.new_game(rules, 3 + seed % 4, dealer=seed % 3)
        while (d := engine.decision(s)) is not None:
            out.append(s)
            if d.seat is None:
                action = engine.sample_chance(s, rng)
            else:
                legal = engine.legal_actions(s)
                action = legal[rng.randrange(len(legal))]
            s = engine.apply(s, action).state
        out.append(s)
    return out


@pytest.mark.parametrize("preset", PRESETS)
def test_every_card_of_the_pack_lies_somewhere_once(preset: str) -> None:
    assert SPEC.cards_in_play is not None
    for s in _states(preset, range(4)):
        assert sorted(SPEC.cards_in_play(s)) == list(pack(s.ruleset.pack))


@pytest.mark.parametrize("preset", PRESETS)
def test_permuting_what_a_seat_cannot_know_leaves_its_view_alone(preset: str) -> None:
    permute, cards = SPEC.permute_hidden, SPEC.cards_in_play
    assert permute is not None and cards is not None
    rng = random.Random(7)
    changed = 0
    states = _states(preset, range(4))
    for s in states[::3]:
        for seat in range(s.players):
            p = permute(s, seat, rng)
            assert engine.observe(p, seat) == engine.observe(s, seat)
            assert sorted(cards(p)) == sorted(cards(s))
            changed += p != s
    assert changed > len(states) // 6  # the hidden cards really move
