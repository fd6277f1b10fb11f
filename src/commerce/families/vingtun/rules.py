"""Peel's Vingt-un, the reference rules: what may be done now, and what it does.

A game is a session of deals (a deal is one dealer's whole turn); each deal is a run of hands
(:mod:`.deal`); in a hand the players stake on a first card, the dealer may double, a second
card comes, naturals are paid, pairs are divided, each player draws, the dealer draws last and
settles (:mod:`.turn`, :mod:`.settle`). This module gathers the hooks the engine calls.

Peel's irregularities are a human dealer's mistakes, and the engine refuses the actions they
would need: two cards given at once to a drawing player or to the dealer himself (a deal of
several cards is legal only where each card in turn is chance's to deal), drawing separately
on two cards that do not pair (``divide`` needs a pair), cards out of order (chance's card
always goes to the hand whose turn it is).
"""

from __future__ import annotations

import random

from commerce.cards import format_card, rank_of
from commerce.core import Action, ActionKind, Event, Transition
from commerce.errors import IllegalActionError, IllegalReason
from commerce.families.vingtun.deal import available, new_game, renew, renewal_due, turn_up
from commerce.families.vingtun.observe import VingtUnObservation, observe, reveal_all
from commerce.families.vingtun.options import VingtUnOptions, stakes
from commerce.families.vingtun.settle import outcome
from commerce.families.vingtun.state import (
    CHANCE_PHASES,
    Phase,
    VingtUnState,
    decision,
    value,
)
from commerce.families.vingtun.turn import (
    ask_card,
    content,
    divide,
    double,
    draw_card,
    keep,
    round_card,
    stake,
)

__all__ = [
    "Phase", "VingtUnObservation", "VingtUnState", "apply", "check", "decision",
    "legal_actions", "new_game", "observe", "outcome", "reveal_all", "sample_chance",
]

_CONTENT = Action(ActionKind.CONTENT)
_CARD = Action(ActionKind.DRAW)
_DIVIDE = Action(ActionKind.DIVIDE)
_DOUBLE = Action(ActionKind.DOUBLE)
_DECLINE = Action(ActionKind.DECLINE)


def may_divide(s: VingtUnState) -> bool:
    """Whether the actor may divide: it is the time to (before the drawing, or on his own
    turn: ``divide_when``), his two first cards pair under the ``divide`` option, he has not
    divided already, and two cards can be given. The dealer never divides (decision #49)."""
    opts = VingtUnOptions.of(s.ruleset)
    rule = opts.divide
    when = Phase.DIVIDE if opts.divide_when == "before_drawing" else Phase.PLAY
    if s.phase is not when:
        return False
    own = s.round.hands[s.current.actor]
    if rule == "never" or len(own) != 1 or len(own[0].cards) != 2 or available(s) < 2:
        return False
    a, b = own[0].cards
    return rank_of(a) == rank_of(b) if rule == "same_rank" else value(a) == value(b)


def legal_actions(s: VingtUnState) -> tuple[Action, ...]:
    """Legal actions in a fixed order: chance's cards in card order; stakes from the least;
    double then decline; divide then decline (before the drawing); content, card, divide."""
    phase = s.phase
    if phase in CHANCE_PHASES:
        return tuple(Action(ActionKind.DEAL, (c,)) for c in s.round.stock)
    if phase is Phase.STAKE:
        return tuple(Action(ActionKind.STAKE, amount=k) for k in stakes(s.ruleset))
    if phase is Phase.DOUBLE:
        return (_DOUBLE, _DECLINE)
    if phase is Phase.DIVIDE:
        return (_DIVIDE, _DECLINE) if may_divide(s) else (_DECLINE,)
    if phase is Phase.PLAY or phase is Phase.DEALER:
        out = [_CONTENT]
        if available(s):
            out.append(_CARD)
        if phase is Phase.PLAY and may_divide(s):
            out.append(_DIVIDE)
        return tuple(out)
    return ()


