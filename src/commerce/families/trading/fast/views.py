"""What a seat sees of a fast state, and the conversions to and from the reference state."""

from __future__ import annotations

from commerce.core import (
    Seat,
)
from commerce.families.trading.fast.queries import decision
from commerce.families.trading.fast.state import _P_OVER, FastState
from commerce.families.trading.observe import TradingObservation
from commerce.families.trading.state import Deal, Session, TradingState, Turn


def observe(s: FastState, seat: Seat | None) -> TradingObservation:
    """The view of *seat*, equal to :func:`commerce.families.trading.observe.observe` of the
    reference state."""
    over = s.phase is _P_OVER
    offered = None
    if s.offered is not None and seat is not None and (seat == s.turn or seat == s.actor):
        offered = s.offered
    return TradingObservation(
        seat=seat,
        ruleset=s.ruleset,
        players=s.players,
        dealer=s.dealer,
        deal_number=s.deal_number,
        deals_total=s.players * s.ruleset.deals_each,
        decision=decision(s),
        turn=s.turn,
        hand=s.hands[seat] if seat is not None else (),
        hands=tuple(h if (over or i == seat) else None for i, h in enumerate(s.hands)),
        pool=s.pool,
        balances=s.balances,
        stock_count=len(s.unseen) + len(s.bottom),
        offered=offered,
        events=tuple(e for e in s.log if e.visible_to is None
                     or (seat is not None and seat in e.visible_to)),
        last_deal=s.last_deal,
        over=over,
    )


def to_reference(s: FastState) -> TradingState:
    """The reference state this fast state stands for."""
    return TradingState(
        ruleset=s.ruleset,
        players=s.players,
        session=Session(balances=s.balances, deals_won=s.deals_won, dealer=s.dealer,
                        deal_number=s.deal_number, last_deal=s.last_deal),
        deal=Deal(hands=s.hands, unseen=s.unseen, bottom=s.bottom, pool=s.pool,
                  to_deal=s.to_deal, log=s.log),
        current=Turn(phase=s.phase, actor=s.actor, seat=s.turn, taken=s.turns_taken,
                     offered=s.offered),
    )


def from_reference(r: TradingState) -> FastState:
    """The fast state standing for the reference state *r*."""
    session, deal, current = r.session, r.deal, r.current
    return FastState(
        ruleset=r.ruleset, players=r.players, balances=session.balances,
        deals_won=session.deals_won, dealer=session.dealer, deal_number=session.deal_number,
        hands=deal.hands, unseen=deal.unseen, bottom=deal.bottom, pool=deal.pool,
        phase=current.phase, actor=current.actor, turn=current.seat, turns_taken=current.taken,
        to_deal=deal.to_deal, offered=current.offered, log=deal.log,
        last_deal=session.last_deal,
    )
