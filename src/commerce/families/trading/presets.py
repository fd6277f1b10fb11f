"""The trading family's presets, each with its sources (see docs/rulesets/ for the prose)."""

from __future__ import annotations

from commerce.families.trading.options import TradingOptions
from commerce.family import Preset, preset
from commerce.rules import make_ruleset

PEEL = preset(
    make_ruleset(
        TradingOptions,
        id="peel",
        version=2,
        name="Commerce, Peel's new mode",
        family="trading",
        sources=(
            "W. H. Peel ('Baxter-Wray'), Round Games with Cards (1891/1897), Commerce, "
            "pp. 70-76 (Project Gutenberg #27819)",
        ),
        option_sources=(
            ("pack", "Peel: 52 cards, or the 32-card pack for at most 7 players"),
            ("max_players", "Peel: up to 12 with 52 cards"),
            ("min_players", "house rule (Peel gives no minimum, Hoyle 3)"),
            ("direction", "Peel: deal, play and the deal pass to the left"),
            ("ranking", "Peel: tricon, sequence, flush, pair, point"),
            ("ace_low_sequence", "Peel: the ace may begin or end a sequence"),
            ("ace_low_sequence_rank", "Peel: 3-2-A is the lowest sequence"),
            ("flush_compare", "Peel: the higher point (pip total) wins; equal totals by the "
                              "highest differing card"),
            ("pair_kicker", "Peel: equal pairs, the higher odd card wins"),
            ("ante", "Peel: every player puts one stake in the pool"),
            ("dealer_ante", "Peel: the dealer puts in two"),
            ("trade_cost", "Peel: one stake to the dealer personally"),
            ("dealer_may_trade", "house rule after Hoyle: the banker trades with the stock "
                                 "free"),
            ("dealer_trade_cost", "Hoyle: free"),
            ("barter_direction", "Peel: the left-hand neighbour"),
            ("barter_partner_may_stand", "Peel: unless he stands at once"),
            ("barter_return_from_original_hand", "Peel: 'one of those in his hand'"),
            ("stander_penalty", "Peel: 'an additional stake to the holders of the better "
                                "hands'"),
            ("stander_pays_equal_hands", "Peel: 'the better hands'; an equal hand is not better "
                                         "(version 1 paid it)"),
            ("dealer_pays_winner", "Peel: the best hand takes the pool and a stake from the "
                                   "dealer"),
            ("best_tie_rule", "house rule (eldest, the dealer last)"),
            ("max_rounds_per_deal", "house rule"),
            ("deals_each", "Peel: stop before the first dealer deals again"),
        ),
    ),
    "peel-new",
    "new",
    "classic",
    history={1: {"stander_pays_equal_hands": True}},
)


HOYLE = preset(
    make_ruleset(
        TradingOptions,
        id="hoyle",
        version=1,
        name="Commerce, Hoyle's new way",
        family="trading",
        sources=(
            "Hoyle's Games, Improved and Enlarged, pp. 68-70 (childrensnursery.org.uk)",
            "Hoyle (Google Books id Wi4VAAAAYAAJ), p. 179",
        ),
        option_sources=(
            ("min_players", "Hoyle: 3 to 12 players"),
            ("max_players", "Hoyle: 3 to 12 players"),
            ("direction", "Hoyle: cut by the left-hand player, dealt from the right; play and "
                          "the deal go to the right"),
            ("ranking", "Hoyle: tricon, sequence, point of two or three cards of one suit"),
            ("ace_low_sequence", "house rule: Hoyle is silent"),
            ("ante", "Hoyle: each player puts down one counter a deal"),
            ("dealer_ante", "Hoyle: no double stake for the banker"),
            ("trade_cost", "Hoyle: a card and a counter to the banker"),
            ("dealer_may_trade", "Hoyle: the banker trades with the stock"),
            ("dealer_trade_cost", "Hoyle: the banker trades free of charge"),
            ("barter_direction", "Hoyle: barter with the next right-hand player"),
            ("barter_partner_may_stand", "Hoyle: the partner may not refuse"),
            ("stander_penalty", "Hoyle names no stander penalty"),
            ("dealer_pays_winner", "Hoyle: the banker pays one counter to the winner if he "
                                   "does not win"),
            ("best_tie_rule", "Hoyle: on equal hands the banker counts as eldest"),
            ("max_rounds_per_deal", "house rule"),
            ("deals_each", "Hoyle: a fixed number of complete rounds of deals (house: one)"),
        ),
        ranking="suit_point",
        direction="right",
        barter_direction="right",
        ace_low_sequence=True,
        ante=1,
        dealer_ante=1,
        trade_cost=1,
        dealer_may_trade=True,
        dealer_trade_cost=0,
        barter_partner_may_stand=False,
        stander_penalty="none",
        dealer_pays_winner=1,
        best_tie_rule="dealer_as_eldest",
    ),
    "hoyle-new",
)


