"""Determinisation of widow-family observations (``commerce.families.widow.sample``)."""

from __future__ import annotations

import random

import pytest

from commerce import engine
from commerce.bots import make_bot
from commerce.cards import pack, parse_cards
from commerce.determinize import sample_state, state_sampler
from commerce.driver import Driver
from commerce.errors import CommerceError
from commerce.rules import find_ruleset
from helpers import Table, start
from tests.invariants import random_game

PRESETS = ["peel-old", "pool", "widow", "pounce", "no-pair-or-point"]


def _rebuildable(obs) -> bool:
    d = obs.decision
    return obs.over or (d is not None and d.seat is not None)


def _check_sampler(state, rng: random.Random) -> int:
    checked = 0
    for seat in range(state.players):
        obs = engine.observe(state, seat)
        if not _rebuildable(obs):
            with pytest.raises(CommerceError):
                sample_state(obs, rng)
            continue
        sampled = sample_state(obs, rng)
        checked += 1
        assert engine.observe(sampled, seat) == obs
        # the pack's cards, each once, in places of the real state's sizes
        cards = [c for h in sampled.hands for c in h] + [*sampled.widow, *sampled.unseen]
        assert sorted(cards) == list(pack(state.ruleset.pack))
        assert [len(h) for h in sampled.hands] == [len(h) for h in state.hands]
        assert len(sampled.unseen) == len(state.unseen)
        assert list(sampled.unseen) == sorted(sampled.unseen)
        # whatever the seat saw go into a hand by a public move is where it went
        for x in range(state.players):
            if x in state.deal.order and x not in engine.observe(state, seat).out:
                for e in obs.events:
                    if e.kind == "pounced" and e.seat == x:
                        assert sorted(sampled.hands[x]) == sorted(state.hands[x])
        d = engine.decision(state)
        if d is not None and d.seat == seat:
            assert engine.legal_actions(sampled) == engine.legal_actions(state)
            assert sampled.turn.final == state.turn.final and sampled.turn.swaps == state.turn.swaps
            assert set(sampled.turn.moved) == set(state.turn.moved) or sampled.phase.name == "TURN"
    return checked


@pytest.mark.parametrize("rules", PRESETS)
def test_sampled_states_are_legal_and_consistent_random_play(rules):
    rng = random.Random(0)
    total = 0
    for seed in range(2):
        checked = [0]

        def each(s, checked=checked):
            checked[0] += _check_sampler(s, rng)

        random_game(find_ruleset(rules), 3 + seed, seed, each)
        total += checked[0]
    assert total > 0


@pytest.mark.parametrize("rules", ["widow", "pounce", "pool"])
def test_sampled_states_are_consistent_in_heuristic_games(rules):
    rng = random.Random(1)
    driver = Driver(find_ruleset(rules), [make_bot("heuristic"), make_bot("random")] * 2,
                    seed=2)
    steps = 0
    while driver.step() and steps < 400:
        _check_sampler(driver.state, rng)
        steps += 1


def test_sampler_knows_where_the_widow_cards_went():
    t = Table(start("widow", 3, {1: "9S 9H 2D", 2: "5S 6H JD", 0: "3C 4C 7H"}, "9C KC QD"))
    t.act("pass", "exchange 2D for KC", "done")  # seat 1 takes KC; 2D is in the widow
    t.act("exchange JD for 2D", "done")  # seat 2 takes the card seat 1 gave
    obs = engine.observe(t.state, 1)
    draw = state_sampler(obs)
    kc, two_d = parse_cards("KC 2D")
    for i in range(20):
        s = draw(random.Random(i))
        assert two_d in s.hands[2] and kc in s.hands[1]
        assert engine.observe(s, 1) == obs


def test_sampler_knows_what_the_dealer_took_blind():
    t = Table(start("widow", 3, {1: "9S 9H 2D", 2: "5S 6H JD", 0: "3C 4C 7H"}, "9C KC QD"))
    t.act("exchange KC")
    for seat in (0, 1):
        obs = engine.observe(t.state, seat)
        for i in range(10):
            s = sample_state(obs, random.Random(i))
            assert s.hands[0][0] == parse_cards("KC")[0] and len(s.hands[0]) == 3
            assert engine.observe(s, seat) == obs
    assert engine.observe(t.state, 0).hand == parse_cards("KC")


def test_sampler_refuses_a_spectator_and_chance():
    state = engine.new_game(find_ruleset("widow"), 3)
    with pytest.raises(CommerceError):
        sample_state(engine.observe(state, None), random.Random(0))
    with pytest.raises(CommerceError):
        sample_state(engine.observe(state, 0), random.Random(0))


def test_search_bot_plays_widow_games_legally_and_deterministically():
    from commerce.driver import play_game

    rules = find_ruleset("peel-old")
    bots = [make_bot("search:iterations=12"), make_bot("heuristic"), make_bot("random")]
    a = play_game(rules, bots, seed=5)
    b = play_game(rules, bots, seed=5)
    assert a.complete and a.actions == b.actions and sum(a.payoffs) == 0


def test_search_defaults_to_the_family_budget_and_reads_the_standers():
    from commerce.bots.search import default_iterations
    from commerce.families.widow.search import DEFAULT_ITERATIONS, plausible

    assert default_iterations("widow") == DEFAULT_ITERATIONS
    # seat 2 stood with 5S 6H JD while the widow held 5C: a heuristic would have paired
    t = Table(start("peel-old", 3, {1: "9S 9H 2D", 2: "5S 6H JD", 0: "3C 4C 7H"}, "9C KC 5C"))
    t.act("exchange 2D for 9C", "stand")
    assert not plausible(t.state, 1)
    t2 = Table(start("peel-old", 3, {1: "9S 9H 2D", 2: "AS AH AD", 0: "3C 4C 7H"}, "9C KC 5C"))
    t2.act("exchange 2D for 9C", "stand")
    assert plausible(t2.state, 1)
