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
from pathlib import Path
from typing import Any

from commerce.cards import Card, format_card, format_cards, pack
from commerce.core import Action, ActionKind, DecisionKind
from commerce.rules import Ruleset

__all__ = ["CardFace", "MenuGroup", "Pile", "Presentation", "SeatView", "TableView",
           "card_face", "for_players", "hand_ranking", "humanize", "move_meanings", "pack_symbols",
           "quantity", "ruleset_facts", "ruleset_page", "rules_section"]


@dataclass(frozen=True, slots=True)
class CardFace:
    """A card as drawn: with suit symbols, in letters, and its colour."""

    symbols: str
    """The card with a suit symbol, e.g. ``A♠``."""
    letters: str
    """The same in letters, for terminals that cannot draw symbols, e.g. ``AS``."""
    colour: str = "black"
    """A colour name for the card's face (``red``, ``black``, or a series' colour)."""
    name: str = ""
    """The card in words where its face is a code a newcomer cannot read (Cox's ``A3``:
    ``Automobiles 3``); empty for the 52-card pack, whose faces say it."""

    def text(self, *, symbols: bool = True) -> str:
        """The card as text, with symbols or in letters."""
        return self.symbols if symbols else self.letters


def card_face(card: Card) -> CardFace:
    """A card of the 52-card pack as drawn: hearts and diamonds red.

    >>> card_face(13)
    CardFace(symbols='5♥', letters='5H', colour='red', name='')
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


_SPECIAL = {
    "buy_horse": "buy a horse",
    "sell_out": "sell out",
}
_WORDS = {
    **{k.value: k.value.replace("_", " ") for k in (*ActionKind, *DecisionKind)
       if "_" in k.value},
    **_SPECIAL,
}
_IDENTIFIER = re.compile(r"\b(" + "|".join(sorted(map(re.escape, _WORDS), key=len,
                                                   reverse=True)) + r")\b")


def humanize(text: str) -> str:
    """*text* with the code's identifiers of actions and decisions written as words.

    >>> humanize("on your turn draw or buy, not sell_out")
    'on your turn draw or buy, not sell out'
    """
    return _IDENTIFIER.sub(lambda m: _WORDS[m.group(1)], text)


# -- the ruleset pages, in words for players (the terminal's help and the page's rules) ------

_SHIPPED_PAGES = Path(__file__).resolve().parent / "pages"
"""The pages inside the built package (``setup.py`` copies ``docs/rulesets`` there)."""
_SOURCE_PAGES = Path(__file__).resolve().parents[2] / "docs" / "rulesets"
"""The pages in a source checkout (src/commerce/presentation.py -> the repository)."""

_CODE_IN_PARENS = re.compile(r"\s*\([^()]*`[^`()]*`[^()]*\)")
_CODE = re.compile(r"`([^`]*)`")
_NOT_FOR_PLAYERS = re.compile(r"\bengine\b|`[^`]*[_.\[\]()][^`]*`")
"""A sentence about the engine, or with a code word naming an option, a module or a field."""
_ITEM = re.compile(r"\n(?=\s*[*-] )")
_EXAMPLE = re.compile(r"\s*\(e\.g\. '[^']*'\)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z*\"(])")
_FACTS = ("Players", "Hand", "Hands", "Each deal", "Added", "Categories", "Deal ends", "Ends",
          "Lives", "Game ends", "Score", "Payoff")
"""The rows of a page's first table that say what a ruleset is, for a one-line summary."""


def ruleset_page(rules_id: str) -> str | None:
    """The text of the page of the ruleset *rules_id* (``docs/rulesets/<id>.md``, shipped in
    the package), or None where there is none."""
    if not re.fullmatch(r"[a-z0-9-]+", rules_id):
        return None
    shipped = _SHIPPED_PAGES / f"{rules_id}.md"
    if shipped.is_file():
        return shipped.read_text(encoding="utf-8")
    source = _SOURCE_PAGES / f"{rules_id}.md"
    return source.read_text(encoding="utf-8") if source.is_file() else None


