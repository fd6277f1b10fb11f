"""Payments: naturals, over-drawing, the dealer's settlement, the end of a hand and of a deal.

Every payment is an event ``paid`` (from ``seat`` to ``to``, ``amount`` counters, ``why``);
pool movements are ``pooled`` (into the pool) and ``pool_taken``.
"""

from __future__ import annotations

from dataclasses import replace

from commerce.core import Event, Outcome, Seat, Transition
from commerce.families.vingtun.deal import start_deal, start_hand
from commerce.families.vingtun.options import VingtUnOptions
from commerce.families.vingtun.state import (
    Hand,
    Phase,
    Status,
    Turn,
    VingtUnState,
    is_natural,
    total,
)


class Ledger:
    """Counters moving during one step: balances, the pool and the events saying so."""

    def __init__(self, s: VingtUnState) -> None:
        self.balances = list(s.session.balances)
        self.pool = s.session.pool
        self.events: list[Event] = []

    def pay(self, frm: Seat, to: Seat, amount: int, why: str) -> None:
        """*frm* pays *to* (nothing happens for nothing)."""
        if amount <= 0:
            return
        self.balances[frm] -= amount
        self.balances[to] += amount
        self.events.append(Event("paid", frm, (("to", to), ("amount", amount), ("why", why))))

    def to_pool(self, frm: Seat, amount: int, why: str) -> None:
        """*frm* puts *amount* in the pool."""
        if amount <= 0:
            return
        self.balances[frm] -= amount
        self.pool += amount
        self.events.append(Event("pooled", frm, (("amount", amount), ("why", why))))

    def session(self, s: VingtUnState) -> VingtUnState:
        """*s* with the new balances and pool."""
        return replace(s, session=replace(s.session, balances=tuple(self.balances),
                                          pool=self.pool))


def players_in_order(s: VingtUnState) -> list[Seat]:
    """The players from the dealer's left, the dealer excluded."""
    return [(s.dealer + s.step * i) % s.players for i in range(1, s.players)]


def factor(s: VingtUnState) -> int:
    """2 when the dealer called 'double', else 1."""
    return 2 if s.round.doubled else 1


def with_hand(s: VingtUnState, seat: Seat, part: int, hand: Hand) -> VingtUnState:
    """*s* with one hand of cards replaced."""
    hands = list(s.round.hands)
    own = list(hands[seat])
    own[part] = hand
    hands[seat] = tuple(own)
    return replace(s, round=replace(s.round, hands=tuple(hands)))


def advance(s: VingtUnState, events: tuple[Event, ...], *, start: bool = False) -> Transition:
    """The next hand to play: the actor's other half, then the next players in order; when no
    player's hand is open, the dealer plays if anyone stands, else the hand ends (Peel: "the
    dealer must settle with one player before he attends to the next")."""
    order = players_in_order(s)
    if not start:
        at = order.index(s.current.actor)
        order = order[at:]
    for seat in order:
        for part, hand in enumerate(s.round.hands[seat]):
            if hand.status is Status.OPEN and (start or seat != s.current.actor
                                               or part >= s.current.part):
                return Transition(replace(s, current=Turn(Phase.PLAY, seat, part)), events)
    standing = any(h.status is Status.CONTENT for p in players_in_order(s)
                   for h in s.round.hands[p])
    if standing:
        return Transition(replace(s, current=Turn(Phase.DEALER, s.dealer, 0)), events)
    return end_hand(s, events)


def declarations(s: VingtUnState, events: tuple[Event, ...],
                 after: Seat | None = None) -> Transition:
    """Before the drawing (``divide_when="before_drawing"``): each player from the dealer's
    left (after *after*) whose hand is still whole says whether he divides a pair, and a
    divided pair's halves get their second cards, before anyone draws (Peel, "Drawing": "two
    cards given to each player, and also to cases of divided pairs, the drawing of further
    cards commences"). Every such player is asked, pair or not, so that nobody learns who holds
    one; then the drawing begins at the dealer's left (decision #50)."""
    rules = s.ruleset
    opts = VingtUnOptions.of(rules)
    if opts.divide_when == "before_drawing" and opts.divide != "never":
        order = players_in_order(s)
        if after is not None:
            order = order[order.index(after) + 1:]
        for seat in order:
            own = s.round.hands[seat]
            if len(own) == 1 and own[0].status is Status.OPEN:
                return Transition(replace(s, current=Turn(Phase.DIVIDE, seat, 0)), events)
    return advance(s, events, start=True)


