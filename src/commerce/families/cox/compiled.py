"""Cox's ``kernel`` hook, loading the compiled kernel (:mod:`.kernel`) on first use: numba is a
heavy import that ``import commerce`` does not pay."""

from __future__ import annotations

from typing import Any

from commerce.rules import Ruleset


def kernel(rules: Ruleset, players: int) -> Any:
    """The compiled kernel of *rules* at *players* seats (:func:`.kernel.build`)."""
    from commerce.families.cox.kernel import build

    return build(rules, players)
