"""Time of the table's hint (``h``) per decision, by family: median, 90th percentile, slowest.

    PYTHONPATH=src nice python scripts/bench_hint.py [--decisions 50] [--rules peel,widow,...]
    PYTHONPATH=src nice python scripts/bench_hint.py --ms 0   # without the wall-time cap

Seat 0 is played by the heuristic bot against heuristic bots, game after game (seeds 0, 1,
...); at each of its decisions with more than one legal move, the hint the table would show
is worked out (:func:`commerce.cli.hint.hint_text` under :data:`commerce.cli.hint.HINT_MS`)
and timed in wall time, until *--decisions* are timed per ruleset. One hint first, untimed,
compiles the family's kernels. The budget of a hint grows with the number of legal moves;
the cap stops its search at a wall time, so that the final figures come within about 3 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from commerce import engine
from commerce.bots import make_bot
from commerce.cli.hint import HINT_MS, hint_text
from commerce.driver import Driver
from commerce.rules import find_ruleset

DEFAULT = "peel,widow,cox,vingt-un"
"""A ruleset of each family."""


def decisions(rules_id: str, count: int) -> list[Driver]:
    """*count* drivers, each at a decision of seat 0 with more than one legal move (every
    third such decision of games with seeds 0, 1, ...: spread over the deals)."""
    rules = find_ruleset(rules_id)
    players = max(rules.min_players, min(4, rules.max_players))
    out: list[Driver] = []
    seen = 0
    seed = 0
    while len(out) < count:
        driver = Driver(rules, [make_bot("heuristic") for _ in range(players)], seed=seed,
                        names=[f"P{i}" for i in range(players)])
        seed += 1
        while driver.outcome() is None and len(out) < count:
            d = driver.decision()
            if d is not None and d.seat == 0 and len(engine.legal_actions(driver.state)) > 1:
                seen += 1
                if seen % 3 == 1:
                    out.append(Driver.resume(driver.record(), [None, *driver.agents[1:]]))
            driver.step()
    return out


def time_hint(driver: Driver, ms: float | None) -> float:
    """Seconds to work out the hint of seat 0 at *driver*'s decision."""
    legal = engine.legal_actions(driver.state)
    labels = [engine.format_action(driver.rules, a) for a in legal]
    start = time.perf_counter()
    hint_text(driver, 0, legal, labels, ms=ms)
    return time.perf_counter() - start


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--decisions", type=int, default=50, help="decisions per ruleset (50)")
    p.add_argument("--rules", default=DEFAULT, help=f"comma list (default {DEFAULT})")
    p.add_argument("--ms", type=float, default=HINT_MS,
                   help=f"the wall-time cap in ms (default {HINT_MS:g}; 0: none)")
    args = p.parse_args()
    ms = args.ms or None
    print(f"hint cap {ms} ms; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} CPUs", flush=True)
    print(f"{'ruleset':<10} {'n':>3} {'median':>7} {'p90':>7} {'slowest':>7} {'moves':>6}")
    for rules_id in [r for r in args.rules.split(",") if r]:
        found = decisions(rules_id, args.decisions)
        time_hint(found[0], ms)  # compiles the kernels
        times = [time_hint(d, ms) for d in found]
        moves = statistics.median(len(engine.legal_actions(d.state)) for d in found)
        times.sort()
        print(f"{rules_id:<10} {len(times):>3} {statistics.median(times):>6.2f}s "
              f"{times[int(0.9 * (len(times) - 1))]:>6.2f}s {times[-1]:>6.2f}s {moves:>6g}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
