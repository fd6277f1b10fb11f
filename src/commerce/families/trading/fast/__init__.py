"""The trading family's fast path: the rules of :mod:`commerce.families.trading.rules`, written
for speed.

Whole-game loops (simulations, the search bot's playouts) step this package's :class:`FastState`,
a flat named tuple, instead of the reference state; :func:`to_reference` and
:func:`from_reference` convert, and ``tests/test_trading_fast_equals_reference.py`` steps both
side by side. What follows is the procedure it implements (the reference cites the sources):

A game is a session of deals. In each deal every player antes, three cards are dealt, and
from the eldest the players in turn stand, trade a card for ready money (to the bottom of the
stock, the top card back) or barter a card with a neighbour, until someone stands. The best
hand takes the pool; the dealer pays the winner; a beaten stander pays the better hands.

Chance enters only as ``deal`` actions: each names the next card taken from the unseen part of
the stock. Traded-in cards go to the bottom of the stock in a known order and come back up
without chance once the unseen cards are used up.
"""

from __future__ import annotations

from commerce.families.trading.fast.queries import check, decision, legal_actions
from commerce.families.trading.fast.settle import outcome
from commerce.families.trading.fast.state import STATE_TYPE, FastState, new_game
from commerce.families.trading.fast.steps import apply, apply_unchecked, sample_chance
from commerce.families.trading.fast.views import from_reference, observe, to_reference
from commerce.families.trading.state import TradingState
from commerce.family import FastPath

__all__ = [
    "FAST", "FastState", "STATE_TYPE", "apply", "apply_unchecked", "check", "decision",
    "from_reference", "legal_actions", "new_game", "observe", "outcome", "sample_chance",
    "to_reference",
]

FAST: FastPath[TradingState, FastState] = FastPath(
    new_game=new_game, decision=decision, legal_actions=legal_actions, apply=apply,
    apply_unchecked=apply_unchecked, sample_chance=sample_chance, observe=observe,
    outcome=outcome, to_reference=to_reference, from_reference=from_reference,
)
"""The trading family's fast path (see :class:`commerce.family.FastPath`)."""
