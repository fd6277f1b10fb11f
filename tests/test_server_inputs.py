"""Every input the server is sent gets a 4xx and one clear sentence, on SQLite and on a real
PostgreSQL: every endpoint's path parameters and every string of its JSON body are fuzzed with
a NUL, a lone surrogate, a direction override and overlong text, and so are the websocket's
messages. Also: the security headers on every reply, the page free of inline script and style,
the OpenAPI pages off unless asked for, and the SQLite file private to its owner."""

from __future__ import annotations

import itertools
import json
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from commerce.server.app import create_app
from commerce.server.db import engine_url
from commerce.server.limits import Limits
from tests.harness.postgres import postgres_server
from tests.harness.server import Player, close_all

_names = itertools.count()
OPEN = Limits(tables=(100_000, 1.0), hints=(100_000, 1.0), messages=(100_000, 1.0),
              players=(100_000, 1.0))

BAD_PATHS = ["%00", "ab%00cd", "%ED%A0%80", "%E2%80%AE", "x" * 3000, "%C0%80", "%FF",
             "-1", "99999999999999999999999", "%20", "..%2F..%2Fetc"]
"""Path parameters: NUL, a lone surrogate's bytes, U+202E, overlong, bad UTF-8, numbers."""
BAD_STRINGS = ["\\u0000", "a\\u0000b", "\\ud800", "x\\udfffy", "\\u202e", "\\ud83c",
               "x" * 5000, "\\u0000" * 3000]
"""JSON string contents, written escaped (as a client would send them)."""
BODIES: dict[tuple[str, str], Any] = {
    ("POST", "/api/players"): {"name": "Ann"},
    ("PATCH", "/api/players/me"): {"name": "Ann"},
    ("POST", "/api/tables"): {"ruleset": "peel", "seats": 3, "bots": {"1": "random"},
                              "options": {"pack": "piquet"}},
    ("POST", "/api/tables/{key}/join"): {"seat": 1},
    ("POST", "/api/tables/{key}/seats/{seat}"): {"kind": "bot", "level": "heuristic"},
}
"""A body each endpoint accepts; each of its values and keys is fuzzed in turn."""


@pytest.fixture(scope="module")
def pg_server() -> Iterator[str]:
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'server.sqlite3'}"
    server: str = request.getfixturevalue("pg_server")
    name = f"f{next(_names)}"
    engine = create_engine(engine_url(server), isolation_level="AUTOCOMMIT")
    with engine.connect() as c:
        c.execute(text(f"CREATE DATABASE {name}"))
    engine.dispose()
    return server.rsplit("/", 1)[0] + "/" + name


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, limits=OPEN), raise_server_exceptions=False) as c:
        try:
            yield c
        finally:
            close_all()


def _one_sentence(reply: Any, what: str) -> None:
    assert 400 <= reply.status_code < 500, (what, reply.status_code, reply.text[:300])
    body = reply.json()
    assert set(body) == {"error"}, (what, body)
    error = body["error"]
    assert error and "\n" not in error and "Traceback" not in error and len(error) <= 200, \
        (what, error)
    assert not re.search(r"[\x00\ud800-\udfff\u202e]", error), (what, error)


def _variants(value: Any) -> Iterator[str]:
    """The JSON text of *value* with each key and each value in turn replaced by each bad
    string."""
    encoded = json.dumps(value)
    tokens = [m for m in re.finditer(r'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null',
                                     encoded)]
    for m in tokens:
        for bad in BAD_STRINGS:
            yield encoded[:m.start()] + f'"{bad}"' + encoded[m.end():]


