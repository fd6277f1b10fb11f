"""The widow family's quick paths give what the general ones give: the whole initial deal at
once against card by card, the exchange checked inside ``apply`` against ``check``, and the
previous deal's public summary whether the showdown hands it on or the log is searched."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce import engine
from commerce.cards import parse_cards
from commerce.core import Action, ActionKind
from commerce.errors import IllegalActionError
from commerce.rules import find_ruleset
from helpers import Table, start

WIDOW_FAMILY = ("widow", "pounce", "no-pair-or-point", "pool", "peel-old")


@given(rid=st.sampled_from(WIDOW_FAMILY), players=st.integers(2, 6), seed=st.integers(0, 999),
       cut=st.integers(1, 20))
def test_the_whole_deal_at_once_equals_its_cards_one_at_a_time_or_in_two_parts(
        rid: str, players: int, seed: int, cut: int) -> None:
    rules = find_ruleset(rid)
    players = min(max(players, rules.min_players), rules.max_players)
    s = engine.new_game(rules, players, dealer=seed % players)
    deal = engine.sample_chance(s, random.Random(seed))
    whole = engine.apply(s, deal)
    for parts in ([(c,) for c in deal.cards], [deal.cards[:cut], deal.cards[cut:]]):
        state, events = s, []
        for part in parts:
            if part:
                step = engine.apply(state, Action(ActionKind.DEAL, part))
                state, events = step.state, events + list(step.events)
        assert state == whole.state
        assert tuple(events) == whole.events


def _at_exchange(rid: str, seed: int):
    """A state where a player may exchange, and a legal exchange."""
    rng = random.Random(seed)
    s = engine.new_game(find_ruleset(rid), 4)
    while True:
        d = engine.decision(s)
        legal = engine.legal_actions(s)
        swaps = [a for a in legal if a.kind is ActionKind.EXCHANGE and len(a.cards) == 2]
        if d.seat is not None and swaps:
            return s, swaps[0]
        a = engine.sample_chance(s, rng) if d.seat is None else rng.choice(legal)
        s = engine.apply(s, a).state


@pytest.mark.parametrize("seed", range(6))
def test_an_exchange_is_refused_with_its_reason_by_apply_as_by_check(seed: int) -> None:
    s, ok = _at_exchange("pounce", seed)
    give, take = ok.cards
    held, widow = s.hands[s.turn.actor], s.widow
    outside = next(c for c in range(52) if c not in held and c not in widow)
    bad = {
        "cards you hold": (outside, take),
        "widow cards": (give, outside),
        "gives one card and takes one": (give,),
    }
    for reason, cards in bad.items():
        action = Action(ActionKind.EXCHANGE, cards)
        with pytest.raises(IllegalActionError, match=reason):
            engine.check(s, action)
        with pytest.raises(IllegalActionError, match=reason):
            engine.apply(s, action)
    after = engine.apply(s, ok).state  # the legal one goes through, as a new object too
    assert engine.apply(s, Action(ActionKind.EXCHANGE, tuple(ok.cards))).state == after
    moved_back = Action(ActionKind.EXCHANGE, (take, give))
    if engine.decision(after).kind.value == "more_exchange":
        with pytest.raises(IllegalActionError, match="moved back"):
            engine.apply(after, moved_back)


def test_a_frozen_four_may_not_exchange_through_apply() -> None:
    t = Table(start(find_ruleset("pounce"), 3, {1: "9S 9H 9D", 2: "2S 3H 5D", 0: "KS QH 4C"},
                    "9C QD 8S"))
    t.act("pass")  # the dealer's blind exchange
    assert engine.decision(t.state).kind.value == "pounce_offer"
    t.act("pounce 9C")  # the fourth nine is in the first widow: seat 1 pounces
    s = t.state
    while engine.decision(s).seat != 1:
        legal = engine.legal_actions(s)
        pick = legal[0] if engine.decision(s).seat is not None else engine.sample_chance(
            s, random.Random(0))
        s = engine.apply(s, pick).state
    assert engine.legal_actions(s) == (Action(ActionKind.PASS), Action(ActionKind.KNOCK))
    nine, widow_card = parse_cards("9S")[0], s.widow[0]
    with pytest.raises(IllegalActionError, match="pounced four"):
        engine.apply(s, Action(ActionKind.EXCHANGE, (nine, widow_card)))


def test_after_a_horse_the_next_deal_still_shows_the_last_showdown_and_the_horse() -> None:
    pool = find_ruleset("pool")
    t = Table(start(pool, 3, {1: "AS AH AD", 2: "2S 3H 5D", 0: "9S 9H 4C"}, "KC QD 8S",
                    starting_tokens=1))
    t.act("pass", "pass", "pass", "buy_horse")
    kinds = [e.kind for e in t.state.session.last_deal]
    assert kinds == ["showdown", "counter_to_pool", "went_out", "horse_bought", "deal_ended"]
    plain = Table(start(pool, 3, {1: "AS AH AD", 2: "2S 3H 5D", 0: "9S 9H 4C"}, "KC QD 8S"))
    plain.act("pass", "pass", "pass")
    assert [e.kind for e in plain.state.session.last_deal] == ["showdown", "counter_to_pool",
                                                       "deal_ended"]
