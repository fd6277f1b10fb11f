"""The fast path's queries: who decides, the legal actions (cached menus) and why an action
is refused.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from commerce.cards import Card, format_cards
from commerce.core import (
    Action,
    Decision,
    Seat,
)
from commerce.errors import IllegalActionError, IllegalReason
from commerce.families.trading.fast.state import (
    _BARTER,
    _C_NONE,
    _CHANCE,
    _DEAL,
    _DECISIONS,
    _DONE,
    _GIVE,
    _K_BARTER,
    _K_DEAL,
    _K_DONE,
    _K_GIVE,
    _K_STAND,
    _K_TRADE,
    _P_AFTER_TRADE,
    _P_BARTER_REPLY,
    _P_DEAL,
    _P_DRAW,
    _P_OVER,
    _P_TURN,
    _STAND,
    _TRADE,
    FastState,
    _as_set,
)
from commerce.hands import evaluator_for


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
