"""The connections of each table, and the fan-out of each seat's own view to them.

Every message a connection gets is built for its seat alone (a spectator: for no seat) by
:meth:`commerce.server.tables.Table.view`; the hub never builds anything from a state.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel

from commerce.server.limits import Limits
from commerce.server.tables import Table

__all__ = ["Connection", "Hub", "Limiter", "Limits", "RateLimit"]


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


@dataclass
class Connection:
    """One websocket at a table: its seat (None: a spectator) and its player."""

    socket: Socket
    table_id: str
    seat: int | None
    player_id: str | None
    id: int = 0
    limit: RateLimit = field(default_factory=RateLimit)

    async def send(self, message: BaseModel) -> None:
        """Send one typed message as JSON (a closed socket is ignored)."""
        try:
            await self.socket.send_text(message.model_dump_json(by_alias=True))
        except Exception:  # noqa: BLE001 - the peer went away: its handler cleans up
            pass


class Hub:
    """Connections per table (one hub per app, not per process)."""

    def __init__(self) -> None:
        self._tables: dict[str, dict[int, Connection]] = {}
        self._ids = itertools.count(1)

    def add(self, conn: Connection) -> None:
        """Register *conn*."""
        conn.id = next(self._ids)
        self._tables.setdefault(conn.table_id, {})[conn.id] = conn

    def remove(self, conn: Connection) -> None:
        """Forget *conn*."""
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
        views: dict[int | None, Any] = {}
        for conn in self.connections(table.table_id):
            if conn.seat not in views:
                views[conn.seat] = table.view(conn.seat)
            await conn.send(views[conn.seat])

    async def send_all(self, table_id: str, message: BaseModel) -> None:
        """One message (public: chat, the lobby) to every connection of a table."""
        for conn in self.connections(table_id):
            await conn.send(message)
