"""Fuzz targets shared by the suite (``tests/test_fuzz.py``, briefly) and by
``scripts/fuzz.py`` (at length): each is a hypothesis strategy and a check of one input.

* ``notation``: arbitrary and notation-like text through each family's ``parse_action``: it
  raises :class:`~commerce.errors.NotationError` or round-trips through ``format_action``.
* ``cli``: argument lists built from the real flag set of every command, with junk values:
  the command exits 0 or 2 (2 with one ``commerce COMMAND: error:`` line per error), never
  1 and never with an exception.
* ``records``: saved games damaged, truncated or made hostile (byte flips, cuts, deep
  nesting, wrong types, huge numbers, edited actions): loading gives a
  :class:`~commerce.errors.RecordError` or a record that replays correctly.

Every value that would start real work is kept cheap (at most two games, no valid search
bot, 0.01 s benchmarks), so a case takes milliseconds.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import copy
import functools
import io
import json
import re
import shutil
import socket
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st

from commerce import engine
from commerce.bots import make_bot
from commerce.cli import GAMES, JOBS, SECONDS, build_parser, main
from commerce.cli.bench import BENCHES
from commerce.driver import Driver, play_game
from commerce.errors import CommerceError, NotationError, RecordError
from commerce.record import GameRecord, replay
from commerce.rules import find_ruleset

# -- budgets ---------------------------------------------------------------------------------

_EXAMPLES = {"notation": (300, 60), "cli": (40, 12), "records": (120, 30)}
"""Examples per test of each target: (locally, under the 'ci' profile)."""


def examples(target: str) -> int:
    """How many examples the suite runs for *target*: brief under the ``ci`` profile (loaded
    when the CI variable is set), a little more otherwise."""
    local, ci = _EXAMPLES[target]
    return ci if settings.get_current_profile_name() == "ci" else local


# -- notation --------------------------------------------------------------------------------

FAMILIES: dict[str, str] = {"trading": "peel", "widow": "pounce", "cox": "cox"}
"""A ruleset of each family, whose ``parse_action`` is fuzzed."""

_JUNK_WORDS = ["for", "x", "i", "sell", "out", "sell_out", "sell-out", "10h", "10", "T♦", "A♠",
               "♥", "q", "?", "-", ",", "deal", "DEAL", "Deal", "W", "R", "X", "BK", "AC",
               "A1", "a1", "M4", "11s", "1s", "ZZ", "\x00", "é", "Ａ"]


@functools.cache
def notation_vocabulary(family: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(words, whole actions) seen in the notation of two random games of *family*."""
    rules = find_ruleset(FAMILIES[family])
    actions: set[str] = set()
    for seed in (1, 2):
        rec = play_game(rules, [make_bot("random")] * rules.min_players, seed=seed)
        actions.update(rec.actions)
    words = {w for a in actions for w in a.split()}
    return tuple(sorted(words | set(_JUNK_WORDS))), tuple(sorted(actions))


def notation_texts(family: str) -> st.SearchStrategy[str]:
    """Arbitrary text, and text built from the family's own words, separators and junk."""
    words, actions = notation_vocabulary(family)
    word = st.one_of(st.sampled_from(words), st.text(max_size=4))
    sep = st.sampled_from([" ", "  ", "\t", "\n", " , ", "", "\u00a0"])
    built = st.lists(st.tuples(word, sep), min_size=1, max_size=7).map(
        lambda pairs: "".join(w + s for w, s in pairs))
    return st.one_of(
        st.text(max_size=40),
        built,
        built.map(str.upper),
        built.map(str.lower),
        st.sampled_from(actions),
        st.sampled_from(actions).map(lambda a: "  " + a.lower() + " "),
    )


def check_notation(family: str, text: str) -> str:
    """Parse *text*; a parsed action must round-trip through ``format_action``.

    :returns: ``"refused"`` or ``"parsed"``.
    """
    rules = find_ruleset(FAMILIES[family])
    try:
        action = engine.parse_action(rules, text)
    except NotationError:
        return "refused"
    written = engine.format_action(rules, action)
    again = engine.parse_action(rules, written)
    assert again == action, (text, written, again, action)
    assert engine.format_action(rules, again) == written
    return "parsed"


# -- the command line ----------------------------------------------------------------------

JUNK_VALUES = ["nan", "inf", "-inf", "-1", "0", "1e9", str(10**12), "abc", "", "-", "--", " 3",
               "0x10", "٣", "1.5", "9" * 40, "x" * 300, "\x00", "é", "\x1b[2J", "a\nb"]
