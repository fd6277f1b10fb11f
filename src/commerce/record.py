"""Game records: the ruleset (id, version, changed options) and every action, as JSON.

A record replays exactly: :func:`replay` rebuilds every state by applying the recorded actions
through the checked engine. Loading is strict: a damaged, truncated or foreign file raises
:class:`~commerce.errors.RecordError` with a one-line reason and never yields a half-loaded game.

The file keeps what no player may see while the game runs in a section of its own,
``hidden``: the actions (they name every card dealt, and the cards passed face down) and the
seed (it fixes every deal). Outside it are the table and the result: the ruleset, the seats,
the first dealer, whether the game is over and the payoffs. No command prints the hidden
section of an unfinished game; the program must still keep it to resume the game, so a saved
file is not a vault (see ``docs/records.md``). Version 1 files (the actions and the seed at
the top level) still load.

>>> from commerce.rules import find_ruleset
>>> rec = GameRecord(rules=find_ruleset("peel"), players=3, dealer=0, seed=7)
>>> GameRecord.from_json(rec.to_json()) == rec
True
"""

from __future__ import annotations

import json
import os
import secrets
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from commerce import engine
from commerce.core import Action, Transition
from commerce.errors import CommerceError, RecordError
from commerce.family import older_version
from commerce.rules import Ruleset, find_ruleset

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

FORMAT: Final = "commerce-record"
"""The value of the ``format`` key that marks a Commerce record."""
FORMAT_VERSION: Final = 2
"""The record layout version this code writes."""
READ_VERSIONS: Final = (1, 2)
"""The record layout versions this code reads (1: actions and seed at the top level)."""


@dataclass(frozen=True)
class SeatInfo:
    """Who sat in a seat."""

    name: str
    """Display name."""
    agent: str = "human"
    """``human`` or a bot spec such as ``heuristic`` or ``search:iterations=200``."""


