"""The research API's compiled table of the widow family against the reference's, step for
step (:func:`tests.test_rl_compiled_table.twin_episode`: every seat's observation, the masks,
the rewards, the spectator's text), over its presets and each option value its kernel
declares (:func:`tests.harness.options.option_cases`)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from commerce.core import Action, ActionKind
from commerce.errors import RulesetError
from commerce.families.widow.compiled_rules import SUPPORTED
from commerce.families.widow.encode import action_to_int
from commerce.families.widow.kernel import check_supported
from commerce.rl.table import CompiledTable, Table, make_table
from commerce.rules import find_ruleset, refusal
from tests.harness.options import SEED, Case, option_cases, seed_named
from tests.test_rl_compiled_table import twin_episode

PRESETS = [("widow", 4, "deal"), ("widow", 3, "game"), ("pounce", 5, "deal"),
           ("no-pair-or-point", 4, "deal"), ("pool", 4, "game"), ("peel-old", 6, "deal"),
           ("widow-mini", 2, "game"), ("pool", 7, "deal")]


@pytest.mark.parametrize("rid,players,episode", PRESETS, ids=str)
def test_the_compiled_table_is_the_reference_step_for_step(rid: str, players: int,
                                                            episode: str) -> None:
    rules = find_ruleset(rid)
    assert sum(twin_episode(rules, players, episode, seed) for seed in range(3)) > 0


OPTION_CASES = option_cases("widow", check_supported)


@pytest.mark.parametrize("case", OPTION_CASES, ids=str)
def test_every_declared_option_value_steps_as_the_reference(case: Case) -> None:
    with seed_named(case):
        rules = case.rules()
        why = refusal(rules, SUPPORTED, "the compiled kernel")
        if why is None:
            twin_episode(rules, case.players, "deal", SEED)
            return
        with pytest.raises(RulesetError):
            CompiledTable.made(rules, case.players)
        assert isinstance(make_table(rules, case.players), Table)


def test_a_fixed_first_dealer_takes_the_reference() -> None:
    rules = find_ruleset("widow")
    with pytest.raises(RulesetError, match="draws the first dealer"):
        CompiledTable.made(rules, 4, dealer=1)
    assert isinstance(make_table(rules, 4, dealer=1), Table)
    assert isinstance(make_table(rules, 4), CompiledTable)


def test_another_seats_pounce_offer_is_not_shown() -> None:
    """In the 12-card pack three of a rank are often held, so pounce offers come often; while
    one is pending, every other seat's compiled observation shows play where declining would
    leave it (:func:`commerce.families.widow.observe.without_offer`), as the reference's does."""
    rules = find_ruleset("pounce").with_options(pack=12)
    decline = action_to_int(rules, 3, Action(ActionKind.DECLINE))
    offered = 0
    for seed in range(40):
        table = CompiledTable.made(rules, 3, episode="deal")
        table.reset(seed)
        rng = random.Random(seed)
        while not table.done:
            mask = table.mask()
            offered += int(mask[decline])
            table.step(rng.choice(np.flatnonzero(mask).tolist()))
        if offered:  # the same episode, every seat's observation against the reference's
            twin_episode(rules, 3, "deal", seed)
        if offered >= 3:
            break
    assert offered >= 3
