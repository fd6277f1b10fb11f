"""``commerce bench``: speed figures for this machine.

Without a NAME, the hand evaluator's figures and random playouts (``--fast``: the compiled
kernel beside the reference path), as before. With a NAME, one benchmark of
:mod:`commerce.bench.named`, printed as aligned columns, ``--json`` (one object) or
``--markdown`` (the table ``docs/performance.md`` shows; ``scripts/figures.py`` reruns the
command above each table of the docs). ``--quick`` runs a small size, for a test.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from commerce.bench.figures import Figures
from commerce.cli import CommandParser, float_in, int_in, simulate, span
from commerce.errors import CommerceError

SECONDS: tuple[float, float] = (0.01, 60.0)
ROUNDS: tuple[int, int] = (1, 100)
GAMES: tuple[int, int] = (1, 100_000)

Option = tuple[str, Callable[[str], Any], Any, str]
"""A benchmark's option: flag, type, default, help (type ``bool``: a switch, off by
default)."""

_RULES = ("--rules", str, None, "comma list of ruleset ids (default: {default})")
_SECONDS: Option = ("--seconds", float_in(*SECONDS), 1.0,
                    f"seconds a work is timed in a round, {span(SECONDS)} (default {{default}})")
_ROUNDS: Option = ("--rounds", int_in(*ROUNDS), 5,
                   f"interleaved rounds, {span(ROUNDS)} (default {{default}})")

BENCHES: dict[str, tuple[str, list[Option]]] = {
    "hands": ("hands evaluated per second, against a classifier with no table",
              [("--seconds", float_in(0.0, 60.0), 0.4,
                "seconds a figure is timed, from 0 to 60 (default {default})"), _ROUNDS]),
    "kernel": ("the compiled kernel against the reference engine, per preset",
               [(*_RULES[:2], None, "comma list of ruleset ids (default: every preset with a "
                                    "kernel that seats 4)"),
                _SECONDS, _ROUNDS,
                ("--threads", int_in(1, 64), 2, "the kernel's threads (default {default})")]),
    "kernel-ab": ("this checkout's compiled kernel against another checkout's, alternated",
                  [("--against", str, None, "the other checkout's src folder (required)"),
                   (*_RULES[:2], None, "comma list of ruleset ids (default: peel,widow,cox)"),
                   ("--bots", str, "random,heuristic", "policies (default {default})"),
                   _ROUNDS,
                   ("--threads", int_in(1, 64), 2, "the kernel's threads (default {default})")]),
    "peers": ("every speed figure beside OpenSpiel's games (needs open_spiel)",
              [_SECONDS, _ROUNDS]),
    "research": ("the research API's steps per second per ruleset (needs open_spiel)",
                 [(*_RULES[:2], None, "comma list of ruleset ids (default: every preset)"),
                  _SECONDS, _ROUNDS]),
    "vector-env": ("the compiled vector environment's steps per second",
                   [(*_RULES[:2], None, "comma list of ruleset ids (default: peel,widow,cox)"),
                    ("--opponents", str, "heuristic,random",
                     "comma list of the bots inside (default {default})"),
                    ("--envs", int_in(1, 65_536), 1024, "games at once (default {default})"),
                    ("--steps", int_in(1, 10_000), 100,
                     "steps a round (default {default})"), _ROUNDS,
                    ("--step-only", bool, False,
                     "also time env.step on its own, every step's actions drawn beforehand "
                     "from the masks (the games replayed)")]),
    "search": ("the search bot's time per decision",
               [(*_RULES[:2], None, "comma list of ruleset ids (default: "
                                    "peel,trade-and-barter,widow,cox)"),
                ("--games", int_in(*GAMES), 10, "games a ruleset (default {default})"),
                ("--bot", str, "search", "the bot spec timed (default {default})")]),
    "hint": ("the table's hint, milliseconds per decision",
             [(*_RULES[:2], None, "comma list of ruleset ids (default: "
                                  "peel,widow,cox,vingt-un)"),
              ("--decisions", int_in(1, 1000), 30, "decisions a ruleset (default {default})")]),
    "jobs": ("a tournament on one process and on two",
             [("--rules", str, "peel", "ruleset id (default {default})"),
              ("--games", int_in(*GAMES), 48, "games (default {default})"),
              ("--bots", str, "random,heuristic,search:iterations=200",
               "comma list of bots (default {default})"),
              ("--rounds", int_in(*ROUNDS), 3, "alternated rounds (default {default})")]),
}
"""Every named benchmark: its help line and options (each also takes --json, --markdown and
--quick)."""


def configure_bench(p: argparse.ArgumentParser) -> None:
    """Arguments of ``commerce bench`` and of each ``commerce bench NAME``."""
    simulate.configure_bench(p)
    sub = p.add_subparsers(dest="bench", metavar="NAME", parser_class=CommandParser,
                           required=False,
                           help="a named benchmark (its options after it; see "
                                "'commerce bench NAME --help'): " + ", ".join(BENCHES))
    for name, (help_text, options) in BENCHES.items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        for flag, kind, default, text in options:
            if kind is bool:  # a switch
                sp.add_argument(flag, action="store_true", help=text)
            else:
                sp.add_argument(flag, type=kind, default=default,
                                help=text.format(default=default))
        out = sp.add_mutually_exclusive_group()
        out.add_argument("--json", action="store_true", help="print one JSON object")
        out.add_argument("--markdown", action="store_true",
                         help="print the Markdown table the docs show")
        sp.add_argument("--quick", action="store_true",
                        help="a small size, in seconds (for tests; the figures mean little)")


def run_bench(args: argparse.Namespace) -> int:
    """Print the speed figures."""
    from commerce.bench import named

    name = getattr(args, "bench", None)
    if name is None:
        return simulate.run_bench(args)
    _, options = BENCHES[name]
    kwargs = {flag[2:].replace("-", "_"): getattr(args, flag[2:].replace("-", "_"))
              for flag, *_ in options}
    kwargs = {k: v for k, v in kwargs.items() if v is not None}
    work: Callable[..., Figures] = getattr(named, name.replace("-", "_"))
    if name == "kernel-ab" and "against" not in kwargs:
        raise CommerceError("commerce bench kernel-ab: give the other checkout's src folder "
                            "with --against SRC")
    figures = work(quick=args.quick, **kwargs)
    if args.json:
        print(json.dumps(figures.as_json()))
    elif args.markdown:
        print(figures.markdown())
    else:
        print(figures.text())
    return 0
