"""Write the full-screen table's golden screens (tests/golden/table/) and the screenshots
of the docs (docs/screens/), after reviewing a change of the table.

    PYTHONPATH=src python scripts/table_screens.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.harness.table import SCREENS, SIZES, golden_path, screen  # noqa: E402


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


if __name__ == "__main__":
    main()
