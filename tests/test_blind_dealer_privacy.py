"""The dealer who may exchange blind does not see his cards dealt: not in his observation,
not in the events he is handed (``engine.visible_events``), not in the research game tree's
information states. He sees them when he looks (the ``looked`` event, his alone)."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from commerce import engine
from commerce.core import Action, ActionKind
from commerce.rl.tree import build_tree
from commerce.rules import find_ruleset

BLIND = ["widow", "pounce", "no-pair-or-point"]


def _cards(events) -> set[int]:
    out: set[int] = set()
    for e in events:
        for key, value in e.data:
            if key in ("card", "cards", "gave", "took"):
                out.update(value if isinstance(value, tuple) else (value,))
    return out


@pytest.mark.parametrize("rules_id", BLIND)
@pytest.mark.parametrize("seed", range(6))
def test_the_blind_dealer_is_handed_none_of_his_cards_until_he_looks(rules_id, seed):
    rules = find_ruleset(rules_id)
    assert rules.dealer_blind_exchange != "none"
    state = engine.new_game(rules, 4, dealer=seed % 4)
    dealer = seed % 4
    t = engine.apply(state, engine.sample_chance(state, random.Random(seed)))
    assert engine.decision(t.state).kind.value == "blind_exchange"
    own = set(t.state.deal.hands[dealer])
    seen = engine.visible_events(t.events, dealer)
    assert not _cards(seen) & own, seen
    assert not _cards(engine.observe(t.state, dealer).events) & own
    # he stops at once: now he looks, and only he is told what he holds
    stop = next(a for a in engine.legal_actions(t.state) if a.kind is not ActionKind.EXCHANGE)
    looked = engine.apply(t.state, stop)
    mine = [e for e in engine.visible_events(looked.events, dealer) if e.kind == "looked"]
    assert [set(e.get("cards")) for e in mine] == [own]
    for other in range(4):
        if other != dealer:
            assert not any(e.kind == "looked"
                           for e in engine.visible_events(looked.events, other))
    assert own <= set(engine.observe(looked.state, dealer).hand)


def test_the_game_tree_does_not_split_the_blind_dealer_by_his_unseen_cards():
    rules = find_ruleset("widow-mini").with_options(dealer_blind_exchange="1_to_3")
    tree = build_tree(rules, 2, deals=60, seed=3)
    start = engine.new_game(rules, 2, dealer=0)
    by_view: dict[str, set[int]] = defaultdict(set)
    for slot, cards in enumerate(tree.dealt):
        node = next(n for n in range(1, tree.nodes)
                    if tree.parent[n] == 0 and tree.slot[n] == slot)
        state = engine.apply(start, Action(ActionKind.DEAL, cards)).state
        assert int(tree.kind[node]) == 0 and engine.decision(state).seat == 0
        by_view[repr(engine.observe(state, 0))].add(int(tree.infoset[node]))
    assert len(by_view) < len(tree.dealt), "no two deals share a widow: draw more"
    split = {view: s for view, s in by_view.items() if len(s) > 1}
    assert not split, f"{len(split)} of {len(by_view)} blind views split by unseen cards"
