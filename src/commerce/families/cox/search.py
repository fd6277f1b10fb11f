"""Fast playouts of Cox's game (family ``cox``) for the search bot.

Inside a drawn (determinised) state every seat plays the heuristic bot's rules of thumb
(:mod:`commerce.families.cox.heuristic`) on its own observation, through the fast path's
unchecked transition (each action comes from ``legal_actions``), to the end of the current
hand.

Cox's payoffs are points, and not zero-sum: every seat scores its own holding. What the
search maximises is the seat's lead in the hand: its score for the hand minus the mean of the
other seats' scores. That is the change, from now to the end of the hand, of its total less the
others' mean total, which is what decides the game and a tournament's payoff differences
(selling out early to deny the others their points counts; a high score that others match does
not). *won* is 1.0 when no other seat scored more in the hand.

The bot searches only a few candidate actions (:func:`candidates`) and keeps to the
heuristic's own choice (:func:`reference`) unless another beats it clearly
(:data:`CONFIDENCE`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from commerce.core import Action, ActionKind, Seat
from commerce.families.cox import fast
from commerce.families.cox.heuristic import cox_heuristic, rank_discards
from commerce.families.cox.state import CoxState
from commerce.family import SearchHooks
from commerce.rules import Ruleset

DEFAULT_ITERATIONS = 64
"""Playouts per decision by default: a playout of a whole hand takes about 2.3 ms here, so
that a decision stays within 200 ms (``scripts/bench_search.py --rules cox``)."""


def playout(state: CoxState, action: Action, seat: Seat,
            rng: random.Random) -> tuple[float, float]:
    """Play *action*, then heuristics to the hand's end: (lead in the hand, won).

    The drawn (reference) state is played on the fast path. Each seat decides on what the
    heuristic reads of its own observation (:func:`commerce.families.cox.fast.heuristic_view`,
    field for field the observation's); no rule reads the events, so the log is kept empty.
    """
    apply = fast.apply_unchecked
    legal_actions = fast.legal_actions
    view = fast.heuristic_view
    # Asking only the seats that may buy a discard (those who cannot may only decline)
    # changes nothing but the number of steps.
    s = fast.from_reference(state)
    t = apply(s._replace(log=(), ruleset=_eligible_only(s.ruleset)), action)
    while True:
        for e in t.events:
            if e.kind == "hand_scored":
                return _settle(e.get("scores"), seat)
        s = t.state
        legal = legal_actions(s)
        if len(legal) == 1:
            t = apply(s, legal[0])
            continue
        t = apply(s._replace(log=()), cox_heuristic(view(s, s.actor), legal, rng, 0.5))


@lru_cache(maxsize=32)
def _eligible_only(rules: Ruleset) -> Ruleset:
    """*rules* asking only the seats that may buy a discard."""
    return rules.with_options(buy_offers="eligible_only")


def _settle(scores: tuple[int, ...], seat: Seat) -> tuple[float, float]:
    mine = scores[seat]
    others = [p for q, p in enumerate(scores) if q != seat]
    lead = mine - sum(others) / len(others)
    return float(lead), float(mine >= max(others))


CANDIDATE_DISCARDS = 3
"""Discards searched at a discard decision: the heuristic's favourites (sell-outs besides)."""


def candidates(obs: Any, legal: Sequence[Action]) -> list[int]:
    """The actions worth a playout: every sell-out and the heuristic's
    :data:`CANDIDATE_DISCARDS` favourite discards; buying or not, both."""
    discards = [a for a in legal if a.kind is ActionKind.DISCARD]
    if len(discards) <= CANDIDATE_DISCARDS:
        return list(range(len(legal)))
    keep = set(rank_discards(obs, discards, random.Random(0))[:CANDIDATE_DISCARDS])
    return [i for i, a in enumerate(legal) if a.kind is not ActionKind.DISCARD or a in keep]


CONFIDENCE = 2.0
"""Standard errors by which an action's paired gain over the heuristic's own choice must
exceed zero for the bot to play it instead: a hand's points vary so much from playout to
playout that, within the budget, most discards cannot be told apart, and picking the best
mean among them would follow the noise."""


def reference(obs: Any, legal: Sequence[Action]) -> Action:
    """The heuristic's own choice among *legal* (ties broken as in :func:`candidates`)."""
    return cox_heuristic(obs, legal, random.Random(0), 0.5)


SEARCH = SearchHooks(playout=playout, iterations=DEFAULT_ITERATIONS, candidates=candidates,
                     reference=reference, confidence=CONFIDENCE)
"""Cox's hooks for the search bot."""
