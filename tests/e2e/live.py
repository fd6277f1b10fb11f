"""A real server for the browser tests: ``commerce serve`` in a subprocess on a free loopback
port with its own SQLite database, and helpers that play through the page like a person."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest


def free_port() -> int:
    """A port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve(folder: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """Runs ``commerce serve`` on loopback with a database in *folder* (and *args*, with
    *env* added to the environment); yields its URL."""
    port = free_port()
    log = (folder / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "commerce", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", f"sqlite:///{folder / 'commerce.db'}", *args],
        stdout=log, stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})})
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                log.flush()
                why = (folder / "server.log").read_text(errors="replace")[-2000:]
                pytest.fail(f"commerce serve did not start:\n{why}")
            try:
                with urllib.request.urlopen(f"{url}/api/rulesets", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("commerce serve did not answer within 60 seconds")
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


ACTIONS = "#offers button.act:enabled, #actions button.act:enabled"


def take_turns(pages: list[Any], done: Callable[[], bool], rng: random.Random,
               limit: int = 400, each: Callable[[int], None] | None = None) -> int:
    """Plays every page's seat by clicking one of its offered actions (a card first where the
    action names one) until *done*; returns the number of clicks. *each(n)* runs before the
    n-th click (e.g. a reload)."""
    clicks = 0
    for _ in range(limit):
        if done():
            return clicks
        acted = False
        for page in pages:
            buttons = page.locator(ACTIONS)
            n = buttons.count()
            if not n:
                continue
            if each:
                each(clicks)
            try:
                cards = page.locator(".hand button.card")
                if cards.count() and rng.random() < 0.5:
                    cards.nth(rng.randrange(cards.count())).click(timeout=2000)
                    buttons = page.locator(ACTIONS)
                    n = buttons.count()
                buttons.nth(rng.randrange(n)).click(timeout=2000)
                clicks += 1
                acted = True
            except Exception:  # the view changed under the click: look again
                continue
        if not acted:
            pages[0].wait_for_timeout(100)
    raise AssertionError(f"not done after {limit} rounds of turns ({clicks} clicks)")


def record(page: Any, into: list[dict[str, Any]]) -> None:
    """Keeps every message the server sends *page* on its sockets in *into*, in order."""
    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: into.append(json.loads(payload)))
    page.on("websocket", on_socket)


def check_messages(messages: list[dict[str, Any]]) -> None:
    """Each message recorded from the real server is one of the server's own message models
    (their JSON Schema is :func:`commerce.server.protocol.json_schema`): no field the schema
    lacks, none missing, each of its type."""
    from pydantic import TypeAdapter

    from commerce.server.protocol import SERVER_MESSAGES

    adapters = {m.model_fields["type"].default: TypeAdapter(m) for m in SERVER_MESSAGES}
    assert messages, "no message was recorded"
    for msg in messages:
        if "from" in msg:  # a chat line: "from" is the field's name on the wire
            msg = {("from_" if k == "from" else k): v for k, v in msg.items()}
        adapters[msg["type"]].validate_python(msg)
