"""Write the full-screen table's golden screens (tests/golden/table/) and the screenshots
of the docs (docs/screens/), after reviewing a change of the table.

    PYTHONPATH=src python scripts/table_screens.py
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.harness.table import (  # noqa: E402
    SCENES,
    SCREENS,
    SIZES,
    drive,
    golden_path,
    new_app,
    scene,
    screen,
)


def over_the_table(rules_id: str, seed: int, keys: tuple[str, ...], *,
                   to_showdown: bool = False) -> str:
    """The SVG screen at 80x24 after *keys* (first playing by keys to a deal's end)."""
    from textual.screen import ModalScreen

    app = new_app(rules_id, seed)
    app.hint_ms = 60_000.0  # the hint's whole budget: the same figures on every machine

    async def script(pilot: Any) -> str:
        for _ in range(100 if to_showdown else 0):
            if isinstance(app.screen, ModalScreen):
                break
            await pilot.press("1", "enter")
            await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        for _ in range(3000 if "h" in keys else 0):  # the hint, worked out (in a thread)
            if getattr(app.screen, "name", "") == "hint":
                break
            await pilot.pause(0.1)
        await pilot.pause()
        return app.export_screenshot(title=f"commerce play --rules {rules_id}")

    svg: str = drive(app, (80, 24), script)
    return svg


def main() -> None:
    docs = ROOT / "docs" / "screens"
    docs.mkdir(parents=True, exist_ok=True)
    for rules_id, seed in SCREENS:
        for size in SIZES:
            svg = screen(rules_id, seed, size)
            path = golden_path(rules_id, size)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(svg, encoding="utf-8")
            (docs / path.name).write_text(svg, encoding="utf-8")
            print(path)
    for name in SCENES:
        for size in SIZES:
            svg = scene(name, size)
            path = golden_path(name, size)
            path.write_text(svg, encoding="utf-8")
            (docs / path.name).write_text(svg, encoding="utf-8")
            print(path)
    small = golden_path("widow-small", (40, 12))
    small.write_text(screen("widow", 7, (40, 12)), encoding="utf-8")
    (docs / small.name).write_text(small.read_text(encoding="utf-8"), encoding="utf-8")
    print(small)
    # screens of the docs only: the help, a hint (worked out in full: its figures depend on
    # the machine's speed where the hint's time cap acts)
    for name, svg in (("widow-help-80x24", over_the_table("widow", 7, ("question_mark",))),
                      ("peel-hint-80x24", over_the_table("peel", 7, ("h",)))):
        (docs / f"{name}.svg").write_text(svg, encoding="utf-8")
        print(docs / f"{name}.svg")


if __name__ == "__main__":
    main()