def test_every_endpoint_refuses_bad_paths_and_bodies_in_one_sentence(
        client: TestClient) -> None:
    ann = Player(client, "Ann")
    table = ann.post("/api/tables", {"ruleset": "peel", "seats": 3,
                                     "bots": {"2": "random"}}).json()["table_id"]
    good = {"key": table, "seat": "1", "game_id": "0123456789abcdef", "invite": "abc"}
    routes = [r for r in client.app.routes if isinstance(r, APIRoute)]  # type: ignore[attr-defined]
    assert len(routes) >= 14
    tried = 0
    for route in routes:
        params = re.findall(r"{(\w+)}", route.path)
        for method in sorted(route.methods):
            for param in params:
                for bad in BAD_PATHS:
                    path = route.path.format(**{**good, param: bad})
                    reply = client.request(method, path, headers=ann.auth,
                                           json=BODIES.get((method, route.path)))
                    if route.path.startswith("/t/") and reply.status_code == 200:
                        continue  # the page, whatever the invite: it asks the API
                    _one_sentence(reply, f"{method} {path[:80]}")
                    tried += 1
            body = BODIES.get((method, route.path))
            if body is None:
                continue
            path = route.path.format(**good)
            for content in _variants(body):
                reply = client.request(method, path, headers={
                    **ann.auth, "Content-Type": "application/json"}, content=content)
                _one_sentence(reply, f"{method} {path} {content[:80]}")
                tried += 1
    assert tried > 250
    # nothing broke: the table still answers, and the player still plays
    assert client.get(f"/api/tables/{table}").status_code == 200
    assert client.get("/api/players/me", headers=ann.auth).json()["name"] == "Ann"


def test_bodies_that_cannot_be_read_are_refused_in_one_sentence(client: TestClient) -> None:
    ann = Player(client, "Ann")
    cases = {
        b'{"name": "A' + b"\xff" + b'"}': 400,
        b"[" * 100_000 + b"]" * 100_000: 413,
        b'{"ruleset": ' + b"[" * 5000 + b"]" * 5000 + b', "seats": 3}': 400,
        b'{"name": "' + b"x" * 70_000 + b'"}': 413,
        b"{not json": 422,
        b'"just a string"': 422,
    }
    for content, status in cases.items():
        for path in ("/api/players", "/api/tables"):
            reply = client.post(path, content=content, headers={
                **ann.auth, "Content-Type": "application/json"})
            assert reply.status_code == status, (content[:40], reply.text[:200])
            _one_sentence(reply, path)


def test_websocket_messages_with_bad_text_get_one_error_each(client: TestClient) -> None:
    ann = Player(client, "Ann")
    table = ann.post("/api/tables", {"ruleset": "peel", "seats": 3,
                                     "bots": {"1": "random", "2": "random"}}).json()["table_id"]
    ann.connect(table)
    assert ann.post(f"/api/tables/{table}/start").status_code == 200
    ann.until("view")
    for bad in BAD_STRINGS:
        for message in (f'{{"type": "act", "action": "{bad}", "version": 0}}',
                        f'{{"type": "chat", "text": "{bad}"}}',
                        f'{{"type": "{bad}"}}',
                        f'{{"type": "hint", "{bad}": 1}}'):
            ann.ws.send_text(message)
            ann.send(type="ping")  # answered after the message: no reply at all shows
            replies = []
            while (reply := ann.receive())["type"] != "pong":
                replies.append(reply)
            assert [r["type"] for r in replies] == ["error"], (message, replies)
            error = replies[0]["message"]
            assert "\n" not in error and len(error) <= 200, (message, error)
            assert not re.search(r"[\x00\ud800-\udfff\u202e]", error), (message, error)
    ann.send(type="ping")
    assert ann.until_any("pong", "error")["type"] == "pong"
    for key in ("%00", "%ED%A0%80", "x" * 300):
        with client.websocket_connect(f"/ws/tables/{key}") as ws:
            ws.send_text(json.dumps({"type": "hello", "spectate": True}))
            reply = json.loads(ws.receive_text())
            assert reply == {"type": "error", "message": "no such table"}, reply
    hello = '{"type": "hello", "token": "\\u0000\\ud800"}'
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_text(hello)
        assert json.loads(ws.receive_text()) == {"type": "error",
                                                 "message": "unknown player token"}


