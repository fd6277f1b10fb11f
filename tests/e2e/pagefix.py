"""The page served with the contract's REST replies and socket messages from a real game
(see :mod:`fixture`), without a server: Playwright's routes answer the page's requests."""

from __future__ import annotations

import json
import mimetypes
from collections.abc import Callable
from typing import Any
from urllib.parse import urlparse

from .browser import STATIC
from .fixture import ruleset_entries

BASE = "http://commerce.test"


class FakeServer:
    """Answers one page: REST from *rest* (path -> reply), the socket's hello from *on_hello*
    and its intents from *on_act*."""

    def __init__(self, page: Any, on_hello: Callable[[dict[str, Any]], list[dict[str, Any]]],
                 rest: dict[str, Any] | None = None,
                 on_act: Callable[[dict[str, Any]], list[dict[str, Any]]] | None = None) -> None:
        self.page = page
        self.on_hello = on_hello
        self.on_act = on_act
        self.rest = {"/api/rulesets": ruleset_entries(), "/api/tables": [],
                     "/api/players/me": {"player_id": "p1", "name": "Ann", "tables": [],
                                         "games": []},
                     "/api/players": {"player_id": "p1", "token": "tok-ann", "name": "Ann"},
                     **(rest or {})}
        self.posts: list[tuple[str, str, Any]] = []
        self.received: list[dict[str, Any]] = []
        self.sockets: list[Any] = []
        page.route("**/*", self._http)
        page.route_web_socket("**/ws/tables/**", self._socket)

    def _http(self, route: Any) -> None:
        request = route.request
        path = urlparse(request.url).path
        if path.startswith("/static/"):
            file = STATIC / path.removeprefix("/static/")
            kind = mimetypes.guess_type(file.name)[0] or "text/plain"
            if file.suffix == ".js":
                kind = "text/javascript"
            route.fulfill(status=200, body=file.read_bytes(), content_type=kind)
        elif path.startswith("/api/"):
            if request.method != "GET":
                self.posts.append((request.method, path, request.post_data_json))
            reply = self.rest.get(path)
            if reply is None and path.startswith("/api/tables/") and request.method == "GET":
                reply = {"table_id": "t1", "invite": "abc123", "ruleset": "peel",
                         "title": "Commerce, Peel's new mode", "options": {}}
            if reply is None:
                reply = {"ok": True}
            route.fulfill(status=200, body=json.dumps(reply), content_type="application/json")
        else:
            route.fulfill(status=200, body=(STATIC / "index.html").read_bytes(),
                          content_type="text/html")

    def _socket(self, ws: Any) -> None:
        self.sockets.append(ws)

        def message(text: str | bytes) -> None:
            msg = json.loads(text)
            self.received.append(msg)
            if msg.get("type") == "hello":
                for reply in self.on_hello(msg):
                    ws.send(json.dumps(reply))
            elif msg.get("type") == "act" and self.on_act:
                for reply in self.on_act(msg):
                    ws.send(json.dumps(reply))

        ws.on_message(message)

    def push(self, msg: dict[str, Any]) -> None:
        """Sends *msg* on the newest socket."""
        self.sockets[-1].send(json.dumps(msg))

    def sent(self, kind: str) -> list[dict[str, Any]]:
        """The page's socket messages of type *kind*, in order."""
        return [m for m in self.received if m.get("type") == kind]


def until(page: Any, condition: Callable[[], bool], seconds: float = 5.0) -> None:
    """Lets the page run (and its requests be answered) until *condition* holds."""
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        page.wait_for_timeout(50)
    assert condition(), "the page did not get there in time"
