"""The table as a Textual application.

The screen: a line with the ruleset and where the session stands ("deal 3 of 8"); the seats
with their names, computer players' levels, stakes, tokens or points, the dealer's button
(``D``) and whose turn it is (``▶``); the middle of the table (the pool, the widow, the
stock); the player's hand in colour; a log of events in words; the menu of moves.

Keys: ``←``/``→`` choose a card of your hand (the menu then shows what can be done with
it); ``↑``/``↓``, a move's number or a verb's first letter highlight a move of the menu, and
``Enter`` plays the highlighted move (nothing is highlighted until the player chooses); a
move that ends the player's part of the deal (stand, knock, pass, content) is asked about
once (``a`` there stops the asking); ``:`` types a move as in the plain interface; ``.``
changes the pace of the computer players (instant, normal, slow); ``?`` shows the commands;
``h`` the hint, the search bot's or that of the learned model of ``commerce play --hint``
(``Esc`` cancels it while it is worked out); ``c`` the scoreboard; ``PageUp``/``PageDown``
scroll the log; ``q`` and ``Ctrl-Q`` save and leave, ``Ctrl-C`` saves and leaves with status
130. The table's own keys (``q``, ``h``, ``c``, and
``n`` at the end) always mean the same: a verb that starts with one of them is reached by
its number or the arrows.

By mouse: click a card of your hand, then a move of the menu (in the widow games, your card
and then the widow's card to take for it). A deal's showdown is shown over the table until a
key; deals played while you had no move to make are summarised with it; the end of the game
shows the final standing and offers another game (``n``). A terminal smaller than 80x24 is
asked to grow.
"""

from __future__ import annotations

import re
import signal
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.cells import cell_len
from rich.console import RenderableType
from rich.table import Table as RichTable
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Click, Key, Resize
from textual.geometry import Size
from textual.timer import Timer
from textual.widgets import Footer, Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState

from commerce import engine
from commerce.cli.hint import HINT_MS
from commerce.cli.menu import family_labels, humanize, phrase_action
from commerce.cli.table.screens import (
    Note,
    end_text,
    scoreboard,
    showdown_text,
    standing,
    times,
)
from commerce.core import Action, ActionKind, DecisionKind, Event
from commerce.errors import CommerceError, RecordError

if TYPE_CHECKING:
    from commerce.bots.learned import LearnedBot
    from commerce.driver import Driver
from commerce.family import DealSummary, family_spec, payoff_unit
from commerce.presentation import CardFace, SeatView, TableView

PACES: dict[str, float] = {"instant": 0.0, "normal": 0.6, "slow": 1.5}
"""Seconds between two computer players' moves, by the name of the pace."""

MIN_SIZE = (80, 24)
"""The smallest terminal the table is drawn in (columns, rows)."""

_COLOURS = {"black": "bold", "red": "bold red"}

OFFERS = frozenset({DecisionKind.BARTER_REPLY, DecisionKind.POUNCE_OFFER,
                    DecisionKind.HORSE_OFFER, DecisionKind.BUY_OFFER})
"""Decisions that arise out of the player's own turn: they pop up when they arise."""

ENDING = frozenset({ActionKind.STAND, ActionKind.KNOCK, ActionKind.PASS, ActionKind.CONTENT})
"""Moves that end the player's part of the deal: asked about once before they are played."""

TABLE_KEYS = frozenset("qhcn")
"""Letters that are the table's own keys: never a jump to a verb of the menu."""

SIGNAL_STATUS = {signal.SIGINT: 130, signal.SIGTERM: 143,
                 **({signal.SIGHUP: 129} if hasattr(signal, "SIGHUP") else {})}
"""The exit status after each signal that stops the table (saved first)."""


def card_text(face: CardFace, *, symbols: bool, selected: bool = False) -> Text:
    """A card drawn in its colour (inverted when *selected*)."""
    style = _COLOURS.get(face.colour, f"bold {face.colour}")
    if selected:
        style += " reverse"
    return Text(f"{face.text(symbols=symbols)}", style=style)


def cards_text(faces: Sequence[CardFace], hidden: int = 0, *, symbols: bool,
               selected: int | None = None) -> Text:
    """Cards side by side, face-down ones as ``▒▒``."""
    out = Text()
    for i, face in enumerate(faces):
        if i:
            out.append(" ")
        out.append_text(card_text(face, symbols=symbols, selected=i == selected))
    for i in range(hidden):
        if faces or i:
            out.append(" ")
        out.append("▒▒", style="dim")
    return out


KEYS = ("Keys: ←/→ or a click choose a card of your hand; ↑/↓, a move's number or a verb's "
        "first letter highlight a move; Enter or a click plays it (a move that ends your part "
        "of the deal is asked about once). ':' types a move (e.g. 'trade 7h'). h: a hint, the "
        "search bot's or that of the learned model of --hint (Esc cancels it). c: the "
        "scoreboard. PageUp/PageDown: scroll the log. '.': the pace of the computer players. "
        "q or Ctrl-Q: save and leave; Ctrl-C: save and stop. ↑/↓ scroll this page; any other "
        "key closes it.")
"""The keys, as the help tells them."""

