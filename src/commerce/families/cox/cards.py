"""The 80-card pack of Cox's 1925 Commerce, and its notation.

A card is an ``int`` 0-79:

* 0-59: the transport suit cards, ``suit * 20 + (number - 1) * 4 + copy`` with suits
  0-2 = Automobiles (``A``), Ships (``S``), Aeroplanes (``P``), numbers 1-5 and copies 0-3.
  The four copies of a number are alike: they are distinct ints of the same *face*.
* 60-62: the Captains ``AC`` ``SC`` ``PC``; 63: the Bank ``BK``.
* 64-79: the honour cards, four of each: Fruit ``F1``-``F4``, Grain ``G1``-``G4``, Industries
  ``I1``-``I4`` and Greenbacks (money) ``M1``-``M4``.

The *face* of a card is what is printed on it: the 15 transport faces have four copies each, every
other card is its own face. A face is named by its first copy (:func:`face_card`). The *kind* of
a card is what it combines with: a transport face, or an honour suit (any two Grains pair).

>>> format_cox_cards(parse_cox_cards("A1 a1 A1 bk g3"))
'A1 A1 A1 BK G3'
>>> parse_cox_cards("A1 A1 A1")          # three distinct copies of Automobile 1
(0, 1, 2)
>>> kind_name(kind_of(parse_cox_card("G3"))), is_wild(parse_cox_card("SC"))
('Grain', True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, TypeAlias

from commerce.errors import NotationError

CoxCard: TypeAlias = int
"""A card of Cox's 80-card pack, 0-79."""

PACK_SIZE: Final = 80
"""Cards in the pack."""
TRANSPORT_SUITS: Final = "ASP"
"""Transport suit letters in card order: Automobiles, Ships, Aeroplanes."""
TRANSPORT_NAMES: Final = ("Automobiles", "Ships", "Aeroplanes")
"""Transport suit names in card order."""
HONOUR_SUITS: Final = "FGIM"
"""Honour suit letters in card order: Fruit, Grain, Industries, Greenbacks (money)."""
HONOUR_NAMES: Final = ("Fruit", "Grain", "Industries", "Greenbacks")
"""Honour suit names in card order."""

CAPTAINS: Final = (60, 61, 62)
"""The Captains of Automobiles, Ships and Aeroplanes."""
BANK: Final = 63
"""The Bank card."""
GREENBACKS: Final = (76, 77, 78, 79)
"""Greenbacks 1-4."""

KIND_COUNT: Final = 18
"""Kinds that combine: 15 transport faces (suit * 5 + number - 1), then Fruit, Grain, Industries."""
KIND_GREENBACK: Final = 18
"""The kind of every Greenback (they never combine)."""
KIND_WILD: Final = -1
"""The kind of a Captain or the Bank (wild cards have no kind of their own)."""


def make_transport(suit: int, number: int, copy: int = 0) -> CoxCard:
    """The card of transport *suit* (0-2), *number* (1-5) and *copy* (0-3)."""
    if not (0 <= suit <= 2 and 1 <= number <= 5 and 0 <= copy <= 3):
        raise ValueError(f"no transport card of suit {suit}, number {number}, copy {copy}")
    return suit * 20 + (number - 1) * 4 + copy


def is_transport(card: CoxCard) -> bool:
    """Whether *card* is a numbered transport card (not a Captain)."""
    return 0 <= card < 60


def is_captain(card: CoxCard) -> bool:
    """Whether *card* is a Captain."""
    return 60 <= card <= 62


def is_bank(card: CoxCard) -> bool:
    """Whether *card* is the Bank."""
    return card == BANK


def is_wild(card: CoxCard) -> bool:
    """Whether *card* is a Captain or the Bank."""
    return 60 <= card <= 63


def is_greenback(card: CoxCard) -> bool:
    """Whether *card* is a Greenback."""
    return card >= 76


def is_honour(card: CoxCard) -> bool:
    """Whether *card* is an honour card (Fruit, Grain, Industries or a Greenback)."""
    return card >= 64


def is_black(card: CoxCard) -> bool:
    """Whether *card* is a black transport card (numbered or a Captain): these make a hand clear
    or not."""
    return 0 <= card <= 62


def transport_suit(card: CoxCard) -> int:
    """The transport suit (0-2) of a numbered transport card or a Captain."""
    if card < 60:
        return card // 20
    if card <= 62:
        return card - 60
    raise ValueError(f"{format_cox_card(card)} has no transport suit")


