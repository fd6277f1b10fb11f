"""The full-screen table (Textual), driven by its pilot: whole deals played by keys, a typed
move, saving on leaving, and the screens at 80x24 compared with committed goldens
(``scripts/table_screens.py`` writes them after a reviewed change)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from commerce.record import GameRecord
from tests.harness import all_rulesets
from tests.harness.table import (
    SCENES,
    SCREENS,
    SIZES,
    drive,
    golden_path,
    new_app,
    scene,
    screen,
)

REGENERATE = "run scripts/table_screens.py after reviewing the change"


@pytest.mark.parametrize("rules_id,seed", SCREENS)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_screen_matches_its_golden(rules_id: str, seed: int, size: tuple[int, int]) -> None:
    path = golden_path(rules_id, size)
    assert path.exists(), f"missing {path}: {REGENERATE}"
    now = screen(rules_id, seed, size)
    assert now == path.read_text(encoding="utf-8"), f"the screen changed: {REGENERATE}"


@pytest.mark.parametrize("name", list(SCENES))
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_screen_over_the_table_matches_its_golden(name: str, size: tuple[int, int]) -> None:
    path = golden_path(name, size)
    assert path.exists(), f"missing {path}: {REGENERATE}"
    assert scene(name, size) == path.read_text(encoding="utf-8"), \
        f"the screen changed: {REGENERATE}"


def test_a_small_terminal_matches_its_golden() -> None:
    path = golden_path("widow-small", (40, 12))
    assert path.exists(), f"missing {path}: {REGENERATE}"
    assert screen("widow", 7, (40, 12)) == path.read_text(encoding="utf-8"), \
        f"the screen changed: {REGENERATE}"


def _deal_of(progress: str) -> int:
    found = re.match(r"(deal|hand) (\d+)", progress)
    assert found is not None, progress
    return int(found.group(2))


@pytest.mark.parametrize("rules_id", [r.id for r in all_rulesets()])
def test_a_whole_deal_is_played_by_keys(rules_id: str, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    app = new_app(rules_id, 11, path)
    driver = app.driver

    async def script(pilot: Any) -> tuple[int, int, int]:
        first = _deal_of(app.view().progress)
        moves = 0
        for _ in range(400):
            if driver.outcome() is not None or _deal_of(app.view().progress) != first:
                break
            # choose the first card of the hand, then the second move the menu offers for it
            await pilot.press("right", "down", "enter")
            await pilot.pause()
            moves += 1
        return first, _deal_of(app.view().progress), moves

    first, last, moves = drive(app, (80, 24), script)
    assert last > first or driver.outcome() is not None, (first, last)
    actions = driver.record().actions
    mine = [i for i, s in enumerate(_seats(driver)) if s == 0]
    assert mine and moves >= 1, "the player made no move"
    saved = GameRecord.load(path).actions  # saved after the player's last move
    assert saved == actions[:mine[-1] + 1]


def _seats(driver: Any) -> list[int | None]:
    """Who made each action of the driver's game (None: chance), replayed."""
    from commerce import engine
    from commerce.record import replay_steps

    record = driver.record()
    state = engine.new_game(record.rules, record.players, dealer=record.dealer)
    out = []
    for _, t in replay_steps(record):
        d = engine.decision(state)
        out.append(None if d is None else d.seat)
        state = t.state
    return out


def test_a_typed_move_is_played(tmp_path: Path) -> None:
    app = new_app("peel", 7, tmp_path / "g.json")

    async def script(pilot: Any) -> str:
        await pilot.press("colon", *"stand", "enter")
        await pilot.pause()
        return str(app.query_one("#log").lines[-1].text if app.query_one("#log").lines else "")

    drive(app, (80, 24), script)
    assert "stand" in app.driver.record().actions


def test_a_wrong_typed_move_is_said_and_changes_nothing(tmp_path: Path) -> None:
    app = new_app("peel", 7, tmp_path / "g.json")
    before: list[int] = []

    async def script(pilot: Any) -> list[str]:
        before.append(len(app.driver.record().actions))
        await pilot.press("colon", *"trade zz", "enter")
        await pilot.pause()
        return [str(line.text) for line in app.query_one("#log").lines]

    lines = drive(app, (80, 24), script)
    assert len(app.driver.record().actions) == before[0]
    assert any("Not understood" in line for line in lines), lines


def test_an_offer_out_of_turn_pops_up(tmp_path: Path) -> None:
    from commerce.cli.table.app import OFFERS

    seen: list[str] = []
    for seed in range(40):  # a game where a computer player offers the player a barter
        app = new_app("peel", seed, tmp_path / f"g{seed}.json")
        d = app.driver
        d.run()
        decision = d.decision()
        if decision is not None and decision.kind in OFFERS:
            break
    else:
        raise AssertionError("no barter offer to the player in 40 games")
    app.notify = lambda message, **kw: seen.append(str(message))  # type: ignore[method-assign]

    async def script(pilot: Any) -> None:
        await pilot.pause()

    drive(app, (80, 24), script)
    assert seen and "barter" in seen[0], seen


def test_a_hint_gives_the_search_bots_estimates() -> None:
    from rich.console import Console

    from commerce.cli.table.screens import Note

    app = new_app("peel", 7)

    async def script(pilot: Any) -> str:
        await pilot.press("h")
        for _ in range(1200):  # worked out in a thread (a cold start compiles the kernels)
            if getattr(app.screen, "name", "") == "hint":
                break
            await pilot.pause(0.1)
        note = app.screen
        assert isinstance(note, Note) and note.name == "hint"
        console = Console(width=80, record=True, color_system=None)
        console.print(note.body)
        return console.export_text()

    text = drive(app, (80, 24), script)
    assert "The search bot's estimates" in text and "<- best" in text
    assert "end of the deal" in text and " runs" in text
    assert "trade" in text and "change of your stakes" in text
    assert max(len(line) for line in text.splitlines()) <= 74  # inside the note at 80x24


def test_leaving_saves_and_the_game_resumes(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    app = new_app("widow", 3, path)

    async def script(pilot: Any) -> None:
        await pilot.press("1", "enter")
        await pilot.pause()
        await pilot.press("q")

    drive(app, (80, 24), script)
    assert app.return_code == 0
    record = GameRecord.load(path)
    assert not record.complete and record.actions == app.driver.record().actions


def test_once_the_player_is_out_the_others_finish_the_game_at_once(tmp_path: Path) -> None:
    from commerce.bots import make_bot
    from commerce.cli.table import TableApp
    from commerce.driver import Driver
    from commerce.rules import find_ruleset

    # the player's seat is played by a bot until it is out, then the table takes over
    rules = find_ruleset("widow")
    for seed in range(20):
        driver = Driver(rules, [make_bot("random"), *(make_bot("heuristic") for _ in range(3))],
                        seed=seed, names=["You", "Alice", "Bob", "Carol"])
        while driver.outcome() is None:
            app = TableApp(driver, 0, tmp_path / "g.json", pace="slow")
            if app.view().seats[0].out:
                break
            driver.step()
        if driver.outcome() is None:
            break
    else:
        raise AssertionError("the player was never out before the end in 20 games")
    driver.agents[0] = None

    async def script(pilot: Any) -> None:
        await pilot.pause()

    drive(app, (80, 24), script)
    assert driver.outcome() is not None and app.pace == "instant"
