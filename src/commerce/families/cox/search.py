"""Playouts of Cox's game (family ``cox``) for the search bot.

Inside a drawn (determinised) state every seat plays the heuristic bot's rules of thumb
(:mod:`commerce.families.cox.heuristic`) on its own observation to the end of the current
hand: on the compiled kernel (:func:`kernel_playouts`, every action of a drawn state at once,
the compiled heuristic tested equal to the Python one), or where the kernel does not play the
ruleset through the reference rules' unchecked transition (:func:`playout`, each action from
``legal_actions``), with a smaller budget (:data:`PYTHON_ITERATIONS`).

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

from commerce.core import Action, ActionKind, Seat, evolve
from commerce.families.cox import rules as ref
from commerce.families.cox.heuristic import cox_heuristic, rank_discards
from commerce.families.cox.observe import CoxObservation
from commerce.families.cox.state import CoxState
from commerce.family import BatchPlayouts, SearchHooks, kernel_or_none, kernel_plays
from commerce.rules import Ruleset

DEFAULT_ITERATIONS = 1000
"""Playouts per decision by default, on the compiled playouts (:func:`kernel_playouts`): a
decision costs drawing its states (in Python, about half its time) and a compiled playout of
the rest of the hand (about 30 microseconds), and 1000 playouts answered in a median of 53
to 65 ms, 95% of decisions within 70 to 110 ms (``commerce bench search --rules cox``, three
games and one)."""
PYTHON_ITERATIONS = 64
"""The default budget where the kernel does not play the ruleset (:func:`compiled`) and the
playouts are :func:`playout`'s: a playout of a whole hand takes about 2.3 ms here, so that a
decision stays within 200 ms (``commerce bench search --rules cox``)."""


def playout(state: CoxState, action: Action, seat: Seat,
            rng: random.Random) -> tuple[float, float]:
    """Play *action*, then heuristics to the hand's end: (lead in the hand, won).

    The drawn state is played on the reference rules. Each seat decides on its own
    observation, as the heuristic bot does at the table; no rule reads the events, so the log
    is emptied before each seat's observation is made.
    """
    apply = ref.apply_unchecked
    legal_actions = ref.legal_actions
    observe = ref.observe
    # Asking only the seats that may buy a discard (those who cannot may only decline)
    # changes nothing but the number of steps.
    t = apply(evolve(state, ruleset=_eligible_only(state.ruleset),
                     deal=evolve(state.deal, log=())), action)
    while True:
        for e in t.events:
            if e.kind == "hand_scored":
                return _settle(e.get("scores"), seat)
        s = t.state
        legal = legal_actions(s)
        if len(legal) == 1:
            t = apply(s, legal[0])
            continue
        s = evolve(s, deal=evolve(s.deal, log=()))
        t = apply(s, cox_heuristic(observe(s, s.turn.actor), legal, rng, 0.5))


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


def candidates(obs: CoxObservation, legal: Sequence[Action]) -> list[int]:
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


def reference(obs: CoxObservation, legal: Sequence[Action]) -> Action:
    """The heuristic's own choice among *legal* (ties broken as in :func:`candidates`)."""
    return cox_heuristic(obs, legal, random.Random(0), 0.5)


def _kernel(rules: Ruleset, players: int) -> Any:
    """The compiled kernel of *rules* at *players* seats, or None where it does not play them
    (built once per ruleset and table: :func:`commerce.family.kernel_or_none`)."""
    from commerce.families.cox.compiled import kernel

    return kernel_or_none(kernel, rules, players)


def compiled(rules: Ruleset) -> bool:
    """Whether the compiled kernel plays *rules* (then the search's playouts run there)."""
    from commerce.families.cox.kernel import check_supported

    return kernel_plays(check_supported, rules)


def kernel_playouts(obs: CoxObservation) -> BatchPlayouts[CoxState] | None:
    """The search bot's playouts on the compiled kernel (``SearchHooks.batch``): from a drawn
    state, each action and then the compiled heuristic in every seat to the end of the hand,
    scored as :func:`playout` scores them (the lead in the hand, won); the same rules and the
    same heuristic, tested equal step for step. None where the kernel does not play the
    ruleset (then :func:`playout`)."""
    kern = _kernel(obs.ruleset, obs.players)
    if kern is None:
        return None
    from commerce.families.cox.compiled_playouts import Runner

    run = Runner(kern)

    def playouts(state: CoxState, actions: Sequence[Action], seat: Seat,
                 key: int) -> list[tuple[float, float]]:
        return [_settle(tuple(row), seat) for row in run(state, actions, seat, key)
                .scores.tolist()]

    return playouts


def _budget(rules: Ruleset) -> int | None:
    return None if compiled(rules) else PYTHON_ITERATIONS


SEARCH: SearchHooks[CoxState, CoxObservation] = SearchHooks(
    playout=playout, iterations=DEFAULT_ITERATIONS, candidates=candidates, reference=reference,
    confidence=CONFIDENCE, batch=kernel_playouts, iterations_by_rules=_budget,
)
"""Cox's hooks for the search bot."""
