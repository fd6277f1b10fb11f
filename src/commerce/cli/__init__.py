"""The ``commerce`` command line.

Each subcommand lives in its own module, imported only when it runs, so ``commerce --help``
stays fast. Every bad argument ends with a one-line message and exit status 2, never a
traceback.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import io
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, NoReturn

from commerce.errors import CommerceError

if TYPE_CHECKING:
    from commerce.rules import Ruleset

EXIT_USAGE = 2
"""Exit status for bad input."""

Configure = Callable[[argparse.ArgumentParser], None]
Run = Callable[[argparse.Namespace], int]


def _commands() -> dict[str, tuple[str, Configure, Run]]:
    """Every subcommand: (help, add its arguments, run it). Each module keeps its heavy
    imports inside its functions, so building the parser stays cheap."""
    from commerce.cli import analyze, hands, play, rules, simulate, tournament

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
        "bench": ("print speed figures for this machine",
                  simulate.configure_bench, simulate.run_bench),
        "tournament": ("rank bots by playing them against each other in every seat",
                       tournament.configure_tournament, tournament.run_tournament),
        "analyze": ("dealer advantage, stand thresholds and the variants side by side",
                    analyze.configure_analyze, analyze.run_analyze),
        "rules": ("list the rulesets, show one, or compare two",
                  rules.configure_rules, rules.run_rules),
    }


def add_rules_arguments(p: argparse.ArgumentParser, *, default: str | None = "peel") -> None:
    """The ``--rules ID`` and repeatable ``--set name=value`` options."""
    p.add_argument("--rules", default=default, metavar="ID",
                   help=f"ruleset id (default: {default}); see 'commerce rules'")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", dest="options",
                   help="override one option of the ruleset (repeatable)")
    p.add_argument("--pack", type=int, choices=(52, 32), default=None,
                   help="shorthand for --set pack=N")


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line: ``commerce COMMAND: error: ...``."""

    def error(self, message: str) -> NoReturn:
        """Print the one-line error and exit with status 2."""
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = _Parser(
        prog="commerce",
        description="Commerce, the old round game of trading three-card hands: play it, "
                    "score hands, simulate and analyse.",
    )
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (help_text, configure, run) in _commands().items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        sp.set_defaults(_run=run)
        configure(sp)
    return parser


def _version() -> str:
    from commerce import __version__

    return f"commerce {__version__}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    with tolerant_stdio():
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "command", None):
            parser.print_help()
            return 0
        try:
            status: int = args._run(args)
        except CommerceError as exc:
            print(f"commerce {args.command}: error: {exc}", file=sys.stderr)
            return EXIT_USAGE
        except KeyboardInterrupt as exc:
            # Ctrl-C: one line, e.g. "interrupted after 12 of 60 games" (commerce.tournament)
            print(f"commerce {args.command}: {str(exc) or 'interrupted'}", file=sys.stderr)
            return 130
        except BrokenPipeError:
            return 0
        return status


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


def resolve_rules(args: argparse.Namespace) -> Ruleset:
    """The ruleset named by ``--rules`` with ``--set`` and ``--pack`` applied."""
    from commerce.rules import parse_overrides, resolve

    overrides: dict[str, object] = dict(parse_overrides(args.options))
    if args.pack is not None:
        overrides["pack"] = args.pack
    return resolve(args.rules, overrides)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
