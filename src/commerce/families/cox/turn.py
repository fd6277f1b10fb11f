"""A turn: draw or buy, the buy offers, the discard, selling out.

Cox, "Turn order", "A normal turn" and "Buying a discard" (docs/rulesets/cox.md; decision #30 for
several buyers, decision #34 for selling out, decision #35 when the supply runs out, decision #38
for a bought card). Each function takes the state and the list of the action's events (*out*), and
returns the state after that step.
"""

from __future__ import annotations

from commerce.core import Event, Seat, evolve
from commerce.families.cox.cards import CoxCard, face_card, is_captain, kind_of
from commerce.families.cox.choices import buy_mode, pair_kind, supply_empty
from commerce.families.cox.layout import faces, lay_out, only, put, without
from commerce.families.cox.options import CoxOptions
from commerce.families.cox.settle import end_hand
from commerce.families.cox.state import HAND_SIZE, CoxState, Phase, Turn


def begin_turn(s: CoxState, seat: Seat, *, live: CoxCard | None, discarder: Seat | None,
               out: list[Event]) -> CoxState:
    """*seat*'s turn begins, the last discard (if any) *live* for buying.

    The hand ends instead when the supply is empty and nothing may be bought: with no live
    discard, or when the last discard may not be bought (``last_discard_buyable``), or (when
    only the seats that may buy are asked) when no seat may buy it (decision #35).
    """
    opts = CoxOptions.of(s.ruleset)
    empty = supply_empty(s)
    if empty and (live is None or opts.last_discard_buyable == "no"):
        out.append(Event("supply_exhausted", seat))
        return end_hand(s, reason="supply_exhausted", seller=None, out=out)
    turn = evolve(s, turn=Turn(phase=Phase.TURN, player=seat, actor=seat, live=live,
                               discarder=discarder))
    if empty and opts.buy_offers == "eligible_only" and not any(
        buy_mode(turn, other) for other in range(s.players)
    ):
        out.append(Event("supply_exhausted", seat))
        return end_hand(s, reason="supply_exhausted", seller=None, out=out)
    return turn


def choose_to_draw(s: CoxState, *, draw: bool, out: list[Event]) -> CoxState:
    """The turn player does not buy: he draws (once nobody farther buys), or declines when the
    supply is empty. Only he knows it until the offers are settled."""
    if s.turn.live is not None:
        out.append(Event("declined", s.turn.actor, (("card", face_card(s.turn.live)),),
                         only(s.turn.actor)))
    return offer_discard(s, pending_draw=draw, out=out)


def offer_discard(s: CoxState, *, pending_draw: bool, out: list[Event]) -> CoxState:
    """The live discard is offered to each seat from the turn player's next to the
    discarder's, nearest to the discarder first (Cox: "whoever speaks first"; decision #30).

    With ``buy_offers`` = ``every_seat`` every one of them is asked, those who may not buy
    only declining; with ``eligible_only`` only those who may buy.
    """
    queue: list[Seat] = []
    live = s.turn.live
    if live is not None:
        seat = s.next_seat(s.turn.player)
        while seat != s.turn.discarder:
            queue.append(seat)
            seat = s.next_seat(seat)
        if CoxOptions.of(s.ruleset).buy_offers == "eligible_only":
            queue = [q for q in queue if buy_mode(s, q)]
    if queue:
        return evolve(s, turn=evolve(s.turn, phase=Phase.OFFER, actor=queue[0],
                                     offer_queue=tuple(queue), pending_draw=pending_draw))
    return settle_offers(s, pending_draw=pending_draw, out=out)


def decline_offer(s: CoxState, out: list[Event]) -> CoxState:
    """The offered seat declines (only he knows it); the next is asked, or nobody bought."""
    turn = s.turn
    assert turn.live is not None
    out.append(Event("declined", turn.actor, (("card", face_card(turn.live)),),
                     only(turn.actor)))
    queue = turn.offer_queue[1:]
    if queue:
        return evolve(s, turn=evolve(turn, actor=queue[0], offer_queue=queue))
    return settle_offers(s, pending_draw=turn.pending_draw, out=out)


def settle_offers(s: CoxState, *, pending_draw: bool, out: list[Event]) -> CoxState:
    """Nobody bought: the turn player draws, or (the supply empty) the hand ends."""
    if not pending_draw:
        out.append(Event("supply_exhausted", s.turn.player))
        return end_hand(s, reason="supply_exhausted", seller=None, out=out)
    return draw(s, s.turn.player, out)


