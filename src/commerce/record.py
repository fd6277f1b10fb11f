"""Game records: the ruleset (id, version, changed options) and every action, as JSON.

A record replays exactly: :func:`replay` rebuilds every state by applying the recorded actions
through the checked engine. Loading is strict: a damaged, truncated or foreign file raises
:class:`~commerce.errors.RecordError` with a one-line reason and never yields a half-loaded game.

The file keeps what no player may see while the game runs in a section of its own,
``hidden``: the actions (they name every card dealt, and the cards passed face down) and the
seed (it fixes every deal). Outside it are the table and the result: the ruleset, the seats,
the first dealer, whether the game is over and the payoffs. No command prints the hidden
section of an unfinished game; the program must still keep it to resume the game. A saved
unfinished game (:meth:`GameRecord.save`, layout version 3) keeps the hidden section sealed
with a key kept outside the file (:mod:`commerce.seal`): out of plain sight, but not a vault
(see ``docs/records.md``). Version 1 files (the actions and the seed at the top level) and
version 2 files (the hidden section in plain) still load.

>>> from commerce.rules import find_ruleset
>>> rec = GameRecord(rules=find_ruleset("peel"), players=3, dealer=0, seed=7)
>>> GameRecord.from_json(rec.to_json()) == rec
True
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
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
from commerce.family import GameState, older_version
from commerce.rules import Ruleset, find_ruleset
from commerce.seal import key_path, local_key, seal, unseal

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

FORMAT: Final = "commerce-record"
"""The value of the ``format`` key that marks a Commerce record."""
FORMAT_VERSION: Final = 2
"""The record layout version of :meth:`GameRecord.to_dict` (the hidden section in plain): a
finished game's file, and the JSON the server keeps and sends."""
SEALED_VERSION: Final = 3
"""The layout version of an unfinished game's file: version 2 with the hidden section sealed
(``"hidden": {"sealed": "b2s1:..."}``, :mod:`commerce.seal`)."""
READ_VERSIONS: Final = (1, 2, 3)
"""The record layout versions this code reads (1: actions and seed at the top level; 3: the
hidden section sealed)."""
MAX_RECORD_BYTES: Final = 8 * 1024 * 1024
"""The largest record file (and JSON text) that is read: 8 MiB."""
MAX_ACTIONS: Final = 100_000
"""The most actions a record may hold. The longest game measured between random bots in any
preset took 33,785 (no-pair-or-point at 10 players); a game in the terminal takes far fewer."""
MAX_ACTION_CHARS: Final = 300
"""The longest action text (Cox's deal of the whole 80-card supply takes 244 characters)."""
MAX_JSON_DEPTH: Final = 20
"""How deeply the JSON of a record may nest (the record itself needs 3; the rest is for
``extra``)."""
MAX_NAME_CHARS: Final = 200
"""The longest seat name or agent spec."""
MAX_SEED: Final = 2**64
"""The largest seed (in absolute value) a record may hold."""


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

    def to_dict(self) -> dict[str, object]:
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
    def from_dict(cls, data: object) -> GameRecord:
        """Build from the JSON-ready form, validating every field before it is used.

        :raises RecordError: if anything is missing, of the wrong type, out of range, or from
            another version (see :data:`MAX_ACTIONS` and the other limits).
        """
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError("not a Commerce game record (no 'format': 'commerce-record')")
        version = data.get("format_version")
        if not _is_int(version) or version not in READ_VERSIONS:
            raise RecordError(
                f"record format version {_short(version)} is not supported "
                f"(this version reads {', '.join(map(str, READ_VERSIONS))})"
            )
        try:
            hidden: Any = data if version == 1 else data.get("hidden")
            if version == SEALED_VERSION:
                hidden = _unsealed(hidden)
            elif version != 1:  # version 1: the seed and the actions at the top level
                if not isinstance(hidden, dict):
                    raise RecordError("'hidden' must be an object with 'seed' and 'actions'")
            rules = _rules(data.get("rules"))
            players = _int(data, "players")
            if players not in rules.player_range():
                raise RecordError(f"'players': {rules.name} is for "
                                  f"{rules.players_phrase()}, not {players}")
            dealer = _int(data, "dealer")
            if not 0 <= dealer < players:
                raise RecordError(f"'dealer' must be a seat from 0 to {players - 1}, not {dealer}")
            seed = hidden.get("seed")
            if seed is not None and (not _is_int(seed) or not -MAX_SEED <= seed <= MAX_SEED):
                raise RecordError(f"'seed' must be an integer from {-MAX_SEED} to {MAX_SEED} "
                                  "or null")
            seats = _seats(data.get("seats"), players)
            actions = _actions(hidden.get("actions"))
            complete = data.get("complete", False)
            if not isinstance(complete, bool):
                raise RecordError("'complete' must be true or false")
            payoffs = data.get("payoffs")
            if payoffs is not None:
                if not complete:
                    raise RecordError("'payoffs' are given, but the game is not complete")
                if (not isinstance(payoffs, list) or len(payoffs) != players
                        or not all(_is_int(p) for p in payoffs)):
                    raise RecordError(f"'payoffs' must be a list of {players} integers or null")
            extra = data.get("extra")
            if extra is not None and not isinstance(extra, dict):
                raise RecordError("'extra' must be an object or null")
            return cls(
                rules=rules,
                players=players,
                dealer=dealer,
                seed=seed,
                seats=seats,
                actions=actions,
                complete=complete,
                payoffs=None if payoffs is None else tuple(payoffs),
                extra=extra or {},
            )
        except RecordError:
            raise
        except CommerceError as exc:
            raise RecordError(f"bad record: {exc}") from None
        except (KeyError, TypeError, AttributeError) as exc:  # pragma: no cover - a safety net
            raise RecordError(f"bad record: missing or malformed field {exc}") from None

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Parse JSON text (at most :data:`MAX_RECORD_BYTES` characters, nested at most
        :data:`MAX_JSON_DEPTH` deep, numbers finite and of at most 30 digits).

        :raises RecordError: for anything that is not a valid record.
        """
        if len(text) > MAX_RECORD_BYTES:
            raise RecordError(f"a record is at most {MAX_RECORD_BYTES:,} characters; this text "
                              f"has {len(text):,}")
        depth = _nesting(text)
        if depth > MAX_JSON_DEPTH:
            raise RecordError(f"not a record: JSON nested {depth:,} deep (a record is at most "
                              f"{MAX_JSON_DEPTH} deep)")
        try:
            data = json.loads(text, parse_int=_parse_int, parse_float=_parse_float,
                              parse_constant=_parse_constant)
            # A "\ud800" escape gives a lone surrogate, which can be neither printed nor saved.
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except json.JSONDecodeError as exc:
            raise RecordError(f"not valid JSON (line {exc.lineno}: {exc.msg})") from None
        except UnicodeEncodeError:
            raise RecordError("not valid text: a string holds half of a surrogate pair") from None
        except _NumberError as exc:
            raise RecordError(f"not a record: {exc}") from None
        except (ValueError, RecursionError) as exc:  # pragma: no cover - guarded above
            raise RecordError(f"not valid JSON ({exc})") from None
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

    def to_saved_dict(self) -> dict[str, object]:
        """What :meth:`save` writes: :meth:`to_dict`, except that an unfinished game's hidden
        section is sealed with this user's record key (layout version 3, made if there is
        none: :func:`commerce.seal.local_key`)."""
        data = self.to_dict()
        if self.complete:
            return data
        key = local_key(create=True)
        assert key is not None
        plain = json.dumps(data["hidden"], ensure_ascii=False).encode("utf-8", "replace")
        data["format_version"] = SEALED_VERSION
        data["hidden"] = {"sealed": seal(plain, key)}
        return data

    def _encoded(self) -> bytes:
        """The JSON to save (:meth:`to_saved_dict`) as UTF-8; a character UTF-8 cannot hold (a
        lone surrogate in a name, which a record may not contain: :meth:`from_json` refuses
        it) is written as U+FFFD, so that every saved record reads back."""
        text = json.dumps(self.to_saved_dict(), indent=1, ensure_ascii=False) + "\n"
        return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text).encode()

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> GameRecord:
        """Read and validate a record file, replaying it to be sure it is consistent.

        Only a regular file of at most :data:`MAX_RECORD_BYTES` bytes is read (never more
        than that); a directory, device, pipe or socket is refused.

        :raises RecordError: if the file is missing, unreadable, too large, not a regular
            file, damaged or does not replay.
        """
        text = read_record_text(path)
        try:
            record = cls.from_json(text)
            replay(record)  # raises RecordError if any action is illegal
        except RecordError as exc:  # named by its file, e.g. "a.json: not valid JSON ..."
            raise RecordError(f"{os.fspath(path)}: {exc}") from None
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


def read_record_text(path: str | os.PathLike[str]) -> str:
    """The text of the record file at *path*: a regular file of at most
    :data:`MAX_RECORD_BYTES` bytes of UTF-8, read with that limit.

    :raises RecordError: saying why the file cannot be read.
    """
    shown = _shown(path)
    try:
        # O_NONBLOCK: opening a pipe must not wait for a writer (it is refused just below).
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise RecordError(f"{shown}: no such file") from None
    except IsADirectoryError:
        raise RecordError(f"{shown}: is a directory, not a record file") from None
    except (OSError, ValueError) as exc:
        raise RecordError(f"{shown}: cannot read ({_reason(exc)})") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise RecordError(f"{shown}: is a directory, not a record file")
        if not stat.S_ISREG(info.st_mode):
            raise RecordError(f"{shown}: not a regular file (a device, pipe or socket); "
                              "give a saved record")
        if info.st_size > MAX_RECORD_BYTES:
            raise RecordError(_too_large(shown, info.st_size))
        chunks: list[bytes] = []
        left = MAX_RECORD_BYTES + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise RecordError(f"{shown}: cannot read ({_reason(exc)})") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > MAX_RECORD_BYTES:  # it grew after fstat
        raise RecordError(_too_large(shown, len(data)))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{shown}: not a record (not UTF-8 text at byte {exc.start})") from None


def _too_large(shown: str, size: int) -> str:
    return (f"{shown}: {size:,} bytes is too large for a record (at most "
            f"{MAX_RECORD_BYTES:,})")


def _reason(exc: Exception) -> str:
    return str(exc.strerror) if isinstance(exc, OSError) and exc.strerror else str(exc)


def _shown(path: str | os.PathLike[str]) -> str:
    """*path* for a one-line message: quoted and escaped if it holds unprintable characters."""
    text = os.fsdecode(path) if isinstance(path, (str, bytes, os.PathLike)) else str(path)
    return text if text.isprintable() else ascii(text)


# -- validation of a loaded record ---------------------------------------------------------

_CONTROL: Final = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_STRING: Final = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET: Final = re.compile(r"[^\[\]{}]+")
_STEP: Final = {"[": 1, "{": 1, "]": -1, "}": -1}
_MAX_DIGITS: Final = 30


class _NumberError(ValueError):
    """A number in the JSON text that no record holds."""


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_DIGITS:
        raise _NumberError(f"a number of {len(text):,} digits")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NumberError(f"the number {text[:20]} is too large")
    return value


def _parse_constant(text: str) -> float:
    raise _NumberError(f"{text} is not a number a record holds")


def _nesting(text: str) -> int:
    """How deeply the JSON *text* nests (outside strings), computed without recursion."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(itertools.accumulate(map(_STEP.__getitem__, brackets)), default=0)


