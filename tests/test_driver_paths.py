"""The driver checks every action, and gives no observation to a bot that reads none."""

from __future__ import annotations

import random
from collections.abc import Sequence

from commerce.bots import make_bot
from commerce.core import Action, ActionKind
from commerce.driver import Driver
from commerce.errors import IllegalActionError
from commerce.rules import find_ruleset


class _Stubborn:
    """A bot that answers with a fresh action object: a stand, whatever is legal."""

    name = "stubborn"
    spec = "stubborn"
    reads_observation = False

    def act(self, obs: object, legal: Sequence[Action], rng: random.Random) -> Action:
        return Action(ActionKind.STAND) if legal[0].kind is not ActionKind.STAND else legal[0]


def test_an_action_the_family_did_not_list_is_checked():
    rules = find_ruleset("trade-and-barter")  # a stand needs a combination here
    refused = 0
    for seed in range(20):
        driver = Driver(rules, [_Stubborn()] * 3, seed=seed)
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
