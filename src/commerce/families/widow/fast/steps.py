"""The fast path's transitions: :func:`apply` and the dispatch to each step."""

from __future__ import annotations

from commerce.core import (
    Action,
    Event,
    Transition,
)
from commerce.families.widow.fast.dealing import _blind, _deal, _end_blind, _widow_card
from commerce.families.widow.fast.queries import _may_swap, check
from commerce.families.widow.fast.settle import _horse
from commerce.families.widow.fast.state import (
    _BIT,
    _DONE_EVENT,
    _I_LOCKED,
    _I_LOG,
    _I_OFFER,
    _I_PASSED,
    _K_DEAL,
    _K_DECLINE,
    _K_DONE,
    _K_EXCHANGE,
    _K_KNOCK,
    _K_PASS,
    _K_POUNCE,
    _K_STAND,
    _ONLY,
    _P_BLIND,
    _P_CARD,
    _P_FINAL,
    _P_MORE,
    _P_POUNCE,
    _P_TURN,
    _PASSED,
    WidowState,
)
from commerce.families.widow.fast.turns import _knock, _next_turn, _pounce, _proceed, _stand, _swap


def apply(s: WidowState, action: Action) -> Transition:
    """Check *action*, then apply it (what :func:`commerce.engine.apply` calls).

    :raises IllegalActionError: with the reason, if *action* is not legal in *s*.
    """
    phase = s.phase
    if action.kind is _K_EXCHANGE and (phase is _P_MORE or phase is _P_TURN or phase is _P_FINAL):
        # the most common action, checked here at once (check() says why one is illegal)
        cards = action.cards
        seat = s.actor
        if _may_swap(s, seat, cards):
            return _swap(s, seat, cards[0], cards[1])
    check(s, action)
    return apply_unchecked(s, action)


def apply_unchecked(s: WidowState, action: Action) -> Transition:
    """Apply an action already known to be legal (the public path checks first)."""
    kind = action.kind
    if kind is _K_EXCHANGE:
        if s.phase is _P_BLIND:
            return _blind(s, action.cards)
        cards = action.cards
        return _swap(s, s.actor, cards[0], cards[1])
    if kind is _K_DEAL:
        if s.phase is _P_CARD:
            return _widow_card(s, action.cards[0])
        return _deal(s, action.cards)
    seat = s.actor
    if kind is _K_PASS:
        if s.phase is _P_BLIND:
            ev = Event("blind_passed", seat)
            v = list(s)
            v[_I_LOG] = s.log + (ev,)
            return _end_blind(v, (ev,))
        ev = _PASSED[seat]
        v = list(s)
        v[_I_LOG] = s.log + (ev,)
        if s.phase is _P_TURN and s.ruleset.pass_locks_out:
            bit = _BIT[seat]
            v[_I_LOCKED] = s.locked | bit
            v[_I_PASSED] = s.passed | bit
        return _next_turn(v, (ev,))
    if kind is _K_DONE:
        v = list(s)
        if s.phase is _P_BLIND:
            ev = Event("blind_done", seat)
            v[_I_LOG] = s.log + (ev,)
            return _end_blind(v, (ev,))
        ev = _DONE_EVENT[seat]
        v[_I_LOG] = s.log + (ev,)
        return _next_turn(v, (ev,))
    if kind is _K_KNOCK:
        return _knock(s, seat)
    if kind is _K_STAND:
        return _stand(s, seat)
    if kind is _K_POUNCE:
        return _pounce(s, seat, action.cards[0])
    if kind is _K_DECLINE:
        if s.phase is _P_POUNCE:
            ev = Event("pounce_declined", seat, (("card", s.offer),), _ONLY[seat])
            v = list(s)
            v[_I_OFFER] = -1
            v[_I_LOG] = s.log + (ev,)
            return _proceed(v, (ev,))
        return _horse(s, seat, bought=False)
    # BUY_HORSE
    return _horse(s, seat, bought=True)
