"""The conversions between the fast state and the reference state."""

from __future__ import annotations

from commerce.core import (
    Seat,
)
from commerce.families.widow import state as ref
from commerce.families.widow.fast.state import _BIT, WidowState


def _mask(seats: frozenset[Seat]) -> int:
    return sum(_BIT[x] for x in seats)


def _set(mask: int, n: int) -> frozenset[Seat]:
    return frozenset(x for x in range(n) if mask & _BIT[x])


def to_reference(s: WidowState) -> ref.WidowState:
    """The reference state this fast state stands for."""
    n = s.players
    return ref.WidowState(
        ruleset=s.ruleset,
        players=n,
        session=ref.Session(
            tokens=s.tokens, balances=s.balances, out_in=s.out_in, deals_won=s.deals_won,
            pool=s.pool, pool_counters=s.pool_counters, horses=s.horses,
            horse_open=s.horse_open, horse_offers=s.offers, dealer=s.dealer,
            deal_number=s.deal_number, last_deal=s.last_deal, ended=s.ended,
        ),
        deal=ref.Deal(
            order=s.order, hands=s.hands, widow=s.widow, stock=s.unseen, to_deal=s.to_deal,
            locked=_set(s.locked, n), passed=_set(s.passed, n), stood=_set(s.stood, n),
            pounced=_set(s.frozen, n), knocker=None if s.knocker < 0 else s.knocker,
            log=s.log,
        ),
        turn=ref.Turn(
            phase=s.phase, actor=s.actor, seat=s.turn, pos=s.pos, round=s.round,
            final=s.final, in_final=s.in_final, swaps=s.swaps, moved=s.moved,
            resume=s.resume, fresh=s.fresh, offer=None if s.offer < 0 else s.offer,
        ),
    )


def from_reference(r: ref.WidowState) -> WidowState:
    """The fast state standing for the reference state *r*."""
    session, deal, turn = r.session, r.deal, r.turn
    return WidowState(
        ruleset=r.ruleset, players=r.players, tokens=session.tokens,
        balances=session.balances, out_in=session.out_in, deals_won=session.deals_won,
        pool=session.pool, pool_counters=session.pool_counters, horses=session.horses,
        horse_open=session.horse_open, offers=session.horse_offers, dealer=session.dealer,
        deal_number=session.deal_number, order=deal.order, order_mask=_mask(frozenset(deal.order)),
        hands=deal.hands, widow=deal.widow, unseen=deal.stock, to_deal=deal.to_deal,
        phase=turn.phase, actor=turn.actor, turn=turn.seat, pos=turn.pos, round=turn.round,
        locked=_mask(deal.locked), passed=_mask(deal.passed), stood=_mask(deal.stood),
        frozen=_mask(deal.pounced), knocker=-1 if deal.knocker is None else deal.knocker,
        final=turn.final, in_final=turn.in_final, swaps=turn.swaps, moved=turn.moved,
        resume=turn.resume, fresh=turn.fresh, offer=-1 if turn.offer is None else turn.offer,
        log=deal.log, last_deal=session.last_deal, ended=session.ended,
    )
