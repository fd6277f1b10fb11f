"""What a seat sees of a fast state (a pending pounce offer only in the offered seat's
view)."""

from __future__ import annotations

from commerce.cards import Card
from commerce.core import (
    Event,
    Seat,
)
from commerce.families.widow.fast.queries import decision
from commerce.families.widow.fast.state import (
    _BIT,
    _DECLINE,
    _P_BLIND,
    _P_CARD,
    _P_HORSE,
    _P_OVER,
    _P_POUNCE,
    _TOKENS,
    WidowState,
)
from commerce.families.widow.fast.steps import apply_unchecked
from commerce.families.widow.observe import WidowObservation


def _seats(mask: int, n: int) -> tuple[Seat, ...]:
    return tuple(x for x in range(n) if mask & _BIT[x])


def _view(s: WidowState, seat: Seat | None, everything: bool) -> WidowObservation:
    n = s.players
    shown = everything or s.phase is _P_OVER or s.phase is _P_HORSE
    blind = s.phase is _P_BLIND

    def visible(x: Seat) -> tuple[Card, ...] | None:
        if shown:
            return s.hands[x]
        if x != seat:
            return None
        if blind and x == s.dealer:
            return s.hands[x][:s.swaps]
        return s.hands[x]

    d = decision(s)
    tracked = s.ruleset.token_flow in _TOKENS
    return WidowObservation(
        seat=seat,
        ruleset=s.ruleset,
        players=n,
        dealer=s.dealer,
        deal_number=s.deal_number,
        round=s.round,
        decision=d,
        turn=s.turn,
        hand=(visible(seat) or ()) if seat is not None else (),
        hands=tuple(visible(x) for x in range(n)),
        hand_sizes=tuple(len(h) for h in s.hands),
        widow=s.widow,
        stock_count=len(s.unseen),
        tokens=s.tokens if tracked else None,
        balances=s.balances,
        pool=s.pool,
        pool_counters=s.pool_counters,
        in_deal=s.order,
        out=tuple(x for x in range(n) if s.out_in[x]),
        locked=_seats(s.locked, n),
        passed=_seats(s.passed, n),
        stood=_seats(s.stood, n),
        pounced=_seats(s.frozen, n),
        knocker=s.knocker if s.knocker >= 0 else None,
        final_turns=s.in_final,
        pounce_offer=(s.offer if s.phase is _P_POUNCE and (everything or seat == s.actor)
                      else None),
        events=s.log if everything else _visible_events(s, seat),
        last_deal=s.last_deal,
        over=s.phase is _P_OVER,
        ended=s.ended,
    )


def _visible_events(s: WidowState, seat: Seat | None) -> tuple[Event, ...]:
    """The events of the deal *seat* may see (a blind dealer's cards are dealt unseen)."""
    return tuple(e for e in s.log if e.visible(seat))


def observe(s: WidowState, seat: Seat | None) -> WidowObservation:
    """The view of *seat*: its own cards, the widow, public facts and the events it may see.

    A pounce offer is the offered seat's secret (decision #27: he "may call Pounce!"; nobody
    else learns that he could): every other seat sees the table as if no offer were pending
    (:func:`without_offer`).
    """
    if s.phase is _P_POUNCE and seat != s.actor:
        return _view(without_offer(s), seat, everything=False)
    return _view(s, seat, everything=False)


def without_offer(s: WidowState) -> WidowState:
    """The state as the seats not offered a pounce see it: the offer (and any other offer
    pending on the same cards) withdrawn, play where it would stand had nobody held a tricon.

    That is whose decision declining would lead to; the log, the round and everything else
    stay as they are (the private ``pounce_declined`` events, and a ``round_started`` still to
    come, are not shown). Where declining would end the deal, chance is shown to act: the
    showdown is not shown before it happens.
    """
    t = s
    while t.phase is _P_POUNCE:
        t = apply_unchecked(t, _DECLINE).state
    if t.deal_number != s.deal_number or t.phase is _P_OVER or t.phase is _P_HORSE:
        phase, actor, turn = _P_CARD, s.actor, s.turn
    else:
        phase, actor, turn = t.phase, t.actor, t.turn
    return s._replace(phase=phase, actor=actor, turn=turn, offer=-1)


def reveal_all(s: WidowState) -> WidowObservation:
    """Every hand and every event visible: for reviewing a finished or saved game."""
    return _view(s, None, everything=True)
