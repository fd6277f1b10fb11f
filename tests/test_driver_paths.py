"""The driver's two paths: the reference engine and a family's fast path play the same games."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from commerce.bots import make_bot
from commerce.core import Action, ActionKind
from commerce.driver import Driver
from commerce.errors import IllegalActionError
from commerce.family import family_spec
from commerce.rules import find_ruleset, rulesets

FAST = [r.id for r in rulesets() if family_spec(r.family).fast is not None]


def test_some_families_have_a_fast_path():
    assert {"peel", "cox"} <= set(FAST)


@pytest.mark.parametrize("rules_id", FAST)
@pytest.mark.parametrize("bots", [("random",), ("heuristic", "random")])
def test_the_fast_path_plays_the_same_games(rules_id, bots):
    rules = find_ruleset(rules_id)
    players = max(rules.min_players, min(4, rules.max_players))
    for seed in range(3):
        records = []
        for fast in (False, True):
            agents = [make_bot(bots[i % len(bots)]) for i in range(players)]
            driver = Driver(rules, agents, seed=seed, fast=fast)
            driver.run()
            records.append((driver.record().to_json(), driver.decisions,
                            [e.kind for e in driver.events]))
            if fast:
                assert driver.reference_state().ruleset == rules
        assert records[0] == records[1]


class _Stubborn:
    """A bot that answers with a fresh action object: a stand, whatever is legal."""

    name = "stubborn"
    spec = "stubborn"
    reads_observation = False

    def act(self, obs: object, legal: Sequence[Action], rng: random.Random) -> Action:
        return Action(ActionKind.STAND) if legal[0].kind is not ActionKind.STAND else legal[0]


def test_an_action_the_family_did_not_list_is_checked_on_the_fast_path():
    rules = find_ruleset("trade-and-barter")  # a stand needs a combination here
    refused = 0
    for seed in range(20):
        driver = Driver(rules, [_Stubborn()] * 3, seed=seed, fast=True)
        try:
            driver.run()
        except IllegalActionError:
            refused += 1
    assert refused > 0


def test_the_random_bot_is_given_no_observation():
    seen: list[object] = []

    class Spy:
        name = spec = "spy"
        reads_observation = False

        def act(self, obs: object, legal: Sequence[Action], rng: random.Random) -> Action:
            seen.append(obs)
            return legal[0]

    Driver(find_ruleset("peel"), [Spy()] * 3, seed=1).run()
    assert seen and all(obs is None for obs in seen)
    assert make_bot("random").reads_observation is False
