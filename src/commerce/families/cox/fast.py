"""The fast path of Cox's game: the same rules as the reference, written for speed.

The reference (:mod:`commerce.families.cox.rules` and the stage modules it names) reads like
the rules; this module plays exactly the same game on a flat :class:`FastCoxState` (one
NamedTuple, copied once per action, a mutable scratch copy inside a transition), for
simulations and the search bot's playouts. ``tests/test_cox_fast_equals_reference.py`` steps
both side by side; :func:`to_reference` and :func:`from_reference` convert states. Module
constants are immutable tables; nothing here keeps state between calls.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final, NamedTuple

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
from commerce.families.cox.cards import (
    CoxCard,
    face_card,
    format_cox_card,
    format_cox_cards,
    is_captain,
    is_greenback,
    is_wild,
    kind_of,
    pack,
    transport_suit,
)
from commerce.families.cox.observe import CoxObservation
from commerce.families.cox.scoring import (
    CoxScore,
    is_complete,
    may_complete_less_one,
    score_holding,
)
from commerce.families.cox.state import (
    BASE_SIZE,
    BLANK,
    DIRECTOR_NAMES,
    HAND_SIZE,
    RETAILER,
    WHOLESALER,
    CoxState,
    Deal,
    Phase,
    Session,
    Turn,
)
from commerce.family import FastPath
from commerce.rules import Ruleset

_DIRECTOR_NAMES: Final = DIRECTOR_NAMES


class FastCoxState(NamedTuple):
    """A game of Cox's Commerce between two actions, every field flat (see :mod:`.state`)."""

    ruleset: Ruleset
    """The rules in force."""
    players: int
    """Number of seats (2-4)."""
    director_dealer: Seat
    """Who deals the Directors cards (the first goes to his right)."""
    hand_number: int
    """The current hand, from 1."""
    totals: tuple[int, ...]
    """Each seat's score over the finished hands."""
    hand_scores: tuple[tuple[int, ...], ...]
    """Each finished hand's scores, by seat."""
    phase: Phase
    """Where the hand stands."""
    directors: tuple[int, ...]
    """Directors cards dealt so far this hand, in order."""
    wholesaler: Seat | None
    """Who holds the Wholesaler card (None until dealt)."""
    retailer: Seat | None
    """Who holds the Retailer card: Supply Base No. 1, the first player."""
    base_numbers: tuple[int | None, ...]
    """Each seat's Supply Base number (1-4), None until the Directors are dealt."""
    unseen: tuple[CoxCard, ...]
    """During the shuffle, the cards not yet placed in a base (card order)."""
    bases: tuple[tuple[CoxCard, ...], ...]
    """The four Supply Bases, top card first (hidden)."""
    current_base: int
    """Index (0-3) of the base drawn from."""
    racks: tuple[tuple[CoxCard, ...], ...]
    """Each seat's rack (hidden cards)."""
    laid: tuple[tuple[tuple[CoxCard, ...], ...], ...]
    """Each seat's laid-out combinations."""
    greenbacks: tuple[tuple[CoxCard, ...], ...]
    """Each seat's laid-out Greenbacks."""
    discards: tuple[CoxCard, ...]
    """The discard pile, oldest first."""
    live: CoxCard | None
    """The last discard while it may still be bought."""
    discarder: Seat | None
    """Who made the live discard."""
    turn: Seat
    """Whose turn it is."""
    actor: Seat
    """Who acts now (a seat offered the discard during OFFER)."""
    offer_queue: tuple[Seat, ...]
    """During OFFER: the seats still to be asked, the actor first."""
    pending_draw: bool
    """During OFFER: the turn player chose to draw once nobody buys."""
    bought: CoxCard | None
    """The card bought this turn (its face may not be discarded at once)."""
    must_sell_out: bool
    """The buyer bought only to complete his hand and must sell out now."""
    log: tuple[Event, ...]
    """Events of the current hand."""
    last_hand: tuple[Event, ...]
    """The public events of the previous hand's end."""

    @property
    def step(self) -> int:
        """+1 when play goes to the left (increasing seats), -1 to the right."""
        return 1 if self.ruleset.direction == "left" else -1


# Enum members as module constants for the hot paths: ``Phase.TURN`` is a lookup through the
# enum class, several times slower than reading a global.
_P_DIRECTORS: Final = Phase.DIRECTORS
_P_DISCARD: Final = Phase.DISCARD
_P_OFFER: Final = Phase.OFFER
_P_OVER: Final = Phase.OVER
_P_SHUFFLE: Final = Phase.SHUFFLE
_P_TURN: Final = Phase.TURN
_K_BUY: Final = ActionKind.BUY
_K_DEAL: Final = ActionKind.DEAL
_K_DECLINE: Final = ActionKind.DECLINE
_K_DISCARD: Final = ActionKind.DISCARD
_K_DRAW: Final = ActionKind.DRAW
_K_SELL_OUT: Final = ActionKind.SELL_OUT

