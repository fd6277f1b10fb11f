"""One REST call to a running server (``commerce serve`` in a subprocess), for the tests that
drive real processes."""

from __future__ import annotations

import json
import urllib.request
from typing import Any


def call(url: str, path: str, body: Any = None, token: str | None = None,
         method: str = "POST", timeout: float = 30) -> Any:
    """``METHOD url+path`` with a JSON *body* as the player of *token*; the JSON answer
    (waiting at most *timeout* seconds)."""
    request = urllib.request.Request(url + path, method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=timeout) as reply:
        return json.loads(reply.read() or b"null")
