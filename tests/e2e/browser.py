"""Real Chromium for the page's tests: Debian's ``/usr/bin/chromium`` driven by Playwright.

Where Playwright or Chromium is missing the tests are skipped on a developer's machine and
fail where the environment variable ``CI`` is set (``.ci/system-deps`` installs Chromium).
Screenshots go under ``tmp/artifacts`` of the repository (or ``$COMMERCE_ARTIFACTS``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("COMMERCE_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
STATIC = Path(__file__).resolve().parents[2] / "src" / "commerce" / "server" / "static"


def _missing(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{why} (needed under CI: pip install -r requirements-dev.txt; "
                    ".ci/system-deps installs chromium)")
    pytest.skip(why)


def artifacts() -> Path:
    """The folder the tests leave screenshots in."""
    path = Path(os.environ.get("COMMERCE_ARTIFACTS")
                or Path(__file__).resolve().parents[2] / "tmp" / "artifacts")
    path.mkdir(parents=True, exist_ok=True)
    return path


def chromium() -> Iterator[Any]:
    """A launched Chromium (for a module-scoped fixture), closed afterwards."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed")
    if not os.path.exists(CHROMIUM):
        _missing(f"no Chromium at {CHROMIUM}")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()
