"""Cards of the French-suited packs used by every Commerce ruleset except Cox's.

A card is a small ``int`` (0-51): ``(rank - 2) * 4 + suit``, with ranks 2-14 (ace high = 14) and
suits 0-3 = spades, hearts, diamonds, clubs. Ints keep hands cheap to copy, hash and compare,
which matters for search and simulation; :func:`parse_card` and :func:`format_card` convert to
and from the notation people type.

>>> format_card(parse_card("10h"))
'TH'
>>> [format_card(c) for c in parse_cards("AS KS qs")]
['AS', 'KS', 'QS']
>>> pips(parse_card("AS")), pips(parse_card("KD")), pips(parse_card("7C"))
(11, 10, 7)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Final, TypeAlias

from commerce.errors import NotationError

Card: TypeAlias = int
"""A card of the 52-card pack, 0-51."""

SUITS: Final = "SHDC"
"""Suit letters in card-index order: spades, hearts, diamonds, clubs."""
SUIT_SYMBOLS: Final = "♠♥♦♣"
"""The same suits as symbols."""
RANKS: Final = "23456789TJQKA"
"""Rank letters, lowest first; index + 2 is the rank number."""

_SUIT_INPUT: Final[dict[str, int]] = {
    **{s: i for i, s in enumerate(SUITS)},
    **{s.lower(): i for i, s in enumerate(SUITS)},
    **{s: i for i, s in enumerate(SUIT_SYMBOLS)},
    "♤": 0,
    "♡": 1,
    "♢": 2,
    "♧": 3,
}
_RANK_INPUT: Final[dict[str, int]] = {
    **{r: i + 2 for i, r in enumerate(RANKS)},
    **{r.lower(): i + 2 for i, r in enumerate(RANKS)},
    "10": 10,
    "1": 14,
}


def make_card(rank: int, suit: int) -> Card:
    """Return the card of *rank* (2-14, ace 14) and *suit* (0-3)."""
    if not 2 <= rank <= 14 or not 0 <= suit <= 3:
        raise ValueError(f"no card of rank {rank} and suit {suit}")
    return (rank - 2) * 4 + suit


def rank_of(card: Card) -> int:
    """Rank number 2-14 of *card* (ace = 14)."""
    return (card >> 2) + 2


def suit_of(card: Card) -> int:
    """Suit index 0-3 of *card* (spades, hearts, diamonds, clubs)."""
    return card & 3


PIPS: Final[tuple[int, ...]] = tuple(
    11 if r == 14 else 10 if r >= 10 else r for r in (c // 4 + 2 for c in range(52))
)
"""Pip value of each card: ace 11, court cards and tens 10, others their face value."""


def pips(card: Card) -> int:
    """Pip value of *card*: ace 11, K Q J 10 count 10, others face value."""
    return PIPS[card]


def parse_card(text: str) -> Card:
    """Parse one card such as ``AS``, ``10h``, ``T♦`` or ``qc``.

    :raises NotationError: naming the token if it is not a card.
    """
    token = text.strip()
    if len(token) >= 2:
        rank = _RANK_INPUT.get(token[:-1])
        suit = _SUIT_INPUT.get(token[-1])
        if rank is not None and suit is not None:
            return (rank - 2) * 4 + suit
    raise NotationError(
        f"{text!r} is not a card: write a rank (A K Q J T/10 9 ... 2) then a suit"
        " (S H D C), e.g. AS"
    )


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas, or an iterable of tokens.

    >>> parse_cards(["2s", "3S"]) == parse_cards("2S,3s")
    True
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards: list[Card] = []
    for token in tokens:
        if isinstance(token, str) and " " in token.strip():
            cards.extend(parse_cards(token))
        else:
            cards.append(parse_card(token))
    return tuple(cards)


def format_card(card: Card, *, symbols: bool = False) -> str:
    """Write *card* as rank letter and suit, e.g. ``TH`` (or ``T♥`` with *symbols*)."""
    if not 0 <= card < 52:
        raise ValueError(f"{card} is not a card index")
    suit = SUIT_SYMBOLS[card & 3] if symbols else SUITS[card & 3]
    return RANKS[card >> 2] + suit


def format_cards(cards: Iterable[Card], *, symbols: bool = False) -> str:
    """Write cards separated by spaces."""
    return " ".join(format_card(c, symbols=symbols) for c in cards)


_PACK52: Final = tuple(range(52))
_PACK32: Final = tuple(range(20, 52))
_PACK12: Final = tuple(range(40, 52))


def pack(size: int = 52) -> tuple[Card, ...]:
    """The cards of the 52-card pack, of the 32-card piquet pack (A K Q J 10 9 8 7), or of
    the 12-card research pack (A K Q), the highest cards of the pack in each case.

    >>> len(pack(52)), len(pack(32)), format_card(min(pack(32))), format_card(min(pack(12)))
    (52, 32, '7S', 'QS')
    """
    if size == 52:
        return _PACK52
    if size == 32:
        return _PACK32
    if size == 12:
        return _PACK12
    raise ValueError(f"no {size}-card pack: Commerce uses 52, 32 or 12 cards")


def sample_cards(rng: random.Random, cards: Sequence[Card], k: int) -> list[Card]:
    """*k* different cards of *cards* drawn uniformly at random, in the order drawn.

    The draws of ``rng.sample(cards, k)`` when the standard library uses its pool method (as
    it does for every initial deal of these games), at about half the cost: the same loop
    without a function call per card.

    >>> import random
    >>> sample_cards(random.Random(7), pack(), 12) == random.Random(7).sample(pack(), 12)
    True
    """
    getrandbits = rng.getrandbits
    pool = list(cards)
    n = len(pool)
    if not 0 <= k <= n:
        raise ValueError(f"cannot draw {k} of {n} cards")
    out = []
    for m in range(n, n - k, -1):  # Fisher-Yates on the pool, a uniform index below m each
        bits = m.bit_length()
        j = getrandbits(bits)
        while j >= m:
            j = getrandbits(bits)
        out.append(pool[j])
        pool[j] = pool[m - 1]
    return out
