"""The cox family: Herbert T. Cox's patented Commerce (1925), an 80-card draw-and-discard game.

A game is ``hands_per_game`` hands (four). Each hand:

1. Chance deals the Directors face up (``deal W X R X ...``): the Wholesaler and the Retailer.
   The Retailer's Supply Base is No. 1, the others are numbered from him to the right.
2. Chance shuffles the pack into the four Supply Bases of 20 (one ``deal`` action may name all
   80 cards: base 1 top to bottom, then bases 2, 3 and 4). The order is never observed.
3. The Retailer deals eight cards each, one at a time to his right, from Base 1 on. Greenbacks
   are laid out and replaced from the bottom of Base 4; threes are laid out as soon as held; the
   fourth of a laid-out three is laid out too and replaced from the bottom of Base 4.
4. From the Retailer, to the right, each player draws the top card of the current base (or buys
   the last discard) and discards. A discard may be bought by a player holding two like it (or
   whose hand it completes at once, the waiting hand); the nearest to the discarder wins it and
   the players between lose their turn. Each other player is asked in turn order
   (``buy_offer``), the player whose turn it is first (he draws, buys, or declines).
5. A player who discards leaving a complete hand may ``sell_out`` (discard and declare). The
   hand also ends when the player to draw finds the supply empty. Every holding is scored with
   :func:`commerce.cox_scoring.score_holding`.

Actions name a card by its face (:func:`commerce.cox_cards.face_card`): copies are alike, and the
engine moves the player's lowest copy.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
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
from commerce.cox_cards import (
    TRANSPORT_NAMES,
    CoxCard,
    face_card,
    format_cox_card,
    format_cox_cards,
    is_bank,
    is_black,
    is_captain,
    is_greenback,
    is_wild,
    kind_of,
    pack,
    parse_cox_cards,
    transport_suit,
)
from commerce.cox_scoring import CoxScore, is_complete, may_complete_less_one, score_holding
from commerce.cox_text import describe_event as describe_event
from commerce.errors import IllegalActionError, IllegalReason, NotationError
from commerce.rules import Ruleset

WHOLESALER: Final = 80
"""The Wholesaler director card (in ``deal`` actions)."""
RETAILER: Final = 81
"""The Retailer director card."""
BLANK: Final = 82
"""A blank director card (all blanks are alike)."""
_DIRECTOR_NAMES: Final = {WHOLESALER: "W", RETAILER: "R", BLANK: "X"}
_DIRECTOR_BY_NAME: Final = {v: k for k, v in _DIRECTOR_NAMES.items()}
HAND_SIZE: Final = 8
"""Cards dealt to each player."""
BASE_SIZE: Final = 20
"""Cards in each Supply Base."""


class Phase(IntEnum):
    """Where a hand stands."""

    DIRECTORS = 0
    """Chance deals the Directors cards."""
    SHUFFLE = 1
    """Chance orders the pack into the four Supply Bases."""
    TURN = 2
    """The player whose turn it is draws, buys the last discard, or (supply empty) declines."""
    OFFER = 3
    """Another player is offered the last discard."""
    DISCARD = 4
    """The player who drew or bought discards (or sells out)."""
    OVER = 5
    """The game has ended."""


class CoxState(NamedTuple):
    """A game of Cox's Commerce between two actions; never sent to a player (see observe)."""

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


STATE_TYPE: Final = CoxState
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