@dataclass(frozen=True)
class GameRecord:
    """A game: the rules in force, the table, and every action (chance included), in order."""

    rules: Ruleset
    """The ruleset, with any options changed from its preset."""
    players: int
    """Number of seats."""
    dealer: int
    """The first dealer."""
    seed: int | None = None
    """The driver's seed (informational: the actions, not the seed, are the truth). Kept in
    the hidden section: it predicts every deal."""
    seats: tuple[SeatInfo, ...] = ()
    """Who sat where."""
    actions: tuple[str, ...] = ()
    """Every action in notation, chance actions included."""
    complete: bool = False
    """Whether the game reached its end."""
    payoffs: tuple[int, ...] | None = None
    """Each seat's net result, when complete."""
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    """Free-form metadata (dates, client version); not used for replay."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form (layout version :data:`FORMAT_VERSION`): the table and the
        result first, then ``hidden``: ``{"seed", "actions"}``."""
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "rules": {
                "id": self.rules.id,
                "version": self.rules.version,
                "options": self.rules.changed_options(),
            },
            "players": self.players,
            "dealer": self.dealer,
            "seats": [{"name": s.name, "agent": s.agent} for s in self.seats],
            "complete": self.complete,
            "payoffs": None if self.payoffs is None else list(self.payoffs),
            "extra": self.extra,
            "hidden": {"seed": self.seed, "actions": list(self.actions)},
        }

    def to_json(self) -> str:
        """Serialise as indented JSON."""
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Build from the JSON-ready form.

        :raises RecordError: if anything is missing, of the wrong type, or from another version.
        """
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError("not a Commerce game record (no 'format': 'commerce-record')")
        version = data.get("format_version")
        if (not isinstance(version, int) or isinstance(version, bool)
                or version not in READ_VERSIONS):
            raise RecordError(
                f"record format version {version!r} is not supported "
                f"(this version reads {', '.join(map(str, READ_VERSIONS))})"
            )
        try:
            if version == 1:  # the seed and the actions at the top level
                hidden = data
            else:
                hidden = data["hidden"]
                if not isinstance(hidden, dict):
                    raise RecordError("'hidden' must be an object")
            rules_data = data["rules"]
            base = find_ruleset(str(rules_data["id"]))
            if rules_data["version"] != base.version:
                base = older_version(base, rules_data["version"]) or base
            if rules_data["version"] != base.version:
                raise RecordError(
                    f"the record was played under {base.id} version {rules_data['version']};"
                    f" this software has version {base.version}"
                )
            options = rules_data.get("options") or {}
            if not isinstance(options, dict):
                raise RecordError("'rules.options' must be an object")
            rules = base.with_options(**options) if options else base
            players = _int(data, "players")
            dealer = _int(data, "dealer")
            seed = hidden.get("seed")
            if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
                raise RecordError("'seed' must be an integer or null")
            seats = tuple(
                SeatInfo(str(s["name"]), str(s.get("agent", "human"))) for s in data["seats"]
            )
            actions = hidden["actions"]
            if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
                raise RecordError("'actions' must be a list of strings")
            payoffs = data.get("payoffs")
            if payoffs is not None and (
                not isinstance(payoffs, list) or not all(isinstance(p, int) for p in payoffs)
            ):
                raise RecordError("'payoffs' must be a list of integers or null")
            extra = data.get("extra") or {}
            return cls(
                rules=rules,
                players=players,
                dealer=dealer,
                seed=seed,
                seats=seats,
                actions=tuple(actions),
                complete=bool(data.get("complete", False)),
                payoffs=None if payoffs is None else tuple(payoffs),
                extra=extra if isinstance(extra, dict) else {},
            )
        except RecordError:
            raise
        except CommerceError as exc:
            raise RecordError(f"bad record: {exc}") from None
        except (KeyError, TypeError, AttributeError) as exc:
            raise RecordError(f"bad record: missing or malformed field {exc}") from None

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Parse JSON text.

        :raises RecordError: for anything that is not a valid record.
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not valid JSON (line {exc.lineno}: {exc.msg})") from None
        return cls.from_dict(data)

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write atomically and durably; return the path written (a symbolic link's target).

        The record goes to a temporary file beside *path*, which is flushed to the disk
        (``fsync``) and then renamed over *path*, and the directory is flushed too: a crash, a
        kill or a full disk at any moment leaves either the previous file or the new one,
        never a damaged one. Temporary files left by a save that was killed are removed.

        :raises RecordError: if *path* is not a regular file in a writable directory (see
            :func:`check_save_path`), or the write fails (e.g. the disk is full); the file
            is then exactly as it was.
        """
        target = check_save_path(path)
        try:
            mode: int | None = stat.S_IMODE(target.stat().st_mode)
        except OSError:
            mode = None
        data = self._encoded()
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            _remove_stale_temps(target)
            _write_replace(target, data, mode)
        except OSError as exc:
            kept = "nothing was saved" if mode is None else "the previous save is intact"
            raise RecordError(f"{path}: could not save ({exc.strerror or exc}); {kept}") from None
        return target

    def _encoded(self) -> bytes:
        """The JSON as UTF-8; text that UTF-8 cannot hold (a lone surrogate in a name) is
        written as a JSON escape instead, which reads back to the same string."""
        try:
            return (self.to_json() + "\n").encode("utf-8")
        except UnicodeEncodeError:
            return (json.dumps(self.to_dict(), indent=1) + "\n").encode("ascii")

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> GameRecord:
        """Read and validate a record file, replaying it to be sure it is consistent.

        :raises RecordError: if the file is missing, unreadable, damaged or does not replay.
        """
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise RecordError(f"{path}: no such file") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise RecordError(f"{path}: cannot read ({exc})") from None
        record = cls.from_json(text)
        replay(record)  # raises RecordError if any action is illegal
        return record


_TEMP_SUFFIX: Final = ".tmp"


def check_save_path(path: str | os.PathLike[str]) -> Path:
    """The file a record may be saved to: *path*, or the file a symbolic link names.

    It must be a regular file or not exist yet, in a directory that exists or can be
    created, and that can be written: never a directory, a device or a pipe (renaming a
    record over ``/dev/null`` would replace the device itself).

    :raises RecordError: saying what is wrong with *path*.
    """
    text = os.fspath(path)
    if not text.strip():
        raise RecordError("no file name to save to")
    if text.endswith(("/", os.sep)) or Path(text).name in ("", ".", ".."):
        raise RecordError(f"{text}: names a directory, not a file to save to")
    target = Path(os.path.realpath(text)) if os.path.islink(text) else Path(text)
    try:
        st = target.stat()
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise RecordError(f"{text}: cannot save there ({exc.strerror or exc})") from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise RecordError(f"{text}: is a directory; name a file to save to")
        if not stat.S_ISREG(st.st_mode):
            raise RecordError(f"{text}: is not a regular file (a device or a pipe); "
                              f"name a file to save to")
    folder = target.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent  # the directories that do not exist yet are created
    if not folder.is_dir():
        raise RecordError(f"{text}: {folder} is not a directory")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise RecordError(f"{text}: the directory {folder} is not writable")
    return target


