"""What one player or one address may ask of the server (tables, hints, messages, players),
each refused past its limit with a 429 and one sentence; a player's tables found however many
tables others made since; and the limits as ``commerce serve``'s options."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from commerce.server import migrations
from commerce.server.app import create_app
from commerce.server.limits import Limits
from tests.harness.server import Player, close_all

PEEL = {"ruleset": "peel", "seats": 3, "bots": {"1": "random", "2": "random"}}


@pytest.fixture
def client() -> Iterator[TestClient]:
    limits = Limits(tables=(3, 600.0), hints=(2, 600.0), messages=(6, 600.0),
                    players=(20, 600.0), address_share=2)
    with TestClient(create_app("sqlite://", limits=limits)) as c:
        try:
            yield c
        finally:
            close_all()


def test_a_player_makes_only_so_many_tables_and_an_address_only_a_few_players_worth(
        client: TestClient) -> None:
    ann, bob, cat = (Player(client, n) for n in ("Ann", "Bob", "Cat"))
    made = [ann.post("/api/tables", PEEL).status_code for _ in range(4)]
    assert made == [200, 200, 200, 429]
    refused = ann.post("/api/tables", PEEL)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert refused.json() == {"error": "too many new tables: wait 200 seconds and try again"}
    # another player from the same address: the address has 2 players' worth (6) in all
    made = [bob.post("/api/tables", PEEL).status_code for _ in range(4)]
    assert made == [200, 200, 200, 429]
    assert cat.post("/api/tables", PEEL).status_code == 429
    assert len(client.get("/api/tables").json()) == 6


def test_new_players_from_one_address_are_limited(client: TestClient) -> None:
    codes = [client.post("/api/players", json={"name": f"P{k}"}).status_code
             for k in range(22)]
    assert codes == [200] * 20 + [429] * 2


def test_hints_and_messages_are_limited_per_player_across_connections(
        client: TestClient) -> None:
    ann = Player(client, "Ann")
    table = ann.post("/api/tables", PEEL).json()["table_id"]
    ann.connect(table)
    second = Player.__new__(Player)
    second.__dict__.update(ann.__dict__)  # the same player, a second connection
    second.connect(table)
    assert ann.post(f"/api/tables/{table}/start").status_code == 200
    while not ann.view["actions"]:
        ann.until("view")
    replies = []
    for _ in range(3):
        ann.send(type="hint")
        replies.append(ann.until_any("hint", "error"))
    assert [r["type"] for r in replies] == ["hint", "hint", "error"]
    assert replies[-1]["message"] == "too many hints: wait a little and ask again"
    # 6 messages in all for the player: 3 spent on hints, 3 left over both connections
    for conn in (ann, second, ann, second):
        conn.send(type="ping")
    answers = [ann.until_any("pong", "error")["type"], second.until_any("pong", "error")["type"],
               ann.until_any("pong", "error")["type"], second.until_any("pong", "error")["type"]]
    assert answers == ["pong", "pong", "pong", "error"]


def test_a_players_tables_are_found_however_many_tables_came_since() -> None:
    limits = Limits(tables=(10_000, 1.0), players=(10_000, 1.0))
    with TestClient(create_app("sqlite://", limits=limits)) as client:
        ann, bob = Player(client, "Ann"), Player(client, "Bob")
        first = ann.post("/api/tables", {"ruleset": "peel", "seats": 3}).json()["table_id"]
        assert bob.post(f"/api/tables/{first}/join").status_code == 200
        for _ in range(510):
            assert client.post("/api/tables", json=PEEL,
                               headers=Player(client, "Eve").auth).status_code == 200
        for p in (ann, bob):
            me = client.get("/api/players/me", headers=p.auth).json()
            assert [t["table_id"] for t in me["tables"]] == [first], p.name
        # a player removed from the lobby no longer has the table
        assert client.delete(f"/api/tables/{first}/seats/1", headers=ann.auth).status_code \
            == 200
        assert client.get("/api/players/me", headers=bob.auth).json()["tables"] == []


def test_serve_takes_the_limits_as_options_and_refuses_a_bad_one(tmp_path) -> None:
    from commerce.cli import build_parser
    from commerce.cli.serve import limits_of
    from tests.fuzzing import run_cli

    args = build_parser().parse_args(["serve", "--limit-tables", "4/60", "--limit-hints",
                                      "9/90", "--limit-address-share", "3"])
    got = limits_of(args)
    assert (got.tables, got.hints, got.address_share) == ((4, 60.0), (9, 90.0), 3)
    assert got.messages == Limits().messages
    code, out, err = run_cli(["serve", "--limit-tables", "many", "--db",
                              f"sqlite:///{tmp_path / 's.db'}"])
    assert code == 2 and not out
    assert "--limit-tables: 'many' is not COUNT/SECONDS" in err and err.count("\n") == 1, err


@pytest.fixture(scope="module")
def pg_server() -> Iterator[str]:
    from tests.harness.postgres import postgres_server

    with postgres_server() as url:
        yield url


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_database_of_the_first_schema_upgrades_with_each_players_tables(
        backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine, text

    from commerce.server.db import Store, engine_url

    if backend == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    else:
        server: str = request.getfixturevalue("pg_server")
        admin = create_engine(engine_url(server), isolation_level="AUTOCOMMIT")
        with admin.connect() as c:
            c.execute(text("CREATE DATABASE upgraded"))
        admin.dispose()
        url = server.rsplit("/", 1)[0] + "/upgraded"
    engine = create_engine(engine_url(url))
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(migrations.__file__).parent))
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "0001")
        for pid in ("ann", "bob", "eve"):
            connection.execute(text("INSERT INTO players (id, name, token_hash, created) "
                                    "VALUES (:i, :i, :h, CURRENT_TIMESTAMP)"),
                               {"i": pid, "h": pid * 10})
        seats = json.dumps([{"kind": "human", "player_id": "ann", "name": "ann"},
                            {"kind": "human", "player_id": "bob", "name": "bob"},
                            {"kind": "open", "player_id": None}])
        connection.execute(text(
            "INSERT INTO tables (id, invite, host_id, ruleset, options, players, public, hints,"
            " timeout_s, offer_window_s, seats, status, created, updated) VALUES ('t1', 'i1',"
            " 'ann', 'peel', '{}', 3, true, true, 120, 0, :s, 'lobby', CURRENT_TIMESTAMP,"
            " CURRENT_TIMESTAMP)"), {"s": seats})
    engine.dispose()
    store = Store.open(url)
    try:
        assert [store.tables_of(p) for p in ("ann", "bob", "eve")] == [["t1"], ["t1"], []]
    finally:
        store.close()
