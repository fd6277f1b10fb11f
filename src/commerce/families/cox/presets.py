"""The cox family's presets, each with its sources (see docs/rulesets/ for the prose)."""

from __future__ import annotations

from commerce.families.cox.options import CoxOptions
from commerce.family import Preset, preset
from commerce.rules import make_ruleset

COX = preset(
    make_ruleset(
        CoxOptions,
        id="cox",
        version=1,
        name="Commerce, Cox's patented game (1925)",
        family="cox",
        sources=(
            "Herbert T. Cox, Commerce - Rules (Los Angeles, 1925; AGCA archives scan)",
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
            ("buy_priority", "house ruling (the booklet: whoever speaks first)"),
            ("buy_offers", "house rule: no player learns who could have bought"),
            ("captain_can_be_fourth", "house rule (the booklet is silent)"),
            ("bank_double_order", "house ruling"),
            ("bank_counts_for_clear_hand", "house ruling: the Bank is not black"),
            ("last_discard_buyable", "house rule"),
            ("replacement_fallback", "house rule"),
        ),
    ),
    "cox-1925",
    "cox1925",
)


PRESETS: tuple[Preset, ...] = (COX,)
"""Every preset of the family, in the order users see them."""
