"""The no-leak harness for what a saved game shows: the record file's visible part and
``commerce replay`` of an unfinished game.

A state's twin (:mod:`tests.harness.noleak`) is not enough here: a record is a whole history.
So the twin is a history. In a random game, seat 0 is the player who saved it; every card that
seat never saw (in any of its observations or visible events) is relabelled by one random
permutation, in every action of the record. Where the relabelled actions still replay (a
relabelled card can make a bot's knock or a pounce illegal; those twins are skipped and
counted), the twin is a game that seat 0 cannot tell apart from the real one, and the file's
visible part and the replay must be the same, character for character.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from commerce import engine
from commerce.bots import make_bot
from commerce.cli import main
from commerce.core import Action
from commerce.driver import _NEW_DEAL, Driver
from commerce.errors import CommerceError
from commerce.record import GameRecord, SeatInfo
from commerce.rules import Ruleset

SAVER = 0
"""The seat whose saved file is checked (the record's one human seat)."""


def visible_part(path: Path) -> str:
    """The saved file without its hidden section (what no command prints while the game
    runs)."""
    data = json.loads(path.read_text())
    data.pop("hidden", None)
    return json.dumps(data, sort_keys=True)


def replay_text(path: Path) -> str:
    """What ``commerce replay FILE --all`` prints (for an unfinished game: the saver's view)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["replay", str(path), "--all"])
    return f"status {status}\n{out.getvalue()}{err.getvalue()}"


@dataclass
class RecordSurfaces:
    """What a saved game shows; the self-test wraps one with a leak."""

    visible: Callable[[Path], str] = visible_part
    """The file's visible part."""
    replay: Callable[[Path], str] = replay_text
    """``commerce replay`` of the file."""


@dataclass
class RecordReport:
    """What was compared for one ruleset."""

    rules: str
    games: int = 0
    twins: int = 0
    """Twin histories that replayed and were compared."""
    skipped: int = 0
    """Twin histories in which a relabelled action was illegal (not compared)."""
    checks: int = 0
    leaks: list[str] = field(default_factory=list)


def _cards(value: Any) -> set[int]:
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, tuple | list | frozenset | set):
        out: set[int] = set()
        for v in value:
            out |= _cards(v)
        return out
    return set()


def _seen_by(driver: Driver, seat: int, seen: set[int]) -> None:
    """Add every card id the seat's observation shows now (over-approximate: any integer in a
    card-holding field counts, so the permutation fixes more than it needs to)."""
    obs = engine.observe(driver.state, seat)
    for name in ("hand", "hands", "widow", "rack", "racks", "discards", "laid", "shown",
                 "live", "offered", "revealed"):
        value = getattr(obs, name, None)
        if value is not None:
            seen |= _cards(value)


def _relabel(action: Action, pi: dict[int, int]) -> Action:
    return Action(action.kind, tuple(pi.get(c, c) for c in action.cards))


def _save(record: GameRecord, folder: Path, name: str) -> Path:
    path = folder / name
    record.save(path)
    return path


def check_records(rules: Ruleset, *, games: int = 3, players: int | None = None,
                  seed: int = 0, surfaces: RecordSurfaces | None = None) -> RecordReport:
    """Compare the saved file's visible part and its replay for *games* unfinished random games
    of *rules* against twin histories that seat 0 cannot tell apart."""
    surfaces = surfaces or RecordSurfaces()
    if players is None:
        players = min(max(4, rules.min_players), rules.max_players)
    report = RecordReport(rules.id)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for g in range(games):
            def table() -> list[Any]:
                return [make_bot("heuristic" if i % 2 else "random") for i in range(players)]

            whole = Driver(rules, table(), seed=seed * 100 + g)
            total = 0
            while whole.step():
                total += 1
            driver = Driver(rules, table(), seed=seed * 100 + g)
            # per deal: the cards seat 0 saw in it, and the actions of that deal
            seen: list[set[int]] = [set()]
            deal_of: list[int] = []
            stop = rng.randrange(total // 3, total - 1)
            steps = 0
            while steps < stop:
                before = len(driver.events)
                d = len(seen) - 1
                if not driver.step():
                    break
                deal_of.append(d)
                new = driver.events[before:]
                for e in engine.visible_events(new, SAVER):
                    for _, v in e.data:
                        seen[d] |= _cards(v)
                if any(e.kind in _NEW_DEAL for e in new):
                    seen.append(set())
                _seen_by(driver, SAVER, seen[-1])
                steps += 1
            if driver.outcome() is not None:
                continue  # a finished game shows everything: nothing to compare
            report.games += 1
            record = driver.record()
            seats = tuple(SeatInfo(s.name, "human" if i == SAVER else s.agent)
                          for i, s in enumerate(record.seats))
            record = dataclasses.replace(record, seats=seats)
            actions = [engine.parse_action(rules, a) for a in record.actions]
            pis: list[dict[int, int]] = []
            for d, cards in enumerate(seen):
                used = set().union(*(set(a.cards) for a, k in zip(actions, deal_of, strict=True)
                                     if k == d))
                hidden = sorted(used - cards)
                shuffled = hidden[:]
                rng.shuffle(shuffled)
                pis.append(dict(zip(hidden, shuffled, strict=True)))
            twin_actions = [_relabel(a, pis[k]) for a, k in zip(actions, deal_of, strict=True)]
            if twin_actions == actions:
                continue
            state = engine.new_game(rules, players, dealer=record.dealer)
            try:
                for a in twin_actions:
                    state = engine.apply(state, a).state
            except CommerceError:
                report.skipped += 1
                continue
            twin = dataclasses.replace(
                record, actions=tuple(engine.format_action(rules, a) for a in twin_actions))
            a_path, b_path = _save(record, folder, f"a{g}.json"), _save(twin, folder, f"b{g}.json")
            report.twins += 1
            for name, show in (("visible", surfaces.visible), ("replay", surfaces.replay)):
                report.checks += 1
                mine, theirs = show(a_path), show(b_path)
                if mine.replace(str(a_path), "FILE") != theirs.replace(str(b_path), "FILE"):
                    report.leaks.append(f"{name}: game {g}")
    return report