def new_game(ruleset: Ruleset, players: int, dealer: Seat) -> CoxState:
    """The game before the first hand: the Directors are to be dealt by *dealer*."""
    return _new_hand(
        CoxState(
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


def _new_hand(s: CoxState, last_hand: tuple[Event, ...]) -> CoxState:
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


def decision(s: CoxState) -> Decision | None:
    """Who must decide what: chance, a seat (draw or buy, buy offer, discard), or None."""
    phase = s.phase
    if phase is _P_DIRECTORS or phase is _P_SHUFFLE:
        return _CHANCE
    if phase is _P_OVER:
        return None
    return _DECISIONS[phase, s.actor]


def _directors_left(s: CoxState) -> Counter[int]:
    left = Counter({WHOLESALER: 1, RETAILER: 1, BLANK: 2 * s.players - 2})
    left.subtract(s.directors)
    return left


def _supply_empty(s: CoxState) -> bool:
    return not any(s.bases)


def legal_actions(s: CoxState) -> tuple[Action, ...]:
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


def _discardable(s: CoxState) -> tuple[CoxCard, ...]:
    faces = sorted({face_card(c) for c in s.racks[s.actor]})
    if s.bought is not None:
        kept = [f for f in faces if f != face_card(s.bought)]
        if kept:
            return tuple(kept)
    return tuple(faces)


def _holding(s: CoxState, seat: Seat) -> list[CoxCard]:
    """Rack and laid-out cards (Greenbacks aside): what a complete hand is made of."""
    return [*s.racks[seat], *(c for g in s.laid[seat] for c in g)]


def _without_face(cards: list[CoxCard], face: CoxCard) -> list[CoxCard]:
    out = list(cards)
    for i, c in enumerate(out):
        if face_card(c) == face:
            del out[i]
            break
    return out


def _completes(s: CoxState, face: CoxCard) -> bool:
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


def _buy_mode(s: CoxState, seat: Seat) -> str | None:
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


def check(s: CoxState, action: Action) -> None:
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


def _check_deal(s: CoxState, cards: tuple[int, ...]) -> None:
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

    def __init__(self, s: CoxState) -> None:
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
        self.emit(Event("replacement", seat, (("card", card),), _ONLY[seat]))

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
                    self.emit(Event("greenback_laid", seat, (("card", c),)))
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
            self.emit(Event("laid_out", seat, (("cards", group),)))

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
            self.emit(Event("fourth_laid", seat, (("card", card),)))
            self.take_replacement(seat)
            return True
        return False

    def draw(self, seat: Seat) -> None:
        while self.current_base < 4 and not self.bases[self.current_base]:
            self.current_base += 1
        card = self.bases[self.current_base].pop(0)
        self.racks[seat].append(card)
        self.emit(Event("drew", seat, (("base", self.current_base + 1),)))
        self.emit(Event("drew_card", seat, (("card", card),), _ONLY[seat]))
        self.settle(seat)

    def state(self, **changes: Any) -> CoxState:
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


def apply(s: CoxState, action: Action) -> Transition:
    """Check *action*, then apply it (what :func:`commerce.engine.apply` calls).

    :raises IllegalActionError: with the reason, if *action* is not legal in *s*.
    """
    check(s, action)
    return apply_unchecked(s, action)


def apply_unchecked(s: CoxState, action: Action) -> Transition:
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
                w.emit(Event("declined", seat, (("card", s.live),)))
            return _after_turn_choice(w, pending_draw=kind is _K_DRAW)
        w.emit(Event("declined", seat, (("card", s.live),)))
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
        w.emit(Event("sold_out", seat, (("card", card),)))
        return _end_hand(w, discards=discards, reason="sold_out", seller=seat)
    w.emit(Event("discarded", seat, (("card", card),)))
    nxt = (seat + s.step) % s.players
    return _begin_turn(w, nxt, live=card, discarder=seat, discards=discards)


def _finish(w: _Work, **changes: Any) -> Transition:
    state = w.state(**changes)
    return Transition(state, tuple(w.events))


def _deal_directors(s: CoxState, cards: tuple[int, ...]) -> Transition:
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


def _place(s: CoxState, faces: tuple[int, ...]) -> Transition:
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
        w.emit(Event("dealt_cards", seat, (("cards", tuple(w.racks[seat])),), _ONLY[seat]))
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
    w.emit(Event("bought", seat, (("card", card), ("from", s.discarder),
                                  ("lost_turns", tuple(lost)))))
    rack = w.racks[seat]
    kind = _pair_kind(s.racks[seat], card) if mode == "pair" else None
    if kind is not None and is_captain(card):
        group = (*sorted(c for c in rack if kind_of(c) == kind)[:2], card)
        for c in group[:2]:
            rack.remove(c)
        w.laid[seat].append(group)
        w.emit(Event("laid_out", seat, (("cards", group),)))
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
        ("racks", tuple(tuple(sorted(r)) for r in w.racks)),
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


def sample_chance(s: CoxState, rng: random.Random) -> Action:
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


def outcome(s: CoxState) -> Outcome | None:
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


@dataclass(frozen=True, slots=True)
class CoxObservation:
    """What one seat may know, built from scratch from the state (or everything, for a review)."""

    seat: Seat | None
    """Whose view this is (None: a spectator or a review)."""
    ruleset: Ruleset
    """The rules in force."""
    players: int
    """Number of seats."""
    hand_number: int
    """The current hand, from 1."""
    hands_total: int
    """Hands in the game."""
    decision: Decision | None
    """Who must decide what."""
    turn: Seat
    """Whose turn it is."""
    wholesaler: Seat | None
    """Who holds the Wholesaler card."""
    retailer: Seat | None
    """Who holds the Retailer card (Base No. 1)."""
    directors: tuple[tuple[Seat, str], ...]
    """The Directors cards dealt this hand: (seat, W/R/X), face up."""
    base_numbers: tuple[int | None, ...]
    """Each seat's Supply Base number."""
    rack: tuple[CoxCard, ...]
    """This seat's rack, sorted (empty for a spectator)."""
    racks: tuple[tuple[CoxCard, ...] | None, ...]
    """Each seat's rack where this view may see it, else None."""
    rack_sizes: tuple[int, ...]
    """Cards in each rack."""
    laid: tuple[tuple[tuple[CoxCard, ...], ...], ...]
    """Each seat's laid-out combinations."""
    greenbacks: tuple[tuple[CoxCard, ...], ...]
    """Each seat's Greenbacks."""
    discards: tuple[CoxCard, ...]
    """The discard pile, oldest first."""
    live: CoxCard | None
    """The discard that may still be bought, if any."""
    discarder: Seat | None
    """Who made it."""
    supply: tuple[int, ...]
    """Cards left in Supply Bases 1-4."""
    current_base: int
    """The base drawn from next (1-4; 5 when all are empty)."""
    totals: tuple[int, ...]
    """Each seat's score over the finished hands."""
    hand_scores: tuple[tuple[int, ...], ...]
    """Each finished hand's scores."""
    events: tuple[Event, ...]
    """Events of the current hand this seat may see."""
    last_hand: tuple[Event, ...]
    """How the previous hand ended (public)."""
    over: bool
    """Whether the game has ended."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (cards in notation)."""
        return {
            "seat": self.seat,
            "rules": self.ruleset.label,
            "players": self.players,
            "hand": self.hand_number,
            "hands_total": self.hands_total,
            "decision": None if self.decision is None else self.decision.to_dict(),
            "turn": self.turn,
            "wholesaler": self.wholesaler,
            "retailer": self.retailer,
            "directors": [list(d) for d in self.directors],
            "base_numbers": list(self.base_numbers),
            "rack": _names(self.rack),
            "racks": [None if r is None else _names(r) for r in self.racks],
            "rack_sizes": list(self.rack_sizes),
            "laid": [[_names(g) for g in groups] for groups in self.laid],
            "greenbacks": [_names(g) for g in self.greenbacks],
            "discards": _names(self.discards),
            "live": None if self.live is None else format_cox_card(self.live),
            "discarder": self.discarder,
            "supply": list(self.supply),
            "current_base": self.current_base,
            "totals": list(self.totals),
            "hand_scores": [list(h) for h in self.hand_scores],
            "events": [event_to_dict(e) for e in self.events],
            "last_hand": [event_to_dict(e) for e in self.last_hand],
            "over": self.over,
        }


def _names(cards: tuple[CoxCard, ...]) -> list[str]:
    return [format_cox_card(c) for c in cards]


def event_to_dict(e: Event) -> dict[str, Any]:
    """A JSON-ready form of an event of this family."""
    out: dict[str, Any] = {"kind": e.kind, "seat": e.seat}
    for key, value in e.data:
        if key == "card":
            out[key] = format_cox_card(value)
        elif key == "cards":
            out[key] = _names(value)
        elif key == "racks":
            out[key] = [_names(r) for r in value]
        else:
            out[key] = list(value) if isinstance(value, tuple) else value
    return out


def _view(s: CoxState, seat: Seat | None, everything: bool) -> CoxObservation:
    n = s.players
    seats = [(s.director_dealer + s.step * (i + 1)) % n for i in range(len(s.directors))]
    current = s.current_base
    while current < 4 and not s.bases[current]:
        current += 1
    return CoxObservation(
        seat=seat,
        ruleset=s.ruleset,
        players=n,
        hand_number=s.hand_number,
        hands_total=s.ruleset.hands_per_game,
        decision=decision(s),
        turn=s.turn,
        wholesaler=s.wholesaler,
        retailer=s.retailer,
        directors=tuple((seats[i], _DIRECTOR_NAMES[d]) for i, d in enumerate(s.directors)),
        base_numbers=s.base_numbers,
        rack=tuple(sorted(s.racks[seat])) if seat is not None else (),
        racks=tuple(tuple(sorted(r)) if (everything or i == seat) else None
                    for i, r in enumerate(s.racks)),
        rack_sizes=tuple(len(r) for r in s.racks),
        laid=s.laid,
        greenbacks=s.greenbacks,
        discards=s.discards,
        live=s.live,
        discarder=s.discarder if s.live is not None else None,
        supply=tuple(len(b) for b in s.bases) if s.phase is not _P_SHUFFLE else (0,) * 4,
        current_base=current + 1,
        totals=s.totals,
        hand_scores=s.hand_scores,
        events=s.log if everything else tuple(e for e in s.log if e.visible(seat)),
        last_hand=s.last_hand,
        over=s.phase is _P_OVER,
    )


def observe(s: CoxState, seat: Seat | None) -> CoxObservation:
    """The view of *seat*: its rack, everything laid out, the discards, the supply sizes."""
    return _view(s, seat, everything=False)


def reveal_all(s: CoxState) -> CoxObservation:
    """Every rack and event visible: for reviewing a finished or saved game (not the supply)."""
    return _view(s, None, everything=True)


_RACK_GROUPS: Final = (*TRANSPORT_NAMES, "Honours", "Bank")


def group_rack(rack: tuple[CoxCard, ...]) -> str:
    """A rack grouped by kind: ``Automobiles: A1 A1 AC | Ships: S3 | Honours: F2 G1 | Bank``.

    >>> group_rack(parse_cox_cards("G1 A1 S3 BK A1 F2 AC"))
    'Automobiles: A1 A1 AC | Ships: S3 | Honours: F2 G1 | Bank'
    """
    groups: dict[str, list[str]] = {}
    for c in sorted(rack):
        if is_bank(c):
            label = "Bank"
        elif is_black(c):
            label = TRANSPORT_NAMES[transport_suit(c)]
        else:
            label = "Honours"
        groups.setdefault(label, []).append(format_cox_card(c))
    parts = []
    for label in _RACK_GROUPS:
        if label in groups:
            parts.append("Bank" if label == "Bank" else f"{label}: {' '.join(groups[label])}")
    return " | ".join(parts) or "-"


def _seat_label(obs: CoxObservation, seat: Seat, names: Sequence[str] | None) -> str:
    name = names[seat] if names is not None and 0 <= seat < len(names) else f"seat {seat}"
    if seat == obs.seat:
        return "You" if names is not None else f"{name} (you)"
    return name


def _can_sell_out(obs: CoxObservation) -> list[CoxCard]:
    """The faces whose discard leaves the viewer a complete hand."""
    if obs.seat is None:
        return []
    held = [*obs.rack, *(c for g in obs.laid[obs.seat] for c in g)]
    cap4 = obs.ruleset.captain_can_be_fourth
    return [f for f in sorted({face_card(c) for c in obs.rack})
            if is_complete(_without_face(held, f), captain_can_be_fourth=cap4)]


def _may_buy(obs: CoxObservation) -> bool:
    """Whether the viewer may buy the live discard (the engine's rule, from the view)."""
    card = obs.live
    if card is None or obs.seat is None or obs.seat == obs.discarder:
        return False
    rules = obs.ruleset
    empty = not any(obs.supply)
    if empty and rules.last_discard_buyable == "no":
        return False
    if not (empty and rules.last_discard_buyable == "sell_out_only") and \
            _pair_kind(obs.rack, card) is not None:
        return True
    held = [*obs.rack, *(c for g in obs.laid[obs.seat] for c in g), card]
    return any(
        f != face_card(card) and is_complete(
            _without_face(held, f), captain_can_be_fourth=rules.captain_can_be_fourth)
        for f in sorted({face_card(c) for c in obs.rack}))


def _prompt(obs: CoxObservation, names: Sequence[str] | None) -> str | None:
    """What the viewer is asked, in words, when it is his decision."""
    d = obs.decision
    if d is None or obs.seat is None or d.seat != obs.seat:
        return None
    live = None if obs.live is None else format_cox_card(obs.live)
    discarder = None if obs.discarder is None else _seat_label(obs, obs.discarder, names)
    empty = not any(obs.supply)
    if d.kind is DecisionKind.DRAW_OR_BUY:
        take = "the supply is empty" if empty else f"draw from base {obs.current_base}"
        if live is None or not _may_buy(obs):
            return f"Your turn: {take}."
        return f"Your turn: {take}, or say \"I buy\" to take {discarder}'s {live}."
    if d.kind is DecisionKind.BUY_OFFER:
        return (f"{discarder} discarded {live}. Do you buy it? Say \"I buy\" (buy) or "
                "decline.")
    if d.kind is DecisionKind.DISCARD:
        sells = _can_sell_out(obs)
        if sells:
            cards = " or ".join(format_cox_card(f) for f in sells)
            return (f"Your hand is complete if you discard {cards}: say \"I sell out\" "
                    f"(sell out {format_cox_card(sells[0])}) or discard a card.")
        return "Discard a card (e.g. 'discard " + format_cox_card(obs.rack[0]) + "')." \
            if obs.rack else "Discard a card."
    return None


def render_observation(obs: CoxObservation, names: Sequence[str] | None = None) -> str:
    """A plain-text picture of *obs* for a terminal: the viewer's rack grouped by kind, every
    player's laid-out combinations and Greenbacks, the discard, the supply, the scores and
    what the viewer is asked. *names* are the players' names (default "seat N")."""
    lines = [
        f"{obs.ruleset.name} — hand {obs.hand_number} of {obs.hands_total}"
        + ("  (game over)" if obs.over else ""),
    ]
    if obs.retailer is not None:
        lines.append(f"Retailer: {_seat_label(obs, obs.retailer, names)} (base 1)   "
                     f"Wholesaler: {_seat_label(obs, obs.wholesaler, names)}"
                     if obs.wholesaler is not None else "")
    width = max(len(_seat_label(obs, i, names)) for i in range(obs.players))
    for i in range(obs.players):
        base = obs.base_numbers[i]
        mark = ">" if obs.decision is not None and obs.decision.seat == i else " "
        rack = obs.racks[i]
        shown = group_rack(rack) if rack is not None else f"{obs.rack_sizes[i]} cards"
        laid = " | ".join(format_cox_cards(g) for g in obs.laid[i]) or "-"
        money = format_cox_cards(obs.greenbacks[i]) or "-"
        lines.append(
            f"{mark} {_seat_label(obs, i, names):<{width}}  base "
            f"{base if base is not None else '-'}  total {obs.totals[i]:+d}   rack: {shown}"
        )
        lines.append(f"  {'':<{width}}  laid out: {laid}   Greenbacks: {money}")
    if obs.seat is not None:
        rules = obs.ruleset
        held = [*obs.rack, *(c for g in obs.laid[obs.seat] for c in g),
                *obs.greenbacks[obs.seat]]
        now = score_holding(held, obs.base_numbers[obs.seat],
                            captain_can_be_fourth=rules.captain_can_be_fourth,
                            bank_double_order=rules.bank_double_order,
                            bank_counts_for_clear_hand=rules.bank_counts_for_clear_hand)
        items = ", ".join(f"{item.what} {item.points:+d}" for item in now.breakdown)
        lines.append(f"Your holding would count {now.score:+d} now"
                     + (f" ({items})" if items else "") + ".")
    top = format_cox_card(obs.discards[-1]) if obs.discards else "-"
    live = "" if obs.live is None or obs.discarder is None else \
        f" ({_seat_label(obs, obs.discarder, names)}'s, may be bought)"
    lines.append(f"Discard: {top}{live}   pile: {len(obs.discards)}")
    supply = "  ".join(f"{i + 1}:{n}" for i, n in enumerate(obs.supply))
    drawing = f"drawing from base {obs.current_base}" if obs.current_base <= 4 else "empty"
    lines.append(f"Supply left (base:cards): {supply}   {drawing}")
    if obs.hand_scores:
        hands = "; ".join(f"hand {h}: " + ", ".join(
            f"{_seat_label(obs, i, names)} {p:+d}" for i, p in enumerate(scores))
            for h, scores in enumerate(obs.hand_scores, 1))
        lines.append(f"Scores so far: {hands}")
    prompt = _prompt(obs, names)
    if prompt is not None:
        lines.append(prompt)
    elif obs.decision is not None and obs.decision.seat is not None:
        lines.append(f"To act: {_seat_label(obs, obs.decision.seat, names)} "
                     f"({obs.decision.kind.value})")
    return "\n".join(line for line in lines if line)


def action_label(action: Action, obs: CoxObservation) -> str:
    """A menu label for *action* in words ("I buy P1", "I sell out, discarding A1")."""
    kind = action.kind
    if kind is _K_BUY and obs.live is not None:
        return f"I buy {format_cox_card(obs.live)}"
    if kind is _K_DRAW:
        return f"draw (base {obs.current_base})"
    if kind is _K_DECLINE:
        return "decline" if obs.live is not None else "pass (the supply is empty)"
    if kind is _K_SELL_OUT:
        return f"I sell out (discard {format_cox_card(action.cards[0])})"
    return format_action(action)


# -- notation ------------------------------------------------------------------------------

_WORDS: Final = {
    "draw": _K_DRAW, "buy": _K_BUY, "decline": _K_DECLINE,
    "pass": _K_DECLINE, "discard": _K_DISCARD, "sell_out": _K_SELL_OUT,
    "sellout": _K_SELL_OUT, "sell": _K_SELL_OUT, "deal": _K_DEAL,
}


def format_action(action: Action) -> str:
    """``draw``, ``buy``, ``decline``, ``discard A1``, ``sell_out G2``, ``deal W X R ...``."""
    if action.cards:
        words = [_DIRECTOR_NAMES.get(c) or format_cox_card(c) for c in action.cards]
        return f"{action.kind.value} {' '.join(words)}"
    return action.kind.value


def parse_action(text: str) -> Action:
    """Parse :func:`format_action` notation (case-insensitive).

    >>> parse_action("discard a1") == Action(_K_DISCARD, (0,))
    True

    :raises NotationError: naming the bad word or card.
    """
    words = text.split()
    if not words:
        raise NotationError("empty action")
    kind = _WORDS.get(words[0].lower())
    if kind is None:
        raise NotationError(
            f"{words[0]!r} is not an action here; actions are: draw, buy, decline, discard, "
            "sell_out, deal"
        )
    rest = words[1:]
    if kind is _K_DEAL:
        if not rest:
            raise NotationError("deal names the cards dealt, e.g. 'deal W X R X' or 'deal A1'")
        if all(w.upper() in _DIRECTOR_BY_NAME for w in rest):
            return Action(_K_DEAL, tuple(_DIRECTOR_BY_NAME[w.upper()] for w in rest))
        cards = parse_cox_cards(rest)
        if not cards:  # only separators, e.g. "deal ,"
            raise NotationError("deal names the cards dealt, e.g. 'deal W X R X' or 'deal A1'")
        return Action(_K_DEAL, tuple(face_card(c) for c in cards))
    if kind in (_K_DISCARD, _K_SELL_OUT):
        cards = parse_cox_cards(rest)
        if len(cards) != 1:  # "discard ," and "discard A1,A2" too
            raise NotationError(f"{kind.value} takes one card, e.g. '{kind.value} A1'")
        card = face_card(cards[0])
        return _DISCARD[card] if kind is _K_DISCARD else _SELL[card]
    if rest:
        raise NotationError(f"{kind.value} takes no card")
    return {_K_DRAW: _DRAW, _K_BUY: _BUY, _K_DECLINE: _DECLINE}[kind]

