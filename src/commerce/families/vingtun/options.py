"""The ruleset options of Peel's Vingt-un, and its checks of them together.

Every option names the rule it settles; ``docs/rulesets/vingt-un.md`` gives each default's
source or reason (Peel, *Round Games with Cards*, 1891, the Vingt-un chapter).
"""

from __future__ import annotations

from dataclasses import dataclass

from commerce.errors import RulesetError
from commerce.rules import FamilyOptions, Ruleset, option


def stakes(rules: Ruleset) -> range:
    """The stakes allowed: from ``min_stake`` to ``max_stake`` (at least ``min_stake``)."""
    opts = VingtUnOptions.of(rules)
    return range(opts.min_stake, max(opts.min_stake, opts.max_stake) + 1)


@dataclass(frozen=True, slots=True, kw_only=True)
class VingtUnOptions(FamilyOptions):
    """Vingt-un's own options: stakes, naturals, divided pairs, the deal, the pool.

    Read them typed from a ruleset with :meth:`~commerce.rules.FamilyOptions.of`:

    >>> from commerce.rules import find_ruleset
    >>> VingtUnOptions.of(find_ruleset("vingt-un")).natural_pays
    2
    """

    min_stake: int = option(1, "The least a player may stake on his first card, in counters.",
                            bounds=(1, 100))
    max_stake: int = option(
        4, "The most a player may stake on his first card, in counters (a maximum below the "
           "minimum is read as the minimum).", bounds=(1, 100))
    dealer_may_double: bool = option(
        True, "The dealer, having looked at his first card, may call 'double' (every stake "
              "doubled).")
    natural_pays: int = option(
        2, "A natural (an ace and a ten-card as the first two cards) is paid this many stakes.",
        bounds=(1, 10))
    drawn_21_pays: int = option(
        2, "A hand of 21 in three or more cards (or on a divided pair) wins or collects this "
           "many stakes.", bounds=(1, 10))
    first_hand_natural_exception: bool = option(
        True, "A player's natural in the first hand of a deal is paid as a drawn Vingt-un and "
              "does not put the dealer out.")
    deal_passes_to: str = option(
        "next", "Where the deal goes when a player's natural puts the dealer out: to the "
                "dealer's neighbour ('next', Peel) or to the natural's holder ('natural', the "
                "old custom; of several, the first from the dealer's left).",
        ("next", "natural"))
    natural_bonus: str = option(
        "none", "The old privileges of a natural: none; one stake, or two, from each other "
                "player (other naturals exempt); or the pool.",
        ("none", "stake_from_each", "double_from_each", "pool"))
    privilege_stake: str = option(
        "staked", "Under natural_bonus stake_from_each or double_from_each, the stake each other "
                  "player pays on: the counters the natural's holder staked on his card "
                  "('staked'), or that stake doubled when the dealer called 'double' "
                  "('doubled').", ("staked", "doubled"))
    pool_naturals: str = option(
        "first", "Under natural_bonus pool, naturals at several seats: the first from the "
                 "dealer's left, the first to declare, takes the whole pool ('first'), or they "
                 "share it, the odd counters staying in the pool ('shared').",
        ("first", "shared"))
    divide: str = option(
        "same_rank", "Which two first cards may be divided into two hands: of the same rank, "
                     "of the same value (ten and king), or never.",
        ("same_rank", "same_value", "never"))
    divide_when: str = option(
        "before_drawing", "When pairs are divided: each player in turn from the dealer's left "
                          "says whether he divides, and the halves get their second cards, "
                          "before anyone draws ('before_drawing', Peel); or on the player's own "
                          "drawing turn ('own_turn', version 1).",
        ("before_drawing", "own_turn"))
    deal_limit: str = option(
        "natural", "What ends a deal: a player's natural ('natural', Peel), a number of hands "
                   "('hands', see deal_hands) or the pack gone through twice ('twice_through').",
        ("natural", "hands", "twice_through"))
    deal_hands: int = option(5, "Hands in a deal when deal_limit is 'hands'.", bounds=(1, 100))
    max_hands_per_deal: int = option(
        60, "House rule: a deal ends after this many hands whatever the limit (0 = none).",
        bounds=(0, 1000))
    deals_each: int = option(
        1, "A session ends after players x this many deals (a deal is a dealer's whole turn).",
        bounds=(1, 100))
    first_dealer: str = option(
        "first_ace", "Who deals first: the first player dealt an ace, cards turned face up "
                     "('first_ace', Peel), or the seat the driver names ('given').",
        ("first_ace", "given"))
    pool_ante: int = option(
        0, "Pool feed (a): counters each player puts in the pool at the start of each deal.",
        bounds=(0, 100))
    pool_dealer_overdraw: int = option(
        0, "Pool feed (b): counters the dealer puts in the pool when he over-draws.",
        bounds=(0, 100))
    pool_tie_share: str = option(
        "none", "Pool feed (c): the share of what the dealer receives on ties that goes to the "
                "pool.", ("none", "quarter", "third"))
    pool_tie_share_of: str = option(
        "hand", "Pool feed (c) is reckoned on the dealer's receipts on ties in the whole hand, "
                "rounded down once ('hand'), or on each tie's, rounded down each time ('tie', "
                "version 1).", ("hand", "tie"))
    sell_deal: bool = option(
        False, "Selling the deal (Peel's option); refused: see the ruleset page.")


def validate(rules: Ruleset) -> None:
    """Refuse option values the Vingt-un rules cannot play.

    :raises RulesetError: naming the option.
    """
    if rules.pack != 52:
        raise RulesetError("option pack: Vingt-un is played with the 52-card pack")
    if VingtUnOptions.of(rules).sell_deal:
        raise RulesetError(
            "option sell_deal: selling the deal is not played: a price needs a bargain between "
            "two players that the bots cannot make fairly (see docs/rulesets/vingt-un.md)")
