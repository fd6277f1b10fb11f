"""The compiled vector environment (:mod:`commerce.rl.vector`) against the reference engine.

Every game's recorded actions (the learner's, the bots', chance's cards) are replayed through
``engine.apply``: each must be legal where it was played, every learner action the one given
to ``step``, every heuristic bot's choice the Python heuristic's from the seat's observation,
and every observation, mask and reward the vector environment returns what ``CommerceGym``'s
encoding of ``engine.observe(state, seat)`` and the deal reader give for the learning seat at
that state (so no hidden card can leak into an observation: it is the reference's). Then what
Gymnasium expects of a vector environment, seeds, and the refusals. The replay and the checks
every family shares are in ``tests/harness/vector_env.py``; this module gives the trading
family's :class:`Twin` and its cases.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from commerce.errors import CommerceError, RulesetError
from commerce.kernelkit import decode_action
from tests.harness import vector_env as harness
from tests.harness.rl_deps import need


class Twin(harness.ReplayTwin):
    """One game of the trading family's vector environment, replayed through the reference
    engine: a game pays only its deals."""

    family = "trading"
    decode = staticmethod(decode_action)

    def opening(self, state: Any) -> list[Any]:
        """The events a fresh game's state opens with."""
        return list(state.log)


CASES: list[tuple[str, dict[str, Any], int, int, str, str, str]] = [
    # rules, options, players, seat, opponents, episode, autoreset
    ("peel", {}, 4, 0, "heuristic", "deal", "same_step"),
    ("hoyle", {}, 3, 2, "random,heuristic:boldness=0.7", "game", "same_step"),
    ("peel", {}, 3, 1, "random", "game", "same_step"),  # games end on a refused barter
    ("trade-and-barter", {}, 4, 1, "random", "deal", "next_step"),
    ("trade-and-barter-mini", {"max_rounds_per_deal": 12}, 2, 1, "heuristic:boldness=1.0",
     "game", "same_step"),  # the stock runs out: the traded-in cards come back
    ("peel", {"barter_return_from_original_hand": False, "stand_allowed": "with_combination",
              "stand_after_trade": False}, 5, 3, "heuristic:boldness=0.8,random,heuristic,random",
     "deal", "same_step"),
    ("peel", {"pack": 32, "direction": "right", "barter_direction": "right",
              "max_rounds_per_deal": 1, "barter_partner_may_stand": False}, 4, 0,
     "random", "game", "next_step"),
    ("hoyle", {"dealer_may_trade": False, "dealer_trade_cost": 2, "best_tie_rule": "split_pool",
               "deals_each": 2}, 3, 0, "heuristic", "game", "same_step"),
]


@pytest.mark.parametrize("rid,options,players,seat,opponents,episode,mode", CASES,
                         ids=harness.case_ids(CASES))
def test_every_step_replays_through_the_reference(rid: str, options: dict[str, Any],
                                                  players: int, seat: int, opponents: str,
                                                  episode: str, mode: str) -> None:
    harness.replay_steps(Twin, rid, options, players, seat, opponents, episode, mode,
                         num_envs=8, steps=50)


def test_the_spaces_are_commerce_gyms() -> None:
    for rid, players in (("peel", 4), ("trade-and-barter-mini", 2), ("hoyle", 7)):
        harness.check_spaces(rid, players)


def test_gymnasium_makes_and_wraps_it() -> None:
    v = harness.vector()
    assert "commerce/PeelVector-v0" in v.VECTOR_ENV_IDS
    assert not any("VingtUn" in name for name in v.VECTOR_ENV_IDS)
    _, returns = harness.episode_returns("commerce/HoyleVector-v0", 30, num_envs=5,
                                         opponents="random")
    assert returns and all(float(r).is_integer() for r in returns)


def test_seeds_reproduce_and_threads_change_nothing() -> None:
    v = harness.vector()

    def make(**kw: Any) -> Any:
        return v.CommerceVectorEnv("peel", 4, num_envs=9, **kw)

    harness.check_seeds(make, steps=15)


def test_returned_arrays_are_not_reused() -> None:
    v = harness.vector()
    env = v.CommerceVectorEnv("peel", 4, num_envs=4, seed=2)
    obs, info = env.reset()
    kept = obs.copy(), info["action_mask"].copy()
    env.step(env.sample_legal(0))
    assert np.array_equal(obs, kept[0]) and np.array_equal(info["action_mask"], kept[1])


def test_an_illegal_action_is_refused_and_nothing_is_played() -> None:
    v = harness.vector()
    harness.check_illegal_refused(lambda: v.CommerceVectorEnv("peel", 4, num_envs=6, seed=4),
                                  game=3, steps=5, other=5)


