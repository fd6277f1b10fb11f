"""A server's live tables: reading them from the database, changing them (here, or through
the table's owner in a cluster), the bots' pace and the turn timers, and sending every
connection its view after each change. :class:`Server` holds all of it for one app (no
process-wide state); :mod:`.app` puts the REST API and the websockets in front of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool

from commerce.server.botpool import BotPool, Job
from commerce.server.cluster import Cluster, NoAnswer, RelayError
from commerce.server.db import Store
from commerce.server.hub import Hub
from commerce.server.protocol import ChatMessage, ErrorMessage, LobbyMessage, TableInfo
from commerce.server.tables import BOT_LEVELS, BOT_MS, Table, TableError, bot_spec

__all__ = ["ApiError", "Hosting", "Server", "operation"]

T = TypeVar("T")
_log = logging.getLogger(__name__)


class ApiError(Exception):
    """A refused REST call: a status and one sentence."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Hosting:
    """What one player may ask of the server: the tables and bots they host and the search
    bot's time (``commerce serve`` options; the rates of requests are :class:`.limits.Limits`)."""

    bot_ms: float = BOT_MS
    """How many milliseconds the search bot thinks per decision, at every table."""
    tables: int = 10
    """How many tables not yet over one player may host."""
    bots: int = 20
    """How many bots may sit at the tables one player hosts (not over), all together."""
    models: tuple[str, ...] = ()
    """The learned models offered as bot levels ``learned:NAME`` (``--models``)."""
    hint_model: str = ""
    """The learned model of :attr:`models` whose policy gives the hints at the tables of its
    ruleset and seat count (``--hint-model``); empty, or at other tables: the search bot's."""

    def __post_init__(self) -> None:
        if not 1 <= self.bot_ms <= 10_000 or self.tables < 1 or self.bots < 0:
            raise ValueError("bot_ms is from 1 to 10,000; tables at least 1; bots at least 0")
        if self.hint_model and self.hint_model not in self.models:
            raise ValueError("the hint model is one of the models offered")


