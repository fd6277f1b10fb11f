"""How strong a three-card hand is against the pack: shares of hands beaten, win chances,
and the card whose replacement helps most. Pure functions of a ruleset's ranking, used by every
family's heuristic (caches are keyed by the evaluator and bounded).
"""

from __future__ import annotations

from collections.abc import Sequence

from commerce.cards import pack
from commerce.hands import Evaluator, evaluator_for
from commerce.rules import Ruleset

_STRENGTH: dict[int, tuple[Evaluator, list[float]]] = {}


def strength_table(rules: Ruleset) -> list[float]:
    """For each dense rank: the share of the pack's hands it beats (ties count half)."""
    ev = evaluator_for(rules)
    hit = _STRENGTH.get(id(ev))
    if hit is not None and hit[0] is ev:
        return hit[1]
    counts = [0] * ev.level_count
    for hand, rank in ev.sorted_ranks.items():
        if len(hand) == 3:
            counts[rank] += 1
    total = sum(counts)
    table: list[float] = []
    below = 0
    for c in counts:
        table.append((below + c / 2) / total)
        below += c
    _STRENGTH[id(ev)] = (ev, table)
    return table


def win_chance(rules: Ruleset, hand: Sequence[int], opponents: int) -> float:
    """A rough chance that *hand* beats *opponents* random hands."""
    table = strength_table(rules)
    return float(table[evaluator_for(rules).rank_of(tuple(hand))] ** max(opponents, 1))


def best_replacement(
    rules: Ruleset, hand: Sequence[int], unknown: Sequence[int]
) -> tuple[int, float]:
    """The card of *hand* whose replacement by a random *unknown* card gains most on average.

    Returns (card to give, expected strength after the replacement).
    """
    table = strength_table(rules)
    rank_of = evaluator_for(rules).rank_of
    best_card, best_value = hand[0], -1.0
    for give in hand:
        keep = tuple(c for c in hand if c != give)
        total = 0.0
        for x in unknown:
            total += table[rank_of((*keep, x))]
        value = total / len(unknown)
        if value > best_value:
            best_card, best_value = give, value
    return best_card, best_value


_REPLACE: dict[tuple[int, tuple[int, ...]], tuple[Evaluator, int]] = {}


def card_to_replace(rules: Ruleset, hand: tuple[int, ...]) -> int:
    """The card the heuristic trades from *hand*: :func:`best_replacement` against every card
    not in *hand*, memoised by hand."""
    ev = evaluator_for(rules)
    key = (id(ev), tuple(hand))
    hit = _REPLACE.get(key)
    if hit is not None and hit[0] is ev:
        return hit[1]
    seen = set(hand)
    unknown = [c for c in pack(rules.pack) if c not in seen]
    give, _ = best_replacement(rules, key[1], unknown)
    if len(_REPLACE) > 100_000:
        _REPLACE.clear()
    _REPLACE[key] = (ev, give)
    return give
