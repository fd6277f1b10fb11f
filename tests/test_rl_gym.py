"""The Gymnasium environment (:mod:`commerce.rl.gym`): registered ids that pass Gymnasium's
own ``check_env``, reproducible resets, the mask in ``info`` and for masked algorithms, bots
at the other seats, and the rewards of the learning seat."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from commerce import engine
from commerce.errors import IllegalActionError, RulesetError
from tests.harness import all_rulesets
from tests.harness.rl_deps import need


def _gym() -> Any:
    need("gymnasium")
    import commerce.rl.gym as gym_module

    return gym_module


@pytest.mark.parametrize("rules", all_rulesets(), ids=lambda r: r.id)
def test_every_preset_is_registered_and_passes_check_env(rules: Any) -> None:
    gymnasium = need("gymnasium")
    from gymnasium.utils.env_checker import check_env

    name = _gym().env_id(rules.id)
    assert name in gymnasium.registry
    env = gymnasium.make(name, opponents="random")
    check_env(env.unwrapped)
    assert env.unwrapped.table.rules.id == rules.id


def _episode(env: Any, seed: int) -> tuple[list[bytes], float]:
    seen, total, _ = _episode_info(env, seed)
    return seen, total


def _episode_info(env: Any, seed: int) -> tuple[list[bytes], float, dict[str, Any]]:
    obs, info = env.reset(seed=seed)
    rng = random.Random(seed)
    seen, total = [obs.tobytes()], 0.0
    while True:
        mask = info["action_mask"]
        assert np.array_equal(mask.astype(bool), env.unwrapped.action_masks())
        obs, reward, terminated, truncated, info = env.step(
            rng.choice(np.flatnonzero(mask).tolist()))
        seen.append(obs.tobytes())
        total += float(reward)
        if terminated or truncated:
            return seen, total, info


def test_a_seed_replays_the_same_episode() -> None:
    g = _gym()
    a = _episode(g.CommerceGym("widow", 4), 3)
    b = _episode(g.CommerceGym("widow", 4), 3)
    c = _episode(g.CommerceGym("widow", 4), 4)
    assert a == b and a[0] != c[0]


def test_the_learner_is_paid_its_share_of_the_games_result() -> None:
    g = _gym()
    env = g.CommerceGym("peel", 4, seat=2, opponents="heuristic,random,heuristic",
                        episode="game")
    _, total = _episode(env, 9)
    spec_outcome = engine.outcome(env.table.state)
    assert spec_outcome is not None
    assert total == spec_outcome.payoffs[2]
    assert [b is None for b in env.bots] == [False, False, True, False]


def test_masked_play_never_meets_the_penalty_and_an_illegal_action_does() -> None:
    g = _gym()
    env = g.CommerceGym("cox", 4, opponents="random", penalty=-7)
    for seed in range(3):
        _, _, last = _episode_info(env, seed)
        assert "illegal_action" not in last
    _, info = env.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(bad)
    assert (reward, terminated, info["illegal_action"]) == (-7, True, bad)
    strict = g.CommerceGym("cox", 4, illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(bad)


def test_the_masked_observation_wrapper_carries_the_mask() -> None:
    g = _gym()
    env = g.MaskedObservation(g.CommerceGym("peel", 4))
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    assert np.array_equal(obs["action_mask"], info["action_mask"])
    assert obs["action_mask"].sum() >= 1


def test_bad_arguments_get_one_clear_error() -> None:
    g = _gym()
    with pytest.raises(RulesetError, match="seat"):
        g.CommerceGym("peel", 4, seat=4)
    with pytest.raises(RulesetError, match="opponent"):
        g.CommerceGym("peel", 4, opponents="random,random")


def test_the_documented_ids_are_the_registered_ids() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "research.md").read_text()
    for rules in all_rulesets():
        assert f"| `{_gym().env_id(rules.id)}` | `{rules.id}` |" in doc


def test_the_ids_are_registered_by_entry_point_and_their_specs_serialise() -> None:
    gymnasium = need("gymnasium")
    g = _gym()
    for name in g.ENV_IDS:
        spec = gymnasium.spec(name)
        assert spec.entry_point == g.ENTRY_POINT
        again = gymnasium.envs.registration.EnvSpec.from_json(spec.to_json())
        assert again == spec
    env = gymnasium.make(gymnasium.envs.registration.EnvSpec.from_json(
        gymnasium.spec(g.env_id("widow-mini")).to_json()))
    assert env.unwrapped.table.rules.id == "widow-mini" and env.unwrapped.table.players == 2


def test_an_environment_pickles_and_plays_on_as_it_would_have() -> None:
    import pickle

    gymnasium = need("gymnasium")
    g = _gym()
    env = g.MaskedObservation(gymnasium.make(g.env_id("peel"), opponents="heuristic"))
    obs, info = env.reset(seed=4)
    twin = pickle.loads(pickle.dumps(env))
    rng = random.Random(1)
    for _ in range(30):
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        obs, reward, terminated, truncated, info = env.step(action)
        other = twin.step(action)
        assert np.array_equal(obs["observation"], other[0]["observation"])
        assert (reward, terminated) == other[1:3]
        if terminated:
            seed = rng.randrange(100)
            obs, info = env.reset(seed=seed)
            assert np.array_equal(obs["observation"], twin.reset(seed=seed)[0]["observation"])


@pytest.mark.filterwarnings("ignore:.*different from the unwrapped version")
@pytest.mark.parametrize("rules_id", ["peel", "widow-mini", "cox"])
def test_check_env_passes_under_the_masked_observation_wrapper(rules_id: str) -> None:
    gymnasium = need("gymnasium")
    from gymnasium.utils.env_checker import check_env

    g = _gym()
    env = g.MaskedObservation(gymnasium.make(g.env_id(rules_id), opponents="random"))
    check_env(env)
    assert env.spec is not None and env.spec.additional_wrappers[-1].name == "MaskedObservation"
    remade = gymnasium.make(env.spec)
    assert isinstance(remade, g.MaskedObservation)


def _heuristic_index(env: Any, bot: Any, rng: random.Random) -> int:
    table = env.unwrapped.table
    action = bot.act(table.raw_observation(table.seat), table.legal(), rng)
    return int(table.encoding.action_to_int(table.rules, table.players, action))


def test_the_per_deal_return_counts_the_deals_that_end_before_the_learner_acts() -> None:
    """Four heuristic bots in Peel, the learner's seat played by the heuristic too: seat 0's
    mean over every deal is about 0, but about +0.8 over the deals where it acts (the others
    end first: someone stands at once). The environment's rewards over its ``deals`` must be
    the former."""
    from commerce.bots import make_bot
    from commerce.rl.table import Table
    from commerce.rules import find_ruleset

    g = _gym()
    bot, rng = make_bot("heuristic"), random.Random(0)
    table, every = Table(find_ruleset("peel"), 4), []
    for deal in range(1500):
        table.reset(10_000 + deal)
        paid = 0.0
        while not table.done:
            paid += table.play(bot.act(table.raw_observation(table.seat), table.legal(),
                                       rng))[0]
        every.append(paid)
    env = g.CommerceGym("peel", 4, seat=0, opponents="heuristic")
    total, deals, episodes = 0.0, 0, 0
    _, info = env.reset(seed=1)
    while deals < 1500:
        _, reward, terminated, _, info = env.step(_heuristic_index(env, bot, rng))
        total += float(reward)
        if terminated:
            deals += info["deals"]
            episodes += 1
            _, info = env.reset()
    assert deals > episodes * 1.3  # many deals ended before the learner's first decision
    assert abs(total / deals - sum(every) / len(every)) < 0.3


def test_a_skipped_deals_payoff_comes_with_the_next_reward() -> None:
    g = _gym()
    from commerce.bots import make_bot

    bot, rng = make_bot("heuristic"), random.Random(2)
    for seed in range(40):
        env = g.CommerceGym("peel", 4, seat=0, opponents="heuristic")
        _, info = env.reset(seed=seed)
        if info["deals"] == 0:
            continue
        skipped = env._pending
        _, reward, terminated, _, after = env.step(_heuristic_index(env, bot, rng))
        assert after["deals"] == info["deals"] + env.table.deals
        if not terminated and skipped:
            assert reward == skipped
            return
    raise AssertionError("no reset skipped a deal whose payoff was not 0")


@pytest.mark.filterwarnings("ignore:.*different from the unwrapped version")
def test_check_env_passes_under_gymnasiums_own_wrappers_too() -> None:
    gymnasium = need("gymnasium")
    from gymnasium.utils.env_checker import check_env
    from gymnasium.wrappers import FlattenObservation, TimeLimit

    g = _gym()
    name = g.env_id("trade-and-barter-mini")
    for env in (FlattenObservation(g.MaskedObservation(gymnasium.make(name))),
                TimeLimit(g.MaskedObservation(gymnasium.make(name)), 3),
                gymnasium.make(name, max_episode_steps=5)):
        check_env(env)
        remade = gymnasium.make(env.spec)  # Gymnasium places a TimeLimit as it sees fit
        assert remade.observation_space == env.observation_space


@pytest.mark.parametrize("opponents", ["search:iterations=6,random,heuristic",
                                       "random,heuristic:boldness=0.9,random"])
def test_on_the_compiled_engine_the_learner_sees_the_reference_game(opponents: str) -> None:
    """A trading ruleset steps the compiled engine: the compiled bots inside each step, a
    Python bot (search) reading the game the table decodes. At every learner decision the
    observation and mask are the reference engine's of the replayed game, and the episode's
    rewards add up to the learner's result of the reference's game."""
    from commerce.encoding import legal_mask
    from commerce.family import family_spec
    from commerce.rl.table import CompiledTable

    g = _gym()
    env = g.CommerceGym("peel", 4, seat=1, opponents=opponents, episode="game")
    table = env.table
    assert isinstance(table, CompiledTable)
    enc = family_spec("trading").encoding
    assert enc is not None
    rng = random.Random(5)
    for seed in range(2):
        obs, info = env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            state = table.decoded()
            assert engine.decision(state).seat == 1  # type: ignore[union-attr]
            assert np.array_equal(obs, np.asarray(enc.encode(engine.observe(state, 1)),
                                                  np.float32))
            expected = np.zeros(table.num_actions, np.int8)
            expected[legal_mask(enc, table.rules, 4, engine.legal_actions(state))] = 1
            assert np.array_equal(info["action_mask"], expected)
            action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
            obs, reward, done, _, info = env.step(action)
            total += float(reward)
        result = engine.outcome(table.decoded())
        assert result is not None and total == result.payoffs[1]
        assert table.deals == 4 == info["deals"] - table.skipped_deals
