"""The fast path's turns: exchanges with the widow, knocks, stands, pounces and who acts
next."""

from __future__ import annotations

from bisect import insort
from functools import lru_cache
from typing import Any, Final

from commerce.cards import Card
from commerce.core import (
    Event,
    Seat,
    Transition,
)
from commerce.families.widow.fast.settle import _showdown
from commerce.families.widow.fast.state import (
    _BIT,
    _I_ACTOR,
    _I_FINAL,
    _I_FRESH,
    _I_FROZEN,
    _I_HANDS,
    _I_IN_FINAL,
    _I_KNOCKER,
    _I_LOCKED,
    _I_LOG,
    _I_MOVED,
    _I_OFFER,
    _I_ORDER,
    _I_ORDER_MASK,
    _I_PHASE,
    _I_POS,
    _I_RESUME,
    _I_ROUND,
    _I_STOOD,
    _I_SWAPS,
    _I_TURN,
    _I_UNSEEN,
    _I_WIDOW,
    _P_CARD,
    _P_FINAL,
    _P_MORE,
    _P_POUNCE,
    _P_TURN,
    _R_FIRST,
    _R_MORE,
    _R_NEXT,
    WidowState,
    _new_tuple,
    _result,
)
from commerce.rules import Ruleset


@lru_cache(maxsize=8192)
def _exchanged(seat: Seat, give: Card, take: Card) -> Event:
    """The ``exchanged`` event (events are immutable values, so one serves every game)."""
    return Event("exchanged", seat, (("gave", give), ("took", take)))


def _swap(s: WidowState, seat: Seat, give: Card, take: Card) -> Transition:
    hands = list(s.hands)
    hand = hands[seat]
    i = hand.index(give)
    hands[seat] = (*hand[:i], take, *hand[i + 1:])
    widow = list(s.widow)
    widow.remove(take)
    insort(widow, give)
    swaps = s.swaps + 1
    ev = _exchanged(seat, give, take)
    evs = (ev,)
    rules = s.ruleset
    v = list(s)
    v[_I_HANDS] = tuple(hands)
    v[_I_WIDOW] = tuple(widow)
    v[_I_SWAPS] = swaps
    v[_I_MOVED] = (*s.moved, give, take)
    if swaps >= 3 and rules.exchange_all_three_locks:
        v[_I_LOCKED] = s.locked | _BIT[seat]
    v[_I_LOG] = s.log + evs
    more = swaps < rules.max_exchange_per_turn and swaps < 3 and len(widow) > swaps
    if rules.pounce:
        holder = _pounce_holder(s, give, exclude=seat)
        if holder is not None:
            v[_I_PHASE] = _P_POUNCE
            v[_I_ACTOR] = holder
            v[_I_OFFER] = give
            v[_I_RESUME] = _R_MORE if more else _R_NEXT
            return _result(v, evs)
    if more:
        v[_I_PHASE] = _P_MORE
        return _new_tuple(Transition, (_new_tuple(WidowState, v), evs))  # _result, inline
    return _next_turn(v, evs)


_KNOCKED: Final = tuple(Event("knocked", s) for s in range(12))
_STOOD: Final = tuple(Event("stood", s) for s in range(12))


def _final_turns(order: tuple[Seat, ...], seat: Seat, locked: int) -> tuple[Seat, ...]:
    """The seats after *seat*, in the order of play, that may still exchange."""
    i = order.index(seat)
    return tuple([x for x in order[i + 1:] + order[:i] if not locked & _BIT[x]])


def _knock(s: WidowState, seat: Seat) -> Transition:
    bit = _BIT[seat]
    ev = _KNOCKED[seat]
    v = list(s)
    v[_I_LOCKED] = s.locked | bit
    v[_I_STOOD] = s.stood | bit
    v[_I_KNOCKER] = seat
    v[_I_FINAL] = _final_turns(s.order, seat, s.locked)
    v[_I_IN_FINAL] = True
    v[_I_LOG] = s.log + (ev,)
    return _next_turn(v, (ev,))


def _stand(s: WidowState, seat: Seat) -> Transition:
    bit = _BIT[seat]
    ev = _STOOD[seat]
    stood = s.stood | bit
    locked = s.locked | bit
    v = list(s)
    v[_I_LOCKED] = locked
    v[_I_STOOD] = stood
    v[_I_LOG] = s.log + (ev,)
    if stood.bit_count() >= 2:
        v[_I_FINAL] = _final_turns(s.order, seat, locked)
        v[_I_IN_FINAL] = True
    return _next_turn(v, (ev,))