TRADE_AND_BARTER = preset(
    make_ruleset(
        TradingOptions,
        id="trade-and-barter",
        version=1,
        name="Commerce, Trade and Barter",
        family="trading",
        sources=(
            "CatsAtCards, Commerce: Trade and Barter (catsatcards.com/Games/Commerce.html)",
            "janeausten.co.uk, Instructions for Commerce (the pot, the price of a trade)",
        ),
        option_sources=(
            ("ranking", "CatsAtCards: tricon, sequence, point of the cards of one suit "
                        "(at least two)"),
            ("ace_low_sequence", "CatsAtCards: the lowest card of a sequence is a 2"),
            ("direction", "CatsAtCards: from the player at the dealer's left"),
            ("ante", "janeausten.co.uk: everyone antes to a pot"),
            ("dealer_ante", "janeausten.co.uk: everyone antes to a pot"),
            ("dealer_pays_winner", "janeausten.co.uk: the best hand takes the pot"),
            ("trade_cost", "CatsAtCards names no price (janeausten.co.uk: one chip; set "
                           "trade_cost=1)"),
            ("dealer_trade_cost", "house rule after Hoyle: free"),
            ("barter_direction", "CatsAtCards: the player to his immediate left"),
            ("barter_partner_may_stand", "CatsAtCards: the neighbour passes back a card of his "
                                         "choice"),
            ("stand_allowed", "CatsAtCards: knock only with a tricon, sequence or point"),
            ("stand_after_trade", "CatsAtCards: trade, barter or knock is the turn's one action"),
            ("stander_penalty", "CatsAtCards: the hand ends and hands are compared"),
            ("best_tie_rule", "CatsAtCards: more cards, then nearest the dealer in rotation"),
            ("max_rounds_per_deal", "house rule"),
        ),
        ranking="suit_point",
        ace_low_sequence=False,
        ante=1,
        dealer_ante=1,
        trade_cost=0,
        dealer_trade_cost=0,
        barter_partner_may_stand=False,
        stand_allowed="with_combination",
        stand_after_trade=False,
        stander_penalty="none",
        dealer_pays_winner=0,
        best_tie_rule="eldest",
    ),
    "trade_and_barter",
    "tb",
)


TRADE_AND_BARTER_MINI = preset(
    TRADE_AND_BARTER.ruleset.derive(
        id="trade-and-barter-mini",
        version=1,
        name="Commerce, Trade and Barter (research variant: two players, 12 cards, one round)",
        option_sources=(
            *(item for item in TRADE_AND_BARTER.ruleset.option_sources
              if item[0] != "max_rounds_per_deal"),
            ("pack", "research variant: the 12-card pack (A K Q), small enough for tree "
                     "algorithms"),
            ("min_players", "research variant: two players"),
            ("max_players", "research variant: two players"),
            ("max_rounds_per_deal", "research variant: one round, then the showdown"),
        ),
        pack=12,
        min_players=2,
        max_players=2,
        max_rounds_per_deal=1,
    ),
    "tb-mini",
)


PRESETS: tuple[Preset, ...] = (PEEL, HOYLE, TRADE_AND_BARTER, TRADE_AND_BARTER_MINI)
"""Every preset of the family, in the order users see them."""
