"""Laying cards out: Greenbacks, threes and fourths, with their replacements.

Cox: a Greenback is laid out as soon as it is held and replaced from the bottom of Supply Base
No. 4; a three of a kind is laid out as soon as it is held; the fourth of a laid-out three is
laid out and replaced from the bottom of Base 4 (docs/rulesets/cox.md, "Combinations and special
cards"; decision #32 for a Captain as a fourth, decision #35 when Base 4 is empty).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import TypeVar

from commerce.core import Event, Seat
from commerce.families.cox.cards import CoxCard, face_card, is_greenback, is_wild, kind_of
from commerce.families.cox.options import CoxOptions
from commerce.families.cox.state import CoxState

T = TypeVar("T")


def put(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """*items* with the item at *index* replaced by *value*."""
    return (*items[:index], value, *items[index + 1:])


def without(cards: tuple[CoxCard, ...], card: CoxCard) -> tuple[CoxCard, ...]:
    """*cards* less the first *card*."""
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


def faces(cards: Sequence[CoxCard]) -> tuple[CoxCard, ...]:
    """*cards* by face: what an event says of them (copies are alike, docs/rulesets/cox.md)."""
    return tuple(face_card(c) for c in cards)


def only(seat: Seat) -> frozenset[Seat]:
    """Seen by *seat* alone."""
    return frozenset({seat})


def take_replacement(s: CoxState, seat: Seat, out: list[Event]) -> CoxState:
    """A replacement for a Greenback or a fourth, from the bottom of Supply Base No. 4.

    Cox: "replaced by cards drawn from the bottom of Supply Base No. 4". When Base 4 is empty,
    the bottom of the last base that has cards, or none (``replacement_fallback``, decision #35).
    """
    bases = s.deal.bases
    index = 3
    if not bases[3]:
        if CoxOptions.of(s.ruleset).replacement_fallback == "skip":
            index = -1
        else:
            index = max((i for i in range(4) if bases[i]), default=-1)
    if index < 0:
        out.append(Event("no_replacement", seat))
        return s
    card = bases[index][-1]
    racks = s.deal.racks
    out.append(Event("replaced", seat, (("base", index + 1),)))
    out.append(Event("replacement", seat, (("card", face_card(card)),), only(seat)))
    return replace(s, deal=replace(s.deal, bases=put(bases, index, bases[index][:-1]),
                                   racks=put(racks, seat, (*racks[seat], card))))


def lay_out(s: CoxState, seat: Seat, out: list[Event]) -> CoxState:
    """Lay out what the rules require *seat* to, until nothing is left to lay out: Greenbacks
    first, then a fourth, then a three."""
    while True:
        if any(is_greenback(c) for c in s.deal.racks[seat]):
            s = lay_greenbacks(s, seat, out)
            continue
        after = lay_fourth(s, seat, out)
        if after is not None:
            s = after
            continue
        after = lay_three(s, seat, out)
        if after is None:
            return s
        s = after


def lay_greenbacks(s: CoxState, seat: Seat, out: list[Event]) -> CoxState:
    """Cox: "whenever drawn, laid out at once and replaced from the bottom of Base 4"."""
    rack = s.deal.racks[seat]
    notes = [c for c in rack if is_greenback(c)]
    money = s.deal.greenbacks[seat]
    for c in notes:
        rack = without(rack, c)
        money = (*money, c)
        out.append(Event("greenback_laid", seat, (("card", face_card(c)),)))
    s = replace(s, deal=replace(s.deal, racks=put(s.deal.racks, seat, rack),
                                greenbacks=put(s.deal.greenbacks, seat, money)))
    for _ in notes:
        s = take_replacement(s, seat, out)
    return s


def lay_fourth(s: CoxState, seat: Seat, out: list[Event]) -> CoxState | None:
    """Cox: the fourth card of an exposed three is laid out, then replaced from Base 4. A three
    made with a Captain takes a fourth only with ``captain_can_be_fourth`` (decision #32).
    None when the rack holds no fourth."""
    rack = s.deal.racks[seat]
    groups = s.deal.laid[seat]
    for gi, group in enumerate(groups):
        if len(group) != 3:
            continue
        naturals = [c for c in group if not is_wild(c)]
        if len(naturals) < 3 and not CoxOptions.of(s.ruleset).captain_can_be_fourth:
            continue
        kind = kind_of(naturals[0])
        card = next((c for c in rack if kind_of(c) == kind), None)
        if card is None:
            continue
        out.append(Event("fourth_laid", seat, (("card", face_card(card)),)))
        s = replace(s, deal=replace(
            s.deal, racks=put(s.deal.racks, seat, without(rack, card)),
            laid=put(s.deal.laid, seat, put(groups, gi, (*group, card)))))
        return take_replacement(s, seat, out)
    return None


def lay_three(s: CoxState, seat: Seat, out: list[Event]) -> CoxState | None:
    """Cox: "A three of a kind must be laid face up in front of the rack as soon as it is
    held" (the lowest kind first). None when the rack holds no three."""
    rack = s.deal.racks[seat]
    counts = Counter(kind_of(c) for c in rack)
    three = next((k for k in sorted(counts) if 0 <= k < 18 and counts[k] >= 3), None)
    if three is None:
        return None
    group = tuple(sorted(c for c in rack if kind_of(c) == three)[:3])
    for c in group:
        rack = without(rack, c)
    out.append(Event("laid_out", seat, (("cards", faces(group)),)))
    return replace(s, deal=replace(s.deal, racks=put(s.deal.racks, seat, rack),
                                   laid=put(s.deal.laid, seat, (*s.deal.laid[seat], group))))
