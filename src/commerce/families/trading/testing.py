"""The trading family's hooks for the generic tests: where every card lies, and the state with
what one seat cannot know relabelled (see :class:`commerce.family.FamilySpec`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from commerce.core import Event, Seat
from commerce.families.trading.rules import Phase, TradingState

_CARD_KEYS = frozenset({"card", "cards"})


def cards_in_play(s: TradingState) -> tuple[int, ...]:
    """Every card where it lies, place by place: each hand in seat order, the stock (in card
    order), the traded-away cards under the stock."""
    return (*(c for h in s.hands for c in h), *s.unseen, *s.bottom)


def _relabel(value: Any, pi: Mapping[int, int]) -> Any:
    if isinstance(value, int):
        return pi.get(value, value)
    return tuple(pi.get(c, c) for c in value)


def _event(e: Event, pi: Mapping[int, int]) -> Event:
    data = tuple((k, _relabel(v, pi) if k in _CARD_KEYS else v) for k, v in e.data)
    return e._replace(data=data)


def permute_hidden(s: TradingState, seat: Seat, rng: random.Random) -> TradingState:
    """*s* with the other hands and the stock shuffled among themselves (sizes kept), and the
    events *seat* may not see relabelled alike; a barter's offered card stays where it is.
    Once the session is over every hand is shown: only the stock is shuffled."""
    over = s.phase is Phase.OVER
    others = [] if over else [x for x in range(s.players) if x != seat]
    places = [(x, i) for x in others for i in range(len(s.hands[x]))
              if s.hands[x][i] != s.offered]
    hidden = [s.hands[x][i] for x, i in places] + list(s.unseen)
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    pi = dict(zip(hidden, shuffled, strict=True))
    hands = tuple(tuple(pi.get(c, c) if x in others else c for c in h)
                  for x, h in enumerate(s.hands))
    unseen = tuple(sorted(pi[c] for c in s.unseen))
    log = tuple(e if e.visible(seat) else _event(e, pi) for e in s.log)
    return s._replace(hands=hands, unseen=unseen, log=log)
