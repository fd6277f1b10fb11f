"""The docs stand alone: no page, and no ruleset's list of sources (shown by ``commerce rules
show``), points to a file outside the repository or to notes that are not published."""

from __future__ import annotations

import re
from pathlib import Path

from commerce.rules import rulesets

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = re.compile(r"RULES-DOSSIER|\bdossier\b|\bseeds? 0\d\d\b|\.\./shared|/work/", re.I)


def _pages() -> list[Path]:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    pages += sorted((ROOT / "src").rglob("*.md")) + sorted((ROOT / "examples").rglob("*.md"))
    return [p for p in pages if p.is_file()]


def test_no_doc_points_outside_the_repository() -> None:
    found = [f"{page.relative_to(ROOT)}:{n}: {line.strip()}"
             for page in _pages()
             for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
             if OUTSIDE.search(line)]
    assert len(_pages()) > 10 and not found, "\n".join(found)


def test_no_ruleset_cites_unpublished_notes() -> None:
    found = [f"{r.id}: {text}" for r in rulesets()
             for text in (*r.sources, *(why for _, why in r.option_sources))
             if OUTSIDE.search(text)]
    assert not found, "\n".join(found)


def test_the_readme_opens_with_a_screenshot_of_the_table() -> None:
    lines = [x for x in (ROOT / "README.md").read_text(encoding="utf-8").splitlines() if x]
    shot = re.fullmatch(r"!\[[^\]]+\]\((docs/screens/[\w-]+\.svg)\)", lines[1])
    assert shot is not None and (ROOT / shot.group(1)).is_file(), lines[:2]