@pytest.mark.parametrize("actions,message", [
    ([0, 1], "one action per game"),
    (np.zeros((3, 1), np.int64), "one action per game"),
    (np.zeros(3), "must be integers"),
    ([0, 999, 0], "outside the action space"),
    ([0, -1, 0], "outside the action space"),
])
def test_bad_actions_get_one_clear_message(actions: Any, message: str) -> None:
    v = harness.vector()
    env = v.CommerceVectorEnv("hoyle", 4, num_envs=3, seed=0)
    with pytest.raises(CommerceError, match="reset"):
        env.step([0, 0, 0])
    env.reset()
    with pytest.raises(CommerceError, match=message):
        env.step(actions)


@pytest.mark.parametrize("kwargs,message", [
    ({"rules": "vingt-un"}, "vingtun family has no compiled vector environment"),
    ({"opponents": "search"}, "bot search has no compiled policy"),
    ({"opponents": "random,random"}, "give one opponent, or 3"),
    ({"opponents": "heuristic:boldness=7"}, "boldness"),
    ({"set": {"max_rounds_per_deal": 0}}, "max_rounds_per_deal=0.*CommerceGym"),
    ({"players": 13}, "3 to 12 players"),
    ({"seat": 4}, "seat must be from 0 to 3"),
    ({"num_envs": 0}, "num_envs must be a positive integer"),
    ({"episode": "hand"}, "episode must be"),
    ({"autoreset_mode": "disabled"}, "autoreset_mode must be"),
    ({"threads": 0}, "threads must be"),
])
def test_what_the_kernel_does_not_play_is_refused_by_name(kwargs: dict[str, Any],
                                                          message: str) -> None:
    v = harness.vector()
    args = {"rules": "peel", "players": 4, **kwargs}
    with pytest.raises(CommerceError, match=message):
        v.CommerceVectorEnv(args.pop("rules"), args.pop("players"), **args)


def test_reset_options_and_seeds_are_checked() -> None:
    v = harness.vector()
    env = v.CommerceVectorEnv("peel", 4, num_envs=3)
    with pytest.raises(CommerceError, match="unknown reset option"):
        env.reset(options={"dealer": 1})
    with pytest.raises(CommerceError, match="give one seed, or 3"):
        env.reset(seed=[1, 2])
    obs, _ = env.reset(seed=1)
    again, _ = env.reset(options={"reset_mask": [False, True, False]})
    assert np.array_equal(obs[0], again[0]) and np.array_equal(obs[2], again[2])
    with pytest.raises(RulesetError):
        v.CommerceVectorEnv("no-such-rules", 4)


def test_the_kernel_refuses_an_option_it_does_not_know() -> None:
    v = harness.vector()
    odd = {"may_barter": False, "dealer_may_trade": False,
           "stand_allowed": "with_combination"}
    with pytest.raises(RulesetError, match="may_barter=False"):
        v.CommerceVectorEnv("trade-and-barter", 4, set=odd)


def test_the_vector_example_runs() -> None:
    need("gymnasium")
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "examples" / "random_vector.py"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, str(script), "--envs", "16", "--steps", "20",
                          "--opponents", "random"], capture_output=True, text=True, env=env,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("peel: ") and "against random" in out.stdout


def test_the_vector_ids_are_registered_by_entry_point_and_their_specs_serialise() -> None:
    gymnasium = need("gymnasium")
    v = harness.vector()
    for name in v.VECTOR_ENV_IDS:
        spec = gymnasium.spec(name)
        assert spec.vector_entry_point == v.VECTOR_ENTRY_POINT
        assert gymnasium.envs.registration.EnvSpec.from_json(spec.to_json()) == spec


def test_the_per_deal_return_is_the_seats_over_every_deal() -> None:
    """A random learner against three heuristic bots in Peel: the vector environment's rewards
    over the deals it counts (``info["deals"]`` of the ended episodes) match the seat's mean
    over every deal, played by the reference engine with Python bots (the deals that end
    before the learner acts included)."""
    import random

    from commerce.bots import make_bot
    from commerce.rl.table import Table
    from commerce.rules import find_ruleset

    v = harness.vector()
    table, rng = Table(find_ruleset("peel"), 4), random.Random(0)
    bots = [make_bot("random")] + [make_bot("heuristic") for _ in range(3)]
    every = []
    for deal in range(1500):
        table.reset(20_000 + deal)
        paid = 0.0
        while not table.done:
            seat = table.seat
            paid += table.play(bots[seat].act(table.raw_observation(seat), table.legal(),
                                              rng))[0]
        every.append(paid)
    env = v.CommerceVectorEnv("peel", 4, num_envs=256, opponents="heuristic", seed=3)
    env.reset()
    total, deals, episodes = 0.0, 0, 0
    for i in range(40):
        _, rewards, terminated, _, info = env.step(env.sample_legal(seed=i))
        total += float(rewards.sum())
        deals += int(info["deals"][terminated].sum())
        episodes += int(terminated.sum())
    assert deals > episodes * 1.3
    assert abs(total / deals - sum(every) / len(every)) < 0.3, (total / deals, every)
