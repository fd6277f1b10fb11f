"""The server's tables in the database (SQLAlchemy 2; created by the Alembic migrations in
:mod:`commerce.server.migrations`).

A game's record holds its seed: it is read only by the server, and served only once the game
is over (:mod:`commerce.server.app`).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = ["Base", "GameRow", "PlayerRow", "SeatRow", "TablePlayerRow", "TableRow"]


def _now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """The models' base."""


class PlayerRow(Base):
    """A player: a name and the hash of their token (the token itself is never stored)."""

    __tablename__ = "players"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class TableRow(Base):
    """A table: settings, seats (JSON) and status."""

    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    invite: Mapped[str] = mapped_column(String(16), unique=True, index=True)
    host_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    ruleset: Mapped[str] = mapped_column(String(60))
    options: Mapped[str] = mapped_column(Text)
    players: Mapped[int] = mapped_column(Integer)
    public: Mapped[bool] = mapped_column(Boolean)
    hints: Mapped[bool] = mapped_column(Boolean)
    timeout_s: Mapped[float] = mapped_column(Float)
    turn_timer_s: Mapped[float | None] = mapped_column(Float, nullable=True)
    offer_window_s: Mapped[float] = mapped_column(Float)
    seats: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), index=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now,
                                              onupdate=_now)


class GameRow(Base):
    """A game at a table: its record (seed and actions) as the CLI's JSON."""

    __tablename__ = "games"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    ruleset: Mapped[str] = mapped_column(String(60))
    record: Mapped[str] = mapped_column(Text)
    actions: Mapped[int] = mapped_column(Integer, default=0)
    complete: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now,
                                              onupdate=_now)


class SeatRow(Base):
    """Who played which seat of a game (a player's history)."""

    __tablename__ = "game_seats"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)


class TablePlayerRow(Base):
    """Who hosts or holds a seat at a table now (a player's tables, found by player)."""

    __tablename__ = "table_players"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True,
                                           index=True)
