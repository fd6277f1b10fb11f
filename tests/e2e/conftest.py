"""Fixtures of the end-to-end tests: one Chromium and one real server per module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser import chromium
from .live import serve


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A launched Chromium, closed after the module's tests."""
    yield from chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``commerce serve`` on loopback with its own database; its URL."""
    with serve(Path(tmp_path_factory.mktemp("server"))) as url:
        yield url