_DRAW: Final = Action(_K_DRAW)
_BUY: Final = Action(_K_BUY)
_DECLINE: Final = Action(_K_DECLINE)
_DEAL: Final = tuple(Action(_K_DEAL, (c,)) for c in range(83))
_DISCARD: Final = tuple(Action(_K_DISCARD, (c,)) for c in range(80))
_SELL: Final = tuple(Action(_K_SELL_OUT, (c,)) for c in range(80))
_ONLY: Final = tuple(frozenset({s}) for s in range(4))
_CHANCE: Final = Decision(None, DecisionKind.CHANCE)
_DECISIONS: Final = {
    (phase, seat): Decision(seat, kind)
    for phase, kind in (
        (_P_TURN, DecisionKind.DRAW_OR_BUY),
        (_P_OFFER, DecisionKind.BUY_OFFER),
        (_P_DISCARD, DecisionKind.DISCARD),
    )
    for seat in range(4)
}


def new_game(ruleset: Ruleset, players: int, dealer: Seat) -> FastCoxState:
    """The game before the first hand: the Directors are to be dealt by *dealer*."""
    return _new_hand(
        FastCoxState(
            ruleset=ruleset, players=players, director_dealer=dealer, hand_number=0,
            totals=(0,) * players, hand_scores=(), phase=_P_DIRECTORS, directors=(),
            wholesaler=None, retailer=None, base_numbers=(None,) * players, unseen=(),
            bases=((),) * 4, current_base=0, racks=((),) * players, laid=((),) * players,
            greenbacks=((),) * players, discards=(), live=None, discarder=None, turn=dealer,
            actor=dealer, offer_queue=(), pending_draw=False, bought=None, must_sell_out=False,
            log=(), last_hand=(),
        ),
        (),
    )


def _new_hand(s: FastCoxState, last_hand: tuple[Event, ...]) -> FastCoxState:
    n = s.players
    number = s.hand_number + 1
    return s._replace(
        hand_number=number, phase=_P_DIRECTORS, directors=(), wholesaler=None,
        retailer=None, base_numbers=(None,) * n, unseen=pack(), bases=((),) * 4,
        current_base=0, racks=((),) * n, laid=((),) * n, greenbacks=((),) * n, discards=(),
        live=None, discarder=None, turn=s.director_dealer, actor=s.director_dealer,
        offer_queue=(), pending_draw=False, bought=None, must_sell_out=False,
        log=(Event("hand_started", None, (("hand", number),)),), last_hand=last_hand,
    )


# -- queries -------------------------------------------------------------------------------


def decision(s: FastCoxState) -> Decision | None:
    """Who must decide what: chance, a seat (draw or buy, buy offer, discard), or None."""
    phase = s.phase
    if phase is _P_DIRECTORS or phase is _P_SHUFFLE:
        return _CHANCE
    if phase is _P_OVER:
        return None
    return _DECISIONS[phase, s.actor]


def _directors_left(s: FastCoxState) -> Counter[int]:
    left = Counter({WHOLESALER: 1, RETAILER: 1, BLANK: 2 * s.players - 2})
    left.subtract(s.directors)
    return left


def _supply_empty(s: FastCoxState) -> bool:
    return not any(s.bases)


def legal_actions(s: FastCoxState) -> tuple[Action, ...]:
    """Legal actions in a fixed order.

    Chance: each director card or each card face still to be placed (one at a time). A seat:
    ``draw`` (or ``decline`` when the supply is empty) then ``buy``; ``buy``/``decline`` when
    offered a discard; ``discard`` each face in the rack, then ``sell_out`` each face whose
    discard leaves a complete hand.
    """
    phase = s.phase
    if phase is _P_TURN:
        head = (_DRAW,) if not _supply_empty(s) else (_DECLINE,)
        return head + ((_BUY,) if _buy_mode(s, s.actor) else ())
    if phase is _P_OFFER:
        return ((_BUY,) if _buy_mode(s, s.actor) else ()) + (_DECLINE,)
    if phase is _P_DISCARD:
        faces = _discardable(s)
        sells = tuple(_SELL[f] for f in faces if _completes(s, f)) \
            if may_complete_less_one(_holding(s, s.actor)) else ()
        if s.must_sell_out:
            return sells
        return tuple(_DISCARD[f] for f in faces) + sells
    if phase is _P_DIRECTORS:
        left = _directors_left(s)
        return tuple(_DEAL[d] for d in (WHOLESALER, RETAILER, BLANK) if left[d] > 0)
    if phase is _P_SHUFFLE:
        return tuple(_DEAL[f] for f in sorted({face_card(c) for c in s.unseen}))
    return ()


def _discardable(s: FastCoxState) -> tuple[CoxCard, ...]:
    faces = sorted({face_card(c) for c in s.racks[s.actor]})
    if s.bought is not None:
        kept = [f for f in faces if f != face_card(s.bought)]
        if kept:
            return tuple(kept)
    return tuple(faces)


def _holding(s: FastCoxState, seat: Seat) -> list[CoxCard]:
    """Rack and laid-out cards (Greenbacks aside): what a complete hand is made of."""
    return [*s.racks[seat], *(c for g in s.laid[seat] for c in g)]