"""Values every flag is tried with."""

_CHEAP: dict[str, list[str]] = {
    "--players": ["2", "3", "4", "5", "12"],
    "--games": ["1", "2"],
    "--seed": ["0", "7", str(2**63 - 1)],
    "--jobs": ["1", "2"],
    "--seconds": ["0.01"],
    "--rules": ["peel", "widow", "pounce", "cox", "pool", "peel-old", "all", "peel,widow",
                "nosuch", "PEEL"],
    "--set": ["deals_each=2", "flush_compare=high_card", "pack=32", "widow_size=5", "ante=0",
              "max_rounds_per_deal=1", "deals_each=101", "starting_tokens=1", "colour=red",
              "=", "noequals", "pounce=maybe", "hands_per_game=1"],
    "--pack": ["52", "32"],
    "--bots": ["random", "heuristic", "random,heuristic", "random,search:iterations=2",
               "heuristic:boldness=0.2,random", "random,search:iterations=2;ms=5", "genius",
               "random,random", ",", "search:depth=2"],
    "--bot": ["random", "heuristic", "random,heuristic:boldness=1", "search:iterations=2",
              "genius"],
    "--base": ["1", "4"],
    "--name": ["Ann", "x" * 300, "\x1b[2J"],
}
"""Valid values that start little work, and near misses."""

_POSITIONAL: dict[str, list[list[str]]] = {
    "hand": [["AS", "2S", "3S"], ["AS", "AS", "2S"], ["-"], [], ["10h", "T♦", "qc"], ["ZZ"]],
    "compare": [["AS KS QS", "2H 2D 2C"], ["AS", "AS 2H 2D"], ["x", "y"]],
    "score": [["A1", "A1", "A1", "BK"], ["A1"], ["ZZ"], ["A1"] * 11],
    "rules": [[], ["list"], ["show", "peel"], ["show", "nosuch"], ["diff", "widow", "pounce"],
              ["diff", "peel"], ["what"]],
    "analyze": [["dealer-advantage"], ["stand-threshold"], ["variants"], ["nosuch"], []],
}

_STDIN = ["", "q\n", "1\n" * 60, "2\n" * 60, "AS 2S 3S\nZZ\n\n10h 10d 2c\n", "?\ndone\nq\n",
          "trade ,\nbarter\nx 7h for\nexchange , for ,\ndiscard ,\ni sell out ,\nsell\n"
          "i buy\n0\n99\n-1\n\x00\nq\n"]
"""Standard input: for ``hand -``, and the moves typed in ``play`` (never 'hint', which runs
the search bot at its full budget)."""


@dataclass(frozen=True)
class _Command:
    """One command (or analysis) with its flags: flag -> whether it takes a value."""

    words: tuple[str, ...]
    flags: dict[str, bool]


@functools.cache
def cli_commands() -> tuple[_Command, ...]:
    """Every command and analysis with the flags its parser really has."""

    def flags_of(parser: argparse.ArgumentParser) -> dict[str, bool]:
        out = {}
        for action in parser._actions:
            for flag in action.option_strings:
                if flag.startswith("--"):
                    out[flag] = action.nargs != 0
        return out

    def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                return dict(action.choices)
        return {}

    commands = []
    for name, sp in subparsers(build_parser()).items():
        nested = subparsers(sp)
        commands.append(_Command((name,), flags_of(sp)))  # analyze alone: junk analyses
        commands += [_Command((name, sub), flags_of(p)) for sub, p in nested.items()]
    return tuple(commands)


@st.composite
def cli_cases(draw: st.DrawFn) -> tuple[list[str], str]:
    """(argv with ``{tmp}`` for the case's own folder, standard input)."""
    command = draw(st.sampled_from(cli_commands()))
    argv = list(command.words)
    head = command.words[0]
    if head in _POSITIONAL and len(command.words) == 1:
        argv += draw(st.sampled_from(_POSITIONAL[head]))
    if head == "replay":
        argv.append(draw(st.sampled_from(["{tmp}/done.json", "{tmp}/open.json", "{tmp}",
                                          "{tmp}/none.json", "/dev/null", "{tmp}/bad.json"])))
    flags = sorted(command.flags)
    for _ in range(draw(st.integers(0, 5))):
        flag = draw(st.sampled_from(flags))
        if not command.flags[flag]:
            argv.append(flag)
            continue
        value = draw(st.one_of(
            st.sampled_from(_CHEAP.get(flag, ["x"])),
            st.sampled_from(JUNK_VALUES),
            st.text(max_size=8),
            st.sampled_from(["{tmp}/out.csv", "{tmp}/p.png", "{tmp}/p.txt", "{tmp}/no/such/x",
                             "{tmp}", "out.csv",
                             "{tmp}/done.json", "{tmp}/open.json", "{tmp}/bad.json"]),
        ))
        argv += [flag, value]
    if draw(st.booleans()):  # junk the parser does not know
        argv.append(draw(st.sampled_from(["--nope", "-x", "extra", "--", "-"])))
    return argv, draw(st.sampled_from(_STDIN))