_YOU_INSIDE = re.compile(r"(?<=[a-z,] )You\b")


def you_inside(text: str) -> str:
    """"You" in the middle of a sentence written "you".

    >>> you_inside("Alice offers You a barter. You stand.")
    'Alice offers you a barter. You stand.'
    """
    return _YOU_INSIDE.sub("you", text)


class ClickLine(Static):
    """A line with cards that can be clicked: *spans* holds ``(start, end, key)`` of the
    clickable cells, and a click on one calls *on_pick(key)*."""

    def __init__(self, *, id: str) -> None:
        super().__init__(id=id)
        self.spans: list[tuple[int, int, int]] = []
        self.on_pick: Callable[[int], None] | None = None

    def on_click(self, event: Click) -> None:
        """The card under the pointer, if any, is picked."""
        for start, end, key in self.spans:
            if event.y == 0 and start <= event.x < end and self.on_pick is not None:
                self.on_pick(key)
                return


class Menu(OptionList):
    """The moves. ``Enter`` plays the highlighted one; with none highlighted it says how to
    choose one instead of playing the first."""

    def action_select(self) -> None:
        """Play the highlighted move, or say that none is."""
        if self.highlighted is None:
            app = self.app
            if self.option_count and isinstance(app, TableApp):
                app.say("Choose a move first: ↑/↓, its number, its first letter or a click; "
                        "then Enter.")
            return
        super().action_select()


