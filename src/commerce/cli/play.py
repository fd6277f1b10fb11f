"""``commerce play`` and ``commerce replay``: the game in the terminal.

The user sits in seat 0 against computer players. The record is saved after every action the
user makes and when the game ends, quits, is interrupted (Ctrl-C), stopped (SIGTERM) or the
terminal closes (SIGHUP), so ``--resume FILE`` always continues where it stopped. A signal is
acted on between two moves, never in the middle of one.

A game in progress shows nothing its player may not know: no seed (it predicts every card) in
the banner or the file's name, and ``commerce replay`` of an unfinished game shows only what the
saving player saw, unless asked for ``--reveal``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from commerce.cli import (
    BOTS_HELP,
    EXIT_USAGE,
    PLAYERS,
    SEED,
    add_rules_arguments,
    file_name,
    presentation,
    resolve_rules,
    span,
)
from commerce.cli.lines import Closed, Stop, line_reader

if TYPE_CHECKING:
    from commerce.bots.learned import LearnedBot
    from commerce.core import Action, Event
    from commerce.driver import Driver
    from commerce.record import GameRecord

_COMMON_HELP = """  hint                      the search bot's choice and how it rates each move
                            (--hint learned:model=NAME: a learned model's choice
                            and how often it plays each move)
  help | ?                  this help;   quit | q   save and stop
Or type the number of an action in the list."""



SEED_MAX = 2**63 - 1
"""The largest ``--seed``."""
NAME_MAX = 40
"""The longest ``--name``, in characters."""


def _seed(text: str) -> int:
    """``--seed``: a whole number from 0 to :data:`SEED_MAX`."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 19 or int(digits) > SEED_MAX:
        raise argparse.ArgumentTypeError(f"must be a whole number from 0 to {SEED_MAX}")
    return int(digits)