def _without_face(cards: list[CoxCard], face: CoxCard) -> list[CoxCard]:
    out = list(cards)
    for i, c in enumerate(out):
        if face_card(c) == face:
            del out[i]
            break
    return out


def _completes(s: FastCoxState, face: CoxCard) -> bool:
    """Whether discarding *face* leaves the actor a complete hand."""
    held = _holding(s, s.actor)
    return is_complete(_without_face(held, face),
                       captain_can_be_fourth=s.ruleset.captain_can_be_fourth)


def _pair_kind(rack: tuple[CoxCard, ...], card: CoxCard) -> int | None:
    """The kind the rack holds two (natural) cards like *card* of, to buy it; None if none.

    For a Captain: a number of its suit held twice (the 5s first, then the highest).
    """
    if is_captain(card):
        counts = Counter(kind_of(c) for c in rack)
        suit = transport_suit(card)
        for k in range(suit * 5 + 4, suit * 5 - 1, -1):
            if counts[k] >= 2:
                return k
        return None
    k = kind_of(card)
    if 0 <= k < 18 and sum(1 for c in rack if kind_of(c) == k) >= 2:
        return k
    return None


def _buy_mode(s: FastCoxState, seat: Seat) -> str | None:
    """How *seat* may buy the live discard: 'pair' (two like it), 'sell_out' (it completes his
    hand at once: the waiting hand), or None."""
    card = s.live
    if card is None or seat == s.discarder:
        return None
    rules = s.ruleset
    empty = _supply_empty(s)
    if empty and rules.last_discard_buyable == "no":
        return None
    rack = s.racks[seat]
    if not (empty and rules.last_discard_buyable == "sell_out_only"):
        if _pair_kind(rack, card) is not None:
            return "pair"
    held = [*_holding(s, seat), card]
    if not may_complete_less_one(held):
        return None
    bought_face = face_card(card)
    for f in sorted({face_card(c) for c in rack}):
        if f != bought_face and is_complete(
            _without_face(held, f), captain_can_be_fourth=rules.captain_can_be_fourth
        ):
            return "sell_out"
    return None


def check(s: FastCoxState, action: Action) -> None:
    """Raise :class:`IllegalActionError` with a reason unless *action* is legal."""
    phase = s.phase
    kind = action.kind
    if phase is _P_OVER:
        raise IllegalActionError(IllegalReason.GAME_OVER, "the game is over")
    if phase is _P_DIRECTORS or phase is _P_SHUFFLE:
        if kind is not _K_DEAL:
            raise IllegalActionError(
                IllegalReason.NOT_YOUR_TURN, "chance must act now (deal), not a player"
            )
        _check_deal(s, action.cards)
        return
    if kind is _K_DEAL:
        raise IllegalActionError(IllegalReason.WRONG_KIND, "nothing is being dealt now")
    if phase is _P_TURN or phase is _P_OFFER:
        if action.cards:
            raise IllegalActionError(IllegalReason.WRONG_KIND, f"{kind.value} names no card")
        if kind is _K_BUY:
            if s.live is None:
                raise IllegalActionError(IllegalReason.CARD_NOT_AVAILABLE,
                                         "there is no discard to buy")
            if not _buy_mode(s, s.actor):
                raise IllegalActionError(
                    IllegalReason.NOT_ALLOWED_BY_RULES,
                    f"you may not buy {format_cox_card(s.live)}: you need two like it in your "
                    "rack, or it must complete your hand at once"
                    + (" (the supply is empty)" if _supply_empty(s) else ""),
                )
            return
        if phase is _P_TURN:
            if kind is _K_DRAW:
                if _supply_empty(s):
                    raise IllegalActionError(IllegalReason.CARD_NOT_AVAILABLE,
                                             "the supply is empty: buy or decline")
                return
            if kind is _K_DECLINE:
                if not _supply_empty(s):
                    raise IllegalActionError(IllegalReason.WRONG_KIND,
                                             "draw (or buy): you may not pass your turn")
                return
            raise IllegalActionError(IllegalReason.WRONG_KIND,
                                     f"on your turn draw or buy, not {kind.value}")
        if kind is _K_DECLINE:
            return
        raise IllegalActionError(IllegalReason.WRONG_KIND,
                                 f"you are offered the discard: buy or decline, not {kind.value}")
    # DISCARD
    if kind is not _K_DISCARD and kind is not _K_SELL_OUT:
        raise IllegalActionError(IllegalReason.WRONG_KIND,
                                 f"discard a card (or sell out), not {kind.value}")
    if len(action.cards) != 1 or not 0 <= action.cards[0] < 80:
        raise IllegalActionError(IllegalReason.CARD_NOT_HELD, f"{kind.value} names one card")
    card = action.cards[0]
    if face_card(card) != card:
        raise IllegalActionError(
            IllegalReason.CARD_NOT_HELD,
            f"copies are alike: name the card as {format_cox_card(card)} "
            f"(card {face_card(card)})",
        )
    faces = _discardable(s)
    if card not in faces:
        held = {face_card(c) for c in s.racks[s.actor]}
        if card in held:
            raise IllegalActionError(IllegalReason.NOT_ALLOWED_BY_RULES,
                                     "you may not discard the card you have just bought")
        raise IllegalActionError(
            IllegalReason.CARD_NOT_HELD,
            f"name a card in your rack ({format_cox_cards(sorted(s.racks[s.actor]))})",
        )
    if kind is _K_SELL_OUT:
        if not _completes(s, card):
            raise IllegalActionError(
                IllegalReason.NOT_ALLOWED_BY_RULES,
                f"discarding {format_cox_card(card)} does not leave a complete hand",
            )
    elif s.must_sell_out:
        raise IllegalActionError(
            IllegalReason.NOT_ALLOWED_BY_RULES,
            "you bought the discard to complete your hand: sell out",
        )


