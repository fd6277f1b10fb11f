"""The search playouts' view of a state is what the heuristic reads from ``observe``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from commerce import engine
from commerce.families.widow import search
from commerce.families.widow.heuristic import _swaps_this_turn, widow_action
from commerce.families.widow.observe import observe
from commerce.families.widow.state import Phase
from commerce.rules import find_ruleset

PRESETS = ["peel-old", "pool", "widow", "pounce", "no-pair-or-point"]
FIELDS = ("ruleset", "seat", "hand", "widow", "decision", "in_deal", "final_turns")


@pytest.mark.parametrize("preset", PRESETS)
def test_the_playout_view_reads_as_the_observation(preset: str) -> None:
    rules = find_ruleset(preset).with_options(deals=2)
    checked = blind = 0
    for seed in range(12):
        rng = random.Random(seed)
        s: Any = engine.new_game(rules, 3 + seed % 4, dealer=seed % 3)
        while (d := engine.decision(s)) is not None:
            if d.seat is None:
                s = engine.apply(s, engine.sample_chance(s, rng)).state
                continue
            legal = engine.legal_actions(s)
            view = search.view(s)
            obs = observe(s, d.seat)
            for name in FIELDS:
                assert getattr(view, name) == getattr(obs, name), name
            assert _swaps_this_turn(view, d.seat) == _swaps_this_turn(obs, d.seat)
            k = rng.randrange(1 << 30)
            assert (widow_action(view, legal, random.Random(k), 0.5)
                    == widow_action(obs, legal, random.Random(k), 0.5))
            checked += 1
            blind += s.phase is Phase.BLIND
            s = engine.apply(s, legal[rng.randrange(len(legal))]).state
    assert checked > 50
    if rules.dealer_blind_exchange != "none":
        assert blind  # the dealer's blind exchange, where the view had drifted
