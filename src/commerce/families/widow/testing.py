"""The widow family's hooks for the generic tests: where every card lies, and the state with
what one seat cannot know relabelled (see :class:`commerce.family.FamilySpec`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from commerce.core import Event, Seat
from commerce.families.widow.rules import Phase, WidowState

_CARD_KEYS = frozenset({"card", "cards", "gave", "took", "hands"})


def cards_in_play(s: WidowState) -> tuple[int, ...]:
    """Every card where it lies, place by place: each hand in seat order, the widow, the stock
    (in card order)."""
    return (*(c for h in s.hands for c in h), *s.widow, *s.unseen)


def _relabel(value: Any, pi: Mapping[int, int]) -> Any:
    if isinstance(value, int):
        return pi.get(value, value)
    return tuple(_relabel(v, pi) for v in value)


def _event(e: Event, pi: Mapping[int, int]) -> Event:
    data = tuple((k, _relabel(v, pi) if k in _CARD_KEYS else v) for k, v in e.data)
    return e._replace(data=data)


def permute_hidden(s: WidowState, seat: Seat, rng: random.Random) -> WidowState:
    """*s* with the cards *seat* cannot see (the other hands, the stock, and during the blind
    exchange the dealer's own cards not yet looked at) shuffled among their places, and the
    events *seat* may not see relabelled alike. When the hands are shown (a horse offer, the
    end) only the stock is shuffled."""
    shown = s.phase in (Phase.OVER, Phase.HORSE)
    places: list[tuple[int, int]] = []
    for x, hand in enumerate(s.hands):
        first = 0
        if x == seat:
            if not (s.phase is Phase.BLIND and x == s.dealer):
                continue
            first = s.swaps
        if not shown:
            places += [(x, i) for i in range(first, len(hand))]
    hidden = [s.hands[x][i] for x, i in places] + list(s.unseen)
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    pi = dict(zip(hidden, shuffled, strict=True))
    moved = set(places)
    hands = tuple(tuple(pi[c] if (x, i) in moved else c for i, c in enumerate(h))
                  for x, h in enumerate(s.hands))
    unseen = tuple(sorted(pi[c] for c in s.unseen))
    blind = s.phase is Phase.BLIND and seat == s.dealer
    log = tuple(_event(e, pi) if not e.visible(seat) or (blind and e.kind == "dealt"
                                                          and e.seat == seat) else e
                for e in s.log)
    return s._replace(hands=hands, unseen=unseen, log=log)
