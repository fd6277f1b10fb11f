"""No input breaks ``commerce play``: odd numbers and characters at the prompt, odd names,
terminals that cannot draw the suits, out-of-range options; and analyses of a single game."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from commerce.cli import main
from commerce.record import GameRecord


def run(capsys, *argv: str, stdin: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    src = str(Path(__file__).resolve().parent.parent / "src")
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


@pytest.mark.parametrize("number", ["9" * 5000, "0", "8", "²", "٣"],
                         ids=["5000-digits", "zero", "too-big", "superscript", "arabic-indic"])
def test_a_number_that_is_no_option_reprompts(capsys, monkeypatch, tmp_path, number):
    path = tmp_path / "g.json"
    code, out, err = run(capsys, "play", "--seed", "1", "--players", "3", "--save", str(path),
                         stdin=f"{number}\nq\n", monkeypatch=monkeypatch)
    assert code == 0 and "Traceback" not in err
    assert out.count("Your move>") == 2  # asked again after the bad number
    # '²' and '٣' are digits to str.isdigit() but not options (nor cards): refused either way
    assert "No such option: choose a number from 1 to" in out or "Not possible" in out
    if number.isascii():
        assert "No such option: choose a number from 1 to" in out
    assert GameRecord.load(path).actions  # saved on quitting


@pytest.mark.parametrize("name", ["\udcff", "\udced\udcb3\udcbf", "a\nb", "", "   ", "x" * 41])
def test_a_name_that_cannot_be_shown_or_saved_is_refused(capsys, tmp_path, name):
    path = tmp_path / "g.json"
    code, out, err = run(capsys, "play", "--seed", "1", "--name", name, "--save", str(path))
    assert code == 2 and out == ""
    assert err == "commerce play: error: --name: use 1 to 40 printable characters\n"
    assert not path.exists()


def test_a_name_with_a_surrogate_from_the_real_command_line(tmp_path):
    # bytes that are not UTF-8 reach sys.argv as lone surrogates (surrogateescape)
    path = tmp_path / "g.json"
    proc = subprocess.run(
        [os.fsencode(sys.executable), b"-m", b"commerce", b"play", b"--name", b"\xff",
         b"--save", os.fsencode(path)],
        input=b"q\n", capture_output=True, env=_env(), check=False)
    assert proc.returncode == 2
    assert proc.stderr == b"commerce play: error: --name: use 1 to 40 printable characters\n"


@pytest.mark.parametrize("env", [
    {"PYTHONIOENCODING": "ascii"},
    {"LC_ALL": "C", "LANG": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0",
     "PYTHONIOENCODING": ""},
], ids=["ascii", "C-locale"])
def test_a_terminal_that_cannot_draw_suits_gets_letters(tmp_path, env):
    path = tmp_path / "g.json"
    proc = subprocess.run(
        [sys.executable, "-m", "commerce", "play", "--seed", "1", "--players", "3",
         "--save", str(path)],
        input=b"A\xe2\x99\xa0\n9\nq\n",  # 'A♠' typed in UTF-8 (undecodable here), then quit
        capture_output=True, env=_env(**env), check=False)
    out = proc.stdout.decode("ascii")  # nothing but ASCII was written
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"Traceback" not in proc.stderr
    hand = next(line for line in out.splitlines() if line.startswith("Your hand:"))
    cards = hand.split(":")[1].split("(")[0].split()
    assert len(cards) == 3 and all(c[-1] in "SHDC" for c in cards)  # A♠ is shown as AS
    assert "- Deal 1:" in out  # the dash that opens a deal
    assert out.count("Your move>") == 3  # the undecodable line and '9' were refused
    assert GameRecord.load(path).actions


def test_play_numeric_options_have_clear_ranges(capsys):
    for argv, needle in [
        (["--seed", "-1"], "--seed: must be a whole number from 0 to 9223372036854775807"),
        (["--seed", str(2**63)], "--seed: must be a whole number from 0 to"),
        (["--seed", "9" * 5000], "--seed: must be a whole number from 0 to"),
        (["--players", "x"], "--players: must be a whole number of seats"),
        (["--players", "9" * 5000], "--players: must be a whole number of seats"),
        (["--players", "2"], "is for 3 to 12 players, not 2"),
        (["--players", "0"], "is for 3 to 12 players, not 0"),
        (["--pack", "33"], "--pack: invalid choice"),
    ]:
        with pytest.raises(SystemExit) as info:  # argparse's errors end the program
            code = main(["play", *argv])
            raise SystemExit(code)
        _, err = capsys.readouterr()
        assert info.value.code == 2, argv
        assert needle in err, (argv, err)
        assert err.startswith("commerce play: error:") and err.count("\n") == 1, err


def test_the_largest_seed_plays(capsys, monkeypatch, tmp_path):
    path = tmp_path / "g.json"
    code, _, _ = run(capsys, "play", "--seed", str(2**63 - 1), "--players", "3",
                     "--save", str(path), stdin="q\n", monkeypatch=monkeypatch)
    assert code == 0 and GameRecord.load(path).seed == 2**63 - 1


@pytest.mark.parametrize("rules", ["peel", "cox"])
def test_dealer_advantage_of_a_single_game_says_it_has_no_interval(capsys, rules):
    code, out, err = run(capsys, "analyze", "dealer-advantage", "--rules", rules,
                         "--players", "3", "--games", "1")
    assert code == 0 and err == ""
    assert "no 95% interval from a single game" in out.splitlines()[-1]
    code, out, _ = run(capsys, "analyze", "dealer-advantage", "--rules", rules,
                       "--players", "3", "--games", "1", "--json")
    assert json.loads(out)["advantage"]["ci95"] == [None, None]
