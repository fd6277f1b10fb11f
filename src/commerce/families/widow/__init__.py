"""The widow family: Peel's Old Game, Pool Commerce, the widow game, Pounce, No Pair or Point.

Players exchange with face-up cards in the middle (the widow) until two stand or one knocks.
The reference rules read like the sources: ``state`` (the session, the deal, the turn),
then one module per stage of play, ``deal``, ``turn`` and ``settle``, with ``rules`` saying
which step each action is; ``observe`` (what each seat may know) and ``notation``. ``kernel``
plays the same rules compiled (with ``compiled_rules`` and its siblings, loaded by
``compiled``) for speed (simulations, the search's playouts), tested equal to them step for
step. Also: ``presets`` and ``options``, ``hidden`` (the generic tests'
hooks), ``text`` (words for people), ``deals`` (deal summaries for the analyses),
``heuristic``, ``sample`` and ``search`` (what the bots use). :data:`FAMILY` is
the one place that names its hooks.
"""

from __future__ import annotations

from commerce.core import Action, ActionKind
from commerce.families.widow import (
    compiled,
    deals,
    encode,
    heuristic,
    hidden,
    notation,
    observe,
    options,
    present,
    presets,
    rules,
    sample,
    search,
    state,
)
from commerce.families.widow import text as text_
from commerce.families.widow.options import WidowOptions
from commerce.family import FamilySpec
from commerce.rules import Ruleset


def _stand_action(ruleset: Ruleset) -> Action | None:
    """Stand in the Old Game (two stands end the deal); knock where a knock ends it."""
    opts = WidowOptions.of(ruleset)
    if opts.end_condition == "two_stand":
        return Action(ActionKind.STAND)
    if opts.end_condition == "knock_final_round":
        return Action(ActionKind.KNOCK)
    return None


FAMILY: FamilySpec[state.WidowState, observe.WidowObservation] = FamilySpec(
    name="widow",
    title="the widow games: exchange with face-up cards until two stand or one knocks",
    state_type=state.WidowState,
    observation_type=observe.WidowObservation,
    presets=presets.PRESETS,
    options=options.WidowOptions,
    validate=options.validate,
    new_game=rules.new_game,
    decision=rules.decision,
    legal_actions=rules.legal_actions,
    check=rules.check,
    apply=rules.apply,
    sample_chance=rules.sample_chance,
    observe=observe.observe,
    reveal_all=observe.reveal_all,
    outcome=rules.outcome,
    format_action=notation.format_action,
    parse_action=notation.parse_action,
    describe_event=text_.describe_event,
    render=text_.render,
    action_label=present.action_label,
    heuristic=heuristic.widow_action,
    sampler=sample.prepare,
    search=search.SEARCH,
    deal_reader=deals.read_widow_deals,
    stand_action=_stand_action,
    cards_in_play=hidden.cards_in_play,
    permute_hidden=hidden.permute_hidden,
    encoding=encode.ENCODING,
    unit_of=present.unit_of,
    presentation=present.PRESENTATION,
    kernel=compiled.kernel,
    env_kernel=compiled.env_kernel,
    env_version=1,
)
"""The widow family's contract (see :class:`commerce.family.FamilySpec`)."""
