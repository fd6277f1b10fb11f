"""The multiplayer server through FastAPI's TestClient: players, the lobby, whole games with
two and three clients and a bot, spectators, chat, and every refusal."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from commerce.server.app import create_app
from commerce.server.protocol import MAX_MESSAGE_BYTES
from tests.harness.server import Player, close_all, play_out


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://", rate=(1000.0, 60))) as c:
        try:
            yield c
        finally:
            close_all()


def _table(host: Player, ruleset: str, seats: int, bots: dict[int, str],
           **extra: object) -> str:
    reply = host.post("/api/tables", {"ruleset": ruleset, "seats": seats,
                                      "bots": {str(k): v for k, v in bots.items()}, **extra})
    assert reply.status_code == 200, reply.text
    return str(reply.json()["table_id"])


def _whole_game(client: TestClient, ruleset: str, humans: int, seed: int) -> None:
    players = [Player(client, f"P{k}") for k in range(humans)]
    table = _table(players[0], ruleset, humans + 1, {humans: "heuristic"})
    for p in players[1:]:
        assert p.post(f"/api/tables/{table}/join").status_code == 200
    for p in players:
        p.connect(table)
    assert players[0].post(f"/api/tables/{table}/start").status_code == 200
    for p in players:
        p.until("view")
        assert p.view["status"] in ("playing", "showdown")
    made = play_out(players, random.Random(seed))
    assert made > 0
    last = players[0].view
    assert last["standings"] is not None and len(last["standings"]) == humans + 1
    assert all(p.view["version"] == last["version"] for p in players)
    assert sum(r["payoff"] for r in last["standings"]) == 0 or ruleset != "peel"
    # the game is in each player's history, and its record is served
    me = client.get("/api/players/me", headers=players[1].auth).json()
    assert [g["complete"] for g in me["games"]] == [True]
    record = client.get(f"/api/games/{last['game_id']}/record").json()
    assert record["complete"] and record["hidden"]["actions"]
    for p in players:
        p.close()


def test_two_clients_and_a_bot_play_a_whole_game_of_peel(client: TestClient) -> None:
    _whole_game(client, "peel", 2, seed=1)


def test_three_clients_and_a_bot_play_a_whole_widow_game(client: TestClient) -> None:
    _whole_game(client, "widow", 3, seed=2)


def test_every_ruleset_is_offered_with_its_options(client: TestClient) -> None:
    rows = client.get("/api/rulesets").json()
    ids = {r["id"] for r in rows}
    assert {"peel", "widow"} <= ids
    peel = next(r for r in rows if r["id"] == "peel")
    assert peel["options"] and all("default" in o and o["doc"] for o in peel["options"])


@pytest.fixture
def started(client: TestClient) -> tuple[TestClient, Player, Player, Player, str]:
    ann, bob, eve = (Player(client, n) for n in ("Ann", "Bob", "Eve"))
    table = _table(ann, "peel", 3, {2: "random"})
    assert bob.post(f"/api/tables/{table}/join").status_code == 200
    ann.connect(table)
    bob.connect(table)
    eve.connect(table)  # not seated: a spectator
    assert ann.post(f"/api/tables/{table}/start").status_code == 200
    for p in (ann, bob, eve):
        p.until("view")
    return client, ann, bob, eve, table


def _acting(ann: Player, bob: Player) -> tuple[Player, Player]:
    return (ann, bob) if ann.view["actions"] else (bob, ann)


def test_refused_intents_get_one_error_and_change_nothing(
        started: tuple[TestClient, Player, Player, Player, str]) -> None:
    client, ann, bob, eve, table = started
    actor, other = _acting(ann, bob)
    version = actor.view["version"]
    good = actor.view["actions"][0]["notation"]
    cases = [
        (other, {"type": "act", "action": good, "version": version}, "not your turn"),
        (actor, {"type": "act", "action": good, "version": version - 1}, "stale version"),
        (actor, {"type": "act", "action": "fly away", "version": version}, ""),
        (actor, {"type": "act", "version": version}, "malformed act message"),
        (actor, {"type": "dance"}, "unknown message type"),
        (eve, {"type": "act", "action": good, "version": version}, "no seat"),
        (actor, {"type": "hello", "token": actor.token}, "already said hello"),
        (actor, {"type": "chat", "text": "x" * 301}, "malformed chat message"),
    ]
    for who, message, words in cases:
        who.send(**message)
        reply = who.receive()
        assert reply["type"] == "error", (message, reply)
        assert words in reply["message"], (message, reply)
    actor.ws.send_text("{not json")
    assert actor.receive() == {"type": "error", "message": "malformed message: not JSON"}
    actor.ws.send_text("x" * (MAX_MESSAGE_BYTES + 1))
    assert "too long" in actor.receive()["message"]
    # nothing changed: the same version, and the good action still plays
    actor.send(type="ping")
    assert actor.receive()["type"] == "pong"
    actor.send(type="act", action=good, version=version)
    assert actor.until("view")["version"] > version


def test_a_spectator_sees_no_hidden_card_and_no_action(
        started: tuple[TestClient, Player, Player, Player, str]) -> None:
    client, ann, bob, eve, table = started
    view = eve.view
    assert view["seat"] is None and view["actions"] == [] and view["table"]["hand"] == []
    assert all(s["cards"] == [] for s in view["table"]["seats"])
    mine = ann.view["table"]["seats"][0]
    assert mine["you"] and len(mine["cards"]) == 3
    assert ann.view["table"]["seats"][1]["cards"] == []  # Bob's cards are hidden from Ann


def test_chat_reaches_everyone_and_is_bounded(
        started: tuple[TestClient, Player, Player, Player, str]) -> None:
    client, ann, bob, eve, table = started
    ann.send(type="chat", text="  good   luck <b>all</b> ")
    for p in (ann, bob, eve):
        msg = p.until("chat")
        assert msg == {"type": "chat", "from": "Ann", "text": "good luck <b>all</b>"}


def test_too_many_messages_are_refused() -> None:
    with TestClient(create_app("sqlite://", rate=(0.5, 10))) as client:
        try:
            ann = Player(client, "Ann")
            ann.connect(_table(ann, "peel", 3, {1: "random", 2: "random"}))
            for _ in range(12):
                ann.send(type="ping")
            replies = [ann.receive()["type"] for _ in range(12)]
            assert replies == ["pong"] * 10 + ["error"] * 2
        finally:
            close_all()


def test_lobby_refusals(client: TestClient) -> None:
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    bad = [
        (client.post("/api/tables", json={"ruleset": "peel", "seats": 3}), 401),
        (client.post("/api/tables", json={"ruleset": "peel", "seats": 3},
                     headers={"Authorization": "Bearer forged"}), 401),
        (ann.post("/api/tables", {"ruleset": "nonesuch", "seats": 3}), 400),
        (ann.post("/api/tables", {"ruleset": "peel", "seats": 3, "options": {"x": 1}}), 400),
        (ann.post("/api/tables", {"ruleset": "peel", "seats": 40}), 422),
        (ann.post("/api/tables", {"ruleset": "peel", "seats": 3, "bots": {"1": "god"}}), 400),
        (client.post("/api/players", json={"name": ""}), 422),
        (client.get("/api/tables/nonesuch"), 404),
    ]
    for reply, status in bad:
        assert reply.status_code == status, reply.text
        assert set(reply.json()) == {"error"} and reply.json()["error"]
    table = _table(ann, "peel", 3, {2: "random"})
    assert bob.post(f"/api/tables/{table}/start").status_code == 400  # not the host
    assert ann.post(f"/api/tables/{table}/start").json()["error"].startswith("every seat")
    assert bob.post(f"/api/tables/{table}/join", {"seat": 0}).json()["error"] == \
        "seat 0 is taken"
    assert bob.post(f"/api/tables/{table}/join").status_code == 200
    info = client.get(f"/api/tables/{table}").json()
    assert [s["kind"] for s in info["seats"]] == ["human", "human", "bot"]
    assert bob.post(f"/api/tables/{table}/seats/1", {"kind": "bot"}).status_code == 400
    assert client.delete(f"/api/tables/{table}/seats/1", headers=ann.auth).status_code == 200
    info = client.get(f"/api/tables/{table}").json()
    assert info["seats"][1]["kind"] == "open"
    assert [t["table_id"] for t in client.get("/api/tables").json()] == [table]
    assert client.get(f"/api/games/{'x' * 16}/record").status_code == 404


def test_a_record_is_not_served_before_the_game_ends(
        started: tuple[TestClient, Player, Player, Player, str]) -> None:
    client, ann, bob, eve, table = started
    game = ann.view["game_id"]
    for path in ("record", "replay"):
        reply = client.get(f"/api/games/{game}/{path}")
        assert reply.status_code == 403 and "not over" in reply.json()["error"]
    assert "seed" not in json.dumps(ann.messages)


def test_an_away_player_is_played_by_a_bot_until_they_return(client: TestClient) -> None:
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    table = _table(ann, "peel", 3, {2: "random"}, timeout_s=1)
    assert bob.post(f"/api/tables/{table}/join").status_code == 200
    ann.connect(table)
    bob.connect(table)
    assert ann.post(f"/api/tables/{table}/start").status_code == 200
    ann.until("view")
    bob.close()
    while not ann.lobby["seats"][1]["away"]:
        ann.until("lobby")
    ann.until("view")
    seat = ann.view["table"]["seats"][1]
    assert seat["bot"] and seat["away"]
    # the bot played Bob's turns: the game waits for Ann (or is over)
    assert ann.view["actions"] or ann.view["status"] == "over"
    bob.connect(table)
    assert not bob.lobby["seats"][1]["away"]
    assert not bob.view["table"]["seats"][1]["away"]


def test_with_an_offer_window_every_bot_action_waits_and_is_seen_alone(
        client: TestClient) -> None:
    import time

    ann = Player(client, "Ann")
    window = 0.02
    table = _table(ann, "widow", 3, {1: "random", 2: "random"}, offer_window_s=window)
    ann.connect(table)
    assert ann.post(f"/api/tables/{table}/start").status_code == 200
    rng = random.Random(3)
    versions: list[int] = []
    bot_views = 0
    began = time.monotonic()
    while ann.view["status"] != "over":
        if ann.view["actions"]:
            action = rng.choice(ann.view["actions"])
            ann.send(type="act", action=action["notation"], version=ann.view["version"])
        before = ann.view["version"]
        ann.until("view")
        if not ann.view["actions"] or ann.view["version"] > before + 1:
            bot_views += 1
        versions.append(ann.view["version"])
    elapsed = time.monotonic() - began
    assert versions == sorted(versions)
    assert bot_views > 2
    # each bot action waited the window at least (a lower bound: it cannot flake)
    assert elapsed >= window * (bot_views - 1)


def test_serve_on_a_port_in_use_is_refused_in_one_line(tmp_path):
    from tests.fuzzing import busy_port, run_cli

    db = tmp_path / "s.db"
    code, out, err = run_cli(["serve", "--port", str(busy_port()), "--db", f"sqlite:///{db}"])
    assert code == 2 and not out, (code, out)
    assert err.startswith("commerce serve: error: cannot listen on 127.0.0.1:") and \
        err.count("\n") == 1, err
    assert not db.exists()  # refused before the database was made


def test_a_turn_timer_shows_the_time_left_and_plays_the_turn_when_it_runs_out(
        client: TestClient) -> None:
    import time

    ann = Player(client, "Ann")
    table = _table(ann, "peel", 3, {1: "random", 2: "random"}, turn_timer_s=5)
    ann.connect(table)
    assert ann.post(f"/api/tables/{table}/start").status_code == 200
    while not ann.view["actions"] and ann.view["status"] != "over":
        ann.until("view")
    timer = ann.view["timer"]
    assert timer["seat"] == 0 and timer["name"] == "Ann" and timer["seconds"] == 5
    assert 0 < timer["ends_at"] - time.time() <= 5
    version = ann.view["version"]
    ann.until("view")  # nothing sent: the time runs out and the bot plays Ann's turn
    assert ann.view["version"] > version
    assert any("Ann's time ran out: the table's bot played" in line for line in ann.view["log"])


def test_a_timed_out_turn_is_played_once_and_only_while_it_is_still_due() -> None:
    from commerce.server.tables import Table, TableConfig

    table = Table.new("t", "i", "host", TableConfig("peel", {}, 3, turn_timer_s=30),
                      bots={1: "random", 2: "random"})
    table.join("host", "Ann", 0)
    table.start("host", "g1", seed=5)
    due = table.timer_for()
    assert due is not None and due[1] == 0
    version = due[0]
    assert not table.time_out(1, version)  # not that seat's turn
    assert not table.time_out(0, version + 1)  # not the game's version
    assert table.time_out(0, version)
    assert table.public_version > version and not table.time_out(0, version)
    assert table.view(0).log[-1].startswith("Ann's time ran out: the table's bot played ")
    assert Table.new("u", "j", "host", TableConfig("peel", {}, 3),
                     bots={1: "random", 2: "random"}).timer_for() is None
