"""Many games at once, one learning seat each, the other seats played by Python policies.

:class:`LeagueVectorEnv` steps *num_envs* games of a ruleset (each a :class:`commerce.rl.table.
Table`: chance inside, a deal an episode). In each game one seat, drawn anew with every
episode, is the learner's; the others are *opponents* drawn by a :class:`League` at every
episode: our bots (``heuristic``, ``random`` ..., each deciding on its seat's observation as
at any table) or *batch policies*, objects with ``act_batch(obs, mask)`` that take the
observation vectors and legal-action masks of every game where they must decide and answer
them all at once (a snapshot of the learner: a network evaluated on the whole batch).

:meth:`~LeagueVectorEnv.step` applies the learner's action in every game, then plays the
opponents (the bots one decision at a time, each batch policy on all its pending decisions
together) until the learner must decide again in every game; a game whose deal ends is dealt
anew in the same step (its reward and ``done`` are the ended deal's, the observation and
mask the new deal's first decision of the learner). A deal that ends before the learner's
first decision is not shown: what it paid the learner is reported in the next step's
``infos[e]["skipped"]`` (and ``infos[e]["deals"]`` counts it), not in the reward, as the
learner could not act in it; so the sum of the rewards and of ``skipped`` over the sum of
``deals`` is the learner's mean over every deal.

The observation is the learner's seat's vector (:mod:`commerce.encoding`), built only from
what that seat may know; so is every opponent's.

>>> env = LeagueVectorEnv("peel", 4, num_envs=3, league=League({"random": 1.0}), seed=1)
>>> obs, mask = env.reset()
>>> obs.shape, mask.shape, mask.dtype
((3, 646), (3, 158), dtype('bool'))
>>> obs, rewards, dones, infos = env.step(env.sample_legal(seed=0))
>>> rewards.shape, dones.dtype, len(infos)
((3,), dtype('bool'), 3)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from commerce.bots import make_bot
from commerce.core import Bot
from commerce.errors import CommerceError, RulesetError
from commerce.rl.table import Table
from commerce.rules import find_ruleset

__all__ = ["BatchPolicy", "League", "LeagueVectorEnv", "Opponent"]

Floats = npt.NDArray[np.float32]
Masks = npt.NDArray[np.bool_]
Actions = npt.NDArray[np.int64]


@runtime_checkable
class BatchPolicy(Protocol):
    """A policy deciding many games at once."""

    def act_batch(self, obs: Floats, mask: Masks) -> Actions:
        """One legal action (an integer of the action space) per row of *obs* (observation
        vectors, ``(n, size)``) and *mask* (legal actions, ``(n, num_actions)``)."""
        ...


Opponent = Bot | BatchPolicy
"""Who plays a seat that is not the learner's."""


class League:
    """Who the learner meets: bots with fixed shares, and past snapshots of the learner.

    At each episode every opponent's seat is drawn on its own: a snapshot with probability
    *snapshot_share* (where there is one; the newest no likelier than the oldest), else one of
    *bots* in proportion to its weight.

    :param bots: bot specs and their weights (``{"heuristic": 0.7, "random": 0.3}``).
    :param snapshot_share: the chance that a seat is played by a snapshot.
    :param size: how many snapshots are kept (the oldest goes first).
    """

    def __init__(self, bots: Mapping[str, float], *, snapshot_share: float = 0.0,
                 size: int = 8) -> None:
        if not bots or any(w < 0 for w in bots.values()) or sum(bots.values()) <= 0:
            raise CommerceError("a league needs at least one bot of positive weight")
        if not 0.0 <= snapshot_share <= 1.0:
            raise CommerceError(f"snapshot_share must be from 0 to 1, not {snapshot_share}")
        if size < 1:
            raise CommerceError(f"a league keeps at least one snapshot, not {size}")
        self.bots: list[Bot] = [make_bot(spec) for spec in bots]
        total = float(sum(bots.values()))
        self.weights = np.array([w / total for w in bots.values()])
        self.snapshot_share = snapshot_share
        self.size = size
        self.snapshots: list[BatchPolicy] = []

    def add(self, policy: BatchPolicy) -> None:
        """Keep *policy* as a snapshot (dropping the oldest beyond :attr:`size`)."""
        self.snapshots.append(policy)
        del self.snapshots[:-self.size]

    def draw(self, rng: np.random.Generator, count: int) -> list[Opponent]:
        """*count* opponents for a new episode."""
        out: list[Opponent] = []
        for _ in range(count):
            if self.snapshots and rng.random() < self.snapshot_share:
                out.append(self.snapshots[int(rng.integers(len(self.snapshots)))])
            else:
                out.append(self.bots[int(rng.choice(len(self.bots), p=self.weights))])
        return out


