"""The table's help screen: the ruleset's page, what beats what, the decision at hand.

The ruleset pages (``docs/rulesets/<id>.md``) are shipped inside the package at build time
(``setup.py`` copies them to ``commerce/pages/``), so an installed ``commerce`` has them; a
source checkout reads them from ``docs/rulesets/``. They are read by
:mod:`commerce.presentation`, which the browser page's rules share. The help shows the page's
"rules in our words" for players: a parenthesis with a code word, a sentence about the engine
or naming an option or a module, and a table row naming one, are left out; the moves' code
words are written as plain words.

>>> print(for_players("He may keep his hand (`pass`, which does not lock him out). Or he "
...                   "may stop after `max_rounds_per_deal` rounds. Write `x 7h for qs`."))
He may keep his hand. Write x 7h for qs.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.text import Text

from commerce.presentation import for_players, rules_section, ruleset_page

__all__ = ["for_players", "help_body", "rules_section", "ruleset_page"]


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