def _players(text: str) -> int:
    """``--players``: a whole number (the ruleset's range is checked once it is known)."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 3:
        raise argparse.ArgumentTypeError("must be a whole number of seats, e.g. 4")
    return int(digits)


def configure_play(p: argparse.ArgumentParser) -> None:
    """Arguments of ``commerce play``."""
    add_rules_arguments(p)
    p.add_argument("--players", type=_players, default=None,
                   help=f"seats at the table, {span(PLAYERS)} within the ruleset's range "
                        "(default 4)")
    p.add_argument("--bot", default="heuristic",
                   help="computer players: random, heuristic, or a comma list (default "
                        "heuristic); " + BOTS_HELP)
    from commerce.cli.agents import add_agent_argument

    add_agent_argument(p)  # the agents take the first computer seats
    p.add_argument("--seed", type=_seed, default=None,
                   help=f"make the whole session reproducible, {span(SEED)} (default: an "
                        "unpredictable seed, shown when the game is over)")
    p.add_argument("--name", default="Player",
                   help=f"your name at the table, 1 to {NAME_MAX} printable characters "
                        f"(default Player)")
    p.add_argument("--save", metavar="FILE", type=file_name, default=None,
                   help="where to save the record (default games/<rules>-<time>.json)")
    p.add_argument("--resume", metavar="FILE", type=file_name, default=None,
                   help="continue a saved game")
    p.add_argument("--pace", choices=("instant", "normal", "slow"), default="normal",
                   help="how fast the computer players' moves are shown at the full-screen "
                        "table (default normal)")
    p.add_argument("--hint", default="search", metavar="BOT",
                   help="who gives the hints (the plain interface's hint command, the "
                        "table's h key): search, the search bot's estimates (default), or "
                        "learned:model=NAME, a trained model's choice and how often it plays "
                        "each move (a model of the ruleset and seats played, from "
                        "$COMMERCE_MODELS)")
    p.add_argument("--plain", action="store_true",
                   help="the line interface (for screen readers and scripts; also whenever "
                        "standard input or output is not a terminal)")


def configure_replay(p: argparse.ArgumentParser) -> None:
    """Arguments of ``commerce replay``."""
    p.add_argument("file", metavar="FILE", type=file_name, help="a saved game record")
    p.add_argument("--all", action="store_true",
                   help="print the whole game at once instead of stepping with Enter")
    p.add_argument("--reveal", action="store_true",
                   help="show every hand of an unfinished game: spoils it for the player who "
                        "saved it (a finished game always shows every hand)")


def run_play(args: argparse.Namespace) -> int:
    """Play a game in the terminal."""
    from commerce.bots import make_bot
    from commerce.driver import Driver
    from commerce.errors import CommerceError
    from commerce.record import GameRecord, check_save_path

    outside: list[str] = []
    if args.agent:
        from commerce.cli.agents import register_agents

        outside = register_agents(args)
    if args.resume:
        if os.path.lexists(args.resume):
            check_save_path(args.resume)  # a device or a pipe is neither read nor replaced
        record = GameRecord.load(args.resume)
        if record.complete:
            raise CommerceError(f"{args.resume}: that game is over; see it with "
                                f"'commerce replay {args.resume}'")
        humans = [i for i, s in enumerate(record.seats) if s.agent == "human"]
        if len(humans) != 1:
            raise CommerceError(f"{args.resume}: expected one human seat, found {len(humans)}")
        agents = [None if s.agent == "human" else make_bot(s.agent) for s in record.seats]
        driver = Driver.resume(record, agents)
        human = humans[0]
        path = Path(args.resume)
    else:
        name = args.name.strip()
        if not name or len(name) > NAME_MAX or not name.isprintable():
            raise CommerceError(f"--name: use 1 to {NAME_MAX} printable characters")
        rules = resolve_rules(args)
        players = args.players if args.players is not None else max(
            min(4, rules.max_players), rules.min_players)
        if players not in rules.player_range():
            raise CommerceError(f"{rules.name} is for {rules.players_phrase()}, not {players}")
        specs = [b.strip() for b in args.bot.split(",") if b.strip()] or ["heuristic"]
        bots = [make_bot(specs[i % len(specs)]) for i in range(players - 1)]
        bots[:len(outside)] = [make_bot(a) for a in outside[:players - 1]]
        names = [name, *(_bot_name(i, b.name) for i, b in enumerate(bots, 1))]
        # no --seed: the driver draws one from `secrets`; it never appears before the end
        driver = Driver(rules, [None, *bots], seed=args.seed, names=names)
        human = 0
        if args.save is not None:
            check_save_path(args.save)  # as typed: 'name/' is a directory
        path = Path(args.save) if args.save is not None else _default_path(rules.id)
    from commerce.cli.hint import hinter

    learned = hinter(getattr(args, "hint", "search"), driver.rules.id, driver.players)
    if not getattr(args, "plain", False) and sys.stdin.isatty() and sys.stdout.isatty():
        return _table_session(driver, human, path, getattr(args, "pace", "normal"), learned)
    return _session(driver, human, path, learned)


def _table_session(driver: Driver, human: int, path: Path, pace: str,
                   learned: LearnedBot | None = None) -> int:
    """The game at the full-screen table (:mod:`commerce.cli.table`).

    The table is drawn on the terminal of standard output whatever standard error is (Textual
    draws on standard error: a file there is set aside while the table is up). Ctrl-C,
    SIGTERM and SIGHUP save and stop with 130, 143 and 129, the terminal restored. The
    ``h`` key's hints come from *learned* (a learned model, :func:`commerce.cli.hint.hinter`)
    where given, else from the search bot."""
    from commerce.cli.table import TableApp
    from commerce.errors import RecordError

    driver.record().save(path)  # a file that cannot be saved is refused before the game starts
    symbols = "♠".encode(sys.stdout.encoding or "ascii", "replace") != b"?"
    app = TableApp(driver, human, path, pace=pace, symbols=symbols, signals=True,
                   learned=learned)
    gone = False
    try:
        with _drawing_on_the_terminal():
            app.run()
    except OSError:  # the terminal went away (a hang-up) while the table was drawn
        gone = True
    finally:
        driver.on_events = None
        try:
            driver.record().save(path)
        except RecordError as exc:
            if not gone:
                print(f"commerce play: error: {exc}", file=sys.stderr)
            return EXIT_USAGE
    if app.status or gone:
        return _stopped(driver, path, app.status or 128 + signal.SIGHUP,
                        lambda: f"Saved to {path}. Continue with: commerce play --resume {path}")
    if app.return_code:  # the table failed (Textual has shown why): the game is saved
        print(f"commerce play: the table failed. Saved to {path}. Continue with: "
              f"commerce play --resume {path}", file=sys.stderr)
        return 1
    if driver.outcome() is None:
        print(f"Saved to {path}. Continue with: commerce play --resume {path}")
        return 0
    print(app.result_line())
    print(f"The seed was {driver.seed}: 'commerce play --seed {driver.seed}' with the same "
          f"rules and players deals the same hands.")
    print(f"Record saved to {path}")
    if app.again:  # "play again" at the end: the same rules and players, new cards
        from commerce.driver import Driver

        again = Driver(driver.rules, driver.agents, names=driver.names)
        return _table_session(again, human, _default_path(driver.rules.id), pace, learned)
    return 0


@contextlib.contextmanager
def _drawing_on_the_terminal() -> Iterator[None]:
    """Standard error pointed at standard output's terminal while the table is drawn, where
    it is not a terminal itself (``commerce play 2>file``): Textual draws on standard
    error."""
    try:
        err_is_tty = os.isatty(2)
    except OSError:  # pragma: no cover
        err_is_tty = False
    if err_is_tty or not os.isatty(1):
        yield
        return
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        os.dup2(1, 2)
        yield
    finally:
        with contextlib.suppress(OSError):
            sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)


def _default_path(rules_id: str) -> Path:
    """``games/<rules>-<date>-<time>.json``, numbered if taken; nothing in it comes from the
    seed."""
    stem = Path("games") / f"{rules_id}-{time.strftime('%Y%m%d-%H%M%S')}"
    path = stem.with_name(stem.name + ".json")
    n = 2
    while path.exists():
        path = stem.with_name(f"{stem.name}-{n}.json")
        n += 1
    return path


def _bot_name(i: int, kind: str) -> str:
    return ["Alice", "Bob", "Carol", "Dan", "Eve", "Frank", "Grace", "Hal", "Ivy", "Jack",
            "Kate"][(i - 1) % 11]


def _session(driver: Driver, human: int, path: Path, learned: LearnedBot | None = None) -> int:
    """The game at the plain interface, line by line; the ``hint`` command's hints come from
    *learned* (a learned model) where given, else from the search bot."""
    from commerce import engine
    from commerce.cli.textview import describe_event, render
    from commerce.errors import RecordError

    names = driver.names
    family = driver.rules.family
    stop = Stop()
    cards = _card_notation(family)
    out = _OutOfGame(names, human)

    def show(events: tuple[Event, ...]) -> None:
        for e in engine.visible_events(events, human):
            if out.follows(e):
                continue
            line = describe_event(e, names, human, family)
            if line:
                _say(cards(line))
        stop.check()  # the driver calls this once a move is complete

    def save() -> None:
        """Save, or say why not and go on: the next save catches up."""
        try:
            driver.record().save(path)
        except RecordError as exc:
            print(f"commerce play: warning: {exc}; the game goes on", file=sys.stderr)

    def resume_line() -> str:
        return f"Saved to {path}. Continue with: commerce play --resume {path}"

    driver.record().save(path)  # a file that cannot be saved is refused before the game starts
    read = line_reader(family, stop)

    print(f"Commerce: {driver.rules.name}, {driver.players} players. Type ? for help.")
    print("Computer players: " + ", ".join(
        f"{names[i]} ({a.name})" for i, a in enumerate(driver.agents) if a is not None))
    with stop.installed():
        try:
            show(tuple(driver.events))
            driver.on_events = show
            while True:
                driver.run()
                result = driver.outcome()
                if result is not None:
                    break
                seat = driver.waiting_for_human()
                assert seat == human
                forced = _forced(driver)
                if forced is not None:
                    driver.act(human, forced)
                    continue
                print()
                _say(cards(render(engine.observe(driver.state, human), names)))
                action = _ask(driver, human, stop.waiting, read, learned)
                if action is None:
                    driver.record().save(path)
                    print(resume_line())
                    return 0
                driver.act(human, action)
                save()
        except (Closed, EOFError) as exc:
            driver.on_events = None
            status = 128 + exc.signum if isinstance(exc, Closed) else 0
            return _stopped(driver, path, status, resume_line)
        except OSError as exc:  # the terminal is unreadable or unwritable (gone)
            driver.on_events = None
            return _stopped(driver, path, 1, resume_line,
                            f"commerce play: the terminal failed ({exc.strerror or exc}). ")
        driver.on_events = None
        try:
            driver.record().save(path)
            failed = None
        except RecordError as exc:
            failed = exc
    for line in out.summary():
        _say(line)
    print()
    print("Final result:")
    for seat, net in sorted(enumerate(result.payoffs), key=lambda x: -x[1]):
        print(f"  {names[seat]:<20} {net:+d}")
    _say(f"The seed was {driver.seed}: 'commerce play --seed {driver.seed}' with the same "
         f"rules and players deals the same hands.")
    if failed is not None:  # the result is shown all the same
        print(f"commerce play: error: {failed}", file=sys.stderr)
        return EXIT_USAGE
    print(f"Record saved to {path}")
    return 0


def _stopped(driver: Driver, path: Path, status: int, resume_line: Callable[[], str],
             why: str = "") -> int:
    """Save after end of input or a signal, and say so in one line on standard error.

    The terminal may be gone (a hang-up): then nothing can be printed, and nothing more is
    tried, so that no error about the lost terminal follows at exit.
    """
    from commerce.errors import RecordError

    try:
        driver.record().save(path)
        line = why + resume_line()
    except RecordError as exc:
        line, status = f"commerce play: error: {exc}", EXIT_USAGE
    try:
        print(f"\n{line}", file=sys.stderr)
        sys.stdout.flush()
    except (OSError, ValueError):
        _silence_output()
    return status


def _silence_output() -> None:
    """Point standard output and error at the null device (the terminal has gone)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        for fd in (1, 2):
            os.dup2(devnull, fd)
        os.close(devnull)
    except OSError:  # pragma: no cover
        pass


