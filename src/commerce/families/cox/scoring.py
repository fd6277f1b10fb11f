"""Scoring a holding in Cox's 1925 Commerce, and telling a complete hand.

The booklet's table (suit cards: same suit and number; honour cards: same honour suit):

=====================================  ======
three of a kind, 1-4                    3
three 5s                                5
four of a kind, 1-4                     5
four 5s                                 10
two of Fruit, Grain or Industries       3
three of an honour suit                 5
four of an honour suit                  10
each Greenback                          3
the Greenback of one's own base number  6
not a clear hand                        -5
a pair of suit cards                    0
the Bank                                doubles the score
=====================================  ======

Wild cards take their best substitution: a Captain stands for any number of its own suit, joined
to one or two like cards of that suit; the Bank stands for any card but a Greenback, joined to one
or two like cards, never as the fourth of a combination and never in the same group as a Captain.

>>> from commerce.families.cox.cards import parse_cox_cards as cards
>>> score_holding(cards("A1 A1 A1 A5 A5 A5 G1 G2"), base=1).score
11
>>> s = score_holding(cards("S2 S2 SC S4 S4 S4 F1 F2 M1"), base=1)
>>> s.score, s.clear, s.complete
(15, True, True)
>>> score_holding(cards("A1 A1 A1 S2 S2 BK F1 F3"), base=2).score   # (3 + 3 + 3 - 5) doubled
8
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from commerce.families.cox.cards import (
    BANK,
    CoxCard,
    format_cox_cards,
    is_black,
    is_greenback,
    kind_name,
    kind_of,
    number_of,
    transport_suit,
)

PENALTY: Final = 5
"""Points taken off a hand that is not clear."""


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One line of a score: what scored, with which cards, for how many points."""

    what: str
    """A description, e.g. ``three A1``, ``honour pair Grain``, ``not a clear hand``."""
    cards: tuple[CoxCard, ...]
    """The cards it counts (wild cards included), empty for the penalty."""
    points: int
    """Points it adds (negative for the penalty; the Bank line adds the doubling)."""

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form (cards in notation)."""
        return {"what": self.what, "cards": format_cox_cards(self.cards).split(),
                "points": self.points}


@dataclass(frozen=True, slots=True)
class CoxScore:
    """The score of one holding at the count."""

    score: int
    """The net score: combinations and Greenbacks, the penalty, the Bank's doubling."""
    clear: bool
    """Whether the black cards are all of one transport suit."""
    complete: bool
    """Whether the holding (Greenbacks aside) is two combinations and a pair."""
    breakdown: tuple[ScoreItem, ...]
    """What scored, line by line; the lines add up to ``score``."""

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form."""
        return {"score": self.score, "clear": self.clear, "complete": self.complete,
                "breakdown": [item.to_dict() for item in self.breakdown]}


def _kind_points(kind: int, count: int) -> int:
    """Points for *count* cards of *kind* (wild cards included)."""
    if kind < 15:
        five = kind % 5 == 4
        if count == 3:
            return 5 if five else 3
        if count >= 4:
            return 10 if five else 5
        return 0
    return {2: 3, 3: 5, 4: 10}.get(count, 0)


def _wild_targets(wild: CoxCard, counts: tuple[int, ...], captain_fourth: bool,
                  pair_ok: bool) -> tuple[int, ...]:
    """The kinds *wild* may join: it needs one or two like cards (three for a Captain as a
    fourth where allowed); a lone card only where *pair_ok*."""
    least = 1 if pair_ok else 2
    if wild == BANK:
        return tuple(k for k in range(18) if least <= counts[k] <= 2)
    suit = transport_suit(wild)
    most = 3 if captain_fourth else 2
    return tuple(k for k in range(suit * 5, suit * 5 + 5) if least <= counts[k] <= most)


def _counts(cards: Iterable[CoxCard]) -> tuple[tuple[int, ...], tuple[CoxCard, ...]]:
    counts = [0] * 18
    wilds: list[CoxCard] = []
    for c in cards:
        k = kind_of(c)
        if 0 <= k < 18:
            counts[k] += 1
        elif k < 0:
            wilds.append(c)
    return tuple(counts), tuple(sorted(wilds))


def _assignments(wilds: tuple[CoxCard, ...], counts: tuple[int, ...], captain_fourth: bool,
                 pair_ok: bool, allow_unused: bool) -> list[tuple[int | None, ...]]:
    """Every way to place the wild cards (None = unused), one wild card at most per kind."""
    out: list[tuple[int | None, ...]] = [()]
    for wild in wilds:
        options: list[int | None] = [None] if allow_unused else []
        options.extend(_wild_targets(wild, counts, captain_fourth, pair_ok))
        out = [(*prev, k) for prev in out for k in options
               if k is None or k not in prev]
    return out


@lru_cache(maxsize=65536)
def _complete(counts: tuple[int, ...], wilds: tuple[CoxCard, ...], captain_fourth: bool) -> bool:
    for placed in _assignments(wilds, counts, captain_fourth, pair_ok=True, allow_unused=False):
        eff = list(counts)
        for k in placed:
            assert k is not None
            eff[k] += 1
        pairs = combos = 0
        ok = True
        for n in eff:
            if n == 0:
                continue
            if n == 2:
                pairs += 1
            elif n >= 3:
                combos += 1
            else:
                ok = False
                break
        if ok and pairs == 1 and combos == 2:
            return True
    return False


def is_complete(cards: Iterable[CoxCard], *, captain_can_be_fourth: bool = False) -> bool:
    """Whether *cards* (Greenbacks ignored) are exactly two combinations and a pair.

    A combination is three or four of a kind; the pair is two of a kind (a suit pair counts
    here though it scores nothing). Every other card must be used, wild cards included.

    >>> from commerce.families.cox.cards import parse_cox_cards as cards
    >>> is_complete(cards("A1 A1 A1 A2 A2 A2 A3 A3")), is_complete(cards("A1 A1 A1 A2 A2 A2 A3"))
    (True, False)
    >>> is_complete(cards("A1 A1 A1 A2 A2 A2 A3 BK M2"))    # the Bank called as the missing A3
    True
    """
    counts, wilds = _counts(cards)
    if sum(counts) + len(wilds) not in (8, 9, 10):
        return False
    return _complete(counts, wilds, captain_can_be_fourth)


_KIND: Final = tuple(kind_of(c) for c in range(80))


def may_complete_less_one(cards: Iterable[CoxCard]) -> bool:
    """A quick necessary condition for :func:`is_complete` of *cards* less some one card: in a
    complete hand every natural card has a like one or a wild card beside it, so the kinds held
    once can be at most one more than the wild cards (one of them may be the card let go).

    >>> from commerce.families.cox.cards import parse_cox_cards as cards
    >>> may_complete_less_one(cards("A1 A1 A1 A2 A2 A2 A3 A3 S4"))
    True
    >>> may_complete_less_one(cards("A1 A1 A1 A2 A2 A2 A3 S5 S4"))
    False
    """
    seen: dict[int, int] = {}
    wilds = 0
    for c in cards:
        k = _KIND[c]
        if k < 0:
            wilds += 1
        elif k < 18:
            seen[k] = seen.get(k, 0) + 1
    singles = 0
    for n in seen.values():
        if n == 1:
            singles += 1
    return singles <= wilds + 1


@lru_cache(maxsize=65536)
def _best(counts: tuple[int, ...], wilds: tuple[CoxCard, ...],
          captain_fourth: bool) -> tuple[int, tuple[int | None, ...]]:
    best_points = -1
    best: tuple[int | None, ...] = ()
    for placed in _assignments(wilds, counts, captain_fourth, pair_ok=True, allow_unused=True):
        eff = list(counts)
        for k in placed:
            if k is not None:
                eff[k] += 1
        points = sum(_kind_points(k, n) for k, n in enumerate(eff))
        if points > best_points:
            best_points, best = points, placed
    return best_points, best


def score_holding(
    cards: Iterable[CoxCard],
    base: int | None,
    *,
    captain_can_be_fourth: bool = False,
    bank_double_order: str = "after_penalty",
    bank_counts_for_clear_hand: bool = False,
) -> CoxScore:
    """Score everything a player holds at the count (rack, laid-out cards and Greenbacks).

    *base* is the player's Supply Base number (1-4), whose Greenback counts 6; None if the
    player has no base. Wild cards take the substitution that scores most. The Bank doubles
    the net score after the penalty (``bank_double_order="after_penalty"``, the house ruling)
    or the score before it (``"before_penalty"``).
    """
    held = tuple(sorted(cards))
    counts, wilds = _counts(held)
    points, placed = _best(counts, wilds, captain_can_be_fourth)
    joined: dict[int, CoxCard] = {k: w for w, k in zip(wilds, placed, strict=True)
                                  if k is not None}
    items: list[ScoreItem] = []
    for k in range(18):
        n = counts[k] + (1 if k in joined else 0)
        pts = _kind_points(k, n)
        if pts == 0:
            continue
        group = tuple(c for c in held if kind_of(c) == k) + ((joined[k],) if k in joined else ())
        size = {2: "pair", 3: "three", 4: "four"}[n]
        items.append(ScoreItem(f"{size} {kind_name(k)}", group, pts))
    for c in held:
        if is_greenback(c):
            own = base is not None and number_of(c) == base
            items.append(ScoreItem("Greenback of own base" if own else "Greenback", (c,),
                                   6 if own else 3))
    gross = sum(item.points for item in items)
    suits = {transport_suit(c) for c in held if is_black(c)}
    if bank_counts_for_clear_hand and BANK in held:
        suits.add(3)
    clear = len(suits) <= 1
    net = gross
    penalty = ScoreItem("not a clear hand", (), -PENALTY)
    if BANK in held:
        if bank_double_order == "before_penalty":
            items.append(ScoreItem("Bank doubles", (BANK,), gross))
            net = 2 * gross
            if not clear:
                items.append(penalty)
                net -= PENALTY
        else:
            if not clear:
                items.append(penalty)
                net -= PENALTY
            items.append(ScoreItem("Bank doubles", (BANK,), net))
            net *= 2
    elif not clear:
        items.append(penalty)
        net -= PENALTY
    complete = is_complete(held, captain_can_be_fourth=captain_can_be_fourth)
    return CoxScore(score=net, clear=clear, complete=complete, breakdown=tuple(items))
