"""The widow family: Peel's Old Game, Pool Commerce, the widow game, Pounce, No Pair or Point.

Players exchange with face-up cards in the middle (the widow) until two stand or one knocks.
This package holds the family whole: ``presets`` and ``options``, ``rules`` (the state, every
rule step, observation, notation), ``text`` (words for people), ``deals`` (deal summaries for
the analyses), ``heuristic``, ``sample`` and ``search`` (what the bots use). :data:`FAMILY` is
the one place that names its hooks.
"""

from __future__ import annotations

from commerce.core import Action, ActionKind
from commerce.families.widow import deals, heuristic, options, presets, rules, sample, search
from commerce.families.widow import testing as testing_
from commerce.families.widow import text as text_
from commerce.family import FamilySpec
from commerce.rules import Ruleset


def _stand_action(ruleset: Ruleset) -> Action | None:
    """Stand in the Old Game (two stands end the deal); knock where a knock ends it."""
    if ruleset.end_condition == "two_stand":
        return Action(ActionKind.STAND)
    if ruleset.end_condition == "knock_final_round":
        return Action(ActionKind.KNOCK)
    return None


FAMILY: FamilySpec[rules.WidowState, rules.WidowObservation] = FamilySpec(
    name="widow",
    title="the widow games: exchange with face-up cards until two stand or one knocks",
    state_type=rules.WidowState,
    observation_type=rules.WidowObservation,
    presets=presets.PRESETS,
    options=options.WidowOptions,
    validate=options.validate,
    new_game=rules.new_game,
    decision=rules.decision,
    legal_actions=rules.legal_actions,
    check=rules.check,
    apply=rules.apply,
    sample_chance=rules.sample_chance,
    observe=rules.observe,
    reveal_all=rules.reveal_all,
    outcome=rules.outcome,
    format_action=rules.format_action,
    parse_action=rules.parse_action,
    describe_event=text_.describe_event,
    render=text_.render,
    heuristic=heuristic.widow_action,
    sampler=sample.prepare,
    search=search.SEARCH,
    cards_in_play=testing_.cards_in_play, permute_hidden=testing_.permute_hidden,
    deal_reader=deals.read_widow_deals,
    stand_action=_stand_action,
)
"""The widow family's contract (see :class:`commerce.family.FamilySpec`)."""