def _pounce(s: WidowState, seat: Seat, card: Card) -> Transition:
    hands = list(s.hands)
    hands[seat] = tuple(sorted((*hands[seat], card)))
    ev = Event("pounced", seat, (("card", card),))
    v = list(s)
    v[_I_HANDS] = tuple(hands)
    v[_I_WIDOW] = tuple([c for c in s.widow if c != card])
    v[_I_FROZEN] = s.frozen | _BIT[seat]
    v[_I_OFFER] = -1
    v[_I_LOG] = s.log + (ev,)
    if s.unseen:
        v[_I_PHASE] = _P_CARD
        return _result(v, (ev,))
    return _proceed(v, (ev,))


def _pounce_holder(s: WidowState, card: Card, exclude: Seat = -1) -> Seat | None:
    """The seat holding the other three cards of *card*'s rank, if it may pounce.

    Nobody pounces on a card he has just put into the widow himself (*exclude*, or the
    player whose turn it is for a card moved this turn). Only one seat can hold the three.
    """
    rank = card >> 2
    hands = s.hands
    for seat in s.order:
        hand = hands[seat]
        if (len(hand) == 3 and hand[0] >> 2 == rank and hand[1] >> 2 == rank
                and hand[2] >> 2 == rank):
            if seat == exclude or (seat == s.turn and card in s.moved):
                return None
            if not s.ruleset.pounce_after_pass and (s.passed | s.stood) & _BIT[seat]:
                return None
            return seat
    return None


def _proceed(v: list[Any], events: tuple[Event, ...]) -> Transition:
    """Offer pending pounces, then go on as the ``resume`` field says.

    *v* is the field list of the state so far (changed in place: one copy of the state per
    action is the cheapest); *events* are already logged.
    """
    fresh = v[_I_FRESH]
    if fresh:
        s = _new_tuple(WidowState, v)
        widow = s.widow
        while fresh:
            card, fresh = fresh[0], fresh[1:]
            if card not in widow:
                continue
            holder = _pounce_holder(s, card)
            if holder is not None:
                v[_I_FRESH] = fresh
                v[_I_PHASE] = _P_POUNCE
                v[_I_ACTOR] = holder
                v[_I_OFFER] = card
                return _result(v, events)
        v[_I_FRESH] = ()
    resume = v[_I_RESUME]
    if resume is _R_MORE:
        v[_I_PHASE] = _P_MORE
        v[_I_ACTOR] = v[_I_TURN]
        return _result(v, events)
    if resume is _R_FIRST:
        v[_I_POS] = -1
    return _next_turn(v, events)


def _next_turn(v: list[Any], events: tuple[Event, ...]) -> Transition:
    """Give the next turn, start a new round, or end the deal.

    *v* is the field list of the state so far (changed in place); *events* are logged.
    """
    locked = v[_I_LOCKED]
    if v[_I_IN_FINAL]:
        final = v[_I_FINAL]
        while final:
            seat, final = final[0], final[1:]
            if not locked & _BIT[seat]:
                v[_I_FINAL] = final
                v[_I_PHASE] = _P_FINAL
                v[_I_ACTOR] = v[_I_TURN] = seat
                v[_I_SWAPS] = 0
                v[_I_MOVED] = ()
                return _result(v, events)
        v[_I_FINAL] = ()
        return _showdown(v, events, ())
    mask = v[_I_ORDER_MASK]
    if locked & mask == mask:
        return _showdown(v, events, ())
    order = v[_I_ORDER]
    bits = _BIT
    n = len(order)
    pos = v[_I_POS] + 1
    rnd = v[_I_ROUND]
    while True:
        if pos >= n:
            rnd += 1
            pos = 0
            rules: Ruleset = v[0]
            if rules.end_condition == "rounds_eq_players" and rnd > n:
                return _showdown(v, events, ())
            limit = rules.max_rounds_per_deal
            if limit and rnd > limit:
                return _showdown(v, events, (Event("round_limit", None, (("rounds", limit),)),))
            ev = _new_tuple(Event, ("round_started", None, (("round", rnd),), None))
            events = (*events, ev)
            v[_I_LOG] = v[_I_LOG] + (ev,)
            if rules.add_widow_card_each_round and v[_I_UNSEEN]:
                v[_I_PHASE] = _P_CARD
                v[_I_ROUND] = rnd
                v[_I_POS] = -1
                v[_I_RESUME] = _R_FIRST
                v[_I_SWAPS] = 0
                v[_I_MOVED] = ()
                return _result(v, events)
        seat = order[pos]
        if not locked & bits[seat]:
            v[_I_PHASE] = _P_TURN
            v[_I_ACTOR] = v[_I_TURN] = seat
            v[_I_POS] = pos
            v[_I_ROUND] = rnd
            v[_I_SWAPS] = 0
            v[_I_MOVED] = ()
            return _new_tuple(Transition, (_new_tuple(WidowState, v), events))  # _result
        pos += 1