def _check_deal(s: FastCoxState, cards: tuple[int, ...]) -> None:
    if s.phase is _P_DIRECTORS:
        left = _directors_left(s)
        need = sum(left.values())
        if not 1 <= len(cards) <= need:
            raise IllegalActionError(IllegalReason.CARD_NOT_AVAILABLE,
                                     f"deal 1 to {need} Directors cards (W, R, X) now")
        for d, n in Counter(cards).items():
            if d not in _DIRECTOR_NAMES or n > left[d]:
                raise IllegalActionError(
                    IllegalReason.CARD_NOT_AVAILABLE,
                    "deal Directors cards still undealt: W (Wholesaler), R (Retailer), X (blank)",
                )
        return
    if not 1 <= len(cards) <= len(s.unseen):
        raise IllegalActionError(IllegalReason.CARD_NOT_AVAILABLE,
                                 f"place 1 to {len(s.unseen)} cards in the supply now")
    left = Counter(face_card(c) for c in s.unseen)
    for c, n in Counter(cards).items():
        if not 0 <= c < 80 or face_card(c) != c or n > left[c]:
            raise IllegalActionError(
                IllegalReason.CARD_NOT_AVAILABLE,
                "name cards by face (first copy), each no more often than it is left unplaced",
            )


# -- transitions ---------------------------------------------------------------------------


class _Work:
    """A mutable scratch copy of the parts of a state one action changes (never escapes)."""

    def __init__(self, s: FastCoxState) -> None:
        self.s = s
        self.racks = [list(r) for r in s.racks]
        self.laid = [list(g) for g in s.laid]
        self.greenbacks = [list(g) for g in s.greenbacks]
        self.bases = [list(b) for b in s.bases]
        self.current_base = s.current_base
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def take_replacement(self, seat: Seat) -> None:
        """Draw a replacement from the bottom of Base 4 (or the fallback) into *seat*'s rack."""
        index = 3
        if not self.bases[3]:
            if self.s.ruleset.replacement_fallback == "skip":
                index = -1
            else:
                index = max((i for i in range(4) if self.bases[i]), default=-1)
        if index < 0:
            self.emit(Event("no_replacement", seat))
            return
        card = self.bases[index].pop()
        self.racks[seat].append(card)
        self.emit(Event("replaced", seat, (("base", index + 1),)))
        self.emit(Event("replacement", seat, (("card", face_card(card)),), _ONLY[seat]))

    def settle(self, seat: Seat) -> None:
        """Lay out Greenbacks, threes and fourths as the rules require, with replacements."""
        rack = self.racks[seat]
        cap4 = self.s.ruleset.captain_can_be_fourth
        while True:
            gbs = [c for c in rack if is_greenback(c)]
            if gbs:
                for c in gbs:
                    rack.remove(c)
                    self.greenbacks[seat].append(c)
                    self.emit(Event("greenback_laid", seat, (("card", face_card(c)),)))
                for _ in gbs:
                    self.take_replacement(seat)
                continue
            if self._lay_fourth(seat, cap4):
                continue
            counts = Counter(kind_of(c) for c in rack)
            three = next((k for k in sorted(counts) if 0 <= k < 18 and counts[k] >= 3), None)
            if three is None:
                return
            group = tuple(sorted(c for c in rack if kind_of(c) == three)[:3])
            for c in group:
                rack.remove(c)
            self.laid[seat].append(group)
            self.emit(Event("laid_out", seat, (("cards", _faces(group)),)))

    def _lay_fourth(self, seat: Seat, cap4: bool) -> bool:
        rack = self.racks[seat]
        for gi, group in enumerate(self.laid[seat]):
            if len(group) != 3:
                continue
            naturals = [c for c in group if not is_wild(c)]
            if len(naturals) < 3 and not cap4:
                continue
            k = kind_of(naturals[0])
            card = next((c for c in rack if kind_of(c) == k), None)
            if card is None:
                continue
            rack.remove(card)
            self.laid[seat][gi] = (*group, card)
            self.emit(Event("fourth_laid", seat, (("card", face_card(card)),)))
            self.take_replacement(seat)
            return True
        return False

    def draw(self, seat: Seat) -> None:
        while self.current_base < 4 and not self.bases[self.current_base]:
            self.current_base += 1
        card = self.bases[self.current_base].pop(0)
        self.racks[seat].append(card)
        self.emit(Event("drew", seat, (("base", self.current_base + 1),)))
        self.emit(Event("drew_card", seat, (("card", face_card(card)),), _ONLY[seat]))
        self.settle(seat)

    def state(self, **changes: Any) -> FastCoxState:
        events = tuple(self.events)
        return self.s._replace(
            racks=tuple(tuple(r) for r in self.racks),
            laid=tuple(tuple(g) for g in self.laid),
            greenbacks=tuple(tuple(g) for g in self.greenbacks),
            bases=tuple(tuple(b) for b in self.bases),
            current_base=self.current_base,
            log=self.s.log + events,
            **changes,
        )