class _OutOfGame:
    """Once the player is out of a token game, the deals the others play on are summarised,
    not shown event by event (a widow session may go on for hundreds of lines): who else
    goes out is still said at once, and :meth:`summary` counts the deals at the end."""

    def __init__(self, names: Sequence[str], human: int) -> None:
        self.names, self.human = names, human
        self.out_at: int | None = None  # the deal in which the player went out
        self.last = 0
        self.gone: list[str] = []

    def follows(self, e: Event) -> bool:
        """Whether event *e* is taken into the summary instead of being shown."""
        if self.out_at is None:
            if e.kind == "went_out" and e.seat == self.human:
                self.out_at = self.last = int(e.get("deal", 0))
                _say("You are out of the game. The others play on; their deals are "
                     "summarised at the end.")
                return True
            return False
        if e.kind == "deal_ended":
            self.last = max(self.last, int(e.get("deal", self.last)))
        elif e.kind == "went_out" and e.seat is not None:
            self.gone.append(f"{self.names[e.seat]} went out in deal {e.get('deal', '?')}.")
        return True

    def summary(self) -> list[str]:
        """The deals played after the player went out, in a few lines."""
        if self.out_at is None:
            return []
        more = self.last - self.out_at
        played = f"{more} more deal{'s' if more != 1 else ''}"
        return [f"You went out in deal {self.out_at}; the others played {played}.",
                *self.gone]