def draw(s: CoxState, seat: Seat, out: list[Event]) -> CoxState:
    """*seat* draws the top card of the current Supply Base, then the next base's when it is
    drawn out (Cox, "A normal turn"; decision #36), lays out what he must, and discards."""
    bases = s.deal.bases
    current = s.deal.current_base
    while current < 4 and not bases[current]:
        current += 1
    card = bases[current][0]
    out.append(Event("drew", seat, (("base", current + 1),)))
    out.append(Event("drew_card", seat, (("card", face_card(card)),), only(seat)))
    racks = s.deal.racks
    s = evolve(s, deal=evolve(s.deal, bases=put(bases, current, bases[current][1:]),
                              racks=put(racks, seat, (*racks[seat], card)),
                              current_base=current))
    s = lay_out(s, seat, out)
    return after_gain(s, seat, bought=None, must_sell_out=False, out=out)


def buy(s: CoxState, out: list[Event]) -> CoxState:
    """The actor says "I buy": he takes the live discard; the seats between the discarder and
    him lose their turn (Cox, "Buying a discard").

    Bought with two like it, it is laid out with them (a Captain with the pair of its suit
    it joins); bought to complete the hand (the waiting-hand exception), it goes to the rack
    and the buyer must sell out at once.
    """
    seat = s.turn.actor
    card = s.turn.live
    discarder = s.turn.discarder
    assert card is not None and discarder is not None
    mode = buy_mode(s, seat)
    lost = []
    other = s.next_seat(discarder)
    while other != seat:
        lost.append(other)
        other = s.next_seat(other)
    out.append(Event("bought", seat, (("card", face_card(card)), ("from", discarder),
                                      ("lost_turns", tuple(lost)))))
    rack = s.deal.racks[seat]
    kind = pair_kind(rack, card) if mode == "pair" else None
    if kind is not None and is_captain(card):
        group = (*sorted(c for c in rack if kind_of(c) == kind)[:2], card)
        for c in group[:2]:
            rack = without(rack, c)
        out.append(Event("laid_out", seat, (("cards", faces(group)),)))
        s = evolve(s, deal=evolve(s.deal, racks=put(s.deal.racks, seat, rack),
                                  laid=put(s.deal.laid, seat, (*s.deal.laid[seat], group))))
    else:
        s = evolve(s, deal=evolve(s.deal, racks=put(s.deal.racks, seat, (*rack, card))))
    s = lay_out(s, seat, out)
    s = evolve(s, deal=evolve(s.deal, discards=s.deal.discards[:-1]),
               turn=evolve(s.turn, live=None))
    return after_gain(s, seat, bought=card, must_sell_out=mode == "sell_out", out=out)


def after_gain(s: CoxState, seat: Seat, *, bought: CoxCard | None, must_sell_out: bool,
               out: list[Event]) -> CoxState:
    """After drawing or buying, *seat* discards; when laying out left him no card over his
    hand (eight, one more a four), he has nothing to discard and the turn passes on."""
    racks = s.deal.racks
    laid = s.deal.laid[seat]
    size = len(racks[seat]) + sum(len(g) for g in laid)
    quota = HAND_SIZE + sum(1 for g in laid if len(g) == 4)
    if size > quota and racks[seat]:
        return evolve(s, turn=Turn(phase=Phase.DISCARD, player=seat, actor=seat,
                                   bought=bought, must_sell_out=must_sell_out))
    out.append(Event("no_discard", seat))
    return begin_turn(s, s.next_seat(seat), live=None, discarder=None, out=out)


def discard(s: CoxState, face: CoxCard, *, sell_out: bool, out: list[Event]) -> CoxState:
    """The actor discards his lowest copy of *face* face up; play passes on. Saying "I sell
    out", he ends the hand with a complete hand (decision #34)."""
    seat = s.turn.actor
    rack = s.deal.racks[seat]
    card = min(c for c in rack if face_card(c) == face)
    s = evolve(s, deal=evolve(s.deal, racks=put(s.deal.racks, seat, without(rack, card)),
                              discards=(*s.deal.discards, card)))
    if sell_out:
        out.append(Event("sold_out", seat, (("card", face),)))
        return end_hand(s, reason="sold_out", seller=seat, out=out)
    out.append(Event("discarded", seat, (("card", face),)))
    return begin_turn(s, s.next_seat(seat), live=card, discarder=seat, out=out)
