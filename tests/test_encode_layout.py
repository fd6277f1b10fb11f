"""One declared layout for both encoders of a kernel family.

Each kernel family's observation vector is written by two encoders: the reference's
(``encode.encode``, over ``engine.observe``) and the compiled one (``kernel_env._observe``).
Neither places a segment by itself: both take the segments' order and sizes from the one
``encode.layout`` (the reference through :class:`commerce.encoding.Features`, the compiled
through :func:`commerce.encoding.segment_offsets`). Here the layout function itself is
edited, its segments reversed, and both encoders must follow: the compiled table's vectors
change, into a permutation of what they were, and still equal the reference's step for step
(:func:`tests.test_rl_compiled_table.twin_episode`). An encoder that placed a segment at a
fixed offset of its own would fail it.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from commerce.encoding import Segment
from commerce.families.cox import encode as cox_encode
from commerce.families.trading import encode as trading_encode
from commerce.families.widow import encode as widow_encode
from commerce.rl.table import CompiledTable
from commerce.rules import Ruleset, find_ruleset
from tests.test_rl_compiled_table import twin_episode

FAMILIES = [(trading_encode, "peel", 4), (widow_encode, "widow", 4), (cox_encode, "cox", 4)]


def _reversed_layout(rules: Any, players: int) -> tuple[Any, ...]:
    """The body the edited layout function runs (in its own module's globals)."""
    return tuple(reversed(_original_layout(rules, players)))  # type: ignore[name-defined]  # noqa: F821


def _vectors(rules: Ruleset, players: int, seed: int) -> list[np.ndarray[Any, Any]]:
    """Every seat's observation at the first decision of a compiled deal."""
    table = CompiledTable.made(rules, players, episode="deal")
    table.reset(seed)
    return [table.observation(seat) for seat in range(players)]


@pytest.mark.parametrize("module,rid,players", FAMILIES, ids=lambda x: getattr(x, "__name__", x))
def test_an_edited_layout_changes_both_encoders(module: types.ModuleType, rid: str, players: int,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    rules = find_ruleset(rid)
    layout: Callable[..., tuple[Segment, ...]] = module.layout
    segments = layout(rules, players)
    before = _vectors(rules, players, 5)
    kept = types.FunctionType(layout.__code__, layout.__globals__, "_original_layout")
    monkeypatch.setitem(layout.__globals__, "_original_layout", kept)
    monkeypatch.setattr(layout, "__code__", _reversed_layout.__code__)
    assert [s.name for s in layout(rules, players)] == [s.name for s in reversed(segments)]
    after = _vectors(rules, players, 5)
    for old, new in zip(before, after, strict=True):
        assert old.shape == new.shape
        assert not np.array_equal(old, new)  # the compiled encoder moved its segments
        assert sorted(old.tolist()) == sorted(new.tolist())
    assert twin_episode(rules, players, "deal", 5) > 0  # and the reference's moved alike
