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

from tests.harness.table import SCREENS, SIZES, drive, golden_path, new_app, screen  # noqa: E402


def over_the_table(rules_id: str, seed: int, keys: tuple[str, ...], *,
                   to_showdown: bool = False) -> str:
    """The SVG screen at 80x24 after *keys* (first playing by keys to a deal's end)."""
    from textual.screen import ModalScreen

    app = new_app(rules_id, seed)

    async def script(pilot: Any) -> str:
        for _ in range(100 if to_showdown else 0):
            if isinstance(app.screen, ModalScreen):
                break
            await pilot.press("right", "down", "enter")
            await pilot.pause()
        for key in keys:
            await pilot.press(key)
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
    # screens of the docs only: a showdown, the help, a hint
    for name, svg in (("peel-showdown-80x24", over_the_table("peel", 7, (), to_showdown=True)),
                      ("widow-help-80x24", over_the_table("widow", 7, ("question_mark",))),
                      ("peel-hint-80x24", over_the_table("peel", 7, ("h",)))):
        (docs / f"{name}.svg").write_text(svg, encoding="utf-8")
        print(docs / f"{name}.svg")


if __name__ == "__main__":
    main()
