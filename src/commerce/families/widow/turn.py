"""The turns: exchanges with the widow, passing, knocking, standing, pouncing, and who plays
next (docs/rulesets/ for each widow game, decisions #22-#24, #27-#28, #46).

An exchange of several cards in one turn is a run of one-for-one ``exchange`` actions (give,
take) ended by ``done`` (or by reaching the turn's limit); a card moved in a turn cannot be
moved back in the same turn, so a run is exactly the simultaneous exchange the sources
describe.
"""

from __future__ import annotations

from bisect import insort

from commerce.cards import Card
from commerce.core import Event, Seat, Transition
from commerce.families.widow import settle
from commerce.families.widow.options import WidowOptions
from commerce.families.widow.state import (
    Phase,
    Resume,
    WidowState,
    logged,
    with_deal,
    with_turn,
)


def exchange(s: WidowState, seat: Seat, give: Card, take: Card) -> Transition:
    """One card of the hand for one of the widow (EB1911, CatsAtCards: one to three cards
    a turn, ``max_exchange_per_turn``, decision #22; Peel's Old Game: exactly one).

    Three cards exchanged lock the player out where ``exchange_all_three_locks`` says so
    (CatsAtCards). The card given may be pounced on by the holder of its tricon (decision #27); then
    the turn goes on, or ends, as it would have.
    """
    rules = s.ruleset
    opts = WidowOptions.of(rules)
    hands = list(s.deal.hands)
    hand = hands[seat]
    i = hand.index(give)
    hands[seat] = (*hand[:i], take, *hand[i + 1:])
    widow = [c for c in s.deal.widow if c != take]
    insort(widow, give)
    swaps = s.turn.swaps + 1
    ev = Event("exchanged", seat, (("gave", give), ("took", take)))
    locked = s.deal.locked
    if swaps >= 3 and opts.exchange_all_three_locks:
        locked = locked | {seat}
    t = with_deal(s, hands=tuple(hands), widow=tuple(widow), locked=locked)
    t = logged(with_turn(t, swaps=swaps, moved=(*s.turn.moved, give, take)), ev)
    more = swaps < opts.max_exchange_per_turn and swaps < 3 and len(widow) > swaps
    if opts.pounce:
        holder = pounce_holder(s, give, exclude=seat)
        if holder is not None:
            t = with_turn(t, phase=Phase.POUNCE, actor=holder, offer=give,
                          resume=Resume.MORE if more else Resume.NEXT)
            return Transition(t, (ev,))
    if more:
        return Transition(with_turn(t, phase=Phase.MORE), (ev,))
    return next_turn(t, (ev,))


def pass_(s: WidowState, seat: Seat) -> Transition:
    """The player exchanges nothing. In an ordinary turn a pass locks him out of the deal
    where ``pass_locks_out`` says so (Peel's Old Game and EB1911, decision #23)."""
    ev = Event("passed", seat)
    t = logged(s, ev)
    if s.turn.phase is Phase.TURN and WidowOptions.of(s.ruleset).pass_locks_out:
        t = with_deal(t, locked=s.deal.locked | {seat}, passed=s.deal.passed | {seat})
    return next_turn(t, (ev,))


def done(s: WidowState, seat: Seat) -> Transition:
    """The player ends his turn after exchanging fewer cards than he might."""
    ev = Event("done", seat)
    return next_turn(logged(s, ev), (ev,))


def final_turns(order: tuple[Seat, ...], seat: Seat, locked: frozenset[Seat]) -> tuple[Seat, ...]:
    """The seats after *seat*, in the order of play, that may still exchange."""
    i = order.index(seat)
    return tuple(x for x in order[i + 1:] + order[:i] if x not in locked)


def knock(s: WidowState, seat: Seat) -> Transition:
    """The player knocks: he exchanges no more, and every other player who still may has one
    final turn, then the hands are shown (CatsAtCards, EB1911: docs/rulesets/widow.md, decision
    #24)."""
    ev = Event("knocked", seat)
    t = with_deal(s, locked=s.deal.locked | {seat}, stood=s.deal.stood | {seat}, knocker=seat)
    t = with_turn(t, final=final_turns(s.deal.order, seat, s.deal.locked), in_final=True)
    return next_turn(logged(t, ev), (ev,))


def stand(s: WidowState, seat: Seat) -> Transition:
    """The player stands (Peel's Old Game, docs/rulesets/peel-old.md): he exchanges no more; once
    two have stood, the others who still may each have a final turn, then the hands are shown."""
    ev = Event("stood", seat)
    stood = s.deal.stood | {seat}
    locked = s.deal.locked | {seat}
    t = logged(with_deal(s, locked=locked, stood=stood), ev)
    if len(stood) >= 2:
        t = with_turn(t, final=final_turns(s.deal.order, seat, locked), in_final=True)
    return next_turn(t, (ev,))


