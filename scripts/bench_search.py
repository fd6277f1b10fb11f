"""Time per decision of the search bot: median, 95th and 99th percentiles, slowest; playouts.

    PYTHONPATH=src python scripts/bench_search.py [--games 30] [--rules peel|cox] [--players 4]
    PYTHONPATH=src python scripts/bench_search.py --rules widow --games 3 --bot search-fast

The search bot plays seat 0 against heuristic bots; every decision with more than one legal
action is timed (decisions with one are answered at once and left out), in wall time and in
the process's CPU time (less sensitive to a busy machine). One warm-up game
first fills the hand tables, as in any long session.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from commerce.bots import make_bot
from commerce.bots.search import default_iterations
from commerce.driver import Driver
from commerce.rules import find_ruleset
from commerce.simulate import game_seed


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="peel")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=30)
    p.add_argument("--bot", default="search", help="bot spec to time (default: search)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    rules = find_ruleset(args.rules)
    bot = make_bot(args.bot)
    times: list[float] = []
    cpu: list[float] = []
    playouts: list[int] = []

    class Timed:
        name = spec = "timed"

        def __init__(self, record: bool) -> None:
            self.record = record

        def act(self, obs, legal, rng):  # type: ignore[no-untyped-def]
            start = time.perf_counter()
            start_cpu = time.process_time()
            action = bot.act(obs, legal, rng)
            if self.record and len(legal) > 1:
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
                playouts.append(getattr(bot, "playouts", 0))
            return action

    others = [make_bot("heuristic") for _ in range(args.players - 1)]
    Driver(rules, [Timed(False), *others], seed=12345).run()  # warm-up
    for g in range(args.games):
        Driver(rules, [Timed(True), *others], seed=game_seed(0, g)).run()
    times.sort()
    ms = [t * 1000 for t in times]
    result = {
        "bot": args.bot,
        "iterations": default_iterations(rules.family, rules) if args.bot == "search" else None,
        "rules": rules.id, "players": args.players, "decisions": len(ms),
        "median_ms": round(statistics.median(ms), 1),
        "p95_ms": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 1),
        "p99_ms": round(ms[min(len(ms) - 1, int(0.99 * len(ms)))], 1),
        "max_ms": round(ms[-1], 1),
        "over_200_ms": sum(t > 200 for t in ms),
        "cpu_median_ms": round(statistics.median(cpu) * 1000, 1),
        "playouts_median": statistics.median(playouts) if playouts else None,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{args.bot} ({rules.id}, {args.players} players): {len(ms)} decisions, "
              f"median {result['median_ms']} ms, 95th percentile {result['p95_ms']} ms, "
              f"99th {result['p99_ms']} ms, max {result['max_ms']} ms "
              f"({result['over_200_ms']} over 200 ms), median CPU time {result['cpu_median_ms']} "
              f"ms; playouts per decision "
              f"(median) {result['playouts_median']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
