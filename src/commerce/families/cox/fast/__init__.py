"""The fast path of Cox's game: the same rules as the reference, written for speed.

The reference (:mod:`commerce.families.cox.rules` and the stage modules it names) reads like
the rules; this package plays exactly the same game on a flat :class:`FastCoxState` (one
NamedTuple, copied once per action, a mutable scratch copy inside a transition), for
simulations and the search bot's playouts. ``tests/test_cox_fast_equals_reference.py`` steps
both side by side; :func:`to_reference` and :func:`from_reference` convert states. Module
constants are immutable tables; nothing here keeps state between calls.
"""

from __future__ import annotations

from commerce.families.cox.fast.convert import from_reference, to_reference
from commerce.families.cox.fast.queries import check, decision, legal_actions
from commerce.families.cox.fast.state import FastCoxState, new_game
from commerce.families.cox.fast.steps import apply, apply_unchecked, outcome, sample_chance
from commerce.families.cox.fast.views import HeuristicView, heuristic_view, observe, reveal_all
from commerce.families.cox.state import CoxState
from commerce.family import FastPath

__all__ = [
    "FAST", "FastCoxState", "HeuristicView", "apply", "apply_unchecked", "check", "decision",
    "from_reference", "heuristic_view", "legal_actions", "new_game", "observe", "outcome",
    "reveal_all", "sample_chance", "to_reference",
]

FAST: FastPath[CoxState, FastCoxState] = FastPath(
    new_game=new_game, decision=decision, legal_actions=legal_actions, apply=apply,
    apply_unchecked=apply_unchecked, sample_chance=sample_chance, observe=observe,
    outcome=outcome,
    to_reference=to_reference, from_reference=from_reference,
)
"""Cox's fast path (see :class:`commerce.family.FastPath`)."""
