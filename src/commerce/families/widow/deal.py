"""The deal: the session's start, the cards dealt, cards turned into the widow, and the dealer's
blind exchange (docs/rulesets/ for each widow game, decisions #21, #26, #47).

Chance enters only as ``deal`` actions naming cards of the stock: the initial deal (hands,
then the widow), a card added to the widow at the start of a round, and the card that
replaces a pounced one.
"""

from __future__ import annotations

import random
from bisect import insort

from commerce.cards import Card, sample_cards
from commerce.core import Action, ActionKind, Event, Transition
from commerce.families.widow import turn as turn_
from commerce.families.widow.options import WidowOptions
from commerce.families.widow.state import (
    Phase,
    Resume,
    WidowState,
    logged,
    with_deal,
    with_turn,
)


def deal_cards(s: WidowState, cards: tuple[Card, ...]) -> Transition:
    """Cards of the initial deal: three to each player, one at a time from the eldest, then
    ``widow_size`` face up to the middle (EB1911, CatsAtCards: docs/rulesets/widow.md).

    Once the widow is down, the dealer may exchange blind where the rules allow it (decision #21);
    else the cards of the widow are offered for a pounce (decision #27) and the eldest plays.
    """
    rules = s.ruleset
    opts = WidowOptions.of(rules)
    order = s.deal.order
    m = len(order)
    cut = 3 * m
    hands = list(s.deal.hands)
    widow = list(s.deal.widow)
    k = cut + opts.widow_size - s.deal.to_deal
    events: list[Event] = []
    unseen = s.dealer if opts.dealer_blind_exchange != "none" else -1
    for card in cards:
        if k < cut:
            seat = order[k % m]
            hands[seat] += (card,)
            # a dealer who may exchange blind does not see his cards dealt (decision #21):
            # he sees them when he looks at his hand (``looked``, :func:`end_blind`)
            events.append(Event("dealt", seat, (("card", card),),
                                frozenset() if seat == unseen else frozenset({seat})))
        else:
            insort(widow, card)
            events.append(Event("widow_dealt", None, (("card", card),)))
        k += 1
    to_deal = s.deal.to_deal - len(cards)
    dealt = set(cards)
    t = with_deal(s, hands=tuple(hands), widow=tuple(widow), to_deal=to_deal,
                  stock=tuple(c for c in s.deal.stock if c not in dealt))
    t = logged(t, *events)
    evs = tuple(events)
    if to_deal:
        return Transition(t, evs)
    fresh = t.deal.widow if opts.pounce and opts.pounce_on_initial_widow else ()
    t = with_turn(t, round=1, pos=-1, fresh=fresh, resume=Resume.FIRST)
    if opts.dealer_blind_exchange != "none":
        return Transition(with_turn(t, phase=Phase.BLIND, actor=s.dealer, seat=s.dealer), evs)
    return turn_.proceed(t, evs)


def widow_card(s: WidowState, card: Card) -> Transition:
    """A card turned from the stock into the widow: at the start of a round (EB1911: a fresh
    widow card each round, decision #24) or in place of a pounced card (decision #28). It may be
    pounced on (decision #27)."""
    widow = list(s.deal.widow)
    insort(widow, card)
    ev = Event("widow_card", None, (("card", card),))
    t = with_deal(s, widow=tuple(widow), stock=tuple(c for c in s.deal.stock if c != card))
    if WidowOptions.of(s.ruleset).pounce:
        t = with_turn(t, fresh=s.turn.fresh + (card,))
    return turn_.proceed(logged(t, ev), (ev,))


def sample_chance(s: WidowState, rng: random.Random) -> Action:
    """Chance's next action drawn with *rng*: the whole initial deal, or one widow card.

    A multi-card ``deal`` is the same as dealing its cards one at a time, in order.
    """
    if s.turn.phase is Phase.DEAL:
        return Action(ActionKind.DEAL, tuple(sample_cards(rng, s.deal.stock, s.deal.to_deal)))
    return Action(ActionKind.DEAL, (rng.choice(s.deal.stock),))


def blind_take(s: WidowState, take: Card) -> Transition:
    """The dealer, before looking at his hand, takes a widow card for the next of his unseen
    cards (CatsAtCards: he may trade "some" cards blind, decision #21; one to three here).

    Three cards taken lock him out where ``exchange_all_three_locks`` says so; taking the
    last card he may (three, or as many as the widow holds) ends the exchange.
    """
    rules = s.ruleset
    opts = WidowOptions.of(rules)
    seat = s.dealer
    hand = s.deal.hands[seat]
    i = s.turn.swaps
    give = hand[i]
    hands = list(s.deal.hands)
    hands[seat] = (*hand[:i], take, *hand[i + 1:])
    widow = [c for c in s.deal.widow if c != take]
    insort(widow, give)
    ev = Event("blind_exchanged", seat, (("gave", (give,)), ("took", (take,))))
    swaps = i + 1
    t = with_deal(s, hands=tuple(hands), widow=tuple(widow))
    t = with_turn(t, swaps=swaps, moved=(*s.turn.moved, give),
                  fresh=s.turn.fresh + (give,) if opts.pounce else s.turn.fresh)
    t = logged(t, ev)
    if swaps >= 3 or len(widow) <= swaps:
        if swaps >= 3 and opts.exchange_all_three_locks:
            t = with_deal(t, locked=t.deal.locked | {seat})
        return end_blind(t, (ev,))
    return Transition(t, (ev,))


def blind_whole(s: WidowState, takes: tuple[Card, ...]) -> Transition:
    """The dealer takes the whole widow for his whole hand, unseen (Hoyle's old way: the
    dealer's whole-widow exchange, decision #21, ``all_or_nothing``); he exchanges no more."""
    seat = s.dealer
    hand = s.deal.hands[seat]
    hands = list(s.deal.hands)
    hands[seat] = tuple(takes)
    ev = Event("blind_exchanged", seat, (("gave", hand), ("took", tuple(takes))))
    returned = tuple(sorted(hand))
    t = with_deal(s, hands=tuple(hands), widow=returned, locked=s.deal.locked | {seat})
    fresh = s.turn.fresh + returned if WidowOptions.of(s.ruleset).pounce else s.turn.fresh
    t = logged(with_turn(t, swaps=3, fresh=fresh), ev)
    return end_blind(t, (ev,))


def blind_stop(s: WidowState, kind: str) -> Transition:
    """The dealer declines the blind exchange (``blind_passed``) or stops it
    (``blind_done``), and looks at his hand."""
    ev = Event(kind, s.dealer)
    return end_blind(logged(s, ev), (ev,))


def end_blind(s: WidowState, events: tuple[Event, ...]) -> Transition:
    """The dealer has looked at his hand: the widow's cards are offered for a pounce, then the
    eldest plays (decision #47: the blind exchange is an extra privilege; the dealer still
    takes his ordinary turn, last). The cards he gave stay ``moved`` until the first turn,
    so that he cannot pounce on them himself.

    Looking is an event only the dealer sees (``looked``): the cards of his hand he has not
    seen before, those he was dealt and kept (none after a whole-widow exchange)."""
    seat = s.dealer
    looked = Event("looked", seat, (("cards", s.deal.hands[seat][s.turn.swaps:]),),
                   frozenset({seat}))
    return turn_.proceed(with_turn(logged(s, looked), swaps=0, pos=-1, resume=Resume.FIRST),
                         (*events, looked))
