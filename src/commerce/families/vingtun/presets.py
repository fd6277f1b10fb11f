"""Peel's Vingt-un as a preset, with its sources (see docs/rulesets/vingt-un.md for the prose)."""

from __future__ import annotations

from commerce.families.vingtun.options import VingtUnOptions
from commerce.family import Preset, preset
from commerce.rules import make_ruleset

_PEEL = ("W. H. Peel ('Baxter-Wray'), Round Games with Cards (1891), Vingt-un: "
         "https://bitlit.ru/page/en/w-h-peel/round-games-with-cards-a-practical-treatise-on-"
         "all-the-most-popular-games-with-their-different-variations-and-hints-for-their-"
         "practice/40 (to /43)")

VINGT_UN = preset(
    make_ruleset(
        VingtUnOptions,
        id="vingt-un",
        version=2,
        name="Vingt-un, Peel's rules",
        family="vingtun",
        sources=(
            _PEEL,
            "Round Games with Cards, pp. 67-70: drawing, pool, limiting and selling the deal, "
            "privileges of a natural (Project Gutenberg #27819)",
            "playingcardgames.net: Description, Dealing, Selling The Deal, Additional "
            "Privileges For A Natural (Peel's text)",
        ),
        option_sources=(
            ("min_players", "house rule: Peel gives no minimum; two can play"),
            ("max_players", "house rule: eight keep one pack going through several hands"),
            ("direction", "Peel: cards dealt and drawn from the dealer's left; the deal passes "
                          "to the left"),
            ("min_stake", "Peel: a minimum, usually one counter, is agreed"),
            ("max_stake", "Peel: a maximum is agreed (house: four)"),
            ("dealer_may_double", "Peel: the dealer may say 'double' on his first card"),
            ("natural_pays", "Peel: a natural is paid double the stake"),
            ("drawn_21_pays", "Peel: any Vingt-un doubles the stake ('as for a drawn Vingt-un')"),
            ("first_hand_natural_exception", "Peel: a natural in the first hand of a deal does "
                                             "not put the dealer out"),
            ("deal_passes_to", "Peel: the deal passes to the next in order"),
            ("natural_bonus", "Peel: the old privileges are an agreed option"),
            ("privilege_stake", "Peel: 'his own stake'; he names the double apart where it "
                                "counts (a natural is paid double 'his stake, or of the "
                                "double'), and the double is the dealer's wager with each player "
                                "alone"),
            ("pool_naturals", "house rule: Peel gives the pool to 'the player declaring the "
                              "natural' and says nothing of two; naturals are declared from the "
                              "dealer's left"),
            ("divide", "Peel: two first cards of the same denomination"),
            ("divide_when", "Peel: two cards given to each player 'and also to cases of divided "
                            "pairs', then the drawing commences (version 1 divided on the "
                            "player's own turn)"),
            ("deal_limit", "Peel: a natural throws the dealer out"),
            ("deal_hands", "house rule: Peel says 'a certain number of hands' and names none "
                           "(five)"),
            ("max_hands_per_deal", "house rule: a bound on one dealer's turn"),
            ("deals_each", "house rule: every player deals once"),
            ("first_dealer", "Peel: cards dealt face up as in Nap, the first ace deals"),
            ("pool_ante", "Peel: the pool is optional (off)"),
            ("pool_dealer_overdraw", "Peel: the pool is optional (off)"),
            ("pool_tie_share", "Peel: the pool is optional (off)"),
            ("pool_tie_share_of", "Peel: 'whenever the dealer receives on ties, ... a proportion "
                                  "of his receipts' (version 1 reckoned each tie apart)"),
            ("sell_deal", "Peel: optional; not played (see the ruleset page)"),
        ),
        min_players=2,
        max_players=8,
    ),
    "vingtun",
    "vingt-et-un",
    history={1: {"divide_when": "own_turn", "pool_tie_share_of": "tie"}},
)

PRESETS: tuple[Preset, ...] = (VINGT_UN,)
"""Every preset of the family."""
