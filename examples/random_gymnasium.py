"""A random agent in one seat of a Gymnasium environment of Commerce, against our bots.

    python examples/random_gymnasium.py --env commerce/Peel-v1 --opponents heuristic --episodes 20

The agent picks uniformly among its legal actions (``info["action_mask"]``); prints its mean
reward per episode (a deal, in the ruleset's unit).
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np

import commerce.rl.gym  # noqa: F401  (registers the commerce/... ids)


def main(argv: list[str] | None = None) -> float:
    """Play the episodes; the mean reward per episode."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="commerce/Peel-v1")
    parser.add_argument("--opponents", default="heuristic")
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    env = gymnasium.make(args.env, opponents=args.opponents)
    rng = np.random.default_rng(args.seed)
    total = 0.0
    for episode in range(args.episodes):
        _obs, info = env.reset(seed=args.seed + episode)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _obs, reward, terminated, truncated, info = env.step(action)
            total += float(reward)
            done = terminated or truncated
    mean = total / args.episodes
    print(f"{args.env}: {mean:+.3f} per episode against {args.opponents}")
    return mean


if __name__ == "__main__":
    main()
