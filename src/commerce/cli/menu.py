"""The plain interface's text: menus that fit the terminal, lines wrapped between words, and
no identifier from the code.

A menu is packed entry by entry, so that no entry is ever split across lines unless it is
longer than a whole line (then it is broken between words). Entries that a family groups
(the widow game's exchanges, by the card given) share one line under their heading:

>>> from commerce.presentation import MenuGroup
>>> labels = ["pass", "knock", "exchange 7♠ for 3♥", "exchange 7♠ for 9♠"]
>>> groups = [None, None, MenuGroup("give 7♠ for", "3♥"), MenuGroup("give 7♠ for", "9♠")]
>>> print("\\n".join(menu_lines(labels, groups)))
1) pass  2) knock
give 7♠ for:  3) 3♥  4) 9♠
>>> humanize("on your turn draw or buy, not sell_out")
'on your turn draw or buy, not sell out'
>>> for line in wrap_text("  " + "word " * 12, 30):
...     print(line)
  word word word word word
    word word word word word
    word word
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

from commerce.presentation import MenuGroup
from commerce.presentation import humanize as humanize  # the menus' words, kept here too

if TYPE_CHECKING:
    from commerce.core import Action
    from commerce.driver import Driver

WIDTH = 80
"""The width the plain interface writes for (a terminal's classic width)."""

def wrap_text(text: str, width: int = WIDTH) -> list[str]:
    """Each line of *text* wrapped between words to *width* columns; a continued line is
    indented two columns more than its first."""
    out: list[str] = []
    for line in text.splitlines() or [""]:
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip())]
        pieces = textwrap.wrap(line.lstrip(), width - len(indent), subsequent_indent="  ",
                               break_long_words=False, break_on_hyphens=False)
        out.extend(indent + p for p in pieces)
    return out


def _pack(entries: Sequence[str], first: str, indent: str, width: int) -> list[str]:
    """Whole *entries* packed into lines of *width*, two spaces apart; the first line opens
    with *first*, the others with *indent*."""
    lines: list[str] = []
    line = first
    for entry in entries:
        gap = "" if line == first or line.endswith(" ") else "  "
        if len(line) + len(gap) + len(entry) <= width:
            line += gap + entry
            continue
        if line.strip():
            lines.append(line.rstrip())
            line = indent
        if len(line) + len(entry) <= width:
            line += entry
            continue
        pieces = textwrap.wrap(entry, width - len(indent), break_long_words=False,
                               break_on_hyphens=False)
        lines.extend(indent + p for p in pieces[:-1])
        line = indent + pieces[-1]
    if line.strip():
        lines.append(line.rstrip())
    return lines


def menu_lines(labels: Sequence[str], groups: Sequence[MenuGroup | None] | None = None,
               width: int = WIDTH) -> list[str]:
    """The numbered menu of *labels* in lines of at most *width* columns (an entry is broken
    only when it is longer than a line). Entries with a group are listed under its heading,
    where the group's first entry stands."""
    if groups is None:
        groups = [None] * len(labels)
    blocks: list[tuple[str | None, list[str]]] = []
    where: dict[str, int] = {}
    for i, (label, group) in enumerate(zip(labels, groups, strict=True), 1):
        if group is None:
            if not blocks or blocks[-1][0] is not None:
                blocks.append((None, []))
            blocks[-1][1].append(f"{i}) {humanize(label)}")
            continue
        if group.heading not in where:
            where[group.heading] = len(blocks)
            blocks.append((group.heading, []))
        blocks[where[group.heading]][1].append(f"{i}) {group.short}")
    lines: list[str] = []
    for heading, entries in blocks:
        if heading is None:
            lines.extend(_pack(entries, "", "", width))
        else:
            lines.extend(_pack(entries, f"{humanize(heading)}:  ", "    ", width))
    return lines


def possible_now(labels: Sequence[str],
                 groups: Sequence[MenuGroup | None] | None = None) -> str:
    """The moves of a menu in one line, for a message that says what may be typed now:
    those with the same first word together, and those a family groups (:func:`menu_lines`)
    under their heading.

    >>> possible_now(["stand", "give 4♥", "give 8♣", "give J♣"])
    'stand; give 4♥, 8♣ or J♣'
    >>> possible_now(["pass", "exchange 7♠ for 3♥", "exchange 7♠ for 9♠"],
    ...              [None, MenuGroup("give 7♠ for", "3♥"), MenuGroup("give 7♠ for", "9♠")])
    'pass; give 7♠ for 3♥ or 9♠'
    """
    if groups is None:
        groups = [None] * len(labels)
    together: dict[str, list[str]] = {}
    for label, group in zip(labels, groups, strict=True):
        if group is not None:
            word, rest = humanize(group.heading), group.short
        else:
            word, _, rest = humanize(label).partition(" ")
        together.setdefault(word, [])
        if rest:
            together[word].append(rest)
    parts = []
    for word, rests in together.items():
        if not rests:
            parts.append(word)
        else:
            tail = rests[0] if len(rests) == 1 else f"{', '.join(rests[:-1])} or {rests[-1]}"
            parts.append(f"{word} {tail}")
    return "; ".join(parts)


PHRASES = (("buy a horse", "buy_horse"), ("buy horse", "buy_horse"),
            ("i sell out", "sell_out"), ("sell out", "sell_out"), ("i sell", "sell_out"),
            ("sell", "sell_out"), ("i buy", "buy"))
"""Natural phrases a player may type for a move, each with the action's word, longest first."""


def phrase_action(driver: Driver, legal: Sequence[Action], text: str) -> str:
    """Natural phrases as actions: "I buy" is ``buy``, "I sell out A1" is ``sell_out A1``, and
    "I sell out" alone is the one sell-out there is."""
    from commerce import engine
    from commerce.core import ActionKind

    low = " ".join(text.lower().split())
    for phrase, word in PHRASES:
        if low == phrase or low.startswith(phrase + " "):
            rest = low[len(phrase):].strip()
            sells = [a for a in legal if a.kind is ActionKind.SELL_OUT]
            if word == "sell_out" and not rest and len(sells) == 1:
                return str(engine.format_action(driver.rules, sells[0]))
            return f"{word} {rest}".strip()
    return text


def family_labels(driver: Driver, seat: int, legal: Sequence[Action],
                  labels: list[str]) -> list[str]:
    """Menu labels in words where the family has an ``action_label`` hook."""
    from commerce import engine
    from commerce.family import family_spec

    label = family_spec(driver.rules.family).action_label
    if label is None:
        return labels
    obs = engine.observe(driver.state, seat)
    return [str(label(a, obs)) for a in legal]


def menu_groups(driver: Driver, seat: int,
                legal: Sequence[Action]) -> list[MenuGroup | None] | None:
    """The family's grouping of the menu (see :class:`commerce.presentation.Presentation`)."""
    from commerce import engine
    from commerce.family import family_spec

    present = family_spec(driver.rules.family).presentation
    if present is None or present.menu_group is None:
        return None
    obs = engine.observe(driver.state, seat)
    return [present.menu_group(a, obs) for a in legal]
