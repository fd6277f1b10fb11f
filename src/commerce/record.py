"""Game records: the ruleset (id, version, changed options) and every action, as JSON.

A record replays exactly: :func:`replay` rebuilds every state by applying the recorded actions
through the checked engine. Loading is strict: a damaged, truncated or foreign file raises
:class:`~commerce.errors.RecordError` with a one-line reason and never yields a half-loaded game.

>>> from commerce.rules import find_ruleset
>>> rec = GameRecord(rules=find_ruleset("peel"), players=3, dealer=0, seed=7)
>>> GameRecord.from_json(rec.to_json()) == rec
True
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from commerce import engine
from commerce.core import Action, Transition
from commerce.errors import CommerceError, RecordError
from commerce.family import older_version
from commerce.rules import Ruleset, find_ruleset

FORMAT: Final = "commerce-record"
"""The value of the ``format`` key that marks a Commerce record."""
FORMAT_VERSION: Final = 1
"""The record layout version this code writes and reads."""


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
    """The driver's seed (informational: the actions, not the seed, are the truth)."""
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
        """The JSON-ready form."""
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
            "seed": self.seed,
            "seats": [{"name": s.name, "agent": s.agent} for s in self.seats],
            "actions": list(self.actions),
            "complete": self.complete,
            "payoffs": None if self.payoffs is None else list(self.payoffs),
            "extra": self.extra,
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
        if data.get("format_version") != FORMAT_VERSION:
            raise RecordError(
                f"record format version {data.get('format_version')!r} is not supported "
                f"(this version reads {FORMAT_VERSION})"
            )
        try:
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
            seed = data.get("seed")
            if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
                raise RecordError("'seed' must be an integer or null")
            seats = tuple(
                SeatInfo(str(s["name"]), str(s.get("agent", "human"))) for s in data["seats"]
            )
            actions = data["actions"]
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
        """Write atomically (a crash mid-write never leaves a damaged file); return the path."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(self.to_json())
                fh.write("\n")
            os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes it private; records are not
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return target

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


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


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
            raise RecordError(f"action {i + 1} ({text!r}) does not replay: {exc}") from None
        yield action, transition
        state = transition.state


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
