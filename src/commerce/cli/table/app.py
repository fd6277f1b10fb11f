"""The table as a Textual application.

The screen: a line with the ruleset and where the session stands ("deal 3 of 8"); the seats
with their names, computer players' levels, stakes, tokens or points, the dealer's button
(``D``) and whose turn it is (``▶``); the middle of the table (the pool, the widow, the
stock); the player's hand in colour; a log of events in words; the menu of moves.

Keys: ``←``/``→`` choose a card of your hand (the menu then shows what can be done with
it), ``↑``/``↓`` and a verb's first letter move in the menu, ``Enter`` plays; ``:`` types a
move as in the plain interface; ``.`` changes the pace of the computer players (instant,
normal, slow); ``?`` shows the commands; ``c`` the scoreboard; ``q`` saves and leaves.

By mouse: click a card of your hand, then a move of the menu (in the widow games, your card
and then the widow's card to take for it). A deal's showdown is shown over the table until a
key; deals played while you had no move to make are summarised with it; the end of the game
shows the final standing and offers another game (``n``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Click
from textual.widgets import Footer, Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from commerce import engine
from commerce.cli.menu import humanize
from commerce.cli.table.screens import Note, end_text, scoreboard, showdown_text
from commerce.core import Action, ActionKind, DecisionKind, Event
from commerce.errors import CommerceError, RecordError
from commerce.family import DealSummary, family_spec, payoff_unit
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


KEYS = ("Keys: ←/→ or a click choose a card of your hand; ↑/↓ or a verb's first letter "
        "choose a move; Enter or a click plays it. ':' types a move (e.g. 'trade 7h'). h: the "
        "search bot's hint. c: the scoreboard. '.': the pace of the computer players. q: save "
        "and leave. ↑/↓ scroll this page; any other key closes it.")
"""The keys, as the help tells them."""


class ClickLine(Static):
    """A line with cards that can be clicked: *spans* holds ``(start, end, key)`` of the
    clickable cells, and a click on one calls *on_pick(key)*."""

    def __init__(self, *, id: str) -> None:
        super().__init__(id=id)
        self.spans: list[tuple[int, int, int]] = []
        self.on_pick: Any = None

    def on_click(self, event: Click) -> None:
        """The card under the pointer, if any, is picked."""
        for start, end, key in self.spans:
            if event.y == 0 and start <= event.x < end and self.on_pick is not None:
                self.on_pick(key)
                return


def _spans(faces: Sequence[CardFace], x: int, symbols: bool,
           base: int = 0) -> list[tuple[int, int, int]]:
    """The cells of cards drawn side by side from column *x* (as :func:`cards_text`)."""
    out = []
    for i, face in enumerate(faces):
        width = cell_len(face.text(symbols=symbols))
        out.append((x, x + width, base + i))
        x += width + 1
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
        Binding("c", "scores", "scoreboard"),
        Binding("n", "again", "play again", show=False),
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
        self._reader = spec.deal_reader
        self._unit = payoff_unit(driver.rules)
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
            yield RichLog(id="log", wrap=True, min_width=20, markup=False)
        yield OptionList(id="menu")
        yield Input(id="move", placeholder="type a move, e.g. 'trade 7h'; Enter plays")
        yield Footer()

    def on_mount(self) -> None:
        """Show what happened so far, then play on."""
        self.log_events(tuple(self.driver.events))
        self.read_deals()
        self._noted = len(self.deals)  # a resumed game: the deals before are not shown again
        self.driver.on_events = self.log_events
        self.query_one("#hand", ClickLine).on_pick = self.pick_card
        self.query_one("#middle", ClickLine).on_pick = self.take_card
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
            self.seen.append(e)
            line = self._describe(e, self.driver.names, self.human)
            if line and self._held is not None:
                self._held.append(line)
            elif line:
                log.write(Text(self.words(line)))

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
        driver = self.driver
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
                    self.set_timer(self._left(began), self._show_move)
                    return
                self._held = None
                continue
            driver.step()
            self.read_deals()
        if after_move and PACES[self.pace]:
            # the player's turn (or the end) comes a pace after the last move shown too
            self.set_timer(self._left(began), self._settle)
            return
        self._settle()

    def _left(self, began: float) -> float:
        """What is left of the pace begun at *began* (by the clock of ``time.monotonic``)."""
        return max(0.0, PACES[self.pace] - (time.monotonic() - began))

    def _show_move(self) -> None:
        """Show the computer player's move chosen meanwhile, and go on."""
        held, self._held = self._held or [], None
        log = self.query_one("#log", RichLog)
        for line in held:
            log.write(Text(self.words(line)))
        self.refresh_table()
        self._moved_at = time.monotonic()
        self.advance()

    def _settle(self) -> None:
        """The player's turn, or the end: an offer with one answer is answered for the
        player; the table, the end or the deals over are shown."""
        driver = self.driver
        if driver.outcome() is None:
            legal = engine.legal_actions(driver.state)
            if len(legal) == 1 and legal[0].kind in (ActionKind.DECLINE, ActionKind.DONE):
                self.play(legal[0])
                return
        self.refresh_table()
        if driver.outcome() is not None:
            self.show_end()
        else:
            self.show_deals()

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

    def show_deals(self, after: Any = None) -> bool:
        """The showdown of the deals over and not yet shown, over the table until a key
        (none once the player is out of the game), then *after(key)* (by default, play on);
        whether there were any."""
        if self._noted >= len(self.deals):
            return False
        first, self._noted = self._noted, len(self.deals)
        self._acted = False
        if self.view().seats[self.human].out:
            return False
        body = showdown_text(self.word, first + 1, self.deals[first:], self.seen,
                             self._starts[first:], self.driver.names,
                             lambda e: self._words_of(e), self._unit)
        self.refresh_table()
        self.push_screen(Note(body, name="showdown"), after or self._after_note)
        return True

    def _words_of(self, event: Event) -> str | None:
        line = self._describe(event, self.driver.names, self.human)
        return None if not line else self.words(line)

    def _after_note(self, key: str | None) -> None:
        if key == "q":
            self.action_leave()
        elif key == "c":
            self.push_screen(Note(self.scores(), name="scoreboard"), self._after_note)
        elif self.driver.outcome() is None:
            self.advance()

    def show_end(self) -> None:
        """The end of the game (after the last deal's showdown): the final standing; ``n``
        plays again."""
        if self.show_deals(lambda key: self.action_leave() if key == "q" else self.show_end()):
            return
        outcome = self.driver.outcome()
        if outcome is None:
            return
        self.push_screen(Note(end_text(outcome, self.driver.names, self.deals, self.word,
                                       self._unit), name="end"), self._after_end)

    def _after_end(self, key: str | None) -> None:
        if key == "n":
            self.action_again()
        elif key == "q":
            self.action_leave()
        elif key == "c":
            self.push_screen(Note(self.scores(), name="scoreboard"),
                             lambda k: self.action_leave() if k == "q" else self.show_end())

    def scores(self) -> Any:
        """The scoreboard across the deals so far."""
        return scoreboard(self.word, self.deals, self.driver.names, self._unit)

    def action_scores(self) -> None:
        """The scoreboard over the table until a key."""
        self.push_screen(Note(self.scores(), name="scoreboard"), self._after_scores)

    def _after_scores(self, key: str | None) -> None:
        if key == "q":
            self.action_leave()

    def action_again(self) -> None:
        """Another game with the same players (at the end of a game)."""
        if self.driver.outcome() is None:
            return
        self.again = True
        self.exit(0)

    def play(self, action: Action) -> None:
        """The human's move: checked, made, saved; then the others play."""
        try:
            self.driver.act(self.human, action)
        except CommerceError as exc:
            self.say(f"Not possible: {exc}")
            return
        self.selected = None
        self._acted = True
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
        spans: list[tuple[int, int, int]] = []
        for p, pile in enumerate(view.piles):
            middle.append(f"{pile.name.capitalize()}: ", style="bold")
            if pile.card_ids:
                spans += _spans(pile.cards, middle.cell_len, self.symbols, 1000 * p)
            if pile.cards:
                middle.append_text(cards_text(pile.cards, symbols=self.symbols))
                middle.append(" ")
            middle.append(f"{pile.count}   ")
        middle_line = self.query_one("#middle", ClickLine)
        middle_line.update(middle)
        middle_line.spans = spans
        hand = Text("Your hand: ", style="bold")
        self.query_one("#hand", ClickLine).spans = _spans(view.hand, hand.cell_len,
                                                          self.symbols)
        hand.append_text(cards_text(view.hand, symbols=self.symbols, selected=self.selected))
        if view.hand_note:
            hand.append(f"  {view.hand_note}")
        self.query_one("#hand", ClickLine).update(hand)
        prompt = view.prompt
        if over:
            prompt = self.result_line() + "  n: play again, c: the scoreboard, q: leave."
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

    def pick_card(self, index: int) -> None:
        """A click on a card of the hand chooses it (a second click, none)."""
        self.selected = None if self.selected == index else index
        self.refresh_table()

    def take_card(self, key: int) -> None:
        """A click on a card of a pile (the widow's): with a card of the hand chosen, the
        exchange of the one for the other."""
        view = self.view()
        pile = view.piles[key // 1000]
        taken = key % 1000
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
        self.selected = order[(order.index(self.selected) + step) % len(order)]
        self.refresh_table()

    def on_key(self, event: Any) -> None:
        """A letter moves the menu to the first move whose verb starts with it."""
        if self.query_one("#move", Input).has_focus:
            return
        key = getattr(event, "character", None)
        if not key or not key.isalpha() or key in "qhcn":
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
        from commerce.cli import presentation
        from commerce.cli.play import _phrase

        move = self.query_one("#move", Input)
        text = event.value.strip()
        move.value = ""
        move.remove_class("typing")
        self.query_one("#menu", OptionList).focus()
        if not text or self.driver.waiting_for_human() != self.human:
            return
        words = _phrase(self.driver, self.legal, text).split()
        short = presentation(self.driver.rules.family).short_words
        words[0] = short.get(words[0].lower(), words[0])
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
        body = help_body(rules.name, rules.id, ranking, humanize(prompt), explanation, KEYS)
        self.push_screen(Note(body, name="help"), self._after_scores)

    def action_hint(self) -> None:
        """The search bot's estimate of each move, from the player's observation only, over
        the table until a key (:mod:`commerce.cli.hint`)."""
        from commerce.cli.hint import hint_text
        from commerce.cli.play import _family_labels

        driver = self.driver
        if driver.waiting_for_human() != self.human:
            return
        legal = engine.legal_actions(driver.state)
        labels = _family_labels(driver, self.human, legal,
                                [engine.format_action(driver.rules, a) for a in legal])
        try:
            text = hint_text(driver, self.human, legal, [humanize(x) for x in labels],
                             width=max(40, min(self.size.width, 110) - 6))
        except CommerceError:
            text = f"Hints are not available for {driver.rules.name} yet."
        body = Text(self.words(text))
        body.append("\n\nPress a key to go on.", style="dim")
        self.push_screen(Note(body, name="hint"), self._after_scores)

    def action_leave(self) -> None:
        """Save and leave."""
        self.save()
        self.exit(0)


def _names_a_card(action: Action) -> bool:
    return bool(action.cards)