def _write_replace(target: Path, data: bytes, mode: int | None) -> None:
    """Write *data* to a fresh temporary file beside *target*, flush it to the disk, rename it
    over *target* and flush the directory.

    The temporary file is created with the umask's permissions (or given *mode*, the
    permissions of the file it replaces), and locked while it lives, so that
    :func:`_remove_stale_temps` can tell it from one left by a process that died.
    """
    while True:
        tmp = target.parent / f".{target.name}.{secrets.token_hex(6)}{_TEMP_SUFFIX}"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                         0o666)
            break
        except FileExistsError:  # pragma: no cover - 48 random bits met an old name
            continue
    try:
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            if mode is not None:
                os.chmod(tmp, mode)
            os.fsync(fd)
            if fcntl is not None:  # renamed while still locked
                os.replace(tmp, target)
        finally:
            os.close(fd)
        if fcntl is None:  # pragma: no cover - where an open file cannot be renamed
            os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_directory(target.parent)


def _fsync_directory(folder: Path) -> None:
    """Make a rename in *folder* durable (where the system can open a directory)."""
    try:
        dfd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # pragma: no cover - e.g. Windows
        return
    try:
        os.fsync(dfd)
    except OSError:  # pragma: no cover - file systems that cannot flush a directory
        pass
    finally:
        os.close(dfd)


def _remove_stale_temps(target: Path) -> None:
    """Remove the temporary files of earlier saves of *target* that were killed mid-write.

    A save in progress holds a lock on its temporary file; one that nobody holds was left by
    a process that died. Without file locks, only files older than an hour are removed.
    """
    import glob

    pattern = glob.escape(str(target.parent / f".{target.name}.")) + "*" + _TEMP_SUFFIX
    for name in glob.glob(pattern):
        try:
            if fcntl is None:  # pragma: no cover
                if time.time() - os.stat(name).st_mtime > 3600:
                    os.unlink(name)
                continue
            fd = os.open(name, os.O_RDONLY)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.unlink(name)
        except OSError:  # locked: a save in progress (here or in another process)
            pass
        finally:
            os.close(fd)


def _int(data: dict[str, Any], key: str) -> int:
    value = data[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{key!r} must be an integer")
    return value


def _initial_state(record: GameRecord) -> Any:
    try:
        return engine.new_game(record.rules, record.players, dealer=record.dealer)
    except CommerceError as exc:
        raise RecordError(f"bad record: {exc}") from None


def replay_steps(record: GameRecord) -> Iterator[tuple[Action, Transition]]:
    """Each recorded action with the transition it causes, applied through the checked engine.

    :raises RecordError: naming the first action that cannot be parsed or is illegal.
    """
    state = _initial_state(record)
    for i, text in enumerate(record.actions):
        try:
            action = engine.parse_action(state, text)
            transition = engine.apply(state, action)
        except CommerceError as exc:
            raise replay_error(record, i, exc) from None
        yield action, transition
        state = transition.state


def replay_error(record: GameRecord, index: int, reason: object) -> RecordError:
    """The error for the action at *index* (from 0) that does not replay, for *reason*.

    The action and the reason are quoted only for a finished game: in an unfinished one they
    could name cards that no player may see yet (a deal, a card passed face down).
    """
    if record.complete:
        return RecordError(
            f"action {index + 1} ({record.actions[index]!r}) does not replay: {reason}"
        )
    return RecordError(
        f"action {index + 1} does not replay: the record is damaged (the actions of an "
        f"unfinished game are not shown)"
    )


def replay(record: GameRecord) -> Any:
    """The state after every recorded action.

    :raises RecordError: if the record does not replay, or claims an end it does not reach.
    """
    state = None
    for _, transition in replay_steps(record):
        state = transition.state
    if state is None:  # a record with no action yet
        state = _initial_state(record)
    if record.complete:
        result = engine.outcome(state)
        if result is None:
            raise RecordError("the record says the game is complete, but it does not end")
        if record.payoffs is not None and tuple(record.payoffs) != tuple(result.payoffs):
            raise RecordError(
                f"the recorded payoffs {list(record.payoffs)} differ from the replayed "
                f"{list(result.payoffs)}"
            )
    return state
