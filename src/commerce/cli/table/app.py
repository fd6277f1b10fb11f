"""The table as a Textual application.

The screen: a line with the ruleset and where the session stands ("deal 3 of 8"); the seats
with their names, computer players' levels, stakes, tokens or points, the dealer's button
(``D``) and whose turn it is (``▶``); the middle of the table (the pool, the widow, the
stock); the player's hand in colour; a log of events in words; the menu of moves.

Keys: ``←``/``→`` choose a card of your hand (the menu then shows what can be done with
it), ``↑``/``↓`` and a verb's first letter move in the menu, ``Enter`` plays; ``:`` types a
move as in the plain interface; ``.`` changes the pace of the computer players (instant,
normal, slow); ``?`` shows the commands; ``q`` saves and leaves.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from commerce import engine
from commerce.cli.menu import humanize
from commerce.core import Action, ActionKind, DecisionKind, Event
from commerce.errors import CommerceError, RecordError
from commerce.family import family_spec
from commerce.presentation import CardFace, TableView

PACES: dict[str, float] = {"instant": 0.0, "normal": 0.6, "slow": 1.5}
"""Seconds between two computer players' moves, by the name of the pace."""

_COLOURS = {"black": "bold", "red": "bold red"}

OFFERS = frozenset({DecisionKind.BARTER_REPLY, DecisionKind.POUNCE_OFFER,
                    DecisionKind.HORSE_OFFER, DecisionKind.BUY_OFFER})
"""Decisions that arise out of the player's own turn: they pop up when they arise."""


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


