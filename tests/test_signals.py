"""Signals: a game in the terminal is saved and resumable after SIGTERM or a hang-up (SIGHUP),
and Ctrl-C stops a tournament in worker processes with one line, never a traceback.

These run the real command in a subprocess and send it real signals.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from commerce.apps.jobs import Interrupted
from commerce.apps.tournament import tournament
from commerce.cli import main
from commerce.errors import CommerceError
from commerce.record import GameRecord
from commerce.rules import find_ruleset

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals")

_TIMEOUT = 60.0


class _Output:
    """Everything a pipe delivers, read by a thread, so that the test can wait for a text."""

    def __init__(self, stream: io.BufferedReader) -> None:
        self.text = ""
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: io.BufferedReader) -> None:
        while chunk := stream.read1(4096):
            with self._lock:
                self.text += chunk.decode("utf-8", "replace")

    def wait_for(self, needle: str, count: int = 1) -> str:
        deadline = time.monotonic() + _TIMEOUT
        while time.monotonic() < deadline:
            with self._lock:
                if self.text.count(needle) >= count:
                    return self.text
            time.sleep(0.02)
        raise AssertionError(f"{needle!r} x{count} never came; output so far:\n{self.text}")

    def finish(self) -> str:
        self._thread.join(_TIMEOUT)
        return self.text


def _notation(label: str) -> str:
    """A menu entry of Peel's game ("trade 7♠") in the record's notation ("trade 7S")."""
    from commerce import engine

    rules = find_ruleset("peel")
    return engine.format_action(rules, engine.parse_action(rules, label))


def _env() -> dict[str, str]:
    env = dict(os.environ)
    src = str(Path(__file__).resolve().parent.parent / "src")
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONIOENCODING"] = "utf-8"
    return env


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_play_saves_and_exits_quietly_on_sigterm_and_sighup(capsys, monkeypatch, tmp_path,
                                                             signum):
    path = tmp_path / "g.json"
    with subprocess.Popen(
        [sys.executable, "-m", "commerce", "play", "--seed", "3", "--players", "3",
         "--save", str(path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(),
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        out, err = _Output(proc.stdout), _Output(proc.stderr)
        try:
            text = out.wait_for("Your move>")
            menu = text.rsplit("Your move>", 1)[0]
            move = re.search(r"2\) (\S+ \S+)", menu)
            assert move is not None and move.group(1).startswith("trade"), menu
            made = _notation(move.group(1))
            proc.stdin.write(b"2\n")
            proc.stdin.flush()
            out.wait_for("Your move>", 2)  # the move is made and the game waits again
            proc.send_signal(signum)
            code = proc.wait(_TIMEOUT)
        finally:
            if proc.poll() is None:
                proc.kill()
        errors = err.finish()
        out.finish()
    assert code == 128 + signum
    assert "Traceback" not in errors and "Error" not in errors
    assert f"Saved to {path}" in errors and len(errors.strip().splitlines()) == 1
    record = GameRecord.load(path)
    assert made in record.actions  # the move made before the signal is kept
    # ... and the game resumes from it
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["play", "--resume", str(path)]) == 0
    assert GameRecord.load(path).actions[:len(record.actions)] == record.actions
    capsys.readouterr()


def _read_until(fd: int, needle: bytes, count: int, seen: bytearray) -> None:
    """Read the terminal's side *fd* into *seen* until *needle* came *count* times."""
    import select

    deadline = time.monotonic() + _TIMEOUT
    while seen.count(needle) < count:
        assert time.monotonic() < deadline, bytes(seen).decode("utf-8", "replace")
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            seen += os.read(fd, 4096)
    while select.select([fd], [], [], 0.2)[0]:  # and the rest of what was written
        seen += os.read(fd, 4096)


def _wait_saved(path: Path, move: str, fd: int, seen: bytearray) -> None:
    """Wait until the record at *path* holds *move* (the session saves after each of the
    player's moves), reading the terminal's side *fd* meanwhile."""
    import select

    deadline = time.monotonic() + _TIMEOUT
    while True:
        with contextlib.suppress(Exception):
            if move in GameRecord.load(path).actions:
                return
        assert time.monotonic() < deadline, bytes(seen).decode("utf-8", "replace")
        if select.select([fd], [], [], 0.1)[0]:
            seen += os.read(fd, 4096)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pseudo-terminals as Linux")
def test_play_on_a_terminal_opens_the_table_and_q_saves(tmp_path):
    import pty

    path = tmp_path / "g.json"
    master, slave = pty.openpty()
    try:
        with subprocess.Popen(
            [sys.executable, "-m", "commerce", "play", "--seed", "3", "--players", "3",
             "--save", str(path)],
            stdin=slave, stdout=slave, stderr=slave, env={**_env(), "TERM": "xterm-256color"},
            start_new_session=True,
        ) as proc:
            os.close(slave)
            slave = -1
            try:
                seen = bytearray()
                _read_until(master, b"Your hand", 1, seen)
                os.write(master, b"q")
                code = proc.wait(_TIMEOUT)
                with contextlib.suppress(OSError):  # EIO: the program is gone
                    _read_until(master, b"Saved to", 1, seen)
            finally:
                if proc.poll() is None:
                    proc.kill()
    finally:
        for fd in (master, slave):
            if fd >= 0:
                os.close(fd)
    text = bytes(seen).decode("utf-8", "replace")
    assert code == 0 and "Traceback" not in text
    assert "Your move>" not in text  # not the plain interface
    assert not GameRecord.load(path).complete


_ALT_ON, _ALT_OFF = b"\x1b[?1049h", b"\x1b[?1049l"
_MOUSE_OFF = b"\x1b[?1000l"


