"""Peel's Vingt-un: the banking game set just before Commerce in *Round Games with Cards*.

This package holds the family whole: ``presets`` and ``options``; the reference rules,
``rules`` (the hooks the engine calls) over ``state``, ``deal``, ``turn`` and ``settle`` (one
function per rule step, in the order of play), ``observe`` and ``notation``; ``text`` and
``present`` (words and the table for people), ``deals`` (deal summaries for the analyses),
``odds`` (exact chances of the first two cards), ``heuristic``, ``sample`` and ``search``
(what the bots use), ``hidden`` (the generic tests' hooks) and ``encode`` (the research API).
:data:`FAMILY` is the one place that names its hooks.
"""

from __future__ import annotations

from commerce.families.vingtun import (
    deals,
    encode,
    heuristic,
    hidden,
    notation,
    odds,
    options,
    present,
    presets,
    rules,
    sample,
    search,
)
from commerce.families.vingtun import observe as observe_
from commerce.families.vingtun import text as text_
from commerce.family import FamilySpec

FAMILY: FamilySpec[rules.VingtUnState, rules.VingtUnObservation] = FamilySpec(
    name="vingtun",
    title="Vingt-un: the banking game of twenty-one, Peel's rules",
    state_type=rules.VingtUnState,
    observation_type=rules.VingtUnObservation,
    presets=presets.PRESETS,
    options=options.VingtUnOptions,
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
    render=text_.render,
    action_label=present.action_label,
    heuristic=heuristic.vingtun_action,
    sampler=sample.prepare,
    search=search.SEARCH,
    deal_reader=deals.read_vingtun_deals,
    unit="stakes",
    unit_of=present.unit_of,
    cards_in_play=hidden.cards_in_play,
    permute_hidden=hidden.permute_hidden,
    encoding=encode.ENCODING,
    presentation=present.PRESENTATION,
    odds=odds.odds_table,
    extras={"event_to_dict": observe_.event_to_dict},
)
"""Vingt-un's contract (see :class:`commerce.family.FamilySpec`)."""
