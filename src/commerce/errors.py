"""Errors raised by the Commerce library.

All of them derive from :class:`CommerceError`, itself a :class:`ValueError`, so a caller can
catch bad input in one place.
"""

from __future__ import annotations

from enum import StrEnum


class CommerceError(ValueError):
    """Base class of every error the library raises for bad input."""


class NotationError(CommerceError):
    """Text that is not valid card, hand or action notation."""


class RulesetError(CommerceError):
    """An unknown ruleset, an unknown option or an invalid option value."""


class RecordError(CommerceError):
    """A game record that cannot be read, is damaged, or does not replay."""


class IllegalReason(StrEnum):
    """Why an action was refused."""

    GAME_OVER = "game_over"
    """The game has ended; nothing more can be played."""
    NOT_YOUR_TURN = "not_your_turn"
    """Another seat (or chance) must act now."""
    WRONG_KIND = "wrong_kind"
    """This kind of action is not allowed at this point."""
    CARD_NOT_HELD = "card_not_held"
    """The action names a card the seat does not hold."""
    CARD_NOT_AVAILABLE = "card_not_available"
    """The action names a card that is not where it must come from."""
    NOT_ALLOWED_BY_RULES = "not_allowed_by_rules"
    """The ruleset forbids this action here."""


class IllegalActionError(CommerceError):
    """An action that is well formed but not legal in the current state.

    :ivar reason: machine-readable cause, one of :class:`IllegalReason`.
    """

    def __init__(self, reason: IllegalReason, message: str) -> None:
        super().__init__(message)
        self.reason = reason
