"""The trading family's fast path: the rules of :mod:`.rules`, written for speed.

Whole-game loops (simulations, the search bot's playouts) step this module's :class:`FastState`,
a flat named tuple, instead of the reference state; :func:`to_reference` and
:func:`from_reference` convert, and ``tests/test_trading_fast_equals_reference.py`` steps both
side by side. What follows is the procedure it implements (the reference cites the sources):

A game is a session of deals. In each deal every player antes, three cards are dealt, and
from the eldest the players in turn stand, trade a card for ready money (to the bottom of the
stock, the top card back) or barter a card with a neighbour, until someone stands. The best
hand takes the pool; the dealer pays the winner; a beaten stander pays the better hands.

Chance enters only as ``deal`` actions: each names the next card taken from the unseen part of
the stock. Traded-in cards go to the bottom of the stock in a known order and come back up
without chance once the unseen cards are used up.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from functools import lru_cache
from typing import Any, Final, NamedTuple

from commerce.cards import Card, format_cards, pack, sample_cards
from commerce.core import (
    Action,
    ActionKind,
    Decision,
    DecisionKind,
    Event,
    Outcome,
    Seat,
    Transition,
)
from commerce.errors import IllegalActionError, IllegalReason
from commerce.families.trading.observe import TradingObservation
from commerce.families.trading.state import Deal, Phase, Session, TradingState, Turn
from commerce.hands import Category, evaluator_for
from commerce.rules import Ruleset


class FastState(NamedTuple):
    """A session of a trading-family game, between two actions.

    Immutable: a named tuple, because one is built on every action and a named tuple is about
    five times cheaper to build than a frozen dataclass. Never sent to a player: views come
    from :func:`observe`.
    """

    ruleset: Ruleset
    """The rules in force."""
    players: int
    """Number of seats."""
    balances: tuple[int, ...]
    """Each seat's net stakes over the session so far (the pool holds the rest)."""
    deals_won: tuple[int, ...]
    """Deals each seat has won."""
    dealer: Seat
    """The dealer of the current deal."""
    deal_number: int
    """Deals begun so far (1 during the first deal)."""
    hands: tuple[tuple[Card, ...], ...]
    """Each seat's cards."""
    unseen: tuple[Card, ...]
    """Cards of the stock nobody has seen, in card order (their order is chance's)."""
    bottom: tuple[Card, ...]
    """Traded-in cards under the unseen ones, top first."""
    pool: int
    """Stakes in the pool."""
    phase: Phase
    """Where the deal stands."""
    actor: Seat
    """The seat to act (the trader during DRAW; the partner during BARTER_REPLY)."""
    turn: Seat
    """Whose turn it is."""
    turns_taken: int
    """Turns begun this deal (a full round is ``players`` turns)."""
    to_deal: int
    """Cards still to deal in the initial deal."""
    offered: Card | None
    """The card offered in a pending barter."""
    log: tuple[Event, ...]
    """Events of the current deal (filtered by visibility before anyone sees them)."""
    last_deal: tuple[Event, ...]
    """The public events of the previous deal's showdown and settlement."""

    @property
    def step(self) -> int:
        """+1 when play goes to the left (increasing seats), -1 to the right."""
        return 1 if self.ruleset.direction == "left" else -1

    def replace(self, **changes: Any) -> FastState:
        """A copy with *changes*: ``_replace``, about twice as fast (the hot path of play)."""
        fields = list(self)
        for name, value in changes.items():
            fields[_INDEX[name]] = value
        return _new_tuple(FastState, fields)