def apply(s: FastCoxState, action: Action) -> Transition:
    """Check *action*, then apply it (what :func:`commerce.engine.apply` calls).

    :raises IllegalActionError: with the reason, if *action* is not legal in *s*.
    """
    check(s, action)
    return apply_unchecked(s, action)


def apply_unchecked(s: FastCoxState, action: Action) -> Transition:
    """Apply an action already known to be legal (the public path checks first)."""
    kind = action.kind
    if kind is _K_DEAL:
        if s.phase is _P_DIRECTORS:
            return _deal_directors(s, action.cards)
        return _place(s, action.cards)
    w = _Work(s)
    seat = s.actor
    if kind is _K_BUY:
        return _buy(w, seat)
    if kind is _K_DRAW or kind is _K_DECLINE:
        if s.phase is _P_TURN:
            if s.live is not None:
                w.emit(Event("declined", seat, (("card", face_card(s.live)),), _ONLY[seat]))
            return _after_turn_choice(w, pending_draw=kind is _K_DRAW)
        assert s.live is not None
        w.emit(Event("declined", seat, (("card", face_card(s.live)),), _ONLY[seat]))
        queue = s.offer_queue[1:]
        if queue:
            return _finish(w, actor=queue[0], offer_queue=queue)
        return _resolve_offers(w, s.pending_draw)
    # DISCARD or SELL_OUT
    face = action.cards[0]
    rack = w.racks[seat]
    card = min(c for c in rack if face_card(c) == face)
    rack.remove(card)
    discards = (*s.discards, card)
    if kind is _K_SELL_OUT:
        w.emit(Event("sold_out", seat, (("card", face_card(card)),)))
        return _end_hand(w, discards=discards, reason="sold_out", seller=seat)
    w.emit(Event("discarded", seat, (("card", face_card(card)),)))
    nxt = (seat + s.step) % s.players
    return _begin_turn(w, nxt, live=card, discarder=seat, discards=discards)


def _finish(w: _Work, **changes: Any) -> Transition:
    state = w.state(**changes)
    return Transition(state, tuple(w.events))


def _deal_directors(s: FastCoxState, cards: tuple[int, ...]) -> Transition:
    n = s.players
    events = []
    directors = s.directors
    for d in cards:
        seat = (s.director_dealer + s.step * (len(directors) + 1)) % n
        directors = (*directors, d)
        events.append(Event("director", seat, (("director", _DIRECTOR_NAMES[d]),)))
    if len(directors) < 2 * n:
        evs = tuple(events)
        return Transition(s._replace(directors=directors, log=s.log + evs), evs)
    seats = [(s.director_dealer + s.step * (i + 1)) % n for i in range(2 * n)]
    wholesaler = seats[directors.index(WHOLESALER)]
    retailer = seats[directors.index(RETAILER)]
    numbers: list[int | None] = [None] * n
    offsets = {4: (1, 2, 3, 4), 3: (1, 2, 3), 2: (1, 3)}[n]
    for i, number in enumerate(offsets):
        numbers[(retailer + s.step * i) % n] = number
    events.append(Event("directors_dealt", retailer, (
        ("wholesaler", wholesaler), ("retailer", retailer), ("base_numbers", tuple(numbers)))))
    evs = tuple(events)
    state = s._replace(directors=directors, wholesaler=wholesaler, retailer=retailer,
                       base_numbers=tuple(numbers), phase=_P_SHUFFLE, unseen=pack(),
                       log=s.log + evs)
    return Transition(state, evs)


