"""Clients of the server for the tests: players over the app's REST API and websockets
(FastAPI's TestClient, in process)."""

from __future__ import annotations

import json
import random
from typing import Any

from fastapi.testclient import TestClient

OPEN: list[Player] = []
"""Players with an open websocket (closed by the tests' fixture, :func:`close_all`)."""


def close_all() -> None:
    """Close every open websocket (before the app stops, which waits for them)."""
    while OPEN:
        OPEN.pop().close()


class Player:
    """A player: a token, and a websocket at one table."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.client = client
        reply = client.post("/api/players", json={"name": name})
        assert reply.status_code == 200, reply.text
        body = reply.json()
        self.id: str = body["player_id"]
        self.token: str = body["token"]
        self.name = name
        self.ws: Any = None
        self.view: dict[str, Any] = {}
        self.lobby: dict[str, Any] = {}
        self.messages: list[dict[str, Any]] = []

    @property
    def auth(self) -> dict[str, str]:
        """The header that proves who this is."""
        return {"Authorization": f"Bearer {self.token}"}

    def post(self, path: str, body: Any = None) -> Any:
        """A REST call as this player."""
        return self.client.post(path, json=body, headers=self.auth)

    def connect(self, table: str, *, spectate: bool = False) -> None:
        """Open the table's websocket and read up to the first view."""
        self.ws = self.client.websocket_connect(f"/ws/tables/{table}").__enter__()
        OPEN.append(self)
        self.ws.send_text(json.dumps({"type": "hello", "token": self.token,
                                      "spectate": spectate}))
        self.until("view")

    def close(self) -> None:
        """Close the websocket."""
        if self.ws is not None:
            self.ws.__exit__(None, None, None)
            self.ws = None

    def receive(self) -> dict[str, Any]:
        """The next message (kept in :attr:`messages`; views and lobbies remembered)."""
        msg: dict[str, Any] = json.loads(self.ws.receive_text())
        self.messages.append(msg)
        if msg["type"] == "view":
            self.view = msg
        elif msg["type"] == "lobby":
            self.lobby = msg["table"]
        return msg

    def until(self, kind: str) -> dict[str, Any]:
        """Read messages up to the next one of *kind*."""
        while True:
            msg = self.receive()
            if msg["type"] == kind:
                return msg

    def until_any(self, *kinds: str) -> dict[str, Any]:
        """Read messages up to the next one of any of *kinds*."""
        while True:
            msg = self.receive()
            if msg["type"] in kinds:
                return msg

    def send(self, **message: Any) -> None:
        """Send one message."""
        self.ws.send_text(json.dumps(message))


def play_out(players: list[Player], rng: random.Random, *, limit: int = 20000) -> int:
    """Every connected player acts (a random legal action) whenever their view offers one,
    until the game is over; returns the number of actions the players made."""
    made = 0
    while players[0].view["status"] != "over":
        actor = next((p for p in players if p.view["actions"]), None)
        assert actor is not None, "no player may act, yet the game goes on"
        action = rng.choice(actor.view["actions"])
        actor.send(type="act", action=action["notation"], version=actor.view["version"])
        reply = actor.until_any("view", "error")
        assert reply["type"] == "view", reply
        for p in players:
            if p is not actor:
                p.until("view")
        made += 1
        assert made < limit
    return made


def public_version(record: Any) -> int:
    """The version a view shows at the end of a game's record: its actions that changed the
    table as a spectator sees it, counted as the server counts them."""
    from commerce import engine
    from commerce.record import replay_steps

    last = engine.observe(engine.new_game(record.rules, record.players, dealer=record.dealer),
                          None)
    count = 0
    for _, transition in replay_steps(record):
        obs = engine.observe(transition.state, None)
        count += obs != last
        last = obs
    return count