def _table_in_a_pty(tmp_path: Path, *, stderr: Any = None) -> tuple[subprocess.Popen[bytes], int]:
    """``commerce play`` at the full-screen table in a pseudo-terminal, once it is drawn:
    the process and the terminal's side (standard error on the terminal unless *stderr*)."""
    import pty

    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "commerce", "play", "--seed", "3", "--players", "3",
         "--save", str(tmp_path / "g.json")],
        stdin=slave, stdout=slave, stderr=slave if stderr is None else stderr,
        env={**_env(), "TERM": "xterm-256color"}, start_new_session=True)
    os.close(slave)
    return proc, master


def _read_to_the_end(proc: subprocess.Popen[bytes], master: int, seen: bytearray) -> int:
    """Read the terminal until the process ends; its status."""
    import select

    deadline = time.monotonic() + _TIMEOUT
    while time.monotonic() < deadline:
        if select.select([master], [], [], 0.1)[0]:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the program is gone
                break
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    return proc.wait(_TIMEOUT)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pseudo-terminals as Linux")
@pytest.mark.parametrize("how,status", [("ctrl-c", 130), ("SIGINT", 130), ("SIGTERM", 143),
                                        ("SIGHUP", 129)])
def test_the_table_saves_restores_the_terminal_and_exits_on_a_signal(tmp_path, how, status):
    proc, master = _table_in_a_pty(tmp_path)
    try:
        seen = bytearray()
        _read_until(master, b"Your hand", 1, seen)
        if how == "ctrl-c":
            os.write(master, b"\x03")  # the key: the terminal is in raw mode
        else:
            proc.send_signal(getattr(signal, how))
        code = _read_to_the_end(proc, master, seen)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    text = bytes(seen).decode("utf-8", "replace")
    assert code == status, (code, text[-600:])
    assert "Traceback" not in text and "ctrl+q" not in text
    last = bytes(seen).rfind(_ALT_ON)
    assert last >= 0 and bytes(seen).find(_ALT_OFF, last) > last, "left in the alternate screen"
    assert bytes(seen).find(_MOUSE_OFF, last) > last, "mouse reporting left on"
    assert not GameRecord.load(tmp_path / "g.json").complete


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pseudo-terminals as Linux")
def test_the_table_is_drawn_on_the_terminal_whatever_standard_error_is(tmp_path):
    err = tmp_path / "err.txt"
    with err.open("wb") as stderr:
        proc, master = _table_in_a_pty(tmp_path, stderr=stderr)
        try:
            seen = bytearray()
            _read_until(master, b"Your hand", 1, seen)
            os.write(master, b"q")
            code = _read_to_the_end(proc, master, seen)
        finally:
            if proc.poll() is None:
                proc.kill()
            os.close(master)
    assert code == 0
    assert b"\x1b[" not in err.read_bytes()  # nothing of the table in the file
    assert "Saved to" in bytes(seen).decode("utf-8", "replace")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pseudo-terminals as Linux")
def test_play_saves_when_its_terminal_goes_away(tmp_path):
    import pty

    path = tmp_path / "g.json"
    master, slave = pty.openpty()
    try:
        with subprocess.Popen(
            [sys.executable, "-m", "commerce", "play", "--seed", "3", "--players", "3",
             "--plain", "--save", str(path)],
            stdin=slave, stdout=slave, stderr=subprocess.PIPE, env=_env(),
            start_new_session=True,
        ) as proc:
            os.close(slave)
            slave = -1
            assert proc.stderr is not None
            err = _Output(proc.stderr)  # where input() writes its prompt on a terminal
            try:
                seen = bytearray()
                _read_until(master, b"Your move>", 1, seen)
                menu = bytes(seen).decode()
                move = re.search(r"2\) (\S+ \S+)", menu)
                assert move is not None, menu
                os.write(master, b"2\r")
                _wait_saved(path, _notation(move.group(1)), master, seen)
                os.close(master)  # the terminal window is closed: reads and writes fail
                master = -1
                proc.send_signal(signal.SIGHUP)
                code = proc.wait(_TIMEOUT)
            finally:
                if proc.poll() is None:
                    proc.kill()
            errors = err.finish()
    finally:
        for fd in (master, slave):
            if fd >= 0:
                os.close(fd)
    assert "Traceback" not in errors and "Exception" not in errors, errors
    assert code in (0, 1, 128 + signal.SIGHUP), (code, errors)
    assert _notation(move.group(1)) in GameRecord.load(path).actions


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
@pytest.mark.parametrize("when", ["playing", "starting"])
def test_ctrl_c_stops_a_tournament_in_workers_with_one_line(when: str) -> None:
    """Ctrl-C once games are played, or the moment the first worker exists (while the pool
    starts: it was once ignored then, and the tournament played on)."""
    command = [sys.executable, "-m", "commerce", "tournament", "--rules", "peel", "--players",
               "3", "--bots", "random,heuristic", "--games", "100000", "--seed", "1", "--jobs",
               "2", "--engine", "reference"]
    # started as from a terminal: Ctrl-C neither ignored nor blocked, whatever the test
    # process inherited or an earlier test left (both pass through exec)
    clean = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
             "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT}); "
             "os.execv(sys.argv[1], sys.argv[1:])")
    with subprocess.Popen(
        [sys.executable, "-c", clean, *command],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(), start_new_session=True,
    ) as proc:
        try:
            deadline = time.monotonic() + _TIMEOUT
            workers = 2 if when == "playing" else 1
            while len(_children(proc.pid)) < workers and time.monotonic() < deadline:
                assert proc.poll() is None
                time.sleep(0.05 if when == "playing" else 0.001)
            assert len(_children(proc.pid)) >= workers, "the worker processes never started"
            if when == "playing":
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