def resolve_naturals(s: VingtUnState, events: tuple[Event, ...]) -> Transition:
    """After the second card: the dealer's natural collects from every player but another
    natural (void); else each player's natural is paid at once and, but in the first hand of a
    deal, puts the dealer out (Peel, "A hand" step 4)."""
    led = Ledger(s)
    d = factor(s)
    rules = s.ruleset
    opts = VingtUnOptions.of(rules)
    dealer_cards = s.round.hands[s.dealer][0].cards
    out = list(events)
    if is_natural(dealer_cards):
        out.append(Event("natural", s.dealer, (("cards", dealer_cards),)))
        for p in players_in_order(s):
            h = s.round.hands[p][0]
            if is_natural(h.cards):
                out.append(Event("natural", p, (("cards", h.cards), ("void", True))))
                s = with_hand(s, p, 0, replace(h, up=(True, True), status=Status.VOID))
            else:
                led.pay(p, s.dealer, opts.natural_pays * h.stake * d, "natural")
                s = with_hand(s, p, 0, replace(h, status=Status.SETTLED))
        out += led.events
        return end_hand(led.session(s), tuple(out))
    naturals = [p for p in players_in_order(s) if is_natural(s.round.hands[p][0].cards)]
    excepted = opts.first_hand_natural_exception and s.session.hand_number == 1
    for p in naturals:
        h = s.round.hands[p][0]
        out.append(Event("natural", p, (("cards", h.cards), ("first_hand", excepted))))
        if excepted:
            led.pay(s.dealer, p, opts.drawn_21_pays * h.stake * d, "natural, first hand")
        else:
            led.pay(s.dealer, p, opts.natural_pays * h.stake * d, "natural")
            _privilege(s, led, p, naturals)
        s = with_hand(s, p, 0, replace(h, up=(True, True), status=Status.NATURAL))
    out += led.events
    s = led.session(s)
    if naturals and not excepted and opts.deal_limit == "natural":
        s = replace(s, round=replace(s.round, put_out=naturals[0]))
    return declarations(s, tuple(out))


def _privilege(s: VingtUnState, led: Ledger, p: Seat, naturals: list[Seat]) -> None:
    """The old privileges of a natural (Peel, "Additional privileges"): a stake or two from
    each other player (other naturals and the dealer exempt; ``privilege_stake``), or the pool
    (to the first natural or shared: ``pool_naturals``; decisions #51 and #52). A first-hand
    natural under the exception has none (decision #53)."""
    rules = s.ruleset
    opts = VingtUnOptions.of(rules)
    bonus = opts.natural_bonus
    if bonus in ("stake_from_each", "double_from_each"):
        times = 1 if bonus == "stake_from_each" else 2
        stake = s.round.hands[p][0].stake
        if opts.privilege_stake == "doubled":
            stake *= factor(s)
        for q in players_in_order(s):
            if q != p and q not in naturals:
                led.pay(q, p, times * stake, "privilege of a natural")
    elif bonus == "pool":
        amount = led.pool if opts.pool_naturals == "first" else s.session.pool // len(naturals)
        if amount:
            led.balances[p] += amount
            led.events.append(Event("pool_taken", p, (("amount", amount),)))
            led.pool -= amount


def over_drawn(s: VingtUnState, seat: Seat, part: int,
               events: tuple[Event, ...]) -> Transition:
    """A player over 21 pays at once and hands his cards to the pone (Peel, "Drawing")."""
    h = s.round.hands[seat][part]
    led = Ledger(s)
    led.pay(seat, s.dealer, h.stake * factor(s), "over-drawn")
    shown = Event("over", seat, (("cards", h.cards), ("total", total(h.cards))))
    s = with_hand(led.session(s), seat, part, replace(h, cards=(), up=(), status=Status.OVER))
    s = replace(s, round=replace(s.round, used=tuple(sorted((*s.round.used, *h.cards)))))
    return advance(s, (*events, shown, *led.events))


def dealer_over(s: VingtUnState, events: tuple[Event, ...]) -> Transition:
    """The dealer over-draws: he pays only those still standing (Peel, "A hand" step 6); pool
    feed (b)."""
    opts = VingtUnOptions.of(s.ruleset)
    led = Ledger(s)
    cards = s.round.hands[s.dealer][0].cards
    out = [*events, Event("over", s.dealer, (("cards", cards), ("total", total(cards))))]
    for p in players_in_order(s):
        for h in s.round.hands[p]:
            if h.status is Status.CONTENT:
                times = opts.drawn_21_pays if total(h.cards) == 21 else 1
                led.pay(s.dealer, p, h.stake * factor(s) * times, "dealer over-drawn")
    led.to_pool(s.dealer, opts.pool_dealer_overdraw, "dealer over-drawn")
    return end_hand(led.session(s), (*out, *led.events))


