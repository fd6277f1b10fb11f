"""Exact chances of Vingt-un's first two cards, by enumerating every pair of the pack.

>>> from commerce.rules import find_ruleset
>>> odds = first_two_cards(find_ruleset("vingt-un"))
>>> odds["natural"]
Fraction(32, 663)
>>> odds["totals"][21] == odds["natural"], odds["totals"][12]
(True, Fraction(62, 663))
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from commerce.cards import pack
from commerce.families.vingtun.state import is_natural, total
from commerce.rules import Ruleset


def first_two_cards(rules: Ruleset) -> dict[str, object]:
    """The chance of a natural and of each best total of two cards dealt from a full pack,
    as exact fractions: ``{"rules", "pairs", "natural", "totals": {total: chance}}``.

    A natural is 2 x 4 x 16 / (52 x 51) = 32/663 (an ace and one of the sixteen ten-cards).
    """
    counts: dict[int, int] = {}
    naturals = 0
    pairs = 0
    for two in combinations(pack(52), 2):
        pairs += 1
        t = total(two)
        counts[t] = counts.get(t, 0) + 1
        naturals += is_natural(two)
    return {"rules": rules.id, "pairs": pairs, "natural": Fraction(naturals, pairs),
            "totals": {t: Fraction(counts[t], pairs) for t in sorted(counts)}}


def odds_table(rules: Ruleset) -> dict[str, object]:
    """:func:`first_two_cards` as ``commerce odds`` prints it (the family's ``odds`` hook):
    counts of pairs, naturals first, then each best total from 21 down, with exact chances."""
    counts: dict[str, int] = {}
    naturals = 0
    pairs = 0
    for two in combinations(pack(52), 2):
        pairs += 1
        naturals += is_natural(two)
        key = str(total(two))
        counts[key] = counts.get(key, 0) + 1
    ordered = {"natural": naturals, **{k: counts[k] for k in sorted(counts, key=int,
                                                                      reverse=True)}}
    return {"rules": rules.id, "title": "the first two cards", "total": pairs,
            "counts": ordered,
            "exact": {k: str(Fraction(v, pairs)) for k, v in ordered.items()}}
