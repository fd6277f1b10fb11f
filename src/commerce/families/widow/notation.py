"""Notation of the widow family's actions: ``pass``, ``knock``, ``stand``, ``done``,
``exchange 2S for KD``, ``exchange KD`` (the dealer's blind exchange), ``pounce 9C``,
``buy_horse``, ``decline``, ``deal 9C``."""

from __future__ import annotations

from typing import Final

from commerce.cards import format_card, format_cards, parse_card
from commerce.core import Action, ActionKind
from commerce.errors import NotationError

_WORDS: Final = {k.value: k for k in (
    ActionKind.PASS, ActionKind.DONE, ActionKind.KNOCK, ActionKind.STAND, ActionKind.DECLINE,
    ActionKind.BUY_HORSE, ActionKind.EXCHANGE, ActionKind.POUNCE, ActionKind.DEAL)}
_BARE: Final = frozenset({ActionKind.PASS, ActionKind.DONE, ActionKind.KNOCK, ActionKind.STAND,
                          ActionKind.DECLINE, ActionKind.BUY_HORSE})


def format_action(action: Action) -> str:
    """``pass``, ``knock``, ``exchange 2S for KD``, ``exchange KD`` (blind), ``pounce 9C``."""
    cards = action.cards
    if action.kind is ActionKind.EXCHANGE and len(cards) == 2:
        return f"exchange {format_card(cards[0])} for {format_card(cards[1])}"
    if cards:
        return f"{action.kind.value} {format_cards(cards)}"
    return action.kind.value


def parse_action(text: str) -> Action:
    """Parse :func:`format_action` notation (case-insensitive).

    :raises NotationError: naming the bad word or card.
    """
    words = text.split()
    if not words:
        raise NotationError("empty action")
    kind = _WORDS.get(words[0].lower().replace("-", "_"))
    if kind is None:
        raise NotationError(
            f"{words[0]!r} is not an action here; actions are: {', '.join(sorted(_WORDS))}"
        )
    rest = words[1:]
    if kind in _BARE:
        if rest:
            raise NotationError(f"{kind.value} takes no card")
        return Action(kind)
    if kind is ActionKind.EXCHANGE:
        if len(rest) == 3 and rest[1].lower() == "for":
            return Action(ActionKind.EXCHANGE, (parse_card(rest[0]), parse_card(rest[2])))
        if len(rest) == 1:
            return Action(ActionKind.EXCHANGE, (parse_card(rest[0]),))
        if len(rest) == 3:
            cards = tuple(parse_card(w) for w in rest)
            if len(set(cards)) != 3:
                raise NotationError("an exchange names each card once")
            return Action(ActionKind.EXCHANGE, cards)
        raise NotationError(
            "write 'exchange GIVE for TAKE' (e.g. 'exchange 2S for KD'), or in the dealer's "
            "blind exchange 'exchange TAKE' or 'exchange TAKE TAKE TAKE'"
        )
    if not rest:
        raise NotationError(f"{kind.value} names a card, e.g. '{kind.value} 9C'")
    cards = tuple(parse_card(w) for w in rest)
    if kind is ActionKind.POUNCE:
        if len(cards) != 1:
            raise NotationError("pounce names one card")
        return Action(ActionKind.POUNCE, cards)
    if len(set(cards)) != len(cards):
        raise NotationError("a deal names each card once")
    return Action(ActionKind.DEAL, cards)
