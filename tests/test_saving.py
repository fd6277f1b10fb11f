"""Saving a record: only to a regular file in a writable directory, atomically and durably; a
full disk or a killed save never damages the previous save."""

from __future__ import annotations

import errno
import io
import os
import stat
import sys
from pathlib import Path

import pytest

from commerce.bots import make_bot
from commerce.cli import main
from commerce.driver import play_game
from commerce.errors import RecordError
from commerce.record import GameRecord, SeatInfo, check_save_path
from commerce.rules import find_ruleset


def _record(seed: int = 1) -> GameRecord:
    return play_game(find_ruleset("peel"), [make_bot("random")] * 3, seed=seed)


_NOT_FILES = [
    ("dir", "is a directory"),
    ("dir/", "names a directory"),
    ("/", "names a directory"),
    (os.devnull, "is not a regular file"),
    ("fifo", "is not a regular file"),
    ("file/x.json", "Not a directory"),
    ("", "file name"),
]


def _not_a_file(monkeypatch, tmp_path: Path, where: str) -> tuple[str, os.stat_result | None]:
    """The path *where* names among a directory, a file and a pipe made in *tmp_path* (or the
    null device, or the root): with its status, to see it untouched afterwards."""
    real_replace = os.replace

    def replace(src, dst) -> None:  # should the check fail, never replace a device here
        assert Path(dst).resolve().is_relative_to(tmp_path.resolve()), dst
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    (tmp_path / "dir").mkdir()
    (tmp_path / "file").write_text("x")
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo")
    elif where == "fifo":
        pytest.skip("no named pipes here")
    target = where if where in ("/", os.devnull, "") else str(tmp_path / where) + (
        "/" if where.endswith("/") else "")
    return target, os.stat(target) if where and os.path.exists(target) else None


def _untouched(target: str, before: os.stat_result | None) -> None:
    if before is not None:  # the device, pipe or directory is as it was
        after = os.stat(target)
        assert (after.st_mode, after.st_ino, after.st_rdev) == (
            before.st_mode, before.st_ino, before.st_rdev)
    assert not stat.S_ISREG(os.stat(os.devnull).st_mode) or os.name == "nt"


@pytest.mark.parametrize("where,needle", _NOT_FILES)
def test_save_refuses_what_is_not_a_regular_file(monkeypatch, tmp_path, where, needle):
    target, before = _not_a_file(monkeypatch, tmp_path, where)
    with pytest.raises(RecordError, match=needle):
        _record().save(target)
    with pytest.raises(RecordError, match=needle):
        check_save_path(target)
    _untouched(target, before)


def test_a_symbolic_link_saves_to_the_file_it_names(tmp_path):
    real = tmp_path / "real.json"
    _record(1).save(real)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    assert _record(2).save(link) == real
    assert link.is_symlink() and GameRecord.load(real) == _record(2)


def _full_disk(monkeypatch, *, after: int = 0) -> list[int]:
    """Make every write after the first *after* fail as a full disk does."""
    writes = []
    real_write = os.write

    def write(fd: int, data: bytes) -> int:
        writes.append(fd)
        if len(writes) > after:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", write)
    return writes


def test_a_full_disk_keeps_the_previous_save_intact(monkeypatch, tmp_path):
    path = tmp_path / "g.json"
    _record(1).save(path)
    before = path.read_bytes()
    _full_disk(monkeypatch)
    with pytest.raises(RecordError, match="No space left on device.*previous save is intact"):
        _record(2).save(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]  # no temporary file left


def test_a_save_killed_mid_write_leaves_nothing_behind_at_the_next_save(tmp_path):
    path = tmp_path / "g.json"
    _record(1).save(path)
    # what a save killed mid-write leaves: an unlocked, half-written temporary file
    stale = tmp_path / ".g.json.0123456789ab.tmp"
    stale.write_text('{"format": "commerce-rec')
    other = tmp_path / ".other.json.0123456789ab.tmp"  # another record's: not ours to remove
    other.write_text("{")
    _record(2).save(path)
    assert not stale.exists() and other.exists()
    assert GameRecord.load(path) == _record(2)