STATE_TYPE: Final = FastState
# Enum members as module constants for the hot paths: ``Phase.TURN`` is a lookup through the
# enum class, several times slower than reading a global.
_P_DEAL, _P_TURN, _P_DRAW, _P_AFTER_TRADE, _P_BARTER_REPLY, _P_OVER = Phase
_K_DEAL: Final = ActionKind.DEAL
_K_STAND: Final = ActionKind.STAND
_K_TRADE: Final = ActionKind.TRADE
_K_BARTER: Final = ActionKind.BARTER
_K_GIVE: Final = ActionKind.GIVE
_K_DONE: Final = ActionKind.DONE
_C_NONE: Final = Category.NONE
_INDEX: Final = {name: i for i, name in enumerate(FastState._fields)}
# Builds a named tuple from a tuple of all its fields, without the Python-level call of the
# class's own constructor: the hot paths build states, events and transitions with it.
_new_tuple: Final = tuple.__new__
# Field positions, for the hot transitions that copy a state as a list and change a few
# fields in place (cheaper than ``replace`` with keywords, which builds a dict per call).
_BALANCES: Final = _INDEX["balances"]
_DEALS_WON: Final = _INDEX["deals_won"]
_HANDS: Final = _INDEX["hands"]
_UNSEEN: Final = _INDEX["unseen"]
_BOTTOM: Final = _INDEX["bottom"]
_POOL: Final = _INDEX["pool"]
_PHASE: Final = _INDEX["phase"]
_ACTOR: Final = _INDEX["actor"]
_TURN: Final = _INDEX["turn"]
_TURNS_TAKEN: Final = _INDEX["turns_taken"]
_TO_DEAL: Final = _INDEX["to_deal"]
_OFFERED: Final = _INDEX["offered"]
_LOG: Final = _INDEX["log"]

# Interned actions: legal_actions returns these, and bots choose among them.
_STAND: Final = Action(_K_STAND)
_DONE: Final = Action(_K_DONE)
_DEAL: Final = tuple(Action(_K_DEAL, (c,)) for c in range(52))
_TRADE: Final = tuple(Action(_K_TRADE, (c,)) for c in range(52))
_BARTER: Final = tuple(Action(_K_BARTER, (c,)) for c in range(52))
_GIVE: Final = tuple(Action(_K_GIVE, (c,)) for c in range(52))
_ONLY: Final = tuple(frozenset({s}) for s in range(12))
_PAIRS: Final = tuple(tuple(frozenset({a, b}) for b in range(12)) for a in range(12))
# Interned events that depend only on seats and cards (events are immutable values): the
# transitions pick them instead of building them on every action.
_STOOD: Final = tuple(Event("stood", seat) for seat in range(12))
_DREW: Final = tuple(tuple(Event("drew", seat, (("card", c),), _ONLY[seat]) for c in range(52))
                     for seat in range(12))
_TRADED_CARD: Final = tuple(
    tuple(Event("traded_card", seat, (("card", c),), _ONLY[seat]) for c in range(52))
    for seat in range(12)
)
_BARTER_OFFERED: Final = tuple(tuple(Event("barter_offered", seat, (("partner", p),))
                                     for p in range(12)) for seat in range(12))
_BARTERED: Final = tuple(tuple(Event("bartered", seat, (("partner", p),)) for p in range(12))
                         for seat in range(12))
_CHANCE: Final = Decision(None, DecisionKind.CHANCE)
_DECISIONS: Final = {
    (phase, seat): Decision(seat, kind)
    for phase, kind in (
        (_P_TURN, DecisionKind.TURN),
        (_P_AFTER_TRADE, DecisionKind.AFTER_TRADE),
        (_P_BARTER_REPLY, DecisionKind.BARTER_REPLY),
    )
    for seat in range(12)
}


def new_game(ruleset: Ruleset, players: int, dealer: Seat) -> FastState:
    """The session before the first deal: antes paid, nothing dealt."""
    return _start_deal(ruleset, players, [0] * players, (0,) * players, dealer, 1, ())