class Log(RichLog):
    """The log pane: its lines are kept and wrapped anew when its width changes."""

    KEPT = 2000
    """The lines kept (the oldest go first)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.kept: list[Text] = []
        self._wrapped_at = 0

    def add(self, line: Text) -> None:
        """Write *line* and keep it."""
        self.kept.append(line)
        del self.kept[:-self.KEPT]
        self.write(line)

    def on_resize(self, event: Resize) -> None:
        """Wrap every line kept anew at the new width (scrolled to the end)."""
        width = self.scrollable_content_region.width
        if width == self._wrapped_at or not self.kept:
            self._wrapped_at = width
            return
        self._wrapped_at = width
        self.clear()
        for line in self.kept:
            self.write(line, width=width, scroll_end=False)
        self.scroll_end(animate=False)


def _spans(faces: Sequence[CardFace], x: int, symbols: bool,
           base: int = 0) -> list[tuple[int, int, int]]:
    """The cells of cards drawn side by side from column *x* (as :func:`cards_text`)."""
    out = []
    for i, face in enumerate(faces):
        width = cell_len(face.text(symbols=symbols))
        out.append((x, x + width, base + i))
        x += width + 1
    return out


def _cut(text: str, width: int) -> str:
    """*text* in at most *width* cells, cut with an ellipsis."""
    if cell_len(text) <= width:
        return text
    return text[:max(0, width - 1)] + "…" if width > 0 else ""


class TableApp(App[int]):
    """One game at the table for the human seat *human* of *driver*.

    :param path: where the record is saved after each of the player's moves (None: never).
    :param pace: one of :data:`PACES`.
    :param symbols: draw suits as symbols (else letters).
    :param confirm: ask once before a move that ends the player's part of the deal.
    :param signals: stop on SIGINT, SIGTERM and SIGHUP after saving (the real terminal).
    """

    TITLE = "Commerce"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #top { height: 1; background: $primary-background; color: $text; }
    #body { height: 1fr; }
    #left { width: 1fr; min-width: 40; }
    #seats { height: auto; text-wrap: nowrap; text-overflow: ellipsis; }
    #middle { height: auto; margin-top: 1; }
    #hand { height: auto; margin-top: 1; }
    #prompt { height: auto; color: $accent; }
    #log { width: 38%; max-width: 60; border-left: solid $primary; padding-left: 1; }
    #menu { height: 7; border: none; }
    #move { height: 1; border: none; padding: 0 1; display: none; }
    #move.typing { display: block; }
    #small { display: none; height: 1fr; content-align: center middle; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "card(-1)", "card", show=True),
        Binding("right", "card(1)", "card", show=False),
        Binding("colon", "type", "type a move"),
        Binding("full_stop", "pace", "pace"),
        Binding("question_mark", "help", "help"),
        Binding("h", "hint", "hint"),
        Binding("c", "scores", "scoreboard"),
        Binding("n", "again", "play again", show=False),
        Binding("pageup", "log(-1)", "log", show=False, priority=True),
        Binding("pagedown", "log(1)", "log", show=False, priority=True),
        Binding("q", "leave", "save and quit"),
        Binding("ctrl+q", "leave", "save and quit", show=False, priority=True),
        Binding("ctrl+c", "interrupt", "save and stop", show=False, priority=True),
    ]

    def __init__(self, driver: Driver, human: int, path: Path | None, *, pace: str = "normal",
                 symbols: bool = True, confirm: bool = True, signals: bool = False,
                 learned: LearnedBot | None = None) -> None:
        super().__init__()
        self.driver = driver
        self.human = human
        self.path = path
        self.pace = pace
        self.symbols = symbols
        self.confirm = confirm
        """Whether a move that ends the player's part of the deal is asked about once."""
        self.signals = signals
        self.hint_ms = HINT_MS
        """The wall-time cap of a hint's search, in milliseconds."""
        self.learned = learned
        """The learned model whose policy gives the hints (``--hint``); None: the search
        bot."""
        self.selected: int | None = None
        self.legal: tuple[Action, ...] = ()
        self.shown: list[int] = []
        self.save_error: str | None = None
        self.status = 0
        """The exit status: 0, or 128 + the signal that stopped the table (Ctrl-C: 130)."""
        self._offered_at = -1
        spec = family_spec(driver.rules.family)
        assert spec.presentation is not None and spec.presentation.table is not None
        self._view_of = spec.presentation.table
        self._label = spec.action_label
        self._describe = spec.describe_event
        self._symbols_in = spec.presentation.card_symbols
        self._levels = [None if a is None else a.name for a in driver.agents]
        self._reader = spec.deal_reader
        self._unit = payoff_unit(driver.rules)
        self.names = ["You" if i == human else n for i, n in enumerate(driver.names)]
        """The seats' names as the table says them: the player is "You" everywhere."""
        self.seen: list[Event] = []
        """The events the player's seat may see, from the start of the game."""
        self.deals: list[DealSummary] = []
        """The deals over so far, read from :attr:`seen`."""
        self._starts: list[int] = []
        self._read_from = 0
        self._noted = 0
        self._acted = False
        self._held: list[str] | None = None  # log lines of a move computed, not yet shown
        self._moved_at: float | None = None  # when the last computer player's move was shown
        self._digits = ""
        self._digits_at = 0.0
        self._chosen: Action | None = None
        self._timer: Timer | None = None
        self._leaving = False  # exit asked for: a pending pace timer shows nothing more
        self._size_now: Size | None = None
        self._hint: Worker[str] | None = None
        self._hint_note: Note | None = None
        self.again = False
        """Whether the player asked for another game at the end."""

    # -- layout -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        """The widgets, top to bottom."""
        yield Static(id="top")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield Static(id="seats")
                yield ClickLine(id="middle")
                yield ClickLine(id="hand")
                yield Static(id="prompt")
            yield Log(id="log", wrap=True, min_width=20, markup=False)
        yield Menu(id="menu")
        yield Input(id="move", placeholder="type a move, e.g. 'trade 7h'; Enter plays")
        yield Static(f"Make the terminal at least {MIN_SIZE[0]}x{MIN_SIZE[1]} to play "
                     f"(q saves and leaves).", id="small")
        yield Footer()

    def on_mount(self) -> None:
        """Show what happened so far, then play on."""
        self.query_one("#log", Log).can_focus = False
        if self.signals:
            import asyncio

            loop = asyncio.get_running_loop()
            for signum in SIGNAL_STATUS:
                loop.add_signal_handler(signum, self.stop_by_signal, signum)
        self.log_events(tuple(self.driver.events))
        self.read_deals()
        self._noted = len(self.deals)  # a resumed game: the deals before are not shown again
        self.driver.on_events = self.log_events
        self.query_one("#hand", ClickLine).on_pick = self.pick_card
        self.query_one("#middle", ClickLine).on_pick = self.take_card
        self.query_one("#menu", Menu).focus()
        self.fit()
        self.advance()

    def on_resize(self, event: Resize) -> None:
        """Fit the table to the terminal: the log wrapped anew, the menu as tall as there is
        room for; smaller than :data:`MIN_SIZE`, a line asking for a larger terminal."""
        self._size_now = event.size
        self.fit()
        self.refresh_table()

    @property
    def terminal(self) -> Size:
        """The terminal's size now (that of the last resize: :attr:`size` follows it late)."""
        return self._size_now if self._size_now is not None else self.size

    def too_small(self) -> bool:
        """Whether the terminal is smaller than :data:`MIN_SIZE`."""
        return self.terminal.width < MIN_SIZE[0] or self.terminal.height < MIN_SIZE[1]

    def fit(self) -> None:
        """Show the table, or the line asking for a larger terminal; wrap the log anew."""
        small = self.too_small()
        for widget in ("#body", "#menu"):
            self.query_one(widget).display = not small
        self.query_one("#small").display = small
        if small:
            self.query_one("#move", Input).remove_class("typing")

    # -- the game ---------------------------------------------------------------------------
    def view(self) -> TableView:
        """The table as the human seat may see it."""
        return self._view_of(engine.observe(self.driver.state, self.human), self.driver.names)

    def log_events(self, events: tuple[Event, ...]) -> None:
        """Events the human seat may see, in words, in the log pane."""
        for e in engine.visible_events(events, self.human):
            self.seen.append(e)
            line = self._describe(e, self.driver.names, self.human)
            if line and self._held is not None:
                self._held.append(line)
            elif line:
                self.write_log(Text(self.words(line)))

    def write_log(self, line: Text) -> None:
        """A line in the log pane (kept, to be wrapped anew when the terminal is resized);
        nothing once the app is leaving (its widgets may be gone)."""
        if not self._leaving:
            self.query_one("#log", Log).add(line)

    def advance(self) -> None:
        """Play chance and the computer players until the human acts or the game ends, at the
        chosen pace (instantly once the player is out of the game: the deals left are not
        shown move by move, the log keeps them). The end of a deal the player took part in
        stops the play until a key (:meth:`show_deals`).

        At a pace, each computer player's move is shown a pace after the one before, the
        time it took to choose inside the pause; a move the player cannot see (an offer made
        to another seat and declined unseen) is played on at once, not shown
        (:meth:`commerce.driver.Driver.step_shown`), so that the table looks and keeps time
        the same whether that offer was made or not."""
        self._timer = None
        if self.status or self._note_up():
            return  # stopping, or a note waits for its key: it plays on when closed
        driver = self.driver
        self.read_deals()
        if self.pace != "instant" and self.view().seats[self.human].out:
            self.pace = "instant"
            self.say("You are out of the game: the others play it to the end.")
        after_move = self._moved_at is not None
        began = self._moved_at if self._moved_at is not None else time.monotonic()
        self._moved_at = None
        while True:
            if self._acted and driver.outcome() is None and self.show_deals():
                return
            if driver.outcome() is not None or driver.waiting_for_human() is not None:
                break
            d = driver.decision()
            if PACES[self.pace] and d is not None and d.seat is not None:
                self._held = []
                shown = driver.step_shown(self.human)
                self.read_deals()
                if shown:
                    self._timer = self.set_timer(self._left(began), self._show_move)
                    return
                self._held = None
                continue
            driver.step()
            self.read_deals()
        if after_move and PACES[self.pace]:
            # the player's turn (or the end) comes a pace after the last move shown too
            self._timer = self.set_timer(self._left(began), self._settle)
            return
        self._settle()

    def _left(self, began: float) -> float:
        """What is left of the pace begun at *began* (by the clock of ``time.monotonic``)."""
        return max(0.0, PACES[self.pace] - (time.monotonic() - began))

    def exit(self, result: Any = None, return_code: int = 0, message: Any = None) -> None:
        """Leave the app: the computer player's move waiting for its pace is not shown (its
        timer could otherwise fire while the table's widgets are taken down)."""
        self._leaving = True
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        super().exit(result, return_code, message)

    def _show_move(self) -> None:
        """Show the computer player's move chosen meanwhile, and go on."""
        if self._leaving:
            return
        held, self._held = self._held or [], None
        for line in held:
            self.write_log(Text(self.words(line)))
        self.refresh_table()
        self._moved_at = time.monotonic()
        self.advance()

    def _settle(self) -> None:
        """The player's turn, or the end: an offer with one answer is answered for the
        player; the table, the end or the deals over are shown."""
        self._timer = None
        if self._leaving:
            return
        driver = self.driver
        only = forced(driver)
        if only is not None:
            self.make(only)  # the only answer: not asked
            return
        self.refresh_table()
        if driver.outcome() is not None:
            self.show_end()
        else:
            self.show_deals()

    def _note_up(self) -> bool:
        return isinstance(self.screen, Note)

    def read_deals(self) -> None:
        """Read the deals that ended since the last call from the events seen."""
        if self._reader is None:
            return
        base = self._read_from
        for deal in self._reader(self.driver.rules, self.driver.players, self.seen[base:]):
            self._starts.append(self._read_from)
            deal = DealSummary(deal.dealer, deal.payoffs, deal.winners, deal.categories,
                               deal.stander, base + deal.end)  # its index in self.seen
            self.deals.append(deal)
            self._read_from = deal.end + 1

    @property
    def word(self) -> str:
        """What a deal is called in this ruleset (``deal``, or ``hand`` in Cox's game)."""
        first = self.view().progress.split()
        return first[0] if first and first[0] in ("deal", "hand") else "deal"

    def note(self, body: RenderableType, name: str, after: Callable[[str | None], None]) -> None:
        """*body* over the table until a key, then *after(key)*; one note at a time."""
        if self._note_up():
            return
        self.push_screen(Note(body, name=name), after)

    def show_deals(self, after: Callable[[str | None], None] | None = None) -> bool:
        """The showdown of the deals over and not yet shown, over the table until a key
        (none once the player is out of the game), then *after(key)* (by default, play on);
        whether there were any."""
        if self._noted >= len(self.deals) or self._note_up():
            return False
        first, self._noted = self._noted, len(self.deals)
        self._acted = False
        if self.view().seats[self.human].out and self.driver.outcome() is None:
            return False
        body = showdown_text(self.word, first + 1, self.deals[first:], self.seen,
                             self._starts[first:], self.names,
                             lambda e: self._words_of(e), self._unit, self.driver.rules)
        self.refresh_table()
        self.note(body, "showdown", after or self._after_note)
        return True

    def _words_of(self, event: Event) -> str | None:
        line = self._describe(event, self.driver.names, self.human)
        return None if not line else self.words(line)

    def _after_note(self, key: str | None) -> None:
        if key == "q":
            self.action_leave()
        elif key == "c":
            self.note(self.scores(), "scoreboard", self._after_note)
        elif self.driver.outcome() is None:
            self.advance()
        else:
            self.show_end()

    def show_end(self) -> None:
        """The end of the game (after the last deal's showdown): the final standing; ``n``
        plays again."""
        if self.show_deals(lambda key: self.action_leave() if key == "q" else self.show_end()):
            return
        outcome = self.driver.outcome()
        if outcome is None or self._note_up():
            return
        self.note(end_text(outcome, self.names, self.deals, self.word, self._unit,
                           self.driver.rules), "end", self._after_end)

    def _after_end(self, key: str | None) -> None:
        if key == "n":
            self.action_again()
        elif key == "q":
            self.action_leave()
        elif key == "c":
            self.note(self.scores(), "scoreboard",
                      lambda k: self.action_leave() if k == "q" else self.show_end())

    def scores(self) -> RichTable:
        """The scoreboard across the deals so far."""
        return scoreboard(self.word, self.deals, self.names, self._unit, self.driver.rules)

    def action_scores(self) -> None:
        """The scoreboard over the table until a key."""
        self.note(self.scores(), "scoreboard", self._after_scores)

    def _after_scores(self, key: str | None) -> None:
        if key == "q":
            self.action_leave()
        else:
            self.advance()  # a deal may have ended while the note was up

    def action_again(self) -> None:
        """Another game with the same players (at the end of a game)."""
        if self.driver.outcome() is None:
            return
        self.again = True
        self.exit(0)

    def play(self, action: Action) -> None:
        """The human's move: asked about once where it ends the player's part of the deal
        (:data:`ENDING`), then made (:meth:`make`)."""
        if not self.confirm or action.kind not in ENDING or self.driver.outcome() is not None:
            self.make(action)
            return
        label = self.label_of(action)
        body = Text(f"{label[:1].upper()}{label[1:]}?", style="bold")
        body.append(" That ends your part of this deal.\n\n")
        body.append("Enter or y: yes   a: yes, and do not ask again   any other key: no",
                    style="dim")

        def answer(key: str | None) -> None:
            if key == "a":
                self.confirm = False
            if key in ("enter", "y", "a"):
                if action in engine.legal_actions(self.driver.state):
                    self.make(action)
                    return
            elif key == "q":
                self.action_leave()
                return
            self.say(f"Not played: {label}.")
            self.advance()

        self.note(body, "confirm", answer)

    def make(self, action: Action) -> None:
        """The human's move: checked, made, saved; then the others play."""
        try:
            self.driver.act(self.human, action)
        except CommerceError as exc:
            self.say(f"Not possible: {exc}")
            return
        self.selected = None
        self._chosen = None
        self._digits = ""  # a number typed next picks from the next menu, whatever the clock
        self._acted = True
        self.save()
        self.advance()

    def label_of(self, action: Action) -> str:
        """A move in words, as the menu says it."""
        obs = engine.observe(self.driver.state, self.human)
        return self.words(self._label(action, obs) if self._label else
                          engine.format_action(self.driver.rules, action))

    def save(self) -> None:
        """Save the record (a failure is said in the log and the game goes on)."""
        if self.path is None:
            return
        try:
            self.driver.record().save(self.path)
            self.save_error = None
        except RecordError as exc:
            self.save_error = str(exc)
            self.say(f"Not saved: {exc}; the game goes on.")

    def words(self, text: str) -> str:
        """A line of the family's text as the table shows it: words for identifiers, cards
        in the table's notation, and "you" inside a sentence."""
        text = times(you_inside(humanize(text)))
        if self.symbols and self._symbols_in is not None:
            text = self._symbols_in(text)
        return text

    def say(self, text: str) -> None:
        """A line for the player in the log pane."""
        self.write_log(Text(self.words(text), style="italic"))

    # -- drawing ----------------------------------------------------------------------------
    def refresh_table(self) -> None:
        """Redraw everything from the human seat's observation."""
        view = self.view()
        driver = self.driver
        over = driver.outcome() is not None
        width = max(self.terminal.width, MIN_SIZE[0])
        cols = self.terminal.width
        self.query_one("#top", Static).update(Text(_cut(header(view, over, cols), cols),
                                                   style="bold"))
        left = width - min(60, round(width * 0.38))  # the log's share, as the CSS says
        self.query_one("#seats", Static).update(self.seat_rows(view, left))
        middle = Text(no_wrap=True, overflow="ellipsis")
        spans: list[tuple[int, int, int]] = []
        for p, pile in enumerate(view.piles):
            middle.append(f"{pile.name.capitalize()}: ", style="bold")
            if pile.card_ids:
                spans += _spans(pile.cards, middle.cell_len, self.symbols, 1000 * p)
            if pile.cards:
                middle.append_text(cards_text(pile.cards, symbols=self.symbols))
                middle.append(" ")
            middle.append(f"{pile.count}   ")
        middle.rstrip()
        if middle.cell_len > left:  # the piles one a line
            middle = Text("\n").join(Text.assemble(
                (f"{pile.name.capitalize()}: ", "bold"),
                cards_text(pile.cards, symbols=self.symbols),
                f" {pile.count}" if pile.cards else pile.count) for pile in view.piles)
            spans = [(s, e, k) for s, e, k in spans if k < 1000]  # the first pile's, line 0
        middle_line = self.query_one("#middle", ClickLine)
        middle_line.update(middle)
        middle_line.spans = spans
        hand = Text("Your hand: ", style="bold")
        self.query_one("#hand", ClickLine).spans = _spans(view.hand, hand.cell_len,
                                                          self.symbols)
        hand.append_text(cards_text(view.hand, symbols=self.symbols, selected=self.selected))
        if view.hand_note:
            note = self.words(view.hand_note)
            hand.append(f"  {_cut(note, left - hand.cell_len - 2)}")
        self.query_one("#hand", ClickLine).update(hand)
        prompt = view.prompt
        if over:
            prompt = self.result_line() + "  n: play again, c: the scoreboard, q: leave."
        self.query_one("#prompt", Static).update(Text(self.words(prompt)))
        self.fill_menu(view)
        prompt_rows = 1 + cell_len(prompt) // max(1, left)
        needed = len(view.seats) + 1 + (middle.plain.count("\n") + 1) + 1 + 1 + prompt_rows
        menu = self.query_one("#menu", Menu)
        room = self.terminal.height - 2 - needed
        menu.styles.height = max(3, min(max(menu.option_count, 3), room))
        d = driver.decision()
        offer = d is not None and d.seat == self.human and d.kind in OFFERS and not forced(driver)
        if offer and len(driver.events) != self._offered_at:
            self._offered_at = len(driver.events)
            self.clear_notifications()  # one offer at a time, never stacked
            self.notify(self.words(prompt), title="Your decision", timeout=6)
        elif not offer:
            self.clear_notifications()

    def seat_rows(self, view: TableView, width: int) -> Text:
        """The seats, one row each, in *width* cells: the computer players' levels are left
        out and the notes cut where there is no room for them."""
        def name(x: int, seat: SeatView, levels: bool) -> str:
            level = self._levels[x]
            return seat.name + ("" if level is None or not levels else f" ({level})")

        def cards(seat: SeatView) -> Text:
            if seat.hidden > 4:  # a rack of Cox's game: its size
                out = cards_text(seat.cards, 1, symbols=self.symbols)
                out.append(f"×{seat.hidden}", style="dim")
                return out
            return cards_text(seat.cards, seat.hidden, symbols=self.symbols)

        faces = [cards(seat) for seat in view.seats]
        score_w = max(cell_len(seat.score) for seat in view.seats)
        notes_w = max(cell_len(seat.note) for seat in view.seats)
        cards_w = max(f.cell_len for f in faces)
        levels = True
        name_w = max(cell_len(name(x, s, True)) for x, s in enumerate(view.seats))
        fixed = 2 + 1 + 1 + 1 + score_w + 1 + (notes_w + 2 if notes_w else 0)
        if fixed + name_w + cards_w > width:
            levels = False
            name_w = max(cell_len(name(x, s, False)) for x, s in enumerate(view.seats))
        name_w = min(name_w, 19)
        rows = Text(no_wrap=True, overflow="ellipsis")
        for x, seat in enumerate(view.seats):
            if x:
                rows.append("\n")
            rows.append("▶ " if seat.to_act else "  ", style="bold yellow")
            rows.append(f"{_cut(name(x, seat, levels), name_w):<{name_w}} ",
                        style="bold" if seat.you else "")
            rows.append("D" if seat.dealer else " ", style="reverse bold" if seat.dealer else "")
            rows.append(f" {seat.score:>{score_w}} ")
            if notes_w:  # what is known of the seat this deal, before its cards: short
                rows.append(f" {seat.note:<{notes_w}} ", style="italic")
            rows.append_text(faces[x])
        return rows

    def result_line(self) -> str:
        """The final result in one line."""
        result = self.driver.outcome()
        if result is None:  # the game goes on: no result yet
            return ""
        order = standing(result, len(self.names))  # the standing's order (who went out later first)
        return "Final: " + ", ".join(f"{self.names[s]} {result.payoffs[s]:+d}" for s in order)

    def fill_menu(self, view: TableView) -> None:
        """The moves: all of them, or those with the chosen card. The move the player
        highlighted stays highlighted while it is in the menu; none is highlighted else."""
        menu = self.query_one("#menu", Menu)
        driver = self.driver
        if driver.outcome() is not None or driver.waiting_for_human() != self.human:
            if menu.option_count:
                menu.clear_options()
            self.legal, self.shown = (), []
            self._chosen = None
            return
        legal = engine.legal_actions(driver.state)
        if legal != self.legal:
            self._chosen = None
        self.legal = legal
        obs = engine.observe(driver.state, self.human)
        labels = [self.words(self._label(a, obs) if self._label else
                             engine.format_action(driver.rules, a)) for a in self.legal]
        card = None
        if self.selected is not None and self.selected < len(view.hand):
            card = view.hand[self.selected]
        self.shown = [i for i, label in enumerate(labels)
                      if card is None or not _names_a_card(self.legal[i])
                      or card.symbols in label.split() or card.letters in label.split()]
        menu.clear_options()
        menu.add_options([Option(f"{n + 1}) {labels[i]}") for n, i in enumerate(self.shown)])
        chosen = [n for n, i in enumerate(self.shown) if self.legal[i] == self._chosen]
        menu.highlighted = chosen[0] if chosen else None

    # -- keys -------------------------------------------------------------------------------
    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """The player's highlighted move is kept across redraws."""
        if event.option_index < len(self.shown):
            self._chosen = self.legal[self.shown[event.option_index]]

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter (or a click) on a move plays it."""
        if event.option_index < len(self.shown) and self.ready():
            self.play(self.legal[self.shown[event.option_index]])

    def ready(self) -> bool:
        """Whether the player may move now (their turn, the table drawn, no note up)."""
        return (not self.too_small() and not self._note_up()
                and self.driver.outcome() is None
                and self.driver.waiting_for_human() == self.human)

    def pick_card(self, index: int) -> None:
        """A click on a card of the hand chooses it (a second click, none)."""
        self.selected = None if self.selected == index else index
        self.refresh_table()

    def take_card(self, key: int) -> None:
        """A click on a card of a pile (the widow's): with a card of the hand chosen, the
        exchange of the one for the other."""
        view = self.view()
        if key // 1000 >= len(view.piles) or not self.ready():
            return
        pile = view.piles[key // 1000]
        taken = key % 1000
        if taken >= len(pile.card_ids):
            return
        if self.selected is None or self.selected >= len(view.hand_cards):
            self.say("Choose a card of your hand first, then the card to take for it.")
            return
        give = view.hand_cards[self.selected]
        for action in self.legal:
            if action.kind is ActionKind.EXCHANGE and action.cards == (give, pile.card_ids[taken]):
                self.play(action)
                return
        self.say(f"You cannot give {view.hand[self.selected].text(symbols=self.symbols)} for "
                 f"{pile.cards[taken].text(symbols=self.symbols)} now.")

    def action_card(self, step: int) -> None:
        """Choose the next (or previous) card of the hand; past the ends, none."""
        n = len(self.view().hand)
        if not n:
            return
        order: list[int | None] = [None, *range(n)]
        current = self.selected if self.selected in order else None
        self.selected = order[(order.index(current) + step) % len(order)]
        self.refresh_table()

    def action_log(self, step: int) -> None:
        """Scroll the log by a page (a note over the table: the note)."""
        from textual.containers import VerticalScroll

        target: Any = self.query_one("#log", Log)
        if self._note_up():
            target = self.screen.query_one(VerticalScroll)
        if step < 0:
            target.scroll_page_up(animate=False)
        else:
            target.scroll_page_down(animate=False)

    def on_key(self, event: Key) -> None:
        """A move's number highlights it (two digits typed quickly: 1 then 2 is the
        twelfth); a letter highlights the first move whose verb starts with it."""
        if self.query_one("#move", Input).has_focus or self._note_up():
            return
        key = event.character
        menu = self.query_one("#menu", Menu)
        if key is not None and key.isascii() and key.isdigit():
            event.stop()
            now = time.monotonic()
            digits = (self._digits if now - self._digits_at < 1.0 else "") + key
            self._digits_at = now
            if not 1 <= int(digits) <= menu.option_count:
                digits = key
            self._digits = digits
            if 1 <= int(digits) <= menu.option_count:
                menu.highlighted = int(digits) - 1
                menu.focus()
            elif menu.option_count:
                self.say(f"No move {digits}: the menu has {menu.option_count}.")
            return
        if not key or not key.isalpha() or key.lower() in TABLE_KEYS:
            return
        for n in range(menu.option_count):
            prompt = str(menu.get_option_at_index(n).prompt)
            if prompt.split(") ", 1)[-1].lower().startswith(key.lower()):
                menu.highlighted = n
                menu.focus()
                event.stop()
                return

    def action_type(self) -> None:
        """Open the line to type a move."""
        if self.too_small():
            return
        move = self.query_one("#move", Input)
        move.add_class("typing")
        move.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """A typed move, read as in the plain interface."""
        from commerce.cli import presentation

        move = self.query_one("#move", Input)
        text = event.value.strip()
        move.value = ""
        move.remove_class("typing")
        self.query_one("#menu", Menu).focus()
        if not text or not self.ready():
            return
        if text.isascii() and text.isdigit():
            n = int(text[:6])
            if 1 <= n <= len(self.shown):
                self.play(self.legal[self.shown[n - 1]])
            else:
                self.say(f"No move {text[:6]}: the menu has {len(self.shown)}.")
            return
        words = phrase_action(self.driver, self.legal, text).split()
        short = presentation(self.driver.rules.family).short_words
        words[0] = short.get(words[0].lower(), words[0])
        try:
            action = engine.parse_action(self.driver.state, " ".join(words))
            engine.check(self.driver.state, action, seat=self.human)
        except CommerceError as exc:
            self.say(f"Not understood: {exc}")
            return
        self.play(action)

    def action_pace(self) -> None:
        """Instant, normal, slow."""
        names = list(PACES)
        self.pace = names[(names.index(self.pace) + 1) % len(names)]
        self.say(f"The computer players now play at the {self.pace} pace.")

    def action_help(self) -> None:
        """The rules at hand over the table: the decision at hand explained, what beats what
        in this ruleset (each category with an example), the ruleset's page in words, and
        the keys (:mod:`commerce.cli.table.help`)."""
        from commerce.cli.table.help import help_body

        rules = self.driver.rules
        present = family_spec(rules.family).presentation
        ranking = []
        explanation = ""
        if present is not None:
            if present.rules_help is not None:
                ranking = [self.words(line) for line in present.rules_help(rules)]
            if present.explain is not None:
                explanation = present.explain(engine.observe(self.driver.state, self.human))
        prompt = self.view().prompt if self.driver.outcome() is None else ""
        body = help_body(rules.name, rules.id, ranking, self.words(prompt),
                         self.words(explanation), KEYS)
        self.note(body, "help", self._after_scores)

    def action_hint(self) -> None:
        """The search bot's estimate of each move, from the player's observation only, over
        the table until a key (:mod:`commerce.cli.hint`); or, with :attr:`learned`, that
        model's choice and how often it plays each move. It is worked out in a thread while
        a note says so; ``Esc`` (any key) there cancels it; the search stops at
        :data:`HINT_MS`."""
        driver = self.driver
        if not self.ready():
            return
        legal = engine.legal_actions(driver.state)
        labels = [humanize(x) for x in family_labels(
            driver, self.human, legal, [engine.format_action(driver.rules, a) for a in legal])]
        width = max(40, min(self.size.width, 110) - 6)
        asked = len(driver.actions)
        learned = self.learned
        body = Text("Working out a hint", style="bold")
        if learned is None:
            body.append(f" (the search bot plays each move out, for at most "
                        f"{self.hint_ms / 1000:g} s)…\n\n")
        else:
            body.append(f" (the learned player {learned.model} reads the table)…\n\n")
        body.append("Esc (or any key) cancels it.", style="dim")
        waiting = Note(body, name="hint-wait")
        self._hint_note = waiting
        self.push_screen(waiting, self._hint_cancelled)

        def work() -> str:
            from commerce.cli.hint import hint_text

            try:
                return hint_text(driver, self.human, legal, labels, width=width,
                                 ms=self.hint_ms, learned=learned)
            except CommerceError as exc:
                if learned is not None:  # the model cannot read this table: say why
                    return f"No hint: {exc}."
                return f"Hints are not available for {driver.rules.name} yet."

        self._hint = self.run_worker(work, thread=True, exclusive=True, group="hint",
                                     description=f"hint at move {asked}")

    def _hint_cancelled(self, key: str | None) -> None:
        if key is None:  # closed by the hint's arrival
            return
        self._hint_note = None
        if self._hint is not None:
            self._hint.cancel()
            self._hint = None
        self.say("The hint was cancelled.")
        if key == "q":
            self.action_leave()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The hint worked out: shown in place of the note that waited for it."""
        worker = event.worker
        if worker is not self._hint or event.state is not WorkerState.SUCCESS:
            return
        self._hint = None
        waiting, self._hint_note = self._hint_note, None
        if waiting is None or self.screen is not waiting or waiting.closing:
            return
        waiting.closing = True
        waiting.dismiss(None)
        body = Text(self.words(str(worker.result)))
        body.append("\n\nPress a key to go on.", style="dim")
        self.call_after_refresh(self.note, body, "hint", self._after_scores)

    def action_leave(self) -> None:
        """Save and leave."""
        self.save()
        self.exit(self.status)

    def action_interrupt(self) -> None:
        """Ctrl-C: save and stop with status 130 (as the signal would)."""
        self.stop_by_signal(signal.SIGINT)

    def stop_by_signal(self, signum: int) -> None:
        """Save and stop with status 128 + *signum* (Ctrl-C, SIGTERM, a hang-up)."""
        if self.status:
            return
        self.status = SIGNAL_STATUS.get(signal.Signals(signum), 128 + signum)
        if self._hint is not None:
            self._hint.cancel()
        self.save()
        self.exit(self.status)


