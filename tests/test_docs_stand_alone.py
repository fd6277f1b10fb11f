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


def _code() -> list[Path]:
    """Every source, test, script and example file a reader may open."""
    out: list[Path] = []
    for folder in ("src", "tests", "scripts", "examples"):
        for suffix in ("*.py", "*.md", "*.js", "*.html", "*.txt"):
            out += sorted((ROOT / folder).rglob(suffix))
    here = Path(__file__).resolve()
    return [p for p in out if p.is_file() and p.resolve() != here
            and "egg-info" not in p.parts and "__pycache__" not in p.parts]


def test_no_comment_or_docstring_points_outside_the_repository() -> None:
    files = _code()
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in files
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if OUTSIDE.search(line)]
    assert len(files) > 100 and not found, "\n".join(found)


CITED = re.compile(r"\bdecisions?\s+(#\d+(?:(?:-|,\s+|\s+and\s+)#\d+)*)")


def test_every_decision_cited_is_in_the_decisions_page() -> None:
    page = (ROOT / "docs" / "decisions.md").read_text(encoding="utf-8")
    numbered = {int(n) for n in re.findall(r"^(\d+)\. \*\*", page, re.M)}
    assert numbered == set(range(1, max(numbered) + 1)), "the decisions are numbered 1, 2, ..."
    cited: dict[int, str] = {}
    for path in [*_code(), *_pages()]:
        text = path.read_text(encoding="utf-8")
        for match in CITED.finditer(text):
            for n in re.findall(r"#(\d+)", match.group(1)):
                cited.setdefault(int(n), str(path.relative_to(ROOT)))
    missing = {n: where for n, where in cited.items() if n not in numbered}
    assert len(cited) > 20 and not missing, missing
