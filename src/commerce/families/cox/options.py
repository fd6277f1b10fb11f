"""The ruleset options Cox's game reads, and its checks of them together."""

from __future__ import annotations

from dataclasses import dataclass

from commerce.errors import RulesetError
from commerce.rules import FamilyOptions, Ruleset, option


@dataclass(frozen=True, slots=True, kw_only=True)
class CoxOptions(FamilyOptions):
    """Cox's own options: the hands of a game, buying, the Captains and the Bank.

    Read them typed from a ruleset with :meth:`~commerce.rules.FamilyOptions.of`:

    >>> from commerce.rules import find_ruleset
    >>> CoxOptions.of(find_ruleset("cox")).hands_per_game
    4
    """

    hands_per_game: int = option(
        4, "Cox: hands played in a game; the highest total score wins.",
        bounds=(1, 100),
    )
    buy_priority: str = option(
        "turn_order_from_discarder",
        "Cox: who gets a discard several players want to buy: the nearest to the discarder in "
        "turn order (the booklet's 'whoever speaks first' cannot be played turn by turn).",
        ("turn_order_from_discarder",),
    )
    buy_offers: str = option(
        "every_seat",
        "Cox: after a discard, ask every other player in turn order whether he buys, those who "
        "may not buy only declining ('every_seat': nobody learns who could have bought), or ask "
        "only those who may buy ('eligible_only': faster, but it shows who holds a pair).",
        ("every_seat", "eligible_only"),
    )
    captain_can_be_fourth: bool = option(
        False, "Cox: a Captain may be the fourth card of a four of a kind."
    )
    bank_double_order: str = option(
        "after_penalty",
        "Cox: the Bank doubles the score after the clear-hand penalty ('after_penalty': the net "
        "score, so -5 becomes -10) or before it ('before_penalty').",
        ("after_penalty", "before_penalty"),
    )
    bank_counts_for_clear_hand: bool = option(
        False, "Cox: the Bank spoils a clear hand like a black card of another suit."
    )
    last_discard_buyable: str = option(
        "sell_out_only",
        "Cox: once the supply is empty, the last discard may be bought only to sell out "
        "('sell_out_only'), like any other discard ('yes'), or not at all ('no').",
        ("sell_out_only", "yes", "no"),
    )
    replacement_fallback: str = option(
        "any_base_bottom",
        "Cox: when Supply Base No. 4 is empty, a replacement for a Greenback or a fourth card "
        "comes from the bottom of the last base that has cards ('any_base_bottom'), or is not "
        "drawn ('skip').",
        ("any_base_bottom", "skip"),
    )


def validate(rules: Ruleset) -> None:
    """Refuse option values Cox's game cannot play.

    :raises RulesetError: naming the option.
    """
    if rules.pack != 80:
        raise RulesetError("option pack: the cox family plays with the 80-card pack")
    if CoxOptions.of(rules).hands_per_game < 1:
        raise RulesetError("option hands_per_game: must be at least 1")
