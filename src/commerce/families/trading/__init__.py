"""The trading family: Peel's new mode, Hoyle's game, Trade and Barter.

Each player buys from the dealer for ready money or barters with a neighbour until someone
stands. This package holds the family whole: ``presets`` and ``options`` (the rulesets and the
options they read); the reference rules, ``rules`` (the hooks the engine calls) over ``state``,
``deal``, ``turn`` and ``settle`` (one function per rule step, in the order of play),
``observe`` (what each seat sees) and ``notation``; ``kernel`` (the same rules compiled, with
``compiled_heuristic``, loaded by ``compiled``, for whole-game loops and the search's
playouts); ``text`` (words for people), ``deals`` (deal summaries for the analyses),
``heuristic``, ``sample`` and ``search`` (what the bots use).
:data:`FAMILY` is the one place that names its hooks.
"""

from __future__ import annotations

from commerce.core import Action, ActionKind
from commerce.families.trading import (
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
from commerce.families.trading import text as text_
from commerce.family import FamilySpec
from commerce.rules import Ruleset


def _stand_action(_rules: Ruleset) -> Action | None:
    return Action(ActionKind.STAND)


FAMILY: FamilySpec[rules.TradingState, rules.TradingObservation] = FamilySpec(
    name="trading",
    title="the trading games: ready money and barter, until someone stands",
    state_type=rules.TradingState,
    observation_type=rules.TradingObservation,
    presets=presets.PRESETS,
    options=options.TradingOptions,
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
    heuristic=heuristic.trading_action,
    sampler=sample.prepare,
    search=search.SEARCH,
    deal_reader=deals.read_trading_deals,
    stand_action=_stand_action,
    cards_in_play=hidden.cards_in_play,
    permute_hidden=hidden.permute_hidden,
    encoding=encode.ENCODING,
    presentation=present.PRESENTATION,
    kernel=compiled.kernel,
    env_kernel=compiled.env_kernel,
    env_version=1,
)
"""The trading family's contract (see :class:`commerce.family.FamilySpec`)."""
