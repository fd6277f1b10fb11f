"""A random agent at every seat of a PettingZoo environment of Commerce.

    python examples/random_pettingzoo.py --rules peel --players 4 --episodes 10 --seed 1

Each agent picks uniformly among its legal actions (the mask); prints each seat's mean reward
per episode (a deal, in the ruleset's unit).
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from commerce.rl import pettingzoo_env


def main(argv: list[str] | None = None) -> dict[str, float]:
    """Play the episodes; each seat's mean reward per episode."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="peel")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--episodes", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    env = pettingzoo_env(args.rules, players=args.players)
    rng = random.Random(args.seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for episode in range(args.episodes):
        env.reset(seed=args.seed + episode)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _info = env.last()
            totals[agent] += reward
            if terminated or truncated:
                action = None
            else:
                action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            env.step(action)
    means = {agent: total / args.episodes for agent, total in totals.items()}
    for agent, mean in means.items():
        print(f"{agent}: {mean:+.3f} per episode")
    return means


if __name__ == "__main__":
    main()
