"""Comparing Cox's compiled heuristic with the Python one where the Python one breaks ties.

The Python heuristic breaks a tie among equally good discards with one ``random()`` draw per
discard, in legal order; :class:`Rigged` makes the favoured draw the smallest, so that the
Python heuristic picks the compiled heuristic's discard exactly when that discard is among
its equal best ones (and nothing else).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from commerce.core import Action, ActionKind


class Rigged(random.Random):
    """An RNG whose ``random()`` makes the *favoured*-th draw the smallest (-1: none)."""

    def __init__(self, favoured: int) -> None:
        super().__init__(0)
        self.favoured = favoured
        self.calls = 0

    def random(self) -> float:
        self.calls += 1
        return 0.0 if self.calls - 1 == self.favoured else 0.5


def rigged_for(legal: Sequence[Action], action: Action | None) -> Rigged:
    """The :class:`Rigged` RNG that favours *action* among the discards of *legal*."""
    discards = [a for a in legal if a.kind is ActionKind.DISCARD]
    return Rigged(discards.index(action) if action in discards else -1)
