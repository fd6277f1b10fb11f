"""What a seat of Cox's game cannot know, as hooks for the generic tests.

:func:`cards_in_play` lists every card where it lies (conservation), :func:`permute_hidden`
relabels at random what one seat cannot know: which copy of a face is which (copies are alike,
docs/rulesets/cox.md), and which hidden card lies where among the other racks and the Supply Bases.
The seat's observation must not change.
"""

from __future__ import annotations

import random
from dataclasses import replace

from commerce.core import Seat
from commerce.families.cox.cards import CoxCard
from commerce.families.cox.state import CoxState, Phase


def cards_in_play(s: CoxState) -> tuple[CoxCard, ...]:
    """Every card of the pack where it lies: discards, cards not yet placed in the supply,
    each seat's rack, laid-out combinations and Greenbacks, then the four Supply Bases."""
    deal = s.deal
    cards: list[CoxCard] = [*deal.discards, *deal.unseen]
    for q in range(s.players):
        cards += deal.racks[q]
        cards += (c for g in deal.laid[q] for c in g)
        cards += deal.greenbacks[q]
    for b in deal.bases:
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

    deal, turn = s.deal, s.turn
    return replace(
        s,
        deal=replace(
            deal,
            unseen=tuple(sorted(m(deal.unseen))),
            bases=tuple(m(b) for b in deal.bases),
            racks=tuple(m(r) for r in deal.racks),
            laid=tuple(tuple(m(g) for g in groups) for groups in deal.laid),
            greenbacks=tuple(m(g) for g in deal.greenbacks),
            discards=m(deal.discards),
        ),
        turn=replace(turn, live=None if turn.live is None else table[turn.live],
                     bought=None if turn.bought is None else table[turn.bought]),
    )


def permute_hidden(s: CoxState, seat: Seat, rng: random.Random) -> CoxState:
    """*s* with what *seat* cannot know relabelled at random: the copies of every face, and
    the hidden cards dealt anew among the other racks (until the count shows them), the
    Supply Bases and the cards not yet placed, each place keeping its size."""
    s = _relabel_copies(s, rng)
    phase = s.turn.phase
    if phase is Phase.DIRECTORS:
        return s
    deal = s.deal
    others = [q for q in range(s.players) if q != seat] if phase is not Phase.OVER else []
    pool: list[CoxCard] = [*deal.unseen, *(c for b in deal.bases for c in b)]
    for q in others:
        pool += deal.racks[q]
    rng.shuffle(pool)
    at = 0

    def take(size: int) -> tuple[CoxCard, ...]:
        nonlocal at
        part = tuple(pool[at:at + size])
        at += size
        return part

    unseen = tuple(sorted(take(len(deal.unseen))))
    bases = tuple(take(len(b)) for b in deal.bases)
    racks = list(deal.racks)
    for q in others:
        racks[q] = take(len(deal.racks[q]))
    return replace(s, deal=replace(deal, unseen=unseen, bases=bases, racks=tuple(racks)))