def check(s: VingtUnState, action: Action) -> None:
    """Raise :class:`IllegalActionError` with a reason unless *action* is legal."""
    phase = s.phase
    if phase is Phase.OVER:
        raise IllegalActionError(IllegalReason.GAME_OVER, "the game is over")
    if phase in CHANCE_PHASES:
        _check_chance(s, action)
        return
    if action in legal_actions(s):
        return
    kind = action.kind
    if kind is ActionKind.DEAL:
        raise IllegalActionError(IllegalReason.WRONG_KIND, "no card is being dealt now")
    if action.cards:
        raise IllegalActionError(IllegalReason.WRONG_KIND, f"{kind.value} names no card")
    rules = s.ruleset
    opts = VingtUnOptions.of(rules)
    if phase is Phase.STAKE:
        if kind is ActionKind.STAKE:
            raise IllegalActionError(
                IllegalReason.NOT_ALLOWED_BY_RULES,
                f"stake from {opts.min_stake} to {stakes(rules)[-1]} counters, e.g. "
                f"'stake {opts.min_stake}'")
        raise IllegalActionError(IllegalReason.WRONG_KIND,
                                 "stake on your first card now, e.g. 'stake 1'")
    if phase is Phase.DOUBLE:
        raise IllegalActionError(IllegalReason.WRONG_KIND,
                                 "as dealer, say 'double' or 'decline' on your first card")
    if kind is ActionKind.DIVIDE and phase is Phase.PLAY and opts.divide_when != "own_turn":
        raise IllegalActionError(
            IllegalReason.NOT_ALLOWED_BY_RULES,
            "pairs are divided before the drawing, each player being asked in turn "
            "(divide_when=before_drawing)")
    if kind is ActionKind.DIVIDE and phase in (Phase.PLAY, Phase.DIVIDE):
        raise IllegalActionError(
            IllegalReason.NOT_ALLOWED_BY_RULES,
            "only two first cards that pair may be divided (drawing separately on cards that "
            "do not pair is an irregularity)")
    if phase is Phase.DIVIDE:
        raise IllegalActionError(
            IllegalReason.WRONG_KIND,
            "before the drawing, say 'divide' to divide a pair or 'decline' to keep your two "
            "cards as one hand")
    if kind is ActionKind.DRAW and not available(s):
        raise IllegalActionError(IllegalReason.CARD_NOT_AVAILABLE, "no card is left to give")
    if action.amount is not None:
        raise IllegalActionError(IllegalReason.WRONG_KIND, f"{kind.value} names no amount")
    raise IllegalActionError(IllegalReason.WRONG_KIND,
                             "say 'content' or ask for a 'card'"
                             + (" or 'divide'" if phase is Phase.PLAY
                                and opts.divide_when == "own_turn" else ""))


def _check_chance(s: VingtUnState, action: Action) -> None:
    """Chance gives one card of the unseen stock; several named at once are dealt one after
    the other, each to the hand whose turn it is, and only while chance keeps the turn."""
    if action.kind is not ActionKind.DEAL:
        raise IllegalActionError(IllegalReason.NOT_YOUR_TURN,
                                 "chance must act now (deal a card), not a player")
    if action.amount is not None or not action.cards:
        raise IllegalActionError(IllegalReason.CARD_NOT_AVAILABLE, "a deal names its cards")
    if len(set(action.cards)) != len(action.cards):
        raise IllegalActionError(IllegalReason.CARD_NOT_AVAILABLE, "a deal names each card once")
    state = s
    for i, card in enumerate(action.cards):
        if card not in state.round.stock:
            raise IllegalActionError(
                IllegalReason.CARD_NOT_AVAILABLE,
                f"{format_card(card) if 0 <= card < 52 else card} is not in the stock")
        if i:
            d = decision(state)
            if d is None or d.seat is not None:
                raise IllegalActionError(
                    IllegalReason.NOT_ALLOWED_BY_RULES,
                    "one card at a time: the cards named go past chance's turn (a player is "
                    "given two cards at once)")
        if i < len(action.cards) - 1:
            state = _one(state, card).state


def _one(s: VingtUnState, card: int) -> Transition:
    """Chance's one card, by where the hand stands."""
    if s.phase is Phase.CHOOSE:
        return turn_up(s, card)
    if renewal_due(s):
        return renew(s, card)
    if s.phase is Phase.DRAW:
        return draw_card(s, card)
    return round_card(s, card)


def apply(s: VingtUnState, action: Action) -> Transition:
    """Check *action*, then apply it (what :func:`commerce.engine.apply` calls).

    :raises IllegalActionError: with the reason, if *action* is not legal in *s*.
    """
    check(s, action)
    kind = action.kind
    if kind is ActionKind.DEAL:
        events: tuple[Event, ...] = ()
        for card in action.cards:
            t = _one(s, card)
            s, events = t.state, events + t.events
        return Transition(s, events)
    if kind is ActionKind.STAKE:
        assert action.amount is not None
        return stake(s, action.amount)
    if kind is ActionKind.DECLINE and s.phase is Phase.DIVIDE:
        return keep(s, may_divide(s))
    if kind is ActionKind.DOUBLE or kind is ActionKind.DECLINE:
        return double(s, kind is ActionKind.DOUBLE)
    if kind is ActionKind.CONTENT:
        return content(s)
    if kind is ActionKind.DIVIDE:
        return divide(s)
    return ask_card(s)


def sample_chance(s: VingtUnState, rng: random.Random) -> Action:
    """Chance's next card: any card of the unseen stock, alike."""
    return Action(ActionKind.DEAL, (rng.choice(s.round.stock),))

