"""The trading family's rules, the reference: what may be done now, and what it does.

A game is a session of deals. In each deal every player antes and is dealt three cards
(:mod:`.deal`); from the eldest the players in turn stand, trade a card for ready money or
barter a card with a neighbour, until someone stands (:mod:`.turn`); the hands are shown, the
best takes the pool, the dealer pays the winner and a beaten stander pays the better hands
(:mod:`.settle`). Read those modules in that order to read the rules; :mod:`.state` holds the
state, :mod:`.observe` what each seat sees and :mod:`.notation` the actions in words.

This module gathers the hooks the engine calls (:data:`commerce.families.trading.FAMILY`):
:func:`legal_actions`, :func:`check` and :func:`apply` dispatch on where the deal stands.
:mod:`.kernel` plays the same rules compiled, for whole-game loops.
"""

from __future__ import annotations

from commerce.cards import format_cards
from commerce.core import Action, ActionKind, Transition, card_action
from commerce.errors import IllegalActionError, IllegalReason
from commerce.families.trading.deal import deal_cards, new_game, sample_chance
from commerce.families.trading.observe import TradingObservation, observe, reveal_all
from commerce.families.trading.options import TradingOptions
from commerce.families.trading.settle import outcome
from commerce.families.trading.state import Phase, TradingState
from commerce.families.trading.turn import (
    barter_returns,
    decision,
    draw,
    give_back,
    may_stand,
    may_trade,
    next_turn,
    offer_barter,
    stand,
    trade,
)

__all__ = [
    "Phase", "TradingObservation", "TradingState", "apply", "apply_unchecked", "check", "decision",
    "legal_actions", "new_game", "observe", "outcome", "reveal_all", "sample_chance",
]

_STAND = Action(ActionKind.STAND)
_DONE = Action(ActionKind.DONE)


def legal_actions(s: TradingState) -> tuple[Action, ...]:
    """Legal actions in a fixed order: stand, then trades, then barters, each in card order;
    at chance's turn, every unseen card of the stock in card order."""
    opts = TradingOptions.of(s.ruleset)
    phase = s.phase
    if phase is Phase.DEAL or phase is Phase.DRAW:
        return tuple(card_action(ActionKind.DEAL, c) for c in s.unseen)
    if phase is Phase.TURN:
        cards = sorted(s.hands[s.actor])
        out = [_STAND] if may_stand(s, s.actor) else []
        if may_trade(s, s.actor):
            out += [card_action(ActionKind.TRADE, c) for c in cards]
        if opts.may_barter:
            out += [card_action(ActionKind.BARTER, c) for c in cards]
        return tuple(out)
    if phase is Phase.AFTER_TRADE:
        return (_STAND, _DONE) if may_stand(s, s.actor) else (_DONE,)
    if phase is Phase.BARTER_REPLY:
        out = [_STAND] if opts.barter_partner_may_stand else []
        return tuple(out + [card_action(ActionKind.GIVE, c) for c in sorted(barter_returns(s))])
    return ()


def check(s: TradingState, action: Action) -> None:
    """Raise :class:`IllegalActionError` with a reason unless *action* is legal."""
    phase, kind = s.phase, action.kind
    if phase is Phase.OVER:
        raise IllegalActionError(IllegalReason.GAME_OVER, "the game is over")
    if phase is Phase.DEAL or phase is Phase.DRAW:
        _check_deal(s, action)
        return
    if kind is ActionKind.DEAL:
        raise IllegalActionError(IllegalReason.WRONG_KIND, "no card is being dealt now")
    if action.cards and kind in (ActionKind.STAND, ActionKind.DONE):
        raise IllegalActionError(IllegalReason.WRONG_KIND, f"{kind.value} names no card")
    if phase is Phase.TURN:
        _check_turn(s, action)
    elif phase is Phase.AFTER_TRADE:
        if kind is ActionKind.STAND:
            _check_may_stand(s)
        elif kind is not ActionKind.DONE:
            raise IllegalActionError(
                IllegalReason.WRONG_KIND,
                "only one card may be traded or bartered a turn: stand or end your turn (done)",
            )
    else:
        _check_barter_reply(s, action)