def _start_deal(rules: Ruleset, n: int, balances: list[int], deals_won: tuple[int, ...],
                dealer: Seat, deal_number: int, last_deal: tuple[Event, ...]) -> FastState:
    """Deal number *deal_number* before its cards: everyone antes (the dealer his own ante)
    into an empty pool; *balances* (changed in place) are the stakes before the antes."""
    ante = rules.ante
    for seat in range(n):
        balances[seat] -= ante
    balances[dealer] -= rules.dealer_ante - ante
    pool = ante * (n - 1) + rules.dealer_ante
    event = _new_tuple(Event, ("deal_started", dealer,
                               (("deal", deal_number), ("pool", pool)), None))
    return _new_tuple(FastState, (
        rules, n, tuple(balances), deals_won, dealer, deal_number, ((),) * n,
        pack(rules.pack), (), pool, _P_DEAL, dealer, dealer, 0, 3 * n, None, (event,),
        last_deal,
    ))


# -- queries -------------------------------------------------------------------------------


def decision(s: FastState) -> Decision | None:
    """Who must decide what."""
    phase = s.phase
    if phase is _P_DEAL or phase is _P_DRAW:
        return _CHANCE
    if phase is _P_OVER:
        return None
    return _DECISIONS[phase, s.actor]


_AFTER_TRADE_MENUS: Final = {True: (_STAND, _DONE), False: (_DONE,)}


def legal_actions(s: FastState) -> tuple[Action, ...]:
    """Legal actions in a fixed order: stand, trades, barters; chance cards in card order."""
    phase = s.phase
    if phase is _P_TURN:
        rules = s.ruleset
        actor = s.actor
        # keyed by the cards in card order, so the cache holds one entry per set of cards
        return _turn_menu(tuple(sorted(s.hands[actor])), _may_stand(s, actor),
                          actor != s.dealer or rules.dealer_may_trade, rules.may_barter)
    if phase is _P_DEAL or phase is _P_DRAW:
        return tuple(_DEAL[c] for c in s.unseen)
    if phase is _P_AFTER_TRADE:
        return _AFTER_TRADE_MENUS[_may_stand(s, s.actor)]
    if phase is _P_BARTER_REPLY:
        return _reply_menu(tuple(sorted(_barter_returns(s))), s.ruleset.barter_partner_may_stand)
    return ()


@lru_cache(maxsize=65_536)
def _reply_menu(cards: tuple[Card, ...], may_stand: bool) -> tuple[Action, ...]:
    """The answers to a barter: stand (where the rules allow), then each card to give back."""
    return ((_STAND,) if may_stand else ()) + tuple(_GIVE[c] for c in cards)


@lru_cache(maxsize=65_536)
def _turn_menu(cards: tuple[Card, ...], stand: bool, trade: bool,
               barter: bool) -> tuple[Action, ...]:
    """A turn's menu: stand, then a trade of each card, then a barter of each card."""
    out: list[Action] = [_STAND] if stand else []
    if trade:
        out.extend(_TRADE[c] for c in cards)
    if barter:
        out.extend(_BARTER[c] for c in cards)
    return tuple(out)


def _may_stand(s: FastState, seat: Seat) -> bool:
    if s.ruleset.stand_allowed == "any_time":
        return True
    ev = evaluator_for(s.ruleset)
    return ev.categories[ev.rank_of(s.hands[seat])] is not _C_NONE


def _barter_returns(s: FastState) -> tuple[Card, ...]:
    hand = s.hands[s.actor]
    if s.ruleset.barter_return_from_original_hand or s.offered is None:
        return hand
    return (*hand, s.offered)


