"""The compiled vector environment (:mod:`commerce.rl.vector`) against the reference engine, for
every family that has one.

A family's test module subclasses :class:`ReplayTwin` with what differs by family (its name,
how a recorded code is decoded, where a fresh game's public events are, what a finished game
pays beyond its deals) and hands the subclass to :func:`replay_steps`, which steps a vector
environment with sampled legal actions and replays every game's recorded codes through
``engine.apply`` after the reset and every step (:func:`check`). The other helpers are the
checks of what Gymnasium expects of a vector environment (spaces, ``make_vec`` and
``RecordEpisodeStatistics``, seeds and threads, an illegal action refused all or nothing),
each run on the ruleset a family's test names.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeVar

import numpy as np
import pytest

from commerce import engine
from commerce.core import Action, ActionKind
from commerce.encoding import legal_mask
from commerce.errors import IllegalActionError
from commerce.family import FamilySpec, family_spec
from commerce.rules import Ruleset
from tests.harness.rl_deps import need


def vector() -> Any:
    """:mod:`commerce.rl.vector` (skipped, or failed under ``CI``, without Gymnasium)."""
    need("gymnasium")
    import commerce.rl.vector as vector_module

    return vector_module


class ReplayTwin:
    """One game of the vector environment, replayed through the reference engine.

    A family's subclass sets :attr:`family` and :attr:`decode` and gives :meth:`opening`;
    :meth:`game_over` adds what a finished game pays beyond its deals.
    """

    family: ClassVar[str]
    """The family whose encoding, deal reader and heuristic the replay uses."""
    decode: Callable[[int], Action]
    """The action a recorded code stands for (the family's decoder, as a static method)."""

    def __init__(self, rules: Ruleset, players: int, seat: int, episode: str,
                 boldness: list[float | None]) -> None:
        spec: FamilySpec[Any, Any] = family_spec(self.family)
        encoding, reader = spec.encoding, spec.deal_reader
        assert encoding is not None and reader is not None
        self.spec, self.enc, self.reader = spec, encoding, reader
        self.rules, self.players, self.seat, self.episode = rules, players, seat, episode
        self.boldness = boldness
        self.state: Any = None
        self.public: list[Any] = []
        self.pending = 0.0  # what the learner was paid and not yet given
        self.paid = 0.0  # what the game has paid the learner (given or pending)
        self.deals = 0  # the deals the episode's rewards cover (skipped games' included)
        self.ended_deals = 0  # the ended episode's, where the last replay ended one
        self.over = False  # the episode has ended
        self.decisions = 0  # the bots' decisions replayed (for the tests' own sanity)
        self.kinds: set[str] = set()  # the decision kinds met, the learner's included

    def opening(self, state: Any) -> list[Any]:
        """The events a fresh game's state opens with (its public ones are kept)."""
        raise NotImplementedError

    def game_over(self) -> None:
        """What the finished game pays the learner beyond its deals; nothing here."""

    def vector(self, state: Any = None) -> Any:
        """The learner's observation at *state* (the current one by default), encoded."""
        return np.asarray(self.enc.encode(engine.observe(state or self.state, self.seat)),
                          np.float32)

    def mask(self) -> Any:
        """The learner's action mask now: all zeros where it is not the learner's turn."""
        d = engine.decision(self.state)
        if self.over or d is None or d.seat != self.seat:
            return np.zeros(self.enc.num_actions(self.rules, self.players), np.int8)
        return np.array(legal_mask(self.enc, self.rules, self.players,
                                   engine.legal_actions(self.state)), np.int8)

    def replay(self, codes: list[int], action: int | None) -> tuple[Any, float | None]:
        """Replay one step's codes (*action*: the learner's, None at a reset); the ended
        episode's last state and its reward where a fresh game followed it."""
        ended: Any = None
        paid: float | None = None
        moved = dealt = False
        for code in codes:
            if code < 0:  # a fresh game
                if self.state is not None and moved and ended is None:
                    assert self.over, "a fresh game was dealt before the episode ended"
                    ended, paid, self.ended_deals = self.state, self.pending, self.deals
                    self.pending, self.deals = 0.0, 0
                elif not (self.over and dealt):  # a reset (not a game it skipped)
                    self.pending, self.deals = 0.0, 0
                # a game that ended before the learner's first decision: what it paid comes
                # with the next reward, its deals are counted in the episode's
                dealt = True
                self.state = engine.new_game(self.rules, self.players, dealer=-1 - code)
                self.public = [e for e in self.opening(self.state) if e.visible_to is None]
                self.paid, self.over = 0.0, False
                continue
            assert not self.over, "the environment played on after the episode ended"
            act = self.decode(code)
            d = engine.decision(self.state)
            assert d is not None
            if d.seat is None:
                assert act.kind is ActionKind.DEAL
            else:
                self.kinds.add(d.kind.value)
                if d.seat == self.seat:
                    assert not moved and action is not None, "one learner action per step"
                    assert self.enc.action_to_int(self.rules, self.players, act) == action
                    moved = True
                else:
                    self.decisions += 1
                    bold = self.boldness[d.seat]
                    if bold is not None:
                        obs = engine.observe(self.state, d.seat)
                        legal = engine.legal_actions(self.state)
                        assert self.spec.heuristic(obs, legal, random.Random(0), bold) == act
            transition = engine.apply(self.state, act)  # raises if illegal
            self.state = transition.state
            self.public.extend(e for e in transition.events if e.visible_to is None)
            finished = self.reader(self.rules, self.players, self.public)
            if finished:
                got = sum(deal.payoffs[self.seat] for deal in finished)
                self.pending += got
                self.paid += got
                self.deals += len(finished)
                self.public = self.public[finished[-1].end + 1:]
                if self.episode == "deal":
                    self.over = True
            if engine.decision(self.state) is None:
                self.game_over()
                self.over = True
        assert action is None or moved, "the learner's action was not played"
        return ended, paid


T = TypeVar("T", bound=ReplayTwin)


def twins(env: Any, opponents: list[str], twin: type[T]) -> list[T]:
    """One *twin* per game of *env*, knowing which seats the heuristic plays and how boldly."""
    specs = opponents if len(opponents) > 1 else opponents * (env.players - 1)
    others = iter(specs)
    boldness: list[float | None] = []
    for s in range(env.players):
        spec = "learner" if s == env.seat else next(others)
        boldness.append(float(spec.partition("boldness=")[2] or 0.5)
                        if spec.startswith("heuristic") else None)
    return [twin(env.rules, env.players, env.seat, env.episode, boldness)
            for _ in range(env.num_envs)]


def check(env: Any, games: Sequence[ReplayTwin], obs: Any, mask: Any, actions: Any,
          rewards: Any = None, terminated: Any = None, info: Any = None,
          waiting: Any = None) -> int:
    """Replay one step (or the reset) of every game and compare what *env* returned; the
    number of episodes the step ended."""
    same_step = env.metadata["autoreset_mode"].value == "SameStep"
    ended_count = 0
    for e, (twin, codes) in enumerate(zip(games, env.records(), strict=True)):
        resetting = actions is None or (waiting is not None and waiting[e])
        if waiting is not None and waiting[e]:
            assert codes and codes[0] < 0, "a waiting game is dealt anew"
        ended, paid = twin.replay(codes, None if resetting else int(actions[e]))
        if info is not None and "deals" in info:
            expected = twin.ended_deals if ended is not None and same_step else twin.deals
            assert info["deals"][e] == expected, f"game {e}: the deals counted"
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


def case_ids(cases: Sequence[tuple[Any, ...]]) -> list[str]:
    """``peel-deal-same_step-0``: ruleset, episode, autoreset mode and index of each case
    (rules, options, players, seat, opponents, episode, autoreset, ...)."""
    return [f"{c[0]}-{c[5]}-{c[6]}-{i}" for i, c in enumerate(cases)]


def replay_steps(twin: type[T], rid: str, options: dict[str, Any], players: int, seat: int,
                 opponents: str, episode: str, mode: str, *, num_envs: int,
                 steps: int) -> list[T]:
    """Reset a vector environment and step it *steps* times with sampled legal actions,
    checking every game after each against its *twin*; the twins, after asserting that an
    episode ended and that the bots decided."""
    v = vector()
    env = v.CommerceVectorEnv(rid, players, num_envs=num_envs, seat=seat, opponents=opponents,
                              episode=episode, set=options, autoreset_mode=mode, seed=5,
                              record=4096)
    games = twins(env, [s.strip() for s in opponents.split(",")], twin)
    obs, info = env.reset()
    check(env, games, obs, info["action_mask"], None, info=info)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(steps):
        waiting = env.batch.waiting().copy()
        actions = env.sample_legal(seed=int(rng.integers(1 << 30)))
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        ended += check(env, games, obs, info["action_mask"], actions, rewards, terminated,
                       info, waiting)
        assert np.array_equal(env.action_masks(), info["action_mask"] == 1)
    assert ended > 0, "no episode ended: the test saw no reward"
    assert sum(t.decisions for t in games) > 0
    return games


def check_spaces(rid: str, players: int) -> None:
    """The vector environment's spaces are one ``CommerceGym``'s, batched three times."""
    v = vector()
    from commerce.rl.gym import CommerceGym

    env = v.CommerceVectorEnv(rid, players, num_envs=3)
    one = CommerceGym(rid, players)
    assert env.single_observation_space == one.observation_space
    assert env.single_action_space == one.action_space
    assert env.observation_space.shape == (3, env.batch.observation_size)


def episode_returns(env_id: str, steps: int, **kwargs: Any) -> tuple[Any, list[float]]:
    """Make *env_id* with ``gymnasium.make_vec`` (*kwargs*, ``num_envs`` among them), wrap it
    in ``RecordEpisodeStatistics`` and step it *steps* times, checking the spaces and dtypes;
    the unwrapped environment and the returns of the episodes that ended."""
    gymnasium = need("gymnasium")
    v = vector()
    env = gymnasium.make_vec(env_id, **kwargs)
    unwrapped = env.unwrapped
    assert isinstance(unwrapped, v.CommerceVectorEnv) and env.num_envs == kwargs["num_envs"]
    assert env.metadata["autoreset_mode"] is gymnasium.vector.AutoresetMode.SAME_STEP
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(env)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    returns: list[float] = []
    for i in range(steps):
        obs, rewards, terminated, truncated, info = env.step(unwrapped.sample_legal(i))
        assert env.observation_space.contains(obs)
        assert env.action_space.contains(unwrapped.sample_legal(i))
        assert obs.dtype == np.float32 and rewards.dtype == np.float64
        if "episode" in info:
            returns.extend(info["episode"]["r"][info["_episode"]].tolist())
    env.close()
    return unwrapped, returns


def trajectory(env: Any, seed: int | None, steps: int) -> list[bytes]:
    """Everything *env* returns over a reset (with *seed*) and *steps* sampled steps."""
    obs, info = env.reset(seed=seed)
    seen = [obs.tobytes()]
    for i in range(steps):
        obs, rewards, terminated, _, info = env.step(env.sample_legal(i))
        seen += [obs.tobytes(), rewards.tobytes(), terminated.tobytes(),
                 info["action_mask"].tobytes()]
    return seen


def check_seeds(make: Callable[..., Any], steps: int) -> None:
    """Environments from *make* (keywords: the constructor's) reproduce a seed's games whether
    the seed is given to ``reset`` or to the constructor, and whatever the threads; another
    seed, or a reset without one, plays on to other games; a list gives each game its seed."""
    one = trajectory(make(), 7, steps)
    assert one == trajectory(make(threads=3), 7, steps)
    assert one == trajectory(make(seed=7), None, steps)
    assert one != trajectory(make(), 8, steps)
    env = make(copy=False)
    # reset(seed) restarts
    assert trajectory(env, 7, steps) == one and trajectory(env, 7, steps) == one
    assert trajectory(env, None, steps) != one  # the streams go on
    listed = make()
    last = listed.num_envs - 1
    obs, _ = listed.reset(seed=[*range(1, listed.num_envs), 1])
    assert np.array_equal(obs[0], obs[last]) and not np.array_equal(obs[0], obs[1])


def check_illegal_refused(make: Callable[[], Any], game: int, steps: int,
                          other: int | None = None) -> None:
    """An illegal action in *game* (and, given *other*, the same one there) is refused by
    name and plays nothing: the environment then steps as a twin from *make* that never saw
    it, for *steps* steps."""
    env, twin = make(), make()
    env.reset()
    twin.reset()
    bad = env.sample_legal(1).copy()
    bad[game] = int(np.flatnonzero(env.action_masks()[game] == 0)[0])
    with pytest.raises(IllegalActionError, match=f"not legal in game {game}; legal there"):
        env.step(bad)
    if other is not None:
        bad[other] = bad[game]
        with pytest.raises(IllegalActionError, match=rf"game {game} \(and in 1 other game"):
            env.step(bad)
    for i in range(steps):
        a = env.step(env.sample_legal(i))
        b = twin.step(twin.sample_legal(i))
        assert all(np.array_equal(x, y) for x, y in zip(a[:4], b[:4], strict=True))
