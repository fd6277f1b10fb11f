"""Hand evaluation: the category and strength of a Commerce hand under a ruleset.

:func:`hand_key` is the readable reference classifier: it returns a tuple that sorts like the
hands' strength. :class:`Evaluator` turns the keys of every hand of a pack into dense integer
ranks once per ruleset, so that evaluating a hand afterwards is one table lookup;
:func:`evaluate` and :func:`compare` are the convenient entry points.

>>> from commerce.rules import find_ruleset
>>> from commerce.cards import parse_cards
>>> peel = find_ruleset("peel")
>>> evaluate(parse_cards("AS 2S 3S"), peel).category
<Category.SEQUENCE: 'sequence'>
>>> evaluate(parse_cards("AS 2S 3S"), peel.with_options(ace_low_sequence=False)).category
<Category.FLUSH: 'flush'>
>>> compare(parse_cards("QD KD AD"), parse_cards("JH QH KH"), peel).winner
'a'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from itertools import combinations, permutations
from typing import Final, Literal

from commerce.cards import PIPS, RANKS, Card, format_cards, pack
from commerce.errors import NotationError
from commerce.rules import RankingOptions, Ruleset


class Category(StrEnum):
    """Hand categories, as named in the sources (JSON uses the lower-case value)."""

    FOUR = "four"
    """Four of a kind, made by a pounce."""
    TRICON = "tricon"
    """Three cards of one rank."""
    SEQUENCE = "sequence"
    """Three consecutive cards of one suit."""
    FLUSH = "flush"
    """Three cards of one suit, not a sequence."""
    PAIR = "pair"
    """Two cards of one rank and an odd card."""
    POINT = "point"
    """Under 'peel': anything else, valued by its pips; under 'suit_point': two or three cards
    of one suit, valued by their pips."""
    NONE = "none"
    """No combination at all (rankings 'suit_point' and 'no_pair_or_point')."""


class _Level(IntEnum):
    NONE = 0
    POINT = 1
    PAIR = 2
    FLUSH = 3
    SEQUENCE = 4
    TRICON = 5
    FOUR = 6


_CATEGORY_OF_LEVEL: Final = {
    _Level.NONE: Category.NONE,
    _Level.POINT: Category.POINT,
    _Level.PAIR: Category.PAIR,
    _Level.FLUSH: Category.FLUSH,
    _Level.SEQUENCE: Category.SEQUENCE,
    _Level.TRICON: Category.TRICON,
    _Level.FOUR: Category.FOUR,
}

HandKey = tuple[int, ...]
"""A tuple whose order is the hands' order of strength; its first item is the category level."""

HAND_RULE_FIELDS: Final = (
    "pack",
    "ranking",
    "ace_low_sequence",
    "ace_low_sequence_rank",
    "allow_wraparound",
    "flush_compare",
    "pair_kicker",
    "void_rank",
    "four_of_a_kind",
)
"""The ruleset options that decide how hands rank; rulesets equal on these rank alike."""


def _sequence_top(ranks_desc: Sequence[int], rules: Ruleset) -> int | None:
    """The top rank of a three-card run, or None (ranks sorted high to low, all distinct)."""
    opts = RankingOptions.of(rules)
    a, b, c = ranks_desc
    if a - b == 1 and b - c == 1:
        return a
    if a == 14 and b == 3 and c == 2 and opts.ace_low_sequence and rules.pack == 52:
        return 15 if opts.ace_low_sequence_rank == "highest" else 3
    if opts.allow_wraparound and a == 14 and b == 13 and c == 2:  # K-A-2
        return 2
    return None