def _check_deal(s: TradingState, action: Action) -> None:
    """Chance deals between one and the cards still to deal, or the one card drawn; only
    unseen cards."""
    if action.kind is not ActionKind.DEAL:
        raise IllegalActionError(
            IllegalReason.NOT_YOUR_TURN, "chance must act now (deal a card), not a player"
        )
    cards = action.cards
    limit = s.deal.to_deal if s.phase is Phase.DEAL else 1
    if not 1 <= len(cards) <= limit or len(set(cards)) != len(cards):
        raise IllegalActionError(IllegalReason.CARD_NOT_AVAILABLE,
                                 f"deal between 1 and {limit} different card(s) now")
    if not set(s.unseen).issuperset(cards):
        raise IllegalActionError(IllegalReason.CARD_NOT_AVAILABLE,
                                 "a dealt card must be one of the unseen cards of the stock")


def _check_may_stand(s: TradingState) -> None:
    if not may_stand(s, s.actor):
        raise IllegalActionError(
            IllegalReason.NOT_ALLOWED_BY_RULES,
            "you may only stand (knock) holding a tricon, sequence or point",
        )


def _check_turn(s: TradingState, action: Action) -> None:
    """At the start of a turn: stand, or trade or barter one card of one's own hand."""
    kind = action.kind
    if kind is ActionKind.STAND:
        _check_may_stand(s)
        return
    if kind not in (ActionKind.TRADE, ActionKind.BARTER):
        raise IllegalActionError(
            IllegalReason.WRONG_KIND,
            f"on your turn you may stand, trade or barter, not {kind.value}",
        )
    hand = s.hands[s.actor]
    if len(action.cards) != 1 or action.cards[0] not in hand:
        raise IllegalActionError(IllegalReason.CARD_NOT_HELD,
                                 f"name one of the cards you hold ({format_cards(sorted(hand))})")
    if kind is ActionKind.TRADE and not may_trade(s, s.actor):
        raise IllegalActionError(IllegalReason.NOT_ALLOWED_BY_RULES,
                                 "the dealer may not trade in these rules")
    if kind is ActionKind.BARTER and not TradingOptions.of(s.ruleset).may_barter:
        raise IllegalActionError(IllegalReason.NOT_ALLOWED_BY_RULES,
                                 "barter is not allowed in these rules")


def _check_barter_reply(s: TradingState, action: Action) -> None:
    """Offered a barter: give one card back, or stand where the rules allow."""
    kind = action.kind
    if kind is ActionKind.STAND:
        if not TradingOptions.of(s.ruleset).barter_partner_may_stand:
            raise IllegalActionError(IllegalReason.NOT_ALLOWED_BY_RULES,
                                     "a barter may not be refused in these rules")
        return
    if kind is not ActionKind.GIVE:
        raise IllegalActionError(IllegalReason.WRONG_KIND,
                                 "you were offered a barter: give a card back, or stand")
    if len(action.cards) != 1 or action.cards[0] not in barter_returns(s):
        raise IllegalActionError(IllegalReason.CARD_NOT_HELD,
                                 "give back one of the cards of your own hand")


def apply(s: TradingState, action: Action) -> Transition:
    """Check *action*, then apply it (what :func:`commerce.engine.apply` calls).

    :raises IllegalActionError: with the reason, if *action* is not legal in *s*.
    """
    check(s, action)
    return apply_unchecked(s, action)


def apply_unchecked(s: TradingState, action: Action) -> Transition:
    """Apply an action already known to be legal (one of :func:`legal_actions`, or
    :func:`sample_chance`'s): :func:`apply` without the check, for the search's playouts."""
    kind = action.kind
    if kind is ActionKind.DEAL:
        if s.phase is Phase.DRAW:
            return draw(s, action.cards[0])
        return deal_cards(s, action.cards)
    if kind is ActionKind.STAND:
        return stand(s)
    if kind is ActionKind.TRADE:
        return trade(s, action.cards[0])
    if kind is ActionKind.BARTER:
        return offer_barter(s, action.cards[0])
    if kind is ActionKind.GIVE:
        return give_back(s, action.cards[0])
    return next_turn(s, ())  # done: the turn passes
