"""The search bot's Vingt-un hooks.

Every decision of a hand (the stake, the dealer's double, a card or content, dividing a pair,
the dealer's own drawing) is worked out from the observation by :mod:`commerce.families.vingtun
.expect`: each hand is a contest with the dealer alone, so the chances of the unseen cards give
each action's expected gain without playing it out. Where that model has no answer, playouts
remain: they play the heuristic in every seat until the hand is settled, and the gain is the
seat's change in counters over it (a whole session is long and its later hands hardly depend on
this decision). A drawn state is believed when every other player's standing hand totals what a
player stands on (the heuristic's 17 or more), and the heuristic's own choice is kept unless
another is clearly better.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from commerce.core import Action, Seat
from commerce.families.vingtun import rules
from commerce.families.vingtun.expect import expected_gains
from commerce.families.vingtun.heuristic import threshold, vingtun_action
from commerce.families.vingtun.observe import VingtUnObservation
from commerce.families.vingtun.sample import prepare
from commerce.families.vingtun.state import Phase, Status, VingtUnState, total
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


def belief(state: VingtUnState, seat: Seat) -> bool:
    """Whether every other player's standing hand totals at least the heuristic's threshold."""
    least = threshold(0.5)
    return all(total(h.cards) >= least for x, own in enumerate(state.round.hands)
               if x not in (seat, state.dealer) for h in own if h.status is Status.CONTENT)


def reference(obs: VingtUnObservation, legal: Sequence[Action]) -> Action:
    """The heuristic's choice, which the search keeps unless another is clearly better."""
    return vingtun_action(obs, legal, random.Random(0), 0.5)


SEARCH: SearchHooks[VingtUnState, VingtUnObservation] = SearchHooks(
    playout=playout, sampler=prepare, belief=belief, reference=reference, iterations=200,
    expected=expected_gains,
)
"""Vingt-un's search hooks."""
