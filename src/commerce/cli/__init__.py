"""The ``commerce`` command line.

Each subcommand lives in its own module, imported only when it runs, so ``commerce --help``
stays fast. Every bad argument ends with a one-line message and exit status 2, never a
traceback: argparse's own errors included (:class:`CommandParser`). Every number option has a
documented range, enforced as its argument type (:func:`int_in`, :func:`float_in`) and named
in its ``--help`` line.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import errno
import io
import math
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, NoReturn

from commerce.errors import CommerceError

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

    from commerce.presentation import Presentation
    from commerce.rules import Ruleset

EXIT_USAGE = 2
"""Exit status for bad input."""

PLAYERS: tuple[int, int] = (2, 12)
"""``--players``: the most any ruleset allows; each ruleset checks its own range too."""
GAMES: tuple[int, int] = (1, 1_000_000)
"""``--games`` of simulate, tournament and analyze."""
SEED: tuple[int, int] = (0, 2**63 - 1)
"""``--seed``."""
JOBS: tuple[int, int] = (1, 256)
"""``--jobs``: processes."""
SECONDS: tuple[float, float] = (0.01, 60.0)
"""``commerce bench --seconds``: the time of each run of each figure."""
BOTS_HELP = ("bot specs (names in any case): random, heuristic (heuristic:boldness=X, X from "
             "0 to 1), search "
             "(search:iterations=N, N from 1 to 100,000, or search:ms=T, T above 0 and at "
             "most 60,000)")
"""The bot specs and the ranges of their options, for ``--help``."""


class CommandParser(argparse.ArgumentParser):
    """An argument parser whose every error is one line ``commerce COMMAND: error: ...`` and
    exit status 2 (the line of ``commerce analyze variants`` names ``commerce analyze``)."""

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        """Write *message* (help, version, an error) to *file*: unlike argparse's own, a write
        that fails raises (:func:`main` reports it), so a help sent to a full disk is not
        lost in silence."""
        if message:
            (file or sys.stderr).write(message)

    def error(self, message: str) -> NoReturn:
        """Print *message* on one line of standard error and exit with status 2."""
        command = " ".join(self.prog.split()[:2])
        self.exit(EXIT_USAGE, f"{command}: error: {one_line(message)} "
                              f"(see '{self.prog} --help')\n")


def one_line(text: str) -> str:
    """*text* with line breaks and other control characters escaped, for a one-line message.

    >>> one_line("a\\nb\\x1b[2J")
    'a\\\\nb\\\\x1b[2J'
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == " " else ascii(c)[1:-1] for c in text)


