"""The PettingZoo environment (:func:`commerce.rl.pettingzoo_env`): PettingZoo's own test kit
for every ruleset, reproducible resets, rewards deal by deal in the ruleset's unit, and the
illegal-action policies."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest

from commerce.errors import IllegalActionError
from commerce.rules import Ruleset
from tests.harness import all_rulesets
from tests.harness.rl_deps import need

# PettingZoo's api_test advises Box or Discrete observations and warns for a dict observation
# unless the environment is one of its own classic games (listed by name); the dict
# {"observation", "action_mask"} is the classic games' own convention, which we follow.
ADVISORY = ("Observation space for each agent probably should be",
            "Observation is not a NumPy array")


def _env(rules: str, players: int = 4, **options: Any) -> Any:
    need("pettingzoo")
    from commerce.rl import pettingzoo_env

    return pettingzoo_env(rules, players, **options)


def _players(rules: Ruleset) -> int:
    return min(max(4, rules.min_players), rules.max_players)


def _kit(make: Any) -> None:
    test = need("pettingzoo.test")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        test.api_test(make(), num_cycles=100)
        test.seed_test(make, num_cycles=50)
    others = [str(w.message) for w in caught if not str(w.message).startswith(ADVISORY)]
    assert others == []


@pytest.mark.parametrize("rules", all_rulesets(), ids=lambda r: r.id)
def test_every_ruleset_passes_pettingzoos_api_and_seed_tests(rules: Ruleset) -> None:
    _kit(lambda: _env(rules.id, _players(rules)))


@pytest.mark.parametrize("options", [{"episode": "game"}, {"illegal": "penalty"},
                                     {"set": {"pack": 32}}], ids=str)
def test_the_options_pass_the_kit_too(options: dict[str, Any]) -> None:
    _kit(lambda: _env("trade-and-barter", 3, **options))


def _play(env: Any, seed: int) -> tuple[list[Any], dict[str, float]]:
    """A random game: the trace of (agent, observation, mask) and each agent's total reward."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    trace: list[Any] = []
    totals: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        trace.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes()))
        if terminated or truncated:
            env.step(None)
        else:
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return trace, totals


def test_the_same_seed_plays_the_same_episode_and_another_seed_another() -> None:
    a, _ = _play(_env("widow"), 11)
    b, _ = _play(_env("widow"), 11)
    c, _ = _play(_env("widow"), 12)
    assert a == b and a != c


@pytest.mark.parametrize("rules", ["peel", "pool", "cox"])
def test_a_game_episode_pays_the_games_outcome(rules: str) -> None:
    from commerce import engine

    env = _env(rules, episode="game")
    _, totals = _play(env, 3)
    result = engine.outcome(env.table.state)
    assert result is not None and env.table.deals > 1
    assert [totals[a] for a in env.possible_agents] == [float(p) for p in result.payoffs]


def test_a_deal_episode_pays_the_deal_and_ends_with_it() -> None:
    env = _env("peel")
    _, totals = _play(env, 8)
    assert env.table.deals == 1
    assert sum(totals.values()) == 0 and any(totals.values())


def test_an_illegal_action_raises_by_default_and_changes_nothing() -> None:
    env = _env("peel")
    env.reset(seed=1)
    obs, *_ = env.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step(bad)
    again, *_ = env.last()
    assert np.array_equal(again["observation"], obs["observation"])


def test_an_illegal_action_under_the_penalty_policy_ends_the_episode() -> None:
    env = _env("peel", illegal="penalty", penalty=-5)
    env.reset(seed=1)
    offender = env.agent_selection
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[offender] == -5 and sum(env.rewards.values()) == -5


def test_render_shows_the_table_as_a_spectator_sees_it() -> None:
    env = _env("peel", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert "pool" in text and "? ? ?" in text and "seat_3" in text


def test_bad_options_get_one_clear_error() -> None:
    from commerce.errors import RulesetError

    with pytest.raises(RulesetError, match="episode"):
        _env("peel", episode="hand")
    with pytest.raises(RulesetError, match="players"):
        _env("peel", players=13)
    with pytest.raises(RulesetError, match="illegal"):
        _env("peel", illegal="ignore")


def test_step_and_state_before_reset_give_pettingzoos_clear_error() -> None:
    for make in (lambda: _env("peel"), lambda: _versioned("commerce_v1").env("peel")):
        env = make()
        with pytest.raises(AssertionError, match=r"reset\(\) needs to be called before step"):
            env.step(0)
        with pytest.raises(AttributeError, match="agents cannot be accessed before reset"):
            _ = env.agents
        with pytest.raises(AssertionError, match="before state"):
            env.state()


def _versioned(name: str) -> Any:
    need("pettingzoo")
    import importlib

    return importlib.import_module(f"commerce.rl.{name}")


def test_commerce_v1_names_its_agents_as_pettingzoos_card_games_and_v0_stays() -> None:
    v0, v1 = _versioned("commerce_v0"), _versioned("commerce_v1")
    old, new = v0.env("widow-mini", 2), v1.env("widow-mini", 2)
    assert old.possible_agents == ["seat_0", "seat_1"] == _env("widow-mini", 2).possible_agents
    assert new.possible_agents == ["player_0", "player_1"]
    assert (old.metadata["name"], new.metadata["name"]) == ("commerce_v0", "commerce_v1")
    a, _ = _play(old, 3)
    b, _ = _play(new, 3)
    assert [t[1:] for t in a] == [t[1:] for t in b]
    assert [t[0].replace("seat", "player") for t in a] == [t[0] for t in b]
    assert type(v1.raw_env("peel")).__name__ == "CommerceAEC"


@pytest.mark.parametrize("rules_id", ["trade-and-barter-mini", "widow-mini", "cox"])
def test_commerce_v1_passes_the_kit(rules_id: str) -> None:
    players = 2 if rules_id.endswith("mini") else 4
    _kit(lambda: _versioned("commerce_v1").env(rules_id, players))


def test_state_is_every_seats_view_and_the_no_leak_harness_names_it_exempt() -> None:
    import random as random_module

    from commerce import engine
    from commerce.family import family_spec
    from tests.harness.noleak import EXEMPT

    assert list(EXEMPT) == ["pettingzoo state()"]
    env = _env("peel", engine="reference")  # its state can be changed under it
    raw = env.unwrapped
    assert env.state_space.shape == (4 * raw.table.observation_size,)
    env.reset(seed=2)
    rng = random_module.Random(0)
    permute = family_spec("trading").permute_hidden
    differs = 0
    for step, _agent in enumerate(env.agent_iter()):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        state = env.state()
        assert env.state_space.contains(state)
        assert np.array_equal(state, np.concatenate(
            [raw.observe(a)["observation"] for a in env.possible_agents]))
        if step % 3 == 0:
            table, real = raw.table, raw.table.state
            for seat, other in enumerate(env.possible_agents):
                seen = raw.observe(other)["observation"]
                table.state = permute(real, seat, rng)
                assert np.array_equal(raw.observe(other)["observation"], seen)
                differs += not np.array_equal(env.state(), state)
                table.state = real
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert differs > 0
    assert engine.decision(raw.table.state) is None or raw.table.done