def _card_notation(family: str) -> Callable[[str], str]:
    """What writes the cards of the family's texts (events, the table) in the notation of
    the menus and hints: suit symbols (``T♣``) where the output can draw them; else the
    letters are kept, as the output's fallback writes the menus' symbols (``TC``)."""
    symbols = presentation(family).card_symbols
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    if symbols is None or "♠♥♦♣".encode(encoding, "replace") != "♠♥♦♣".encode(encoding,
                                                                              "ignore"):
        return lambda text: text
    return symbols


def _forced(driver: Driver) -> Action | None:
    """The one legal action when it is only a 'decline' or 'done': played without asking."""
    from commerce import engine
    from commerce.core import ActionKind

    legal = engine.legal_actions(driver.state)
    if len(legal) == 1 and legal[0].kind in (ActionKind.DECLINE, ActionKind.DONE):
        return legal[0]
    return None


def _say(text: str) -> None:
    """Print *text* for the player: in words, wrapped between words at 80 columns."""
    from commerce.cli.menu import humanize, wrap_text

    print("\n".join(wrap_text(humanize(text))))


def _ask(driver: Driver, seat: int,
         waiting: Callable[[], contextlib.AbstractContextManager[None]],
         read: Callable[[str], str] = input, learned: LearnedBot | None = None) -> Action | None:
    """Prompt until the user names a legal action; None to quit.

    *waiting* is held while the prompt waits for a line (see :meth:`Stop.waiting`); *read*
    reads it (:func:`line_reader`); *learned* gives the hints where set (a learned model).
    """
    from commerce import engine
    from commerce.cli.menu import (
        family_labels,
        menu_groups,
        menu_lines,
        phrase_action,
        possible_now,
    )
    from commerce.errors import CommerceError

    family = driver.rules.family
    legal = engine.legal_actions(driver.state)
    labels = [engine.format_action(driver.rules, a) for a in legal]
    labels = family_labels(driver, seat, legal, labels)
    groups = menu_groups(driver, seat, legal)
    menu = "\n".join(menu_lines(labels, groups))
    while True:
        print(menu)
        with waiting():
            text = read("Your move> ").strip()
        if not text:
            continue
        low = text.lower()
        if low in ("q", "quit", "exit"):
            return None
        if low in ("?", "h", "help"):
            _say(presentation(family).commands + _COMMON_HELP)
            _say(_rules_at_hand(driver, seat))
            continue
        if low == "hint":
            try:
                _say(_hint(driver, seat, legal, labels, learned))
            except CommerceError as exc:
                if learned is not None:  # the model cannot read this table: say why
                    _say(f"No hint: {exc}.")
                else:
                    print(f"Hints are not available for {driver.rules.name} yet.")
            continue
        if low.isdigit():
            # int() only of a short string of ASCII digits: '²' is a digit to isdigit(), and
            # int() refuses thousands of digits
            n = int(low) if low.isascii() and len(low) <= 6 else 0
            if 1 <= n <= len(legal):
                return legal[n - 1]
            print(f"No such option: choose a number from 1 to {len(legal)}.")
            continue
        text = phrase_action(driver, legal, text)
        words = text.split()
        words[0] = presentation(family).short_words.get(words[0].lower(), words[0])
        try:
            action = engine.parse_action(driver.state, " ".join(words))
        except CommerceError as exc:
            first = {engine.format_action(driver.rules, a).split()[0].lower() for a in legal}
            if words[0].lower() in first:  # a move possible now, its card mistyped
                _say(f"Not possible: {exc}")
            else:
                numbers = "1" if len(legal) == 1 else f"a number from 1 to {len(legal)}"
                _say(f"Not possible: {text!r} is not a move now. Possible now: "
                     f"{possible_now(labels, groups)}; or type {numbers}.")
            continue
        try:
            engine.check(driver.state, action, seat=seat)
        except CommerceError as exc:
            _say(f"Not possible: {exc}")
            continue
        return action