def dealer_content(s: VingtUnState, events: tuple[Event, ...]) -> Transition:
    """The dealer stands: he pays every higher total and takes lower totals and ties, a 21
    paying ``drawn_21_pays`` stakes (Peel, "A hand" step 6); pool feed (c): a share of his
    receipts on ties, of the hand's together (or of each tie's: ``pool_tie_share_of``;
    decision #54)."""
    opts = VingtUnOptions.of(s.ruleset)
    led = Ledger(s)
    mine = total(s.round.hands[s.dealer][0].cards)
    out = [*events, Event("content", s.dealer, (("dealer", True),))]
    share = {"none": 0, "quarter": 4, "third": 3}[opts.pool_tie_share]
    per_tie = opts.pool_tie_share_of == "tie"
    ties = 0
    for p in players_in_order(s):
        for h in s.round.hands[p]:
            if h.status is not Status.CONTENT:
                continue
            theirs = total(h.cards)
            if theirs > mine:
                times = opts.drawn_21_pays if theirs == 21 else 1
                led.pay(s.dealer, p, h.stake * factor(s) * times, f"{theirs} beats {mine}")
            else:
                times = opts.drawn_21_pays if mine == 21 else 1
                amount = h.stake * factor(s) * times
                led.pay(p, s.dealer, amount, "a tie" if theirs == mine else
                        f"{mine} beats {theirs}")
                if theirs == mine and share and per_tie:
                    led.to_pool(s.dealer, amount // share, "share of a tie")
                elif theirs == mine:
                    ties += amount
    if share and ties:
        led.to_pool(s.dealer, ties // share, "share of the ties")
    return end_hand(led.session(s), (*out, *led.events))


def end_hand(s: VingtUnState, events: tuple[Event, ...]) -> Transition:
    """Every hand shown, the cards to the pone; then the next hand, the next deal (a natural
    put the dealer out, or the deal's limit is reached) or the end of the session."""
    rules = s.ruleset
    opts = VingtUnOptions.of(rules)
    hands = tuple(tuple(h.cards for h in seat) for seat in s.round.hands)
    shown = Event("shown", s.dealer, (("hands", hands),
                                      ("totals", tuple(tuple(total(c) for c in seat)
                                                       for seat in hands))))
    out = (*events, shown)
    used = tuple(sorted((*s.round.used, *(c for seat in hands for h in seat for c in h))))
    won = tuple(w + (b > a) for w, b, a in zip(s.session.hands_won, s.session.balances,
                                                  s.session.hand_start, strict=True))
    session = replace(s.session, last_hand=tuple(e for e in out if e.visible_to is None),
                      hands_won=won)
    hand_no = session.hand_number
    ends = False
    nxt = (s.dealer + s.step) % s.players
    if s.round.put_out is not None:
        ends = True
        if opts.deal_passes_to == "natural":
            nxt = s.round.put_out
    if opts.deal_limit == "hands" and hand_no >= opts.deal_hands:
        ends = True
    if opts.deal_limit == "twice_through" and session.renewals >= 2:
        ends = True
    if opts.max_hands_per_deal and hand_no >= opts.max_hands_per_deal:
        ends = True
    if not ends:
        return start_hand(rules, s.players, session, s.round.stock, used, out)
    out += (Event("deal_ended", s.dealer, (("hands", hand_no), ("next", nxt))),)
    if session.deal_number < s.players * opts.deals_each:
        return start_deal(rules, s.players, session, nxt, out)
    return _end_session(replace(s, session=session,
                                round=replace(s.round, hands=((),) * s.players, used=used)),
                        out)


def _end_session(s: VingtUnState, events: tuple[Event, ...]) -> Transition:
    """The session ends: what is left in the pool is shared, the odd counters going to the
    players nearest the dealer's left."""
    balances = list(s.session.balances)
    pool = s.session.pool
    out = list(events)
    if pool:
        each, odd = divmod(pool, s.players)
        for i in range(s.players):
            seat = (s.dealer + s.step * (1 + i)) % s.players
            balances[seat] += each + (1 if i < odd else 0)
        out.append(Event("pool_shared", None, (("amount", pool),)))
    out.append(Event("session_ended", None, (("deals", s.session.deal_number),)))
    session = replace(s.session, balances=tuple(balances), pool=0,
                      last_hand=s.session.last_hand + tuple(out[len(events):]))
    state = replace(s, session=session, round=replace(s.round, log=s.round.log),
                    current=Turn(Phase.OVER, s.dealer, 0))
    return Transition(state, tuple(out))


def outcome(s: VingtUnState) -> Outcome | None:
    """Each seat's counters won or lost, once the session is over."""
    if s.phase is not Phase.OVER:
        return None
    return Outcome(payoffs=s.session.balances, reason="every deal played",
                   details={"deals": s.session.deal_number,
                            "hands_won": s.session.hands_won})
