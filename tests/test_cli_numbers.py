"""Every number option of every command has a documented range, enforced in one line.

The table lists each command's number flags with their range; each is run with junk and
out-of-range values and must exit with status 2 and one line on standard error, before any
work is done. Values inside the range are checked to parse instead (they would run the
command). Each range must also be named in the command's ``--help``.
"""

from __future__ import annotations

import math

import pytest

from commerce.bots import make_bot
from commerce.cli import BOTS_HELP, GAMES, JOBS, PLAYERS, SECONDS, SEED, build_parser, main, span
from commerce.cli.simulate import BENCH_GAMES
from commerce.rules import find_ruleset, option_bounds, option_doc, option_names

JUNK = ["nan", "inf", "-1", "0", str(10**12), "1e9", "abc"]
"""The values every number flag is run with."""

ANALYSES = ["analyze dealer-advantage", "analyze stand-threshold", "analyze variants"]

# (command words, flag, range or the set of valid values)
FLAGS: list[tuple[str, str, tuple[float, float] | frozenset[int]]] = [
    ("simulate", "--players", PLAYERS),
    ("simulate", "--games", GAMES),
    ("simulate", "--seed", SEED),
    ("bench", "--seconds", SECONDS),
    ("bench --fast", "--games", BENCH_GAMES),
    ("tournament", "--players", PLAYERS),
    ("tournament", "--games", GAMES),
    ("tournament", "--seed", SEED),
    ("tournament", "--jobs", JOBS),
    *((a, flag, rng) for a in ANALYSES
      for flag, rng in (("--players", PLAYERS), ("--games", GAMES), ("--seed", SEED),
                        ("--jobs", JOBS))),
    ("play", "--players", PLAYERS),
    ("play", "--seed", SEED),
    ("score A1 A1 A1", "--base", frozenset({1, 2, 3, 4})),
    ("odds", "--pack", frozenset({52, 32})),
    ("hand AS 2S 3S", "--pack", frozenset({52, 32})),
]

NUMBER_OPTIONS = [n for n in option_names() if option_bounds(n) is not None]

# (command words, flag, bot spec prefix, range)
BOT_FLAGS = [
    (cmd, flag, prefix, rng)
    for cmd, flag in (("simulate", "--bots"), ("tournament", "--bots"),
                      ("analyze dealer-advantage", "--bots"), ("play", "--bot"))
    for prefix, rng in (("search:iterations=", (1, 100_000)),
                        ("search:ms=", (math.ulp(0.0), 60_000.0)),  # above 0
                        ("heuristic:boldness=", (0.0, 1.0)))
]


def _valid(text: str, rng: tuple[float, float] | frozenset[int], *, whole: bool) -> bool:
    """Whether *text* lies in *rng*: a set of whole numbers, or a range with its ends."""
    if whole:
        if not text.lstrip("-").isdigit():
            return False
        value: float = int(text)
    else:
        try:
            value = float(text)
        except ValueError:
            return False
    if isinstance(rng, frozenset):
        return value in rng
    lo, hi = rng
    return lo <= value <= hi  # nan compares false


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str]:
    code = main(argv)
    _, err = capsys.readouterr()
    return code, err


def _assert_one_line_error(code: int, err: str, command: str) -> None:
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"commerce {command.split()[0]}: error: "), err
    assert "Traceback" not in err


def _cases() -> list[tuple[list[str], str, bool]]:
    """(argv, command, whether the value is valid) for every flag and junk value."""
    out = []
    for words, flag, rng in FLAGS:
        whole = isinstance(rng, frozenset) or isinstance(rng[0], int)
        for value in JUNK:
            out.append(([*words.split(), flag, value], words.split()[0] if not
                        words.startswith("analyze") else words, _valid(value, rng, whole=whole)))
    return out


@pytest.mark.parametrize(("argv", "command", "valid"), _cases(),
                         ids=lambda x: " ".join(x) if isinstance(x, list) else None)