def _rules_at_hand(driver: Driver, seat: int) -> str:
    """What beats what under the ruleset, each with an example, and the decision at hand
    explained in words (the family's presentation hooks), for the help."""
    from commerce import engine

    present = presentation(driver.rules.family)
    lines = []
    if present.rules_help is not None:
        lines.append("Hands, best first: " + "; ".join(present.rules_help(driver.rules)) + ".")
    if present.explain is not None:
        now = present.explain(engine.observe(driver.state, seat))
        if now:
            lines.append("Now: " + now)
    return "\n".join(lines)


def _hint(driver: Driver, seat: int, legal: Sequence[Action], labels: list[str],
          learned: LearnedBot | None = None) -> str:
    """The search bot's view of each legal action, or the learned model *learned*'s
    (:func:`commerce.cli.hint.hint_text`)."""
    from commerce.cli.hint import hint_text

    return hint_text(driver, seat, legal, labels, learned=learned)


def run_replay(args: argparse.Namespace) -> int:
    """Step through a saved game: every hand once it is over (or with ``--reveal``); of an
    unfinished game, only what the player who saved it saw."""
    from commerce import engine
    from commerce.record import GameRecord, replay

    record = GameRecord.load(args.file)
    names = [s.name for s in record.seats] or [f"Seat {i}" for i in range(record.players)]
    interactive = not args.all and sys.stdin.isatty()
    over = engine.outcome(replay(record)) is not None
    keys = " Enter: next, q: quit." if interactive else ""
    if over or args.reveal:
        note = "" if over else " (unfinished; every hand shown, as --reveal asks)"
        seed = "" if record.seed is None else f", seed {record.seed}"
        print(f"{record.rules.name}: {record.players} players{seed}, {len(record.actions)} "
              f"actions{note}.{keys}")
        return _replay_all(record, names, interactive)
    viewer = _saving_seat(record)
    who = "a spectator" if viewer is None else names[viewer]
    print(f"{record.rules.name}: {record.players} players (unfinished: what {who} has seen)."
          f"{keys}")
    code = _replay_seen(record, names, viewer, interactive)
    spoils = "" if viewer is None else f" for {who}"
    print(f"The game is unfinished: this is what {who} has seen. "
          f"'commerce replay --reveal {args.file}' shows every hand (and spoils the game"
          f"{spoils}).")
    return code


