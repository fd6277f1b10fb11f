"""A seeded fuzz of the full-screen table through Textual's pilot: 150 random keys and clicks
per ruleset at 80x24 (numbers, Enter, arrows, letters, notes' keys, two keys at once, typed
moves, clicks on the cards and the menu, a hint, a resize), over a short game so that the
notes, the offers and the end of the game are met. None may raise or end the app (only
``q``, Ctrl-Q and Ctrl-C end it, and the fuzz does not press them; ``n`` at the end plays
another game), a seat row never takes two rows, and the game's record always replays.

``scripts/fuzz.py --table --minutes N`` runs the long fuzz at several sizes; a seed it finds
failing is added to :data:`FOUND`.
"""

from __future__ import annotations

import pytest

from tests.harness import all_rulesets
from tests.harness.table import fuzz

STEPS = 150
"""Keys and clicks per ruleset."""

FOUND: list[tuple[str, int, tuple[int, int]]] = [
    ("cox", 2522798642, (80, 24)),  # laid-out sets spilled a seat row onto a second line
]
"""Seeds the long fuzz found failing (ruleset, seed, size), kept as tests once fixed."""


@pytest.mark.parametrize("rules_id", [r.id for r in all_rulesets()])
def test_random_keys_and_clicks_never_break_the_table(rules_id: str) -> None:
    seen = fuzz(rules_id, 1, (80, 24), STEPS)
    assert seen["problems"] == [], seen["problems"]
    assert seen["replays"], "the game's record does not replay to the table's game"
    assert seen["moves"] > 1


@pytest.mark.parametrize("rules_id,seed,size", FOUND)
def test_the_seeds_the_long_fuzz_found(rules_id: str, seed: int, size: tuple[int, int]) -> None:
    seen = fuzz(rules_id, seed, size, STEPS)
    assert seen["problems"] == [] and seen["replays"], seen["problems"]
