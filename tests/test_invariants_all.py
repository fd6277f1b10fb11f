"""Seeded invariant simulation over every registered ruleset.

For every preset: random games through the checked API, asserting at every step that cards
are conserved, stakes/tokens/counters are conserved, ``legal_actions`` is empty exactly when
the game is over, every listed action is accepted and random garbage outside the list is
refused with a reason; that the same seed replays identically; and that no seat's
observation depends on cards it may not see (other seats' hidden cards and the stock).
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import chain
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce import engine
from commerce.cards import pack
from commerce.core import Action, ActionKind
from commerce.errors import IllegalActionError, IllegalReason
from commerce.rules import Ruleset, rulesets

PRESETS = [r.id for r in rulesets()]
KINDS = list(ActionKind)


def _cards_in_play(s: Any) -> list[int] | None:
    family = s.ruleset.family
    if family == "trading":
        return sorted(chain(*s.hands, s.unseen, s.bottom))
    if family == "widow":
        return sorted(chain(*s.hands, s.widow, s.unseen))
    return None


def _check_conservation(s: Any, players: int) -> None:
    cards = _cards_in_play(s)
    if cards is not None:
        assert cards == sorted(pack(s.ruleset.pack)), "cards are not conserved"
    rules: Ruleset = s.ruleset
    if rules.family in ("trading", "widow"):
        assert sum(s.balances) + s.pool == 0, "stakes are not conserved"
    if rules.family == "widow":
        start = rules.starting_tokens * players
        if rules.token_flow == "lowest_to_best":
            assert sum(s.tokens) == start
            assert min(s.tokens) >= 0
            assert tuple(t - rules.starting_tokens for t in s.tokens) == s.balances
        elif rules.token_flow == "lowest_to_pool":
            assert sum(s.tokens) + s.pool_counters == start + s.horses
            assert min(s.tokens) >= 0


def _permuted(s: Any, seat: int, rng: random.Random) -> Any | None:
    """*s* with the cards *seat* may not see shuffled among their places, or None."""
    family = s.ruleset.family
    others = [x for x in range(s.players) if x != seat]
    hidden = [c for x in others for c in s.hands[x]] + list(s.unseen)
    rng.shuffle(hidden)
    hands = list(s.hands)
    k = 0
    for x in others:
        size = len(hands[x])
        hands[x] = tuple(hidden[k:k + size])
        k += size
    unseen = tuple(sorted(hidden[k:]))
    if family == "trading":
        return s._replace(hands=tuple(hands), unseen=unseen)
    if family == "widow":
        return replace(s, deal=replace(s.deal, hands=tuple(hands), stock=unseen))
    return None


def _others_visible(obs: Any, seat: int) -> bool:
    return any(h is not None for x, h in enumerate(obs.hands) if x != seat)


def _garbage(rng: random.Random) -> Action:
    kind = rng.choice(KINDS)
    cards = tuple(rng.randrange(-2, 55) for _ in range(rng.choice((0, 1, 1, 2, 2, 3, 4))))
    return Action(kind, cards)


def _play(ruleset: Ruleset, players: int, seed: int, *, probe: bool) -> tuple[list[Action], Any]:
    rng = random.Random(seed)
    probe_rng = random.Random(seed + 1000)
    s = engine.new_game(ruleset, players, dealer=seed % players)
    actions: list[Action] = []
    steps = 0
    while True:
        d = engine.decision(s)
        legal = engine.legal_actions(s)
        if d is None:
            assert legal == ()
            assert engine.outcome(s) is not None
            break
        assert legal, f"no legal action at {d}"
        assert engine.outcome(s) is None
        if probe:
            _check_conservation(s, players)
            for _ in range(3):
                bad = _garbage(probe_rng)
                if bad in legal or (bad.kind is ActionKind.DEAL and len(bad.cards) > 1):
                    continue
                with pytest.raises(IllegalActionError) as info:
                    engine.apply(s, bad)
                assert isinstance(info.value.reason, IllegalReason)
            if d.seat is not None:
                wrong = (d.seat + 1) % players
                with pytest.raises(IllegalActionError) as info:
                    engine.check(s, legal[0], seat=wrong)
                assert info.value.reason is IllegalReason.NOT_YOUR_TURN
            if steps % 5 == 0:
                for seat in range(players):
                    obs = engine.observe(s, seat)
                    assert all(e.visible(seat) for e in obs.events)
                    assert all(e.visible_to is None for e in obs.last_deal)
                    if ruleset.family == "widow":
                        assert obs.widow == s.widow, "the widow is public"
                    if _others_visible(obs, seat):
                        continue
                    twin = _permuted(s, seat, probe_rng)
                    if twin is not None:
                        assert engine.observe(twin, seat) == obs, f"seat {seat} sees hidden cards"
                spectator = engine.observe(s, None)
                if not _others_visible(spectator, -1):
                    twin = _permuted(s, -1, probe_rng)
                    if twin is not None:
                        assert engine.observe(twin, None) == spectator
        a = engine.sample_chance(s, rng) if d.seat is None else rng.choice(legal)
        if d.seat is not None:
            assert engine.is_legal(s, a)
        actions.append(a)
        s = engine.apply(s, a).state
        steps += 1
    result = engine.outcome(s)
    assert result is not None
    if ruleset.family != "cox":  # Cox scores points; nobody pays anybody
        assert sum(result.payoffs) == 0, "nets must sum to zero"
    _check_conservation(s, players)
    return actions, result


@pytest.mark.parametrize("rid", PRESETS)
@pytest.mark.parametrize("players", [3, 4, 6])
def test_random_games_keep_the_invariants(rid: str, players: int) -> None:
    ruleset = next(r for r in rulesets() if r.id == rid)
    if ruleset.family not in ("trading", "widow"):
        pytest.skip("invariant probes are written for the trading and widow families")
    for seed in range(2):
        actions, result = _play(ruleset, players, seed, probe=True)
        assert actions and len(result.payoffs) == players


@pytest.mark.parametrize("rid", PRESETS)
def test_many_games_end_with_nets_summing_to_zero(rid: str) -> None:
    ruleset = next(r for r in rulesets() if r.id == rid)
    if ruleset.family == "cox":
        pytest.skip("Cox's payoffs are points scored, not transfers (tests/test_cox_engine.py)")
    for seed in range(40):
        players = ruleset.min_players + seed % (min(ruleset.max_players, 7)
                                                 - ruleset.min_players + 1)
        _, result = _play(ruleset, players, 100 + seed, probe=False)
        assert sum(result.payoffs) == 0


@pytest.mark.parametrize("rid", PRESETS)
def test_same_seed_same_game(rid: str) -> None:
    ruleset = next(r for r in rulesets() if r.id == rid)
    first = _play(ruleset, 4, 7, probe=False)
    second = _play(ruleset, 4, 7, probe=False)
    assert first[0] == second[0]
    assert first[1] == second[1]


@pytest.mark.parametrize("rid", PRESETS)
def test_notation_round_trips_every_legal_action(rid: str) -> None:
    ruleset = next(r for r in rulesets() if r.id == rid)
    rng = random.Random(3)
    s = engine.new_game(ruleset, 4)
    for _ in range(300):
        d = engine.decision(s)
        if d is None:
            break
        for a in engine.legal_actions(s):
            assert engine.parse_action(s, engine.format_action(s, a)) == a
        a = engine.sample_chance(s, rng) if d.seat is None else rng.choice(engine.legal_actions(s))
        assert engine.parse_action(s, engine.format_action(s, a)) == a
        s = engine.apply(s, a).state


WIDOW_PRESETS = [r.id for r in rulesets() if r.family == "widow"]


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(WIDOW_PRESETS), st.integers(3, 5), st.data())
def test_widow_family_conserves_under_any_choices(rid: str, players: int, data: Any) -> None:
    """Hypothesis draws every choice, so a failure shrinks to a short action sequence."""
    ruleset = next(r for r in rulesets() if r.id == rid)
    s = engine.new_game(ruleset, players)
    for _ in range(150):
        legal = engine.legal_actions(s)
        if engine.decision(s) is None:
            assert legal == ()
            break
        s = engine.apply(s, data.draw(st.sampled_from(legal))).state
        _check_conservation(s, players)
