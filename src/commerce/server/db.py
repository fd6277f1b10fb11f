"""The server's database: players, tables and game records, through SQLAlchemy 2.

SQLite by default, PostgreSQL by URL (``postgresql://...``, driven by psycopg 3). The schema
is made and kept up to date by the Alembic migrations shipped in
:mod:`commerce.server.migrations`, run by :meth:`Store.open`.

>>> store = Store.open("sqlite://")
>>> player = store.create_player("Ann")
>>> store.player_by_token(player.token).name
'Ann'
>>> store.player_by_token("forged") is None
True
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, delete, event, select, update
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from commerce.record import GameRecord
from commerce.server.models import GameRow, PlayerRow, SeatRow, TablePlayerRow, TableRow
from commerce.server.tables import Seat, Table, TableConfig

__all__ = ["Player", "Store", "engine_url", "migrate"]


def engine_url(url: str) -> str:
    """*url* with the psycopg 3 driver named for PostgreSQL (``postgresql://`` alone would ask
    for psycopg2).

    >>> engine_url("postgresql://u@h/db")
    'postgresql+psycopg://u@h/db'
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "head")


def private_file(url: str) -> None:
    """Create the SQLite file of *url* readable and writable by its owner alone (0600), where
    it does not exist yet: it holds every player's token hash and every game's seed. (SQLite
    gives its journal the same permissions.)"""
    path = url.split("///", 1)[1].split("?", 1)[0] if "///" in url else ""
    if not path or path == ":memory:" or path.startswith("file:"):
        return
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        return
    os.close(fd)


def _write_ahead(connection: Any, _record: Any) -> None:
    """A SQLite file database keeps a write-ahead log, synced at checkpoints: a move's commit
    then writes one page to the log instead of syncing the file twice. A committed move
    survives the server being killed (the log is on disk); only a power cut may lose the
    last moment's moves. (The log and its index take the database file's permissions.)"""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _members(host_id: str, seats_json: str) -> set[str]:
    """The host and the people seated, from a table's stored seats."""
    seats = json.loads(seats_json) if seats_json else []
    return {host_id} | {x["player_id"] for x in seats
                        if x.get("kind") == "human" and x.get("player_id")}


def _shell(row: TableRow, games: list[str] | None = None) -> Table:
    """The table a row holds: settings, seats and status, no game resumed."""
    config = TableConfig(row.ruleset, json.loads(row.options), row.players, row.public,
                         row.hints, row.timeout_s, row.turn_timer_s, row.offer_window_s)
    seats = [Seat(**x) for x in json.loads(row.seats)]
    status = row.status if row.status in ("lobby", "playing", "over") else "lobby"
    return Table(row.id, row.invite, row.host_id, config, seats, status,  # type: ignore[arg-type]
                 row.game_id, games or [])


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass(frozen=True)
class Player:
    """A player as the server knows them; *token* only when just created."""

    id: str
    name: str
    token: str | None = None


