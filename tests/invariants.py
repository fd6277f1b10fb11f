"""Seeded invariant checks shared by every ruleset's simulation tests."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from commerce import engine
from commerce.core import Action, ActionKind
from commerce.errors import IllegalActionError


def random_game(rules: Any, players: int, seed: int,
                each: Callable[[Any], None] | None = None) -> tuple[Any, list[str]]:
    """Play a random game through the checked API; call *each* on every state."""
    rng = random.Random(seed)
    state = engine.new_game(rules, players, dealer=seed % players)
    actions: list[str] = []
    while True:
        if each is not None:
            each(state)
        d = engine.decision(state)
        if d is None:
            return state, actions
        if d.seat is None:
            action = engine.sample_chance(state, rng)
        else:
            legal = engine.legal_actions(state)
            action = legal[rng.randrange(len(legal))]
        actions.append(engine.format_action(state, action))
        state = engine.apply(state, action).state


def garbage_actions(cards: range) -> list[Action]:
    """Every kind with no card, one card and two cards: most are illegal anywhere."""
    out = [Action(kind) for kind in ActionKind]
    for kind in ActionKind:
        out.append(Action(kind, (cards[0],)))
        out.append(Action(kind, (cards[-1], cards[0])))
    return out


def check_outside_legal_rejected(state: Any, candidates: list[Action]) -> None:
    """Every candidate not in legal_actions is refused with a reason; the state is unchanged."""
    legal = set(engine.legal_actions(state))
    before = state
    for action in candidates:
        if action in legal:
            engine.check(state, action)
            continue
        if action.kind is ActionKind.DEAL and len(action.cards) > 1:
            # A multi-card deal is legal exactly when its single-card deals are, in turn.
            assert engine.is_legal(state, action) == _decomposes(state, action.cards)
            continue
        try:
            engine.check(state, action)
        except IllegalActionError as exc:
            assert exc.reason is not None and str(exc)
        else:
            raise AssertionError(f"{action} accepted but not in legal_actions")
        assert state == before


def _decomposes(state: Any, cards: tuple[int, ...]) -> bool:
    if len(set(cards)) != len(cards):
        return False
    for i, card in enumerate(cards):
        single = Action(ActionKind.DEAL, (card,))
        if single not in engine.legal_actions(state):
            return False
        state = engine.apply(state, single).state
        if i < len(cards) - 1:
            d = engine.decision(state)
            if d is None or d.seat is not None:
                return False
    return True
