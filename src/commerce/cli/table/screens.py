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
from commerce.rules import Ruleset
from commerce.text import plural, standing, times

__all__ = ["Note", "amount", "deal_line", "end_text", "plural", "scoreboard", "showdown_text",
           "standing", "times", "why_lines"]

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
        self.closing = False
        """Set once the note is closed: a second key before it is gone does nothing."""

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
        self.close(event.key)

    def on_click(self) -> None:
        """A click closes the note too."""
        self.close("click")

    def close(self, key: str) -> None:
        """Close the note with *key*, once (two quick keys close it once)."""
        if self.closing or not self.is_current:
            return
        self.closing = True
        self.dismiss(key)


def _signed(values: Sequence[float]) -> list[str]:
    return [f"{v:+g}" for v in values]


def amount(value: float, unit: str, *, signed: bool = True) -> str:
    """*value* in *unit* (a plural: stakes, tokens, counters, points), singular for one.

    >>> amount(1, "stakes"), amount(-2, "tokens"), amount(1, "points", signed=False)
    ('+1 stake', '-2 tokens', '1 point')
    """
    number = f"{value:+g}" if signed else f"{value:g}"
    return f"{number} {unit[:-1] if abs(value) == 1 and unit.endswith('s') else unit}"


def deal_line(word: str, number: int, deal: DealSummary, names: Sequence[str],
              unit: str = "stakes") -> str:
    """One deal in a line: ``Deal 2: won by Alice (pair); You -1, Alice +5, ...`` (a deal
    that names no winners, as Vingt-un's, says who dealt)."""
    if deal.winners:
        cats = {deal.categories[w] for w in deal.winners if w < len(deal.categories)}
        why = f" ({', '.join(sorted(cats))})" if cats else ""
        head = f"won by {', '.join(names[w] for w in deal.winners)}{why}"
    else:
        head = f"dealt by {names[deal.dealer]}"
    changes = ", ".join(f"{n} {amount(v, unit)}" for n, v in zip(names, deal.payoffs,
                                                                   strict=True))
    return f"{word.capitalize()} {number}: {head}; {changes}."


def why_lines(events: Sequence[Event], names: Sequence[str], rules: Ruleset | None) -> list[str]:
    """What decided each comparison of a three-card showdown among *events*: the winner's
    hand against every other hand shown, in words (points, the pair's rank, the sequence's
    top card), and in the games where the lowest hand pays (tokens, counters) why it is the
    lowest."""
    from commerce.errors import CommerceError
    from commerce.family import payoff_unit
    from commerce.hands import compare, evaluator_for

    if rules is None or rules.family not in ("trading", "widow"):
        return []
    lowest_loses = payoff_unit(rules) in ("tokens", "counters")
    out: list[str] = []
    for e in events:
        if e.kind != "showdown" or not e.get("hands") or not e.get("winners"):
            continue
        hands = e.get("hands")
        for w in e.get("winners"):
            for x, hand in enumerate(hands):
                if x == w or not hand or x in e.get("winners"):
                    continue
                try:
                    reason = compare(tuple(hands[w]), tuple(hand), rules).reason
                except CommerceError:
                    continue
                beats = "beat" if names[w] == "You" else "beats"
                loser = "you" if names[x] == "You" else names[x]
                out.append(f"{names[w]} {beats} {loser}: {reason}.")
        shown = [x for x, hand in enumerate(hands) if len(hand) == 3]
        if lowest_loses and len(shown) > 2:  # who pays: the lowest hand, and why it is
            rank = {x: evaluator_for(rules).value(tuple(hands[x])).rank for x in shown}
            low = min(rank.values())
            above = [x for x in shown if rank[x] > low]
            if above:
                nxt = min(above, key=lambda x: rank[x])
                for x in (x for x in shown if rank[x] == low):
                    who = "yours" if names[x] == "You" else f"{names[x]}'s"
                    try:
                        reason = compare(tuple(hands[nxt]), tuple(hands[x]), rules).reason
                    except CommerceError:
                        continue
                    out.append(f"The lowest hand is {who}: {reason}.")
    return out