def test_number_flags_refuse_junk_in_one_line(capsys, argv, command, valid):
    if valid:  # it would run the command: check that the value parses instead
        args = build_parser().parse_args(argv)
        assert getattr(args, argv[-2].lstrip("-")) == int(argv[-1])
        return
    code, err = _run(capsys, argv)
    _assert_one_line_error(code, err, command)


@pytest.mark.parametrize("name", NUMBER_OPTIONS)
def test_every_number_option_of_set_refuses_junk_in_one_line(capsys, name):
    lo, hi = option_bounds(name) or (0, 0)
    refused = 0
    for value in JUNK:
        if value.lstrip("-").isdigit() and lo <= int(value) <= hi:
            # inside the range: accepted, unless it clashes with another option of peel
            try:
                find_ruleset("peel").with_options(**{name: value})
            except ValueError as exc:
                assert "is not from" not in str(exc)
            continue
        code, err = _run(capsys, ["odds", "--set", f"{name}={value}"])
        _assert_one_line_error(code, err, "odds")
        assert name in err
        refused += 1
    assert refused >= 5  # nan, inf, 10**12, 1e9 and abc at least


@pytest.mark.parametrize(("command", "flag", "prefix", "rng"), BOT_FLAGS)
def test_bot_options_refuse_junk_in_one_line(capsys, tmp_path, command, flag, prefix, rng):
    refused = 0
    for value in JUNK:
        if _valid(value, rng, whole=isinstance(rng[0], int)):
            assert make_bot(prefix + value)  # it would run a game: build the bot instead
            continue
        argv = [*command.split(), flag, "random," + prefix + value]
        if command == "play":
            argv += ["--save", str(tmp_path / "never.json")]
        code, err = _run(capsys, argv)
        _assert_one_line_error(code, err, command)
        assert prefix.split(":")[1].rstrip("=") in err
        refused += 1
    assert refused >= 5
    assert not (tmp_path / "never.json").exists()  # refused before the game began


def test_help_names_every_range(capsys):
    for words, flag, rng in FLAGS:
        if isinstance(rng, frozenset):
            continue  # argparse lists the choices itself
        main([*words.split()[:2 if words.startswith("analyze") else 1], "--help"])
        out = " ".join(capsys.readouterr()[0].split())
        assert flag in out and span(rng) in out, (words, flag)
    for command, _, _, _ in BOT_FLAGS:
        main([*command.split(), "--help"])
        assert BOTS_HELP in " ".join(capsys.readouterr()[0].split()), command


@pytest.mark.parametrize("rules_id", ["peel", "widow", "cox"])
def test_rules_show_names_every_option_range(capsys, rules_id):
    from commerce.rules import family_option_names

    main(["rules", "show", rules_id])
    out = capsys.readouterr()[0]
    names = [n for n in family_option_names(find_ruleset(rules_id)) if n in NUMBER_OPTIONS]
    assert names
    for name in names:
        lo, hi = option_bounds(name) or (0, 0)
        assert f"From {lo} to {hi}." in option_doc(name)
        assert f"{name} = " in out and " ".join(option_doc(name).split()) in " ".join(out.split())


def test_bench_refuses_a_time_that_never_ends_before_timing_anything(capsys, monkeypatch):
    import commerce.bench

    called: list[float] = []
    monkeypatch.setattr(commerce.bench, "run_bench", lambda s: called.append(s) or {})
    for value in ("nan", "inf", "1e999", "-inf"):
        code, err = _run(capsys, ["bench", "--seconds", value])
        _assert_one_line_error(code, err, "bench")
    assert called == []


def test_argparse_errors_are_one_line_too(capsys):
    for argv, command in ((["simulate", "--players"], "simulate"),
                          (["simulate", "--no-such-flag"], "simulate"),
                          (["analyze"], "analyze"),
                          (["score", "A1", "--base", "9"], "score")):
        code, err = _run(capsys, argv)
        _assert_one_line_error(code, err, command)
    code, err = _run(capsys, ["no-such-command"])
    assert code == 2 and len(err.strip().splitlines()) == 1 and err.startswith("commerce: error")


def test_help_and_version_still_exit_0(capsys):
    assert main(["--version"]) == 0
    assert main(["simulate", "--help"]) == 0
    capsys.readouterr()

