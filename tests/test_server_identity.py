"""Names and seats on the real server: names normalised, misleading ones refused, renaming
shown at the player's tables, no two seats under one name, and a seat taken from a person only
when they are away (and they are told)."""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from commerce.server.app import create_app
from tests.harness.server import Player, close_all


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://", rate=(1000.0, 60))) as c:
        try:
            yield c
        finally:
            close_all()


def _table(host: Player, seats: int = 3, bots: dict[int, str] | None = None,
           **extra: object) -> str:
    reply = host.post("/api/tables", {"ruleset": "peel", "seats": seats,
                                      "bots": {str(k): v for k, v in (bots or {}).items()},
                                      **extra})
    assert reply.status_code == 200, reply.text
    return str(reply.json()["table_id"])


def test_names_are_normalised(client: TestClient) -> None:
    decomposed = "Zoe\u0301  \t Lee "
    reply = client.post("/api/players", json={"name": decomposed})
    assert reply.status_code == 200
    assert reply.json()["name"] == "Zo\u00e9 Lee" == unicodedata.normalize("NFC", "Zoé Lee")


@pytest.mark.parametrize("name", [
    "Bob\u202e", "\u202eboB", "A\u200fB", "Ann\x00", "Ann\x07", "Ann\u2028Lee", "A\u2029B",
    "\ue000Ann", "Ann\u2066x\u2069", "Ann\ufeff", "You", "you", " YOU ",
])
def test_misleading_names_are_refused_in_one_sentence(client: TestClient, name: str) -> None:
    reply = client.post("/api/players", json={"name": name})
    assert reply.status_code == 422, reply.text
    error = reply.json()["error"]
    assert error.startswith("name: ") and "\n" not in error
    assert all(unicodedata.category(ch) not in ("Cc", "Cf") for ch in error), error


def test_a_lone_surrogate_in_a_name_is_refused(client: TestClient) -> None:
    reply = client.post("/api/players", content=b'{"name": "Ann\\ud800"}',
                        headers={"Content-Type": "application/json"})
    assert reply.status_code == 422 and "U+D800" in reply.json()["error"]


def test_a_name_already_at_the_table_is_shown_numbered(client: TestClient) -> None:
    ann, other = Player(client, "Ann"), Player(client, "ann")
    table = _table(ann, bots={2: "random"})
    info = other.post(f"/api/tables/{table}/join").json()
    assert [s["name"] for s in info["seats"]] == ["Ann", "ann (2)", "random bot"]


def test_two_bots_of_one_level_get_distinct_names(client: TestClient) -> None:
    ann = Player(client, "Ann")
    table = _table(ann, seats=4, bots={1: "heuristic", 2: "random", 3: "heuristic"})
    names = [s["name"] for s in client.get(f"/api/tables/{table}").json()["seats"]]
    assert names == ["Ann", "heuristic bot 1", "random bot", "heuristic bot 2"]
    info = ann.post(f"/api/tables/{table}/seats/2", {"kind": "bot", "level": "heuristic"})
    assert [s["name"] for s in info.json()["seats"]] == \
        ["Ann", "heuristic bot 1", "heuristic bot 2", "heuristic bot 3"]
    ann.connect(table)
    assert ann.post(f"/api/tables/{table}/start").status_code == 200
    view = ann.until("view")
    assert len({s["name"] for s in view["table"]["seats"]}) == 4


