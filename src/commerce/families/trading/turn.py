"""A player's turn: stand, trade for ready money, or barter with a neighbour.

Peel (docs/rulesets/peel.md): from the eldest, each player in turn must do
exactly one of: stand; trade one card for ready money (it goes face down to the bottom of the
pack, he pays the dealer and takes the top card); barter one card with his neighbour, who must
give one back unless he stands at once. Only one card a turn. After his own trade or barter a
player may still stand (``stand_after_trade``; not in Trade and Barter, where the turn is one
action). Play goes "round and round" until someone stands (decision #46: a house limit of rounds).
"""

from __future__ import annotations

from commerce.cards import Card
from commerce.core import Decision, DecisionKind, Event, Seat, Transition, decision_of, evolve
from commerce.families.trading.deal import without
from commerce.families.trading.options import TradingOptions
from commerce.families.trading.settle import showdown
from commerce.families.trading.state import Deal, Phase, TradingState
from commerce.hands import Category, evaluator_for

_DECIDES: dict[Phase, DecisionKind] = {
    Phase.TURN: DecisionKind.TURN,
    Phase.AFTER_TRADE: DecisionKind.AFTER_TRADE,
    Phase.BARTER_REPLY: DecisionKind.BARTER_REPLY,
}


def decision(s: TradingState) -> Decision | None:
    """Who must decide what: chance while cards are dealt or drawn, the player to act during
    a turn, no one once the session is over."""
    phase = s.current.phase
    if phase is Phase.DEAL or phase is Phase.DRAW:
        return decision_of(None, DecisionKind.CHANCE)
    if phase is Phase.OVER:
        return None
    return decision_of(s.current.actor, _DECIDES[phase])


def may_stand(s: TradingState, seat: Seat) -> bool:
    """Whether *seat* may stand now: any time (Peel), or only holding a combination
    (``stand_allowed="with_combination"``: CatsAtCards, "knock" with a tricon, sequence or
    point)."""
    if TradingOptions.of(s.ruleset).stand_allowed == "any_time":
        return True
    return evaluator_for(s.ruleset).value(s.hands[seat]).category is not Category.NONE


def may_trade(s: TradingState, seat: Seat) -> bool:
    """Whether *seat* may trade for ready money: everyone, and the dealer where
    ``dealer_may_trade`` (Peel is silent; Hoyle: the banker trades free, decision #12)."""
    return seat != s.dealer or TradingOptions.of(s.ruleset).dealer_may_trade


def barter_partner(s: TradingState, seat: Seat) -> Seat:
    """The neighbour *seat* barters with: the left-hand one (Peel), the right (Hoyle; decision
    #16)."""
    step = 1 if TradingOptions.of(s.ruleset).barter_direction == "left" else -1
    return (seat + step) % s.players


def barter_returns(s: TradingState) -> tuple[Card, ...]:
    """The cards the partner may give back: "one of those in his hand" (Peel; decision #13),
    or with ``barter_return_from_original_hand`` off the offered card too."""
    hand = s.hands[s.actor]
    if TradingOptions.of(s.ruleset).barter_return_from_original_hand or s.offered is None:
        return hand
    return (*hand, s.offered)


def stand(s: TradingState) -> Transition:
    """The player to act stands: trading stops and every hand is shown (Peel, docs/rulesets/peel.md
    step 3)."""
    seat = s.actor
    return showdown(s, stander=seat, events=(Event("stood", seat),))


def trade(s: TradingState, card: Card) -> Transition:
    """Trade *card* for ready money: it goes face down to the bottom of the stock and the
    trader pays the price (Peel: one stake to the dealer personally; the dealer himself pays
    ``dealer_trade_cost`` into the pool, decision #12 and #17); then he draws the top card.

    The stock never runs out (decision #18): once the unseen cards are gone, the top card is
    the first card traded in, and no chance is involved.
    """
    rules = s.ruleset
    opts = TradingOptions.of(rules)
    seat = s.actor
    hands = list(s.hands)
    hands[seat] = tuple(c for c in hands[seat] if c != card)
    balances = list(s.balances)
    pool = s.pool
    if seat == s.dealer:
        cost = opts.dealer_trade_cost
        pool += cost
    else:
        cost = opts.trade_cost
        balances[s.dealer] += cost
    balances[seat] -= cost
    events = (Event("traded", seat, (("cost", cost),)),
              Event("traded_card", seat, (("card", card),), frozenset({seat})))
    session = evolve(s.session, balances=tuple(balances))
    bottom = (*s.bottom, card)
    if s.unseen:  # chance gives the top card (:func:`draw`)
        deal = evolve(s.deal, hands=tuple(hands), bottom=bottom, pool=pool, log=s.log + events)
        current = evolve(s.current, phase=Phase.DRAW)
        return Transition(evolve(s, session=session, deal=deal, current=current), events)
    deal = evolve(s.deal, hands=tuple(hands), bottom=bottom[1:], pool=pool)
    return _take(evolve(s, session=session), deal, bottom[0], events)