def pounce_holder(s: WidowState, card: Card, exclude: Seat = -1) -> Seat | None:
    """The seat holding the other three cards of *card*'s rank, if it may pounce (decision #27,
    decision #29: only one seat can hold them).

    Nobody pounces on a card he has just put into the widow himself (*exclude*, or the
    player whose turn it is for a card moved this turn); a player who has passed or stood
    may pounce unless ``pounce_after_pass`` is off.
    """
    rank = card >> 2
    for seat in s.deal.order:
        hand = s.deal.hands[seat]
        if len(hand) == 3 and all(c >> 2 == rank for c in hand):
            if seat == exclude or (seat == s.turn.seat and card in s.turn.moved):
                return None
            if (not WidowOptions.of(s.ruleset).pounce_after_pass
                    and seat in s.deal.passed | s.deal.stood):
                return None
            return seat
    return None


def pounce(s: WidowState, seat: Seat, card: Card) -> Transition:
    """The player takes the fourth card of his tricon from the widow, even out of turn, and
    holds four cards (CatsAtCards, EB1911: docs/rulesets/pounce.md, decision #27); the four may not
    be broken up (decision #28). A new card from the stock replaces it (decision #28), then play
    resumes exactly where it was."""
    hands = list(s.deal.hands)
    hands[seat] = tuple(sorted((*hands[seat], card)))
    ev = Event("pounced", seat, (("card", card),))
    t = with_deal(s, hands=tuple(hands), widow=tuple(c for c in s.deal.widow if c != card),
                  pounced=s.deal.pounced | {seat})
    t = logged(with_turn(t, offer=None), ev)
    if s.deal.stock:
        return Transition(with_turn(t, phase=Phase.CARD), (ev,))
    return proceed(t, (ev,))


def decline_pounce(s: WidowState, seat: Seat) -> Transition:
    """The player lets the offer go; nobody else learns of it (the event is his alone)."""
    ev = Event("pounce_declined", seat, (("card", s.turn.offer),), frozenset({seat}))
    return proceed(logged(with_turn(s, offer=None), ev), (ev,))


def proceed(s: WidowState, events: tuple[Event, ...]) -> Transition:
    """Offer the cards that just reached the widow for a pounce, each in turn, at once
    (decision #27: resolved before the next player acts); then go on as ``resume`` says.

    *events* are already logged.
    """
    fresh = s.turn.fresh
    while fresh:
        card, fresh = fresh[0], fresh[1:]
        if card not in s.deal.widow:
            continue
        holder = pounce_holder(s, card)
        if holder is not None:
            t = with_turn(s, fresh=fresh, phase=Phase.POUNCE, actor=holder, offer=card)
            return Transition(t, events)
    t = with_turn(s, fresh=())
    if t.turn.resume is Resume.MORE:
        return Transition(with_turn(t, phase=Phase.MORE, actor=t.turn.seat), events)
    if t.turn.resume is Resume.FIRST:
        t = with_turn(t, pos=-1)
    return next_turn(t, events)


def next_turn(s: WidowState, events: tuple[Event, ...]) -> Transition:
    """Give the next turn, start a new round, or end the deal (*events* are logged).

    In the final turns, each seat listed plays once. Otherwise the next seat in the order of
    play that may still exchange has the turn; a new round may add a card from the stock to
    the widow (EB1911, ``add_widow_card_each_round``: decision #24). The deal ends when
    nobody may exchange, after as many rounds as players (EB1911, ``rounds_eq_players``,
    decision #24), or after ``max_rounds_per_deal`` rounds (a house rule for a deal that would never
    end, decision #46).
    """
    rules = s.ruleset
    opts = WidowOptions.of(rules)
    locked = s.deal.locked
    if s.turn.in_final:
        final = s.turn.final
        while final:
            seat, final = final[0], final[1:]
            if seat not in locked:
                t = with_turn(s, final=final, phase=Phase.FINAL, actor=seat, seat=seat,
                              swaps=0, moved=())
                return Transition(t, events)
        return settle.showdown(with_turn(s, final=()), events, ())
    order = s.deal.order
    if all(x in locked for x in order):
        return settle.showdown(s, events, ())
    n = len(order)
    pos = s.turn.pos + 1
    rnd = s.turn.round
    while True:
        if pos >= n:
            rnd += 1
            pos = 0
            if opts.end_condition == "rounds_eq_players" and rnd > n:
                return settle.showdown(s, events, ())
            limit = opts.max_rounds_per_deal
            if limit and rnd > limit:
                return settle.showdown(s, events, (Event("round_limit", None,
                                                         (("rounds", limit),)),))
            ev = Event("round_started", None, (("round", rnd),))
            events = (*events, ev)
            s = logged(s, ev)
            if opts.add_widow_card_each_round and s.deal.stock:
                t = with_turn(s, phase=Phase.CARD, round=rnd, pos=-1, resume=Resume.FIRST,
                              swaps=0, moved=())
                return Transition(t, events)
        seat = order[pos]
        if seat not in locked:
            t = with_turn(s, phase=Phase.TURN, actor=seat, seat=seat, pos=pos, round=rnd,
                          swaps=0, moved=())
            return Transition(t, events)
        pos += 1
