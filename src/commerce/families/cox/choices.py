"""What may be done: the legal actions, their checks, and who may buy a discard.

Actions name a card by its face (copies are alike, docs/rulesets/cox.md): the engine moves the
lowest copy the player holds.
"""

from __future__ import annotations

from collections import Counter

from commerce.core import Action, ActionKind, Decision, DecisionKind, Seat
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
from commerce.families.cox.options import CoxOptions
from commerce.families.cox.scoring import is_complete, may_complete_less_one
from commerce.families.cox.state import BLANK, DIRECTOR_NAMES, RETAILER, WHOLESALER, CoxState, Phase

_DECISION_KINDS = {
    Phase.TURN: DecisionKind.DRAW_OR_BUY,
    Phase.OFFER: DecisionKind.BUY_OFFER,
    Phase.DISCARD: DecisionKind.DISCARD,
}


def decision(s: CoxState) -> Decision | None:
    """Who must decide what: chance (the Directors, the supply), a seat, or None at the end."""
    phase = s.turn.phase
    if phase is Phase.DIRECTORS or phase is Phase.SHUFFLE:
        return Decision(None, DecisionKind.CHANCE)
    if phase is Phase.OVER:
        return None
    return Decision(s.turn.actor, _DECISION_KINDS[phase])


def directors_left(s: CoxState) -> Counter[int]:
    """The Directors cards still to be dealt: all of them, two a player (Cox, "Start of each
    hand" 2: blanks removed for fewer than four players)."""
    left = Counter({WHOLESALER: 1, RETAILER: 1, BLANK: 2 * s.players - 2})
    left.subtract(s.deal.directors)
    return left


def supply_empty(s: CoxState) -> bool:
    """Whether every Supply Base is drawn out."""
    return not any(s.deal.bases)


def holding(s: CoxState, seat: Seat) -> list[CoxCard]:
    """Rack and laid-out cards (Greenbacks aside): what a complete hand is made of."""
    return [*s.deal.racks[seat], *(c for g in s.deal.laid[seat] for c in g)]


def without_face(cards: list[CoxCard], face: CoxCard) -> list[CoxCard]:
    """*cards* less one card of *face*."""
    out = list(cards)
    for i, c in enumerate(out):
        if face_card(c) == face:
            del out[i]
            break
    return out


def discardable(s: CoxState) -> tuple[CoxCard, ...]:
    """The faces the actor may discard: any in his rack but the one just bought, unless it is
    all he has (decision #38)."""
    faces = sorted({face_card(c) for c in s.deal.racks[s.turn.actor]})
    bought = s.turn.bought
    if bought is not None:
        kept = [f for f in faces if f != face_card(bought)]
        if kept:
            return tuple(kept)
    return tuple(faces)


def completes(s: CoxState, face: CoxCard) -> bool:
    """Whether discarding *face* leaves the actor a complete hand (decision #34: a hand is
    complete after the discard)."""
    return is_complete(without_face(holding(s, s.turn.actor), face),
                       captain_can_be_fourth=CoxOptions.of(s.ruleset).captain_can_be_fourth)


def sell_outs(s: CoxState) -> tuple[CoxCard, ...]:
    """The faces whose discard sells the actor out (leaves him a complete hand), in
    :func:`discardable`'s order."""
    if not may_complete_less_one(holding(s, s.turn.actor)):
        return ()
    return tuple(f for f in discardable(s) if completes(s, f))


def must_sell_out(s: CoxState) -> bool:
    """Whether the actor must sell out now: he bought the discard as the card that completes
    his hand (the waiting-hand exception) and can still sell out. Laying the bought card out
    may have spoiled the hand (a Captain laid as the fourth of a three with
    ``captain_can_be_fourth``, its replacement drawn from Base 4): then the purchase binds him
    to nothing and he discards as after any purchase (decision #32)."""
    return s.turn.must_sell_out and bool(sell_outs(s))