def _saving_seat(record: GameRecord) -> int | None:
    """The seat whose view an unfinished record shows: its one human seat (who saved it), or
    None (a spectator's view) when it has none or several."""
    humans = [i for i, s in enumerate(record.seats) if s.agent == "human"]
    return humans[0] if len(humans) == 1 else None


def _replay_all(record: GameRecord, names: list[str], interactive: bool) -> int:
    """Every action and every event, every hand visible (a finished game, or --reveal)."""
    from commerce import engine
    from commerce.cli.textview import describe_event, render
    from commerce.record import replay_steps

    family = record.rules.family
    cards = _card_notation(family)
    state = engine.new_game(record.rules, record.players, dealer=record.dealer)
    for e in getattr(state, "log", ()):
        line = describe_event(e, names, None, family)
        if line:
            print(cards(line))
    for i, (action, transition) in enumerate(replay_steps(record), 1):
        d = engine.decision(state)
        who = "chance" if d is None or d.seat is None else names[d.seat]
        print(cards(f"[{i}] {who}: {engine.format_action(record.rules, action)}"))
        for e in transition.events:
            line = describe_event(e, names, None, family)
            if line:
                print(cards("    " + line.replace("\n", "\n    ")))
        state = transition.state
        if interactive:
            print(cards(render(engine.reveal_all(state), names)))
            if _quit_asked():
                return 0
    result = engine.outcome(state)
    if result is not None:
        print("Final result: " + ", ".join(
            f"{names[s]} {p:+d}" for s, p in enumerate(result.payoffs)))
    return 0


def _replay_seen(record: GameRecord, names: list[str], viewer: int | None,
                 interactive: bool) -> int:
    """What *viewer* saw, and nothing else: the events visible to that seat and its
    observations. No action text, count or step number is shown, as those could tell of
    others' cards (a deal) or of decisions the viewer never saw (a pounce declined)."""
    from commerce import engine
    from commerce.cli.textview import describe_event, render
    from commerce.record import replay_steps

    family = record.rules.family
    cards = _card_notation(family)

    def seen(events: Iterable[Event]) -> list[str]:
        lines = (describe_event(e, names, viewer, family)
                 for e in engine.visible_events(events, viewer))
        return [cards(line) for line in lines if line]

    state = engine.new_game(record.rules, record.players, dealer=record.dealer)
    for line in seen(getattr(state, "log", ())):
        print(line)
    for _, transition in replay_steps(record):
        state = transition.state
        lines = seen(transition.events)
        if not lines:
            continue
        for line in lines:
            print(line)
        if interactive:
            print(cards(render(engine.observe(state, viewer), names)))
            if _quit_asked():
                return 0
    if not interactive:
        print()
        print(cards(render(engine.observe(state, viewer), names)))
    return 0


def _quit_asked() -> bool:
    """Wait for Enter; True when the user typed q or the input ended."""
    try:
        return input().strip().lower() in ("q", "quit")
    except EOFError:
        return True