def header(view: TableView, over: bool, width: int) -> str:
    """The top line in *width* cells: the ruleset, where the session stands, and "game over";
    where that is too long, "Commerce, " and then "game over" are left out.

    >>> from commerce.presentation import TableView
    >>> v = TableView("Commerce, the widow game", "deal 2, round 1, 4 of 4 still in", (), (),
    ...               (), ())
    >>> header(v, True, 80)
    ' Commerce, the widow game · deal 2, round 1, 4 of 4 still in · game over'
    >>> header(v, True, 66)
    ' the widow game · deal 2, round 1, 4 of 4 still in · game over'
    """
    title = view.title
    end = " · game over" if over else ""
    line = f" {title} · {view.progress}{end}"
    if cell_len(line) > width and title.startswith("Commerce, "):
        title = title[len("Commerce, "):]
        line = f" {title} · {view.progress}{end}"
    if cell_len(line) > width:
        line = f" {title} · {view.progress}"
    return line


def forced(driver: Driver) -> Action | None:
    """The player's one legal move where it is only a "decline" or "done" (an offer the
    player cannot take, the end of a turn): made without asking or showing the offer."""
    if driver.outcome() is not None or driver.waiting_for_human() is None:
        return None
    legal = engine.legal_actions(driver.state)
    if len(legal) == 1 and legal[0].kind in (ActionKind.DECLINE, ActionKind.DONE):
        return legal[0]
    return None


def _names_a_card(action: Action) -> bool:
    return bool(action.cards)
