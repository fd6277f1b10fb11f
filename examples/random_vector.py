"""A random agent at one seat of many games at once: the compiled vector environment.

    python examples/random_vector.py --rules peel --envs 256 --steps 200 --opponents heuristic

``commerce.rl.vector.CommerceVectorEnv`` steps ``--envs`` games together (the bots and chance
in compiled code); the agent draws each game's action uniformly among its legal ones from
``info["action_mask"]``, in numpy. Gymnasium's ``RecordEpisodeStatistics`` wrapper counts the
episodes (deals); prints the mean reward per episode (in the ruleset's unit) and the steps per
second.
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np

from commerce.rl.vector import CommerceVectorEnv


def main(argv: list[str] | None = None) -> float:
    """Play the steps; the mean reward per finished episode."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="peel")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--opponents", default="heuristic")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(CommerceVectorEnv(
        args.rules, args.players, num_envs=args.envs, opponents=args.opponents))
    rng = np.random.default_rng(args.seed)
    _obs, info = env.reset(seed=args.seed)
    returns: list[float] = []
    start = time.perf_counter()
    for _ in range(args.steps):
        mask = info["action_mask"]  # (envs, actions), 1 where legal
        noise = rng.random(mask.shape)
        actions = np.argmax(np.where(mask == 1, noise + 1.0, noise - 1.0), axis=1)
        _obs, _rewards, _terminated, _truncated, info = env.step(actions)
        if "episode" in info:
            returns.extend(info["episode"]["r"][info["_episode"]].tolist())
    elapsed = time.perf_counter() - start
    env.close()
    mean = sum(returns) / max(1, len(returns))
    print(f"{args.rules}: {mean:+.3f} per episode over {len(returns)} episodes against "
          f"{args.opponents}; {args.envs * args.steps / elapsed:,.0f} steps/s")
    return mean


if __name__ == "__main__":
    main()
