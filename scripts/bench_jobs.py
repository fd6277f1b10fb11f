"""The speed-up of ``--jobs 2`` over ``--jobs 1`` for a tournament, measured in one run.

    PYTHONPATH=src python scripts/bench_jobs.py [--games 48] [--bots random,heuristic,search]

Plays the same tournament twice (one process, then two), checks that the results are
identical, and prints both wall times and their ratio. Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from commerce.rules import find_ruleset
from commerce.tournament import tournament


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="peel")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=48)
    p.add_argument("--bots", default="random,heuristic,search:iterations=200")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    rules = find_ruleset(args.rules)
    bots = args.bots.split(",")
    walls = {}
    results = {}
    for jobs in (1, 2):
        start = time.perf_counter()
        results[jobs] = tournament(rules, players=args.players, bots=bots, games=args.games,
                                   seed=7, jobs=jobs)
        walls[jobs] = time.perf_counter() - start
    identical = json.dumps(results[1]) == json.dumps(results[2])
    out = {"games": results[1]["games"], "bots": bots, "cpus": os.cpu_count(),
           "jobs1_s": round(walls[1], 2), "jobs2_s": round(walls[2], 2),
           "speedup": round(walls[1] / walls[2], 2), "identical": identical}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['games']} games ({','.join(bots)}) on {out['cpus']} CPUs: --jobs 1 "
              f"{out['jobs1_s']} s, --jobs 2 {out['jobs2_s']} s, speed-up {out['speedup']}x; "
              f"results identical: {identical}")
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
