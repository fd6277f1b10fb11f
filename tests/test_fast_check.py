"""The shortcut in the trading family's checked apply: an action that *is* one of those
legal_actions or sample_chance just gave for the same state is accepted at once; nothing
else skips the full check."""

from __future__ import annotations

import random

import pytest

from commerce import engine
from commerce.cards import pack, sample_cards
from commerce.core import Action, ActionKind
from commerce.errors import IllegalActionError
from commerce.rules import find_ruleset


def _dealt(rid: str = "peel", seed: int = 1) -> object:
    s = engine.new_game(find_ruleset(rid), 4)
    return engine.apply(s, engine.sample_chance(s, random.Random(seed))).state


def test_an_action_given_for_one_state_is_checked_in_another() -> None:
    a, b = _dealt(seed=1), _dealt(seed=2)
    engine.legal_actions(b)
    trades_a = [x for x in engine.legal_actions(a) if x.kind is ActionKind.TRADE]
    held_b = set(b.hands[b.actor])  # type: ignore[attr-defined]
    foreign = next(x for x in trades_a if x.cards[0] not in held_b)
    with pytest.raises(IllegalActionError, match="cards you hold"):
        engine.apply(b, foreign)


def test_a_card_sampled_at_a_player_decision_is_refused() -> None:
    s = _dealt()
    deal = engine.sample_chance(s, random.Random(3))  # not a chance decision: still a deal
    with pytest.raises(IllegalActionError, match="no card is being dealt"):
        engine.apply(s, deal)


def test_a_fresh_deal_equal_to_nothing_given_is_checked_in_full() -> None:
    s = engine.new_game(find_ruleset("peel"), 4)
    engine.sample_chance(s, random.Random(4))
    with pytest.raises(IllegalActionError, match="different card"):
        engine.apply(s, Action(ActionKind.DEAL, (0, 0, 1)))


@pytest.mark.parametrize("rid", ["peel", "hoyle", "trade-and-barter"])
def test_every_given_action_is_legal_and_applies(rid: str) -> None:
    rng = random.Random(5)
    s = engine.new_game(find_ruleset(rid), 4)
    for _ in range(300):
        d = engine.decision(s)
        if d is None:
            break
        a = engine.sample_chance(s, rng) if d.seat is None else rng.choice(
            engine.legal_actions(s))
        engine.check(s, a)  # the full check agrees with the shortcut
        s = engine.apply(s, a).state


@pytest.mark.parametrize("k", [9, 12, 15, 20, 52])
def test_sample_cards_draws_like_random_sample(k: int) -> None:
    for seed in range(200):
        a, b = random.Random(seed), random.Random(seed)
        got = sample_cards(a, pack(52), k)
        assert got == b.sample(pack(52), k)
        assert len(set(got)) == k
        assert a.random() == b.random()  # the generator is left in the same state


def test_sample_cards_refuses_too_many() -> None:
    with pytest.raises(ValueError, match="cannot draw 33 of 32"):
        sample_cards(random.Random(1), pack(32), 33)
