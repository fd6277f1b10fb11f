"""The widow family's fast path: Peel's Old Game, Pool Commerce, the token game, Pounce,
No Pair or Point, written for speed (a named tuple addressed by index, interned events).

This package plays exactly the rules of the reference, and every whole-game loop may use it
(simulations, the search's playouts). It holds no mutable module state: its only caches are
bounded caches of pure functions (:func:`functools.lru_cache`).

The rules themselves are told in the reference modules
(:mod:`commerce.families.widow.deal`, :mod:`~commerce.families.widow.turn`,
:mod:`~commerce.families.widow.settle`); ``tests/test_widow_fast_equals_reference.py`` steps
both side by side.

>>> from commerce.core import Action, ActionKind
>>> from commerce.rules import find_ruleset
>>> from commerce.cards import parse_cards
>>> s = new_game(find_ruleset("widow"), 3, 0)
>>> deal = parse_cards("2S 3S 4S  9H 9D 9C  KS QD 7C  AS 5H 8D")
>>> s = apply(s, Action(ActionKind.DEAL, deal)).state
>>> decision(s).kind.value, decision(s).seat   # the dealer, blind
('blind_exchange', 0)
>>> observe(s, 0).hand        # he has not looked at his hand
()
>>> to_reference(s).deal.widow == s.widow
True
"""

from __future__ import annotations

from commerce.families.widow import state as ref
from commerce.families.widow.fast.convert import from_reference, to_reference
from commerce.families.widow.fast.dealing import sample_chance
from commerce.families.widow.fast.queries import check, decision, legal_actions
from commerce.families.widow.fast.settle import outcome
from commerce.families.widow.fast.state import STATE_TYPE, WidowState, new_game
from commerce.families.widow.fast.steps import apply, apply_unchecked
from commerce.families.widow.fast.views import observe, reveal_all, without_offer
from commerce.family import FastPath

__all__ = [
    "FAST", "STATE_TYPE", "WidowState", "apply", "apply_unchecked", "check", "decision",
    "from_reference", "legal_actions", "new_game", "observe", "outcome", "reveal_all",
    "sample_chance", "to_reference", "without_offer",
]

FAST: FastPath[ref.WidowState, WidowState] = FastPath(
    new_game=new_game, decision=decision, legal_actions=legal_actions, apply=apply,
    apply_unchecked=apply_unchecked, sample_chance=sample_chance, observe=observe,
    outcome=outcome, to_reference=to_reference, from_reference=from_reference,
)
"""The widow family's fast path (see :class:`commerce.family.FastPath`)."""
