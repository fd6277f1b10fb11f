"""The registered rulesets, each with its sources (see docs/rulesets/ for the prose)."""

from __future__ import annotations

from commerce.rules import Family, Ruleset, register

PEEL = register(
    Ruleset(
        id="peel",
        version=1,
        name="Commerce, Peel's new mode",
        family=Family.TRADING,
        sources=(
            "W. H. Peel ('Baxter-Wray'), Round Games with Cards (1891/1897), Commerce, "
            "pp. 70-76 (Project Gutenberg #27819); seeds 000 and 002",
            "RULES-DOSSIER.md 1.1 and section 2 #1-#19, #45, #46",
        ),
        option_sources=(
            ("pack", "Peel: 52 cards, or the 32-card pack for at most 7 players"),
            ("max_players", "Peel: up to 12 with 52 cards"),
            ("min_players", "house rule (dossier #45; Peel gives no minimum, Hoyle 3)"),
            ("direction", "Peel: deal, play and the deal pass to the left"),
            ("ranking", "Peel: tricon, sequence, flush, pair, point"),
            ("ace_low_sequence", "Peel: the ace may begin or end a sequence"),
            ("ace_low_sequence_rank", "Peel: 3-2-A is the lowest sequence"),
            ("flush_compare", "Peel: the higher point (pip total) wins; equal totals by the "
                              "highest differing card (dossier #4)"),
            ("pair_kicker", "Peel: equal pairs, the higher odd card wins"),
            ("ante", "Peel: every player puts one stake in the pool"),
            ("dealer_ante", "Peel: the dealer puts in two"),
            ("trade_cost", "Peel: one stake to the dealer personally"),
            ("dealer_may_trade", "house rule after Hoyle: the banker trades with the stock "
                                 "free (dossier #12)"),
            ("dealer_trade_cost", "Hoyle: free (dossier #12)"),
            ("barter_direction", "Peel: the left-hand neighbour"),
            ("barter_partner_may_stand", "Peel: unless he stands at once"),
            ("barter_return_from_original_hand", "Peel: 'one of those in his hand' (dossier #13)"),
            ("stander_penalty", "Peel: 'an additional stake to the holders of the better hands' "
                                "(dossier #14)"),
            ("dealer_pays_winner", "Peel: the best hand takes the pool and a stake from the "
                                   "dealer"),
            ("best_tie_rule", "house rule (dossier: eldest, the dealer last)"),
            ("max_rounds_per_deal", "house rule (dossier #46)"),
            ("deals_each", "Peel: stop before the first dealer deals again"),
        ),
    ),
    "peel-new",
    "new",
    "classic",
)

COX = register(
    Ruleset(
        id="cox",
        version=1,
        name="Commerce, Cox's patented game (1925)",
        family=Family.COX,
        sources=(
            "Herbert T. Cox, Commerce - Rules (Los Angeles, 1925; AGCA archives scan); seed 003",
            "RULES-DOSSIER.md 1.9, section 2 #30-#41, 3.6 and the house rulings",
        ),
        pack=80,
        min_players=2,
        max_players=4,
        direction="right",
        option_sources=(
            ("pack", "Cox: 80 cards, 64 suit cards and 16 honour cards"),
            ("min_players", "Cox: two, three or four players"),
            ("max_players", "Cox: four players are the preferable number"),
            ("direction", "Cox: deal and play to the right"),
            ("hands_per_game", "Cox: four completed hands are played"),
            ("buy_priority", "house ruling (dossier #30; the booklet: whoever speaks first)"),
            ("buy_offers", "house rule: no player learns who could have bought"),
            ("captain_can_be_fourth", "house rule (dossier #32; the booklet is silent)"),
            ("bank_double_order", "house ruling (dossier #33)"),
            ("bank_counts_for_clear_hand", "house ruling (dossier #33): the Bank is not black"),
            ("last_discard_buyable", "house rule (dossier #35)"),
            ("replacement_fallback", "house rule (dossier #35)"),
        ),
    ),
    "cox-1925",
    "cox1925",
)