class TableApp(App[int]):
    """One game at the table for the human seat *human* of *driver*.

    :param path: where the record is saved after each of the player's moves (None: never).
    :param pace: one of :data:`PACES`.
    :param symbols: draw suits as symbols (else letters).
    """

    TITLE = "Commerce"
    CSS = """
    Screen { layout: vertical; }
    #top { height: 1; background: $primary-background; color: $text; }
    #body { height: 1fr; }
    #left { width: 1fr; min-width: 40; }
    #seats { height: auto; }
    #middle { height: auto; margin-top: 1; }
    #hand { height: auto; margin-top: 1; }
    #prompt { height: auto; color: $accent; }
    #log { width: 38%; border-left: solid $primary; padding-left: 1; }
    #menu { height: 7; border: none; }
    #move { height: 1; border: none; padding: 0 1; display: none; }
    #move.typing { display: block; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "card(-1)", "card", show=True),
        Binding("right", "card(1)", "card", show=False),
        Binding("colon", "type", "type a move"),
        Binding("full_stop", "pace", "pace"),
        Binding("question_mark", "help", "help"),
        Binding("h", "hint", "hint"),
        Binding("q", "leave", "save and quit"),
    ]

    def __init__(self, driver: Any, human: int, path: Path | None, *, pace: str = "normal",
                 symbols: bool = True) -> None:
        super().__init__()
        self.driver = driver
        self.human = human
        self.path = path
        self.pace = pace
        self.symbols = symbols
        self.selected: int | None = None
        self.legal: tuple[Action, ...] = ()
        self.shown: list[int] = []
        self.save_error: str | None = None
        self._offered_at = -1
        spec = family_spec(driver.rules.family)
        assert spec.presentation is not None and spec.presentation.table is not None
        self._view_of = spec.presentation.table
        self._label = spec.action_label
        self._describe = spec.describe_event
        self._symbols_in = spec.presentation.card_symbols
        self._levels = [None if a is None else a.name for a in driver.agents]

    # -- layout -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        """The widgets, top to bottom."""
        yield Static(id="top")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield Static(id="seats")
                yield Static(id="middle")
                yield Static(id="hand")
                yield Static(id="prompt")
            yield RichLog(id="log", wrap=True, min_width=20, markup=False)
        yield OptionList(id="menu")
        yield Input(id="move", placeholder="type a move, e.g. 'trade 7h'; Enter plays")
        yield Footer()

    def on_mount(self) -> None:
        """Show what happened so far, then play on."""
        self.log_events(tuple(self.driver.events))
        self.driver.on_events = self.log_events
        self.query_one("#menu", OptionList).focus()
        self.advance()

    # -- the game ---------------------------------------------------------------------------
    def view(self) -> TableView:
        """The table as the human seat may see it."""
        return self._view_of(engine.observe(self.driver.state, self.human), self.driver.names)

    def log_events(self, events: tuple[Event, ...]) -> None:
        """Events the human seat may see, in words, in the log pane."""
        log = self.query_one("#log", RichLog)
        for e in engine.visible_events(events, self.human):
            line = self._describe(e, self.driver.names, self.human)
            if line:
                log.write(Text(self.words(line)))

    def advance(self) -> None:
        """Play chance and the computer players until the human acts or the game ends, at the
        chosen pace (instantly once the player is out of the game: the deals left are not
        shown move by move, the log keeps them)."""
        driver = self.driver
        if self.pace != "instant" and self.view().seats[self.human].out:
            self.pace = "instant"
            self.say("You are out of the game: the others play it to the end.")
        while driver.outcome() is None and driver.waiting_for_human() is None:
            d = driver.decision()
            driver.step()
            if PACES[self.pace] and d is not None and d.seat is not None:
                self.refresh_table()
                self.set_timer(PACES[self.pace], self.advance)
                return
        if driver.outcome() is None:
            legal = engine.legal_actions(driver.state)
            if len(legal) == 1 and legal[0].kind in (ActionKind.DECLINE, ActionKind.DONE):
                self.play(legal[0])
                return
        self.refresh_table()

    def play(self, action: Action) -> None:
        """The human's move: checked, made, saved; then the others play."""
        try:
            self.driver.act(self.human, action)
        except CommerceError as exc:
            self.say(f"Not possible: {exc}")
            return
        self.selected = None
        self.save()
        self.advance()

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
        """A line of the family's text as the table shows it: words for identifiers, and
        cards in the table's notation."""
        text = humanize(text)
        if self.symbols and self._symbols_in is not None:
            text = self._symbols_in(text)
        return text

    def say(self, text: str) -> None:
        """A line for the player in the log pane."""
        self.query_one("#log", RichLog).write(Text(self.words(text), style="italic"))

    # -- drawing ----------------------------------------------------------------------------
    def refresh_table(self) -> None:
        """Redraw everything from the human seat's observation."""
        view = self.view()
        driver = self.driver
        over = driver.outcome() is not None
        top = f" {view.title} · {view.progress}"
        if over:
            top += " · game over"
        self.query_one("#top", Static).update(Text(top, style="bold"))
        seats = Text()
        for x, seat in enumerate(view.seats):
            mark = "▶ " if seat.to_act else "  "
            level = self._levels[x]
            name = seat.name + ("" if level is None else f" ({level})")
            seats.append(mark, style="bold yellow")
            seats.append(f"{name[:19]:<19}", style="bold" if seat.you else "")
            seats.append("D" if seat.dealer else " ", style="reverse bold")
            seats.append(f" {seat.score:<10} ")
            if seat.hidden > 4:  # a rack of Cox's game: its size
                seats.append_text(cards_text(seat.cards, 1, symbols=self.symbols))
                seats.append(f"×{seat.hidden}", style="dim")
            else:
                seats.append_text(cards_text(seat.cards, seat.hidden, symbols=self.symbols))
            if seat.note:
                seats.append(f"  {seat.note}", style="italic")
            seats.append("\n")
        self.query_one("#seats", Static).update(seats)
        middle = Text()
        for pile in view.piles:
            middle.append(f"{pile.name.capitalize()}: ", style="bold")
            if pile.cards:
                middle.append_text(cards_text(pile.cards, symbols=self.symbols))
                middle.append(" ")
            middle.append(f"{pile.count}   ")
        self.query_one("#middle", Static).update(middle)
        hand = Text("Your hand: ", style="bold")
        hand.append_text(cards_text(view.hand, symbols=self.symbols, selected=self.selected))
        if view.hand_note:
            hand.append(f"  {view.hand_note}")
        self.query_one("#hand", Static).update(hand)
        prompt = view.prompt
        if over:
            prompt = self.result_line() + "  Press q to leave."
        self.query_one("#prompt", Static).update(Text(humanize(prompt)))
        self.fill_menu(view)
        d = driver.decision()
        offer = d is not None and d.seat == self.human and d.kind in OFFERS
        if offer and len(driver.events) != self._offered_at:
            self._offered_at = len(driver.events)
            self.notify(self.words(prompt), title="Your decision", timeout=6)

    def result_line(self) -> str:
        """The final result in one line."""
        result = self.driver.outcome()
        names = self.driver.names
        order = sorted(range(len(names)), key=lambda s: -result.payoffs[s])
        return "Final: " + ", ".join(
            f"{'You' if s == self.human else names[s]} {result.payoffs[s]:+d}" for s in order)

    def fill_menu(self, view: TableView) -> None:
        """The moves: all of them, or those with the chosen card."""
        menu = self.query_one("#menu", OptionList)
        menu.clear_options()
        driver = self.driver
        if driver.outcome() is not None or driver.waiting_for_human() != self.human:
            self.legal, self.shown = (), []
            return
        self.legal = engine.legal_actions(driver.state)
        obs = engine.observe(driver.state, self.human)
        labels = [humanize(self._label(a, obs) if self._label else
                           engine.format_action(driver.rules, a)) for a in self.legal]
        card = None
        if self.selected is not None and self.selected < len(view.hand):
            card = view.hand[self.selected]
        self.shown = [i for i, label in enumerate(labels)
                      if card is None or not _names_a_card(self.legal[i])
                      or card.symbols in label.split() or card.letters in label.split()]
        menu.add_options([Option(f"{n + 1}) {labels[i]}") for n, i in enumerate(self.shown)])
        if self.shown:
            menu.highlighted = 0

    # -- keys -------------------------------------------------------------------------------
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on a move plays it."""
        if event.option_index < len(self.shown):
            self.play(self.legal[self.shown[event.option_index]])

    def action_card(self, step: int) -> None:
        """Choose the next (or previous) card of the hand; past the ends, none."""
        n = len(self.view().hand)
        if not n:
            return
        order: list[int | None] = [None, *range(n)]
        self.selected = order[(order.index(self.selected) + step) % len(order)]
        self.refresh_table()

    def on_key(self, event: Any) -> None:
        """A letter moves the menu to the first move whose verb starts with it."""
        if self.query_one("#move", Input).has_focus:
            return
        key = getattr(event, "character", None)
        if not key or not key.isalpha() or key in "qh":
            return
        menu = self.query_one("#menu", OptionList)
        for n in range(menu.option_count):
            prompt = str(menu.get_option_at_index(n).prompt)
            if prompt.split(") ", 1)[-1].lower().startswith(key.lower()):
                menu.highlighted = n
                event.stop()
                return

    def action_type(self) -> None:
        """Open the line to type a move."""
        move = self.query_one("#move", Input)
        move.add_class("typing")
        move.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """A typed move, read as in the plain interface."""
        from commerce.cli.play import _SHORT, _phrase

        move = self.query_one("#move", Input)
        text = event.value.strip()
        move.value = ""
        move.remove_class("typing")
        self.query_one("#menu", OptionList).focus()
        if not text or self.driver.waiting_for_human() != self.human:
            return
        words = _phrase(self.driver, self.legal, text).split()
        words[0] = _SHORT[self.driver.rules.family].get(words[0].lower(), words[0])
        if text.isdigit() and 1 <= int(text[:6]) <= len(self.legal):
            self.play(self.legal[int(text[:6]) - 1])
            return
        try:
            action = engine.parse_action(self.driver.state, " ".join(words))
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
        """The keys, what beats what in this ruleset, and the decision at hand, in the log."""
        self.say("←/→ choose a card of your hand; ↑/↓ or a verb's first letter choose a "
                 "move; Enter plays it. ':' types a move (e.g. 'trade 7h'). h: the search "
                 "bot's hint. '.' changes the pace of the computer players. q saves and "
                 "leaves.")
        present = family_spec(self.driver.rules.family).presentation
        if present is not None and present.rules_help is not None:
            self.say("Hands, best first: " + "; ".join(present.rules_help(self.driver.rules))
                     + ".")
        prompt = self.view().prompt
        if prompt:
            self.say(prompt)

    def action_hint(self) -> None:
        """The search bot's estimate of each move, from the player's observation only."""
        from commerce.cli.play import _family_labels, _hint

        driver = self.driver
        if driver.waiting_for_human() != self.human:
            return
        legal = engine.legal_actions(driver.state)
        labels = _family_labels(driver, self.human, legal,
                                [engine.format_action(driver.rules, a) for a in legal])
        try:
            text = _hint(driver, self.human, legal, labels)
        except CommerceError:
            text = f"Hints are not available for {driver.rules.name} yet."
        log = self.query_one("#log", RichLog)
        for line in text.splitlines():
            log.write(Text(self.words(line.strip())))

    def action_leave(self) -> None:
        """Save and leave."""
        self.save()
        self.exit(0)


def _names_a_card(action: Action) -> bool:
    return bool(action.cards)

