"""The steps of a hand, in the order of play (Peel, "A hand" steps 1-6): the first card, the
stakes, the dealer's double, the second card, then each player's drawing and the dealer's."""

from __future__ import annotations

from dataclasses import replace

from commerce.cards import Card
from commerce.core import Event, Transition
from commerce.families.vingtun.deal import refill, take
from commerce.families.vingtun.options import VingtUnOptions
from commerce.families.vingtun.settle import (
    advance,
    dealer_content,
    dealer_over,
    declarations,
    over_drawn,
    resolve_naturals,
    with_hand,
)
from commerce.families.vingtun.state import Hand, Phase, Status, Turn, VingtUnState, total


def round_card(s: VingtUnState, card: Card) -> Transition:
    """One card of the first or second round, face down to the next player, the dealer last;
    after the first round the players stake, after the second the naturals are declared."""
    seat = s.current.actor
    rnd, renewed = take(s, card)
    h = s.round.hands[seat][0]
    events: tuple[Event, ...] = (Event("dealt", seat, (("card", card),), frozenset({seat})),
                                 *renewed)
    s = replace(s, round=replace(rnd, to_deal=rnd.to_deal - 1, log=rnd.log + events))
    s = with_hand(s, seat, 0, replace(h, cards=(*h.cards, card), up=(*h.up, False)))
    if s.round.to_deal:
        return Transition(replace(s, current=Turn(s.phase, (seat + s.step) % s.players, 0)),
                          events)
    first = (s.dealer + s.step) % s.players
    if s.phase is Phase.FIRST:
        return Transition(replace(s, current=Turn(Phase.STAKE, first, 0)), events)
    return resolve_naturals(s, events)


def stake(s: VingtUnState, amount: int) -> Transition:
    """A player stakes on his first card, between the agreed minimum and maximum (Peel,
    "Stakes"); after the last, the dealer may double, or the second card is dealt."""
    seat = s.current.actor
    s = with_hand(s, seat, 0, replace(s.round.hands[seat][0], stake=amount))
    event = Event("staked", seat, (("amount", amount),))
    s = replace(s, round=replace(s.round, log=s.round.log + (event,)))
    nxt = (seat + s.step) % s.players
    if nxt != s.dealer:
        return Transition(replace(s, current=Turn(Phase.STAKE, nxt, 0)), (event,))
    if VingtUnOptions.of(s.ruleset).dealer_may_double:
        return Transition(replace(s, current=Turn(Phase.DOUBLE, s.dealer, 0)), (event,))
    return _second_round(s, (event,))


def double(s: VingtUnState, doubled: bool) -> Transition:
    """The dealer, having looked at his first card, says "double" (every stake doubled) or
    lets it be; then the second card (Peel, "A hand" step 2)."""
    event = Event("doubled" if doubled else "no_double", s.dealer)
    s = replace(s, round=replace(s.round, doubled=doubled, log=s.round.log + (event,)))
    return _second_round(s, (event,))


def _second_round(s: VingtUnState, events: tuple[Event, ...]) -> Transition:
    rnd = replace(s.round, to_deal=s.players)
    return Transition(replace(s, round=rnd,
                              current=Turn(Phase.SECOND, (s.dealer + s.step) % s.players, 0)),
                      events)


def content(s: VingtUnState) -> Transition:
    """"Content": the hand stands (a player's, to be settled by the dealer; the dealer's,
    settling every standing hand)."""
    seat, part = s.current.actor, s.current.part
    if seat == s.dealer:
        return dealer_content(s, ())
    event = Event("content", seat, (("part", part),))
    h = s.round.hands[seat][part]
    s = with_hand(s, seat, part, replace(h, status=Status.CONTENT))
    s = replace(s, round=replace(s.round, log=s.round.log + (event,)))
    return advance(s, (event,))


def ask_card(s: VingtUnState) -> Transition:
    """"A card": chance gives the actor's hand the top card of the stock."""
    event = Event("asked", s.current.actor, (("part", s.current.part),))
    s = replace(s, round=replace(s.round, log=s.round.log + (event,)),
                current=replace(s.current, phase=Phase.DRAW))
    s, renewed = refill(s)
    return Transition(s, (event, *renewed))


def keep(s: VingtUnState, pair: bool) -> Transition:
    """Before the drawing, a player keeps his two cards as one hand (no pair, or he does not
    divide a *pair*); the next player is asked. Only he hears of it: a player without a pair
    answers the same."""
    seat = s.current.actor
    event = Event("kept", seat, (("pair", pair),), frozenset({seat}))
    s = replace(s, round=replace(s.round, log=s.round.log + (event,)))
    return declarations(s, (event,), after=seat)


def divide(s: VingtUnState) -> Transition:
    """Two first cards that pair, shown and played as two hands with the same stake each;
    each half gets a second card face down before the drawing goes on (Peel: "two cards given
    to each player, and also to cases of divided pairs"): before anyone draws, or before the
    player plays his first half (``divide_when``)."""
    seat = s.current.actor
    h = s.round.hands[seat][0]
    halves = tuple(Hand(cards=(c,), up=(True,), stake=h.stake, divided=True) for c in h.cards)
    hands = list(s.round.hands)
    hands[seat] = halves
    event = Event("divided", seat, (("cards", h.cards),))
    rnd = replace(s.round, hands=tuple(hands), log=s.round.log + (event,))
    s, renewed = refill(replace(s, round=rnd, current=Turn(Phase.DRAW, seat, 0)))
    return Transition(s, (event, *renewed))


def draw_card(s: VingtUnState, card: Card) -> Transition:
    """Chance's card to the actor's hand: face up when drawn, face down as a divided half's
    second card; over 21 the hand is over-drawn (Peel, "Drawing")."""
    seat, part = s.current.actor, s.current.part
    rnd, renewed = take(s, card)
    h = s.round.hands[seat][part]
    up = len(h.cards) != 1
    if up:
        event = Event("drew", seat, (("card", card), ("part", part)))
    else:
        event = Event("dealt", seat, (("card", card), ("part", part)), frozenset({seat}))
    events = (event, *renewed)
    s = replace(s, round=replace(rnd, log=rnd.log + events))
    h = replace(h, cards=(*h.cards, card), up=(*h.up, up))
    s = with_hand(s, seat, part, h)
    if seat == s.dealer:
        if total(h.cards) > 21:
            return dealer_over(s, events)
        return Transition(replace(s, current=Turn(Phase.DEALER, seat, 0)), events)
    if not up:
        halves = s.round.hands[seat]
        waiting = next((i for i, x in enumerate(halves) if len(x.cards) == 1), None)
        if waiting is not None:
            return Transition(replace(s, current=Turn(Phase.DRAW, seat, waiting)), events)
        if VingtUnOptions.of(s.ruleset).divide_when == "before_drawing":
            return declarations(s, events, after=seat)
        return Transition(replace(s, current=Turn(Phase.PLAY, seat, 0)), events)
    if total(h.cards) > 21:
        return over_drawn(s, seat, part, events)
    return Transition(replace(s, current=Turn(Phase.PLAY, seat, part)), events)
