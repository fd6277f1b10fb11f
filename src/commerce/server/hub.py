"""The connections of each table, and the fan-out of each seat's own view to them.

Every message a connection gets is built for its seat alone (a spectator: for no seat) by
:meth:`commerce.server.tables.Table.view`; the hub never builds anything from a state.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from pydantic import BaseModel

from commerce.server.limits import Limits
from commerce.server.protocol import ViewMessage
from commerce.server.tables import Table

__all__ = ["CLOSE_SLOW", "QUEUE_MESSAGES", "Connection", "Hub", "Limiter", "Limits",
           "RateLimit"]


class Socket(Protocol):
    """What the hub needs of a websocket."""

    async def send_text(self, data: str) -> None:
        """Send one text message."""


@dataclass
class RateLimit:
    """A token bucket: *burst* messages at once, *rate* a second after that.

    >>> r = RateLimit(rate=1.0, burst=2)
    >>> r.allow(0.0), r.allow(0.0), r.allow(0.0), r.allow(1.0)
    (True, True, False, True)
    """

    rate: float = 10.0
    burst: int = 30
    tokens: float = -1.0
    at: float = 0.0

    def refill(self, now: float | None = None) -> float:
        """The tokens there are now (at most *burst*)."""
        now = time.monotonic() if now is None else now
        if self.tokens < 0:
            self.tokens, self.at = float(self.burst), now
        self.tokens = min(float(self.burst), self.tokens + max(0.0, now - self.at) * self.rate)
        self.at = now
        return self.tokens

    def allow(self, now: float | None = None) -> bool:
        """Whether one more message is allowed now."""
        if self.refill(now) >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Limiter:
    """The token buckets of :class:`Limits`, one per kind and player or address, held by one
    app (the oldest forgotten past *keep* buckets: a forgotten bucket starts full again).

    >>> limiter = Limiter(Limits(tables=(2, 60.0), address_share=1))
    >>> [limiter.allow("tables", "p1", "10.0.0.1", now=0.0) for _ in range(3)]
    [True, True, False]
    >>> limiter.allow("tables", "p2", "10.0.0.1", now=0.0)  # the address is spent too
    False
    >>> limiter.allow("tables", "p2", "10.0.0.2", now=0.0)
    True
    """

    def __init__(self, limits: Limits, keep: int = 100_000) -> None:
        self.limits = limits
        self.keep = keep
        self._buckets: dict[tuple[str, str], RateLimit] = {}

    def _bucket(self, kind: str, key: str, count: int, seconds: float) -> RateLimit:
        bucket = self._buckets.pop((kind, key), None)
        if bucket is None:
            bucket = RateLimit(rate=count / seconds, burst=count)
            while len(self._buckets) >= self.keep:
                self._buckets.pop(next(iter(self._buckets)))
        self._buckets[(kind, key)] = bucket  # the most recently used last
        return bucket

    def allow(self, kind: str, player: str | None, address: str | None, *,
              now: float | None = None) -> bool:
        """Whether one more of *kind* (``tables``, ``hints``, ``messages``, ``players``) is
        allowed now for *player* and from *address* (either may be None: not counted)."""
        count, seconds = getattr(self.limits, kind)
        share = self.limits.address_share
        checks = []
        if player is not None and kind != "players":
            checks.append(self._bucket(kind, "p:" + player, count, seconds))
        if address is not None:
            n = count if kind == "players" else count * share
            checks.append(self._bucket(kind, "a:" + address, n, seconds))
        now = time.monotonic() if now is None else now
        if all(b.refill(now) >= 1.0 for b in checks):  # spent only where every bucket allows
            for b in checks:
                b.tokens -= 1.0
            return True
        return False

    def wait_s(self, kind: str) -> float:
        """About how long one of *kind* takes to come back (said in a refusal)."""
        limit: tuple[int, float] = getattr(self.limits, kind)
        return limit[1] / limit[0]


QUEUE_MESSAGES = 256
"""The most messages waiting to go out to one connection; one that falls further behind is
dropped (it may connect again and resume: every connection starts with the table as it is)."""
CLOSE_SLOW = 4408
"""The websocket close code of a connection dropped for not reading its messages."""


@dataclass
class Connection:
    """One websocket at a table: its seat (None: a spectator) and its player.

    Messages go out through a bounded queue, sent by the connection's own task: a peer that
    stops reading fills its queue and is dropped (:attr:`dropped`), never holding back the
    table, its bots or the other connections. A view or lobby message the same as the last
    one sent is not sent again."""

    socket: Socket
    table_id: str
    seat: int | None
    player_id: str | None
    id: int = 0
    limit: RateLimit = field(default_factory=RateLimit)
    capacity: int = QUEUE_MESSAGES
    dropped: bool = False
    _queue: asyncio.Queue[str] | None = None
    _task: asyncio.Task[None] | None = None
    _last: dict[str, str] = field(default_factory=dict)
    on_drop: Callable[[Connection], None] | None = None

    def start(self) -> None:
        """Start sending (called when the hub registers the connection)."""
        if self._queue is None:
            self._queue = asyncio.Queue(self.capacity)
            self._task = asyncio.get_running_loop().create_task(self._sender())

    async def _sender(self) -> None:
        assert self._queue is not None
        while True:
            text = await self._queue.get()
            try:
                await self.socket.send_text(text)
            except Exception:  # noqa: BLE001 - the peer went away: its handler cleans up
                pass

    def stop(self) -> None:
        """Stop sending (the connection is closed or dropped)."""
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def send(self, message: BaseModel) -> None:
        """Queue one typed message as JSON (never waits for the peer); a connection whose
        queue is full is dropped."""
        if self.dropped:
            return
        text = message.model_dump_json(by_alias=True)
        kind = getattr(message, "type", "")
        if kind in ("view", "lobby"):
            if self._last.get(kind) == text:
                return
            self._last[kind] = text
        if self._queue is None:
            self.start()
        assert self._queue is not None
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.drop()

    def drop(self) -> None:
        """Give up on a peer that does not read: stop sending and close its socket (not
        waited for)."""
        if self.dropped:
            return
        self.dropped = True
        self.stop()
        if self.on_drop is not None:
            self.on_drop(self)
        close = getattr(self.socket, "close", None)
        if close is not None:
            task = asyncio.get_running_loop().create_task(
                asyncio.wait_for(close(code=CLOSE_SLOW), 5.0))
            task.add_done_callback(lambda t: t.cancelled() or t.exception())


class Hub:
    """Connections per table (one hub per app, not per process)."""

    def __init__(self) -> None:
        self._tables: dict[str, dict[int, Connection]] = {}
        self._ids = itertools.count(1)

    def add(self, conn: Connection) -> None:
        """Register *conn* and start sending to it (a dropped one is forgotten at once)."""
        conn.id = next(self._ids)
        self._tables.setdefault(conn.table_id, {})[conn.id] = conn
        conn.on_drop = self.remove
        conn.start()

    def remove(self, conn: Connection) -> None:
        """Forget *conn* (and stop sending to it)."""
        conn.stop()
        conns = self._tables.get(conn.table_id, {})
        conns.pop(conn.id, None)
        if not conns:
            self._tables.pop(conn.table_id, None)

    def connections(self, table_id: str) -> list[Connection]:
        """The connections at a table."""
        return list(self._tables.get(table_id, {}).values())

    def connected_seats(self, table_id: str) -> list[int]:
        """The seats with at least one connection."""
        return sorted({c.seat for c in self.connections(table_id) if c.seat is not None})

    async def send_views(self, table: Table) -> None:
        """Each connection of *table* its own seat's view."""
        views: dict[int | None, ViewMessage] = {}
        for conn in self.connections(table.table_id):
            if conn.seat not in views:
                views[conn.seat] = table.view(conn.seat)
            await conn.send(views[conn.seat])

    async def send_all(self, table_id: str, message: BaseModel) -> None:
        """One message (public: chat, the lobby) to every connection of a table."""
        for conn in self.connections(table_id):
            await conn.send(message)