def _place(s: FastCoxState, faces: tuple[int, ...]) -> Transition:
    unseen = list(s.unseen)
    placed = [c for b in s.bases for c in b]
    for f in faces:
        card = next(c for c in unseen if face_card(c) == f)
        unseen.remove(card)
        placed.append(card)
    if unseen:
        bases = tuple(tuple(placed[i * BASE_SIZE:(i + 1) * BASE_SIZE]) for i in range(4))
        return Transition(s._replace(unseen=tuple(unseen), bases=bases), ())
    bases = tuple(tuple(placed[i * BASE_SIZE:(i + 1) * BASE_SIZE]) for i in range(4))
    w = _Work(s._replace(unseen=(), bases=bases))
    w.emit(Event("supply_formed", s.wholesaler, (("bases", (BASE_SIZE,) * 4),)))
    retailer = s.retailer
    assert retailer is not None
    n = s.players
    order = [(retailer + s.step * (i + 1)) % n for i in range(n)]  # the Retailer last
    base = 0
    for _ in range(HAND_SIZE):
        for seat in order:
            while not w.bases[base]:
                base += 1
            w.racks[seat].append(w.bases[base].pop(0))
    w.current_base = base if w.bases[base] else base + 1
    w.emit(Event("dealt", retailer, (("cards_each", HAND_SIZE),)))
    for seat in order:
        w.emit(Event("dealt_cards", seat, (("cards", _faces(w.racks[seat])),), _ONLY[seat]))
    for i in range(n):
        w.settle((retailer + s.step * i) % n)
    return _begin_turn(w, retailer, live=None, discarder=None, discards=())


def _begin_turn(w: _Work, seat: Seat, *, live: CoxCard | None, discarder: Seat | None,
                discards: tuple[CoxCard, ...]) -> Transition:
    s = w.s
    empty = not any(w.bases)
    if empty and (live is None or s.ruleset.last_discard_buyable == "no"):
        w.emit(Event("supply_exhausted", seat))
        return _end_hand(w, discards=discards, reason="supply_exhausted", seller=None)
    state = w.state(phase=_P_TURN, turn=seat, actor=seat, live=live, discarder=discarder,
                    discards=discards, offer_queue=(), pending_draw=False, bought=None,
                    must_sell_out=False)
    if empty and s.ruleset.buy_offers == "eligible_only" and not any(
        _buy_mode(state, other) for other in range(s.players)
    ):
        w.emit(Event("supply_exhausted", seat))
        return _end_hand(w, discards=discards, reason="supply_exhausted", seller=None)
    return Transition(state, tuple(w.events))


def _after_turn_choice(w: _Work, *, pending_draw: bool) -> Transition:
    """The turn player drew (once nobody farther buys) or declined: ask the others in order."""
    s = w.s
    queue: list[Seat] = []
    if s.live is not None:
        seat = (s.turn + s.step) % s.players
        while seat != s.discarder:
            queue.append(seat)
            seat = (seat + s.step) % s.players
        if s.ruleset.buy_offers == "eligible_only":
            queue = [q for q in queue if _buy_mode(s, q)]
    if queue:
        return _finish(w, phase=_P_OFFER, actor=queue[0], offer_queue=tuple(queue),
                       pending_draw=pending_draw)
    return _resolve_offers(w, pending_draw)


def _resolve_offers(w: _Work, pending_draw: bool) -> Transition:
    """Nobody bought: the turn player draws, or (supply empty) the hand ends."""
    s = w.s
    if not pending_draw:
        w.emit(Event("supply_exhausted", s.turn))
        return _end_hand(w, discards=s.discards, reason="supply_exhausted", seller=None)
    return _draw_turn(w, s.turn)


def _draw_turn(w: _Work, seat: Seat) -> Transition:
    w.draw(seat)
    return _after_gain(w, seat, bought=None, must_sell_out=False)


def _after_gain(w: _Work, seat: Seat, *, bought: CoxCard | None,
                must_sell_out: bool) -> Transition:
    s = w.s
    size = len(w.racks[seat]) + sum(len(g) for g in w.laid[seat])
    quota = HAND_SIZE + sum(1 for g in w.laid[seat] if len(g) == 4)
    if size > quota and w.racks[seat]:
        return _finish(w, phase=_P_DISCARD, turn=seat, actor=seat, live=None,
                       discarder=None, offer_queue=(), pending_draw=False, bought=bought,
                       must_sell_out=must_sell_out)
    w.emit(Event("no_discard", seat))
    return _begin_turn(w, (seat + s.step) % s.players, live=None, discarder=None,
                       discards=s.discards)


def _buy(w: _Work, seat: Seat) -> Transition:
    s = w.s
    card = s.live
    assert card is not None and s.discarder is not None
    mode = _buy_mode(s, seat)
    lost = []
    other = (s.discarder + s.step) % s.players
    while other != seat:
        lost.append(other)
        other = (other + s.step) % s.players
    w.emit(Event("bought", seat, (("card", face_card(card)), ("from", s.discarder),
                                  ("lost_turns", tuple(lost)))))
    rack = w.racks[seat]
    kind = _pair_kind(s.racks[seat], card) if mode == "pair" else None
    if kind is not None and is_captain(card):
        group = (*sorted(c for c in rack if kind_of(c) == kind)[:2], card)
        for c in group[:2]:
            rack.remove(c)
        w.laid[seat].append(group)
        w.emit(Event("laid_out", seat, (("cards", _faces(group)),)))
    else:
        rack.append(card)
    w.settle(seat)
    discards = s.discards[:-1]
    w.s = s._replace(discards=discards, live=None)
    return _after_gain(w, seat, bought=card, must_sell_out=mode == "sell_out")