def _cheap_argv(argv: list[str]) -> list[str]:
    """Cap the valid values that would start long work (games, jobs, seconds, search bots),
    leaving the invalid ones to be refused; and make every game the terminal plays save in
    the case's folder."""
    # a local Ray for every case would take seconds each (tests/test_spread.py covers it)
    out = ["--json" if word == "--ray" else word for word in argv]
    caps = {"--games": (2, GAMES[1]), "--jobs": (2, JOBS[1]), "--seconds": (0.01, SECONDS[1]),
            # commerce train: one tiny iteration
            "--steps": (1, 10**10), "--envs": (1, 4096), "--rollout": (2, 100_000),
            "--epochs": (1, 100), "--eval-deals": (1, 10**7), "--league": (5, 1000),
            "--batch": (2, 10**6)}
    for i, word in enumerate(out[:-1]):
        value = out[i + 1]
        if word == "--port" and value.strip().isdigit():
            out[i + 1] = str(busy_port())  # a server that starts would never end the case
        elif word == "--host" and out[:1] == ["serve"] and _resolves(value):
            out[i + 1] = "127.0.0.1"  # where the busy port is
        elif word in caps:
            cap, top = caps[word]
            with contextlib.suppress(ValueError):
                if cap < float(value) <= top:
                    out[i + 1] = str(cap)
        elif word in ("--bots", "--bot"):
            out[i + 1] = ",".join(_no_search(spec) for spec in value.split(","))
    named_bench = out[:1] == ["bench"] and out[1:2] and out[1] in BENCHES
    words = out[:2] if out[:1] == ["analyze"] or named_bench else out[:1]
    defaults = {"simulate": ["--games", "1", "--bots", "random"],
                "tournament": ["--games", "2", "--bots", "random,heuristic"],
                "analyze": ["--games", "2", "--bots", "random"],
                "bench": ["--seconds", "0.01"],
                "play": ["--bot", "random", "--save", "{tmp}/saved.json"],
                "serve": ["--port", str(busy_port()), "--db", "sqlite:///{tmp}/server.db"],
                "train": ["--steps", "1", "--envs", "1", "--rollout", "2", "--batch", "2",
                          "--epochs", "1", "--eval-deals", "1", "--hidden", "4",
                          "--out", "{tmp}/train"]}
    extra = defaults.get(out[0], []) if out else []
    if named_bench:  # a named benchmark at its small size (tests/test_bench_named.py: shapes)
        extra = ["--quick"]
    # The defaults go first, so that the drawn flags (capped above) override them.
    return [*words, *extra, *out[len(words):]]


