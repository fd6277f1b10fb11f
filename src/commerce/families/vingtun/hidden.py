"""What a seat cannot know, for the generic tests: where every card lies, and the state with
every card a seat has not seen relabelled at random (its observation must not change)."""

from __future__ import annotations

import random
from dataclasses import replace

from commerce.cards import Card
from commerce.core import Event, Seat
from commerce.families.vingtun.state import VingtUnState


def cards_in_play(s: VingtUnState) -> tuple[Card, ...]:
    """Every card of the pack where it lies: the hands, the stock, the used cards."""
    return (*(c for seat in s.round.hands for h in seat for c in h.cards), *s.round.stock,
            *s.round.used)


def _relabel(e: Event, new: dict[Card, Card]) -> Event:
    data = tuple((key, new.get(v, v)) if key == "card"
                 else (key, tuple(new.get(c, c) for c in v)) if key == "cards"
                 else (key, v) for key, v in e.data)
    return e._replace(data=data)


def permute_hidden(s: VingtUnState, seat: Seat, rng: random.Random) -> VingtUnState:
    """*s* with the cards *seat* cannot place relabelled by one random permutation: the other
    seats' face-down cards and the stock, and the events *seat* may not see. Its own cards,
    every face-up card and the used cards stay put."""
    movable = sorted(
        [c for x, own in enumerate(s.round.hands) if x != seat for h in own
         for c, up in zip(h.cards, h.up, strict=True) if not up] + list(s.round.stock))
    shuffled = movable[:]
    rng.shuffle(shuffled)
    new = dict(zip(movable, shuffled, strict=True))
    hands = tuple(tuple(replace(h, cards=tuple(new.get(c, c) for c in h.cards)) for h in own)
                  if x != seat else own for x, own in enumerate(s.round.hands))
    rnd = replace(s.round, hands=hands, stock=tuple(sorted(new.get(c, c) for c in s.round.stock)),
                  log=tuple(e if e.visible(seat) else _relabel(e, new) for e in s.round.log))
    return replace(s, round=rnd)
