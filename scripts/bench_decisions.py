"""Random playouts through the checked API: player decisions per CPU second, per preset.

Usage: ``PYTHONPATH=src python scripts/bench_decisions.py [--players 4] [--seconds 3]
[--runs 5] [ruleset ...]``. Each run plays whole games for about ``--seconds`` of CPU time
(``time.process_time``, so other processes on the machine count less); the runs of all the
rulesets are interleaved and the median of each ruleset's runs is reported. The loop is the
one the issue gives: at a chance decision ``engine.sample_chance``, else a uniformly random
legal action; every action goes through the checked ``engine.apply``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from commerce import engine
from commerce.rules import find_ruleset, rulesets


def run(rid: str, players: int, seconds: float, seed: int) -> float:
    """Player decisions per CPU second over whole games for about *seconds*."""
    rules = find_ruleset(rid)
    rng = random.Random(seed)
    decisions = 0
    decision, sample = engine.decision, engine.sample_chance
    legal, apply = engine.legal_actions, engine.apply
    start = time.process_time()
    while time.process_time() - start < seconds:
        s = engine.new_game(rules, players)
        while True:
            d = decision(s)
            if d is None:
                break
            if d.seat is None:
                a = sample(s, rng)
            else:
                a = rng.choice(legal(s))
                decisions += 1
            s = apply(s, a).state
    return decisions / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    ids = args.rulesets or [r.id for r in rulesets()]
    rates: dict[str, list[float]] = {rid: [] for rid in ids}
    for seed in range(args.runs):  # interleaved, so a busy spell hits every ruleset alike
        for rid in ids:
            rates[rid].append(run(rid, args.players, args.seconds, seed))
    for rid in ids:
        print(f"{rid:18} median {statistics.median(rates[rid]):9,.0f} decisions/s "
              f"(runs: {', '.join(f'{r:,.0f}' for r in rates[rid])})")


if __name__ == "__main__":
    main()
