"""Per-deal returns of the Gymnasium environment against the seat's own over every deal.

    PYTHONPATH=src python scripts/per_deal_returns.py --deals 10000

Four heuristic bots in Peel (seat 0 played by the heuristic through
:class:`commerce.rl.gym.CommerceGym`): seat 0's mean payoff over every deal and over the deals
where it acts (a :class:`commerce.rl.table.Table`, every seat a heuristic bot), then the
environment's rewards over the deals it counts (``info["deals"]``).
"""

from __future__ import annotations

import argparse
import random

from commerce.bots import make_bot
from commerce.rl.gym import CommerceGym
from commerce.rl.table import Table
from commerce.rules import find_ruleset


def main(argv: list[str] | None = None) -> None:
    """Measure and print one line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000)
    n = parser.parse_args(argv).deals
    bot, rng = make_bot("heuristic"), random.Random(0)
    table = Table(find_ruleset("peel"), 4)
    every, acting = [], []
    for deal in range(n):
        table.reset(deal)
        paid, acted = 0.0, False
        while not table.done:
            acted |= table.seat == 0
            paid += table.play(bot.act(table.raw_observation(table.seat), table.legal(),
                                       rng))[0]
        every.append(paid)
        if acted:
            acting.append(paid)
    env = CommerceGym("peel", 4, seat=0, opponents="heuristic")
    total, deals, episodes = 0.0, 0, 0
    env.reset(seed=1)
    while deals < n:
        t = env.table
        action = bot.act(t.raw_observation(0), t.legal(), rng)
        _, reward, terminated, _, info = env.step(
            t.encoding.action_to_int(t.rules, t.players, action))
        total += float(reward)
        if terminated:
            deals += info["deals"]
            episodes += 1
            env.reset()
    print(f"every deal {sum(every) / n:+.3f} over {n}; where seat 0 acts "
          f"{sum(acting) / len(acting):+.3f} over {len(acting)} ({len(acting) / n:.0%}); "
          f"the environment {total / deals:+.3f} over {deals} deals ({episodes} episodes)")


if __name__ == "__main__":
    main()