def pair_kind(rack: tuple[CoxCard, ...], card: CoxCard) -> int | None:
    """The kind the rack holds two (natural) cards like *card* of, to buy it; None if none.

    Cox: "Any player holding two cards like the discard may buy it"; a Captain, by two like
    cards of its suit (the 5s first, then the highest).
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


def buy_mode(s: CoxState, seat: Seat) -> str | None:
    """How *seat* may buy the live discard: 'pair' (two like it), 'sell_out' (it completes his
    hand at once: the waiting-hand exception), or None.

    Cox, "Buying a discard"; once the supply is empty, ``last_discard_buyable`` (decision #35).
    """
    card = s.turn.live
    if card is None or seat == s.turn.discarder:
        return None
    rules = s.ruleset
    opts = CoxOptions.of(rules)
    empty = supply_empty(s)
    if empty and opts.last_discard_buyable == "no":
        return None
    rack = s.deal.racks[seat]
    if not (empty and opts.last_discard_buyable == "sell_out_only"):
        if pair_kind(rack, card) is not None:
            return "pair"
    held = [*holding(s, seat), card]
    if not may_complete_less_one(held):
        return None
    bought_face = face_card(card)
    for f in sorted({face_card(c) for c in rack}):
        if f != bought_face and is_complete(
            without_face(held, f), captain_can_be_fourth=opts.captain_can_be_fourth
        ):
            return "sell_out"
    return None


def legal_actions(s: CoxState) -> tuple[Action, ...]:
    """Legal actions in a fixed order.

    Chance: each director card or each card face still to be placed (one at a time). A seat:
    ``draw`` (or ``decline`` when the supply is empty) then ``buy``; ``buy``/``decline`` when
    offered a discard; ``discard`` each face in the rack, then ``sell_out`` each face whose
    discard leaves a complete hand.
    """
    phase = s.turn.phase
    if phase is Phase.TURN:
        head = Action(ActionKind.DECLINE if supply_empty(s) else ActionKind.DRAW)
        return (head, Action(ActionKind.BUY)) if buy_mode(s, s.turn.actor) else (head,)
    if phase is Phase.OFFER:
        decline = Action(ActionKind.DECLINE)
        return (Action(ActionKind.BUY), decline) if buy_mode(s, s.turn.actor) else (decline,)
    if phase is Phase.DISCARD:
        faces = discardable(s)
        sells = tuple(Action(ActionKind.SELL_OUT, (f,)) for f in sell_outs(s))
        if s.turn.must_sell_out and sells:
            return sells
        return tuple(Action(ActionKind.DISCARD, (f,)) for f in faces) + sells
    if phase is Phase.DIRECTORS:
        left = directors_left(s)
        return tuple(Action(ActionKind.DEAL, (d,)) for d in (WHOLESALER, RETAILER, BLANK)
                     if left[d] > 0)
    if phase is Phase.SHUFFLE:
        return tuple(Action(ActionKind.DEAL, (f,))
                     for f in sorted({face_card(c) for c in s.deal.unseen}))
    return ()


def _illegal(reason: IllegalReason, message: str) -> IllegalActionError:
    return IllegalActionError(reason, message)


def check(s: CoxState, action: Action) -> None:
    """Raise :class:`IllegalActionError` with a reason unless *action* is legal."""
    phase = s.turn.phase
    kind = action.kind
    if phase is Phase.OVER:
        raise _illegal(IllegalReason.GAME_OVER, "the game is over")
    if phase is Phase.DIRECTORS or phase is Phase.SHUFFLE:
        if kind is not ActionKind.DEAL:
            raise _illegal(IllegalReason.NOT_YOUR_TURN,
                           "chance must act now (deal), not a player")
        check_deal(s, action.cards)
        return
    if kind is ActionKind.DEAL:
        raise _illegal(IllegalReason.WRONG_KIND, "nothing is being dealt now")
    if phase is Phase.TURN or phase is Phase.OFFER:
        _check_take(s, action)
        return
    _check_discard(s, action)


def _check_take(s: CoxState, action: Action) -> None:
    """Draw, buy or decline (Cox, "A normal turn" and "Buying a discard")."""
    kind = action.kind
    if action.cards:
        raise _illegal(IllegalReason.WRONG_KIND, f"{kind.value} names no card")
    if kind is ActionKind.BUY:
        live = s.turn.live
        if live is None:
            raise _illegal(IllegalReason.CARD_NOT_AVAILABLE, "there is no discard to buy")
        if not buy_mode(s, s.turn.actor):
            raise _illegal(
                IllegalReason.NOT_ALLOWED_BY_RULES,
                f"you may not buy {format_cox_card(live)}: you need two like it in your "
                "rack, or it must complete your hand at once"
                + (" (the supply is empty)" if supply_empty(s) else ""),
            )
        return
    if s.turn.phase is Phase.TURN:
        if kind is ActionKind.DRAW:
            if supply_empty(s):
                raise _illegal(IllegalReason.CARD_NOT_AVAILABLE,
                               "the supply is empty: buy or decline")
            return
        if kind is ActionKind.DECLINE:
            if not supply_empty(s):
                raise _illegal(IllegalReason.WRONG_KIND,
                               "draw (or buy): you may not pass your turn")
            return
        raise _illegal(IllegalReason.WRONG_KIND, f"on your turn draw or buy, not {kind.value}")
    if kind is ActionKind.DECLINE:
        return
    raise _illegal(IllegalReason.WRONG_KIND,
                   f"you are offered the discard: buy or decline, not {kind.value}")


def _check_discard(s: CoxState, action: Action) -> None:
    """Discard or sell out (Cox, "A normal turn"; selling out, decision #34)."""
    kind = action.kind
    if kind is not ActionKind.DISCARD and kind is not ActionKind.SELL_OUT:
        raise _illegal(IllegalReason.WRONG_KIND, f"discard a card (or sell out), not {kind.value}")
    if len(action.cards) != 1 or not 0 <= action.cards[0] < 80:
        raise _illegal(IllegalReason.CARD_NOT_HELD, f"{kind.value} names one card")
    card = action.cards[0]
    if face_card(card) != card:
        raise _illegal(IllegalReason.CARD_NOT_HELD,
                       f"copies are alike: name the card as {format_cox_card(card)} "
                       f"(card {face_card(card)})")
    rack = s.deal.racks[s.turn.actor]
    if card not in discardable(s):
        if card in {face_card(c) for c in rack}:
            raise _illegal(IllegalReason.NOT_ALLOWED_BY_RULES,
                           "you may not discard the card you have just bought")
        raise _illegal(IllegalReason.CARD_NOT_HELD,
                       f"name a card in your rack ({format_cox_cards(sorted(rack))})")
    if kind is ActionKind.SELL_OUT:
        if not completes(s, card):
            raise _illegal(IllegalReason.NOT_ALLOWED_BY_RULES,
                           f"discarding {format_cox_card(card)} does not leave a complete hand")
    elif must_sell_out(s):
        raise _illegal(IllegalReason.NOT_ALLOWED_BY_RULES,
                       "you bought the discard to complete your hand: sell out")


def check_deal(s: CoxState, cards: tuple[int, ...]) -> None:
    """Chance deals Directors cards still undealt, or places cards still unplaced."""
    if s.turn.phase is Phase.DIRECTORS:
        left = directors_left(s)
        need = sum(left.values())
        if not 1 <= len(cards) <= need:
            raise _illegal(IllegalReason.CARD_NOT_AVAILABLE,
                           f"deal 1 to {need} Directors cards (W, R, X) now")
        for d, n in Counter(cards).items():
            if d not in DIRECTOR_NAMES or n > left[d]:
                raise _illegal(IllegalReason.CARD_NOT_AVAILABLE,
                               "deal Directors cards still undealt: W (Wholesaler), "
                               "R (Retailer), X (blank)")
        return
    unseen = s.deal.unseen
    if not 1 <= len(cards) <= len(unseen):
        raise _illegal(IllegalReason.CARD_NOT_AVAILABLE,
                       f"place 1 to {len(unseen)} cards in the supply now")
    left = Counter(face_card(c) for c in unseen)
    for c, n in Counter(cards).items():
        if not 0 <= c < 80 or face_card(c) != c or n > left[c]:
            raise _illegal(IllegalReason.CARD_NOT_AVAILABLE,
                           "name cards by face (first copy), each no more often than it is "
                           "left unplaced")
