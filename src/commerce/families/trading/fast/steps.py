"""The fast path's transitions: the deal, the draw, trades, barters and the end of a turn."""

from __future__ import annotations

import random
from bisect import bisect_left
from functools import lru_cache
from typing import Any

from commerce.cards import Card, sample_cards
from commerce.core import (
    Action,
    Event,
    Seat,
    Transition,
)
from commerce.families.trading.fast.queries import check
from commerce.families.trading.fast.settle import _showdown
from commerce.families.trading.fast.state import (
    _ACTOR,
    _BALANCES,
    _BARTER_OFFERED,
    _BARTERED,
    _BOTTOM,
    _DEAL,
    _DREW,
    _HANDS,
    _K_BARTER,
    _K_DEAL,
    _K_DONE,
    _K_GIVE,
    _K_TRADE,
    _LOG,
    _OFFERED,
    _ONLY,
    _P_AFTER_TRADE,
    _P_BARTER_REPLY,
    _P_DEAL,
    _P_DRAW,
    _P_TURN,
    _PAIRS,
    _PHASE,
    _POOL,
    _STOOD,
    _TO_DEAL,
    _TRADED_CARD,
    _TURN,
    _TURNS_TAKEN,
    _UNSEEN,
    FastState,
    _as_set,
    _new_tuple,
)


def apply(s: FastState, action: Action) -> Transition:
    """Check *action*, then apply it (what :func:`commerce.engine.apply` calls).

    :raises IllegalActionError: with the reason, if *action* is not legal in *s*.
    """
    check(s, action)
    return apply_unchecked(s, action)


def apply_unchecked(s: FastState, action: Action) -> Transition:
    """Apply an action already known to be legal (the public path checks first)."""
    kind = action.kind
    if kind is _K_DEAL:
        return _deal(s, action.cards)
    seat = s.actor
    if kind is _K_TRADE:
        return _trade(s, seat, action.cards[0])
    if kind is _K_BARTER:
        card = action.cards[0]
        partner = (seat + (1 if s.ruleset.barter_direction == "left" else -1)) % s.players
        public = _BARTER_OFFERED[seat][partner]
        private = Event("barter_card", seat, (("card", card), ("partner", partner)),
                        _PAIRS[seat][partner])
        f = list(s)
        f[_PHASE] = _P_BARTER_REPLY
        f[_ACTOR] = partner
        f[_OFFERED] = card
        f[_LOG] = (*s.log, public, private)
        return _new_tuple(Transition, (_new_tuple(FastState, f), (public, private)))
    if kind is _K_GIVE:
        return _give(s, seat, action.cards[0])
    if kind is _K_DONE:
        return _next_turn(s, ())
    # STAND
    return _showdown(s, stander=seat, events=(_STOOD[seat],))


def _deal(s: FastState, cards: tuple[Card, ...]) -> Transition:
    if len(cards) == 1:
        i = bisect_left(s.unseen, cards[0])
        unseen = s.unseen[:i] + s.unseen[i + 1:]
    else:
        unseen = tuple(sorted(_as_set(s.unseen).difference(cards)))
    n = s.players
    if len(cards) == 3 * n == s.to_deal:
        return _deal_all(s, cards, unseen)
    hands = list(s.hands)
    if s.phase is _P_DRAW:
        seat = s.actor
        card = cards[0]
        hands[seat] = (*hands[seat], card)
        event = _DREW[seat][card]
        f = list(s)
        f[_HANDS] = tuple(hands)
        f[_UNSEEN] = unseen
        return _after_own_action(f, s, (event,))
    step = s.step
    k = 3 * n - s.to_deal
    got: dict[Seat, list[Card]] = {}
    for card in cards:
        seat = (s.dealer + step * (1 + k)) % n
        hands[seat] = (*hands[seat], card)
        got.setdefault(seat, []).append(card)
        k += 1
    evs = tuple(Event("dealt", seat, (("cards", tuple(cs)),), _ONLY[seat])
                for seat, cs in got.items())
    to_deal = s.to_deal - len(cards)
    if to_deal:
        return Transition(
            s.replace(hands=tuple(hands), unseen=unseen, to_deal=to_deal, log=s.log + evs), evs
        )
    eldest = (s.dealer + step) % n
    state = s.replace(hands=tuple(hands), unseen=unseen, to_deal=0, phase=_P_TURN,
                       actor=eldest, turn=eldest, turns_taken=1, log=s.log + evs)
    return Transition(state, evs)


@lru_cache(maxsize=1024)
def _seats_from_eldest(dealer: Seat, n: int, step: int) -> tuple[Seat, ...]:
    """The seats in the order of the deal: the eldest first, the dealer last."""
    return tuple((dealer + step * (1 + j)) % n for j in range(n))


