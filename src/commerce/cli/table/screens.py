"""Screens over the table: a deal's showdown, the scoreboard, the end of the game, the rules.

Each is a note over the table that waits for a key: the key closes it and is handed to the
table (``q`` leaves, ``n`` plays again at the end); ``↑``/``↓`` and the page keys scroll a long
note instead. What the notes say is built from the events the player's seat may see, read
deal by deal by the family's ``deal_reader`` hook (:class:`commerce.family.DealSummary`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Static

from commerce.core import Event, Outcome
from commerce.family import DealSummary

__all__ = ["Note", "deal_line", "end_text", "scoreboard", "showdown_text"]

_SCROLL = frozenset({"up", "down", "pageup", "pagedown", "home", "end"})


class Note(ModalScreen[str]):
    """*body* over the table until a key, which the screen returns (see the module)."""

    DEFAULT_CSS = """
    Note { align: center middle; }
    Note > VerticalScroll {
        width: 100%; max-width: 110; height: auto; max-height: 100%;
        border: round $accent; background: $panel; padding: 0 1;
    }
    """

    def __init__(self, body: RenderableType, *, name: str | None = None) -> None:
        super().__init__(name=name)
        self.body = body

    def compose(self) -> ComposeResult:
        """The body in a scrolling frame."""
        with VerticalScroll():
            yield Static(self.body, id="note")

    def on_key(self, event: Key) -> None:
        """Any key but the scrolling ones closes the note."""
        if event.key in _SCROLL:
            return
        event.stop()
        event.prevent_default()
        self.dismiss(event.key)

    def on_click(self) -> None:
        """A click closes the note too."""
        self.dismiss("click")


def _signed(values: Sequence[float]) -> list[str]:
    return [f"{v:+g}" for v in values]


def deal_line(word: str, number: int, deal: DealSummary, names: Sequence[str]) -> str:
    """One deal in a line: ``Deal 2: won by Alice (pair); You -1, Alice +5, ...``."""
    won = ", ".join(names[w] for w in deal.winners) or "nobody"
    cats = {deal.categories[w] for w in deal.winners if w < len(deal.categories)}
    why = f" ({', '.join(sorted(cats))})" if cats else ""
    changes = ", ".join(f"{n} {v}" for n, v in zip(names, _signed(deal.payoffs), strict=True))
    return f"{word.capitalize()} {number}: won by {won}{why}; {changes}."


def showdown_text(word: str, first: int, deals: Sequence[DealSummary],
                  events: Sequence[Event], starts: Sequence[int], names: Sequence[str],
                  describe: Callable[[Event], str | None], unit: str) -> Text:
    """The note at the end of one deal or more (numbered from *first*): the earlier ones in a
    line each (deals the player took no part in), the last one in full: every hand shown
    with its category, who won and why, and what changed hands (*starts*: the index in
    *events* where each deal's events begin)."""
    out = Text()
    if len(deals) > 1:
        out.append(f"Played while you had no move to make ({len(deals) - 1} "
                   f"{word}{'s' if len(deals) > 2 else ''}):\n", style="bold")
        for n, deal in enumerate(deals[:-1]):
            out.append(deal_line(word, first + n, deal, names) + "\n")
        out.append("\n")
    last = deals[-1]
    number = first + len(deals) - 1
    out.append(f"{word.capitalize()} {number} is over.\n", style="bold")
    lines = [(e, describe(e)) for e in events[starts[-1]:last.end + 1]]
    said = [(e, line) for e, line in lines if line]
    shown = max((i for i, (_, line) in enumerate(said) if "\n" in line), default=None)
    if shown is None:
        shown = max(0, len(said) - 4)
    elif shown and said[shown - 1][0].seat == last.stander and last.stander is not None:
        shown -= 1  # who stood, knocked or sold out: why the deal ended
    for _, line in said[shown:]:
        out.append(line + "\n")
    won = [names[w] for w in last.winners]
    cats = sorted({last.categories[w] for w in last.winners if w < len(last.categories)})
    if won:
        out.append(f"\n{' and '.join(won)} won the {word}", style="bold")
        out.append(f" with the best hand ({', '.join(cats)}).\n" if cats else ".\n")
    out.append(f"This {word} in {unit}: " + ", ".join(
        f"{n} {v}" for n, v in zip(names, _signed(last.payoffs), strict=True)) + ".\n")
    out.append("\nPress a key to go on (c: the scoreboard, q: save and leave).", style="dim")
    return out


def scoreboard(word: str, deals: Sequence[DealSummary], names: Sequence[str],
               unit: str) -> Table:
    """Every deal so far in a row: its dealer, who won, what each seat won or lost (in the
    ruleset's *unit*), and the totals."""
    table = Table(title=f"The scoreboard ({unit} won or lost)", expand=False,
                  pad_edge=False, show_edge=False)
    table.add_column(word.capitalize(), justify="right")
    table.add_column("won by", overflow="fold", max_width=16)
    short = [n[:8] for n in names]
    for n in short:
        table.add_column(n, justify="right")
    totals = [0.0] * len(names)
    for number, deal in enumerate(deals, 1):
        for x, v in enumerate(deal.payoffs):
            totals[x] += v
        table.add_row(str(number), ", ".join(short[w] for w in deal.winners) or "-",
                      *_signed(deal.payoffs))
    table.add_section()
    table.add_row("total", "", *_signed(totals), style="bold")
    if not deals:
        table.caption = f"No {word} is over yet."
    return table


def end_text(outcome: Outcome, names: Sequence[str], deals: Sequence[DealSummary],
             word: str, unit: str) -> Group:
    """The end of the game: the final standing, deals won, and what can be done next."""
    head = Text("The game is over", style="bold")
    head.append(f": {outcome.reason}.\n\n")
    order = sorted(range(len(names)), key=lambda s: -outcome.payoffs[s])
    won = [sum(1 for d in deals if x in d.winners) for x in range(len(names))]
    for place, x in enumerate(order, 1):
        head.append(f"{place}. {names[x]:<12} {outcome.payoffs[x]:+d} {unit}"
                    f"   ({won[x]} {word}{'s' if won[x] != 1 else ''} won)\n",
                    style="bold" if place == 1 else "")
    keys = Text("\nn: play again   c: the scoreboard   q: leave   "
                "(any other key: look at the table)", style="dim")
    return Group(head, keys)