def for_players(text: str) -> str:
    """Markdown of a page in words for players: a parenthesis with a code word, a sentence
    about the engine or naming an option or a module, and a table row naming one, are left
    out; the moves' code words are written as plain words.

    >>> print(for_players("He may keep his hand (`pass`, which does not lock him out). Or he "
    ...                   "may stop after `max_rounds_per_deal` rounds. Write `x 7h for qs`."))
    He may keep his hand. Write x 7h for qs.
    """
    out = []
    for block in re.split(r"\n\s*\n", text):
        if block.lstrip().startswith("|"):  # a table: its rows that name no option
            out.append("\n".join(row for row in block.splitlines()
                                 if not _NOT_FOR_PLAYERS.search(row)))
            continue
        items = []
        for item in _ITEM.split(block):
            found = re.match(r"(\s*[*-] )?(.*)", item, re.S)
            assert found is not None
            body = _CODE_IN_PARENS.sub("", " ".join(found.group(2).split()))
            kept = [x for x in _SENTENCE_END.split(body) if not _NOT_FOR_PLAYERS.search(x)]
            if kept:
                items.append((found.group(1) or "").lstrip() + " ".join(kept))
        out.append("\n".join(items))
    return _CODE.sub(lambda m: m.group(1), "\n\n".join(b for b in out if b.strip()))


def rules_section(page: str) -> str:
    """The page's "rules in our words" section (its body, without the heading)."""
    found = re.search(r"^## The rules in our words\s*\n(.*?)(?=^## |\Z)", page, re.M | re.S)
    return found.group(1).strip() if found else ""


def ruleset_facts(page: str) -> list[tuple[str, str]]:
    r"""What a ruleset is, from its page's first table in words for players: (row, text) for
    the players, the hand, how a deal and the game end and what is won.

    >>> ruleset_facts("# x\n\n| | |\n|---|---|\n| Family | `widow` |\n| Players | 3–10 |\n"
    ...               "| Deal ends | a knock (`end_condition`) |\n")
    [('Players', '3–10'), ('Deal ends', 'a knock')]
    """
    found = re.search(r"^\|.*?(?=\n\s*\n|\Z)", page, re.M | re.S)
    out = []
    for row in found.group(0).splitlines() if found else ():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0] in _FACTS:
            text = " ".join(_LINK.sub(r"\1", _CODE_IN_PARENS.sub("", cells[1])).split())
            if text and not _NOT_FOR_PLAYERS.search(text):
                out.append((cells[0], _CODE.sub(lambda m: m.group(1), text)))
    return out


def move_meanings(commands: str) -> tuple[list[tuple[str, str]], list[str]]:
    r"""A family's :attr:`Presentation.commands` read for people who click: each move's word
    with what it means, and the lines that name the cards (the legend).

    >>> move_meanings("Type an action by its number:\n  trade CARD | t CARD   trade CARD (e.g. "
    ...               "'t 7h')\nCards: rank A K Q J and suit S H D C,\ne.g. AS 10h.")
    ([('trade a card', 'trade the card')], ['Cards: rank A K Q J and suit S H D C, e.g. AS 10h.'])
    """
    moves: list[tuple[str, str]] = []
    legend: list[str] = []
    for line in commands.splitlines():
        parts = re.split(r"\s{2,}", line.strip(), maxsplit=1)
        if legend:
            legend[-1] = f"{legend[-1]} {line.strip()}"
        elif line.startswith("Cards:"):
            legend.append(line.strip())
        elif line.startswith("  ") and len(parts) == 2:
            move = parts[0].split(" | ")[0].replace("CARD", "a card")
            meaning = _EXAMPLE.sub("", parts[1]).replace("CARD", "the card")
            moves.append((move, meaning))
    return moves, legend


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
