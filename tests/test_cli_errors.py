"""Bad input and a failing output end every command with one line and a non-zero status.

The fuzz runs every command, with small arguments, against a standard output that cannot be
written (``/dev/full``: every write fails with "No space left on device"): each must say so
in one line of standard error and exit non-zero, without a traceback, and without Python's
"Exception ignored" when it flushes at exit.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from commerce.cli import main

ROOT = Path(__file__).resolve().parent.parent


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    env["COLUMNS"] = "80"
    return env


def _commerce(argv: list[str], *, stdout: object, stdin: str = "",
              timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "commerce", *argv], input=stdin,
                          stdout=stdout, stderr=subprocess.PIPE, text=True, env=_env(),
                          timeout=timeout, check=False)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _full_output_cases(tmp: Path) -> list[tuple[list[str], str]]:
    """Every command (and --help, --version) with arguments that finish in a second or two;
    the text its standard input gets."""
    fast = ["--engine", "reference"]
    return [
        (["--help"], ""),
        (["--version"], ""),
        (["simulate", "--help"], ""),
        (["play", "--plain", "--seed", "1", "--save", str(tmp / "p.json")], "1\n1\nq\n"),
        (["replay", "--all", str(ROOT / "tests" / "records" / "peel-v1-unfinished.json")], ""),
        (["hand", "AS", "KS", "QS"], ""),
        (["hand", "-", "--json"], "AS KS QS\n2H 3H 4H\n"),
        (["compare", "AS KS QS", "2H 2D 2C"], ""),
        (["odds"], ""),
        (["odds", "--rules", "vingt-un"], ""),
        (["score", "A1", "A1", "A1", "BK"], ""),
        (["simulate", "--games", "2", *fast], ""),
        (["simulate", "--games", "2", "--json", *fast], ""),
        (["bench", "--seconds", "0.01"], ""),
        (["tournament", "--games", "2", "--bots", "random,heuristic", *fast], ""),
        (["analyze", "dealer-advantage", "--games", "1", *fast], ""),
        (["analyze", "stand-threshold", "--games", "1", *fast], ""),
        (["analyze", "variants", "--games", "1", "--rules", "peel", *fast], ""),
        (["rules"], ""),
        (["rules", "show", "widow"], ""),
        (["rules", "diff", "peel", "hoyle"], ""),
        (["rules", "--json"], ""),
        (["serve", "--port", str(_free_port()), "--db", f"sqlite:///{tmp / 'db.sqlite'}"], ""),
    ]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_every_command_says_in_one_line_that_a_full_output_failed(tmp_path: Path) -> None:
    cases = _full_output_cases(tmp_path)

    def one(case: tuple[list[str], str]) -> tuple[list[str], subprocess.CompletedProcess[str]]:
        argv, stdin = case
        with open("/dev/full", "w") as full:
            return argv, _commerce(argv, stdout=full, stdin=stdin)

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(one, cases))
    for argv, done in results:
        lines = done.stderr.strip().splitlines()
        assert done.returncode != 0, (argv, done.stderr)
        assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, (
            argv, done.stderr)
        assert len(lines) == 1, (argv, done.stderr)
        word = next((w for w in argv if not w.startswith("-")), "")
        assert lines[0].startswith(f"commerce {word}".strip()), (argv, lines)
        assert "No space left on device" in lines[0], (argv, lines)


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    """``commerce rules | head -1``: the reader left; nothing to report."""
    with subprocess.Popen([sys.executable, "-m", "commerce", "rules", "show", "widow"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env()) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.readline()
        proc.stdout.close()
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=60) == 0, err
    assert err == ""


def test_an_agent_command_that_cannot_be_split_is_one_line(tmp_path: Path) -> None:
    done = _commerce(["play", "--plain", "--agent", "cmd:'", "--save",
                      str(tmp_path / "g.json")], stdout=subprocess.PIPE)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "commerce play: error: --agent cmd:': No closing quotation"], done.stderr


@pytest.mark.parametrize("value", ["inf", "1e400", "nan", "0", "-1", "99999"])
def test_agent_timeout_out_of_range_is_one_line(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path, value: str) -> None:
    code = main(["play", "--plain", "--agent", "cmd:cat", "--agent-timeout", value,
                 "--save", str(tmp_path / "g.json")])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "--agent-timeout" in err and "from 0.01 to 3,600" in err
    assert not (tmp_path / "g.json").exists()


@pytest.mark.parametrize("value", ["9223372036854775808", "2000001", "0", "-5", "1e6"])
def test_bench_games_out_of_range_is_one_line(capsys: pytest.CaptureFixture[str],
                                              value: str) -> None:
    code = main(["bench", "--fast", "--rules", "peel", "--games", value])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert err.startswith("commerce bench: error: argument --games: must be a whole number "
                          "from 1 to 2,000,000"), err


def test_the_json_of_a_full_output_is_not_half_written(tmp_path: Path) -> None:
    """A pipe that works gets the whole object (the flush at the end is the command's)."""
    done = _commerce(["rules", "--json"], stdout=subprocess.PIPE)
    assert done.returncode == 0 and json.loads(done.stdout)["rulesets"]
