"""Notation of the trading family's actions: ``stand``, ``done``, ``trade TH``, ``barter 4S``,
``give 9C`` and chance's ``deal AS`` (several cards for the initial deal)."""

from __future__ import annotations

from typing import Final

from commerce.cards import format_cards, parse_card
from commerce.core import Action, ActionKind
from commerce.errors import NotationError

_K_DEAL: Final = ActionKind.DEAL
_K_STAND: Final = ActionKind.STAND
_WORDS: Final = {k.value: k for k in (ActionKind.STAND, ActionKind.DONE, ActionKind.TRADE,
                                      ActionKind.BARTER, ActionKind.GIVE, ActionKind.DEAL)}
_ONE_CARD: Final = frozenset({ActionKind.TRADE, ActionKind.BARTER, ActionKind.GIVE,
                              ActionKind.DEAL})
# One action object per card and kind, made once (actions are values: any equal one will do).
_BY_CARD: Final = {kind: tuple(Action(kind, (c,)) for c in range(52)) for kind in _ONE_CARD}
_STAND: Final = Action(ActionKind.STAND)
_DONE: Final = Action(ActionKind.DONE)


def format_action(action: Action) -> str:
    """``stand``, ``done``, ``trade TH``, ``barter 4S``, ``give 9C``, ``deal AS``."""
    if action.cards:
        return f"{action.kind.value} {format_cards(action.cards)}"
    return action.kind.value


def parse_action(text: str) -> Action:
    """Parse :func:`format_action` notation (case-insensitive).

    :raises NotationError: naming the bad word or card.
    """
    words = text.split()
    if not words:
        raise NotationError("empty action")
    kind = _WORDS.get(words[0].lower())
    if kind is None:
        raise NotationError(
            f"{words[0]!r} is not an action here; actions are: {', '.join(sorted(_WORDS))}"
        )
    if kind is _K_DEAL and len(words) > 2:
        cards = tuple(parse_card(w) for w in words[1:])
        if len(set(cards)) != len(cards):
            raise NotationError("a deal names each card once")
        return Action(_K_DEAL, cards)
    if kind in _ONE_CARD:
        if len(words) != 2:
            raise NotationError(f"{kind.value} takes one card, e.g. '{kind.value} TH'")
        card = parse_card(words[1])
        return _BY_CARD[kind][card]
    if len(words) != 1:
        raise NotationError(f"{kind.value} takes no card")
    return _STAND if kind is _K_STAND else _DONE