@functools.cache
def busy_port() -> int:
    """A port of this machine that something already listens on (kept open for the whole
    run): ``commerce serve`` on it must refuse in one line, where on a free port it would
    serve until stopped."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    _LISTENERS.append(listener)
    atexit.register(listener.close)
    return int(listener.getsockname()[1])


_LISTENERS: list[socket.socket] = []


def _resolves(host: str) -> bool:
    """Whether *host* names an address (where a server could listen)."""
    try:
        socket.getaddrinfo(host, None)
    except (OSError, UnicodeError, ValueError):
        return False
    return True


def _no_search(spec: str) -> str:
    """*spec*, or ``random`` in place of a valid search bot (even a tiny budget plays every
    legal action out to the end of the deal, seconds a game in the widow family); an invalid
    one stays, to be refused."""
    if not spec.strip().lower().startswith("search"):
        return spec
    try:
        make_bot(spec.replace(";", ","))
    except CommerceError:
        return spec
    return "random"


@functools.cache
def _record_texts() -> dict[str, str]:
    """A finished game, an unfinished one with a human seat, and a damaged one."""
    done = play_game(find_ruleset("peel"), [make_bot("random")] * 3, seed=1)
    driver = Driver(find_ruleset("peel"), [None, make_bot("random"), make_bot("random")],
                    seed=2, names=["Ann", "Bob", "Cat"])
    driver.run()
    return {"done.json": done.to_json(), "open.json": driver.record().to_json(),
            "bad.json": done.to_json()[:200]}


@contextlib.contextmanager
def _case_folder() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="commerce-fuzz-"))
    try:
        for name, text in _record_texts().items():
            (folder / name).write_text(text, encoding="utf-8")
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run_cli(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    """``commerce ARGV`` in this process with *stdin*: (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


_ERROR_LINE = re.compile(r"commerce( [a-z-]+)?: error: \S")


def check_cli(case: tuple[list[str], str]) -> str:
    """Run one case; exit 0, or 2 with only ``commerce COMMAND: error:`` lines on stderr.

    :returns: ``"ok"`` or ``"refused"``.
    """
    argv, stdin = case
    with _case_folder() as folder, contextlib.chdir(folder):  # relative files land there
        real = [w.replace("{tmp}", str(folder)) for w in _cheap_argv(argv)]
        code, out, err = run_cli(real, stdin)
    assert code in (0, 2), (real, code, err[-500:])
    if code == 2:
        lines = [line for line in err.splitlines() if line.strip()]
        if not lines:  # 'hand - --json' reports a bad line as {"error", "line"} instead
            assert real[:1] == ["hand"] and "--json" in real and '{"error": ' in out, real
            return "refused"
        for line in lines:
            assert _ERROR_LINE.match(line), (real, line)
        return "refused"
    return "ok"


# -- records -----------------------------------------------------------------------------------


@functools.cache
def base_records() -> tuple[str, ...]:
    """Saved games to damage: finished games of each family, and an unfinished one."""
    texts = []
    for rid, players, seed in (("peel", 3, 1), ("widow", 3, 2), ("cox", 2, 3), ("pool", 3, 4)):
        texts.append(play_game(find_ruleset(rid), [make_bot("random")] * players,
                               seed=seed).to_json())
    texts.append(_record_texts()["open.json"])
    return tuple(texts)


_HOSTILE: list[Any] = [None, True, False, -1, 0, 1, 3, 2**64 + 1, 10**30, -(10**30), 1.5, 1e308,
                       "", "x" * 400, "\x1b[2J", "\ud800", "peel", "stand", "deal AS", "human",
                       "search:iterations=100000", [], {}, [[[]]], {"a": [1]}, ["stand"] * 3]
_CARDS = ["AS", "2C", "TD", "KH", "7S", "A1", "BK", "W", "X", "ZZ"]
_PATHS = ["format", "format_version", "rules", "rules.id", "rules.version", "rules.options",
          "rules.options.deals_each", "rules.options.pack", "rules.options.flush_compare",
          "players", "dealer", "hidden", "hidden.seed", "seats", "seats.0", "seats.0.name",
          "seats.1.agent", "hidden.actions", "hidden.actions.0", "hidden.actions.1", "complete",
          "payoffs", "payoffs.0", "extra", "format_version"]


def _set_path(data: Any, path: str, value: Any, *, delete: bool) -> None:
    keys: list[Any] = [int(k) if k.isdigit() else k for k in path.split(".")]
    node = data
    for key in keys[:-1]:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return
    last = keys[-1]
    with contextlib.suppress(KeyError, IndexError, TypeError):
        if delete:
            del node[last]
        else:
            node[last] = value


@st.composite
def damaged_records(draw: st.DrawFn) -> str:
    """The JSON text of a saved game, damaged in one of many ways (or left intact)."""
    text = draw(st.sampled_from(base_records()))
    how = draw(st.sampled_from(["intact", "flip", "cut", "field", "actions", "deep", "number",
                                "json"]))
    if how == "flip":
        chars = list(text)
        for _ in range(draw(st.integers(1, 4))):
            i = draw(st.integers(0, len(chars) - 1))
            chars[i] = draw(st.sampled_from('0123456789"[]{},:. \\aeTSxé\x00'))
        return "".join(chars)
    if how == "cut":
        return text[:draw(st.integers(0, len(text)))]
    if how == "deep":
        depth = draw(st.integers(1, 3000))
        return text.replace('"extra": {}', '"extra": ' + "[" * depth + "]" * depth)
    if how == "number":
        big = draw(st.sampled_from(["9" * 31, "9" * 5000, "NaN", "Infinity", "-Infinity",
                                    "1e999", "-0", "1E2", "2.0"]))
        key = draw(st.sampled_from(["players", "dealer", "seed", "version"]))
        return re.sub(rf'("{key}": )-?\d+', lambda m: m.group(1) + big, text, count=1)
    if how == "json":
        return json.dumps(draw(st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
            lambda inner: st.lists(inner, max_size=4)
            | st.dictionaries(st.sampled_from(["format", "rules", "players", "hidden", "x"]),
                              inner, max_size=4),
            max_leaves=12)))
    data = json.loads(text)
    if how == "field":
        for _ in range(draw(st.integers(1, 3))):
            value = copy.deepcopy(draw(st.sampled_from(_HOSTILE)))
            _set_path(data, draw(st.sampled_from(_PATHS)), value, delete=draw(st.booleans()))
    elif how == "actions":
        actions = data["hidden"]["actions"]
        for _ in range(draw(st.integers(1, 3))):
            if not actions:
                break
            i = draw(st.integers(0, len(actions) - 1))
            edit = draw(st.sampled_from(["drop", "repeat", "swap", "card", "append"]))
            if edit == "drop":
                del actions[i]
            elif edit == "repeat":
                actions.insert(i, actions[i])
            elif edit == "swap":
                j = draw(st.integers(0, len(actions) - 1))
                actions[i], actions[j] = actions[j], actions[i]
            elif edit == "card":
                words = actions[i].split()
                k = draw(st.integers(0, len(words) - 1))
                words[k] = draw(st.sampled_from(_CARDS))
                actions[i] = " ".join(words)
            else:
                actions.append(draw(st.sampled_from(["stand", "done", "pass", "draw",
                                                     "deal AS", "trade 2C"])))
    return json.dumps(data, indent=draw(st.sampled_from([None, 1])))


