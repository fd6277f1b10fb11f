"""The widow family: Peel's Old Game, Pool Commerce, the widow game, Pounce, No Pair or Point.

Players exchange with face-up cards in the middle (the widow) until two stand or one knocks.
This package holds the family whole: ``presets`` and ``options``, ``fast`` (the state, every
rule step, observation, notation, written for speed), ``hidden`` (the generic tests' hooks),
``text`` (words for people), ``deals`` (deal summaries for the analyses), ``heuristic``,
``sample`` and ``search`` (what the bots use). :data:`FAMILY` is
the one place that names its hooks.
"""

from __future__ import annotations

from commerce.core import Action, ActionKind
from commerce.families.widow import deals, fast, heuristic, hidden, options, presets, sample, search
from commerce.families.widow import text as text_
from commerce.family import FamilySpec, FastPath
from commerce.rules import Ruleset


def _stand_action(ruleset: Ruleset) -> Action | None:
    """Stand in the Old Game (two stands end the deal); knock where a knock ends it."""
    if ruleset.end_condition == "two_stand":
        return Action(ActionKind.STAND)
    if ruleset.end_condition == "knock_final_round":
        return Action(ActionKind.KNOCK)
    return None


def _same(state: fast.WidowState) -> fast.WidowState:
    """The rule hooks play the fast path's state itself: it is its own reference."""
    return state


FAMILY: FamilySpec[fast.WidowState, fast.WidowObservation] = FamilySpec(
    name="widow",
    title="the widow games: exchange with face-up cards until two stand or one knocks",
    state_type=fast.WidowState,
    observation_type=fast.WidowObservation,
    presets=presets.PRESETS,
    options=options.OPTIONS,
    validate=options.validate,
    new_game=fast.new_game,
    decision=fast.decision,
    legal_actions=fast.legal_actions,
    check=fast.check,
    apply=fast.apply,
    sample_chance=fast.sample_chance,
    observe=fast.observe,
    reveal_all=fast.reveal_all,
    outcome=fast.outcome,
    format_action=fast.format_action,
    parse_action=fast.parse_action,
    describe_event=text_.describe_event,
    render=text_.render,
    heuristic=heuristic.widow_action,
    sampler=sample.prepare,
    search=search.SEARCH,
    deal_reader=deals.read_widow_deals,
    stand_action=_stand_action,
    cards_in_play=hidden.cards_in_play,
    permute_hidden=hidden.permute_hidden,
    fast=FastPath(
        new_game=fast.new_game,
        decision=fast.decision,
        legal_actions=fast.legal_actions,
        apply=fast.apply,
        sample_chance=fast.sample_chance,
        observe=fast.observe,
        outcome=fast.outcome,
        to_reference=_same,
        from_reference=_same,
    ),
)
"""The widow family's contract (see :class:`commerce.family.FamilySpec`)."""