@dataclass(slots=True)
class _Game:
    table: Table
    rng: np.random.Generator
    bot_rng: random.Random
    me: int = 0
    lineup: list[Opponent | None] = field(default_factory=list)
    acted: bool = False
    reward: float = 0.0
    skipped: float = 0.0
    deals: int = 0


class LeagueVectorEnv:
    """*num_envs* games, the learner at one seat of each (see the module's docstring).

    :param rules: a ruleset id (a family with an encoding for the research API).
    :param players: the number of seats.
    :param num_envs: the games stepped together.
    :param league: who plays the other seats.
    :param seat: the learner's seat, or None (the default): drawn at every episode.
    :param seed: the seed of every game's deals and draws.
    :param set: rule options to change (``{"pack": 32}``).
    """

    def __init__(self, rules: str = "peel", players: int = 4, *, num_envs: int = 16,
                 league: League, seat: int | None = None, seed: int = 0,
                 set: dict[str, Any] | None = None) -> None:
        ruleset = find_ruleset(rules)
        if set:
            ruleset = ruleset.with_options(**set)
        if not isinstance(num_envs, int) or num_envs < 1:
            raise CommerceError(f"num_envs must be a positive integer, not {num_envs!r}")
        if seat is not None and not 0 <= seat < players:
            raise RulesetError(f"seat must be from 0 to {players - 1}, not {seat!r}")
        self.rules, self.players, self.num_envs = ruleset, players, num_envs
        self.league, self.seat = league, seat
        roots = np.random.SeedSequence(seed).spawn(num_envs)
        self.games = [_Game(Table(ruleset, players, episode="deal"),
                            np.random.default_rng(root),
                            random.Random(int(root.generate_state(1)[0])))
                      for root in roots]
        table = self.games[0].table
        self.observation_size, self.num_actions = table.observation_size, table.num_actions
        self.obs = np.zeros((num_envs, self.observation_size), np.float32)
        self.mask = np.zeros((num_envs, self.num_actions), np.bool_)

    # -- the API ------------------------------------------------------------------------------
    def reset(self) -> tuple[Floats, Masks]:
        """A fresh episode in every game, played until the learner must decide: the
        observations and legal-action masks (copies)."""
        infos: list[dict[str, Any]] = [{} for _ in self.games]
        for e, game in enumerate(self.games):
            game.skipped, game.deals = 0.0, 0
            self._new_episode(game)
            self._settle(e, infos)
        return self.obs.copy(), self.mask.copy()

    def step(self, actions: Sequence[int] | npt.NDArray[Any]
             ) -> tuple[Floats, npt.NDArray[np.float32], npt.NDArray[np.bool_],
                        list[dict[str, Any]]]:
        """Every game's learner plays its action (an integer of the action space, legal
        there); the opponents play on until the learner's next decision in every game.

        Returns the observations, the rewards (what the learner's deal paid it, in the
        ruleset's unit, where the deal ended in this step; else 0), whether each game's
        episode ended (and a new one began) and one info dict per game: ``deals`` (the deals
        ended since the last step, skipped ones included), ``skipped`` (what the skipped ones
        paid the learner) and, where an episode ended, ``terminal_observation`` (its last
        observation vector of the learner).

        :raises CommerceError: if an action is not legal in its game (nothing is played).
        """
        chosen = np.asarray(actions).astype(np.int64).reshape(-1)
        if chosen.shape != (self.num_envs,):
            raise CommerceError(f"step takes one action per game, not {chosen.shape}")
        for e, a in enumerate(chosen):
            if not 0 <= a < self.num_actions or not self.mask[e, a]:
                raise CommerceError(f"action {a} is not legal in game {e}; nothing was played")
        rewards = np.zeros(self.num_envs, np.float32)
        dones = np.zeros(self.num_envs, np.bool_)
        infos: list[dict[str, Any]] = [{} for _ in self.games]
        for e, game in enumerate(self.games):
            game.reward = 0.0
            self._pay(game, game.table.step(int(chosen[e])))
            game.acted = True
        self._play_on(list(range(self.num_envs)), rewards, dones, infos)
        for e, game in enumerate(self.games):
            infos[e]["deals"] = game.deals
            infos[e]["skipped"] = game.skipped
            game.skipped, game.deals = 0.0, 0
        return self.obs.copy(), rewards, dones, infos

    def sample_legal(self, seed: int | None = None) -> Actions:
        """A uniformly random legal action in every game."""
        rng = np.random.default_rng(seed)
        noise = rng.random(self.mask.shape)
        return np.asarray(np.argmax(np.where(self.mask, noise + 1.0, noise - 1.0), axis=1),
                          np.int64)

    # -- inside -------------------------------------------------------------------------------
    def _new_episode(self, game: _Game) -> None:
        game.table.reset(seed=int(game.rng.integers(1 << 62)))
        game.me = int(game.rng.integers(self.players)) if self.seat is None else self.seat
        drawn = iter(self.league.draw(game.rng, self.players - 1))
        game.lineup = [None if s == game.me else next(drawn) for s in range(self.players)]
        game.acted, game.reward = False, 0.0

    def _pay(self, game: _Game, paid: list[float]) -> None:
        game.reward += paid[game.me]

    def _settle(self, e: int, infos: list[dict[str, Any]]) -> None:
        rewards = np.zeros(self.num_envs, np.float32)
        dones = np.zeros(self.num_envs, np.bool_)
        self._play_on([e], rewards, dones, infos)

    def _play_on(self, todo: list[int], rewards: npt.NDArray[np.float32],
                 dones: npt.NDArray[np.bool_], infos: list[dict[str, Any]]) -> None:
        """Play the opponents of the games *todo* until each waits for its learner."""
        active = list(todo)
        while active:
            waiting: dict[int, list[int]] = {}
            policies: dict[int, BatchPolicy] = {}
            still: list[int] = []
            for e in active:
                game = self.games[e]
                table = game.table
                if table.done:
                    self._ended(e, rewards, dones, infos)
                    still.append(e)
                    continue
                seat = table.seat
                assert seat is not None
                if seat == game.me:
                    self.obs[e] = table.observation(seat)
                    self.mask[e] = table.mask().astype(np.bool_)
                    continue
                opponent = game.lineup[seat]
                if isinstance(opponent, BatchPolicy):
                    waiting.setdefault(id(opponent), []).append(e)
                    policies[id(opponent)] = opponent
                else:
                    assert opponent is not None
                    obs = (table.raw_observation(seat)
                           if getattr(opponent, "reads_observation", True) else None)
                    self._pay(game, table.play(opponent.act(obs, table.legal(),
                                                            game.bot_rng)))
                still.append(e)
            for key, group in waiting.items():
                tables = [self.games[e].table for e in group]
                obs = np.stack([t.observation(t.seat) for t in tables  # type: ignore[arg-type]
                                ])
                masks = np.stack([t.mask() for t in tables]).astype(np.bool_)
                chosen = policies[key].act_batch(obs, masks)
                for e, t, a in zip(group, tables, chosen, strict=True):
                    self._pay(self.games[e], t.step(int(a)))
            active = still

    def _ended(self, e: int, rewards: npt.NDArray[np.float32], dones: npt.NDArray[np.bool_],
               infos: list[dict[str, Any]]) -> None:
        """Game *e*'s episode is over: report it (or count it as skipped) and deal anew."""
        game = self.games[e]
        game.deals += game.table.deals
        if game.acted:
            rewards[e] = game.reward
            dones[e] = True
            infos[e]["terminal_observation"] = game.table.observation(game.me)
        else:
            game.skipped += game.reward
        self._new_episode(game)
