"""What the server keeps in its database, against SQLite and a real PostgreSQL: a reconnect
resumes the same view, a restarted app continues the games, finished games are listed per
player with their record and replay, and the seed never leaves the server while a game runs."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from commerce.record import GameRecord, replay
from commerce.server.app import create_app
from commerce.server.db import engine_url
from tests.harness.postgres import postgres_server
from tests.harness.server import Player, close_all, play_out, public_version

_names = itertools.count()


@contextmanager
def serving(db_url: str) -> Iterator[TestClient]:
    """An app on *db_url*; every websocket is closed before it stops."""
    with TestClient(create_app(db_url, rate=(1000.0, 1000))) as client:
        try:
            yield client
        finally:
            close_all()


@pytest.fixture(scope="module")
def pg_server() -> Iterator[str]:
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'server.sqlite3'}"
    server: str = request.getfixturevalue("pg_server")
    name = f"t{next(_names)}"
    engine = create_engine(engine_url(server), isolation_level="AUTOCOMMIT")
    with engine.connect() as c:
        c.execute(text(f"CREATE DATABASE {name}"))
    engine.dispose()
    return server.rsplit("/", 1)[0] + "/" + name


def _some_moves(players: list[Player], rng: random.Random, n: int) -> None:
    for _ in range(n):
        actor = next(p for p in players if p.view["actions"])
        action = rng.choice(actor.view["actions"])
        actor.send(type="act", action=action["notation"], version=actor.view["version"])
        for p in players:
            p.until("view")


def test_a_restarted_app_continues_the_game_where_it_was(db_url: str) -> None:
    rng = random.Random(5)
    with serving(db_url) as client:
        ann, bob = Player(client, "Ann"), Player(client, "Bob")
        table = ann.post("/api/tables", {"ruleset": "widow", "seats": 3,
                                         "bots": {"2": "heuristic"}}).json()["table_id"]
        assert bob.post(f"/api/tables/{table}/join").status_code == 200
        ann.connect(table)
        bob.connect(table)
        assert ann.post(f"/api/tables/{table}/start").status_code == 200
        for p in (ann, bob):
            p.until("view")
        _some_moves([ann, bob], rng, 4)
        # a reload: the same view again
        before = ann.view
        ann.close()
        ann.connect(table)
        assert ann.view == before
        seen = {"ann": ann.view, "bob": bob.view}
        game = ann.view["game_id"]
    with serving(db_url) as client:
        # the game in progress is listed to watch before anyone comes back to it
        listed = {t["table_id"]: t for t in client.get("/api/tables").json()}
        assert listed[table]["status"] == "playing"
        assert listed[table]["host_name"] == "Ann" and listed[table]["seats_taken"] == 3
        for p in (ann, bob):
            p.client = client
        ann.connect(table)
        bob.connect(table)
        assert ann.view == seen["ann"] and bob.view == seen["bob"]
        assert client.get(f"/api/games/{game}/record").status_code == 403
        play_out([ann, bob], rng)
        history = client.get("/api/players/me", headers=bob.auth).json()
        assert [g["game_id"] for g in history["games"]] == [game]
        assert table in [t["table_id"] for t in history["tables"]]
        record = GameRecord.from_json(client.get(f"/api/games/{game}/record").text)
        assert record.complete and public_version(record) == ann.view["version"]
        assert list(record.payoffs or ()) == [
            next(r["payoff"] for r in ann.view["standings"] if r["seat"] == k)
            for k in range(3)]
        replay(record)  # the record replays in the CLI's reader
        steps = client.get(f"/api/games/{game}/replay").json()["steps"]
        assert len(steps) == len(record.actions)
        # every hand shown in the replay
        assert all(s["cards"] for s in steps[0]["table"]["seats"])


def test_the_database_holds_the_seed_the_messages_never(db_url: str) -> None:
    with serving(db_url) as client:
        ann = Player(client, "Ann")
        table = ann.post("/api/tables", {"ruleset": "peel", "seats": 3,
                                         "bots": {"1": "random", "2": "random"}}
                         ).json()["table_id"]
        ann.connect(table)
        assert ann.post(f"/api/tables/{table}/start").status_code == 200
        ann.until("view")
        store = client.app.state.server.store  # type: ignore[attr-defined]
        record, complete = store.game_record(ann.view["game_id"])
        assert not complete and record.seed is not None
        assert all(str(record.seed) not in str(m) for m in ann.messages)


def test_a_restart_while_bots_are_to_act_goes_on_at_the_tables_pace_and_stores_it(
        db_url: str) -> None:
    """The server stops while the bots of a paced table wait their window: on restart they
    play on at the table's pace (no action of the player needed), and what the player then
    sees is what the database holds, to the end of the game."""
    rng = random.Random(2)
    with serving(db_url) as client:
        ann = Player(client, "Ann")
        table = ann.post("/api/tables", {"ruleset": "peel", "seats": 3, "offer_window_s": 2.0,
                                         "bots": {"1": "random", "2": "random"}}
                         ).json()["table_id"]
        ann.connect(table)
        assert ann.post(f"/api/tables/{table}/start").status_code == 200
        for _ in range(40):  # Ann acts until the bots are to act after her
            while not ann.view["actions"]:
                ann.until("view")
            moves = [a for a in ann.view["actions"] if a["notation"] != "stand"]
            action = rng.choice(moves or ann.view["actions"])
            ann.send(type="act", action=action["notation"], version=ann.view["version"])
            ann.until("view")
            if not ann.view["actions"] and ann.view["status"] != "over":
                break
        assert not ann.view["actions"] and ann.view["status"] != "over"
        stopped_at = ann.view["version"]
        game = ann.view["game_id"]
    with TestClient(create_app(db_url, rate=(1000.0, 1000), offer_window_s=0.05)) as client:
        try:
            ann.client = client
            ann.connect(table)
            assert ann.view["version"] == stopped_at
            store = client.app.state.server.store  # type: ignore[attr-defined]
            while ann.view["status"] != "over":
                if ann.view["actions"]:
                    pick = rng.choice(ann.view["actions"])
                    ann.send(type="act", action=pick["notation"], version=ann.view["version"])
                ann.until("view")
                record, complete = store.game_record(game)
                assert public_version(record) == ann.view["version"]
            assert complete and client.get(f"/api/games/{game}/record").status_code == 200
        finally:
            close_all()


def test_a_move_is_stored_as_one_statement_and_sqlite_keeps_a_write_ahead_log(
        db_url: str) -> None:
    from sqlalchemy import event

    from commerce.server.db import Store
    from commerce.server.tables import Table, TableConfig

    store = Store.open(db_url)
    try:
        ann = store.create_player("Ann")
        table = Table.new("t1", "inv1", ann.id, TableConfig("peel", {}, 3),
                          bots={1: "random", 2: "random"})
        table.join(ann.id, "Ann")
        table.start(ann.id, "g1", seed=7)
        store.save_table(table)
        statements: list[str] = []
        event.listen(store.engine, "before_cursor_execute",
                     lambda *args: statements.append(args[2]))
        while not table.view(0).actions:
            table.step_bot()
        table.act(ann.id, table.view(0).actions[0].notation, table.view(0).version)
        store.save_table(table)
        assert len(statements) == 1 and statements[0].lstrip().upper().startswith("UPDATE")
        again = store.load_table("t1")
        assert again is not None and again.record().actions == table.record().actions
        # a change of the seats is stored whole
        table.rename(ann.id, "Annie")
        statements.clear()
        store.save_table(table)
        assert len(statements) > 1
        assert [s.name for s in store.load_table("t1").seats][0] == "Annie"  # type: ignore[union-attr]
        if db_url.startswith("sqlite"):
            with store.engine.connect() as c:
                assert c.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    finally:
        store.close()