def showdown_text(word: str, first: int, deals: Sequence[DealSummary],
                  events: Sequence[Event], starts: Sequence[int], names: Sequence[str],
                  describe: Callable[[Event], str | None], unit: str,
                  rules: Ruleset | None = None) -> Text:
    """The note at the end of one deal or more (numbered from *first*): the earlier ones in a
    line each (deals the player took no part in), the last one in full: every hand shown
    with its category, who won and what decided it, and what changed hands (*starts*: the
    index in *events* where each deal's events begin)."""
    from commerce.presentation import pack_symbols

    out = Text()
    if len(deals) > 1:
        out.append(f"Played while you had no move to make ({plural(len(deals) - 1, word)}):\n",
                   style="bold")
        for n, deal in enumerate(deals[:-1]):
            out.append(deal_line(word, first + n, deal, names, unit) + "\n")
        out.append("\n")
    last = deals[-1]
    number = first + len(deals) - 1
    out.append(f"{word.capitalize()} {number} is over.\n", style="bold")
    mine = events[starts[-1]:last.end + 1]
    lines = [(e, describe(e)) for e in mine]
    said = [(e, line) for e, line in lines if line]
    shown = max((i for i, (_, line) in enumerate(said) if "\n" in line), default=None)
    if shown is None:
        shown = max(0, len(said) - 4)
    elif shown and said[shown - 1][0].seat == last.stander and last.stander is not None:
        shown -= 1  # who stood, knocked or sold out: why the deal ended
    for _, line in said[shown:]:
        out.append(line + "\n")
    why = why_lines(mine, names, rules)
    if why:
        out.append("\nWhy: ", style="bold")
        out.append(pack_symbols(" ".join(why)) + "\n")
    won = [names[w] for w in last.winners]
    cats = sorted({last.categories[w] for w in last.winners if w < len(last.categories)})
    if won:
        out.append(f"\n{' and '.join(won)} won the {word}", style="bold")
        out.append(f" with the best hand ({', '.join(cats)}).\n" if cats else ".\n")
    else:
        out.append("\n")
    out.append(f"This {word}: " + ", ".join(
        f"{n} {amount(v, unit)}" for n, v in zip(names, last.payoffs, strict=True)) + ".\n")
    out.append("\nPress a key to go on (c: the scoreboard, q: save and leave).", style="dim")
    return out


def scoreboard(word: str, deals: Sequence[DealSummary], names: Sequence[str],
               unit: str, rules: Ruleset | None = None) -> Table:
    """Every deal so far in a row: who won it (or, where deals name no winners, as in
    Vingt-un, who dealt), what each seat won or lost (in the ruleset's *unit*), and the
    totals."""
    table = Table(title=f"The scoreboard ({unit} won or lost)", expand=False,
                  pad_edge=False, show_edge=False)
    winners = any(d.winners for d in deals) or not deals
    table.add_column(word.capitalize(), justify="right")
    table.add_column("won by" if winners else "dealer", overflow="fold", max_width=16)
    short = [n[:8] for n in names]
    for n in short:
        table.add_column(n, justify="right")
    totals = [0.0] * len(names)
    for number, deal in enumerate(deals, 1):
        for x, v in enumerate(deal.payoffs):
            totals[x] += v
        who = ", ".join(short[w] for w in deal.winners) or "nobody" if winners \
            else short[deal.dealer]
        table.add_row(str(number), who, *_signed(deal.payoffs))
    table.add_section()
    table.add_row("total", "", *_signed(totals), style="bold")
    if not deals:
        table.caption = f"No {word} is over yet."
    return table


def end_text(outcome: Outcome, names: Sequence[str], deals: Sequence[DealSummary],
             word: str, unit: str, rules: Ruleset | None = None) -> Group:
    """The end of the game: the final standing (in the ruleset's order), deals won, and what
    can be done next."""
    head = Text("The game is over", style="bold")
    head.append(f": {times(outcome.reason)}.\n\n")
    order = standing(outcome, len(names))
    winners = any(d.winners for d in deals)
    won = [sum(1 for d in deals if x in d.winners) for x in range(len(names))]
    out_in = outcome.details.get("out_in") or (None,) * len(names)
    width = max(len(n) for n in names)
    for place, x in enumerate(order, 1):
        extra = [f"{plural(won[x], word)} won"] if winners else []
        if out_in[x] is not None:
            extra.append(f"out in {word} {out_in[x]}")
        tail = f"   ({', '.join(extra)})" if extra else ""
        head.append(f"{place}. {names[x]:<{width}}  {amount(outcome.payoffs[x], unit)}{tail}\n",
                    style="bold" if place == 1 else "")
    keys = Text("\nn: play again   c: the scoreboard   q: leave   "
                "(any other key: look at the table)", style="dim")
    return Group(head, keys)
