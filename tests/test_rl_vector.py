"""The compiled vector environment (:mod:`commerce.rl.vector`) against the reference engine.

Every game's recorded actions (the learner's, the bots', chance's cards) are replayed through
``engine.apply``: each must be legal where it was played, every learner action the one given
to ``step``, every heuristic bot's choice the Python heuristic's from the seat's observation,
and every observation, mask and reward the vector environment returns what ``CommerceGym``'s
encoding of ``engine.observe(state, seat)`` and the deal reader give for the learning seat at
that state (so no hidden card can leak into an observation: it is the reference's). Then what
Gymnasium expects of a vector environment, seeds, and the refusals.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from commerce import engine
from commerce.core import ActionKind
from commerce.encoding import Encoding, legal_mask
from commerce.errors import CommerceError, IllegalActionError, RulesetError
from commerce.family import DealReader, family_spec
from commerce.kernelkit import decode_action
from commerce.rules import Ruleset
from tests.harness.rl_deps import need

SPEC = family_spec("trading")
_encoding, _reader = SPEC.encoding, SPEC.deal_reader
assert _encoding is not None and _reader is not None
ENC: Encoding = _encoding
READER: DealReader = _reader


def _vector() -> Any:
    need("gymnasium")
    import commerce.rl.vector as vector_module

    return vector_module


class Twin:
    """One game of the vector environment, replayed through the reference engine."""

    def __init__(self, rules: Ruleset, players: int, seat: int, episode: str,
                 boldness: list[float | None]) -> None:
        self.rules, self.players, self.seat, self.episode = rules, players, seat, episode
        self.boldness = boldness
        self.state: Any = None
        self.public: list[Any] = []
        self.pending = 0.0  # what the learner was paid and not yet given
        self.over = False  # the episode has ended
        self.decisions = 0  # the seats' decisions replayed (for the tests' own sanity)

    def vector(self, state: Any = None) -> Any:
        return np.asarray(ENC.encode(engine.observe(state or self.state, self.seat)),
                          np.float32)

    def mask(self) -> Any:
        d = engine.decision(self.state)
        if self.over or d is None or d.seat != self.seat:
            return np.zeros(ENC.num_actions(self.rules, self.players), np.int8)
        return np.array(legal_mask(ENC, self.rules, self.players,
                                   engine.legal_actions(self.state)), np.int8)

    def replay(self, codes: list[int], action: int | None) -> tuple[Any, float | None]:
        """Replay one step's codes (*action*: the learner's, None at a reset); the ended
        episode's last state and its reward where a fresh game followed it."""
        ended: Any = None
        paid: float | None = None
        moved = False
        for code in codes:
            if code < 0:  # a fresh game
                if self.state is not None and moved and ended is None:
                    assert self.over, "a fresh game was dealt before the episode ended"
                    ended, paid = self.state, self.pending
                self.state = engine.new_game(self.rules, self.players, dealer=-1 - code)
                self.public = [e for e in self.state.log if e.visible_to is None]
                self.pending, self.over = 0.0, False
                continue
            assert not self.over, "the environment played on after the episode ended"
            act = decode_action(code)
            d = engine.decision(self.state)
            assert d is not None
            if d.seat is None:
                assert act.kind is ActionKind.DEAL
            elif d.seat == self.seat:
                assert not moved and action is not None, "one learner action per step"
                assert ENC.action_to_int(self.rules, self.players, act) == action
                moved = True
            else:
                self.decisions += 1
                bold = self.boldness[d.seat]
                if bold is not None:
                    obs = engine.observe(self.state, d.seat)
                    legal = engine.legal_actions(self.state)
                    assert SPEC.heuristic(obs, legal, random.Random(0), bold) == act
            transition = engine.apply(self.state, act)  # raises if illegal
            self.state = transition.state
            self.public.extend(e for e in transition.events if e.visible_to is None)
            finished = READER(self.rules, self.players, self.public)
            if finished:
                self.pending += sum(deal.payoffs[self.seat] for deal in finished)
                self.public = self.public[finished[-1].end + 1:]
                if self.episode == "deal":
                    self.over = True
            if engine.decision(self.state) is None:
                self.over = True
        assert action is None or moved, "the learner's action was not played"
        return ended, paid


