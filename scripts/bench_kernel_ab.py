"""Two versions of the compiled kernels, timed in turn: decisions per second on two threads.

    PYTHONPATH=src python scripts/bench_kernel_ab.py --old OLD_SRC [--rounds 3] [--batches 5]
    PYTHONPATH=src python scripts/bench_kernel_ab.py --old OLD_SRC --only peel:random

``OLD_SRC`` is the ``src`` folder of another checkout (``git archive COMMIT src | tar -x -C
DIR``). For each line-up (a preset and a bot playing every seat) the two versions run in
turn, *rounds* times each, every run in a fresh process with ``PYTHONPATH`` set to its
``src``: ``run_batch`` on 2 threads, *batches* batches (200,000 games each in the trading
games, 4,000 sessions in the widow games and Cox's), timed by the clock
(``time.perf_counter``) and per CPU second (``time.process_time``). A process first loads or
compiles the kernel apart from the timing, after a process of its own has warmed the kernel's
cache. Each run prints the median and the fastest batch; the table at the end gives each
run's median (million decisions a second by the clock) and the ratio of the medians of the
runs. On a shared machine whose speed wanders, runs in turn are what makes the two versions
comparable.
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

LINE_UPS = (("peel", "random"), ("hoyle", "random"), ("trade-and-barter", "random"),
            ("peel", "heuristic"), ("peel-old", "heuristic"), ("pool", "heuristic"),
            ("widow", "heuristic"), ("pounce", "heuristic"), ("no-pair-or-point", "heuristic"),
            ("cox", "random"), ("cox", "heuristic"))
TRADING = ("peel", "hoyle", "trade-and-barter")


def measure(rid: str, bot: str, games: int, batches: int, threads: int) -> dict[str, float]:
    """The median and fastest batch of *batches*, decisions a second (clock and CPU). Timed
    here, as :func:`commerce.simulate.kernel_decisions_per_s` does, rather than by calling it:
    this runs inside the other version's package too, which may predate it or differ."""
    from commerce.compiled import build_kernel, run_batch
    from commerce.rules import find_ruleset

    rules = find_ruleset(rid)
    kern = build_kernel(rules, 4)
    run_batch(rules, players=4, games=10, seed=0, bots=[bot], kernel=kern, threads=1)
    walls, cpus = [], []
    for seed in range(batches):
        cpu, wall = time.process_time(), time.perf_counter()
        result = run_batch(rules, players=4, games=games, seed=seed, bots=[bot], kernel=kern,
                           threads=threads)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        decisions = int(result.decisions.sum())
        walls.append(decisions / wall)
        cpus.append(decisions / cpu)
    return {"median": statistics.median(walls), "fastest": max(walls),
            "cpu_median": statistics.median(cpus)}


def _run(src: str, rid: str, bot: str, games: int, batches: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=src)
    out = subprocess.run([sys.executable, __file__, "--one", f"{rid}:{bot}", "--games",
                          str(games), "--batches", str(batches)],
                         env=env, check=True, capture_output=True, text=True).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


def main() -> None:
    """Parse the arguments; time one line-up (``--one``) or compare two versions."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", help="the other version's src folder")
    parser.add_argument("--only", help="line-ups, a comma list of PRESET:BOT")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--games", type=int, default=0, help="per batch (0: by family)")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        rid, bot = args.one.split(":")
        print(json.dumps(measure(rid, bot, args.games, args.batches, 2)))
        return
    if not args.old:
        parser.error("--old OLD_SRC is needed")
    new = str(Path(__file__).resolve().parent.parent / "src")
    line_ups = ([tuple(x.split(":")) for x in args.only.split(",")] if args.only
                else list(LINE_UPS))
    rows = []
    for rid, bot in line_ups:
        games = args.games or (200_000 if rid in TRADING else 4_000)
        for src in (args.old, new):  # warm each version's cache in a process of its own
            _run(src, rid, bot, 20, 1)
        runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
        for _ in range(args.rounds):
            for name, src in (("old", args.old), ("new", new)):
                fig = _run(src, rid, bot, games, args.batches)
                runs[name].append(fig)
                print(f"{name} {rid} {bot}: median {fig['median'] / 1e6:.1f}M, fastest "
                      f"{fig['fastest'] / 1e6:.1f}M, per CPU second {fig['cpu_median'] / 1e6:.1f}M",
                      flush=True)
        old = [r["median"] / 1e6 for r in runs["old"]]
        now = [r["median"] / 1e6 for r in runs["new"]]
        rows.append(f"| {rid} | {bot} | {', '.join(f'{x:.1f}' for x in old)} | "
                    f"{', '.join(f'{x:.1f}' for x in now)} | "
                    f"{statistics.median(now) / statistics.median(old):.2f} | "
                    f"{max(r['fastest'] for r in runs['new']) / 1e6:.1f} |")
    print("| ruleset | policy | before | now | ratio of medians | fastest batch now |")
    print("|---|---|---|---|---:|---:|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