def number_of(card: CoxCard) -> int:
    """The printed number: 1-5 for transport cards, 1-4 for honour cards, 0 otherwise."""
    if card < 60:
        return (card % 20) // 4 + 1
    if card >= 64:
        return (card - 64) % 4 + 1
    return 0


def kind_of(card: CoxCard) -> int:
    """What *card* combines with: 0-14 transport faces, 15-17 Fruit, Grain, Industries;
    :data:`KIND_GREENBACK` for a Greenback, :data:`KIND_WILD` for a Captain or the Bank."""
    if card < 60:
        return card // 4
    if card >= 76:
        return KIND_GREENBACK
    if card >= 64:
        return 15 + (card - 64) // 4
    return KIND_WILD


def kind_name(kind: int) -> str:
    """A kind's name, e.g. ``A1`` (Automobile 1s) or ``Grain``."""
    if 0 <= kind < 15:
        return f"{TRANSPORT_SUITS[kind // 5]}{kind % 5 + 1}"
    if 15 <= kind <= 18:
        return HONOUR_NAMES[kind - 15]
    raise ValueError(f"no kind {kind}")


def face_of(card: CoxCard) -> int:
    """The face (0-34) printed on *card*: copies of a transport number share one face."""
    return card // 4 if card < 60 else card - 45


def face_card(card: CoxCard) -> CoxCard:
    """The first copy of *card*'s face, the card that names the face in actions."""
    return card - card % 4 if card < 60 else card


def pack() -> tuple[CoxCard, ...]:
    """All 80 cards in card order."""
    return tuple(range(PACK_SIZE))


_NAMES: Final[tuple[str, ...]] = (
    *(f"{TRANSPORT_SUITS[c // 20]}{(c % 20) // 4 + 1}" for c in range(60)),
    "AC", "SC", "PC", "BK",
    *(f"{HONOUR_SUITS[(c - 64) // 4]}{(c - 64) % 4 + 1}" for c in range(64, 80)),
)
_FACE_BY_NAME: Final[dict[str, CoxCard]] = {
    name: c for c, name in reversed(list(enumerate(_NAMES)))
}


def format_cox_card(card: CoxCard) -> str:
    """Write *card* as its face, e.g. ``A1``, ``SC``, ``BK``, ``M3`` (copies look alike)."""
    if not 0 <= card < PACK_SIZE:
        raise ValueError(f"{card} is not a card of the Cox pack")
    return _NAMES[card]


def format_cox_cards(cards: Iterable[CoxCard]) -> str:
    """Write cards separated by spaces."""
    return " ".join(_NAMES[c] for c in cards)


def parse_cox_card(text: str) -> CoxCard:
    """Parse one card (case-insensitive): the first copy of its face.

    :raises NotationError: naming the token if it is not a card of the pack.
    """
    card = _FACE_BY_NAME.get(text.strip().upper())
    if card is None:
        raise NotationError(
            f"{text!r} is not a Cox card: write A1-A5, S1-S5, P1-P5 (Automobiles, Ships, "
            "Aeroplanes), AC SC PC (Captains), BK (Bank), F1-F4, G1-G4, I1-I4 (Fruit, Grain, "
            "Industries) or M1-M4 (Greenbacks)"
        )
    return card


def parse_cox_cards(text: str | Iterable[str]) -> tuple[CoxCard, ...]:
    """Parse cards separated by spaces or commas; repeated faces are distinct copies.

    :raises NotationError: naming a bad token, or a face written more often than the pack has it.
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else [
        t for item in text for t in item.replace(",", " ").split()
    ]
    used: dict[CoxCard, int] = {}
    out: list[CoxCard] = []
    for token in tokens:
        first = parse_cox_card(token)
        n = used.get(first, 0)
        if n >= (4 if first < 60 else 1):
            raise NotationError(
                f"{token!r}: the pack has only {4 if first < 60 else 1} of "
                f"{_NAMES[first]}"
            )
        used[first] = n + 1
        out.append(first + n)
    return tuple(out)


def canonical(cards: Iterable[CoxCard]) -> tuple[CoxCard, ...]:
    """*cards* with copies renumbered in order of appearance (first A1 = copy 0, ...).

    Copies are alike, so two holdings with the same faces are the same holding; this is the
    form :func:`parse_cox_cards` gives back.
    """
    used: dict[CoxCard, int] = {}
    out: list[CoxCard] = []
    for c in cards:
        first = face_card(c)
        n = used.get(first, 0)
        used[first] = n + 1
        out.append(first + n)
    return tuple(out)
