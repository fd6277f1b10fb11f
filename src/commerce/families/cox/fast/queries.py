"""The fast path's queries: who decides, the legal actions and why an action is refused."""

from __future__ import annotations

from collections import Counter

from commerce.core import (
    Action,
    Decision,
    Seat,
)
from commerce.errors import IllegalActionError, IllegalReason
from commerce.families.cox.cards import (
    CoxCard,
    face_card,
    format_cox_card,
    format_cox_cards,
    is_captain,
    kind_of,
    transport_suit,
)
from commerce.families.cox.fast.state import (
    _BUY,
    _CHANCE,
    _DEAL,
    _DECISIONS,
    _DECLINE,
    _DIRECTOR_NAMES,
    _DISCARD,
    _DRAW,
    _K_BUY,
    _K_DEAL,
    _K_DECLINE,
    _K_DISCARD,
    _K_DRAW,
    _K_SELL_OUT,
    _P_DIRECTORS,
    _P_DISCARD,
    _P_OFFER,
    _P_OVER,
    _P_SHUFFLE,
    _P_TURN,
    _SELL,
    FastCoxState,
)
from commerce.families.cox.scoring import (
    is_complete,
    may_complete_less_one,
)
from commerce.families.cox.state import (
    BLANK,
    RETAILER,
    WHOLESALER,
)


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


def _sell_outs(s: FastCoxState) -> tuple[CoxCard, ...]:
    """:func:`.choices.sell_outs`: the faces whose discard sells the actor out."""
    if not may_complete_less_one(_holding(s, s.actor)):
        return ()
    return tuple(f for f in _discardable(s) if _completes(s, f))


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
        sells = tuple(_SELL[f] for f in _sell_outs(s))
        if s.must_sell_out and sells:  # bound to sell out only while he can (decision #32)
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
    elif s.must_sell_out and _sell_outs(s):  # bound only while he can (decision #32)
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