def draw(s: TradingState, card: Card) -> Transition:
    """The trader takes the top card of the stock, *card*, drawn by chance from the unseen
    cards (Peel, docs/rulesets/peel.md: "receive the top card of the pack"); only he sees
    it."""
    return _take(s, evolve(s.deal, unseen=without(s.unseen, (card,))), card, ())


def _take(s: TradingState, deal: Deal, card: Card, before: tuple[Event, ...]) -> Transition:
    """The trader adds *card* to his hand in *deal* (the deal as his trade or the draw left
    it); his turn goes on (:func:`after_own_action`)."""
    seat = s.actor
    hands = list(deal.hands)
    hands[seat] = (*hands[seat], card)
    drew = Event("drew", seat, (("card", card),), frozenset({seat}))
    return after_own_action(s, evolve(deal, hands=tuple(hands)), (*before, drew))


def offer_barter(s: TradingState, card: Card) -> Transition:
    """Offer *card* in barter to the neighbour (Peel, docs/rulesets/peel.md): everyone sees
    the offer, only the two players see the card. The neighbour answers (:func:`give_back`), or
    stands."""
    seat = s.actor
    partner = barter_partner(s, seat)
    events = (Event("barter_offered", seat, (("partner", partner),)),
              Event("barter_card", seat, (("card", card), ("partner", partner)),
                    frozenset({seat, partner})))
    return Transition(evolve(
        s,
        deal=evolve(s.deal, log=s.log + events),
        current=evolve(s.current, phase=Phase.BARTER_REPLY, actor=partner, offered=card),
    ), events)


def give_back(s: TradingState, card: Card) -> Transition:
    """The partner gives *card* back for the offered card: "he must exchange one of his cards
    for it" (Peel, docs/rulesets/peel.md; who chooses the card, decision #13). Handing back
    the offered card itself (where allowed) leaves both hands as they were."""
    offerer, partner, offered = s.turn, s.actor, s.offered
    assert offered is not None, "a barter is pending"
    hands = list(s.hands)
    hands[offerer] = tuple(card if c == offered else c for c in hands[offerer])
    if card in hands[partner]:
        hands[partner] = tuple(offered if c == card else c for c in hands[partner])
    events = (Event("bartered", offerer, (("partner", partner),)),
              Event("barter_returned", partner, (("card", card), ("offerer", offerer)),
                    frozenset({offerer, partner})))
    return after_own_action(s, evolve(s.deal, hands=tuple(hands)), events)


def after_own_action(s: TradingState, deal: Deal, events: tuple[Event, ...]) -> Transition:
    """After his trade or barter (*deal*: the deal as it left it, *events*: what it did) the
    player may stand or end his turn (Peel: "immediately after his own trade/barter in the
    same turn"); where a turn is one action (``stand_after_trade`` off: Trade and Barter)
    play moves on at once."""
    deal = evolve(deal, log=deal.log + events)
    if not TradingOptions.of(s.ruleset).stand_after_trade:
        return next_turn(evolve(s, deal=deal, current=evolve(s.current, offered=None)), events)
    current = evolve(s.current, phase=Phase.AFTER_TRADE, actor=s.turn, offered=None)
    return Transition(evolve(s, deal=deal, current=current), events)


def next_turn(s: TradingState, events: tuple[Event, ...]) -> Transition:
    """The turn passes to the next player, "round and round" (Peel); after
    ``max_rounds_per_deal`` full rounds the hands are shown with no stander (house rule,
    decision #46). *events* are this step's events, already in the deal's log."""
    limit = TradingOptions.of(s.ruleset).max_rounds_per_deal
    if limit and s.current.taken >= limit * s.players:
        shown = showdown(s, stander=None, events=(Event("round_limit", None,
                                                        (("rounds", limit),)),))
        return Transition(shown.state, (*events, *shown.events))
    seat = (s.turn + s.step) % s.players
    current = evolve(s.current, phase=Phase.TURN, actor=seat, seat=seat,
                     taken=s.current.taken + 1)
    return Transition(evolve(s, current=current), events)
