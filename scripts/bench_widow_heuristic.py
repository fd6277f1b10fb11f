"""Decisions per CPU second of the widow kernel, heuristic and random, every widow preset.

    PYTHONPATH=src python scripts/bench_widow_heuristic.py [--games 300] [--batches 5]
    PYTHONPATH=src python scripts/bench_widow_heuristic.py --ab OLD_SRC [--batches 5]

One thread (``run_batch(..., threads=1)``, the kernel built once per preset and reused);
each batch is timed by ``time.process_time`` (one thread's CPU time, which the other work on a
shared machine changes far less than the wall clock); decisions are ``result.decisions.sum()``;
the figure is the median of the batches (each batch with its own seed). ``--ab OLD_SRC`` runs
the same measurement alternately in fresh processes with ``PYTHONPATH=OLD_SRC`` and with this
checkout's ``src`` (one batch per preset and bot each time), so that both versions meet the
same load, and prints both medians and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

PRESETS = ("peel-old", "pool", "widow", "pounce", "no-pair-or-point")
BOTS = ("heuristic", "random")


def measure(games: int, batches: int, seed0: int, presets: tuple[str, ...],
            bots: tuple[str, ...]) -> dict[str, dict[str, list[float]]]:
    """Decisions per CPU second of each batch, by preset and bot."""
    from commerce.compiled import build_kernel, run_batch
    from commerce.rules import find_ruleset

    out: dict[str, dict[str, list[float]]] = {}
    for rid in presets:
        rules = find_ruleset(rid)
        kern = build_kernel(rules, 4)
        out[rid] = {}
        for bot in bots:
            run_batch(rules, players=4, games=2, seed=0, bots=[bot], threads=1, kernel=kern)
            rates = []
            for b in range(batches):
                start = time.process_time()
                result = run_batch(rules, players=4, games=games, seed=seed0 + b, bots=[bot],
                                   threads=1, kernel=kern)
                spent = time.process_time() - start
                rates.append(float(result.decisions.sum()) / spent)
            out[rid][bot] = rates
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=300, help="sessions per batch")
    p.add_argument("--batches", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rules", default=",".join(PRESETS))
    p.add_argument("--bots", default=",".join(BOTS))
    p.add_argument("--ab", metavar="OLD_SRC", help="compare with the package under OLD_SRC")
    p.add_argument("--json", action="store_true", help="(internal) one measurement as JSON")
    args = p.parse_args()
    presets = tuple(args.rules.split(","))
    bots = tuple(args.bots.split(","))
    if args.json:
        print(json.dumps(measure(args.games, args.batches, args.seed, presets, bots)))
        return 0
    if not args.ab:
        rates = measure(args.games, args.batches, args.seed, presets, bots)
        for rid in presets:
            print(rid.ljust(18) + "".join(
                f"{bot}: {statistics.median(rates[rid][bot]):>12,.0f}   " for bot in bots))
        return 0
    trees = {"old": str(Path(args.ab).resolve()), "new": str(Path(__file__).parents[1] / "src")}
    runs: dict[str, dict[str, dict[str, list[float]]]] = {
        k: {r: {b: [] for b in bots} for r in presets} for k in trees}
    for b in range(args.batches):
        for name, src in trees.items():
            env = dict(os.environ, PYTHONPATH=src)
            text = subprocess.run(
                [sys.executable, __file__, "--json", "--games", str(args.games), "--batches",
                 "1", "--seed", str(args.seed + b), "--rules", args.rules, "--bots", args.bots],
                env=env, check=True, capture_output=True, text=True).stdout
            for rid, by_bot in json.loads(text).items():
                for bot, rates in by_bot.items():
                    runs[name][rid][bot] += rates
    for rid in presets:
        for bot in bots:
            old = statistics.median(runs["old"][rid][bot])
            new = statistics.median(runs["new"][rid][bot])
            print(f"{rid:18} {bot:10} old {old:>12,.0f}  new {new:>12,.0f}  x{new / old:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