def _twins(env: Any, opponents: list[str]) -> list[Twin]:
    specs = opponents if len(opponents) > 1 else opponents * (env.players - 1)
    others = iter(specs)
    boldness: list[float | None] = []
    for s in range(env.players):
        spec = "learner" if s == env.seat else next(others)
        boldness.append(float(spec.partition("boldness=")[2] or 0.5)
                        if spec.startswith("heuristic") else None)
    return [Twin(env.rules, env.players, env.seat, env.episode, boldness)
            for _ in range(env.num_envs)]


def _check(env: Any, twins: list[Twin], obs: Any, mask: Any, actions: Any,
           rewards: Any = None, terminated: Any = None, info: Any = None,
           waiting: Any = None) -> int:
    """Replay one step (or the reset) of every game and compare what *env* returned."""
    same_step = env.metadata["autoreset_mode"].value == "SameStep"
    ended_count = 0
    for e, (twin, codes) in enumerate(zip(twins, env.records(), strict=True)):
        resetting = actions is None or (waiting is not None and waiting[e])
        if waiting is not None and waiting[e]:
            assert codes and codes[0] < 0, "a waiting game is dealt anew"
        ended, paid = twin.replay(codes, None if resetting else int(actions[e]))
        if rewards is not None:
            if resetting:
                assert rewards[e] == 0.0 and not terminated[e]
            elif terminated[e] and same_step:
                assert ended is not None and paid == rewards[e]
                assert np.array_equal(info["final_obs"][e], twin.vector(ended))
                assert info["_final_obs"][e]
                ended_count += 1
            else:
                assert ended is None
                assert terminated[e] == twin.over
                assert rewards[e] == twin.pending
                twin.pending = 0.0
                ended_count += int(terminated[e])
        if same_step or not twin.over:
            d = engine.decision(twin.state)
            assert d is not None and d.seat == twin.seat and not twin.over
        assert np.array_equal(obs[e], twin.vector()), f"game {e}: the observation differs"
        assert np.array_equal(mask[e], twin.mask()), f"game {e}: the mask differs"
    return ended_count


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
                         ids=[f"{c[0]}-{c[5]}-{c[6]}-{i}" for i, c in enumerate(CASES)])
def test_every_step_replays_through_the_reference(rid: str, options: dict[str, Any],
                                                  players: int, seat: int, opponents: str,
                                                  episode: str, mode: str) -> None:
    v = _vector()
    env = v.CommerceVectorEnv(rid, players, num_envs=8, seat=seat, opponents=opponents,
                              episode=episode, set=options, autoreset_mode=mode, seed=5,
                              record=4096)
    twins = _twins(env, [s.strip() for s in opponents.split(",")])
    obs, info = env.reset()
    _check(env, twins, obs, info["action_mask"], None)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(50):
        waiting = env.batch.waiting().copy()
        actions = env.sample_legal(seed=int(rng.integers(1 << 30)))
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        ended += _check(env, twins, obs, info["action_mask"], actions, rewards, terminated,
                        info, waiting)
        assert np.array_equal(env.action_masks(), info["action_mask"] == 1)
    assert ended > 0, "no episode ended: the test saw no reward"
    assert sum(t.decisions for t in twins) > 0


def test_the_spaces_are_commerce_gyms() -> None:
    v = _vector()
    from commerce.rl.gym import CommerceGym

    for rid, players in (("peel", 4), ("trade-and-barter-mini", 2), ("hoyle", 7)):
        env = v.CommerceVectorEnv(rid, players, num_envs=3)
        one = CommerceGym(rid, players)
        assert env.single_observation_space == one.observation_space
        assert env.single_action_space == one.action_space
        assert env.observation_space.shape == (3, env.batch.observation_size)


def test_gymnasium_makes_and_wraps_it() -> None:
    gymnasium = need("gymnasium")
    v = _vector()
    assert "commerce/PeelVector-v0" in v.VECTOR_ENV_IDS
    assert not any("Cox" in name or "VingtUn" in name for name in v.VECTOR_ENV_IDS)
    env = gymnasium.make_vec("commerce/HoyleVector-v0", num_envs=5, opponents="random")
    assert isinstance(env.unwrapped, v.CommerceVectorEnv) and env.num_envs == 5
    assert env.metadata["autoreset_mode"] is gymnasium.vector.AutoresetMode.SAME_STEP
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(env)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    returns = []
    for i in range(30):
        obs, rewards, terminated, truncated, info = env.step(env.unwrapped.sample_legal(i))
        assert env.observation_space.contains(obs)
        assert env.action_space.contains(env.unwrapped.sample_legal(i))
        assert obs.dtype == np.float32 and rewards.dtype == np.float64
        if "episode" in info:
            returns.extend(info["episode"]["r"][info["_episode"]].tolist())
    assert returns and all(float(r).is_integer() for r in returns)
    env.close()