def hand_key(cards: Sequence[Card], rules: Ruleset) -> HandKey:
    """Reference classifier: a key that sorts hands by strength under *rules*.

    Two hands tie exactly when their keys are equal. The first item is the category level
    (higher is stronger). This is the straightforward implementation the fast tables are
    built from and checked against.
    """
    opts = RankingOptions.of(rules)
    n = len(cards)
    for c in cards:
        if not 0 <= c < 52:
            raise NotationError(f"{c!r} is not a card: cards are numbered 0-51")
    if n == 4:
        ranks4 = {c >> 2 for c in cards}
        if opts.four_of_a_kind and len(ranks4) == 1 and len(set(cards)) == 4:
            return (_Level.FOUR, (cards[0] >> 2) + 2)
        if not opts.four_of_a_kind:
            raise NotationError("a Commerce hand has three cards; four of a kind exists only "
                                "where a pounce makes it (--rules pounce)")
        raise NotationError("a four-card hand must be four of a kind, made by a pounce")
    if n != 3:
        raise NotationError(f"a Commerce hand has three cards, not {n}")
    if len(set(cards)) != 3:
        raise NotationError("a hand cannot hold the same card twice")
    ranks = sorted(((c >> 2) + 2 for c in cards), reverse=True)
    suits = [c & 3 for c in cards]
    if ranks[0] == ranks[2]:
        return (_Level.TRICON, ranks[0])
    one_suit = suits[0] == suits[1] == suits[2]
    if one_suit:
        top = _sequence_top(ranks, rules)
        if top is not None:
            return (_Level.SEQUENCE, top)
    total = PIPS[cards[0]] + PIPS[cards[1]] + PIPS[cards[2]]
    if opts.ranking == "suit_point":
        groups: dict[int, list[Card]] = {}
        for c in cards:
            groups.setdefault(c & 3, []).append(c)
        best = max(groups.values(), key=len)
        if len(best) >= 2:
            return (_Level.POINT, sum(PIPS[c] for c in best), len(best))
        return _void_key(ranks, rules)
    if one_suit:
        if opts.flush_compare == "points":
            return (_Level.FLUSH, total, *ranks)
        return (_Level.FLUSH, *ranks)
    if opts.ranking == "no_pair_or_point":
        return _void_key(ranks, rules)
    if ranks[0] == ranks[1] or ranks[1] == ranks[2]:
        pair = ranks[1]
        kicker = ranks[2] if ranks[0] == ranks[1] else ranks[0]
        return (_Level.PAIR, pair, kicker) if opts.pair_kicker else (_Level.PAIR, pair)
    return (_Level.POINT, total, *ranks)


def _void_key(ranks: Sequence[int], rules: Ruleset) -> HandKey:
    high_card = RankingOptions.of(rules).void_rank == "high_card"
    return (_Level.NONE, *ranks) if high_card else (_Level.NONE,)


def category_of_key(key: HandKey) -> Category:
    """The category a key belongs to."""
    return _CATEGORY_OF_LEVEL[_Level(key[0])]


@dataclass(frozen=True, slots=True)
class HandValue:
    """The evaluation of one hand."""

    category: Category
    """Its category."""
    rank: int
    """Dense strength, 0 = weakest hand of the pack; equal exactly when hands tie."""
    points: int
    """Its point as the ruleset counts it (:func:`points_of`; ace 11, courts and tens 10)."""
    key: HandKey
    """The reference key (category level first)."""

    @property
    def qualifies(self) -> bool:
        """Whether the hand holds a combination that can win (category is not 'none')."""
        return self.category is not Category.NONE


