"""Cox's hooks for the generic tests: where every card lies, and the state with what one seat
cannot know relabelled (see :class:`commerce.family.FamilySpec`).

Besides the places a seat cannot see (the Supply Bases, the other racks), the copy numbers of
a face are a label nobody can see: the four copies of ``A1`` are alike, so
:func:`permute_hidden` also renumbers the copies of every face, everywhere.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from commerce.core import Event, Seat
from commerce.families.cox.rules import CoxState

_CARD_KEYS = frozenset({"card", "cards", "racks"})


def cards_in_play(s: CoxState) -> tuple[int, ...]:
    """Every card where it lies, place by place: the cards not yet in a base, each base top
    first, each rack, each seat's laid-out combinations and Greenbacks, the discards."""
    return (*s.unseen, *(c for b in s.bases for c in b), *(c for r in s.racks for c in r),
            *(c for seat in s.laid for g in seat for c in g),
            *(c for g in s.greenbacks for c in g), *s.discards)


def _relabel(value: Any, pi: Mapping[int, int]) -> Any:
    if isinstance(value, int):
        return pi.get(value, value)
    return tuple(_relabel(v, pi) for v in value)


def _event(e: Event, pi: Mapping[int, int]) -> Event:
    data = tuple((k, _relabel(v, pi) if k in _CARD_KEYS else v) for k, v in e.data)
    return e._replace(data=data)


def _copies(rng: random.Random) -> dict[int, int]:
    """Each transport face's four copies renumbered at random."""
    sigma: dict[int, int] = {}
    for first in range(0, 60, 4):
        copies = list(range(first, first + 4))
        rng.shuffle(copies)
        sigma.update(zip(range(first, first + 4), copies, strict=True))
    return sigma


def _all(s: CoxState, pi: Mapping[int, int]) -> CoxState:
    """*s* with every card relabelled by *pi*, in every place and every event."""
    def one(c: int | None) -> int | None:
        return None if c is None else pi.get(c, c)

    return s._replace(
        unseen=tuple(sorted(pi.get(c, c) for c in s.unseen)),
        bases=_relabel(s.bases, pi), racks=_relabel(s.racks, pi), laid=_relabel(s.laid, pi),
        greenbacks=_relabel(s.greenbacks, pi), discards=_relabel(s.discards, pi),
        live=one(s.live), bought=one(s.bought),
        log=tuple(_event(e, pi) for e in s.log),
        last_hand=tuple(_event(e, pi) for e in s.last_hand),
    )


def permute_hidden(s: CoxState, seat: Seat, rng: random.Random) -> CoxState:
    """*s* with the copies of every face renumbered, then the cards *seat* cannot see (the
    bases, the cards not yet placed, the other racks) shuffled among their places (sizes
    kept), and the events *seat* may not see relabelled alike."""
    s = _all(s, _copies(rng))
    hidden = [*s.unseen, *(c for b in s.bases for c in b),
              *(c for x, r in enumerate(s.racks) if x != seat for c in r)]
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    pi = dict(zip(hidden, shuffled, strict=True))
    racks = tuple(r if x == seat else _relabel(r, pi) for x, r in enumerate(s.racks))
    log = tuple(e if e.visible(seat) else _event(e, pi) for e in s.log)
    return s._replace(unseen=tuple(sorted(pi[c] for c in s.unseen)),
                      bases=_relabel(s.bases, pi), racks=racks, log=log)