def _trajectory(env: Any, seed: int | None, steps: int = 15) -> list[bytes]:
    obs, info = env.reset(seed=seed)
    seen = [obs.tobytes()]
    for i in range(steps):
        obs, rewards, terminated, _, info = env.step(env.sample_legal(i))
        seen += [obs.tobytes(), rewards.tobytes(), terminated.tobytes(),
                 info["action_mask"].tobytes()]
    return seen


def test_seeds_reproduce_and_threads_change_nothing() -> None:
    v = _vector()

    def make(**kw: Any) -> Any:
        return v.CommerceVectorEnv("peel", 4, num_envs=9, **kw)

    one = _trajectory(make(), 7)
    assert one == _trajectory(make(threads=3), 7)
    assert one == _trajectory(make(seed=7), None)
    assert one != _trajectory(make(), 8)
    env = make(copy=False)
    assert _trajectory(env, 7) == one and _trajectory(env, 7) == one  # reset(seed) restarts
    assert _trajectory(env, None) != one  # the streams go on
    listed = make()
    obs, _ = listed.reset(seed=[1, 2, 3, 4, 5, 6, 7, 8, 1])
    assert np.array_equal(obs[0], obs[8]) and not np.array_equal(obs[0], obs[1])


def test_returned_arrays_are_not_reused() -> None:
    v = _vector()
    env = v.CommerceVectorEnv("peel", 4, num_envs=4, seed=2)
    obs, info = env.reset()
    kept = obs.copy(), info["action_mask"].copy()
    env.step(env.sample_legal(0))
    assert np.array_equal(obs, kept[0]) and np.array_equal(info["action_mask"], kept[1])


def test_an_illegal_action_is_refused_and_nothing_is_played() -> None:
    v = _vector()
    env = v.CommerceVectorEnv("peel", 4, num_envs=6, seed=4)
    twin = v.CommerceVectorEnv("peel", 4, num_envs=6, seed=4)
    env.reset()
    twin.reset()
    actions = env.sample_legal(1)
    bad = actions.copy()
    bad[3] = int(np.flatnonzero(env.action_masks()[3] == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal in game 3; legal there"):
        env.step(bad)
    bad[5] = bad[3]
    with pytest.raises(IllegalActionError, match=r"game 3 \(and in 1 other game"):
        env.step(bad)
    for i in range(5):
        a = env.step(env.sample_legal(i))
        b = twin.step(twin.sample_legal(i))
        assert all(np.array_equal(x, y) for x, y in zip(a[:4], b[:4], strict=True))


@pytest.mark.parametrize("actions,message", [
    ([0, 1], "one action per game"),
    (np.zeros((3, 1), np.int64), "one action per game"),
    (np.zeros(3), "must be integers"),
    ([0, 999, 0], "outside the action space"),
    ([0, -1, 0], "outside the action space"),
])
def test_bad_actions_get_one_clear_message(actions: Any, message: str) -> None:
    v = _vector()
    env = v.CommerceVectorEnv("hoyle", 4, num_envs=3, seed=0)
    with pytest.raises(CommerceError, match="reset"):
        env.step([0, 0, 0])
    env.reset()
    with pytest.raises(CommerceError, match=message):
        env.step(actions)


@pytest.mark.parametrize("kwargs,message", [
    ({"rules": "vingt-un"}, "vingtun family has no compiled vector environment"),
    ({"rules": "cox"}, "cox family has no compiled vector environment"),
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
    v = _vector()
    args = {"rules": "peel", "players": 4, **kwargs}
    with pytest.raises(CommerceError, match=message):
        v.CommerceVectorEnv(args.pop("rules"), args.pop("players"), **args)


def test_reset_options_and_seeds_are_checked() -> None:
    v = _vector()
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
    v = _vector()
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
