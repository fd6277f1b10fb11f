"""The registered rulesets, each with its sources (see docs/rulesets/ for the prose)."""

from __future__ import annotations

import dataclasses

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

HOYLE = register(
    Ruleset(
        id="hoyle",
        version=1,
        name="Commerce, Hoyle's new way",
        family=Family.TRADING,
        sources=(
            "Hoyle's Games, Improved and Enlarged, pp. 68-70 (childrensnursery.org.uk)",
            "Hoyle (Google Books id Wi4VAAAAYAAJ), p. 179",
            "RULES-DOSSIER.md 1.2, section 2 #8, #12, #13, #16, #17, #19, #46 and table 2b",
        ),
        option_sources=(
            ("min_players", "Hoyle: 3 to 12 players"),
            ("max_players", "Hoyle: 3 to 12 players"),
            ("direction", "Hoyle: cut by the left-hand player, dealt from the right; play and "
                          "the deal go to the right"),
            ("ranking", "Hoyle: tricon, sequence, point of two or three cards of one suit"),
            ("ace_low_sequence", "house rule: Hoyle is silent (dossier #1, table 2b)"),
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
            ("max_rounds_per_deal", "house rule (dossier #46)"),
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

TRADE_AND_BARTER = register(
    Ruleset(
        id="trade-and-barter",
        version=1,
        name="Commerce, Trade and Barter",
        family=Family.TRADING,
        sources=(
            "CatsAtCards, Commerce: Trade and Barter (catsatcards.com/Games/Commerce.html); "
            "seed 001",
            "janeausten.co.uk, Instructions for Commerce (the pot, the price of a trade)",
            "RULES-DOSSIER.md 1.7, section 2 #1, #8, #10, #13, #16, #17, #46 and table 2b",
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
            ("dealer_trade_cost", "house rule after Hoyle: free (dossier #12)"),
            ("barter_direction", "CatsAtCards: the player to his immediate left"),
            ("barter_partner_may_stand", "CatsAtCards: the neighbour passes back a card of his "
                                         "choice"),
            ("stand_allowed", "CatsAtCards: knock only with a tricon, sequence or point"),
            ("stand_after_trade", "CatsAtCards: trade, barter or knock is the turn's one action"),
            ("stander_penalty", "CatsAtCards: the hand ends and hands are compared"),
            ("best_tie_rule", "CatsAtCards: more cards, then nearest the dealer in rotation"),
            ("max_rounds_per_deal", "house rule (dossier #46)"),
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

_OLD_GAME_SOURCES: tuple[tuple[str, str], ...] = (
    ("ranking", "Peel: compared as in the new game (five categories)"),
    ("ace_low_sequence", "Peel: as in the new game"),
    ("flush_compare", "Peel: as in the new game (points)"),
    ("widow_size", "Peel: one extra three-card hand face up in the middle"),
    ("max_exchange_per_turn", "Peel: exchange one card"),
    ("pass_locks_out", "Peel: a player who passes may never exchange again that deal"),
    ("end_condition", "Peel: two players have stood (one more exchange for each "
                      "non-passer) or all have passed"),
    ("add_widow_card_each_round", "Peel: no fresh cards"),
    ("dealer_blind_exchange", "Peel: none"),
    ("max_rounds_per_deal", "house rule (dossier #46)"),
)

PEEL_OLD = register(
    Ruleset(
        id="peel-old",
        version=1,
        name="Commerce, Peel's Old Game",
        family=Family.WIDOW,
        sources=(
            "W. H. Peel, Round Games with Cards: The Old Game "
            "(playingcardgames.net/CardGames/The-Old-Game.html)",
            "RULES-DOSSIER.md 1.3, section 2 #8, #22, #23, #24 and table 2b",
        ),
        option_sources=(
            *_OLD_GAME_SOURCES,
            ("token_flow", "Peel: no pool; the winner receives one stake from each other "
                           "player"),
            ("best_tie_rule", "Peel: two absolutely equal best hands are each paid by every "
                              "other player"),
            ("deals_each", "house rule after Peel's new game: every player deals once"),
        ),
        widow_size=3,
        max_exchange_per_turn=1,
        pass_locks_out=True,
        end_condition="two_stand",
        add_widow_card_each_round=False,
        dealer_blind_exchange="none",
        token_flow="stake_from_each",
        best_tie_rule="all_paid",
    ),
    "peel_old",
    "old",
)

POOL = register(
    Ruleset(
        id="pool",
        version=1,
        name="Pool Commerce",
        family=Family.WIDOW,
        sources=(
            "W. H. Peel, Round Games with Cards: Pool Commerce "
            "(playingcardgames.net/m/CardGames/Pool-Commerce.html)",
            "Hoyle's Games, Improved and Enlarged, p. 70 (the old way)",
            "RULES-DOSSIER.md 1.3, section 2 #9, #25, #26 and table 2b",
        ),
        option_sources=(
            *_OLD_GAME_SOURCES,
            ("token_flow", "Peel: the worst hand puts one counter into the pool"),
            ("starting_tokens", "Peel: three counters each"),
            ("pool_entry", "Peel: each pays an equal sum into the pool (house: 3 stakes)"),
            ("deal_prize", "Peel: the winner of a deal takes a pre-agreed sum (house: none)"),
            ("buy_a_horse", "Peel: the first player out may buy a horse"),
            ("horse_price", "Hoyle: usually a third of the original stake"),
            ("best_tie_rule", "Hoyle: the eldest hand wins among equal best hands"),
            ("worst_tie_rule", "house rule (dossier #9)"),
        ),
        widow_size=3,
        max_exchange_per_turn=1,
        pass_locks_out=True,
        end_condition="two_stand",
        add_widow_card_each_round=False,
        dealer_blind_exchange="none",
        token_flow="lowest_to_pool",
        starting_tokens=3,
        pool_entry=3,
        deal_prize=0,
        buy_a_horse=True,
        horse_price=1,
        best_tie_rule="eldest",
        worst_tie_rule="all_lose",
    ),
    "pool-commerce",
    "pool_commerce",
)

_WIDOW_SOURCES: tuple[tuple[str, str], ...] = (
    ("min_players", "CatsAtCards: 3 to 10 players"),
    ("max_players", "CatsAtCards: 3 to 10 players"),
    ("ranking", "CatsAtCards: tricon, sequence, flush, pair, point"),
    ("ace_low_sequence", "CatsAtCards: the lowest card of a sequence is a 2"),
    ("flush_compare", "CatsAtCards: flushes compare by the highest card"),
    ("widow_size", "CatsAtCards: the next three cards face up as the widow"),
    ("dealer_blind_exchange", "CatsAtCards: before looking, the dealer may trade some of his "
                              "cards; gamerules.com: up to three"),
    ("max_exchange_per_turn", "EB1911, Wikipedia, gamerules.com: one, two or three cards"),
    ("exchange_all_three_locks", "EB1911, Wikipedia, gamerules.com"),
    ("pass_locks_out", "EB1911: a player who passes may not exchange later"),
    ("add_widow_card_each_round", "EB1911: a fresh card at the start of each round"),
    ("end_condition", "Wikipedia, cardrulesplus.com: knock, then one final turn each"),
    ("token_flow", "CatsAtCards: the highest hand collects one token from the lowest"),
    ("starting_tokens", "CatsAtCards: three tokens each"),
    ("deals", "CatsAtCards: until one player has all the tokens (or a set number, e.g. 15)"),
    ("best_tie_rule", "house rule (dossier #8: eldest)"),
    ("worst_tie_rule", "issue: ties for lowest all lose one (dossier #9)"),
    ("max_rounds_per_deal", "house rule (dossier #46)"),
)
_WIDOW_SOURCE_TEXTS: tuple[str, ...] = (
    "CatsAtCards, Commerce (catsatcards.com/Games/Commerce.html); seed 001",
    "Encyclopaedia Britannica (1911), 'Commerce'",
    "Wikipedia, 'Commerce (card game)'; gamerules.com and cardrulesplus.com paraphrases",
)

WIDOW = register(
    Ruleset(
        id="widow",
        version=1,
        name="Commerce, the widow game with tokens",
        family=Family.WIDOW,
        sources=(*_WIDOW_SOURCE_TEXTS,
                 "RULES-DOSSIER.md 1.4, section 2 #1, #3, #8, #9, #21-#26, #47 and table 2b"),
        option_sources=_WIDOW_SOURCES,
        min_players=3,
        max_players=10,
        ranking="peel",
        ace_low_sequence=False,
        flush_compare="high_card",
        widow_size=3,
        dealer_blind_exchange="1_to_3",
        max_exchange_per_turn=3,
        exchange_all_three_locks=True,
        pass_locks_out=True,
        add_widow_card_each_round=True,
        end_condition="knock_final_round",
        token_flow="lowest_to_best",
        starting_tokens=3,
        deals=0,
        best_tie_rule="eldest",
        worst_tie_rule="all_lose",
    ),
    "widow-tokens",
    "widow_tokens",
    "tokens",
)

POUNCE = register(
    dataclasses.replace(
        WIDOW,
        id="pounce",
        name="Pounce Commerce",
        sources=(*_WIDOW_SOURCE_TEXTS,
                 "RULES-DOSSIER.md 1.5, section 2 #27-#29 and table 2b"),
        option_sources=(
            *_WIDOW_SOURCES,
            ("pounce", "CatsAtCards, EB1911: Pounce"),
            ("four_of_a_kind", "CatsAtCards: a four-card hand beats any three-card hand"),
            ("pounce_on_initial_widow", "house rule (dossier #27)"),
            ("pounce_after_pass", "house rule (dossier #27)"),
        ),
        pounce=True,
        four_of_a_kind=True,
        pounce_on_initial_widow=True,
        pounce_after_pass=True,
    ),
    "pounce-commerce",
)

NO_PAIR_OR_POINT = register(
    dataclasses.replace(
        WIDOW,
        id="no-pair-or-point",
        name="Commerce, No Pair or Point",
        sources=(*_WIDOW_SOURCE_TEXTS,
                 "RULES-DOSSIER.md 1.6, section 2 #20, #48 and table 2b"),
        option_sources=(
            *(item for item in _WIDOW_SOURCES if item[0] != "ranking"),
            ("ranking", "CatsAtCards, EB1911: only tricon, sequence and flush are recognised"),
            ("void_rank", "house rule: hands without a combination all tie (dossier #48)"),
            ("no_qualifier_rule", "house rule: if nobody qualifies, no token moves "
                                  "(dossier #20)"),
        ),
        ranking="no_pair_or_point",
        void_rank="void",
        no_qualifier_rule="no_transfer",
    ),
    "no_pair_or_point",
    "npp",
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
