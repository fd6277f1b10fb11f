"""The compiled vector environment (:mod:`commerce.rl.vector`) of Cox's game against the
reference engine.

Every game's recorded actions (the learner's, the bots', chance's cards) are replayed through
``engine.apply``: each must be legal where it was played, every learner action the one given
to ``step``, every heuristic bot's choice the Python heuristic's from the seat's observation
(a tie among discards broken as the compiled heuristic broke it), and every observation, mask
and reward the vector environment returns what ``CommerceGym``'s encoding of
``engine.observe(state, seat)`` and the deal reader give for the learning seat at that state
(so no hidden card can leak into an observation: it is the reference's), a whole-game
episode's rewards summing to the learner's total. Then the hidden cards shuffled under an
observation (it does not change), seeds, Gymnasium's registration, and the refusals. The
replay and the checks every family shares are in ``tests/harness/vector_env.py``; this module
gives Cox's :class:`Twin` and its cases.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

import pytest

from commerce import engine
from commerce.core import Action
from commerce.errors import CommerceError
from commerce.families.cox.compiled_rules import decode_action
from tests.harness import vector_env as harness
from tests.harness.cox import rigged_for


class Twin(harness.ReplayTwin):
    """One game of Cox's vector environment, replayed through the reference engine: a hand
    pays its points; a whole game pays the hands' total, nothing more."""

    family = "cox"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.last: Action | None = None
        python = self.spec.heuristic

        def heuristic(obs: Any, legal: Sequence[Action], _rng: random.Random,
                      boldness: float) -> Action:
            return python(obs, legal, rigged_for(legal, self.last), boldness)

        self.spec = dataclasses.replace(self.spec, heuristic=heuristic)

    def decode(self, code: int) -> Action:
        """The action of a recorded code, kept for the heuristic's tie-break."""
        self.last = decode_action(code)
        return self.last

    def opening(self, state: Any) -> list[Any]:
        """The events a fresh game's first hand opens with."""
        return list(state.deal.log)

    def game_over(self) -> None:
        """A whole-game episode's rewards sum to the learner's total score."""
        result = engine.outcome(self.state)
        assert result is not None
        if self.episode == "game":
            assert self.paid == result.payoffs[self.seat]


CASES: list[tuple[str, dict[str, Any], int, int, str, str, str, int]] = [
    # rules, options, players, seat, opponents, episode, autoreset, steps
    ("cox", {}, 4, 0, "heuristic", "deal", "same_step", 150),
    ("cox", {"hands_per_game": 2, "buy_offers": "eligible_only",
             "captain_can_be_fourth": True}, 3, 2, "random", "game", "same_step", 200),
    ("cox", {"last_discard_buyable": "yes", "replacement_fallback": "skip",
             "bank_double_order": "before_penalty", "bank_counts_for_clear_hand": True,
             "direction": "left"}, 2, 1, "heuristic", "deal", "next_step", 150),
    ("cox", {"hands_per_game": 1, "last_discard_buyable": "no"}, 4, 3,
     "random,heuristic,random", "game", "next_step", 150),
    ("cox", {}, 2, 0, "heuristic", "game", "same_step", 250),  # four hands
]


@pytest.mark.parametrize("rid,options,players,seat,opponents,episode,mode,steps", CASES,
                         ids=harness.case_ids(CASES))
def test_every_step_replays_through_the_reference(rid: str, options: dict[str, Any],
                                                  players: int, seat: int, opponents: str,
                                                  episode: str, mode: str,
                                                  steps: int) -> None:
    twins = harness.replay_steps(Twin, rid, options, players, seat, opponents, episode,
                                 mode, num_envs=6, steps=steps)
    kinds = set().union(*(t.kinds for t in twins))
    assert {"draw_or_buy", "discard"} <= kinds, kinds
    if players > 2:
        assert "buy_offer" in kinds, kinds


def test_the_spaces_are_commerce_gyms() -> None:
    for players in (2, 3, 4):
        harness.check_spaces("cox", players)


def test_gymnasium_makes_cox() -> None:
    v = harness.vector()
    assert "commerce/CoxVector-v0" in v.VECTOR_ENV_IDS
    env, returns = harness.episode_returns("commerce/CoxVector-v0", 150, num_envs=5,
                                           opponents="heuristic")
    assert env.players == 4 and env.batch.num_actions == 73
    # a hand's points: whole numbers, some of them not 0
    assert returns and all(float(r).is_integer() for r in returns) and any(returns)


def test_seeds_reproduce_and_threads_change_nothing() -> None:
    v = harness.vector()

    def make(**kw: Any) -> Any:
        return v.CommerceVectorEnv("cox", 3, num_envs=7, opponents="random", **kw)

    harness.check_seeds(make, steps=12)


def test_an_illegal_action_is_refused_and_nothing_is_played() -> None:
    v = harness.vector()
    harness.check_illegal_refused(lambda: v.CommerceVectorEnv("cox", 4, num_envs=4, seed=4),
                                  game=2, steps=4)


@pytest.mark.parametrize("kwargs,message", [
    ({"players": 5}, "2 to 4 players"),
    ({"opponents": "search"}, "bot search has no compiled policy"),
])
def test_what_the_kernel_does_not_play_is_refused_by_name(kwargs: dict[str, Any],
                                                          message: str) -> None:
    v = harness.vector()
    args = {"players": 4, **kwargs}
    with pytest.raises(CommerceError, match=message):
        v.CommerceVectorEnv("cox", args.pop("players"), **args)