def check_record(text: str) -> str:
    """Load *text* as a record: a RecordError, or a record that replays correctly (the same
    outcome again after a save and a load, and the recorded payoffs if it is finished).

    :returns: ``"refused"`` or ``"loaded"``.
    """
    try:
        record = GameRecord.from_json(text)
        state = replay(record)
    except RecordError as exc:
        assert "\n" not in str(exc), str(exc)
        return "refused"
    again = GameRecord.from_json(record.to_json())
    assert again == record
    result = engine.outcome(replay(again))
    assert result == engine.outcome(state)
    if record.complete:
        assert result is not None
        if record.payoffs is not None:
            assert tuple(result.payoffs) == record.payoffs
    return "loaded"


def check_record_file(case: tuple[bytes, str]) -> str:
    """Write the bytes to a file and run ``commerce replay`` (or ``play --resume``) on it:
    exit 0, or 2 with one line."""
    data, command = case
    with _case_folder() as folder, contextlib.chdir(folder):
        path = folder / "case.json"
        path.write_bytes(data)
        argv = ["replay", "--all", str(path)] if command == "replay" else [
            "play", "--resume", str(path)]
        code, _, err = run_cli(argv, "q\n")
    assert code in (0, 2), (argv, code, err[-500:])
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and _ERROR_LINE.match(err), err
        return "refused"
    return "ok"


@st.composite
def damaged_record_files(draw: st.DrawFn) -> tuple[bytes, str]:
    """A damaged record as bytes (with byte-level flips too), and the command to read it."""
    data = bytearray(draw(damaged_records()).encode("utf-8"))
    for _ in range(draw(st.integers(0, 2))):
        if data:
            i = draw(st.integers(0, len(data) - 1))
            data[i] = draw(st.integers(0, 255))
    return bytes(data), draw(st.sampled_from(["replay", "play"]))


# -- the targets, by name ----------------------------------------------------------------------

Target = tuple[Callable[[], st.SearchStrategy[Any]], Callable[[Any], str]]
"""(strategy maker, check)."""


def targets() -> dict[str, Target]:
    """Every fuzz target: ``notation-<family>``, ``cli``, ``records``, ``record-files``."""
    out: dict[str, Target] = {}
    for family in FAMILIES:
        out[f"notation-{family}"] = (functools.partial(notation_texts, family),
                                     functools.partial(check_notation, family))
    out["cli"] = (cli_cases, check_cli)
    out["records"] = (damaged_records, check_record)
    out["record-files"] = (damaged_record_files, check_record_file)
    return out

