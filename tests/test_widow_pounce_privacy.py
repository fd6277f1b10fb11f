"""A pending pounce offer is the offered seat's secret (preset ``pounce``, decision #27).

While one seat is offered a pounce, every other seat's observation is the observation of the
same state with the offer withdrawn: play where it would stand had nobody held the tricon.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from commerce import engine
from commerce.core import Action, ActionKind
from commerce.families.widow.observe import observe
from commerce.families.widow.state import Phase, Resume, WidowState, with_turn
from commerce.rules import Ruleset, find_ruleset

POUNCE = find_ruleset("pounce")
VARIANTS = {
    "pounce": POUNCE,
    "all-or-nothing": POUNCE.with_options(dealer_blind_exchange="all_or_nothing"),
    "no-blind, after-pass off": POUNCE.with_options(dealer_blind_exchange="none",
                                                    pounce_after_pass=False),
    "two per turn, no initial": POUNCE.with_options(max_exchange_per_turn=2,
                                                    pounce_on_initial_widow=False),
}


def _rigged_deal(state: WidowState, rng: random.Random) -> Action:
    """A whole initial deal in which a random seat holds a tricon (so offers happen)."""
    order = state.deal.order
    m = len(order)
    cut = 3 * m
    rank = rng.randrange(13)
    suits = rng.sample(range(4), 4)
    tricon = [4 * rank + suit for suit in suits[:3]]
    rest = [c for c in state.deal.stock if c not in tricon]
    rng.shuffle(rest)
    holder = rng.randrange(m)
    cards: list[int] = []
    for k in range(cut + state.ruleset.widow_size):
        if k < cut and k % m == holder:
            cards.append(tricon[k // m])
        else:
            cards.append(rest.pop())
    return Action(ActionKind.DEAL, tuple(cards))


def _withdrawn(s: WidowState) -> WidowState:
    """The same state with the offer withdrawn, built from the rules' own transitions."""
    if s.turn.resume is Resume.MORE:
        # the exchanging player goes on with his turn, as if nobody could pounce
        return with_turn(s, phase=Phase.MORE, actor=s.turn.seat, offer=None)
    t: Any = s
    while t.turn.phase is Phase.POUNCE:  # every pending offer declined
        t = engine.apply(t, Action(ActionKind.DECLINE)).state
    if t.session.deal_number != s.session.deal_number or t.turn.phase in (Phase.OVER,
                                                                           Phase.HORSE):
        return with_turn(s, phase=Phase.CARD, offer=None)  # the deal ends: chance, not the showdown
    return with_turn(s, phase=t.turn.phase, actor=t.turn.actor, seat=t.turn.seat, offer=None)


def _offers(rules: Ruleset, seeds: range) -> list[WidowState]:
    """States with a pending pounce offer, from random play after rigged deals."""
    found = []
    for seed in seeds:
        rng = random.Random(seed)
        players = 3 + seed % 6
        s: Any = engine.new_game(rules.with_options(deals=2), players, dealer=seed % players)
        while engine.decision(s) is not None:
            d = engine.decision(s)
            assert d is not None
            if s.turn.phase is Phase.POUNCE:
                found.append(s)
            if d.seat is None:
                action = (_rigged_deal(s, rng) if s.turn.phase is Phase.DEAL
                          else engine.sample_chance(s, rng))
            else:
                legal = engine.legal_actions(s)
                action = legal[rng.randrange(len(legal))]
            s = engine.apply(s, action).state
    return found


@pytest.mark.parametrize("name", list(VARIANTS))
def test_other_seats_see_the_table_as_if_no_offer_were_pending(name: str) -> None:
    states = _offers(VARIANTS[name], range(40))
    resumes = Counter(s.turn.resume for s in states)
    assert len(states) >= 5, resumes
    for s in states:
        holder = s.turn.actor
        mine = observe(s, holder)
        assert mine.pounce_offer == s.turn.offer
        assert mine.decision is not None and mine.decision.seat == holder
        withdrawn = _withdrawn(s)
        for seat in range(s.players):
            if seat == holder:
                continue
            seen = observe(s, seat)
            assert seen == observe(withdrawn, seat)
            assert seen.pounce_offer is None
            assert seen.decision != mine.decision  # nobody else sees the offer
            # no event shows an offer, or a refusal, to another seat
            assert not any(e.kind == "pounce_declined" and e.seat != seat for e in seen.events)
        # the spectator's view too
        assert observe(s, None) == observe(withdrawn, None)


def test_the_turn_going_on_is_shown_exactly_as_without_a_tricon() -> None:
    # Resume.MORE: the withdrawn state is the state the exchange gives when nobody can pounce
    states = [s for s in _offers(POUNCE, range(40)) if s.turn.resume is Resume.MORE]
    assert states
    for s in states:
        for seat in range(s.players):
            if seat != s.turn.actor:
                d = observe(s, seat).decision
                assert d is not None and d.seat == s.turn.seat and d.kind.value == "more_exchange"


def test_the_sample_has_offers_of_every_kind() -> None:
    # offers interrupting a turn, ending one, and after a deal or a card from the stock
    resumes = Counter(s.turn.resume for name in VARIANTS
                      for s in _offers(VARIANTS[name], range(40)))
    assert set(resumes) == set(Resume), resumes
