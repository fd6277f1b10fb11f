"""Self-play PPO with action masks (sb3-contrib's MaskablePPO) against a league of snapshots.

:class:`SB3VecEnv` is a Stable-Baselines3 ``VecEnv`` over :class:`commerce.rl.league.
LeagueVectorEnv`: observations squashed by :func:`commerce.bots.learned.features`, the legal
actions from :meth:`SB3VecEnv.action_masks` (what ``MaskablePPO`` asks for, through
``env_method("action_masks")``). :func:`train` runs MaskablePPO on it: the learner at a seat
drawn every deal, each other seat the heuristic bot, the random bot or one of the last
snapshots of the learner (one is taken every few iterations and at least five are kept); it
writes a CSV log row, a checkpoint and a progress line at every evaluation, and the final
model, which ``learned:model=NAME`` plays (:mod:`commerce.bots.learned`).

Needs the optional packages of ``commerce[learn]`` (PyTorch, sb3-contrib, Gymnasium);
:func:`need_learning` says so in one sentence where they are missing.
"""

from __future__ import annotations

import csv
import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from commerce.bots.learned import (
    LEARN_EXTRA,
    ModelConfig,
    Network,
    features,
    greedy,
    save_model,
)
from commerce.errors import CommerceError
from commerce.rl.league import League, LeagueVectorEnv

__all__ = ["LOG_COLUMNS", "NetPolicy", "SB3VecEnv", "TrainSettings", "evaluate", "need_learning",
           "policy_state", "train"]

LOG_COLUMNS = ("iteration", "steps", "seconds", "episodes", "train_mean_reward", "snapshots",
               "eval_deals", "mean_vs_heuristic", "win_rate_vs_heuristic", "mean_vs_random",
               "checkpoint")
"""The columns of the training log (``log.csv``)."""


def need_learning() -> None:
    """Import the learning packages.

    :raises CommerceError: in one sentence, naming the extra that installs them.
    """
    module = "torch"
    try:
        import torch  # noqa: F401

        module = "sb3_contrib"
        import sb3_contrib  # noqa: F401

        module = "gymnasium"
        import gymnasium  # noqa: F401
    except ImportError:
        raise CommerceError(f"training needs {module}, an optional package: "
                            f"{LEARN_EXTRA}") from None


def _vec_env_base() -> type:
    from stable_baselines3.common.vec_env import VecEnv

    return VecEnv


def make_sb3_env(env: LeagueVectorEnv) -> Any:
    """An :class:`SB3VecEnv` over *env* (the class is built on first use, as its base class
    comes from the optional package)."""
    return _sb3_class()(env)


@functools.cache
def _sb3_class() -> type:
    return type("SB3VecEnv", (SB3VecEnv, _vec_env_base()), {})


