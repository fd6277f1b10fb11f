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
SCREENS = (("peel", 7), ("widow", 7), ("cox", 7), ("pounce", 7), ("vingt-un", 7))
"""The ruleset and seed of each golden screen."""
SCENES: dict[str, tuple[str, int, str, tuple[str, ...]]] = {
    "peel-confirm": ("peel", 7, "", ("1", "enter")),
    "peel-showdown": ("peel", 7, "showdown", ()),
    "vingt-un-showdown": ("vingt-un", 7, "showdown", ()),
    "widow-end": ("widow", 7, "end", ()),
    "vingt-un-end": ("vingt-un", 7, "end", ()),
    "cox-scoreboard": ("cox", 7, "", ("c",)),
}
"""The golden screens over the table: ``name: (ruleset, seed, note, keys)``: the game played
by keys (the first move each time, a short game) until *note* is over the table, then
*keys* pressed."""
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


def scene(name: str, size: tuple[int, int]) -> str:
    """The SVG screen of the scene *name* of :data:`SCENES` at *size*."""
    from commerce.cli.table.screens import Note

    rules_id, seed, note, keys = SCENES[name]
    short = SHORT[find_ruleset(rules_id).family] if note == "end" else None
    app = new_app(rules_id, seed, options=short, confirm=not note)

    async def script(pilot: Any) -> str:
        for _ in range(400 if note else 0):
            top = app.screen
            if isinstance(top, Note) and top.name == note:
                break
            await pilot.press("space" if isinstance(top, Note) else "1")
            if not isinstance(top, Note):
                await pilot.press("enter")
            await pilot.pause()
        else:
            assert not note, f"no {note} in 400 moves"
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        return app.export_screenshot(title=f"commerce play --rules {rules_id}")

    result: str = drive(app, size, script)
    return result


def golden_path(rules_id: str, size: tuple[int, int]) -> Path:
    """Where the golden screen of *rules_id* at *size* is kept."""
    return GOLDEN / f"{rules_id}-{size[0]}x{size[1]}.svg"


SHORT: dict[str, dict[str, object]] = {
    "trading": {"max_rounds_per_deal": 1, "deals_each": 1},
    "widow": {"deals": 2, "max_rounds_per_deal": 1},
    "cox": {"hands_per_game": 1},
    "vingtun": {"deal_limit": "hands", "deal_hands": 1},
}
"""Per family, the options that make a game short enough for a fuzz to reach its end."""

_FUZZ_KEYS = (
    [str(n) for n in range(1, 10)] * 3 + ["enter"] * 14 + ["space"] * 4 + ["escape"] * 2
    + ["left", "right", "up", "down"] * 2 + ["y", "a", "n", "x", "t", "b", "p", "k", "e", "d"]
    + ["c", "question_mark", "full_stop", "pageup", "pagedown", "tab", "shift+tab", "home",
       "end", "backspace", "ctrl+p", "ctrl+s", "ctrl+l", "0"]
)
"""The keys a fuzz presses (and how often); ``q``, Ctrl-Q and Ctrl-C end the game."""


def fuzz(rules_id: str, seed: int, size: tuple[int, int] = (80, 24), steps: int = 150,
         *, short: bool = True, hint: bool = True) -> dict[str, Any]:
    """*steps* random keys and clicks (seeded by *seed*) at a table of *rules_id* at *size*
    (a short game with :data:`SHORT`): what happened, with ``problems`` (an exception, a
    seat row on two lines, the app gone) and whether the game's record replays.

    ``h`` (a hint, its search cut to 0.2 s) comes now and then where *hint*; a typed move
    (``:``) and a resize to a small terminal and back, too."""
    import random

    from textual.events import Key

    from commerce import engine
    from commerce.cli.table.screens import Note
    from commerce.record import GameRecord, replay

    rng = random.Random(f"table-fuzz/{rules_id}/{seed}/{size}")
    family = find_ruleset(rules_id).family
    app = new_app(rules_id, seed, options=SHORT[family] if short else None, confirm=True)
    app.hint_ms = 200.0
    seen: dict[str, Any] = {"notes": set(), "problems": [], "keys": []}

    def check() -> None:
        if not app.is_running:
            if app.again:  # "n" at the end of the game: another game, as asked
                return
            seen["problems"].append(f"the app ended after {seen['keys'][-8:]}")
            return
        if not app.too_small():
            seats: Any = app.query_one("#seats")
            count = len(app.view().seats)
            if seats.size.height not in (0, count):
                seen["problems"].append(f"{count} seats on {seats.size.height} rows at "
                                        f"{app.terminal} after {seen['keys'][-4:]}")

    async def script(pilot: Any) -> None:
        for _ in range(steps):
            if not app.is_running:
                break
            if isinstance(app.screen, Note):
                seen["notes"].add(str(app.screen.name))
            roll = rng.random()
            if roll < 0.08:  # a click on a card of the hand, of the widow, or on the menu
                target = rng.choice(["#hand", "#middle", "#menu", "#log", "#top"])
                offset = (rng.randrange(0, 40), rng.randrange(0, 3))
                seen["keys"].append(f"click {target} {offset}")
                try:
                    await pilot.click(target, offset=offset)
                except Exception as exc:  # noqa: BLE001 - the widget hidden, or off screen
                    if type(exc).__name__ not in ("OutOfBounds", "NoMatches"):
                        raise
            elif roll < 0.10:  # two keys at once, as a terminal may deliver them
                keys = [rng.choice(_FUZZ_KEYS) for _ in range(2)]
                seen["keys"].append("+".join(keys))
                for key in keys:
                    app.post_message(Key(key, key if len(key) == 1 else None))
            elif roll < 0.115:
                seen["keys"].append("type")
                await pilot.press("colon", *rng.choice(["stand", "trade 7h", "x", "12",
                                                        "pass", "buy", "zz"]), "enter")
            elif roll < 0.12:
                seen["keys"].append("resize")
                await pilot.resize_terminal(rng.choice([40, 79, 100]), rng.choice([12, 23, 30]))
                await pilot.pause()
                await pilot.resize_terminal(*size)
            elif roll < 0.125 and hint:
                seen["keys"].append("h")
                await pilot.press("h")
            else:
                key = rng.choice(_FUZZ_KEYS)
                seen["keys"].append(key)
                await pilot.press(key)
            check()
        for _ in range(100):  # let a hint still being worked out end
            if not any(w.is_running for w in app.workers):
                break
            await pilot.pause(0.05)

    try:
        drive(app, size, script)
    except Exception as exc:  # noqa: BLE001 - a crash of the app is what a fuzz looks for
        seen["problems"].append(f"{type(exc).__name__}: {exc} after {seen['keys'][-8:]}")
    if app._exception is not None:  # noqa: SLF001 - Textual keeps the app's failure there
        seen["problems"].append(f"{type(app._exception).__name__}: {app._exception}")
    state = replay(GameRecord.from_json(app.driver.record().to_json()))
    seen["replays"] = (engine.outcome(state) == app.driver.outcome()
                       and engine.observe(state, 0) == engine.observe(app.driver.state, 0))
    seen["over"] = app.driver.outcome() is not None
    seen["moves"] = len(app.driver.actions)
    return seen