def check(s: FastState, action: Action) -> None:
    """Raise :class:`IllegalActionError` with a reason unless *action* is legal."""
    phase = s.phase
    kind = action.kind
    if phase is _P_OVER:
        raise IllegalActionError(IllegalReason.GAME_OVER, "the game is over")
    if phase is _P_DEAL or phase is _P_DRAW:
        if kind is not _K_DEAL:
            raise IllegalActionError(
                IllegalReason.NOT_YOUR_TURN, "chance must act now (deal a card), not a player"
            )
        cards = action.cards
        limit = s.to_deal if phase is _P_DEAL else 1
        dealt = set(cards)
        if not 1 <= len(cards) <= limit or len(dealt) != len(cards):
            raise IllegalActionError(
                IllegalReason.CARD_NOT_AVAILABLE,
                f"deal between 1 and {limit} different card(s) now",
            )
        if not _as_set(s.unseen).issuperset(dealt):
            raise IllegalActionError(
                IllegalReason.CARD_NOT_AVAILABLE,
                "a dealt card must be one of the unseen cards of the stock",
            )
        return
    if kind is _K_DEAL:
        raise IllegalActionError(IllegalReason.WRONG_KIND, "no card is being dealt now")
    if action.cards and (kind is _K_STAND or kind is _K_DONE):
        raise IllegalActionError(IllegalReason.WRONG_KIND, f"{kind.value} names no card")
    seat = s.actor
    if (kind is _K_STAND or kind is _K_DONE) and action.cards:
        raise IllegalActionError(IllegalReason.WRONG_KIND, f"{kind.value} takes no card")
    if phase is _P_TURN:
        if kind is _K_STAND:
            if not _may_stand(s, seat):
                raise IllegalActionError(
                    IllegalReason.NOT_ALLOWED_BY_RULES,
                    "you may only stand (knock) holding a tricon, sequence or point",
                )
            return
        if kind is _K_TRADE or kind is _K_BARTER:
            _check_own_card(s, seat, action)
            if kind is _K_TRADE and seat == s.dealer and not s.ruleset.dealer_may_trade:
                raise IllegalActionError(
                    IllegalReason.NOT_ALLOWED_BY_RULES, "the dealer may not trade in these rules"
                )
            if kind is _K_BARTER and not s.ruleset.may_barter:
                raise IllegalActionError(
                    IllegalReason.NOT_ALLOWED_BY_RULES, "barter is not allowed in these rules"
                )
            return
        raise IllegalActionError(
            IllegalReason.WRONG_KIND,
            f"on your turn you may stand, trade or barter, not {kind.value}",
        )
    if phase is _P_AFTER_TRADE:
        if kind is _K_DONE:
            return
        if kind is _K_STAND:
            if not _may_stand(s, seat):
                raise IllegalActionError(
                    IllegalReason.NOT_ALLOWED_BY_RULES,
                    "you may only stand (knock) holding a tricon, sequence or point",
                )
            return
        raise IllegalActionError(
            IllegalReason.WRONG_KIND,
            "only one card may be traded or bartered a turn: stand or end your turn (done)",
        )
    # BARTER_REPLY
    if kind is _K_STAND:
        if not s.ruleset.barter_partner_may_stand:
            raise IllegalActionError(
                IllegalReason.NOT_ALLOWED_BY_RULES, "a barter may not be refused in these rules"
            )
        return
    if kind is _K_GIVE:
        if len(action.cards) != 1 or action.cards[0] not in _barter_returns(s):
            raise IllegalActionError(
                IllegalReason.CARD_NOT_HELD, "give back one of the cards of your own hand"
            )
        return
    raise IllegalActionError(
        IllegalReason.WRONG_KIND, "you were offered a barter: give a card back, or stand"
    )


def _check_own_card(s: FastState, seat: Seat, action: Action) -> None:
    if len(action.cards) != 1 or action.cards[0] not in s.hands[seat]:
        held = format_cards(sorted(s.hands[seat]))
        raise IllegalActionError(
            IllegalReason.CARD_NOT_HELD, f"name one of the cards you hold ({held})"
        )


# -- transitions ---------------------------------------------------------------------------


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


_PACK_SETS: Final = {id(pack(n)): frozenset(pack(n)) for n in (52, 32)}


def _as_set(unseen: tuple[Card, ...]) -> frozenset[Card] | set[Card]:
    """The unseen cards as a set; at the start of a deal (the whole pack) a shared one."""
    whole = _PACK_SETS.get(id(unseen))
    if whole is not None and len(whole) == len(unseen):
        return whole
    return set(unseen)


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


