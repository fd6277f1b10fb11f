"""The widow family's presets, each with its sources (see docs/rulesets/ for the prose)."""

from __future__ import annotations

from commerce.families.widow.options import WidowOptions
from commerce.family import Preset, preset
from commerce.rules import make_ruleset

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
    ("max_rounds_per_deal", "house rule"),
)


PEEL_OLD = preset(
    make_ruleset(
        WidowOptions,
        id="peel-old",
        version=1,
        name="Commerce, Peel's Old Game",
        family="widow",
        sources=(
            "W. H. Peel, Round Games with Cards: The Old Game "
            "(playingcardgames.net/CardGames/The-Old-Game.html)",
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


POOL = preset(
    make_ruleset(
        WidowOptions,
        id="pool",
        version=1,
        name="Pool Commerce",
        family="widow",
        sources=(
            "W. H. Peel, Round Games with Cards: Pool Commerce "
            "(playingcardgames.net/m/CardGames/Pool-Commerce.html)",
            "Hoyle's Games, Improved and Enlarged, p. 70 (the old way)",
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
            ("worst_tie_rule", "house rule"),
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
    ("best_tie_rule", "house rule (eldest)"),
    ("worst_tie_rule", "issue: ties for lowest all lose one"),
    ("max_rounds_per_deal", "house rule"),
)


_WIDOW_SOURCE_TEXTS: tuple[str, ...] = (
    "CatsAtCards, Commerce (catsatcards.com/Games/Commerce.html)",
    "Encyclopaedia Britannica (1911), 'Commerce'",
    "Wikipedia, 'Commerce (card game)'; gamerules.com and cardrulesplus.com paraphrases",
)


WIDOW = preset(
    make_ruleset(
        WidowOptions,
        id="widow",
        version=1,
        name="Commerce, the widow game with tokens",
        family="widow",
        sources=_WIDOW_SOURCE_TEXTS,
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


POUNCE = preset(
    WIDOW.ruleset.derive(
        id="pounce",
        name="Pounce Commerce",
        sources=_WIDOW_SOURCE_TEXTS,
        option_sources=(
            *_WIDOW_SOURCES,
            ("pounce", "CatsAtCards, EB1911: Pounce"),
            ("four_of_a_kind", "CatsAtCards: a four-card hand beats any three-card hand"),
            ("pounce_on_initial_widow", "house rule"),
            ("pounce_after_pass", "house rule"),
        ),
        pounce=True,
        four_of_a_kind=True,
        pounce_on_initial_widow=True,
        pounce_after_pass=True,
    ),
    "pounce-commerce",
)


NO_PAIR_OR_POINT = preset(
    WIDOW.ruleset.derive(
        id="no-pair-or-point",
        name="Commerce, No Pair or Point",
        sources=_WIDOW_SOURCE_TEXTS,
        option_sources=(
            *(item for item in _WIDOW_SOURCES if item[0] != "ranking"),
            ("ranking", "CatsAtCards, EB1911: only tricon, sequence and flush are recognised"),
            ("void_rank", "house rule: hands without a combination all tie"),
            ("no_qualifier_rule", "house rule: if nobody qualifies, no token moves "
                                  ""),
        ),
        ranking="no_pair_or_point",
        void_rank="void",
        no_qualifier_rule="no_transfer",
    ),
    "no_pair_or_point",
    "npp",
)


WIDOW_MINI = preset(
    WIDOW.ruleset.derive(
        id="widow-mini",
        version=1,
        name="Commerce, the widow game (research variant: two players, 12 cards, one round)",
        option_sources=(
            *(item for item in _WIDOW_SOURCES
              if item[0] not in ("min_players", "max_players", "max_rounds_per_deal",
                                 "dealer_blind_exchange", "max_exchange_per_turn")),
            ("pack", "research variant: the 12-card pack (A K Q), small enough for tree "
                     "algorithms"),
            ("min_players", "research variant: two players"),
            ("max_players", "research variant: two players"),
            ("max_rounds_per_deal", "research variant: one round, then the showdown"),
            ("dealer_blind_exchange", "research variant: none"),
            ("max_exchange_per_turn", "research variant: one card a turn"),
        ),
        pack=12,
        min_players=2,
        max_players=2,
        max_rounds_per_deal=1,
        dealer_blind_exchange="none",
        max_exchange_per_turn=1,
    ),
    "widow_mini",
)


PRESETS: tuple[Preset, ...] = (PEEL_OLD, POOL, WIDOW, POUNCE, NO_PAIR_OR_POINT, WIDOW_MINI)
"""Every preset of the family, in the order users see them."""
