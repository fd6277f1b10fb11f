"""The compiled vector environment (:mod:`commerce.rl.vector`) of the widow games against the
reference engine.

Every game's recorded actions (the learner's, the bots', chance's cards) are replayed through
``engine.apply``: each must be legal where it was played, every learner action the one given
to ``step``, every heuristic bot's choice the Python heuristic's from the seat's observation,
and every observation, mask and reward the vector environment returns what ``CommerceGym``'s
encoding of ``engine.observe(state, seat)`` and the deal reader give for the learning seat at
that state (so no hidden card can leak into an observation: it is the reference's), a
whole-game episode's rewards summing to the learner's final balance as ``CommerceGym``'s do.
Then seeds, Gymnasium's registration, and the refusals.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from commerce import engine
from commerce.core import ActionKind
from commerce.encoding import Encoding, legal_mask
from commerce.errors import CommerceError, IllegalActionError
from commerce.families.widow.compiled_rules import decode_action
from commerce.family import DealReader, family_spec
from commerce.rules import Ruleset
from tests.harness.rl_deps import need

SPEC = family_spec("widow")
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
        self.paid = 0.0  # what the episode has paid the learner (given or pending)
        self.over = False  # the episode has ended
        self.decisions = 0  # the bots' decisions replayed (for the tests' own sanity)
        self.kinds: set[str] = set()  # the decision kinds met, the learner's included

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
                self.public = [e for e in self.state.deal.log if e.visible_to is None]
                self.pending, self.paid, self.over = 0.0, 0.0, False
                continue
            assert not self.over, "the environment played on after the episode ended"
            act = decode_action(code)
            d = engine.decision(self.state)
            assert d is not None
            if d.seat is None:
                assert act.kind is ActionKind.DEAL
            else:
                self.kinds.add(d.kind.value)
                if d.seat == self.seat:
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
                got = sum(deal.payoffs[self.seat] for deal in finished)
                self.pending += got
                self.paid += got
                self.public = self.public[finished[-1].end + 1:]
                if self.episode == "deal":
                    self.over = True
            if engine.decision(self.state) is None:
                result = engine.outcome(self.state)
                assert result is not None
                if self.episode == "game":  # the game's total, the pool shared out
                    self.pending += result.payoffs[self.seat] - self.paid
                    self.paid = float(result.payoffs[self.seat])
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
                assert ended is not None and paid == rewards[e], f"game {e}: the reward"
                assert np.array_equal(info["final_obs"][e], twin.vector(ended)), \
                    f"game {e}: the final observation differs"
                assert info["_final_obs"][e]
                ended_count += 1
            else:
                assert ended is None
                assert terminated[e] == twin.over
                assert rewards[e] == twin.pending, f"game {e}: the reward"
                twin.pending = 0.0
                ended_count += int(terminated[e])
        if same_step or not twin.over:
            d = engine.decision(twin.state)
            assert d is not None and d.seat == twin.seat and not twin.over
        assert np.array_equal(obs[e], twin.vector()), f"game {e}: the observation differs"
        assert np.array_equal(mask[e], twin.mask()), f"game {e}: the mask differs"
    return ended_count


CASES: list[tuple[str, dict[str, Any], int, int, str, str, str, int]] = [
    # rules, options, players, seat, opponents, episode, autoreset, steps
    ("widow", {}, 4, 0, "heuristic", "deal", "same_step", 30),
    ("widow", {"direction": "right", "exchange_all_three_locks": False,
               "max_exchange_per_turn": 2}, 3, 2, "random", "deal", "same_step", 30),
    ("pounce", {"starting_tokens": 1, "pack": 32}, 4, 1, "heuristic", "game", "same_step",
     40),
    ("pool", {"starting_tokens": 1, "deal_prize": 1}, 4, 2,
     "random,heuristic,heuristic:boldness=0.8", "game", "same_step", 40),  # horses, the pool
    ("peel-old", {"pass_locks_out": False}, 3, 0, "heuristic:boldness=0.9", "deal",
     "next_step", 30),
    ("no-pair-or-point", {"starting_tokens": 1, "dealer_blind_exchange": "all_or_nothing",
                          "worst_tie_rule": "latest_in_rotation_loses"}, 5, 4, "random",
     "game", "next_step", 40),
    ("widow-mini", {}, 2, 1, "random", "game", "same_step", 30),
    ("pounce", {"pounce_after_pass": False, "end_condition": "rounds_eq_players",
                "add_widow_card_each_round": False, "best_tie_rule": "dealer_as_eldest",
                "widow_size": 5, "pack": 32}, 4, 3, "heuristic", "deal", "same_step", 30),
]


@pytest.mark.parametrize("rid,options,players,seat,opponents,episode,mode,steps", CASES,
                         ids=[f"{c[0]}-{c[5]}-{c[6]}-{i}" for i, c in enumerate(CASES)])
def test_every_step_replays_through_the_reference(rid: str, options: dict[str, Any],
                                                  players: int, seat: int, opponents: str,
                                                  episode: str, mode: str,
                                                  steps: int) -> None:
    v = _vector()
    env = v.CommerceVectorEnv(rid, players, num_envs=6, seat=seat, opponents=opponents,
                              episode=episode, set=options, autoreset_mode=mode, seed=5,
                              record=4096)
    twins = _twins(env, [s.strip() for s in opponents.split(",")])
    obs, info = env.reset()
    _check(env, twins, obs, info["action_mask"], None)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(steps):
        waiting = env.batch.waiting().copy()
        actions = env.sample_legal(seed=int(rng.integers(1 << 30)))
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        ended += _check(env, twins, obs, info["action_mask"], actions, rewards, terminated,
                        info, waiting)
        assert np.array_equal(env.action_masks(), info["action_mask"] == 1)
    assert ended > 0, "no episode ended: the test saw no reward"
    assert sum(t.decisions for t in twins) > 0
    kinds = set().union(*(t.kinds for t in twins))
    if rid == "pounce" and episode == "game":
        assert {"blind_exchange", "pounce_offer", "final_turn"} <= kinds, kinds
    if rid == "pool":
        assert "horse_offer" in kinds, kinds


def test_the_spaces_are_commerce_gyms() -> None:
    v = _vector()
    from commerce.rl.gym import CommerceGym

    for rid, players in (("widow", 4), ("widow-mini", 2), ("peel-old", 7)):
        env = v.CommerceVectorEnv(rid, players, num_envs=3)
        one = CommerceGym(rid, players)
        assert env.single_observation_space == one.observation_space
        assert env.single_action_space == one.action_space


def test_gymnasium_makes_the_widow_presets() -> None:
    gymnasium = need("gymnasium")
    v = _vector()
    for name in ("PeelOld", "Pool", "Widow", "Pounce", "NoPairOrPoint", "WidowMini"):
        assert f"commerce/{name}Vector-v0" in v.VECTOR_ENV_IDS
    env = gymnasium.make_vec("commerce/WidowMiniVector-v0", num_envs=5, opponents="random",
                             episode="game")
    assert isinstance(env.unwrapped, v.CommerceVectorEnv) and env.unwrapped.players == 2
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(env)
    obs, info = env.reset(seed=3)
    returns = []
    for i in range(40):
        obs, rewards, terminated, truncated, info = env.step(env.unwrapped.sample_legal(i))
        assert env.observation_space.contains(obs)
        if "episode" in info:
            returns.extend(info["episode"]["r"][info["_episode"]].tolist())
    # a whole game of the widow game moves tokens: what one seat wins, the other loses
    assert returns and all(float(r).is_integer() and r != 0 for r in returns)
    env.close()


def _trajectory(env: Any, seed: int | None, steps: int = 12) -> list[bytes]:
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
        return v.CommerceVectorEnv("pounce", 4, num_envs=7, opponents="random", **kw)

    one = _trajectory(make(), 7)
    assert one == _trajectory(make(threads=3), 7)
    assert one == _trajectory(make(seed=7), None)
    assert one != _trajectory(make(), 8)
    env = make(copy=False)
    assert _trajectory(env, 7) == one and _trajectory(env, 7) == one  # reset(seed) restarts
    assert _trajectory(env, None) != one  # the streams go on
    obs, _ = make().reset(seed=[1, 2, 3, 4, 5, 6, 1])
    assert np.array_equal(obs[0], obs[6]) and not np.array_equal(obs[0], obs[1])


def test_an_illegal_action_is_refused_and_nothing_is_played() -> None:
    v = _vector()
    env = v.CommerceVectorEnv("widow", 4, num_envs=4, seed=4)
    twin = v.CommerceVectorEnv("widow", 4, num_envs=4, seed=4)
    env.reset()
    twin.reset()
    bad = env.sample_legal(1)
    bad[2] = int(np.flatnonzero(env.action_masks()[2] == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal in game 2; legal there"):
        env.step(bad)
    for i in range(4):
        a = env.step(env.sample_legal(i))
        b = twin.step(twin.sample_legal(i))
        assert all(np.array_equal(x, y) for x, y in zip(a[:4], b[:4], strict=True))


@pytest.mark.parametrize("rid,options,message", [
    ("widow", {"max_rounds_per_deal": 0}, "max_rounds_per_deal=0.*CommerceGym"),
    ("no-pair-or-point", {"pounce": True, "four_of_a_kind": True,
                          "no_qualifier_rule": "fallback_full_ranking"},
     "fallback_full_ranking.*CommerceGym"),
])
def test_what_the_kernel_does_not_play_is_refused_by_name(rid: str, options: dict[str, Any],
                                                          message: str) -> None:
    v = _vector()
    with pytest.raises(CommerceError, match=message):
        v.CommerceVectorEnv(rid, 4, set=options)
    with pytest.raises(CommerceError, match="opponents are random or heuristic"):
        v.CommerceVectorEnv(rid, 4, opponents="search")
