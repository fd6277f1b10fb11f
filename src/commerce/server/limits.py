"""What one player, and one address, may ask of the server (kept free of the server's
packages: ``commerce serve``'s options read it)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Limits"]


@dataclass(frozen=True)
class Limits:
    """What one player, and one address, may ask of the server: each limit is *(count,
    seconds)*, a token bucket of *count* at once refilled at *count* per *seconds*. An address
    (every player behind it together) gets *address_share* times each player's limit.

    >>> Limits().tables
    (10, 600.0)
    >>> Limits.parse("5/60")
    (5, 60.0)
    """

    tables: tuple[int, float] = (10, 600.0)
    """New tables (``POST /api/tables``)."""
    hints: tuple[int, float] = (20, 60.0)
    """Hints asked for (each runs the search bot)."""
    messages: tuple[int, float] = (40, 2.0)
    """Websocket messages (actions, chat lines, pings)."""
    players: tuple[int, float] = (50, 3600.0)
    """New players (``POST /api/players``), per address only."""
    address_share: int = 5
    """How many players' worth of each limit one address gets."""

    @staticmethod
    def parse(text: str) -> tuple[int, float]:
        """``"COUNT/SECONDS"`` as a limit (*count* at least 1, *seconds* above 0).

        :raises ValueError: saying what is wrong.
        """
        count, sep, seconds = text.partition("/")
        try:
            n, t = int(count), float(seconds)
        except ValueError:
            n, t = 0, 0.0
        if not sep or n < 1 or not 0 < t < 1e9:
            raise ValueError(f"{text!r} is not COUNT/SECONDS (e.g. 10/600: 10 at once, then "
                             "10 every 600 seconds)")
        return n, t

    def describe(self) -> str:
        """The limits in words, as ``commerce serve`` and the load test state them."""
        def one(limit: tuple[int, float]) -> str:
            return f"{limit[0]}/{limit[1]:g}s"
        return (f"per player: tables {one(self.tables)}, hints {one(self.hints)}, messages "
                f"{one(self.messages)}; per address {self.address_share}x that, and new "
                f"players {one(self.players)}")
