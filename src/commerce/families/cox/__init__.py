"""Cox's patented Commerce (1925): 80 cards, Supply Bases, "I buy", "I sell out".

This package holds the game whole: ``presets`` and ``options``, ``cards`` (the 80-card pack and
its notation), ``scoring``; the reference rules (``rules`` names the entry points and the
stage modules in the order of play: ``state``, ``game``, ``deal``, ``layout``, ``turn``,
``settle``, ``choices``, ``observe``, ``notation``); ``kernel`` (the same rules compiled,
with ``compiled_rules`` and ``compiled_heuristic``, loaded by ``compiled``; ``kernel_env``
steps them one decision at a time for the vector environment); ``text`` (words for
people), ``deals`` (hand summaries for the analyses), ``heuristic``, ``sample`` and
``search`` (what the bots use), ``hidden`` (test hooks). :data:`FAMILY` is the one place
that names its hooks.
"""

from __future__ import annotations

from commerce.families.cox import (
    compiled,
    deals,
    encode,
    heuristic,
    hidden,
    notation,
    options,
    present,
    presets,
    rules,
    sample,
    search,
)
from commerce.families.cox import text as text_
from commerce.family import FamilySpec

FAMILY: FamilySpec[rules.CoxState, rules.CoxObservation] = FamilySpec(
    name="cox",
    title="Cox's game: draw, discard, 'I buy', 'I sell out'",
    state_type=rules.CoxState,
    observation_type=rules.CoxObservation,
    presets=presets.PRESETS,
    options=options.CoxOptions,
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
    format_action=notation.format_action,
    parse_action=notation.parse_action,
    describe_event=text_.describe_event,
    render=text_.render_observation,
    action_label=notation.action_label,
    heuristic=heuristic.cox_heuristic,
    sampler=sample.prepare,
    search=search.SEARCH,
    deal_reader=deals.read_cox_deals,
    role_name=deals.cox_role,
    unit="points",
    cards_in_play=hidden.cards_in_play,
    permute_hidden=hidden.permute_hidden,
    encoding=encode.ENCODING,
    presentation=present.PRESENTATION,
    kernel=compiled.kernel,
    env_kernel=compiled.env_kernel,
    env_version=1,
    extras={"no_stand_reason": "stand-threshold has no meaning in Cox's game ({id}): nobody "
                               "stands, a hand ends when a player sells out or the supply runs "
                               "out; try dealer-advantage or variants"},
)
"""Cox's contract (see :class:`commerce.family.FamilySpec`)."""