HEADERS = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}


def test_every_reply_carries_the_security_headers(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 's.db'}")) as client:
        for path in ("/", "/t/abc", "/api/rulesets", "/static/js/app.js", "/static/style.css",
                     "/api/tables/nonesuch", "/nowhere", "/api/tables/%00"):
            reply = client.get(path)
            for name, value in HEADERS.items():
                assert reply.headers.get(name) == value, (path, name)
            csp = reply.headers["content-security-policy"]
            directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
            assert directives["frame-ancestors"] == "'none'"
            assert directives["script-src"] == "'self'" == directives["style-src"]
            assert "unsafe" not in csp
        assert client.post("/api/players", json={"name": ""}).headers[
            "x-content-type-options"] == "nosniff"


def test_the_page_holds_no_inline_script_or_style() -> None:
    static = Path(__file__).resolve().parents[1] / "src" / "commerce" / "server" / "static"
    html = (static / "index.html").read_text()
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag, tag
    assert not re.search(r"<script\b[^>]*>\s*[^<\s]", html), "an inline script"
    assert not re.search(r"<style\b", html, re.I), "an inline style sheet"
    assert not re.search(r"\son[a-z]+\s*=", html, re.I), "an inline event handler"
    assert not re.search(r"\sstyle\s*=", html, re.I), "an inline style attribute"
    assert "javascript:" not in html
    for js in sorted((static / "js").glob("*.js")):
        source = js.read_text()
        for pattern in (r"\.innerHTML\b", r"\.outerHTML\b", r"insertAdjacentHTML",
                        r"\beval\(", r"new Function\(", r"setAttribute\(\s*[\"']style",
                        r"[{,]\s*style\s*:", r"[\"']on[a-z]+[\"']\s*:\s*[\"']",
                        r"javascript:"):
            assert not re.search(pattern, source), (js.name, pattern)


def test_the_api_pages_are_off_unless_asked_for() -> None:
    with TestClient(create_app("sqlite://")) as client:
        for path in ("/docs", "/redoc", "/openapi.json"):
            assert client.get(path).status_code == 404, path
    with TestClient(create_app("sqlite://", api_docs=True)) as client:
        assert client.get("/openapi.json").json()["info"]["title"] == "Commerce"
        docs = client.get("/docs")
        assert docs.status_code == 200 and docs.headers["x-frame-options"] == "DENY"
        assert "content-security-policy" not in docs.headers  # its script is a CDN's
        assert "content-security-policy" in client.get("/").headers


def test_serve_takes_api_docs_as_an_option() -> None:
    from commerce.cli import build_parser

    assert build_parser().parse_args(["serve", "--api-docs"]).api_docs
    assert not build_parser().parse_args(["serve"]).api_docs


def test_the_sqlite_file_is_created_private_to_its_owner(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    with TestClient(create_app(f"sqlite:///{path}")) as client:
        assert client.post("/api/players", json={"name": "Ann"}).status_code == 200
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    for extra in tmp_path.glob("new.sqlite3-*"):  # a journal left behind: the same
        assert stat.S_IMODE(extra.stat().st_mode) & 0o077 == 0, extra


def test_the_rulesets_are_built_once_however_many_ask_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from commerce.server import app as served

    built: list[int] = []
    build = served._ruleset_infos

    def counted() -> Any:
        built.append(1)
        return build()

    monkeypatch.setattr(served, "_ruleset_infos", counted)
    with TestClient(create_app()) as client:
        answers: list[int] = []

        def ask() -> None:
            answers.append(len(client.get("/api/rulesets").json()))

        askers = [threading.Thread(target=ask) for _ in range(6)]
        for t in askers:
            t.start()
        for t in askers:
            t.join()
    assert len(answers) == 6 and len(set(answers)) == 1 and answers[0] > 0
    assert built == [1]  # a busy server built them six times over, one per poll
