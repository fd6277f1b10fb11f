"""What a family shows people beyond its text hooks: menus grouped, and the table as data.

A family may give a :class:`Presentation` as the ``presentation`` hook of its
:class:`~commerce.family.FamilySpec`. The plain terminal interface uses
:attr:`Presentation.menu_group` to group long menus (the widow game's exchanges by the card
given); the full-screen table (:mod:`commerce.cli.table`) draws a :class:`TableView`, which
:attr:`Presentation.table` builds from an observation only, never from a state.

Every field here is words and card faces for people: no identifier from the code.

>>> face = CardFace("A♠", "AS", "black")
>>> face.text(symbols=False)
'AS'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from commerce.cards import Card, format_card, format_cards, pack
from commerce.core import Action
from commerce.rules import Ruleset

__all__ = ["CardFace", "MenuGroup", "Pile", "Presentation", "SeatView", "TableView",
           "card_face", "hand_ranking", "pack_symbols", "quantity"]


@dataclass(frozen=True, slots=True)
class CardFace:
    """A card as drawn: with suit symbols, in letters, and its colour."""

    symbols: str
    """The card with a suit symbol, e.g. ``A♠``."""
    letters: str
    """The same in letters, for terminals that cannot draw symbols, e.g. ``AS``."""
    colour: str = "black"
    """A colour name for the card's face (``red``, ``black``, or a series' colour)."""

    def text(self, *, symbols: bool = True) -> str:
        """The card as text, with symbols or in letters."""
        return self.symbols if symbols else self.letters


def card_face(card: Card) -> CardFace:
    """A card of the 52-card pack as drawn: hearts and diamonds red.

    >>> card_face(13)
    CardFace(symbols='5♥', letters='5H', colour='red')
    """
    return CardFace(format_card(card, symbols=True), format_card(card),
                    "red" if card & 3 in (1, 2) else "black")


def quantity(n: int, word: str, *, signed: bool = False) -> str:
    """*n* of the plural *word* (stakes, tokens, counters, points, cards), singular for one.

    >>> quantity(1, "tokens"), quantity(-1, "stakes", signed=True), quantity(0, "counters")
    ('1 token', '-1 stake', '0 counters')
    """
    number = f"{n:+d}" if signed else f"{n}"
    return f"{number} {word[:-1] if abs(n) == 1 and word.endswith('s') else word}"


_PACK_CARD = re.compile(r"\b(10|[2-9TJQKA])([SHDC])\b")


def pack_symbols(text: str) -> str:
    """Cards of the 52-card pack named in *text* drawn with suit symbols.

    >>> pack_symbols("You are dealt AD 3D 7S.")
    'You are dealt A♦ 3♦ 7♠.'
    """
    return _PACK_CARD.sub(lambda m: m.group(1) + "♠♥♦♣"["SHDC".index(m.group(2))], text)


def hand_ranking(rules: Ruleset) -> list[str]:
    """The categories of three-card hands under *rules*, best first, each with its best
    hand as an example (the 52- or 32-card pack of the trading and widow games).

    >>> from commerce.rules import find_ruleset
    >>> hand_ranking(find_ruleset("peel"))[:2]
    ['tricon, e.g. A♠ A♥ A♦', 'sequence, e.g. A♠ K♠ Q♠']
    """
    from itertools import combinations

    from commerce.hands import evaluate

    best: dict[str, tuple[int, tuple[Card, ...]]] = {}
    for hand in combinations(pack(rules.pack), 3):
        value = evaluate(hand, rules)
        name = value.category.value
        if name not in best or value.rank > best[name][0]:
            best[name] = (value.rank, hand)
    order = sorted(best.items(), key=lambda kv: -kv[1][0])
    return [f"{name}, e.g. {format_cards(sorted(hand, key=lambda c: -(c >> 2)), symbols=True)}"
            for name, (_, hand) in order]


@dataclass(frozen=True, slots=True)
class MenuGroup:
    """Where a menu entry belongs: under *heading*, shown as *short* there."""

    heading: str
    """The group's heading, e.g. ``give 7♠ for``."""
    short: str
    """The entry within the group, e.g. ``3♥``."""


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as the viewer may see it."""

    name: str
    """The player's name."""
    score: str
    """Stakes, tokens or points in words, e.g. ``+3 stakes``, ``2 tokens``, ``total +12``."""
    cards: tuple[CardFace, ...] = ()
    """The cards of this seat the viewer may see, face up."""
    hidden: int = 0
    """How many of its cards the viewer may not see (drawn face down)."""
    dealer: bool = False
    """Whether the seat deals (holds the dealer's button)."""
    to_act: bool = False
    """Whether the seat is to act."""
    note: str = ""
    """What is known of it this deal, e.g. ``stood``, ``out``, ``knocked``."""
    you: bool = False
    """Whether this is the viewer's seat."""
    out: bool = False
    """Whether the seat is out of the game (it takes no part in the deals left)."""


@dataclass(frozen=True, slots=True)
class Pile:
    """Cards in the middle of the table: the widow, the stock, the pool, the discard."""

    name: str
    """The pile's name, e.g. ``widow``."""
    cards: tuple[CardFace, ...] = ()
    """Face-up cards."""
    count: str = ""
    """A count in words where the cards are not shown, e.g. ``37 cards``, ``5 stakes``."""
    card_ids: tuple[int, ...] = ()
    """The face-up cards as the family's card numbers, where a move may name them (the
    widow's cards, to be taken in an exchange)."""


@dataclass(frozen=True, slots=True)
class TableView:
    """The whole table as one seat may see it."""

    title: str
    """The ruleset's name."""
    progress: str
    """Where the session stands, e.g. ``deal 3 of 8`` or ``deal 23, round 2, 4 still in``."""
    seats: tuple[SeatView, ...]
    """Every seat, in seat order."""
    piles: tuple[Pile, ...]
    """The middle of the table."""
    hand: tuple[CardFace, ...]
    """The viewer's own cards, in the order the actions name them."""
    hand_cards: tuple[int, ...]
    """The same cards as the family's card numbers (to match actions' cards)."""
    hand_note: str = ""
    """The hand in words, e.g. ``pair, 25 points``."""
    prompt: str = ""
    """The decision at hand in words, e.g. ``Your turn: stand, trade or barter.``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Presentation:
    """A family's hooks for what people see (see the module's docstring)."""

    menu_group: Callable[[Action, Any], MenuGroup | None] | None = None
    """``menu_group(action, obs)``: the group of a menu entry, or None to stand alone."""
    table: Callable[[Any, Sequence[str]], TableView] | None = None
    """``table(obs, names)``: the table as the observation's seat may see it."""
    rules_help: Callable[[Ruleset], list[str]] | None = None
    """``rules_help(rules)``: lines on what beats what under *rules*, for the help."""
    card_symbols: Callable[[str], str] | None = None
    """Rewrites the cards named in a line of the family's text in the table's notation
    (suit symbols), so that one notation is seen everywhere."""
    explain: Callable[[Any], str] | None = None
    """``explain(obs)``: the decision at hand explained in words for someone new to the game
    (what a blind exchange, buying a horse, a Pounce or "I sell out" is), or ``""``."""
    commands: str = ""
    """The plain interface's help: the moves as they may be typed, in words."""
    short_words: Mapping[str, str] = field(default_factory=dict)
    """Abbreviations of the moves' first words that the interfaces accept (``t``: ``trade``)."""
    deal_word: str = "deal"
    """What one deal is called (``hand`` in Cox's game)."""
    gain_words: str = "expected change of your stakes by the end of the deal"
    """What the search bot's estimate of a move measures, in words, for the hints."""