def _unsealed(hidden: object) -> dict[str, Any]:
    """The hidden section of a version 3 file, unsealed with this user's record key."""
    if not isinstance(hidden, dict) or not isinstance(hidden.get("sealed"), str):
        raise RecordError("'hidden' must be an object with 'sealed' (format version 3)")
    key = local_key(create=False)
    if key is None:
        raise RecordError(f"this game's hidden section is sealed with a record key this "
                          f"account does not have ({key_path()}): it resumes only where it "
                          "was saved")
    plain = unseal(hidden["sealed"], key)
    try:
        data = json.loads(plain.decode("utf-8"),
                          parse_int=_parse_int, parse_float=_parse_float,
                          parse_constant=_parse_constant)
    except ValueError:  # not UTF-8, not JSON, a number out of bounds
        raise RecordError("the sealed hidden section is damaged") from None
    if not isinstance(data, dict):
        raise RecordError("the sealed hidden section is damaged")
    return data


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _short(value: object) -> str:
    """A value from the record for a message: its repr, cut short."""
    if isinstance(value, (dict, list)):
        return "an object" if isinstance(value, dict) else "a list"
    text = ascii(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _int(data: dict[str, object], key: str) -> int:
    value = data.get(key)
    if not _is_int(value):
        raise RecordError(f"{key!r} must be an integer, not {_short(value)}")
    assert isinstance(value, int)
    return value


def _text(value: object, what: str, *, limit: int = MAX_NAME_CHARS) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{what} must be a string, not {_short(value)}")
    if len(value) > limit:
        raise RecordError(f"{what} is longer than {limit} characters")
    if _CONTROL.search(value):
        raise RecordError(f"{what} holds a control character: {_short(value)}")
    return value


def _rules(data: object) -> Ruleset:
    if not isinstance(data, dict):
        raise RecordError("'rules' must be an object with 'id', 'version' and 'options'")
    base = find_ruleset(_text(data.get("id"), "'rules.id'"))
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordError(f"'rules.version' must be an integer, not {_short(version)}")
    if version != base.version:
        base = older_version(base, version) or base
    if version != base.version:
        raise RecordError(
            f"the record was played under {base.id} version {version};"
            f" this software has version {base.version}"
        )
    options = data.get("options")
    if options is None:
        return base
    if not isinstance(options, dict):
        raise RecordError("'rules.options' must be an object")
    for name, value in options.items():
        if not isinstance(value, (str, int)):  # bool is an int
            raise RecordError(f"'rules.options.{_text(name, 'an option name')}' must be a "
                              f"string, integer or boolean, not {_short(value)}")
    return base.with_options(**options) if options else base


def _seats(data: object, players: int) -> tuple[SeatInfo, ...]:
    if not isinstance(data, list) or len(data) not in (0, players):
        raise RecordError(f"'seats' must be a list of {players} seats (or empty)")
    seats = []
    for i, seat in enumerate(data):
        if not isinstance(seat, dict):
            raise RecordError(f"seat {i} must be an object with 'name' and 'agent'")
        name = _text(seat.get("name"), f"the name of seat {i}")
        agent = _text(seat.get("agent", "human"), f"the agent of seat {i}")
        seats.append(SeatInfo(name, agent))
    return tuple(seats)


def _actions(data: object) -> tuple[str, ...]:
    if not isinstance(data, list):
        raise RecordError("'actions' must be a list of strings")
    if len(data) > MAX_ACTIONS:
        raise RecordError(f"{len(data):,} actions: a record holds at most {MAX_ACTIONS:,}")
    for i, text in enumerate(data):
        if not isinstance(text, str):
            raise RecordError(f"action {i + 1} must be a string, not {_short(text)}")
        if len(text) > MAX_ACTION_CHARS:
            raise RecordError(f"action {i + 1} is longer than {MAX_ACTION_CHARS} characters")
    return tuple(data)


def _initial_state(record: GameRecord) -> GameState:
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


def replay(record: GameRecord) -> GameState:
    """The state after every recorded action.

    :raises RecordError: if the record does not replay, or claims an end it does not reach.
    """
    state: GameState | None = None
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
