"""What a seat of Cox's game cannot know, as hooks for the generic tests.

:func:`cards_in_play` lists every card where it lies (conservation), :func:`permute_hidden`
relabels at random what one seat cannot know: which copy of a face is which (copies are alike,
dossier 1.9), and which hidden card lies where among the other racks and the Supply Bases. The
seat's observation must not change.
"""

from __future__ import annotations

import random

from commerce.core import Seat
from commerce.families.cox.cards import CoxCard
from commerce.families.cox.rules import CoxState, Phase


def cards_in_play(s: CoxState) -> tuple[CoxCard, ...]:
    """Every card of the pack where it lies: discards, cards not yet placed in the supply,
    each seat's rack, laid-out combinations and Greenbacks, then the four Supply Bases."""
    cards: list[CoxCard] = [*s.discards, *s.unseen]
    for q in range(s.players):
        cards += s.racks[q]
        cards += (c for g in s.laid[q] for c in g)
        cards += s.greenbacks[q]
    for b in s.bases:
        cards += b
    return tuple(cards)


def _relabel_copies(s: CoxState, rng: random.Random) -> CoxState:
    """*s* with the four copies of every transport face shuffled among themselves."""
    table = list(range(80))
    for first in range(0, 60, 4):
        copies = [first, first + 1, first + 2, first + 3]
        rng.shuffle(copies)
        table[first:first + 4] = copies

    def m(cards: tuple[CoxCard, ...]) -> tuple[CoxCard, ...]:
        return tuple(table[c] for c in cards)

    return s._replace(
        unseen=tuple(sorted(m(s.unseen))),
        bases=tuple(m(b) for b in s.bases),
        racks=tuple(m(r) for r in s.racks),
        laid=tuple(tuple(m(g) for g in groups) for groups in s.laid),
        greenbacks=tuple(m(g) for g in s.greenbacks),
        discards=m(s.discards),
        live=None if s.live is None else table[s.live],
        bought=None if s.bought is None else table[s.bought],
    )


def permute_hidden(s: CoxState, seat: Seat, rng: random.Random) -> CoxState:
    """*s* with what *seat* cannot know relabelled at random: the copies of every face, and
    the hidden cards dealt anew among the other racks (until the count shows them), the
    Supply Bases and the cards not yet placed, each place keeping its size."""
    s = _relabel_copies(s, rng)
    if s.phase is Phase.DIRECTORS:
        return s
    others = [q for q in range(s.players) if q != seat] if s.phase is not Phase.OVER else []
    pool: list[CoxCard] = [*s.unseen, *(c for b in s.bases for c in b)]
    for q in others:
        pool += s.racks[q]
    rng.shuffle(pool)
    at = 0

    def take(size: int) -> tuple[CoxCard, ...]:
        nonlocal at
        part = tuple(pool[at:at + size])
        at += size
        return part

    unseen = tuple(sorted(take(len(s.unseen))))
    bases = tuple(take(len(b)) for b in s.bases)
    racks = list(s.racks)
    for q in others:
        racks[q] = take(len(s.racks[q]))
    return s._replace(unseen=unseen, bases=bases, racks=tuple(racks))