def int_in(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: a whole number from *lo* to *hi*.

    >>> int_in(1, 10)("7")
    7
    >>> int_in(1, 10)("11")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a whole number from 1 to 10, not '11'
    """
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = lo - 1
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(
                f"must be a whole number {span((lo, hi))}, not {_cut(text)}")
        return value

    return parse


def float_in(lo: float, hi: float) -> Callable[[str], float]:
    """An argparse type: a finite number from *lo* to *hi*.

    >>> float_in(0.01, 60)("nan")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a number from 0.01 to 60, not 'nan'
    """
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not lo <= value <= hi:  # also refuses nan
            raise argparse.ArgumentTypeError(
                f"must be a number {span((lo, hi))}, not {_cut(text)}")
        return value

    return parse


def file_name(text: str) -> str:
    """An argparse type: a file name, not empty and without a NUL character.

    >>> file_name("games/a.json")
    'games/a.json'
    """
    if not text or "\x00" in text:
        raise argparse.ArgumentTypeError(f"not a file name: {_cut(text)}")
    return text


def seat_name(text: str) -> str:
    """An argparse type: a name at the table as a record keeps it (at most
    :data:`~commerce.record.MAX_NAME_CHARS` characters, no control character).

    >>> seat_name("Ann")
    'Ann'
    """
    from commerce.record import MAX_NAME_CHARS

    if len(text) > MAX_NAME_CHARS or any(ord(c) < 32 or 127 <= ord(c) < 160 for c in text):
        raise argparse.ArgumentTypeError(
            f"a name of at most {MAX_NAME_CHARS} characters without control characters, not "
            f"{_cut(text)}")
    return text


def _cut(text: str) -> str:
    return repr(text) if len(text) <= 24 else repr(text[:20]) + "..."


def span(bounds: tuple[float, float]) -> str:
    """A range for ``--help`` and messages.

    >>> span((2, 12)), span((1, 1_000_000)), span((0.01, 60.0))
    ('from 2 to 12', 'from 1 to 1,000,000', 'from 0.01 to 60')
    """
    lo, hi = (f"{x:,}" if isinstance(x, int) else f"{x:,g}" for x in bounds)
    return f"from {lo} to {hi}"


Configure = Callable[[argparse.ArgumentParser], None]
Run = Callable[[argparse.Namespace], int]


def _commands() -> dict[str, tuple[str, Configure, Run]]:
    """Every subcommand: (help, add its arguments, run it). Each module keeps its heavy
    imports inside its functions, so building the parser stays cheap."""
    from commerce.cli import (
        analyze,
        bench,
        hands,
        play,
        rules,
        serve,
        simulate,
        tournament,
        train,
    )

    return {
        "play": ("play a game against the computer in the terminal",
                 play.configure_play, play.run_play),
        "replay": ("step through a saved game: what its player saw, every hand once it is over",
                   play.configure_replay, play.run_replay),
        "hand": ("name a hand's category and strength", hands.configure_hand, hands.run_hand),
        "compare": ("say which of two hands wins and why",
                    hands.configure_compare, hands.run_compare),
        "odds": ("exact count and probability of each category",
                 hands.configure_odds, hands.run_odds),
        "score": ("score a holding in Cox's 1925 game", hands.configure_score, hands.run_score),
        "simulate": ("play many games between bots and tabulate results",
                     simulate.configure_simulate, simulate.run_simulate),
        "bench": ("print speed figures for this machine (a named benchmark: bench NAME)",
                  bench.configure_bench, bench.run_bench),
        "tournament": ("rank bots by playing them against each other in every seat",
                       tournament.configure_tournament, tournament.run_tournament),
        "analyze": ("dealer advantage, stand thresholds and the variants side by side",
                    analyze.configure_analyze, analyze.run_analyze),
        "rules": ("list the rulesets, show one, or compare two",
                  rules.configure_rules, rules.run_rules),
        "train": ("train a learned player by self-play (needs commerce[learn])",
                  train.configure_train, train.run_train),
        "serve": ("serve the game to browsers: a lobby and tables for friends and bots",
                  serve.configure_serve, serve.run_serve),
    }


def add_rules_arguments(p: argparse.ArgumentParser, *, default: str | None = "peel") -> None:
    """The ``--rules ID`` and repeatable ``--set name=value`` options."""
    p.add_argument("--rules", default=default, metavar="ID",
                   help=f"ruleset id, in any case, '_' or '-' alike (default: {default}); see "
                        "'commerce rules'")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", dest="options",
                   help="override one option of the ruleset (repeatable); 'commerce rules "
                        "show ID' lists each option with its values or range")
    p.add_argument("--pack", type=int, choices=(52, 32, 12), default=None,
                   help="shorthand for --set pack=N (52, 32 or 12)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = CommandParser(
        prog="commerce",
        description="Commerce, the old round game of trading three-card hands: play it, "
                    "score hands, simulate and analyse.",
    )
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CommandParser)
    for name, (help_text, configure, run) in _commands().items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        sp.set_defaults(_run=run, _parser=sp)
        configure(sp)
    return parser


def _version() -> str:
    from commerce import __version__

    return f"commerce {__version__}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status.

    Output that cannot be written (standard output on a full disk, a closed pipe) ends the
    command with one line on standard error and status 1 (a closed pipe, as ``| head`` closes
    it, quietly with status 0), never a traceback.
    """
    with tolerant_stdio():
        command = ["commerce"]
        try:
            status = _main(argv, command)
            sys.stdout.flush()  # what is still buffered fails here, not at exit
            return status
        except BrokenPipeError:
            _drop_output()
            return 0
        except OSError as exc:  # the output, or a file no command checked
            if _output_broken(exc):
                _drop_output()
                message = f"cannot write the output ({exc.strerror or exc})"
            else:
                message = (f"{exc.strerror or exc}"
                           + (f": {exc.filename}" if exc.filename is not None else ""))
            if len(command) == 1:  # it failed while parsing: --help of a command
                command.extend(_command_word(argv)[:1])
            with contextlib.suppress(OSError, ValueError):  # standard error may be full too
                print(f"{' '.join(command)}: error: {one_line(message)}", file=sys.stderr)
            return 1


def _main(argv: Sequence[str] | None, command: list[str]) -> int:
    """:func:`main`'s work; *command* gets the subcommand's name once it is known."""
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if getattr(args, "command", None):
            command.append(args.command)
        if extra:  # reported by the command's own parser, so the line names the command
            getattr(args, "_parser", parser).error(
                f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:  # --help, --version, or a bad argument (already reported)
        return 0 if exc.code is None else exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if not getattr(args, "command", None):
        parser.print_help()
        return 0
    try:
        status: int = args._run(args)
    except CommerceError as exc:
        print(f"commerce {args.command}: error: {one_line(str(exc))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt as exc:
        # Ctrl-C: one line, e.g. "interrupted after 12 of 60 games" (commerce.apps.jobs)
        print(f"commerce {args.command}: {str(exc) or 'interrupted'}", file=sys.stderr)
        return 130
    return status


_WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EBADF, errno.EPIPE,
                           getattr(errno, "EDQUOT", errno.ENOSPC)})
"""What a failed write of standard output raises."""


def _command_word(argv: Sequence[str] | None) -> list[str]:
    """The subcommand named in *argv*, if any (``["simulate"]`` of ``simulate --help``)."""
    words = sys.argv[1:] if argv is None else list(argv)
    return [w for w in words if w in _commands()][:1]


def _output_broken(exc: OSError) -> bool:
    """Whether *exc* is standard output failing: an error of writing that names no file, or
    standard output that still cannot take what it holds."""
    if exc.filename is None and exc.errno in _WRITE_ERRORS:
        return True
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        return True
    return False


def _drop_output() -> None:
    """Point standard output's file at the null device, so that what it still holds is
    dropped at exit instead of failing again there (nothing when it is no file, as under a
    test's capture)."""
    try:
        fd = sys.stdout.fileno()
    except (OSError, ValueError, AttributeError):
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except OSError:  # pragma: no cover
        pass


_FALLBACK: dict[str, str] = {
    "♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C",
    "—": "-", "–": "-", "−": "-", "…": "...", "←": "<-", "→": "->",
}
"""What a terminal that cannot draw a character shows instead (``A♠`` becomes ``AS``)."""

_FALLBACK_ERRORS = "commerce-fallback"


def _fallback(exc: UnicodeError) -> tuple[str, int]:
    """Codec error handler: letters for suits, ASCII for dashes and arrows, ``?`` otherwise."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    text = exc.object[exc.start:exc.end]
    return "".join(_FALLBACK.get(ch, "?") for ch in text), exc.end


codecs.register_error(_FALLBACK_ERRORS, _fallback)


@contextlib.contextmanager
def tolerant_stdio() -> Iterator[None]:
    """No character ever crashes the output or the input, whatever the terminal's encoding.

    Standard output draws what its encoding cannot through :data:`_FALLBACK` (so a terminal
    set to ASCII shows ``AS`` for ``A♠``); standard input reads undecodable bytes as U+FFFD,
    which the commands then refuse as bad input. Both are restored on the way out.
    """
    changed: list[tuple[io.TextIOWrapper, str]] = []
    plan = ((sys.stdout, _FALLBACK_ERRORS, ("strict", "surrogateescape")),
            (sys.stdin, "replace", ("strict",)))
    for stream, errors, replaced in plan:
        if isinstance(stream, io.TextIOWrapper) and stream.errors in replaced:
            before = str(stream.errors)
            try:
                stream.reconfigure(errors=errors)
            except (OSError, ValueError):  # pragma: no cover - a stream that cannot change
                continue
            changed.append((stream, before))
    try:
        yield
    finally:
        for stream, errors in changed:  # reconfigure() flushes first, with the tolerant errors
            with contextlib.suppress(OSError, ValueError):
                stream.reconfigure(errors=errors)


def presentation(family: str) -> Presentation:
    """The family's presentation hooks (:class:`commerce.presentation.Presentation`)."""
    from commerce.family import family_spec
    from commerce.presentation import Presentation

    return family_spec(family).presentation or Presentation()


def resolve_rules(args: argparse.Namespace) -> Ruleset:
    """The ruleset named by ``--rules`` with ``--set`` and ``--pack`` applied."""
    from commerce.rules import parse_overrides, resolve

    overrides: dict[str, object] = dict(parse_overrides(args.options))
    if args.pack is not None:
        overrides["pack"] = args.pack
    return resolve(args.rules, overrides)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
