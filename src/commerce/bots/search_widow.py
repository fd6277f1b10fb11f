"""Fast playouts of the widow family for the search bot.

Inside a drawn (determinised) state, every seat plays the heuristic's rules of thumb
(:func:`commerce.bots.heuristic_widow.widow_action`) on its own cards and the public table,
through the family's unchecked transition (each action comes from ``legal_actions``), until
the deal ends. The gain is the seat's change in tokens (counters) where the ruleset has them,
else in stakes, from now to the end of the deal (and the pool, if the session ends with it).
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from commerce.bots.heuristic_widow import best_target, hand_strength, knock_threshold, widow_action
from commerce.bots.search import register_default_iterations, register_playout
from commerce.core import Action, Decision, Event, Seat
from commerce.families import widow
from commerce.families.widow import Phase, WidowState
from commerce.rules import Family, Ruleset

_TOKENS = frozenset({"lowest_to_best", "lowest_to_pool"})
DEFAULT_ITERATIONS = 120
"""The search bot's default budget in this family: the playouts are longer than the trading
family's (several rounds of exchanges), so fewer fit in 200 ms (``scripts/bench_search.py``:
see docs/bots.md)."""
MAX_ACTIONS = 2000
"""A safety bound on the actions of one playout (a deal ends long before)."""


class _View(NamedTuple):
    """The part of an observation the heuristic reads."""

    ruleset: Ruleset
    seat: Seat
    hand: tuple[int, ...]
    widow: tuple[int, ...]
    decision: Decision | None
    in_deal: tuple[Seat, ...]
    final_turns: bool
    events: tuple[Event, ...]


def playout(state: WidowState, action: Action, seat: Seat,
            rng: random.Random) -> tuple[float, float]:
    """Play *action*, then heuristics to the deal's end: (gain from now, won the deal)."""
    tokens = state.ruleset.token_flow in _TOKENS
    start = state.tokens[seat] if tokens else state.balances[seat]
    start_balance = state.balances[seat]
    apply = widow.apply_unchecked
    t = apply(state, action)
    for _ in range(MAX_ACTIONS):
        for e in t.events:
            if e.kind == "deal_ended":
                return _settle(t, seat, tokens, start, start_balance)
        s = t.state
        phase = s.phase
        if phase is Phase.DEAL or phase is Phase.CARD:
            t = apply(s, widow.sample_chance(s, rng))
            continue
        legal = widow.legal_actions(s)
        if len(legal) == 1:
            t = apply(s, legal[0])
            continue
        actor = s.actor
        view: Any = _View(s.ruleset, actor, s.hands[actor], s.widow, widow.decision(s),
                          s.order, s.in_final, s.log)
        t = apply(s, widow_action(view, legal, rng, 0.5))
    return 0.0, 0.0  # pragma: no cover - a deal always ends


def _settle(t: Any, seat: Seat, tokens: bool, start: int,
            start_balance: int) -> tuple[float, float]:
    s: WidowState = t.state
    won = 0.0
    for e in t.events:
        if e.kind == "showdown":
            won = float(seat in e.get("winners"))
    if not tokens:
        return float(s.balances[seat] - start), won
    gain = float(s.tokens[seat] - start)
    if s.phase is Phase.OVER and s.ruleset.token_flow == "lowest_to_pool":
        gain += float(s.balances[seat] - start_balance)
    return gain, won


def plausible(state: WidowState, seat: Seat) -> bool:
    """Whether every other seat that stood, knocked or passed on its turn (and whose hand has
    not changed since) holds a hand the heuristic would have stopped on: one no exchange with
    the widow of that moment improved, unless it was strong enough to knock on at once.

    The widow of each moment is rebuilt by undoing the public moves since, newest first.
    """
    rules = state.ruleset
    widow_now = set(state.widow)
    hands = state.hands
    limit = min(rules.max_exchange_per_turn, 3)
    threshold = knock_threshold(rules, len(state.order) - 1, 0.5)
    for e in reversed(state.log):
        kind = e.kind
        q = e.seat
        if kind == "exchanged":
            widow_now.discard(e.get("gave"))
            widow_now.add(e.get("took"))
        elif kind == "blind_exchanged":
            widow_now.difference_update(e.get("gave"))
            widow_now.update(e.get("took"))
        elif kind == "widow_card":
            widow_now.discard(e.get("card"))
        elif kind == "pounced":
            widow_now.add(e.get("card"))
        elif kind in ("stood", "knocked", "passed") and q is not None and q != seat:
            hand = hands[q]
            if len(hand) != 3 or not widow_now:
                continue
            if hand_strength(rules, hand) >= threshold:
                continue
            if q in _changed_since(state.log, e):
                continue
            widow_then = sorted(widow_now)
            if best_target(rules, hand, hand, widow_then, limit, True) != tuple(hand):
                return False
    return True


def _changed_since(log: tuple[Event, ...], mark: Event) -> set[Seat]:
    """Seats whose hands changed after the event *mark* (by an exchange or a pounce)."""
    out: set[Seat] = set()
    for e in reversed(log):
        if e is mark:
            break
        if e.kind in ("exchanged", "pounced") and e.seat is not None:
            out.add(e.seat)
    return out


register_playout(Family.WIDOW, playout, plausible)
register_default_iterations(Family.WIDOW, DEFAULT_ITERATIONS)