@lru_cache(maxsize=1024)
def _priority(dealer: Seat, n: int, step: int, dealer_first: bool) -> tuple[Seat, ...]:
    """Seats in priority order for complete ties: the eldest first, the dealer last (or
    first, when the dealer counts as eldest)."""
    seats = [(dealer + step * i) % n for i in range(1, n + 1)]
    if dealer_first:
        seats.insert(0, seats.pop())
    return tuple(seats)


def _showdown(s: FastState, stander: Seat | None, events: tuple[Event, ...]) -> Transition:
    rules = s.ruleset
    ev = evaluator_for(rules)
    table = ev.rank_table
    hands = s.hands
    ranks = [table[a][b][c] for a, b, c in hands]
    n = s.players
    dealer = s.dealer
    step = s.step
    tie_rule = rules.best_tie_rule
    order = _priority(dealer, n, step, tie_rule == "dealer_as_eldest")
    # A seat beats another with a higher rank, or an equal rank and earlier priority:
    # a stable sort by rank of the priority order.
    ranking = sorted(order, key=ranks.__getitem__, reverse=True)
    best_rank = ranks[ranking[0]]
    if tie_rule == "split_pool":
        winners = [seat for seat in ranking if ranks[seat] == best_rank]
    else:
        winners = ranking[:1]
    balances = list(s.balances)
    payments: list[Event] = []
    share, rest = divmod(s.pool, len(winners))
    for i, w in enumerate(winners):
        amount = share + (rest if i == 0 else 0)
        balances[w] += amount
        payments.append(_new_tuple(Event, ("paid", None, (("to", w), ("amount", amount),
                                                        ("why", "pool")), None)))
    fee = rules.dealer_pays_winner
    if fee:
        for w in winners:
            if w != dealer:
                balances[dealer] -= fee
                balances[w] += fee
                payments.append(Event("paid", dealer, (("to", w), ("amount", fee),
                                                      ("why", "from the dealer"))))
    if stander is not None and stander not in winners and rules.stander_penalty != "none":
        better = [winners[0]] if rules.stander_penalty == "best_hand_only" else (
            ranking[: ranking.index(stander)])
        if not rules.stander_pays_equal_hands:  # Peel: only the *better* hands are paid
            better = [seat for seat in better if ranks[seat] > ranks[stander]]
        for seat in better:
            balances[stander] -= 1
            balances[seat] += 1
            payments.append(Event("paid", stander, (("to", seat), ("amount", 1),
                                                   ("why", "beaten stander"))))
    names = ev.category_names
    shown = _new_tuple(Event, (
        "showdown",
        stander,
        (("hands", hands), ("categories", tuple(map(names.__getitem__, ranks))),
         ("winners", tuple(winners))),
        None,
    ))
    deals_won = list(s.deals_won)
    for w in winners:
        deals_won[w] += 1
    deal_number = s.deal_number
    last = deal_number >= n * rules.deals_each
    ended = _new_tuple(Event, ("deal_ended", None, (("deal", deal_number), ("last", last)), None))
    # Every event of the settlement is public: it is what the next deal's view shows.
    summary = (*events, shown, *payments, ended)
    if last:
        f = list(s)
        f[_BALANCES] = tuple(balances)
        f[_POOL] = 0
        f[_DEALS_WON] = tuple(deals_won)
        f[_LOG] = s.log + summary
        f[_PHASE] = _P_OVER
        return _new_tuple(Transition, (_new_tuple(FastState, f), summary))
    # The next deal begins at once: the deal passes on and everyone antes.
    nxt = _start_deal(rules, n, balances, tuple(deals_won), (dealer + step) % n,
                      deal_number + 1, summary)
    return _new_tuple(Transition, (nxt, (*summary, *nxt.log)))


def outcome(s: FastState) -> Outcome | None:
    """Each seat's net stakes once the session is over."""
    if s.phase is not _P_OVER:
        return None
    return Outcome(
        payoffs=s.balances,
        reason=f"every player has dealt {s.ruleset.deals_each} time(s)",
        details={"deals_won": s.deals_won, "deals": s.deal_number},
    )




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
