"""The ruleset options the trading family reads, and its checks of them together."""

from __future__ import annotations

from dataclasses import dataclass

from commerce.errors import RulesetError
from commerce.rules import RoundOptions, Ruleset, option


@dataclass(frozen=True, slots=True, kw_only=True)
class TradingOptions(RoundOptions):
    """The trading family's own options: stakes, ready money, barter and standing.

    Read them typed from a ruleset with :meth:`~commerce.rules.FamilyOptions.of`:

    >>> from commerce.rules import find_ruleset
    >>> TradingOptions.of(find_ruleset("peel")).trade_cost
    1
    """

    ante: int = option(
        1, "Stakes each player puts in the pool at the start of a deal.",
        bounds=(0, 100),
    )
    dealer_ante: int = option(
        2, "Stakes the dealer puts in the pool (his ante included).",
        bounds=(0, 100),
    )
    trade_cost: int = option(
        1, "Stakes a player pays the dealer to trade for ready money.",
        bounds=(0, 100),
    )
    dealer_may_trade: bool = option(True, "The dealer may trade with the stock on his own turn.")
    dealer_trade_cost: int = option(
        0, "What the dealer pays (to the pool) to trade with the stock.",
        bounds=(0, 100),
    )
    may_barter: bool = option(True, "Barter with a neighbour is allowed.")
    barter_direction: str = option(
        "left", "Which neighbour a barter is offered to.", ("left", "right")
    )
    barter_partner_may_stand: bool = option(
        True, "The player offered a barter may refuse it by standing at once."
    )
    barter_return_from_original_hand: bool = option(
        True, "The partner gives back one of his own cards, not the card just offered."
    )
    stand_allowed: str = option(
        "any_time",
        "When a player may stand: 'any_time' (start of a turn or after his own trade), or "
        "'with_combination' (only holding a tricon, sequence or point; T&B's knock).",
        ("any_time", "with_combination"),
    )
    stand_after_trade: bool = option(
        True, "A player may stand right after his own trade or barter in the same turn."
    )
    stander_penalty: str = option(
        "each_better_hand",
        "What a beaten stander pays: one stake to each better hand, one to the best hand only, "
        "or nothing.",
        ("each_better_hand", "best_hand_only", "none"),
    )
    stander_pays_equal_hands: bool = option(
        False,
        "A beaten stander also pays a hand only equal to his that the tie rule places ahead of "
        "him (the behaviour of trading presets of version 1; Peel: 'the better hands').",
    )
    dealer_pays_winner: int = option(
        1, "Stakes the dealer pays the best hand when someone else wins.",
        bounds=(0, 100),
    )


def validate(rules: Ruleset) -> None:
    """Refuse option values the trading rules cannot play.

    :raises RulesetError: naming the option.
    """
    opts = TradingOptions.of(rules)
    if rules.pack == 80:
        raise RulesetError("option pack: the 80-card pack is for the cox family, which needs it")
    for name in ("ante", "dealer_ante", "trade_cost", "dealer_trade_cost",
                 "dealer_pays_winner", "max_rounds_per_deal"):
        if getattr(rules, name) < 0:
            raise RulesetError(f"option {name}: must not be negative")
    if opts.deals_each < 1:
        raise RulesetError("option deals_each: must be at least 1")
    if opts.best_tie_rule == "all_paid":
        raise RulesetError("option best_tie_rule: 'all_paid' is for the widow family")
