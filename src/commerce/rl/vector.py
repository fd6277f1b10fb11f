"""A Gymnasium vector environment over the compiled kernels: many games at once, one seat learns.

:class:`CommerceVectorEnv` is a :class:`gymnasium.vector.VectorEnv` of *num_envs* games of a
ruleset, the learner at one seat of each, every other seat a compiled bot (``random`` or
``heuristic``). One :meth:`~CommerceVectorEnv.step` applies the learner's action in every game,
then the family's steppable kernel (its ``env_kernel`` hook, :mod:`commerce.family`) plays the
bots and chance in compiled code until the learner must decide again, and returns the batch:
observations (``(num_envs, size)`` float32, the vector of :class:`commerce.rl.gym.CommerceGym`,
built only from what the learner may see), rewards, terminations, and ``info["action_mask"]``
(int8; :meth:`~CommerceVectorEnv.action_masks` as booleans). The spaces of one game are
``CommerceGym``'s.

Autoreset: ``same-step`` by default (``metadata["autoreset_mode"]`` is
``AutoresetMode.SAME_STEP``): a game whose episode ends in a step is dealt anew in that step;
its reward and ``terminated`` are the ended episode's, the observation and mask the new
episode's first decision, and ``info["final_obs"]`` (an object array, the ended episodes'
last observations where ``info["_final_obs"]``) holds what the ended episode showed last.
Every returned mask so has a legal action.

Per-deal returns are unbiased: an episode that would end before the learner's first decision
is not shown, but what its deals paid the learner comes with the learner's next reward, and
``info["deals"]`` (int64, one per game) counts the deals the episode's rewards cover: those
finished in it (the ended episode's where a step ended one) and those of the episodes skipped
before it. The sum of the rewards over the sum of the ended episodes' ``deals`` is the seat's
mean over every deal. ``autoreset_mode="next_step"`` is Gymnasium's
default convention instead: the ended episode's last observation is returned with an all-0
mask, and the next step deals the game anew, ignoring its action and paying 0.

The trading and the widow games and Cox's game have the hook. A family without it
(Vingt-un), a bot without a compiled policy or an option the kernel does not play is refused
with a :class:`~commerce.errors.CommerceError` naming it; so is an illegal action in any game
(nothing is played: the step is all or nothing). Importing this module registers
``commerce/PeelVector-v0``, ``commerce/WidowVector-v0`` ... for the families that have the hook
(:data:`VECTOR_ENV_IDS`), made with ``gymnasium.make_vec(id, num_envs=...)``.

>>> env = CommerceVectorEnv("peel", 4, num_envs=8, seed=1)
>>> obs, info = env.reset()
>>> obs.shape, info["action_mask"].shape
((8, 646), (8, 158))
>>> obs, rewards, terminated, truncated, info = env.step(env.sample_legal(seed=0))
>>> rewards.shape, terminated.dtype
((8,), dtype('bool'))
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from commerce.bots import make_bot
from commerce.compiled import policy_code
from commerce.errors import CommerceError, IllegalActionError, IllegalReason, RulesetError
from commerce.family import family_spec
from commerce.rl.gym import env_id
from commerce.rl.table import EPISODES, OBSERVATION_BOUND
from commerce.rules import Ruleset, find_ruleset, rulesets

__all__ = ["VECTOR_ENTRY_POINT", "VECTOR_ENV_IDS", "CommerceVectorEnv", "register_vector_envs",
           "vector_env_id"]

Array = npt.NDArray[Any]

_MODES = {"same_step": AutoresetMode.SAME_STEP, "next_step": AutoresetMode.NEXT_STEP}


class CommerceVectorEnv(VectorEnv[Array, Array, Array]):
    """*num_envs* games, one learning seat each, bots compiled (see the module's docstring).

    :param rules: a ruleset id (a family with a steppable kernel: the trading and the widow
        games, Cox's game).
    :param players: the number of seats.
    :param num_envs: the games stepped together.
    :param seat: the learner's seat (the dealer is drawn at each new game).
    :param opponents: ``random`` or ``heuristic`` (``heuristic:boldness=0.7`` ...), one for every
        other seat or a comma-separated list, one per other seat in seat order.
    :param episode: ``"deal"`` (the first deal of a fresh game) or ``"game"``.
    :param seed: the seed of the first :meth:`reset` that names none (None: unpredictable).
    :param set: rule options to change (``{"pack": 32}``).
    :param autoreset_mode: ``"same_step"`` (the default) or ``"next_step"`` (or the
        :class:`gymnasium.vector.AutoresetMode`).
    :param threads: threads sharing each step (the kernel releases the GIL); results do not
        depend on it.
    :param copy: return copies of the batch arrays (False: the arrays the next step
        overwrites, the fastest).
    :param record: keep up to this many actions per game between two :meth:`records` (0:
        none; for replays and tests).
    """

    def __init__(self, rules: str = "peel", players: int = 4, *, num_envs: int = 64,
                 seat: int = 0, opponents: str = "heuristic", episode: str = "deal",
                 seed: int | None = None, set: dict[str, Any] | None = None,
                 autoreset_mode: str | AutoresetMode = "same_step", threads: int = 1,
                 copy: bool = True, record: int = 0) -> None:
        ruleset = find_ruleset(rules)
        if set:
            ruleset = ruleset.with_options(**set)
        if not isinstance(players, int) or players not in ruleset.player_range():
            raise RulesetError(f"{ruleset.name} is for {ruleset.min_players} to "
                               f"{ruleset.max_players} players, not {players}")
        if not isinstance(num_envs, int) or num_envs < 1:
            raise CommerceError(f"num_envs must be a positive integer, not {num_envs!r}")
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise CommerceError(f"seat must be from 0 to {players - 1}, not {seat!r}")
        if episode not in EPISODES:
            raise CommerceError(f"episode must be 'deal' or 'game', not {episode!r}")
        mode = _autoreset_mode(autoreset_mode)
        if not isinstance(threads, int) or threads < 1:
            raise CommerceError(f"threads must be a positive integer, not {threads!r}")
        if not isinstance(record, int) or record < 0:
            raise CommerceError(f"record must be a count of actions, not {record!r}")
        hook = family_spec(ruleset.family).env_kernel
        if hook is None:
            raise CommerceError(
                f"the {ruleset.family} family has no compiled vector environment (the "
                "trading and the widow games and Cox's game have one); use "
                "commerce.rl.gym.CommerceGym")
        policies, boldness = _lineup(opponents, players, seat)
        try:
            kernel = hook(ruleset, players)
        except RulesetError as exc:
            raise RulesetError(str(exc).replace(
                "use --engine reference", "use commerce.rl.gym.CommerceGym")) from None
        self.rules: Ruleset = ruleset
        self.players, self.seat, self.episode = players, seat, episode
        self.num_envs = num_envs
        self.batch = kernel.batch(num_envs, seat, policies, boldness, episode=episode,
                                  same_step=mode is AutoresetMode.SAME_STEP, record=record)
        bound = np.float32(OBSERVATION_BOUND)
        self.single_observation_space = spaces.Box(-bound, bound,
                                                   (self.batch.observation_size,), np.float32)
        self.single_action_space = spaces.Discrete(self.batch.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.metadata = {"autoreset_mode": mode, "render_modes": []}
        self.render_mode = None
        self._seed = seed
        self._seeded = False
        self._copy = copy
        self._threads = min(threads, num_envs)
        self._pool = ThreadPoolExecutor(self._threads) if self._threads > 1 else None
        self._rows = np.arange(num_envs)
        self._no_truncation = np.zeros(num_envs, np.bool_)

    # -- the Gymnasium API ---------------------------------------------------------------------
    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Array, dict[str, Any]]:
        """A fresh episode in every game, the bots playing until the learner must decide.

        *seed*: an integer (every game's streams derived from it), a list of one per game,
        or None (the games' streams go on; the first reset uses the constructor's seed, or an
        unpredictable one). ``options={"reset_mask": bools}`` resets only the marked games.
        """
        super().reset(seed=seed if isinstance(seed, int) else None)
        which = None
        for key, value in (options or {}).items():
            if key != "reset_mask":
                raise CommerceError(f"unknown reset option {key!r} (the one known: reset_mask)")
            which = np.asarray(value, np.bool_)
            if which.shape != (self.num_envs,):
                raise CommerceError(f"reset_mask must hold {self.num_envs} booleans")
        if seed is None and not self._seeded:
            seed = self._seed
            if seed is None:
                seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
        if seed is not None:
            self.batch.seed(_env_seeds(seed, self.num_envs))
            self._seeded = True
        self.batch.reset(which)
        return self._out(self.batch.obs), {"action_mask": self._out(self.batch.mask),
                                           "deals": self._out(self.batch.deals)}

    def step(self, actions: Any) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        """Every game's learner plays its action (an integer of the action space, legal
        there); bots and chance play on until its next decision or the end of the episode.

        :raises IllegalActionError: if an action is not legal in its game (nothing is played).
        :raises CommerceError: if *actions* is not one integer per game.
        """
        if not self._seeded:
            raise CommerceError("call reset() before step()")
        chosen = self._checked(actions)
        batch = self.batch
        if self._pool is None:
            batch.step(chosen)
        else:
            n, k = self.num_envs, self._threads
            bounds = [n * t // k for t in range(k + 1)]
            jobs = [self._pool.submit(batch.step, chosen, bounds[t], bounds[t + 1])
                    for t in range(k)]
            for job in jobs:
                job.result()
        info: dict[str, Any] = {"action_mask": self._out(batch.mask),
                                "deals": self._out(batch.deals)}
        if self.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP and batch.final.any():
            ended = batch.final.copy()
            final = np.full(self.num_envs, None, dtype=object)
            rows = np.flatnonzero(ended)
            for e, row in zip(rows.tolist(), batch.final_obs[rows], strict=True):  # one copy
                final[e] = row
            info.update({"final_obs": final, "_final_obs": ended, "final_info": {},
                         "_final_info": ended})
        return (self._out(batch.obs), self._out(batch.rewards), self._out(batch.terminated),
                self._no_truncation.copy(), info)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions in every game, ``(num_envs, num_actions)`` booleans
        (what maskable algorithms call); all False for a game waiting for a next-step reset."""
        return np.asarray(self.batch.mask, np.bool_)

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the step threads."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    # -- helpers ------------------------------------------------------------------------------
    def sample_legal(self, seed: int | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal action in every game (what a random agent plays; any
        action for a game waiting for a next-step reset)."""
        rng = np.random.default_rng(seed)
        noise = rng.random(self.batch.mask.shape, dtype=np.float32)
        return np.asarray(np.argmax(np.where(self.batch.mask == 1, noise + 1.0, noise - 1.0),
                                    axis=1), np.int64)

    def records(self) -> list[list[int]]:
        """Each game's actions since the last call (with ``record=``): ``-1 - dealer`` where a
        fresh game began, then the family kernel's action codes (the learner's, the bots' and
        chance's cards), in the order played: :mod:`commerce.kernelkit`'s (``kind * 64 +
        card``) for the trading games, :func:`commerce.families.widow.kernel.decode_action`
        reads the widow games', :func:`commerce.families.cox.kernel.decode_action` Cox's
        (chance's Directors cards and supply one card at a time)."""
        recorded: list[list[int]] = self.batch.records()
        return recorded

    def _out(self, array: Array) -> Array:
        return array.copy() if self._copy else array

    def _checked(self, actions: Any) -> npt.NDArray[np.int64]:
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise CommerceError(f"step takes one action per game, an array of shape "
                                f"({self.num_envs},), not {chosen.shape}")
        if chosen.dtype.kind not in "iu":
            raise CommerceError(f"actions must be integers, not {chosen.dtype}")
        chosen = chosen.astype(np.int64)
        n = self.batch.num_actions
        bad = (chosen < 0) | (chosen >= n)
        if bad.any():
            e = int(np.flatnonzero(bad)[0])
            raise CommerceError(f"action {chosen[e]} of game {e} is outside the action space "
                                f"(0 to {n - 1}); nothing was played")
        legal = self.batch.mask[self._rows, chosen] == 1
        legal |= self.batch.waiting()
        if not legal.all():
            wrong = np.flatnonzero(~legal)
            e = int(wrong[0])
            more = f" (and in {len(wrong) - 1} other game(s))" if len(wrong) > 1 else ""
            raise IllegalActionError(
                IllegalReason.WRONG_KIND,
                f"action {chosen[e]} is not legal in game {e}{more}; legal there: "
                f"{np.flatnonzero(self.batch.mask[e]).tolist()}; nothing was played")
        return chosen


def _autoreset_mode(mode: str | AutoresetMode) -> AutoresetMode:
    if isinstance(mode, AutoresetMode):
        found: AutoresetMode | None = mode
    else:
        found = _MODES.get(str(mode).replace("-", "_").lower())
    if found is None or found is AutoresetMode.DISABLED:
        raise CommerceError(f"autoreset_mode must be 'same_step' or 'next_step', not {mode!r}")
    return found


def _lineup(opponents: str, players: int, seat: int) -> tuple[list[int], list[float]]:
    """Each seat's policy code and boldness (the learner's seat: unused)."""
    if not isinstance(opponents, str):
        raise CommerceError(f"opponents must be a bot spec, not {opponents!r}")
    specs = [s.strip() for s in opponents.split(",")]
    if len(specs) == 1:
        specs *= players - 1
    if len(specs) != players - 1:
        raise CommerceError(f"give one opponent, or {players - 1}, not {len(specs)}")
    policies, boldness = [0] * players, [0.5] * players
    others = iter(specs)
    for s in range(players):
        if s == seat:
            continue
        spec = next(others)
        code = policy_code(spec)
        if code is None:
            raise CommerceError(f"bot {spec} has no compiled policy: the vector environment's "
                                "opponents are random or heuristic bots; use "
                                "commerce.rl.gym.CommerceGym")
        bot = make_bot(spec)  # validates the options
        policies[s] = code
        boldness[s] = float(getattr(bot, "boldness", 0.5))
    return policies, boldness


def _env_seeds(seed: int | list[int], num_envs: int) -> list[int]:
    """One 64-bit seed per game: from a list, or derived from one integer."""
    if isinstance(seed, int):
        return [int(x) for x in np.random.SeedSequence(seed % (1 << 64)).generate_state(
            num_envs, np.uint64)]
    seeds = [int(s) for s in seed]
    if len(seeds) != num_envs:
        raise CommerceError(f"give one seed, or {num_envs}, not {len(seeds)}")
    return seeds


def vector_env_id(rules_id: str) -> str:
    """The registered id of a preset's vector environment.

    >>> vector_env_id("trade-and-barter")
    'commerce/TradeAndBarterVector-v0'
    """
    return env_id(rules_id, 0).removesuffix("-v0") + "Vector-v0"


VECTOR_ENTRY_POINT = "commerce.rl.vector:CommerceVectorEnv"
"""The registered ids' vector entry point (a string: a spec serialises with
``spec.to_json()``)."""


def register_vector_envs() -> tuple[str, ...]:
    """Register the vector environment of every preset whose family has a steppable kernel
    (ids already registered are kept)."""
    ids = []
    for rules in rulesets():
        if family_spec(rules.family).env_kernel is None:
            continue
        name = vector_env_id(rules.id)
        if name not in gymnasium.registry:
            gymnasium.register(id=name, vector_entry_point=VECTOR_ENTRY_POINT,
                               kwargs={"rules": rules.id,
                                       "players": min(max(4, rules.min_players),
                                                      rules.max_players)})
        ids.append(name)
    return tuple(ids)


VECTOR_ENV_IDS = register_vector_envs()
"""The registered ids: ``commerce/PeelVector-v0``, ``commerce/HoyleVector-v0`` ... (four
players, or the nearest the ruleset allows)."""
