"""The ruleset options the widow family reads, and its checks of them together."""

from __future__ import annotations

from typing import Final

from commerce.errors import RulesetError
from commerce.rules import COMMON_OPTIONS, RANKING_OPTIONS, Ruleset

OPTIONS: Final = COMMON_OPTIONS | RANKING_OPTIONS | frozenset({
    "best_tie_rule", "max_rounds_per_deal", "deals_each", "widow_size",
    "max_exchange_per_turn", "pass_locks_out", "exchange_all_three_locks", "end_condition",
    "add_widow_card_each_round", "dealer_blind_exchange", "token_flow", "starting_tokens",
    "deals", "pool_entry", "deal_prize", "buy_a_horse", "horse_price", "worst_tie_rule",
    "no_qualifier_rule", "pounce", "pounce_on_initial_widow", "pounce_after_pass",
})
"""Every option a widow-family ruleset may set (``commerce rules show widow`` lists them)."""


def validate(rules: Ruleset) -> None:
    """Refuse option values, and combinations, the widow rules cannot play.

    :raises RulesetError: naming the options.
    """
    if rules.pack == 80:
        raise RulesetError("option pack: the 80-card pack is for the cox family, which needs it")
    for name in ("max_rounds_per_deal", "starting_tokens", "deals", "pool_entry", "deal_prize",
                 "horse_price"):
        if getattr(rules, name) < 0:
            raise RulesetError(f"option {name}: must not be negative")
    if rules.deals_each < 1:
        raise RulesetError("option deals_each: must be at least 1")
    if not 1 <= rules.widow_size <= 5:
        raise RulesetError("option widow_size: must be from 1 to 5")
    if not 1 <= rules.max_exchange_per_turn <= 3:
        raise RulesetError("option max_exchange_per_turn: must be from 1 to 3")
    if rules.starting_tokens < 1:
        raise RulesetError("option starting_tokens: must be at least 1")
    if rules.pounce and not rules.four_of_a_kind:
        raise RulesetError("option pounce: needs four_of_a_kind=true (a pounced four must "
                           "rank)")
    if rules.best_tie_rule == "split_pool":
        raise RulesetError("option best_tie_rule: 'split_pool' is for the trading family")
    if rules.best_tie_rule == "all_paid" and rules.token_flow != "stake_from_each":
        raise RulesetError("option best_tie_rule: 'all_paid' needs "
                           "token_flow='stake_from_each'")
    if rules.buy_a_horse and rules.token_flow != "lowest_to_pool":
        raise RulesetError("option buy_a_horse: needs token_flow='lowest_to_pool' (a horse "
                           "is bought from the pool)")
    if rules.dealer_blind_exchange == "all_or_nothing" and rules.widow_size != 3:
        raise RulesetError("option dealer_blind_exchange: 'all_or_nothing' needs "
                           "widow_size=3")
    cards = 3 * rules.max_players + rules.widow_size
    if cards > rules.pack:
        raise RulesetError(f"options max_players and widow_size: {cards} cards are dealt, "
                           f"more than the {rules.pack}-card pack")
