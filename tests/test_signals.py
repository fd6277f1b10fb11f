"""Signals: Ctrl-C stops a tournament in worker processes with one line, never a traceback.

These run the real command in a subprocess and send it real signals.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from commerce.errors import CommerceError
from commerce.rules import find_ruleset
from commerce.tournament import Interrupted, tournament

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals")

_TIMEOUT = 60.0


def _env() -> dict[str, str]:
    env = dict(os.environ)
    src = str(Path(__file__).resolve().parent.parent / "src")
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _children(pid: int) -> list[int]:
    tasks = Path(f"/proc/{pid}/task")
    kids: list[int] = []
    for task in tasks.iterdir() if tasks.is_dir() else ():
        try:
            kids += [int(k) for k in (task / "children").read_text().split()]
        except OSError:
            continue
    return kids


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc to see workers")
def test_ctrl_c_stops_a_tournament_in_workers_with_one_line():
    with subprocess.Popen(
        [sys.executable, "-m", "commerce", "tournament", "--rules", "peel", "--players", "3",
         "--bots", "random,heuristic", "--games", "100000", "--seed", "1", "--jobs", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(), start_new_session=True,
    ) as proc:
        try:
            deadline = time.monotonic() + _TIMEOUT
            while len(_children(proc.pid)) < 2 and time.monotonic() < deadline:
                assert proc.poll() is None
                time.sleep(0.05)
            assert len(_children(proc.pid)) >= 2, "the worker processes never started"
            time.sleep(0.5)  # some games are played
            os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C does: the whole process group
            out, err = proc.communicate(timeout=_TIMEOUT)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
    text = err.decode()
    assert proc.returncode == 130
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    assert re.fullmatch(r"commerce tournament: interrupted after \d+ of 100000 games\n", text)
    assert out == b""


def test_an_interrupted_tournament_says_how_many_games_were_played():
    blocks_done = []

    def progress(games: int) -> None:
        blocks_done.append(games)
        if len(blocks_done) == 3:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as info:
        tournament(find_ruleset("peel"), players=3, bots=["random", "heuristic"], games=20,
                   seed=1, progress=progress)
    # three blocks of two games were finished (their results are dropped)
    assert str(info.value) == "interrupted after 6 of 20 games"
    assert isinstance(info.value, KeyboardInterrupt) and not isinstance(info.value, CommerceError)
