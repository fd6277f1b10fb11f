"""The conversions between the fast state and the reference state."""

from __future__ import annotations

from commerce.families.cox.fast.state import FastCoxState
from commerce.families.cox.state import (
    CoxState,
    Deal,
    Session,
    Turn,
)


def to_reference(f: FastCoxState) -> CoxState:
    """The reference state this fast state stands for."""
    return CoxState(
        ruleset=f.ruleset,
        players=f.players,
        session=Session(director_dealer=f.director_dealer, hand_number=f.hand_number,
                        totals=f.totals, hand_scores=f.hand_scores, last_hand=f.last_hand),
        deal=Deal(directors=f.directors, wholesaler=f.wholesaler, retailer=f.retailer,
                  base_numbers=f.base_numbers, unseen=f.unseen, bases=f.bases,
                  current_base=f.current_base, racks=f.racks, laid=f.laid,
                  greenbacks=f.greenbacks, discards=f.discards, log=f.log),
        turn=Turn(phase=f.phase, player=f.turn, actor=f.actor, live=f.live,
                  discarder=f.discarder, offer_queue=f.offer_queue,
                  pending_draw=f.pending_draw, bought=f.bought,
                  must_sell_out=f.must_sell_out),
    )


def from_reference(s: CoxState) -> FastCoxState:
    """The fast state standing for the reference state *s*."""
    session, deal, turn = s.session, s.deal, s.turn
    return FastCoxState(
        ruleset=s.ruleset, players=s.players, director_dealer=session.director_dealer,
        hand_number=session.hand_number, totals=session.totals,
        hand_scores=session.hand_scores, phase=turn.phase, directors=deal.directors,
        wholesaler=deal.wholesaler, retailer=deal.retailer, base_numbers=deal.base_numbers,
        unseen=deal.unseen, bases=deal.bases, current_base=deal.current_base, racks=deal.racks,
        laid=deal.laid, greenbacks=deal.greenbacks, discards=deal.discards, live=turn.live,
        discarder=turn.discarder, turn=turn.player, actor=turn.actor,
        offer_queue=turn.offer_queue, pending_draw=turn.pending_draw, bought=turn.bought,
        must_sell_out=turn.must_sell_out, log=deal.log, last_hand=session.last_hand,
    )
