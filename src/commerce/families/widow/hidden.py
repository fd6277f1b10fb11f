"""The generic tests' hooks of the widow family: where the cards lie, and what a seat cannot know.

:func:`cards_in_play` lists every card of the pack where it lies, for conservation tests;
:func:`permute_hidden` relabels at random the cards a seat has not seen (other hands, the
stock, and the dealer's own hand during his blind exchange), leaving that seat's observation
unchanged.
"""

from __future__ import annotations

import random

from commerce.cards import Card
from commerce.core import Event, Seat
from commerce.families.widow.observe import observe
from commerce.families.widow.state import Phase, WidowState, with_deal


def cards_in_play(s: WidowState) -> tuple[Card, ...]:
    """Every card of the pack where it lies: each seat's hand in seat order, the widow, then
    the stock (before the deal, the whole pack is the stock)."""
    deal = s.deal
    return (*[c for hand in deal.hands for c in hand], *deal.widow, *deal.stock)


def _cards_of(event: Event) -> list[Card]:
    """The cards an event names."""
    out: list[Card] = []
    for key, value in event.data:
        if key in ("card", "gave", "took") and isinstance(value, int):
            out.append(value)
        elif key in ("gave", "took"):
            out.extend(value)
        elif key == "hands":
            out.extend(c for hand in value for c in hand)
    return out


def _seen(s: WidowState, seat: Seat) -> set[Card]:
    """The cards of the current deal *seat* has seen or can tell: the widow, its own cards,
    every card named by an event it saw, and a pounced four (four cards of one rank)."""
    obs = observe(s, seat)
    seen = set(s.deal.widow) | set(obs.hand)
    for x in obs.pounced:
        seen.update(s.deal.hands[x])
    for e in obs.events:
        seen.update(_cards_of(e))
    return seen


def permute_hidden(s: WidowState, seat: Seat, rng: random.Random) -> WidowState:
    """*s* with the cards *seat* has not seen relabelled by a random permutation: in the other
    hands, in the stock (kept in card order) and in the events only others see. *seat*'s
    observation is unchanged; the state stays one the rules can play on."""
    if s.turn.phase is Phase.OVER:
        return s
    seen = _seen(s, seat)
    hidden = sorted(c for c in (*[c for hand in s.deal.hands for c in hand], *s.deal.stock)
                    if c not in seen)
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    to: dict[Card, Card] = dict(zip(hidden, shuffled, strict=True))

    def card(c: Card) -> Card:
        return to.get(c, c)

    def relabel(e: Event) -> Event:
        if e.visible(seat):
            return e
        data: list[tuple[str, object]] = []
        for key, value in e.data:
            if key in ("card", "gave", "took") and isinstance(value, int):
                value = card(value)
            elif key in ("gave", "took"):
                value = tuple(card(c) for c in value)
            data.append((key, value))
        return Event(e.kind, e.seat, tuple(data), e.visible_to)

    return with_deal(
        s,
        hands=tuple(tuple(card(c) for c in hand) for hand in s.deal.hands),
        stock=tuple(sorted(card(c) for c in s.deal.stock)),
        log=tuple(relabel(e) for e in s.deal.log),
    )