class Store:
    """The database of one server (thread-safe: a session per call)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._session = sessionmaker(engine, expire_on_commit=False)
        self._stored: dict[str, tuple[str, str, str | None, str]] = {}
        """Per table id: what its row holds as this store last wrote or read it (seats,
        status, game, host), so that a move, which changes the game's record alone, is one
        UPDATE of the record (the table's owner is the one writer of its rows)."""

    @classmethod
    def open(cls, url: str) -> Store:
        """Connect to the database at *url* and run the migrations."""
        url = engine_url(url)
        kwargs: dict[str, Any] = {}
        if url in ("sqlite://", "sqlite:///:memory:"):
            kwargs = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
        elif url.startswith("sqlite"):
            kwargs = {"connect_args": {"check_same_thread": False, "timeout": 30}}
            private_file(url)
        else:
            # as many connections as the server's worker threads may write with at once (the
            # default five, and ten more, left a hundred tables' moves queueing for one)
            kwargs = {"pool_size": 20, "max_overflow": 20}
        engine = create_engine(url, **kwargs)
        if url.startswith("sqlite") and "poolclass" not in kwargs:
            event.listen(engine, "connect", _write_ahead)
        migrate(engine)
        return cls(engine)

    def close(self) -> None:
        """Close every connection."""
        self.engine.dispose()

    def session(self) -> Session:
        """A new session."""
        return self._session()

    # -- players -------------------------------------------------------------------------------
    def create_player(self, name: str) -> Player:
        """A new player with a random token (returned once, stored only as a hash)."""
        token = secrets.token_urlsafe(24)
        row = PlayerRow(id=secrets.token_hex(8), name=name, token_hash=_hash(token))
        with self.session() as s, s.begin():
            s.add(row)
        return Player(row.id, row.name, token)

    def player_by_token(self, token: str | None) -> Player | None:
        """The player whose token this is, or None (compared in constant time)."""
        if not token or len(token) > 200:
            return None
        digest = _hash(token)
        with self.session() as s:
            row = s.scalar(select(PlayerRow).where(PlayerRow.token_hash == digest))
        if row is None or not hmac.compare_digest(row.token_hash, digest):
            return None
        return Player(row.id, row.name)

    def rename_player(self, player_id: str, name: str) -> None:
        """Give a player a new name (already normalised: :func:`.names.player_name`)."""
        with self.session() as s, s.begin():
            s.execute(update(PlayerRow).where(PlayerRow.id == player_id).values(name=name))

    def player(self, player_id: str) -> Player | None:
        """A player by id."""
        with self.session() as s:
            row = s.get(PlayerRow, player_id)
        return None if row is None else Player(row.id, row.name)

    # -- tables --------------------------------------------------------------------------------
    def save_table(self, table: Table) -> None:
        """Store *table*'s settings, seats and status, and its current game's record."""
        seats = json.dumps([x.to_dict() for x in table.seats])
        now = (seats, table.status, table.game_id, table.host_id)
        if (self._stored.get(table.table_id) == now and table.driver is not None
                and table.game_id is not None):
            # a move: the table's row and the game's seats stand as stored
            record = table.record()
            with self.session() as s, s.begin():
                done = s.execute(update(GameRow).where(GameRow.id == table.game_id).values(
                    record=record.to_json(), actions=len(record.actions),
                    complete=record.complete))
                if getattr(done, "rowcount", 1) == 1:
                    return
            self._stored.pop(table.table_id, None)
        self._save_whole(table, seats)
        self._stored[table.table_id] = now

    def _save_whole(self, table: Table, seats: str) -> None:
        c = table.config
        with self.session() as s, s.begin():
            row = s.get(TableRow, table.table_id)
            if row is None:
                row = TableRow(id=table.table_id, invite=table.invite, host_id=table.host_id,
                               ruleset=c.ruleset, options=json.dumps(c.options),
                               players=c.players, public=c.public, hints=c.hints,
                               timeout_s=c.timeout_s, turn_timer_s=c.turn_timer_s,
                               offer_window_s=c.offer_window_s)
                s.add(row)
                before: set[str] = set()
            else:
                before = _members(row.host_id, row.seats)
            row.seats = seats
            row.status = table.status
            row.game_id = table.game_id
            after = _members(table.host_id, row.seats)
            if after != before:
                s.flush()
                if before - after:
                    s.execute(delete(TablePlayerRow).where(
                        TablePlayerRow.table_id == table.table_id,
                        TablePlayerRow.player_id.in_(sorted(before - after))))
                for player_id in sorted(after - before):
                    s.add(TablePlayerRow(table_id=table.table_id, player_id=player_id))
            if table.driver is not None and table.game_id is not None:
                self._save_game(s, table)

    def _save_game(self, s: Session, table: Table) -> None:
        assert table.game_id is not None
        record = table.record()
        game = s.get(GameRow, table.game_id)
        if game is None:
            game = GameRow(id=table.game_id, table_id=table.table_id,
                           ruleset=table.config.ruleset, record=record.to_json())
            s.add(game)
            s.flush()
            for k, seat in enumerate(table.seats):
                if seat.kind == "human" and seat.player_id is not None:
                    s.add(SeatRow(game_id=game.id, seat=k, player_id=seat.player_id))
        game.record = record.to_json()
        game.actions = len(record.actions)
        game.complete = record.complete

    def load_table(self, key: str) -> Table | None:
        """The table with this id or invite code, its game resumed, or None."""
        with self.session() as s:
            row = s.get(TableRow, key) or s.scalar(select(TableRow).where(TableRow.invite == key))
            if row is None:
                return None
            # read afresh (another process of a cluster may have written it): the next save
            # writes the whole table
            self._stored.pop(row.id, None)
            games = list(s.scalars(select(GameRow.id).where(GameRow.table_id == row.id)
                                   .order_by(GameRow.created)))
            game = s.get(GameRow, row.game_id) if row.game_id else None
        table = _shell(row, games)
        if game is not None:
            table.resume(GameRecord.from_json(game.record))
        return table

    def public_tables(self, limit: int = 100) -> list[str]:
        """The ids of the public tables still in the lobby, newest first."""
        with self.session() as s:
            return list(s.scalars(select(TableRow.id).where(TableRow.public.is_(True),
                                                           TableRow.status == "lobby")
                                  .order_by(TableRow.created.desc()).limit(limit)))

    def public_games(self, limit: int = 30) -> list[Table]:
        """The public tables playing a game now, the last seated or started first, as their
        rows hold them: settings, seats and status, the game not read (enough for the lobby's
        list of games to watch, whichever process of a cluster owns them)."""
        with self.session() as s:
            rows = list(s.scalars(select(TableRow).where(TableRow.public.is_(True),
                                                        TableRow.status == "playing")
                                  .order_by(TableRow.updated.desc()).limit(limit)))
        return [_shell(row) for row in rows]

    def hosted(self, player_id: str) -> list[tuple[str, int]]:
        """The tables *player_id* hosts that are not over: (id, how many bots sit there)."""
        with self.session() as s:
            rows = s.execute(select(TableRow.id, TableRow.seats)
                             .where(TableRow.host_id == player_id,
                                    TableRow.status != "over")).all()
        return [(r.id, sum(1 for x in json.loads(r.seats) if x.get("kind") == "bot"))
                for r in rows]

    def tables_of(self, player_id: str, limit: int = 200, *,
                  unfinished: bool = False) -> list[str]:
        """The ids of the tables where *player_id* holds a seat or hosts, newest first (found
        through the player's index, however many tables others made since); *unfinished*:
        only those in the lobby or playing."""
        query = (select(TableRow.id).join(TablePlayerRow, TablePlayerRow.table_id == TableRow.id)
                 .where(TablePlayerRow.player_id == player_id))
        if unfinished:
            query = query.where(TableRow.status.in_(("lobby", "playing")))
        with self.session() as s:
            return list(s.scalars(query.order_by(TableRow.created.desc()).limit(limit)))

    # -- games ---------------------------------------------------------------------------------
    def game_record(self, game_id: str) -> tuple[GameRecord, bool] | None:
        """A game's record and whether it is finished, or None."""
        with self.session() as s:
            row = s.get(GameRow, game_id)
        if row is None:
            return None
        return GameRecord.from_json(row.record), row.complete

    def games_of(self, player_id: str) -> list[dict[str, Any]]:
        """The games *player_id* played, newest first."""
        with self.session() as s:
            rows = s.execute(select(GameRow, SeatRow.seat).join(SeatRow)
                             .where(SeatRow.player_id == player_id)
                             .order_by(GameRow.created.desc()).limit(200)).all()
        out = []
        for game, seat in rows:
            payoffs = json.loads(game.record).get("payoffs") if game.complete else None
            out.append({"game_id": game.id, "table_id": game.table_id,
                        "ruleset": game.ruleset, "seat": seat, "complete": game.complete,
                        "payoffs": payoffs, "played": game.updated})
        return out
