"""The ruleset options Cox's game reads, and its checks of them together."""

from __future__ import annotations

from typing import Final

from commerce.errors import RulesetError
from commerce.rules import COMMON_OPTIONS, Ruleset

OPTIONS: Final = COMMON_OPTIONS | frozenset({
    "hands_per_game", "buy_priority", "buy_offers", "captain_can_be_fourth",
    "bank_double_order", "bank_counts_for_clear_hand", "last_discard_buyable",
    "replacement_fallback",
})
"""Every option a Cox ruleset may set (``commerce rules show cox`` lists them)."""


def validate(rules: Ruleset) -> None:
    """Refuse option values Cox's game cannot play.

    :raises RulesetError: naming the option.
    """
    if rules.pack != 80:
        raise RulesetError("option pack: the cox family plays with the 80-card pack")
    if rules.hands_per_game < 1:
        raise RulesetError("option hands_per_game: must be at least 1")
