"""A masked policy-gradient (REINFORCE) agent, in numpy, learning Peel against heuristic bots.

    python examples/train_reinforce.py --iterations 40 --episodes 200 --seed 1

A linear softmax policy over the legal actions (the mask) of the Gymnasium environment
``commerce/Peel-v1``, trained on whole deals (the reward: what the deal paid the learner, in
stakes) with a running-mean baseline. After training it prints the learner's mean reward per
deal, greedy, beside a random agent's in the same seat against the same bots and deals.
"""

from __future__ import annotations

import argparse
import contextlib
import sys

import gymnasium
import numpy as np

import commerce.rl.gym  # noqa: F401  (registers the commerce/... ids)


def policy(weights: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The action probabilities: a softmax of the linear scores over the legal actions."""
    scores = weights @ obs
    scores = np.where(mask > 0, scores, -np.inf)
    scores -= scores.max()
    p = np.exp(scores)
    return p / p.sum()


def features(obs: np.ndarray) -> np.ndarray:
    """The observation squashed into [-1, 1] (counts such as the stock's size dominate the
    one-hot segments otherwise)."""
    return obs / np.maximum(1.0, np.abs(obs))


def evaluate(env: gymnasium.Env, weights: np.ndarray | None, episodes: int, seed: int) -> float:
    """Mean reward per deal: greedy with *weights*, or uniformly random among the legal
    actions (None)."""
    rng = np.random.default_rng(seed)
    total = 0.0
    for episode in range(episodes):
        obs, info = env.reset(seed=seed + episode)
        done = False
        while not done:
            mask = info["action_mask"]
            if weights is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = int(np.argmax(policy(weights, features(obs), mask)))
            obs, reward, terminated, truncated, info = env.step(action)
            total += float(reward)
            done = terminated or truncated
    return total / episodes


def train(env: gymnasium.Env, iterations: int, episodes: int, lr: float,
          seed: int) -> np.ndarray:
    """REINFORCE with a running-mean baseline; the trained weights."""
    rng = np.random.default_rng(seed)
    size = env.observation_space.shape[0]
    weights = np.zeros((env.action_space.n, size))
    baseline = 0.0
    for it in range(iterations):
        grad = np.zeros_like(weights)
        returns = []
        for episode in range(episodes):
            obs, info = env.reset(seed=seed * 1_000_000 + it * episodes + episode)
            steps = []
            done, paid = False, 0.0
            while not done:
                x = features(obs)
                p = policy(weights, x, info["action_mask"])
                action = int(rng.choice(len(p), p=p))
                steps.append((x, p, action))
                obs, reward, terminated, truncated, info = env.step(action)
                paid += float(reward)
                done = terminated or truncated
            advantage = paid - baseline
            for x, p, action in steps:
                g = -np.outer(p, x)
                g[action] += x
                grad += advantage * g
            returns.append(paid)
        baseline = 0.9 * baseline + 0.1 * float(np.mean(returns))
        weights += lr * grad / episodes
        print(f"iteration {it + 1}: mean reward {np.mean(returns):+.3f}", flush=True)
    return weights


def main(argv: list[str] | None = None) -> tuple[float, float]:
    """Train, then evaluate the greedy policy and a random agent; (learned, random)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--evaluate", type=int, default=2000)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", action="store_true",
                        help="print the result as the table of docs/research.md (the "
                             "iterations' lines go to standard error)")
    parser.add_argument("--quick", action="store_true",
                        help="one iteration of 4 deals, 4 deals evaluated (a check that it runs)")
    args = parser.parse_args(argv)
    if args.quick:
        args.iterations, args.episodes, args.evaluate = 1, 4, 4
    env = gymnasium.make("commerce/Peel-v1", opponents="heuristic")
    with contextlib.redirect_stdout(sys.stderr if args.markdown else sys.stdout):
        weights = train(env, args.iterations, args.episodes, args.lr, args.seed)
    learned = evaluate(env, weights, args.evaluate, 10**9)
    random_agent = evaluate(env, None, args.evaluate, 10**9)
    if args.markdown:
        print(f"Peel, 4 seats, the learner at seat 0 against 3 heuristic bots: "
              f"`examples/train_reinforce.py`, {args.iterations} iterations of "
              f"{args.episodes} deals, seed {args.seed}; mean stakes per deal over "
              f"{args.evaluate:,} deals, the same deals for both\n")
        print("| agent | stakes per deal |\n|---|---:|")
        print(f"| the trained policy, greedy | {learned:+.3f} |")
        print(f"| a random agent in the same seat | {random_agent:+.3f} |")
    else:
        print(f"learned policy: {learned:+.3f} stakes per deal; random agent: "
              f"{random_agent:+.3f}")
    return learned, random_agent


if __name__ == "__main__":
    main()
