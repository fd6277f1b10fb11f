"""Solve a small ruleset with CFR+ and measure how exploitable a bot is.

    python examples/cfr.py                                  # trade-and-barter-mini, every deal
    python examples/cfr.py --rules widow-mini --deals 500   # a smaller game: 500 deals drawn

The whole tree of one deal is walked once by the engine (``commerce.rl.tree``), CFR+ runs
over its arrays (``commerce.rl.cfr``, OpenSpiel's ``CFRPlusSolver`` at compiled speed), and
the exploitability of the average policy is printed as it falls; then the heuristic bot is
asked what it would do in every information state and its exploitability printed beside it.
``scripts/exploitability.py`` makes the whole table of docs/ladder.md.
"""

from __future__ import annotations

import argparse
import time

from commerce.bots import make_bot
from commerce.rl.cfr import CFRPlus, exploitability
from commerce.rl.tree import bot_choices, build_tree, pure_policy
from commerce.rules import find_ruleset


def main() -> None:
    """Build, solve, measure."""
    ap = argparse.ArgumentParser(description="CFR+ on a small ruleset")
    ap.add_argument("--rules", default="trade-and-barter-mini")
    ap.add_argument("--deals", type=int, default=None, help="deals drawn (default: all)")
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--bot", default="heuristic")
    args = ap.parse_args()
    rules = find_ruleset(args.rules)

    started = time.perf_counter()
    tree = build_tree(rules, 2, deals=args.deals)
    print(f"{rules.id}: {tree.deals} deals, {tree.nodes} nodes, {tree.infosets} information "
          f"states, walked in {time.perf_counter() - started:.1f} s")

    solver = CFRPlus(tree)
    for target in (1, 10, 30, 100, 300, 1000):
        if target > args.iterations:
            break
        solver.run(target - solver.iteration)
        print(f"CFR+ after {target:4d} iterations: exploitability "
              f"{exploitability(tree, solver.average_policy()):.5f}")

    policy = pure_policy(tree, bot_choices(rules, tree, make_bot(args.bot).act))
    print(f"{args.bot}: exploitability {exploitability(tree, policy):.5f}; "
          f"random: {exploitability(tree, tree.uniform_policy()):.5f}")


if __name__ == "__main__":
    main()
