"""The table's help screen: the ruleset's page, what beats what, the decision at hand.

The ruleset pages (``docs/rulesets/<id>.md``) are shipped inside the package at build time
(``setup.py`` copies them to ``commerce/pages/``), so an installed ``commerce`` has them; a
source checkout reads them from ``docs/rulesets/``. The help shows the page's "rules in our
words" for players: a parenthesis with a code word, a sentence about the engine or naming
an option or a module, and a table row naming one, are left out; the moves' code words are
written as plain words.

>>> print(for_players("He may keep his hand (`pass`, which does not lock him out). Or he "
...                   "may stop after `max_rounds_per_deal` rounds. Write `x 7h for qs`."))
He may keep his hand. Write x 7h for qs.
"""

from __future__ import annotations

import re
from pathlib import Path

from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.text import Text

__all__ = ["for_players", "help_body", "ruleset_page"]

_SHIPPED_PAGES = Path(__file__).resolve().parents[2] / "pages"
"""The pages inside the built package (commerce/cli/table/help.py -> commerce/pages)."""
_SOURCE_PAGES = Path(__file__).resolve().parents[4] / "docs" / "rulesets"
"""The pages in a source checkout (src/commerce/cli/table/help.py -> the repository)."""

_CODE_IN_PARENS = re.compile(r"\s*\([^()]*`[^`()]*`[^()]*\)")
_CODE = re.compile(r"`([^`]*)`")
_NOT_FOR_PLAYERS = re.compile(r"\bengine\b|`[^`]*[_.\[\]()][^`]*`")
"""A sentence about the engine, or with a code word naming an option, a module or a field."""
_ITEM = re.compile(r"\n(?=\s*[*-] )")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z*\"(])")


def ruleset_page(rules_id: str) -> str | None:
    """The text of the page of the ruleset *rules_id*, or None where there is none."""
    if not re.fullmatch(r"[a-z0-9-]+", rules_id):
        return None
    shipped = _SHIPPED_PAGES / f"{rules_id}.md"
    if shipped.is_file():
        return shipped.read_text(encoding="utf-8")
    source = _SOURCE_PAGES / f"{rules_id}.md"
    return source.read_text(encoding="utf-8") if source.is_file() else None


def for_players(text: str) -> str:
    """Markdown of a page in words for players (see the module's docstring)."""
    out = []
    for block in re.split(r"\n\s*\n", text):
        if block.lstrip().startswith("|"):  # a table: its rows that name no option
            out.append("\n".join(row for row in block.splitlines()
                                 if not _NOT_FOR_PLAYERS.search(row)))
            continue
        items = []
        for item in _ITEM.split(block):
            found = re.match(r"(\s*[*-] )?(.*)", item, re.S)
            assert found is not None
            body = _CODE_IN_PARENS.sub("", " ".join(found.group(2).split()))
            kept = [x for x in _SENTENCE_END.split(body) if not _NOT_FOR_PLAYERS.search(x)]
            if kept:
                items.append((found.group(1) or "").lstrip() + " ".join(kept))
        out.append("\n".join(items))
    return _CODE.sub(lambda m: m.group(1), "\n\n".join(b for b in out if b.strip()))


def rules_section(page: str) -> str:
    """The page's "rules in our words" section (its body, without the heading)."""
    found = re.search(r"^## The rules in our words\s*\n(.*?)(?=^## |\Z)", page, re.M | re.S)
    return found.group(1).strip() if found else ""


def help_body(title: str, rules_id: str, ranking: list[str], decision: str,
              explanation: str, keys: str) -> RenderableType:
    """The help screen: the decision at hand explained, what beats what (each category with
    an example), the rules in words, and the keys."""
    parts: list[RenderableType] = [Text(f"{title}: the rules at hand", style="bold")]
    if decision or explanation:
        now = Text("\nNow: ", style="bold")
        now.append(explanation or decision)  # the explanation says the prompt at length
        parts.append(now)
    if ranking:
        parts.append(Text("\nHands, best first:", style="bold"))
        parts.append(Text("\n".join(f"  {n}. {line}" for n, line in enumerate(ranking, 1))))
    page = ruleset_page(rules_id)
    section = rules_section(page) if page else ""
    if section:
        parts.append(Text("\nThe rules", style="bold"))
        parts.append(Markdown(for_players(section)))
    parts.append(Text("\n" + keys, style="dim"))
    return Group(*parts)
