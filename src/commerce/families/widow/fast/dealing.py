"""The fast path's deal: the hands and the widow, chance's draws and the dealer's blind
exchange."""

from __future__ import annotations

import random
from bisect import insort
from functools import lru_cache
from typing import Any, Final

from commerce.cards import Card, sample_cards
from commerce.core import (
    Action,
    Event,
    Seat,
    Transition,
)
from commerce.families.widow.fast.state import (
    _BIT,
    _DEAL,
    _DEALT,
    _DEALT_UNSEEN,
    _I_ACTOR,
    _I_DEALER,
    _I_FRESH,
    _I_HANDS,
    _I_LOCKED,
    _I_LOG,
    _I_MOVED,
    _I_PHASE,
    _I_POS,
    _I_RESUME,
    _I_ROUND,
    _I_SWAPS,
    _I_TO_DEAL,
    _I_TURN,
    _I_UNSEEN,
    _I_WIDOW,
    _K_DEAL,
    _ONLY,
    _P_BLIND,
    _P_DEAL,
    _R_FIRST,
    _WIDOW_DEALT,
    WidowState,
    _result,
    _tuple_item,
    _without,
)
from commerce.families.widow.fast.turns import _proceed


def _deal(s: WidowState, cards: tuple[Card, ...]) -> Transition:
    """Cards of the initial deal: one at a time to the hands from the eldest, then the widow."""
    order = s.order
    m = len(order)
    cut = 3 * m
    rules = s.ruleset
    to_deal = s.to_deal
    hands = list(s.hands)
    rows = [_DEALT[seat] for seat in range(len(hands))]
    if rules.dealer_blind_exchange != "none":
        rows[s.dealer] = _DEALT_UNSEEN[s.dealer]
    if len(cards) == to_deal == cut + rules.widow_size:
        # the whole deal at once (what sample_chance draws): the j-th seat gets every m-th card
        for j in range(m):
            hands[order[j]] = tuple(cards[j:cut:m])
        widow = tuple(sorted(cards[cut:]))
        # the event of each card from its seat's row of _DEALT, or from _WIDOW_DEALT
        dealt = tuple([rows[seat] for seat in order]) * 3 + (_WIDOW_DEALT,) * rules.widow_size
        evs = tuple(map(_tuple_item, dealt, cards))
    else:
        widow_list = list(s.widow)
        k = cut + rules.widow_size - to_deal
        events: list[Event] = []
        for card in cards:
            if k < cut:
                seat = order[k % m]
                hands[seat] += (card,)
                events.append(rows[seat][card])
            else:
                insort(widow_list, card)
                events.append(_WIDOW_DEALT[card])
            k += 1
        widow = tuple(widow_list)
        evs = tuple(events)
    to_deal -= len(cards)
    v = list(s)
    v[_I_HANDS] = tuple(hands)
    v[_I_WIDOW] = widow
    v[_I_UNSEEN] = _without(s.unseen, cards)
    v[_I_TO_DEAL] = to_deal
    v[_I_LOG] = s.log + evs
    if to_deal:
        return _result(v, evs)
    v[_I_ROUND] = 1
    v[_I_POS] = -1
    v[_I_FRESH] = widow if rules.pounce and rules.pounce_on_initial_widow else ()
    v[_I_RESUME] = _R_FIRST
    if rules.dealer_blind_exchange != "none":
        v[_I_PHASE] = _P_BLIND
        v[_I_ACTOR] = v[_I_TURN] = s.dealer
        return _result(v, evs)
    return _proceed(v, evs)


_WIDOW_CARD: Final = tuple(Event("widow_card", None, (("card", c),)) for c in range(52))


def _widow_card(s: WidowState, card: Card) -> Transition:
    """The card added to the widow at the start of a round, or in place of a pounced card."""
    unseen = s.unseen
    i = unseen.index(card)
    widow = list(s.widow)
    insort(widow, card)
    ev = _WIDOW_CARD[card]
    v = list(s)
    v[_I_WIDOW] = tuple(widow)
    v[_I_UNSEEN] = unseen[:i] + unseen[i + 1:]
    if s.ruleset.pounce:
        v[_I_FRESH] = s.fresh + (card,)
    v[_I_LOG] = s.log + (ev,)
    return _proceed(v, (ev,))


def sample_chance(s: WidowState, rng: random.Random) -> Action:
    """Chance's next action drawn with *rng*: the whole initial deal, or one widow card.

    A multi-card ``deal`` is the same as dealing its cards one at a time, in order.
    """
    if s.phase is _P_DEAL:
        return Action(_K_DEAL, tuple(sample_cards(rng, s.unseen, s.to_deal)))
    return _DEAL[rng.choice(s.unseen)]


@lru_cache(maxsize=4096)
def _blind_exchanged(seat: Seat, give: Card, take: Card) -> Event:
    """The one-card ``blind_exchanged`` event (events are immutable values)."""
    return Event("blind_exchanged", seat, (("gave", (give,)), ("took", (take,))))


def _blind(s: WidowState, takes: tuple[Card, ...]) -> Transition:
    seat = s.dealer
    rules = s.ruleset
    hands = list(s.hands)
    hand = hands[seat]
    v = list(s)
    if rules.dealer_blind_exchange == "all_or_nothing":
        hands[seat] = tuple(takes)
        ev = Event("blind_exchanged", seat, (("gave", hand), ("took", tuple(takes))))
        returned = tuple(sorted(hand))
        v[_I_HANDS] = tuple(hands)
        v[_I_WIDOW] = returned
        if rules.pounce:
            v[_I_FRESH] = s.fresh + returned
        v[_I_LOCKED] = s.locked | _BIT[seat]
        v[_I_SWAPS] = 3
        v[_I_LOG] = s.log + (ev,)
        return _end_blind(v, (ev,))
    take = takes[0]
    i = s.swaps
    give = hand[i]
    hands[seat] = (*hand[:i], take, *hand[i + 1:])
    widow = list(s.widow)
    widow.remove(take)
    insort(widow, give)
    one = _blind_exchanged(seat, give, take)
    swaps = i + 1
    v[_I_HANDS] = tuple(hands)
    v[_I_WIDOW] = tuple(widow)
    v[_I_SWAPS] = swaps
    v[_I_MOVED] = (*s.moved, give)
    if rules.pounce:
        v[_I_FRESH] = s.fresh + (give,)
    v[_I_LOG] = s.log + (one,)
    if swaps >= 3 or len(widow) <= swaps:
        if swaps >= 3 and rules.exchange_all_three_locks:
            v[_I_LOCKED] = s.locked | _BIT[seat]
        return _end_blind(v, (one,))
    return _result(v, (one,))


def _end_blind(v: list[Any], events: tuple[Event, ...]) -> Transition:
    """The dealer has looked at his hand; play begins from the eldest (*events* are logged)."""
    # ``moved`` (the cards he gave) is kept until the first turn, so that he cannot pounce
    # on them himself. Looking is an event only he sees: the cards he had not seen.
    seat = v[_I_DEALER]
    looked = Event("looked", seat, (("cards", v[_I_HANDS][seat][v[_I_SWAPS]:]),), _ONLY[seat])
    v[_I_LOG] = v[_I_LOG] + (looked,)
    events = (*events, looked)
    v[_I_SWAPS] = 0
    v[_I_POS] = -1
    v[_I_RESUME] = _R_FIRST
    return _proceed(v, events)