def _end_hand(w: _Work, *, discards: tuple[CoxCard, ...], reason: str,
              seller: Seat | None) -> Transition:
    s = w.s
    rules = s.ruleset
    scores: list[CoxScore] = []
    for seat in range(s.players):
        held = [*w.racks[seat], *(c for g in w.laid[seat] for c in g), *w.greenbacks[seat]]
        scores.append(score_holding(
            held, s.base_numbers[seat],
            captain_can_be_fourth=rules.captain_can_be_fourth,
            bank_double_order=rules.bank_double_order,
            bank_counts_for_clear_hand=rules.bank_counts_for_clear_hand,
        ))
    points = tuple(sc.score for sc in scores)
    totals = tuple(t + p for t, p in zip(s.totals, points, strict=True))
    hand_scores = (*s.hand_scores, points)
    last = s.hand_number >= rules.hands_per_game
    w.emit(Event("hand_scored", seller, (
        ("hand", s.hand_number),
        ("reason", reason),
        ("racks", tuple(_faces(sorted(r)) for r in w.racks)),
        ("scores", points),
        ("breakdowns", tuple(sc.to_dict() for sc in scores)),
        ("totals", totals),
        ("last", last),
    )))
    if last:
        best = max(totals)
        winners = tuple(i for i, t in enumerate(totals) if t == best)
        w.emit(Event("game_over", None, (("totals", totals), ("winners", winners))))
    summary = tuple(e for e in w.events if e.visible_to is None and e.kind in (
        "sold_out", "supply_exhausted", "hand_scored", "game_over"))
    ended = w.state(phase=_P_OVER, discards=discards, live=None, discarder=None,
                    offer_queue=(), pending_draw=False, bought=None, must_sell_out=False,
                    totals=totals, hand_scores=hand_scores)
    if last:
        return Transition(ended, tuple(w.events))
    nxt = _new_hand(ended, summary)
    return Transition(nxt, (*w.events, *nxt.log))


def sample_chance(s: FastCoxState, rng: random.Random) -> Action:
    """Chance's next action drawn with *rng*: all the Directors, or the whole supply in order.

    The supply is named by faces, copies numbered in order of appearance; a multi-card ``deal``
    is the same as placing its cards one at a time.
    """
    if s.phase is _P_DIRECTORS:
        left = list(_directors_left(s).elements())
        rng.shuffle(left)
        return Action(_K_DEAL, tuple(left))
    faces = [face_card(c) for c in s.unseen]
    rng.shuffle(faces)
    return Action(_K_DEAL, tuple(faces))


def outcome(s: FastCoxState) -> Outcome | None:
    """Each seat's total score over the hands, once the game is over."""
    if s.phase is not _P_OVER:
        return None
    best = max(s.totals)
    return Outcome(
        payoffs=s.totals,
        reason=f"{s.ruleset.hands_per_game} hand(s) played",
        details={
            "net": s.totals,
            "hand_scores": s.hand_scores,
            "winners": tuple(i for i, t in enumerate(s.totals) if t == best),
            "hands": s.hand_number,
            "hands_won": tuple(
                sum(1 for scores in s.hand_scores if scores[i] == max(scores))
                for i in range(s.players)
            ),
        },
    )


# -- views ---------------------------------------------------------------------------------


def _faces(cards: Sequence[CoxCard]) -> tuple[CoxCard, ...]:
    """*cards* by face: what an event may say of them (copies are alike)."""
    return tuple(face_card(c) for c in cards)


_FACE: Final = tuple(face_card(c) for c in range(80))
_face: Final = _FACE.__getitem__


def _renumber(cards: Sequence[CoxCard], used: list[int]) -> tuple[CoxCard, ...]:
    """:meth:`Copies.place` for the fast path: only transport cards have copies."""
    out = []
    for c in cards:
        if c < 60:
            f = c - c % 4
            out.append(f + used[f])
            used[f] += 1
        else:
            out.append(c)
    return tuple(out)


