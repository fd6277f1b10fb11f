"""Notation of Vingt-un's actions: ``stake 3``, ``double``, ``decline`` (no double),
``content``, ``card`` (ask for a card), ``divide``, and chance's ``deal AS`` (several cards
dealt one after the other).

>>> format_action(parse_action("stake 3"))
'stake 3'
>>> parse_action("stake 3").amount
3
"""

from __future__ import annotations

from typing import Final

from commerce.cards import format_cards, parse_card
from commerce.core import Action, ActionKind
from commerce.errors import NotationError

_PLAIN: Final = {"double": ActionKind.DOUBLE, "decline": ActionKind.DECLINE,
                 "content": ActionKind.CONTENT, "card": ActionKind.DRAW,
                 "divide": ActionKind.DIVIDE}
_WORD: Final = {kind: word for word, kind in _PLAIN.items()}
_WORDS: Final = (*sorted(_PLAIN), "deal", "stake")


def format_action(action: Action) -> str:
    """``stake 3``, ``double``, ``decline``, ``content``, ``card``, ``divide``, ``deal AS``."""
    if action.kind is ActionKind.STAKE:
        return f"stake {action.amount}"
    if action.kind is ActionKind.DEAL:
        return f"deal {format_cards(action.cards)}"
    return _WORD.get(action.kind, action.kind.value)


def parse_action(text: str) -> Action:
    """Parse :func:`format_action` notation (case-insensitive).

    :raises NotationError: naming the bad word, card or amount.
    """
    words = text.split()
    if not words:
        raise NotationError("empty action")
    word = words[0].lower()
    if word == "stake":
        if len(words) != 2 or not words[1].isdigit() or len(words[1]) > 6:
            raise NotationError("stake takes an amount in counters, e.g. 'stake 2'")
        return Action(ActionKind.STAKE, amount=int(words[1]))
    if word == "deal":
        if len(words) < 2:
            raise NotationError("deal names its cards, e.g. 'deal AS'")
        cards = tuple(parse_card(w) for w in words[1:])
        if len(set(cards)) != len(cards):
            raise NotationError("a deal names each card once")
        return Action(ActionKind.DEAL, cards)
    kind = _PLAIN.get(word)
    if kind is None:
        raise NotationError(f"{words[0]!r} is not an action here; actions are: "
                            f"{', '.join(_WORDS)}")
    if len(words) != 1:
        raise NotationError(f"{word} takes nothing after it")
    return Action(kind)
