"""The ruleset options the trading family reads, and its checks of them together."""

from __future__ import annotations

from typing import Final

from commerce.errors import RulesetError
from commerce.rules import COMMON_OPTIONS, RANKING_OPTIONS, Ruleset

OPTIONS: Final = COMMON_OPTIONS | RANKING_OPTIONS | frozenset({
    "ante", "dealer_ante", "trade_cost", "dealer_may_trade", "dealer_trade_cost", "may_barter",
    "barter_direction", "barter_partner_may_stand", "barter_return_from_original_hand",
    "stand_allowed", "stand_after_trade", "stander_penalty", "stander_pays_equal_hands",
    "dealer_pays_winner",
    "best_tie_rule", "max_rounds_per_deal", "deals_each",
})
"""Every option a trading ruleset may set (``commerce rules show peel`` lists them)."""


def validate(rules: Ruleset) -> None:
    """Refuse option values the trading rules cannot play.

    :raises RulesetError: naming the option.
    """
    if rules.pack == 80:
        raise RulesetError("option pack: the 80-card pack is for the cox family, which needs it")
    for name in ("ante", "dealer_ante", "trade_cost", "dealer_trade_cost",
                 "dealer_pays_winner", "max_rounds_per_deal"):
        if getattr(rules, name) < 0:
            raise RulesetError(f"option {name}: must not be negative")
    if rules.deals_each < 1:
        raise RulesetError("option deals_each: must be at least 1")
    if rules.best_tie_rule == "all_paid":
        raise RulesetError("option best_tie_rule: 'all_paid' is for the widow family")
