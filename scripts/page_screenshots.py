"""Take the README's pictures of the browser table from the real server.

    PYTHONPATH=src python scripts/page_screenshots.py

Starts ``commerce serve`` on loopback with a throwaway database, and in Chromium (Debian's
``/usr/bin/chromium``, driven by Playwright) plays as a person at a table with two heuristic
bots, clicking a move at random: the widow game with tokens mid-game (``table-widow.png``,
1280x800) and a whole short game of Pounce to its end (``table-pounce-over.png``, the whole
page). Writes them to ``docs/screenshots/``.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.e2e.browser import ARGS, CHROMIUM  # noqa: E402
from tests.e2e.live import ACTIONS, serve  # noqa: E402
from tests.harness.rest import call  # noqa: E402

OUT = ROOT / "docs" / "screenshots"


def _seat(browser: Any, url: str, ruleset: str, options: dict[str, Any]) -> Any:
    you = call(url, "/api/players", {"name": "Ann"})
    made = call(url, "/api/tables", {"ruleset": ruleset, "seats": 3, "options": options,
                                     "bots": {"1": "heuristic", "2": "heuristic"}},
                you["token"])
    call(url, f"/api/tables/{made['table_id']}/start", None, you["token"])
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(f"localStorage.setItem('commerce.token', {json.dumps(you['token'])});"
                            "localStorage.setItem('commerce.name', 'Ann');")
    page = context.new_page()
    page.set_default_timeout(60000)
    page.goto(f"{url}/t/{made['invite']}")
    page.wait_for_selector(".seat")
    return page


def _click(page: Any, rng: random.Random) -> bool:
    """One move at random (a card first, where the move names one); False if none now."""
    buttons = page.locator(ACTIONS)
    if not buttons.count():
        page.wait_for_timeout(150)
        return False
    try:
        buttons.nth(rng.randrange(buttons.count())).click(timeout=2000)
    except Exception:  # noqa: BLE001 - the view changed under the click: look again
        return False
    return True


def main() -> int:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    rng = random.Random(5)
    with tempfile.TemporaryDirectory() as folder, serve(Path(folder)) as url, \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = _seat(browser, url, "widow", {})
        moves = 0
        while moves < 6:
            moves += _click(page, rng)
        page.locator(ACTIONS).first.wait_for()
        page.screenshot(path=str(OUT / "table-widow.png"))
        page.context.close()
        page = _seat(browser, url, "pounce", {"starting_tokens": 2})
        for _ in range(3000):
            if page.locator("#again").count():
                break
            _click(page, rng)
        page.wait_for_selector("#again")
        page.screenshot(path=str(OUT / "table-pounce-over.png"), full_page=True)
        page.context.close()
        browser.close()
    print(f"wrote {OUT / 'table-widow.png'} and {OUT / 'table-pounce-over.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