class Evaluator:
    """Dense ranks for every hand of a pack under one ruleset's hand options.

    Build one with :func:`evaluator_for` (cached). :attr:`rank_of` maps a hand, as held (a
    tuple or list of three cards in any order), to its dense rank; it is the fastest checked
    per-hand evaluation from Python (three list subscripts, see :attr:`rank_table`).
    :func:`commerce.batch.evaluate_batch` evaluates numpy arrays of hands.

    >>> from commerce.rules import find_ruleset
    >>> from commerce.cards import parse_cards
    >>> ev = evaluator_for(find_ruleset("peel"))
    >>> ev.rank_of(parse_cards("KD KS 2H")) == ev.rank_of(parse_cards("2S KH KC"))
    True
    >>> ev.categories[ev.rank_of(parse_cards("QD KD AD"))]
    <Category.SEQUENCE: 'sequence'>
    >>> a, b, c = parse_cards("QD KD AD")
    >>> ev.rank_table[c][a][b] == ev.rank_of((a, b, c))
    True
    """

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        cards = pack(rules.pack)
        keys: dict[tuple[Card, ...], HandKey] = {
            hand: hand_key(hand, rules) for hand in combinations(cards, 3)
        }
        if RankingOptions.of(rules).four_of_a_kind:
            for r in range(2, 15):
                four = tuple(c for c in cards if (c >> 2) + 2 == r)
                if len(four) == 4:
                    keys[four] = hand_key(four, rules)
        distinct = sorted(set(keys.values()))
        dense = {key: i for i, key in enumerate(distinct)}
        self.keys: tuple[HandKey, ...] = tuple(distinct)
        """Distinct keys, weakest first; index = dense rank."""
        self.categories: tuple[Category, ...] = tuple(category_of_key(k) for k in distinct)
        """Category of each dense rank."""
        self.category_names: tuple[str, ...] = tuple(c.value for c in self.categories)
        """Lower-case category name of each dense rank."""
        self.level_count = len(distinct)
        """Number of distinct strength levels."""
        self.sorted_ranks: dict[tuple[Card, ...], int] = {h: dense[k] for h, k in keys.items()}
        """Dense rank of each hand, keyed by its cards in increasing order."""
        # Rows are 104 long: 52..103 hold -1, so card numbers -52..-1 (which Python would
        # count from the end) and 52..103 land on -1 too; planes and rows that hold no hand
        # are shared.
        void_row = [-1] * 104
        void_plane = [void_row] * 104
        table = [[[-1] * 104 for _ in range(52)] + [void_row] * 52 for _ in range(52)]
        table += [void_plane] * 52
        for hand, rank in self.sorted_ranks.items():
            if len(hand) == 3:
                for a, b, c in permutations(hand):
                    table[a][b][c] = rank
        self.rank_table: list[list[list[int]]] = table
        """``rank_table[a][b][c]``: dense rank of the hand of cards *a*, *b*, *c* (any order),
        or ``-1`` if they are not three different cards of the pack (for card numbers from -52
        to 103). The unchecked inner loop of :attr:`rank_of`, for the hottest loops."""
        self.rank_of: Callable[[Sequence[Card]], int] = _rank_function(table, self)
        """``rank_of(hand) -> int``: dense rank of three cards in any order (or of a pounce's
        four of a kind). :raises NotationError: if *hand* is not a hand of the pack."""

    def value(self, cards: Sequence[Card]) -> HandValue:
        """Full evaluation of *cards*."""
        hand = tuple(sorted(cards))
        rank = self.sorted_ranks.get(hand)
        if rank is None:
            hand_key(hand, self.rules)  # raises the precise notation error
            raise NotationError(
                f"{format_cards(hand)} is not a hand of the {self.rules.pack}-card pack"
            )
        key = self.keys[rank]
        return HandValue(category_of_key(key), rank, points_of(hand, self.rules), key)


def points_of(cards: Sequence[Card], rules: Ruleset) -> int:
    """A hand's point as *rules* count it: the pip total of all its cards, or under the
    'suit_point' ranking (Hoyle; Trade and Barter: "the cards of one suit, at least two") the
    pip total of its cards of one suit, at least two (0 where no two share a suit).

    >>> from commerce.rules import find_ruleset
    >>> from commerce.cards import parse_cards
    >>> points_of(parse_cards("7C AD 5C"), find_ruleset("peel"))
    23
    >>> points_of(parse_cards("7C AD 5C"), find_ruleset("trade-and-barter"))
    12
    """
    if RankingOptions.of(rules).ranking != "suit_point":
        return sum(PIPS[c] for c in cards)
    by_suit: dict[int, list[int]] = {}
    for c in cards:
        by_suit.setdefault(c & 3, []).append(PIPS[c])
    return max((sum(p) for p in by_suit.values() if len(p) >= 2), default=0)


def _rank_function(table: list[list[list[int]]], ev: Evaluator) -> Callable[[Sequence[Card]], int]:
    def rank_of(hand: Sequence[Card]) -> int:
        try:
            a, b, c = hand
            rank = table[a][b][c]
        except (ValueError, IndexError):
            return ev.value(hand).rank  # four of a kind, or the precise error
        if rank < 0:
            return ev.value(hand).rank  # raises the precise error
        return rank

    return rank_of


_SHARED: dict[tuple[object, ...], Evaluator] = {}


def _evaluator(signature: tuple[object, ...], rules: Ruleset) -> Evaluator:
    # Keyed by the hand options alone: an lru_cache on (signature, rules) would build a new
    # evaluator for every ruleset that differs only in options hands do not depend on.
    ev = _SHARED.get(signature)
    if ev is None:
        if len(_SHARED) >= 32:
            _SHARED.clear()
        ev = _SHARED[signature] = Evaluator(rules)
    return ev


_BY_ID: dict[int, tuple[Ruleset, Evaluator]] = {}


def evaluator_for(rules: Ruleset) -> Evaluator:
    """The (cached) evaluator for *rules*; rulesets with equal hand options share one."""
    hit = _BY_ID.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    signature = tuple(getattr(rules, f) for f in HAND_RULE_FIELDS)
    ev = _evaluator(signature, rules)
    if len(_BY_ID) > 256:
        _BY_ID.clear()
    _BY_ID[id(rules)] = (rules, ev)  # the entry keeps *rules* alive, so its id stays unique
    return ev


