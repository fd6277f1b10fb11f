"""The search bot's Vingt-un hooks: playouts to the end of the current hand.

A whole session is long and its later hands hardly depend on this decision, so a playout
plays the heuristic in every seat only until the hand is settled, and the gain is the seat's
change in counters over it.
"""

from __future__ import annotations

import random

from commerce.core import Action, Seat
from commerce.families.vingtun import rules
from commerce.families.vingtun.heuristic import vingtun_action
from commerce.families.vingtun.sample import prepare
from commerce.families.vingtun.state import Phase, VingtUnState
from commerce.family import SearchHooks


def playout(state: VingtUnState, action: Action, seat: Seat,
            rng: random.Random) -> tuple[float, float]:
    """Play *action*, then the heuristic everywhere to the end of the hand: (gain, won)."""
    before = state.session.balances[seat]
    hand = (state.session.deal_number, state.session.hand_number)
    state = rules.apply(state, action).state
    while (state.phase is not Phase.OVER
           and (state.session.deal_number, state.session.hand_number) == hand):
        d = rules.decision(state)
        if d is None:
            break
        if d.seat is None:
            a = rules.sample_chance(state, rng)
        else:
            a = vingtun_action(rules.observe(state, d.seat), rules.legal_actions(state), rng,
                               0.5)
        state = rules.apply(state, a).state
    gain = float(state.session.balances[seat] - before)
    return gain, float(gain > 0)


SEARCH = SearchHooks(playout=playout, sampler=prepare, iterations=200)
"""Vingt-un's search hooks."""