def test_renaming_shows_the_new_name_at_the_players_tables(client: TestClient) -> None:
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    table = _table(ann, bots={2: "random"})
    assert bob.post(f"/api/tables/{table}/join").status_code == 200
    reply = client.patch("/api/players/me", json={"name": " Robert\u00a0 "}, headers=bob.auth)
    assert reply.status_code == 200, reply.text
    assert reply.json() == {"player_id": bob.id, "name": "Robert", "token": None}
    assert client.get("/api/players/me", headers=bob.auth).json()["name"] == "Robert"
    seats = client.get(f"/api/tables/{table}").json()["seats"]
    assert seats[1]["name"] == "Robert"
    # a name already at the table is numbered; a misleading one refused
    reply = client.patch("/api/players/me", json={"name": "Ann"}, headers=bob.auth)
    assert reply.json()["name"] == "Ann"
    assert client.get(f"/api/tables/{table}").json()["seats"][1]["name"] == "Ann (2)"
    bad = client.patch("/api/players/me", json={"name": "\u202eAnn"}, headers=bob.auth)
    assert bad.status_code == 422
    assert client.patch("/api/players/me", json={"name": "X"}).status_code == 401
    # in a game, every view shows the new name
    ann.connect(table)
    bob.connect(table)
    assert ann.post(f"/api/tables/{table}/start").status_code == 200
    ann.until("view")
    assert client.patch("/api/players/me", json={"name": "Bobby"},
                        headers=bob.auth).status_code == 200
    assert ann.until("view")["table"]["seats"][1]["name"] == "Bobby"


def test_a_chat_line_with_a_direction_override_is_refused(client: TestClient) -> None:
    ann = Player(client, "Ann")
    ann.connect(_table(ann, bots={1: "random", 2: "random"}))
    ann.send(type="chat", text="gg \u202eevil")
    reply = ann.until_any("chat", "error")
    assert reply == {"type": "error", "message": "chat line: U+202E is a control or format "
                                                 "character; write a chat line without it"}


def test_the_host_hands_only_an_away_seat_to_a_bot_and_the_player_is_told(
        client: TestClient) -> None:
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    table = _table(ann, bots={2: "random"}, timeout_s=1)
    assert bob.post(f"/api/tables/{table}/join").status_code == 200
    ann.connect(table)
    bob.connect(table)
    # the host's own seat: never removed nor given away
    for reply in (client.delete(f"/api/tables/{table}/seats/0", headers=ann.auth),
                  ann.post(f"/api/tables/{table}/seats/0", {"kind": "bot"})):
        assert reply.status_code == 400
        assert reply.json()["error"].startswith("you host this table")
    assert ann.post(f"/api/tables/{table}/start").status_code == 200
    bob.until("view")
    # Bob is at the table: his seat stays his
    for reply in (client.delete(f"/api/tables/{table}/seats/1", headers=ann.auth),
                  ann.post(f"/api/tables/{table}/seats/1", {"kind": "bot"})):
        assert reply.status_code == 400
        assert reply.json()["error"] == \
            "Bob is at the table: only an away player's seat can be " + (
                "removed" if reply.request.method == "DELETE" else "given to a bot")
    assert client.get(f"/api/tables/{table}").json()["seats"][1]["kind"] == "human"
    # once he is away, it may go to a bot, and he is told when he comes back
    bob.close()
    deadline = time.monotonic() + 10
    while not client.get(f"/api/tables/{table}").json()["seats"][1]["away"]:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    reply = ann.post(f"/api/tables/{table}/seats/1", {"kind": "bot"})
    assert reply.status_code == 200 and reply.json()["seats"][1]["kind"] == "bot"
    bob.connect(table)
    assert bob.view["seat"] is None
    assert _notices(ann, bob) == ["the host gave your seat to a bot: watch, or join another "
                                  "table"]


def test_a_player_removed_from_the_lobby_is_told_at_once(client: TestClient) -> None:
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    table = _table(ann, bots={2: "random"})
    assert bob.post(f"/api/tables/{table}/join").status_code == 200
    bob.connect(table)
    ann.connect(table)
    assert client.delete(f"/api/tables/{table}/seats/1", headers=ann.auth).status_code == 200
    assert _notices(ann, bob) == ["the host removed you from your seat"]


def _notices(host: Player, player: Player) -> list[str]:
    """What *player* was told up to a chat line the host says now (which ends the wait)."""
    start = len(player.messages)
    host.send(type="chat", text="over to you")
    player.until("chat")
    return [m["message"] for m in player.messages[start:] if m["type"] == "notice"]
