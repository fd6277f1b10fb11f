"""Log lines and table view of the widow games in the terminal."""

from __future__ import annotations

import random

import pytest

from commerce import engine
from commerce.cards import format_card
from commerce.families.widow.text import describe_event, render
from commerce.rules import find_ruleset

NAMES = ["Ann", "Bo", "Cy", "Di"]


@pytest.mark.parametrize("rid", ["peel-old", "pool", "widow", "pounce", "no-pair-or-point"])
def test_every_event_gets_words_and_no_hidden_card(rid):
    rules = find_ruleset(rid)
    rng = random.Random(2)
    state = engine.new_game(rules, 4)
    kinds = set()
    while engine.decision(state) is not None:
        d = engine.decision(state)
        action = (engine.sample_chance(state, rng) if d.seat is None
                  else rng.choice(engine.legal_actions(state)))
        t = engine.apply(state, action)
        for e in t.events:
            kinds.add(e.kind)
            line = describe_event(e, NAMES, 0) if e.visible(0) else None
            if line is None:
                continue
            assert not line.startswith(e.kind), f"no words for {e.kind}"
            if e.kind not in ("showdown",):
                # only cards the event itself carries may be named
                carried = {format_card(c) for v in (e.get("card"), e.get("gave"), e.get("took"))
                           if v is not None for c in (v if isinstance(v, tuple) else (v,))}
                named = {w.strip(".,!:") for w in line.split() if len(w.strip(".,!:")) == 2
                         and w[0] in "23456789TJQKA" and w[1] in "SHDC"}
                assert named <= carried, line
        if d.seat is not None and engine.decision(t.state) is not None:
            text = render(engine.observe(t.state, 0), NAMES)
            assert "Ann" not in text and "You" in text
        state = t.state
    assert {"showdown", "deal_started"} <= kinds
