"""Exact odds of each hand category, by enumerating every three-card hand of the pack.

Pure Python (no numpy): the counts come from the ruleset's :class:`~commerce.hands.Evaluator`,
so they are exactly the categories the engine will use.

>>> from commerce.rules import find_ruleset
>>> odds = category_odds(find_ruleset("peel"))
>>> odds["total"], odds["categories"]["tricon"], odds["categories"]["point"]
(22100, 52, 17160)
>>> list(odds["categories"])
['tricon', 'sequence', 'flush', 'pair', 'point']
>>> round(odds["probabilities"]["pair"], 6)
0.169412
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Final

from commerce.cards import pack
from commerce.hands import Category, evaluator_for
from commerce.rules import Ruleset

CATEGORY_ORDER: Final[tuple[Category, ...]] = (
    Category.TRICON,
    Category.SEQUENCE,
    Category.FLUSH,
    Category.PAIR,
    Category.POINT,
    Category.NONE,
)
"""Categories a dealt three-card hand can have, strongest first."""


def category_odds(rules: Ruleset) -> dict[str, Any]:
    """Exact count and probability of each category among the dealt hands of *rules*' pack.

    Every three-card hand of the pack is evaluated once (22,100 or 4,960 hands). The result
    is JSON-ready::

        {"rules": "peel", "label": "peel@2", "pack": 52, "total": 22100,
         "categories": {"tricon": 52, "sequence": 48, ...},
         "probabilities": {"tricon": 0.00235..., ...}}

    ``categories`` and ``probabilities`` list, strongest first, only the categories the
    ruleset recognises (``none`` appears under the 'suit_point' and 'no_pair_or_point'
    rankings). Four of a kind is left out: it is made by a pounce, never dealt. ``rules`` is
    the ruleset's id and ``label`` its label (``id@version``, with ``+`` when options differ
    from its preset).
    """
    ev = evaluator_for(rules)
    counts = dict.fromkeys(CATEGORY_ORDER, 0)
    categories = ev.categories
    rank_of = ev.rank_of
    total = 0
    for hand in combinations(pack(rules.pack), 3):
        counts[categories[rank_of(hand)]] += 1
        total += 1
    recognised = set(categories)
    present = [c for c in CATEGORY_ORDER if c in recognised]
    return {
        "rules": rules.id,
        "label": rules.label,
        "pack": rules.pack,
        "total": total,
        "categories": {c.value: counts[c] for c in present},
        "probabilities": {c.value: counts[c] / total for c in present},
    }
