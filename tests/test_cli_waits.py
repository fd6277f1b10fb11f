"""A long wait is explained on a terminal: the first run of the compiled simulator on a
machine compiles it (15 s to a minute) and says so, on standard error, once the wait passes
a second; piped output stays clean."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMPILING = "loading the simulator (its first run compiles it, once)"
"""What the first run says (:data:`commerce.cli.wait.COMPILING`)."""

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")


def _read_all(fd: int, into: list[bytes]) -> None:
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the other end closed
            return
        if not chunk:
            return
        into.append(chunk)


def _with_terminal_stderr(argv: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    """Run ``commerce`` with standard error on a pseudo-terminal: its status, standard output
    (a pipe) and what the terminal got."""
    master, slave = os.openpty()
    got: list[bytes] = []
    reader = threading.Thread(target=_read_all, args=(master, got))
    reader.start()
    try:
        done = subprocess.run([sys.executable, "-m", "commerce", *argv], stdout=subprocess.PIPE,
                              stderr=slave, stdin=subprocess.DEVNULL, env=env, timeout=600,
                              check=False)
    finally:
        os.close(slave)
        reader.join(timeout=10)
        os.close(master)
    return done.returncode, done.stdout.decode(), b"".join(got).decode(errors="replace")


def test_a_cold_start_says_it_compiles_the_simulator(tmp_path: Path) -> None:
    """An empty numba cache: ``commerce simulate`` was silent for 15 to 60 s."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), NUMBA_CACHE_DIR=str(tmp_path / "nb"),
               COLUMNS="80")
    code, out, terminal = _with_terminal_stderr(["simulate", "--games", "2"], env)
    assert code == 0, terminal
    assert "peel: 2 games" in out and COMPILING not in out
    assert f"{COMPILING}: 1 s" in terminal, terminal
    assert terminal.endswith("\r\x1b[K"), repr(terminal[-80:])  # wiped at the end
    widest = max(len(part) for part in terminal.replace("\x1b[K", "").split("\r"))
    assert widest < 80
    # the code is now in the cache, and standard error is a pipe: nothing is said
    piped = subprocess.run([sys.executable, "-m", "commerce", "simulate", "--games", "2"],
                           capture_output=True, text=True, env=env, timeout=600, check=False)
    assert piped.returncode == 0 and piped.stderr == "", piped.stderr
    from commerce.cli.wait import COMPILING as said

    assert said == COMPILING


def test_a_notice_appears_after_a_second_and_is_wiped() -> None:
    from commerce.cli.wait import notice

    master, slave = os.openpty()
    got: list[bytes] = []
    reader = threading.Thread(target=_read_all, args=(master, got))
    reader.start()
    with open(slave, "w", encoding="utf-8", closefd=True) as terminal:
        with notice("waiting for the thing", after=0.2, stream=terminal):
            time.sleep(1.5)
        with notice("a short one", after=0.5, stream=terminal):
            pass
    reader.join(timeout=10)
    os.close(master)
    text = b"".join(got).decode()
    assert "\rwaiting for the thing: 0 s\x1b[K" in text and "\rwaiting for the thing: 1 s" in text
    assert text.endswith("\r\x1b[K") and "a short one" not in text


def test_no_notice_off_a_terminal(tmp_path: Path) -> None:
    from commerce.cli.wait import notice

    with open(tmp_path / "err.txt", "w", encoding="utf-8") as err:
        with notice("waiting", after=0.0, stream=err):
            time.sleep(0.3)
    assert (tmp_path / "err.txt").read_text() == ""