@pytest.mark.skipif(sys.platform == "win32", reason="file locks")
def test_a_save_in_progress_elsewhere_is_not_removed(tmp_path):
    import fcntl

    path = tmp_path / "g.json"
    busy = tmp_path / ".g.json.0123456789ab.tmp"
    with open(busy, "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a save in progress holds it
        _record(1).save(path)
        assert busy.exists()
    _record(1).save(path)
    assert not busy.exists()


def test_saves_are_flushed_to_the_disk_before_the_rename(monkeypatch, tmp_path):
    path = tmp_path / "g.json"
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        kind = "dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file"
        events.append(f"fsync {kind}")
        real_fsync(fd)

    def replace(a, b) -> None:
        events.append("rename")
        real_replace(a, b)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    _record().save(path)
    assert events == ["fsync file", "rename", "fsync dir"]


def test_a_save_keeps_the_file_s_permissions(tmp_path):
    path = tmp_path / "g.json"
    _record(1).save(path)
    path.chmod(0o600)
    _record(2).save(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_name_utf8_cannot_hold_is_saved_as_a_replacement_and_reads_back(tmp_path):
    path = tmp_path / "g.json"
    record = GameRecord(rules=find_ruleset("peel"), players=3, dealer=0, seed=1,
                        seats=(SeatInfo("\udcff"), SeatInfo("b", "random"),
                               SeatInfo("c", "random")))
    record.save(path)  # a lone surrogate cannot be saved (nor read back): U+FFFD instead
    assert GameRecord.load(path).seats[0].name == "\ufffd"


def test_check_save_path_accepts_a_new_file_in_a_new_directory(tmp_path):
    target = tmp_path / "new" / "deeper" / "g.json"
    assert check_save_path(target) == target
    assert not (tmp_path / "new").exists()  # checking creates nothing
    _record().save(target)
    assert GameRecord.load(target) == _record()


# The command line: refused before the game starts, and reported during it.

def _play(capsys, monkeypatch, stdin: str | None, *argv: str) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("where,needle", _NOT_FILES)
def test_play_refuses_to_save_to_what_is_not_a_regular_file(capsys, monkeypatch, tmp_path,
                                                             where, needle):
    target, before = _not_a_file(monkeypatch, tmp_path, where)
    code, out, err = _play(capsys, monkeypatch, None, "--seed", "1", "--players", "3",
                           "--save", target)
    assert code == 2 and out == ""
    assert err.startswith("commerce play: error:") and needle in err and err.count("\n") == 1
    _untouched(target, before)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root may write anywhere")
def test_play_refuses_a_directory_that_cannot_be_written(capsys, monkeypatch, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        code, _, err = _play(capsys, monkeypatch, None, "--seed", "1",
                             "--save", str(locked / "g.json"))
    finally:
        locked.chmod(0o700)
    assert code == 2 and "is not writable" in err


def test_a_full_disk_during_a_game_is_reported_and_loses_nothing(capsys, monkeypatch, tmp_path):
    path = tmp_path / "g.json"
    code, _, _ = _play(capsys, monkeypatch, "q\n", "--seed", "5", "--players", "3",
                       "--save", str(path))
    assert code == 0
    before = path.read_bytes()
    saved = GameRecord.load(path)
    # The disk fills after the save that opens the resumed game: the move's save and the
    # save on quitting fail.
    _full_disk(monkeypatch, after=1)
    code, _, err = _play(capsys, monkeypatch, "2\nq\n", "--resume", str(path))
    monkeypatch.undo()
    lines = err.strip().splitlines()
    assert code == 2 and "Traceback" not in err
    assert len(lines) == 2
    assert lines[0].startswith("commerce play: warning:") and "the game goes on" in lines[0]
    assert lines[1].startswith("commerce play: error:")
    assert all("No space left on device" in x and "previous save is intact" in x for x in lines)
    assert path.read_bytes() == before and GameRecord.load(path) == saved
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


def test_resume_refuses_a_device_without_reading_it(capsys):
    code = main(["play", "--resume", os.devnull])
    _, err = capsys.readouterr()
    assert code == 2 and "is not a regular file" in err
    assert not Path(os.devnull).is_file()


def test_a_full_disk_at_the_end_still_shows_the_result(capsys, monkeypatch, tmp_path):
    path = tmp_path / "g.json"
    _play(capsys, monkeypatch, "q\n", "--seed", "5", "--players", "3", "--save", str(path))
    before = path.read_bytes()
    _full_disk(monkeypatch, after=1)
    code, out, err = _play(capsys, monkeypatch, "1\n" * 300, "--resume", str(path))
    monkeypatch.undo()
    assert code == 2 and "Final result:" in out and "Record saved" not in out
    assert err.strip().splitlines()[-1].startswith("commerce play: error:")
    assert "previous save is intact" in err and path.read_bytes() == before