class Server:
    """What one app holds: the database, the live tables, their locks and connections."""

    def __init__(self, store: Store, rate: tuple[float, int] = (20.0, 40), *,
                 limits: Hosting | None = None, pool: BotPool | None = None) -> None:
        self.store = store
        self.rate = rate
        self.limits = limits or Hosting()
        self.pool = pool or BotPool(0)
        """Where the bots of paced tables think (:mod:`.botpool`)."""
        self._hint_table: tuple[str, int] | None = None
        if self.limits.hint_model:
            from commerce.bots.learned import read_config

            config = read_config(self.limits.hint_model)
            self._hint_table = (config.rules, config.players)
        self.asked: dict[str, asyncio.Task[None]] = {}
        self._busy = 0
        self._busy_lock = threading.Lock()
        self.cluster: Cluster | None = None
        """Set where several processes share a PostgreSQL database (:mod:`.cluster`)."""
        self.hub = Hub()
        self.tables: dict[str, Table] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.away_tasks: dict[tuple[str, int], asyncio.Task[None]] = {}
        self.pacers: dict[str, asyncio.Task[None]] = {}
        self.timers: dict[str, asyncio.Task[None]] = {}

    def hint_model(self, table: Table) -> str:
        """The learned model whose policy gives the hints at *table*: the operator's
        ``--hint-model`` where the table is of its ruleset and seat count; else empty (the
        search bot's estimates)."""
        driver = table.driver
        if driver is not None and self._hint_table == (driver.rules.id, driver.players):
            return self.limits.hint_model
        return ""

    async def table(self, key: str) -> Table:
        """The live table with this id or invite code (loaded and resumed from the database
        when first asked for).

        :raises ApiError: 404 if there is none.
        """
        if len(key) > 40:
            raise ApiError(404, "no such table")
        for t in self.tables.values():
            if t.invite == key:
                return t
        table = self.tables.get(key)
        if table is None:
            loaded = await run_in_threadpool(self.store.load_table, key)
            if loaded is None:
                raise ApiError(404, "no such table")
            table = self.tables.setdefault(loaded.table_id, loaded)
            if table is loaded and (self.cluster is None
                                    or await self.cluster.claim(table.table_id)):
                await self._own(table)
        return table

    async def _own(self, table: Table) -> None:
        """This process owns a table it has just read: resuming may have played on (chance,
        or bots at an unpaced table), which is stored before anyone sees it; at a paced table
        the bots go on at its pace."""
        table.bot_ms, table.models = self.limits.bot_ms, self.limits.models
        async with self.lock(table.table_id):
            await run_in_threadpool(self.store.save_table, table)
        self._resume_pace(table)

    def _resume_pace(self, table: Table) -> None:
        """A table just read goes on at its pace, a whole window from now."""
        if self.paced(table) and table.status == "playing":
            now = time.monotonic()
            table.last_public_at = max(table.last_public_at, now)
            table.last_seat_at = max(table.last_seat_at, now)
            self.spawn(table)

    def owns(self, table: Table) -> bool:
        """Whether this process changes *table* (always, but for a table another process of
        a cluster owns)."""
        return self.cluster is None or self.cluster.owns(table.table_id)

    async def perform(self, key: str, op: dict[str, Any]) -> None:
        """Run an operation (:func:`operation`) on a table: here if this process owns it,
        else relayed to its owner; a refusal is raised as a 400 error and changes nothing."""
        table = await self.table(key)
        if op.get("op") == "seat" and op.get("kind") == "bot" and op.get("player"):
            k = op.get("seat")
            already = isinstance(k, int) and 0 <= k < len(table.seats) and \
                table.seats[k].kind == "bot"
            if not already:
                await self.check_host(str(op["player"]), bots=1)
        if self.owns(table):
            await self.perform_here(table.table_id, op)
            return
        assert self.cluster is not None
        try:
            await self.cluster.relay(table.table_id, op)
        except NoAnswer:
            # the owner may be gone: take the table over if its lock is free, and do it here
            _log.warning("table %s: its owner did not answer a relayed %s", table.table_id,
                         op.get("op"))
            if not await self.cluster.claim(table.table_id):
                raise ApiError(400, "the table's server did not answer: try again") from None
            await self.took_over(table.table_id)
            await self.perform_here(table.table_id, op)
            return
        except RelayError as exc:
            raise ApiError(400, str(exc)) from None
        await self.refresh(table.table_id)

    async def perform_here(self, table_id: str, op: dict[str, Any]) -> None:
        """Run an operation on a table this process owns."""
        table = await self.table(table_id)
        await self.change(table_id, operation(op, paced=self.paced(table)))
        if self.paced(table) and op["op"] in ("act", "start", "again", "seat", "away",
                                              "remove"):
            self.spawn(table)

    async def refresh(self, table_id: str) -> None:
        """Read a table another process owns again from the database; send the views. A
        table this process has taken over in the meantime is not read again: its copy here
        is the one that changes."""
        async with self.lock(table_id):
            if self.cluster is not None and self.cluster.owns(table_id):
                return
            loaded = await self._reload(table_id)
        if loaded is not None:
            await self.broadcast(loaded)

    async def took_over(self, table_id: str) -> None:
        """The owner of a followed table is gone and this process holds it now: go on from
        the database (read and stored under the table's lock, so that no change made here
        meanwhile is lost)."""
        async with self.lock(table_id):
            loaded = await self._reload(table_id)
            if loaded is not None:
                await run_in_threadpool(self.store.save_table, loaded)
        if loaded is not None:
            _log.warning("table %s: taken over at version %d", table_id, loaded.version)
            self._resume_pace(loaded)
            await self.broadcast(loaded)

    async def _reload(self, table_id: str) -> Table | None:
        """The table as the database holds it now, in place of this process's copy (its
        chat lines kept: they are not stored)."""
        loaded = await run_in_threadpool(self.store.load_table, table_id)
        if loaded is None:
            return None
        old = self.tables.get(table_id)
        if old is not None:
            loaded.chat = old.chat
        self.tables[table_id] = loaded
        return loaded

    async def chat_from_elsewhere(self, table_id: str, speaker: str, text: str) -> None:
        """A chat line said at another process of the cluster."""
        table = self.tables.get(table_id)
        if table is None:
            return
        line = ChatMessage(from_=speaker, text=text)
        table.chat.append(line)
        await self.hub.send_all(table_id, line)

    async def check_host(self, player_id: str, *, tables: int = 0, bots: int = 0) -> None:
        """Refuse a player who would host more than :attr:`limits` allow with *tables* more
        tables and *bots* more bots.

        :raises ApiError: 429, saying which limit.
        """
        hosted = await run_in_threadpool(self.store.hosted, player_id)
        lim = self.limits
        if tables and len(hosted) + tables > lim.tables:
            raise ApiError(429, f"a player may host {lim.tables} tables at once: finish or "
                                "leave one first")
        if bots and sum(b for _, b in hosted) + bots > lim.bots:
            raise ApiError(429, f"a player may have {lim.bots} bots at the tables they host")

    def warm_specs(self) -> list[str]:
        """The specs of every bot on the menu, at this server's time cap."""
        return [bot_spec(level, self.limits.bot_ms) for level in BOT_LEVELS]

    def lock(self, table_id: str) -> asyncio.Lock:
        """The lock that orders every change of one table."""
        return self.locks.setdefault(table_id, asyncio.Lock())

    async def change(self, key: str, fn: Callable[[Table], T]) -> T:
        """Run *fn* on a table under its lock, store the table, and send every connection
        its view; a :class:`TableError` changes nothing and is raised as a 400 error."""
        table = await self.table(key)
        async with self.lock(table.table_id):
            # the copy as it is now: a takeover may have read the table again meanwhile
            table = self.tables.get(table.table_id, table)
            table.bot_ms, table.models = self.limits.bot_ms, self.limits.models

            def work() -> T:
                with self.busy():
                    result = fn(table)
                    self.store.save_table(table)
                    return result
            try:
                result = await run_in_threadpool(work)
            except TableError as exc:
                raise ApiError(400, str(exc)) from None
            except Exception:
                # not stored: the next request reloads the table as the database holds it
                self.tables.pop(table.table_id, None)
                raise
        await self.broadcast(table)
        return result

    async def pace(self, table_id: str) -> None:
        """The table's steps at its pace (:meth:`Table.tick`): bots' moves, chance, held
        actions and the lapse of offers, each when due (a bot's move an offer window after
        the last public change, offer or none); every connection sees each step. Each step
        takes the table's copy as it is then (a takeover reads it again), and stops where
        this process no longer owns it; a failure is logged, not lost, and the copy dropped
        (the next request reads the table as it was last stored)."""
        try:
            await self._pace(table_id)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - a task's failure would otherwise go unseen
            _log.exception("table %s: the bots' pace stopped", table_id)
            # as after a failed change: the next request reads the table as stored
            self.tables.pop(table_id, None)

    async def _pace(self, table_id: str) -> None:
        while True:
            table = self.tables.get(table_id)
            if table is None:
                return
            due = table.next_due(time.monotonic())
            if due is None:
                return
            await self._think(table)
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            async with self.lock(table_id):
                now = self.tables.get(table_id)
                if now is None or not self.owns(now):
                    return
                before = now.version
                refusals = await run_in_threadpool(self._tick, now)
            for seat, text in refusals:
                for conn in self.hub.connections(table_id):
                    if conn.seat == seat:
                        await conn.send(ErrorMessage(message=text))
            if now.version != before:
                await self.broadcast(now)
            elif not refusals:
                await asyncio.sleep(0.005)  # not due after all (a clock's rounding)

    def _tick(self, table: Table) -> list[tuple[int, str]]:
        """One step of :meth:`Table.tick`, stored (run in a worker thread)."""
        with self.busy():
            before = table.version
            refusals = table.tick(time.monotonic())
            if table.version != before:
                self.store.save_table(table)
            return refusals

    async def _think(self, table: Table) -> None:
        """Have the bot workers make the decisions the table's pace will ask for next (while
        the table waits its window; the table's lock is not held meanwhile)."""
        jobs = table.bot_jobs()
        if not jobs:
            return
        host = table.host_id

        async def one(key: tuple[int, int], job: Job) -> None:
            try:
                table.answers[key] = await self.pool.decide(host, job)
            except Exception:  # noqa: BLE001 - the bot then thinks when its move is due
                _log.warning("table %s: a bot's decision failed in its worker",
                             table.table_id, exc_info=True)

        await asyncio.gather(*(one(key, Job(spec, obs, legal, seed))
                               for key, spec, obs, legal, seed in jobs))

    @contextlib.contextmanager
    def busy(self) -> Iterator[None]:
        """Counts a change under way in a worker thread (a stopping server waits for it)."""
        with self._busy_lock:
            self._busy += 1
        try:
            yield
        finally:
            with self._busy_lock:
                self._busy -= 1

    async def stop(self, wait_s: float = 5.0) -> None:
        """Stop the tables' tasks and the bot workers, then wait (at most *wait_s*) for any
        change under way to be stored: every change is stored as it is made, so nothing a
        player was shown is lost."""
        if self.cluster is not None:
            await self.cluster.stop()
        for task in [*self.away_tasks.values(), *self.pacers.values(),
                     *self.timers.values()]:
            task.cancel()
        self.pool.stop()
        deadline = time.monotonic() + wait_s
        while self._busy and time.monotonic() < deadline:
            await asyncio.sleep(0.02)

    def spawn(self, table: Table) -> None:
        """Start :meth:`pace` for *table* (one task a table at a time)."""
        task = self.pacers.get(table.table_id)
        if task is None or task.done():
            self.pacers[table.table_id] = asyncio.get_running_loop().create_task(
                self.pace(table.table_id))

    def paced(self, table: Table) -> bool:
        """Whether the table's bots wait an offer window before each action."""
        return table.config.offer_window_s > 0

    def arm_timer(self, table: Table) -> None:
        """Start the turn timer of the person to act, where the table has turn timers and
        none runs for this turn yet; when it runs out the table's bot plays the turn
        (:meth:`Table.time_out`)."""
        due = table.timer_for()
        if due is None:
            table.turn_clock = None
            return
        clock = table.turn_clock
        if clock is not None and clock[:2] == due:
            return
        version, seat = due
        seconds = float(table.config.turn_timer_s or 0.0)
        table.turn_clock = (version, seat, time.time() + seconds)
        old = self.timers.pop(table.table_id, None)
        if old is not None:
            old.cancel()

        async def ring() -> None:
            await asyncio.sleep(seconds)
            paced = self.paced(table)
            played = await self.change(
                table.table_id, lambda t: t.time_out(seat, version, advance=not paced))
            if played and paced:
                self.spawn(table)

        with contextlib.suppress(RuntimeError):
            self.timers[table.table_id] = asyncio.get_running_loop().create_task(ring())

    async def broadcast(self, table: Table) -> None:
        """Every connection its seat's view and the lobby (a turn timer started first, so
        that the views show it); in a cluster, the other processes are told."""
        if self.owns(table):
            self.arm_timer(table)
            if self.cluster is not None:
                self.cluster.announce(table.table_id, table.version)
        for conn in self.hub.connections(table.table_id):
            if conn.player_id is not None:
                conn.seat = table.seat_of(conn.player_id)
        info = table.info(self.hub.connected_seats(table.table_id))
        await self.hub.send_all(table.table_id, LobbyMessage(table=info))
        await self.hub.send_views(table)

    def info(self, table: Table) -> TableInfo:
        """The table for the lobby, with who is connected."""
        return table.info(self.hub.connected_seats(table.table_id))