def evaluate(cards: Sequence[Card], rules: Ruleset) -> HandValue:
    """Evaluate a hand under *rules*.

    :raises NotationError: if *cards* is not a hand of the ruleset's pack.
    """
    return evaluator_for(rules).value(cards)


_LEVEL_WORDS: Final = {
    _Level.FOUR: "four of a kind",
    _Level.TRICON: "tricon",
    _Level.SEQUENCE: "sequence",
    _Level.FLUSH: "flush",
    _Level.PAIR: "pair",
    _Level.POINT: "point",
    _Level.NONE: "hand without a combination",
}


def _plural(word: str) -> str:
    return word + ("es" if word.endswith("sh") else "s")


def _rank_name(r: int) -> str:
    return RANKS[r - 2] if 2 <= r <= 14 else "A"


@dataclass(frozen=True, slots=True)
class Comparison:
    """The result of comparing two hands."""

    winner: Literal["a", "b", "tie"]
    """Which hand is stronger."""
    a: HandValue
    """Evaluation of the first hand."""
    b: HandValue
    """Evaluation of the second hand."""
    reason: str
    """One sentence saying why."""


def compare(a: Sequence[Card], b: Sequence[Card], rules: Ruleset) -> Comparison:
    """Compare two hands under *rules* and say why one wins.

    :raises NotationError: if either is not a hand, or the two share a card.
    """
    if set(a) & set(b):
        raise NotationError("the two hands share a card: " + format_cards(sorted(set(a) & set(b))))
    ev = evaluator_for(rules)
    va, vb = ev.value(a), ev.value(b)
    winner: Literal["a", "b", "tie"] = (
        "a" if va.rank > vb.rank else "b" if vb.rank > va.rank else "tie"
    )
    return Comparison(winner, va, vb, _reason(va.key, vb.key, rules))


def _reason(ka: HandKey, kb: HandKey, rules: Ruleset) -> str:
    opts = RankingOptions.of(rules)
    la, lb = _Level(ka[0]), _Level(kb[0])
    if la != lb:
        hi, lo = (la, lb) if la > lb else (lb, la)
        return f"a {_LEVEL_WORDS[hi]} beats a {_LEVEL_WORDS[lo]}"
    word = _LEVEL_WORDS[la]
    if ka == kb:
        if la is _Level.NONE and opts.void_rank == "void":
            return "neither hand holds a combination: they tie"
        return f"both are equal {_plural(word)} (suits do not rank): they tie"
    hi_key, lo_key = (ka, kb) if ka > kb else (kb, ka)
    if la in (_Level.TRICON, _Level.FOUR):
        return f"{word} of {_rank_name(hi_key[1])}s beats {word} of {_rank_name(lo_key[1])}s"
    if la is _Level.SEQUENCE:
        return (f"sequence to {_rank_name(hi_key[1])} beats sequence to "
                f"{_rank_name(lo_key[1])}")
    if la is _Level.PAIR:
        if hi_key[1] != lo_key[1]:
            return f"pair of {_rank_name(hi_key[1])}s beats pair of {_rank_name(lo_key[1])}s"
        return (f"equal pairs of {_rank_name(hi_key[1])}s: the odd card "
                f"{_rank_name(hi_key[2])} beats {_rank_name(lo_key[2])}")
    if la is _Level.POINT and opts.ranking == "suit_point":
        if hi_key[1] != lo_key[1]:
            return f"point of {hi_key[1]} beats point of {lo_key[1]}"
        return (f"equal points of {hi_key[1]}: {hi_key[2]} cards of a suit beat "
                f"{lo_key[2]}")
    # Flush, point (peel), void with high_card: optional total then ranks from the top.
    by_points = la is _Level.POINT or (la is _Level.FLUSH and opts.flush_compare == "points")
    if by_points and hi_key[1] != lo_key[1]:
        return f"{word} of {hi_key[1]} pips beats {word} of {lo_key[1]} pips"
    ranks_hi = hi_key[2:] if by_points else hi_key[1:]
    ranks_lo = lo_key[2:] if by_points else lo_key[1:]
    for rh, rl in zip(ranks_hi, ranks_lo, strict=False):
        if rh != rl:
            plural = _plural(word)
            prefix = f"equal {plural} of {hi_key[1]} pips: " if by_points else f"{plural}: "
            return prefix + f"the first different card {_rank_name(rh)} beats {_rank_name(rl)}"
    return f"both are equal {_plural(word)}"
