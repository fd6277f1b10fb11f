"""The notation of Cox's game: actions in words (``draw``, ``buy``, ``discard A1`` ...).

Actions name a card by its face (copies are alike, docs/rulesets/cox.md); ``deal`` names Directors
cards (W, R, X) or cards of the pack placed in the supply.
"""

from __future__ import annotations

from typing import Final

from commerce.core import Action, ActionKind
from commerce.errors import NotationError
from commerce.families.cox.cards import face_card, format_cox_card, parse_cox_cards
from commerce.families.cox.observe import CoxObservation
from commerce.families.cox.state import DIRECTOR_NAMES

_DIRECTOR_BY_NAME: Final = {v: k for k, v in DIRECTOR_NAMES.items()}
_K_BUY: Final = ActionKind.BUY
_K_DEAL: Final = ActionKind.DEAL
_K_DECLINE: Final = ActionKind.DECLINE
_K_DISCARD: Final = ActionKind.DISCARD
_K_DRAW: Final = ActionKind.DRAW
_K_SELL_OUT: Final = ActionKind.SELL_OUT
_DRAW: Final = Action(_K_DRAW)
_BUY: Final = Action(_K_BUY)
_DECLINE: Final = Action(_K_DECLINE)
_DISCARD: Final = tuple(Action(_K_DISCARD, (c,)) for c in range(80))
_SELL: Final = tuple(Action(_K_SELL_OUT, (c,)) for c in range(80))

_WORDS: Final = {
    "draw": _K_DRAW, "buy": _K_BUY, "decline": _K_DECLINE,
    "pass": _K_DECLINE, "discard": _K_DISCARD, "sell_out": _K_SELL_OUT,
    "sellout": _K_SELL_OUT, "sell": _K_SELL_OUT, "deal": _K_DEAL,
}


def format_action(action: Action) -> str:
    """``draw``, ``buy``, ``decline``, ``discard A1``, ``sell_out G2``, ``deal W X R ...``."""
    if action.cards:
        words = [DIRECTOR_NAMES.get(c) or format_cox_card(c) for c in action.cards]
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