def _deal_all(s: FastState, cards: tuple[Card, ...], unseen: tuple[Card, ...]) -> Transition:
    """The whole initial deal at once: card k goes to the k-th seat from the eldest, round."""
    n = s.players
    seats = _seats_from_eldest(s.dealer, n, s.step)
    hands: list[tuple[Card, ...]] = [()] * n
    evs = []
    for j, seat in enumerate(seats):
        hands[seat] = hand = cards[j::n]
        evs.append(_new_tuple(Event, ("dealt", seat, (("cards", hand),), _ONLY[seat])))
    events = tuple(evs)
    eldest = seats[0]
    f = list(s)
    f[_HANDS] = tuple(hands)
    f[_UNSEEN] = unseen
    f[_TO_DEAL] = 0
    f[_PHASE] = _P_TURN
    f[_ACTOR] = f[_TURN] = eldest
    f[_TURNS_TAKEN] = 1
    f[_LOG] = s.log + events
    return _new_tuple(Transition, (_new_tuple(FastState, f), events))


def sample_chance(s: FastState, rng: random.Random) -> Action:
    """Chance's next action drawn with *rng*: every card still to be dealt, or the drawn card.

    A multi-card ``deal`` is the same as dealing its cards one at a time, in order.
    """
    if s.phase is _P_DEAL:
        return Action(_K_DEAL, tuple(sample_cards(rng, s.unseen, s.to_deal)))
    return _DEAL[rng.choice(s.unseen)]


def _after_own_action(f: list[Any], s: FastState, events: tuple[Event, ...]) -> Transition:
    """After a trade or barter: the player may stand, or (if the rules say not) play moves on.

    *f* is the list of the new state's fields with the action's own changes made; *s* is the
    state before the action.
    """
    f[_OFFERED] = None
    f[_LOG] = s.log + events
    if not s.ruleset.stand_after_trade:
        return _next_turn(_new_tuple(FastState, f), events)
    f[_PHASE] = _P_AFTER_TRADE
    f[_ACTOR] = s.turn
    return _new_tuple(Transition, (_new_tuple(FastState, f), events))


def _trade(s: FastState, seat: Seat, card: Card) -> Transition:
    rules = s.ruleset
    hands = list(s.hands)
    hands[seat] = tuple([c for c in hands[seat] if c != card])
    balances = list(s.balances)
    pool = s.pool
    if seat == s.dealer:
        cost = rules.dealer_trade_cost
        balances[seat] -= cost
        pool += cost
    else:
        cost = rules.trade_cost
        balances[seat] -= cost
        balances[s.dealer] += cost
    public = _new_tuple(Event, ("traded", seat, (("cost", cost),), None))
    private = _TRADED_CARD[seat][card]
    bottom = (*s.bottom, card)
    f = list(s)
    f[_BALANCES] = tuple(balances)
    f[_POOL] = pool
    if s.unseen:
        f[_HANDS] = tuple(hands)
        f[_BOTTOM] = bottom
        f[_PHASE] = _P_DRAW
        f[_LOG] = (*s.log, public, private)
        return _new_tuple(Transition, (_new_tuple(FastState, f), (public, private)))
    drawn = bottom[0]
    hands[seat] = (*hands[seat], drawn)
    f[_HANDS] = tuple(hands)
    f[_BOTTOM] = bottom[1:]
    drew = _DREW[seat][drawn]
    return _after_own_action(f, s, (public, private, drew))


def _give(s: FastState, partner: Seat, returned: Card) -> Transition:
    offerer = s.turn
    offered = s.offered
    assert offered is not None
    hands = list(s.hands)
    hands[offerer] = tuple([returned if c == offered else c for c in hands[offerer]])
    if returned in hands[partner]:
        hands[partner] = tuple([offered if c == returned else c for c in hands[partner]])
    # else the partner handed back the offered card itself: his hand is unchanged
    public = _BARTERED[offerer][partner]
    private = Event("barter_returned", partner, (("card", returned), ("offerer", offerer)),
                    _PAIRS[offerer][partner])
    f = list(s)
    f[_HANDS] = tuple(hands)
    return _after_own_action(f, s, (public, private))


def _next_turn(s: FastState, events: tuple[Event, ...]) -> Transition:
    """Pass the turn on; *events* are already in ``s.log``."""
    limit = s.ruleset.max_rounds_per_deal
    n = s.players
    if limit and s.turns_taken >= limit * n:
        forced = Event("round_limit", None, (("rounds", limit),))
        shown = _showdown(s, stander=None, events=(forced,))
        return Transition(shown.state, (*events, *shown.events))
    f = list(s)
    f[_PHASE] = _P_TURN
    f[_ACTOR] = f[_TURN] = (s.turn + s.step) % n
    f[_TURNS_TAKEN] = s.turns_taken + 1
    return _new_tuple(Transition, (_new_tuple(FastState, f), events))
