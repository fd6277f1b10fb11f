"""Fast playouts of Cox's game (family ``cox``) for the search bot.

Inside a drawn (determinised) state every seat plays the heuristic bot's rules of thumb
(:mod:`commerce.bots.heuristic_cox`) on what it may see, through the family's unchecked
transition (each action comes from ``legal_actions``), to the end of the current hand.

Cox's payoffs are points, and not zero-sum: every seat scores its own holding. What the
search maximises is the seat's lead in the hand: its score for the hand minus the mean of the
other seats' scores. That is the change, from now to the end of the hand, of its total less the
others' mean total, which is what decides the game and a tournament's payoff differences
(selling out early to deny the others their points counts; a high score that others match does
not). *won* is 1.0 when no other seat scored more in the hand.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from commerce.bots.heuristic_cox import cox_heuristic
from commerce.bots.search import register_playout
from commerce.core import Action, Seat
from commerce.cox_cards import CoxCard
from commerce.families import cox
from commerce.families.cox import CoxState
from commerce.rules import Family, Ruleset

DEFAULT_ITERATIONS = 48
"""Playouts per decision by default: a hand's playout takes about 2-3 ms here, so that a
decision stays well within 200 ms (``scripts/bench_search.py --rules cox``)."""


class _View(NamedTuple):
    """The part of an observation the heuristic reads."""

    seat: Seat
    ruleset: Ruleset
    rack: tuple[CoxCard, ...]
    laid: tuple[tuple[tuple[CoxCard, ...], ...], ...]
    greenbacks: tuple[tuple[CoxCard, ...], ...]
    base_numbers: tuple[int | None, ...]
    discards: tuple[CoxCard, ...]
    live: CoxCard | None


def playout(state: CoxState, action: Action, seat: Seat,
            rng: random.Random) -> tuple[float, float]:
    """Play *action*, then heuristics to the hand's end: (lead in the hand, won)."""
    apply = cox.apply_unchecked
    legal_actions = cox.legal_actions
    t = apply(state._replace(log=()), action)  # no rule reads the log: keep it short
    while True:
        for e in t.events:
            if e.kind == "hand_scored":
                return _settle(e.get("scores"), seat)
        s = t.state
        legal = legal_actions(s)
        if len(legal) == 1:
            t = apply(s, legal[0])
            continue
        actor = s.actor
        view: Any = _View(actor, s.ruleset, tuple(sorted(s.racks[actor])), s.laid,
                          s.greenbacks, s.base_numbers, s.discards, s.live)
        t = apply(s._replace(log=()), cox_heuristic(view, legal, rng, 0.5))


def _settle(scores: tuple[int, ...], seat: Seat) -> tuple[float, float]:
    mine = scores[seat]
    others = [p for q, p in enumerate(scores) if q != seat]
    lead = mine - sum(others) / len(others)
    return float(lead), float(mine >= max(others))


register_playout(Family.COX, playout, iterations=DEFAULT_ITERATIONS)
