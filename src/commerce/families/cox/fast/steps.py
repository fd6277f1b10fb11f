"""The fast path's transitions (on a mutable scratch copy of the state, :class:`_Work`), chance's
draws and the outcome."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from commerce.core import (
    Action,
    Event,
    Outcome,
    Seat,
    Transition,
)
from commerce.families.cox.cards import (
    CoxCard,
    face_card,
    is_captain,
    is_greenback,
    is_wild,
    kind_of,
    pack,
)
from commerce.families.cox.fast.queries import _buy_mode, _directors_left, _pair_kind, check
from commerce.families.cox.fast.state import (
    _DIRECTOR_NAMES,
    _K_BUY,
    _K_DEAL,
    _K_DECLINE,
    _K_DRAW,
    _K_SELL_OUT,
    _ONLY,
    _P_DIRECTORS,
    _P_DISCARD,
    _P_OFFER,
    _P_OVER,
    _P_SHUFFLE,
    _P_TURN,
    FastCoxState,
    _new_hand,
)
from commerce.families.cox.fast.views import _faces
from commerce.families.cox.scoring import (
    CoxScore,
    score_holding,
)
from commerce.families.cox.state import (
    BASE_SIZE,
    HAND_SIZE,
    RETAILER,
    WHOLESALER,
)


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
