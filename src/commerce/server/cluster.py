"""More than one ``commerce serve`` process on one PostgreSQL database.

Every process serves the same lobby (the tables live in the database). Each table is *owned* by
one process at a time: the one holding the table's PostgreSQL advisory lock
(``pg_try_advisory_lock``), which PostgreSQL releases the moment that process's connection goes
(a crash included). The owner alone changes the table: it applies every change, steps the bots
at the table's pace, runs the turn timers, stores the result, and then announces the table's new
version. The other processes *follow* it: a change asked of them (a player's action over their
websocket, a REST call) is relayed to the owner as an operation (:func:`.live.operation`) over
PostgreSQL's ``LISTEN``/``NOTIFY``, and the owner's answer comes back the same way; on each
announcement they read the table again from the database and send their own connections their
own seats' views, so every view is still built per seat, and only from the engine's
observation. A follower tries for the lock of each table it follows twice a second: when the
owner dies, the first to get it takes the table over and goes on from the database.

SQLite (one process) does without any of this: there, the process owns every table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from psycopg import AsyncConnection, sql

_log = logging.getLogger(__name__)

__all__ = ["CHANNELS", "Cluster", "NoAnswer", "RelayError"]

CHANNELS = ("commerce_ops", "commerce_replies", "commerce_tables", "commerce_chat")
"""The NOTIFY channels: operations for a table's owner, their answers, announcements of a
table's new version, and chat lines."""
RELAY_TIMEOUT_S = 2.0
"""How long a relayed operation waits for the owner's answer."""
CLAIM_EVERY_S = 0.5
"""How often a follower tries to take over the tables it follows."""


class RelayError(Exception):
    """The owner refused a relayed operation (its message), or nobody answered."""


class NoAnswer(RelayError):
    """Nobody answered a relayed operation in time (the owner may be gone)."""


