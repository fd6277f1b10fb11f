"""The start of a hand: the Directors, the Supply Bases, the deal of eight cards each.

Cox, "Start of each hand" (docs/rulesets/cox.md): the Directors cards are dealt face up, two a
player; the Wholesaler cuts the pack into four Supply Bases of 20, numbered from the Retailer's to
the right; the Retailer deals one card at a time to his right until each player has eight, from
Base 1 on; Greenbacks (and threes) are laid out and replaced from the bottom of Base 4.
"""

from __future__ import annotations

from commerce.core import Event, evolve
from commerce.families.cox.cards import face_card, pack
from commerce.families.cox.layout import faces, lay_out, only
from commerce.families.cox.state import (
    BASE_SIZE,
    DIRECTOR_NAMES,
    HAND_SIZE,
    RETAILER,
    WHOLESALER,
    CoxState,
    Phase,
)
from commerce.families.cox.turn import begin_turn

_BASE_NUMBERS = {4: (1, 2, 3, 4), 3: (1, 2, 3), 2: (1, 3)}
"""Supply Base numbers from the Retailer round the table (two players sit as 1 and 3)."""


def deal_directors(s: CoxState, cards: tuple[int, ...], out: list[Event]) -> CoxState:
    """Chance deals Directors cards face up, one a seat from the dealer's right (or left).

    Cox, "Start of each hand" 2: all of them, two a player. Once all are dealt, the holder of
    the Retailer card has Base No. 1 and the others are numbered from him in the direction of
    play (3).
    """
    n = s.players
    dealer = s.session.director_dealer
    directors = s.deal.directors
    for d in cards:
        seat = (dealer + s.step * (len(directors) + 1)) % n
        directors = (*directors, d)
        out.append(Event("director", seat, (("director", DIRECTOR_NAMES[d]),)))
    if len(directors) < 2 * n:
        return evolve(s, deal=evolve(s.deal, directors=directors))
    seats = [(dealer + s.step * (i + 1)) % n for i in range(2 * n)]
    wholesaler = seats[directors.index(WHOLESALER)]
    retailer = seats[directors.index(RETAILER)]
    numbers: list[int | None] = [None] * n
    for i, number in enumerate(_BASE_NUMBERS[n]):
        numbers[(retailer + s.step * i) % n] = number
    out.append(Event("directors_dealt", retailer, (
        ("wholesaler", wholesaler), ("retailer", retailer), ("base_numbers", tuple(numbers)))))
    return evolve(s, deal=evolve(s.deal, directors=directors, wholesaler=wholesaler,
                                 retailer=retailer, base_numbers=tuple(numbers),
                                 unseen=pack()),
                  turn=evolve(s.turn, phase=Phase.SHUFFLE))


def place(s: CoxState, cards: tuple[int, ...], out: list[Event]) -> CoxState:
    """Chance places cards (named by face) in the supply, Base 1 top to bottom, then 2, 3, 4.

    Cox, "Start of each hand" 1 and 3: the pack shuffled and cut into four bases of 20. Of
    alike cards the lowest copy left is placed (copies are never shown). Once all 80 are
    placed, the Retailer deals.
    """
    unseen = list(s.deal.unseen)
    placed = [c for b in s.deal.bases for c in b]
    for f in cards:
        card = next(c for c in unseen if face_card(c) == f)
        unseen.remove(card)
        placed.append(card)
    bases = tuple(tuple(placed[i * BASE_SIZE:(i + 1) * BASE_SIZE]) for i in range(4))
    s = evolve(s, deal=evolve(s.deal, unseen=tuple(unseen), bases=bases))
    if unseen:
        return s
    out.append(Event("supply_formed", s.deal.wholesaler, (("bases", (BASE_SIZE,) * 4),)))
    return deal_hands(s, out)


def deal_hands(s: CoxState, out: list[Event]) -> CoxState:
    """The Retailer deals eight cards each, one at a time to his right, himself last, from
    Base 1 on, then lays out what each seat must from the Retailer on; the Retailer plays
    first (Cox, "Start of each hand" 4-5, "Turn order"; decision #36)."""
    retailer = s.deal.retailer
    assert retailer is not None
    n = s.players
    order = [(retailer + s.step * (i + 1)) % n for i in range(n)]
    bases = [list(b) for b in s.deal.bases]
    racks = [list(r) for r in s.deal.racks]
    base = 0
    for _ in range(HAND_SIZE):
        for seat in order:
            while not bases[base]:
                base += 1
            racks[seat].append(bases[base].pop(0))
    current = base if bases[base] else base + 1
    out.append(Event("dealt", retailer, (("cards_each", HAND_SIZE),)))
    for seat in order:
        out.append(Event("dealt_cards", seat, (("cards", faces(racks[seat])),), only(seat)))
    s = evolve(s, deal=evolve(s.deal, bases=tuple(tuple(b) for b in bases),
                              racks=tuple(tuple(r) for r in racks), current_base=current))
    for i in range(n):
        s = lay_out(s, (retailer + s.step * i) % n, out)
    return begin_turn(s, retailer, live=None, discarder=None, out=out)