def operation(op: dict[str, Any], *, paced: bool) -> Callable[[Table], None]:
    """The change an operation names, as a function of the table: what every change of a
    table is, so that a process of a cluster can ask the table's owner for it by name.

    ``{"op": "join", "player", "name", "seat"}``, ``{"op": "start", "player"}``,
    ``{"op": "again", "player"}``, ``{"op": "seat", "player", "seat", "kind", "level"}``,
    ``{"op": "remove", "player", "seat"}``, ``{"op": "act", "player", "action", "version"}``,
    ``{"op": "away", "seat", "away"}``, ``{"op": "rename", "player", "name"}``.

    :raises ApiError: for an operation of no known kind.
    """
    kind = op.get("op")
    player = op.get("player")

    def join(t: Table) -> None:
        if t.status != "lobby" and t.seat_of(player) is None:
            raise TableError("the game has started: watch it, or join the next one")
        t.join(str(player), str(op.get("name", "")), op.get("seat"))

    def again(t: Table) -> None:
        if t.status != "over":
            raise TableError("the game is not over yet")
        t.start(str(player), secrets.token_hex(8), advance=not paced)

    changes: dict[str, Callable[[Table], None]] = {
        "join": join,
        "start": lambda t: t.start(str(player), secrets.token_hex(8), advance=not paced),
        "again": again,
        "seat": lambda t: t.set_seat(str(player), int(op["seat"]), op["kind"], op.get("level")),
        "remove": lambda t: t.remove(str(player), int(op["seat"]), advance=not paced),
        "act": lambda t: t.act(player, str(op["action"]), int(op["version"]),
                               advance=not paced, now=time.monotonic()),
        "away": lambda t: t.set_away(int(op["seat"]), bool(op["away"]), advance=not paced),
        "rename": lambda t: t.rename(str(player), str(op["name"])),
    }
    if kind not in changes:
        raise ApiError(400, f"unknown operation {str(kind)[:20]!r}")
    return changes[str(kind)]