class Cluster:
    """This process's part in a cluster: its locks, its listener and its relays.

    :param dsn: the PostgreSQL connection string (``postgresql://...``).
    :param perform: runs an operation on a table this process owns; returns nothing or
        raises an error whose text goes back to the asker.
    :param refresh: reads a followed table again from the database and sends the views.
    :param chat: shows a chat line said at another process.
    :param took_over: called when this process takes a table over.
    """

    def __init__(self, dsn: str, *, perform: Callable[[str, dict[str, Any]], Awaitable[None]],
                 refresh: Callable[[str], Awaitable[None]],
                 chat: Callable[[str, str, str], Awaitable[None]],
                 took_over: Callable[[str], Awaitable[None]]) -> None:
        self.dsn = dsn
        self.node = secrets.token_hex(6)
        self.owned: set[str] = set()
        self.followed: set[str] = set()
        self._perform, self._refresh, self._chat, self._took_over = (
            perform, refresh, chat, took_over)
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._locks: AsyncConnection[Any] | None = None
        self._listen: AsyncConnection[Any] | None = None
        self._using = asyncio.Lock()
        self._inbox: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        self._outbox: list[tuple[str, str]] = []
        self._posted = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        """Connect, listen, and start trying to take followed tables over."""
        self._locks = await AsyncConnection.connect(self.dsn, autocommit=True)
        self._listen = await AsyncConnection.connect(self.dsn, autocommit=True)
        for channel in CHANNELS:
            await self._listen.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listener()), loop.create_task(self._worker()),
                       loop.create_task(self._claimer()), loop.create_task(self._poster())]

    async def stop(self) -> None:
        """Stop listening and let go of every table (closing the connection frees the locks);
        the announcements not yet sent go first."""
        for task in self._tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await self._post()
        for conn in (self._listen, self._locks):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()

    # -- ownership -----------------------------------------------------------------------------
    def owns(self, table_id: str) -> bool:
        """Whether this process owns the table now."""
        return table_id in self.owned

    async def claim(self, table_id: str) -> bool:
        """Try to own the table (true: this process owns it now); else follow it."""
        if table_id in self.owned:
            return True
        got = await self._query("SELECT pg_try_advisory_lock(hashtext(%s))",
                                (f"commerce:{table_id}",))
        if got:
            self.owned.add(table_id)
            self.followed.discard(table_id)
        else:
            self.followed.add(table_id)
        return bool(got)

    async def _claimer(self) -> None:
        """Every ``CLAIM_EVERY_S``, try to take each followed table over; a takeover whose
        resumption failed (the table owned, its play not yet resumed here) is tried again at
        the next round instead of leaving the table owned and still."""
        resuming: set[str] = set()
        while True:
            await asyncio.sleep(CLAIM_EVERY_S)
            for table_id in sorted(self.followed | resuming):
                try:
                    if await self.claim(table_id):
                        resuming.add(table_id)
                        await self._took_over(table_id)
                        resuming.discard(table_id)
                except Exception:  # noqa: BLE001 - the next round tries again
                    _log.warning("taking table %s over failed; trying again", table_id,
                                 exc_info=True)

    # -- messages ------------------------------------------------------------------------------
    async def relay(self, table_id: str, op: dict[str, Any]) -> None:
        """Have the table's owner run *op*; returns once it has (and stored the result).

        :raises RelayError: with the owner's reason, or when no owner answered in time.
        """
        request = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[request] = future
        try:
            await self._notify("commerce_ops", {"table": table_id, "op": op,
                                                "request": request, "from": self.node})
            answer = await asyncio.wait_for(future, RELAY_TIMEOUT_S)
        except TimeoutError:
            raise NoAnswer("the table's server did not answer: try again") from None
        finally:
            self._waiting.pop(request, None)
        if answer.get("error"):
            raise RelayError(str(answer["error"]))

    def announce(self, table_id: str, version: int) -> None:
        """Tell the other processes the table changed (they read it again).

        Queued, not awaited: the change is stored already, and the views of this process's
        players do not wait for a round trip to the database server. The queue goes out in
        order, all that has gathered in one statement (:meth:`_poster`)."""
        self._queue("commerce_tables", {"table": table_id, "version": version,
                                        "from": self.node})

    def say(self, table_id: str, speaker: str, text: str) -> None:
        """Pass a chat line to the other processes (queued as :meth:`announce` is)."""
        self._queue("commerce_chat", {"table": table_id, "from_name": speaker,
                                      "text": text, "from": self.node})

    def _queue(self, channel: str, payload: dict[str, object]) -> None:
        self._outbox.append((channel, json.dumps(payload)))
        self._posted.set()

    async def _poster(self) -> None:
        """Send the queued notifications, everything gathered since the last round trip in
        one statement: a hundred tables' changes a second cost a few round trips, and none
        waits behind another's."""
        while True:
            await self._posted.wait()
            self._posted.clear()
            try:
                await self._post()
            except Exception:  # noqa: BLE001 - the others read a table again when they take it
                _log.warning("announcing table changes failed", exc_info=True)

    async def _post(self) -> None:
        batch, self._outbox = self._outbox, []
        if not batch:
            return
        assert self._locks is not None, "the cluster is not started"
        async with self._using:
            for start in range(0, len(batch), 200):
                part = batch[start:start + 200]
                statement = "SELECT " + ", ".join(["pg_notify(%s, %s)"] * len(part))
                await self._locks.execute(statement, tuple(v for pair in part for v in pair))

    async def _listener(self) -> None:
        """Read every notification as it comes (never waiting on the work it asks for, so that
        none is missed while a change is made) and queue it for :meth:`_worker`."""
        assert self._listen is not None
        async for note in self._listen.notifies():
            with contextlib.suppress(ValueError):
                message = json.loads(note.payload)
                if message.get("from") != self.node:
                    self._inbox.put_nowait((note.channel, message))

    async def _worker(self) -> None:
        while True:
            channel, message = await self._inbox.get()
            with contextlib.suppress(Exception):
                await self._on(channel, message)

    async def _on(self, channel: str, message: dict[str, Any]) -> None:
        table_id = str(message.get("table", ""))
        if channel == "commerce_ops" and table_id in self.owned:
            error = ""
            try:
                await self._perform(table_id, message["op"])
            except Exception as exc:  # noqa: BLE001 - the reason goes back to the asker
                error = str(getattr(exc, "message", "") or exc) or type(exc).__name__
            await self._notify("commerce_replies", {"request": message["request"],
                                                    "to": message["from"], "error": error,
                                                    "from": self.node})
        elif channel == "commerce_replies" and message.get("to") == self.node:
            future = self._waiting.get(str(message.get("request")))
            if future is not None and not future.done():
                future.set_result(message)
        elif channel == "commerce_tables" and table_id in self.followed:
            await self._refresh(table_id)
        elif channel == "commerce_chat" and (table_id in self.followed or table_id in self.owned):
            await self._chat(table_id, str(message.get("from_name", "")),
                             str(message.get("text", "")))

    async def _notify(self, channel: str, payload: dict[str, object]) -> None:
        await self._query("SELECT pg_notify(%s, %s)", (channel, json.dumps(payload)))

    async def _query(self, sql: str, params: tuple[object, ...]) -> Any:
        assert self._locks is not None, "the cluster is not started"
        async with self._using:
            cursor = await self._locks.execute(sql, params)
            row = await cursor.fetchone()
        return None if row is None else row[0]
