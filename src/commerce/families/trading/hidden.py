"""What a seat cannot know, for the generic tests: where every card lies, and the state with
every card a seat has not seen relabelled at random (its observation must not change)."""

from __future__ import annotations

import random
from dataclasses import replace

from commerce.cards import Card
from commerce.core import Event, Seat
from commerce.families.trading.state import TradingState


def cards_in_play(s: TradingState) -> tuple[Card, ...]:
    """Every card of the pack where it lies: the hands in seat order, the unseen stock, the
    traded-in cards under it (the card offered in a barter is still in its owner's hand)."""
    return (*(c for hand in s.hands for c in hand), *s.unseen, *s.bottom)


def _named(e: Event) -> set[Card]:
    """The cards an event names."""
    out: set[Card] = set()
    for key, value in e.data:
        if key == "card":
            out.add(value)
        elif key == "cards":
            out.update(value)
        elif key == "hands":
            out.update(c for hand in value for c in hand)
    return out


def _relabel(e: Event, new: dict[Card, Card]) -> Event:
    """*e* with its cards renamed by *new*."""
    data = tuple((key, new.get(value, value)) if key == "card"
                 else (key, tuple(new.get(c, c) for c in value)) if key == "cards"
                 else (key, value) for key, value in e.data)
    return e._replace(data=data)


def permute_hidden(s: TradingState, seat: Seat, rng: random.Random) -> TradingState:
    """*s* with the cards *seat* has not seen relabelled by one random permutation: in the other
    hands, the stock and the events *seat* may not see. The cards of its own hand and of every
    event it sees stay put, so its observation is the same."""
    known = set(s.hands[seat])
    for e in s.log:
        if e.visible(seat):
            known |= _named(e)
    if s.offered is not None and seat in (s.turn, s.actor):
        known.add(s.offered)
    movable = sorted(c for c in cards_in_play(s) if c not in known)
    shuffled = movable[:]
    rng.shuffle(shuffled)
    new = dict(zip(movable, shuffled, strict=True))

    def name(c: Card) -> Card:
        return new.get(c, c)

    deal = replace(
        s.deal,
        hands=tuple(tuple(map(name, hand)) for hand in s.hands),
        unseen=tuple(sorted(map(name, s.unseen))),
        bottom=tuple(map(name, s.bottom)),
        log=tuple(e if e.visible(seat) else _relabel(e, new) for e in s.log),
    )
    offered = None if s.offered is None else name(s.offered)
    return replace(s, deal=deal, current=replace(s.current, offered=offered))
