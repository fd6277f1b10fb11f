"""Print the observation layout of a ruleset as a markdown table (for docs/research.md).

    .venv/bin/python scripts/research_layout.py peel 4
"""

from __future__ import annotations

import sys

import commerce  # noqa: F401  (registers the families)
from commerce.encoding import observation_size
from commerce.family import family_spec
from commerce.rules import find_ruleset


def table(rules_id: str, players: int) -> str:
    rules = find_ruleset(rules_id)
    enc = family_spec(rules.family).encoding
    assert enc is not None
    lines = [f"`{rules.id}`, {players} players: {observation_size(enc, rules, players)} numbers, "
             f"{enc.num_actions(rules, players)} actions, K = {enc.history}", "",
             "| offset | size | segment | meaning |", "|---|---|---|---|"]
    at = 0
    for seg in enc.layout(rules, players):
        lines.append(f"| {at} | {seg.size} | `{seg.name}` | {seg.doc} |")
        at += seg.size
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(sys.argv[1], int(sys.argv[2])))