def _view(s: FastCoxState, seat: Seat | None, everything: bool) -> CoxObservation:
    n = s.players
    seats = [(s.director_dealer + s.step * (i + 1)) % n for i in range(len(s.directors))]
    current = s.current_base
    while current < 4 and not s.bases[current]:
        current += 1
    used = [0] * 60
    discards = _renumber(s.discards, used)
    laid = tuple(tuple(_renumber(g, used) for g in groups) for groups in s.laid)
    greenbacks = s.greenbacks  # Greenbacks have no copies.
    racks = tuple(_renumber(sorted(r, key=_face), used) if (everything or i == seat) else None
                  for i, r in enumerate(s.racks))
    d = decision(s)
    if s.phase is _P_OFFER and not everything and seat != s.actor:
        # A buy offer is made to one seat alone: every other seat sees the turn as it stood.
        d = _DECISIONS[_P_TURN, s.turn]
    return CoxObservation(
        seat=seat,
        ruleset=s.ruleset,
        players=n,
        hand_number=s.hand_number,
        hands_total=s.ruleset.hands_per_game,
        decision=d,
        turn=s.turn,
        wholesaler=s.wholesaler,
        retailer=s.retailer,
        directors=tuple((seats[i], _DIRECTOR_NAMES[x]) for i, x in enumerate(s.directors)),
        base_numbers=s.base_numbers,
        rack=(racks[seat] or ()) if seat is not None else (),
        racks=racks,
        rack_sizes=tuple(len(r) for r in s.racks),
        laid=laid,
        greenbacks=greenbacks,
        discards=discards,
        live=discards[-1] if s.live is not None else None,
        discarder=s.discarder if s.live is not None else None,
        supply=tuple(len(b) for b in s.bases) if s.phase is not _P_SHUFFLE else (0,) * 4,
        current_base=current + 1,
        totals=s.totals,
        hand_scores=s.hand_scores,
        events=s.log if everything else tuple(e for e in s.log if e.visible(seat)),
        last_hand=s.last_hand,
        over=s.phase is _P_OVER,
    )


class HeuristicView(NamedTuple):
    """What the heuristic reads of an observation (:func:`heuristic_view`)."""

    seat: Seat
    ruleset: Ruleset
    rack: tuple[CoxCard, ...]
    laid: tuple[tuple[tuple[CoxCard, ...], ...], ...]
    greenbacks: tuple[tuple[CoxCard, ...], ...]
    base_numbers: tuple[int | None, ...]
    discards: tuple[CoxCard, ...]
    live: CoxCard | None


def heuristic_view(s: FastCoxState, seat: Seat) -> HeuristicView:
    """The fields of ``observe(s, seat)`` that the heuristic reads, each equal to the
    observation's (``tests/test_cox_search.py`` checks it), built without the rest."""
    used = [0] * 60
    discards = _renumber(s.discards, used)
    laid = tuple(tuple(_renumber(g, used) for g in groups) for groups in s.laid)
    rack = _renumber(sorted(s.racks[seat], key=_face), used)
    return HeuristicView(seat, s.ruleset, rack, laid, s.greenbacks, s.base_numbers, discards,
                         discards[-1] if s.live is not None else None)


def observe(s: FastCoxState, seat: Seat | None) -> CoxObservation:
    """The view of *seat*: its rack, everything laid out, the discards, the supply sizes."""
    return _view(s, seat, everything=False)


def reveal_all(s: FastCoxState) -> CoxObservation:
    """Every rack and event visible: for reviewing a finished or saved game (not the supply)."""
    return _view(s, None, everything=True)




# -- the reference state -------------------------------------------------------------------


def to_reference(f: FastCoxState) -> CoxState:
    """The reference state this fast state stands for."""
    return CoxState(
        ruleset=f.ruleset,
        players=f.players,
        session=Session(director_dealer=f.director_dealer, hand_number=f.hand_number,
                        totals=f.totals, hand_scores=f.hand_scores, last_hand=f.last_hand),
        deal=Deal(directors=f.directors, wholesaler=f.wholesaler, retailer=f.retailer,
                  base_numbers=f.base_numbers, unseen=f.unseen, bases=f.bases,
                  current_base=f.current_base, racks=f.racks, laid=f.laid,
                  greenbacks=f.greenbacks, discards=f.discards, log=f.log),
        turn=Turn(phase=f.phase, player=f.turn, actor=f.actor, live=f.live,
                  discarder=f.discarder, offer_queue=f.offer_queue,
                  pending_draw=f.pending_draw, bought=f.bought,
                  must_sell_out=f.must_sell_out),
    )


def from_reference(s: CoxState) -> FastCoxState:
    """The fast state standing for the reference state *s*."""
    session, deal, turn = s.session, s.deal, s.turn
    return FastCoxState(
        ruleset=s.ruleset, players=s.players, director_dealer=session.director_dealer,
        hand_number=session.hand_number, totals=session.totals,
        hand_scores=session.hand_scores, phase=turn.phase, directors=deal.directors,
        wholesaler=deal.wholesaler, retailer=deal.retailer, base_numbers=deal.base_numbers,
        unseen=deal.unseen, bases=deal.bases, current_base=deal.current_base, racks=deal.racks,
        laid=deal.laid, greenbacks=deal.greenbacks, discards=deal.discards, live=turn.live,
        discarder=turn.discarder, turn=turn.player, actor=turn.actor,
        offer_queue=turn.offer_queue, pending_draw=turn.pending_draw, bought=turn.bought,
        must_sell_out=turn.must_sell_out, log=deal.log, last_hand=session.last_hand,
    )


FAST: FastPath[CoxState] = FastPath(
    new_game=new_game, decision=decision, legal_actions=legal_actions, apply=apply,
    apply_unchecked=apply_unchecked, sample_chance=sample_chance, observe=observe,
    outcome=outcome,
    to_reference=to_reference, from_reference=from_reference,
)
"""Cox's fast path (see :class:`commerce.family.FastPath`)."""
