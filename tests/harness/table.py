"""The full-screen table driven by Textual's pilot, for the tests and the screenshots.

Every game here is fixed: the seed, the players' names and their bots, and the pace
(instant), so that the screens are the same on every run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from commerce.bots import make_bot
from commerce.cli.table import TableApp
from commerce.driver import Driver
from commerce.rules import find_ruleset

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "table"
"""Where the exported screens of the tests are kept."""
SCREENS = (("peel", 7), ("widow", 7), ("cox", 7))
"""The ruleset and seed of each golden screen."""
SIZES = ((80, 24), (120, 40))
"""The terminal sizes of the golden screens."""


def new_app(rules_id: str, seed: int, path: Path | None = None,
            options: dict[str, object] | None = None, *, confirm: bool = False,
            names: tuple[str, ...] = ("You", "Alice", "Bob", "Carol")) -> TableApp:
    """A table of four (or as many as the ruleset allows) for seat 0 against heuristic
    players, at the instant pace (with *options* changed from the preset); a move that ends
    the player's part of the deal is asked about only with *confirm*."""
    rules = find_ruleset(rules_id)
    if options:
        rules = rules.with_options(**options)
    players = max(rules.min_players, min(4, rules.max_players))
    driver = Driver(rules, [None, *(make_bot("heuristic") for _ in range(players - 1))],
                    seed=seed, names=list(names)[:players])
    if confirm:
        return TableApp(driver, 0, path, pace="instant")
    return TableApp(driver, 0, path, pace="instant", confirm=False)


def drive(app: TableApp, size: tuple[int, int],
          script: Callable[[Any], Awaitable[Any]]) -> Any:
    """Run *app* headless at *size* under *script(pilot)*; what the script returns."""
    async def main() -> Any:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            out = await script(pilot)
            await pilot.pause()
            return out

    return asyncio.run(main())


def screen(rules_id: str, seed: int, size: tuple[int, int]) -> str:
    """The SVG screen of the first decision of the player, with the first card chosen."""
    app = new_app(rules_id, seed)

    async def script(pilot: Any) -> str:
        await pilot.press("right")
        await pilot.pause()
        return app.export_screenshot(title=f"commerce play --rules {rules_id}")

    result: str = drive(app, size, script)
    return result


def golden_path(rules_id: str, size: tuple[int, int]) -> Path:
    """Where the golden screen of *rules_id* at *size* is kept."""
    return GOLDEN / f"{rules_id}-{size[0]}x{size[1]}.svg"
