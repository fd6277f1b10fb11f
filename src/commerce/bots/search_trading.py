"""Fast playouts of the trading family for the search bot.

Inside a drawn (determinised) state, every seat plays the heuristic bot's rules of thumb on its
own cards only, through the family's unchecked transition (each action comes from
``legal_actions``), until the deal's showdown.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from commerce.bots.heuristic import trading_action, win_chance
from commerce.bots.search import register_playout
from commerce.core import Action, Decision, Seat
from commerce.families import trading
from commerce.families.trading import Phase, TradingState
from commerce.rules import Family, Ruleset


class _View(NamedTuple):
    """The part of an observation the heuristic reads: the actor's own cards."""

    ruleset: Ruleset
    players: int
    hand: tuple[int, ...]
    decision: Decision | None
    offered: int | None


def playout(state: TradingState, action: Action, seat: Seat,
            rng: random.Random) -> tuple[float, float]:
    """Play *action*, then heuristics to the deal's end: (gain in stakes from now, won)."""
    start = state.balances[seat]
    apply = trading.apply_unchecked
    t = apply(state, action)
    while True:
        for e in t.events:
            if e.kind == "deal_ended":
                return _settle(t, seat, start)
        s = t.state
        phase = s.phase
        if phase is Phase.DEAL or phase is Phase.DRAW:
            t = apply(s, trading.sample_chance(s, rng))
            continue
        legal = trading.legal_actions(s)
        if len(legal) == 1:
            t = apply(s, legal[0])
            continue
        actor = s.actor
        view: Any = _View(s.ruleset, s.players, s.hands[actor], trading.decision(s), s.offered)
        t = apply(s, trading_action(view, legal, rng, 0.5))


def plausible(state: TradingState, seat: Seat) -> bool:
    """Whether every other seat that ended its turn without standing holds a hand the
    heuristic would not stand on (the belief the search plays against); hands changed since
    by a barter are not judged."""
    log = state.log
    n = state.players
    judged = [False] * n
    touched = [False] * n
    busy = state.phase in (Phase.DRAW, Phase.AFTER_TRADE, Phase.BARTER_REPLY)
    for e in reversed(log):
        kind = e.kind
        if kind == "bartered" or kind == "barter_offered":
            partner = e.get("partner")
            touched[partner] = True
        if kind == "traded" or kind == "bartered":
            q = e.seat
            if q is None or q == seat or judged[q] or touched[q]:
                continue
            judged[q] = True
            if busy and q == state.turn:
                continue
            hand = state.hands[q]
            if len(hand) == 3 and win_chance(state.ruleset, hand, n - 1) >= 0.5:
                return False
    return True


def _settle(t: Any, seat: Seat, start: int) -> tuple[float, float]:
    s: TradingState = t.state
    balance = s.balances[seat]
    if s.phase is not Phase.OVER:  # the next deal's antes are already taken: give them back
        rules = s.ruleset
        balance += rules.dealer_ante if seat == s.dealer else rules.ante
    won = 0.0
    for e in t.events:
        if e.kind == "showdown":
            won = float(seat in e.get("winners"))
    return float(balance - start), won


register_playout(Family.TRADING, playout, plausible)