class SB3VecEnv:
    """The Stable-Baselines3 ``VecEnv`` of a :class:`LeagueVectorEnv` (make one with
    :func:`make_sb3_env`; this class holds its methods).

    Besides the ``VecEnv`` API it keeps the rewards of the episodes ended since the last
    :meth:`take_episodes`.
    """

    env: LeagueVectorEnv
    num_envs: int
    render_mode: str | None = None

    def __init__(self, env: LeagueVectorEnv) -> None:
        from gymnasium import spaces

        self.env = env
        self._mask = np.zeros((env.num_envs, env.num_actions), np.bool_)
        self._actions: npt.NDArray[np.int64] = np.zeros(env.num_envs, np.int64)
        self._episodes: list[float] = []
        # the next class of the made class's order: Stable-Baselines3's VecEnv
        cast(Any, super()).__init__(
            env.num_envs, spaces.Box(-1.0, 1.0, (env.observation_size,), np.float32),
            spaces.Discrete(env.num_actions))

    def reset(self) -> npt.NDArray[np.float32]:
        """Every game's first observation (squashed)."""
        obs, self._mask = self.env.reset()
        return features(obs)

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        """Keep the actions for :meth:`step_wait`."""
        self._actions = np.asarray(actions, np.int64).reshape(-1)

    def step_wait(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32],
                                 npt.NDArray[np.bool_], list[dict[str, Any]]]:
        """Step every game (an ended episode is dealt anew; its last observation is in
        ``infos[e]["terminal_observation"]``)."""
        obs, rewards, dones, infos = self.env.step(self._actions)
        self._mask = self.env.mask.copy()
        for e in np.flatnonzero(dones):
            infos[e]["terminal_observation"] = features(infos[e]["terminal_observation"])
            self._episodes.append(float(rewards[e]))
        return features(obs), rewards, dones, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every game's learner, ``(num_envs, num_actions)``."""
        return self._mask.copy()

    def take_episodes(self) -> list[float]:
        """The rewards of the episodes ended since the last call."""
        out, self._episodes = self._episodes, []
        return out

    def close(self) -> None:
        """Nothing to release."""

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return [int(i) for i in indices]

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """The attribute of the vector environment, once per game asked for."""
        if attr_name == "render_mode":
            return [None for _ in self._indices(indices)]
        if attr_name == "action_masks":
            return [self.action_masks for _ in self._indices(indices)]
        return [getattr(self.env, attr_name) for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Set an attribute of the vector environment."""
        setattr(self.env, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None,
                   **method_kwargs: Any) -> list[Any]:
        """``action_masks``: one row of legal actions per game asked for."""
        rows = self._indices(indices)
        if method_name == "action_masks":
            return [self._mask[e].copy() for e in rows]
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        """No game is wrapped."""
        return [False for _ in self._indices(indices)]


class NetPolicy:
    """A frozen copy of a policy network as a league opponent: its actions drawn from its
    softmax over the legal actions (or greedy), all pending decisions at once."""

    def __init__(self, net: Network, seed: int, *, sample: bool = True) -> None:
        self.net = net
        self.sample = sample
        self.rng = np.random.default_rng(seed)

    def act_batch(self, obs: npt.NDArray[np.float32],
                  mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        """One legal action per row."""
        if not self.sample:
            return greedy(self.net, obs, mask)
        scores = np.where(mask, self.net.scores(obs).astype(np.float64), -np.inf)
        scores -= scores.max(axis=1, keepdims=True)
        p = np.exp(scores)
        p /= p.sum(axis=1, keepdims=True)
        u = self.rng.random((len(p), 1))
        return np.asarray(np.minimum((p.cumsum(axis=1) < u).sum(axis=1), mask.shape[1] - 1),
                          np.int64)


def policy_state(model: Any, hidden: Sequence[int]) -> dict[str, Any]:
    """The actor of a MaskablePPO *model* as :class:`commerce.bots.learned.Network` names
    its weights (``layers.0.weight`` ...)."""
    state = model.policy.state_dict()
    out: dict[str, Any] = {}
    for i in range(len(hidden)):
        for part in ("weight", "bias"):
            out[f"layers.{2 * i}.{part}"] = state[f"mlp_extractor.policy_net.{2 * i}.{part}"]
    for part in ("weight", "bias"):
        out[f"layers.{2 * len(hidden)}.{part}"] = state[f"action_net.{part}"]
    return {k: v.detach().clone().cpu() for k, v in out.items()}


def _frozen(model: Any, config: ModelConfig) -> Network:
    state = policy_state(model, config.hidden)
    return Network.from_state({k: v.numpy() for k, v in state.items()}, config)


def evaluate(net: Network, rules: str, players: int, opponent: str, deals: int, seed: int,
             envs: int = 16) -> tuple[float, float, int]:
    """The greedy policy *net* at a seat drawn every deal against *opponent* bots: the mean
    payoff per deal (over every deal, those that ended before it acted included), the share
    of the deals it acted in that paid it more than 0, and the deals counted."""
    env = LeagueVectorEnv(rules, players, num_envs=envs, league=League({opponent: 1.0}),
                          seed=seed)
    obs, mask = env.reset()
    total, wins, shown, counted = 0.0, 0, 0, 0
    while shown < deals:
        obs, rewards, dones, infos = env.step(greedy(net, obs, env.mask))
        for e in range(envs):
            total += float(rewards[e]) + float(infos[e]["skipped"])
            counted += int(infos[e]["deals"])
        shown += int(dones.sum())
        wins += int((rewards[dones] > 0).sum())
    return total / max(counted, 1), wins / max(shown, 1), counted


@dataclass(frozen=True, slots=True)
class TrainSettings:
    """What :func:`train` runs."""

    rules: str = "peel"
    players: int = 4
    steps: int = 1_000_000
    """The learner's decisions to train on (rounded up to whole iterations)."""
    seed: int = 1
    envs: int = 16
    """Games stepped together."""
    rollout: int = 128
    """Decisions per game in one iteration (PPO's ``n_steps``)."""
    batch: int = 256
    epochs: int = 4
    learning_rate: float = 3e-4
    entropy: float = 0.01
    hidden: tuple[int, ...] = (128, 128)
    snapshot_every: int = 5
    """Iterations between two snapshots of the learner joining the league."""
    league_size: int = 8
    snapshot_share: float = 0.5
    """The chance an opponent's seat is played by a snapshot (once there is one)."""
    eval_every: int = 10
    """Iterations between two evaluations (a CSV row and a checkpoint)."""
    eval_deals: int = 300
    minutes: float | None = None
    """Stop after this long (at the end of an iteration) even if *steps* are not done."""
    name: str | None = None
    """The final model's name (default ``RULES-sSEED``)."""
    threads: int = 1
    """PyTorch's threads."""
    device: str = "cpu"


def train(settings: TrainSettings, out: Path,
          progress: Callable[[str], None] = print) -> Path:
    """Train (see the module's docstring); the final model's weights path in *out*.

    *out* gets ``log.csv`` (:data:`LOG_COLUMNS`), ``checkpoints/step-N.pt`` and ``.json`` at
    every evaluation, and ``NAME.pt`` and ``NAME.json``. Evaluation deals use seeds apart
    from the training's (``10**9 + seed`` ...).
    """
    need_learning()
    import torch
    from sb3_contrib import MaskablePPO

    s = settings
    torch.set_num_threads(s.threads)
    torch.manual_seed(s.seed)
    name = s.name or f"{s.rules}-s{s.seed}"
    out.mkdir(parents=True, exist_ok=True)
    league = League({"heuristic": 0.75, "random": 0.25}, snapshot_share=s.snapshot_share,
                    size=s.league_size)
    env = LeagueVectorEnv(s.rules, s.players, num_envs=s.envs, league=league, seed=s.seed)
    venv = make_sb3_env(env)
    config = ModelConfig(rules=env.rules.id, players=s.players,
                         observation_size=env.observation_size, num_actions=env.num_actions,
                         hidden=tuple(s.hidden), seed=s.seed)
    model = MaskablePPO("MlpPolicy", venv, n_steps=s.rollout, batch_size=s.batch,
                        n_epochs=s.epochs, learning_rate=s.learning_rate, gamma=1.0,
                        gae_lambda=0.95, ent_coef=s.entropy, seed=s.seed, device=s.device,
                        verbose=0, policy_kwargs={"net_arch": {"pi": list(s.hidden),
                                                               "vf": list(s.hidden)},
                                                  "activation_fn": torch.nn.Tanh})
    per_iteration = s.envs * s.rollout
    iterations = max(1, -(-s.steps // per_iteration))
    start = time.monotonic()
    log_path = out / "log.csv"
    with log_path.open("w", newline="", encoding="utf-8") as log_file:
        log = csv.writer(log_file)
        log.writerow(LOG_COLUMNS)
        episodes: list[float] = []
        for it in range(1, iterations + 1):
            model.learn(total_timesteps=per_iteration, reset_num_timesteps=it == 1)
            episodes += venv.take_episodes()
            if it % s.snapshot_every == 0:
                league.add(NetPolicy(_frozen(model, config), seed=s.seed * 1000 + it))
            elapsed = time.monotonic() - start
            last = it == iterations or (s.minutes is not None and elapsed >= s.minutes * 60)
            if it % s.eval_every == 0 or last:
                steps = int(model.num_timesteps)
                net = _frozen(model, config)
                eval_seed = 10**9 + s.seed * 10_000 + it
                h_mean, h_win, counted = evaluate(net, s.rules, s.players, "heuristic",
                                                  s.eval_deals, eval_seed, s.envs)
                r_mean, _, _ = evaluate(net, s.rules, s.players, "random", s.eval_deals,
                                        eval_seed + 5_000, s.envs)
                point = ModelConfig(**{**_fields(config), "steps": steps})
                save_model(out / "checkpoints", f"step-{steps}", policy_state(model, s.hidden),
                           point)
                mean = float(np.mean(episodes)) if episodes else float("nan")
                log.writerow([it, steps, f"{elapsed:.1f}", len(episodes), f"{mean:.4f}",
                              len(league.snapshots), counted, f"{h_mean:.4f}",
                              f"{h_win:.4f}", f"{r_mean:.4f}", f"checkpoints/step-{steps}.pt"])
                log_file.flush()
                progress(f"iteration {it}/{iterations}: {steps} steps, {elapsed:.0f} s, "
                         f"train {mean:+.3f} a deal, vs heuristic {h_mean:+.3f} "
                         f"(won {h_win:.0%} of its deals), vs random {r_mean:+.3f}, "
                         f"{len(league.snapshots)} snapshots")
                episodes = []
            if last:
                break
    final = ModelConfig(**{**_fields(config), "steps": int(model.num_timesteps)})
    path = save_model(out, name, policy_state(model, s.hidden), final)
    progress(f"saved {path} (play it: COMMERCE_MODELS={out} commerce ... "
             f"learned:model={name})")
    return path


def _fields(config: ModelConfig) -> dict[str, Any]:
    return {f: getattr(config, f) for f in ModelConfig.__dataclass_fields__}
