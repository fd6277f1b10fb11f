"""A game the compiled kernel played, replayed move by move through the reference engine."""

from __future__ import annotations

from typing import Any

from commerce import engine


def replay_batch_game(rules: Any, players: int, batch: Any, game: int,
                      decode: Any) -> tuple[Any, list[Any], list[int], int]:
    """Game *game* of a recorded batch (``run_batch(..., record=True)``) through the reference:
    its final state, every event, the player decisions made before each event, and the
    decisions in all (*decode* turns a kernel action code into an action)."""
    state = engine.new_game(rules, players, dealer=int(batch.dealers[game]))
    events = list(getattr(state, "log", ()))
    at = [0] * len(events)
    decisions = 0
    for code in batch.actions[game, :batch.action_counts[game]]:
        d = engine.decision(state)
        if d is not None and d.seat is not None:
            decisions += 1
        transition = engine.apply(state, decode(int(code)))
        events.extend(transition.events)
        at.extend([decisions] * len(transition.events))
        state = transition.state
    return state, events, at, decisions
