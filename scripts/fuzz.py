"""Run the suite's fuzz targets at length and print the count of cases run per target.

    PYTHONPATH=src python scripts/fuzz.py --minutes 3 [--only cli,records] [--seed N]

The targets are those of ``tests/fuzzing.py`` (move notation of each family, the command line,
records as text and as files); the time is shared equally among them. Each target runs in
chunks of generated cases until its share is spent. A failure prints the shrunk input and
the error, and the script exits with status 1; otherwise 0.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

import fuzzing  # noqa: E402

CHUNK = 100
"""Cases per run of hypothesis (a fresh random start each time)."""


def run_target(name: str, seconds: float, master: random.Random) -> tuple[int, dict[str, int],
                                                                         str | None]:
    """Run target *name* for about *seconds*: (cases, results by kind, failure or None)."""
    make, check = fuzzing.targets()[name]
    results: dict[str, int] = {}
    cases = 0

    def one(value: Any) -> None:
        nonlocal cases
        cases += 1
        kind = check(value)
        results[kind] = results.get(kind, 0) + 1

    strategy = make()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        run = settings(max_examples=CHUNK, deadline=None, database=None,
                       suppress_health_check=list(HealthCheck),
                       phases=[Phase.generate, Phase.shrink])(
            seed(master.getrandbits(64))(given(strategy)(one)))
        try:
            run()
        except Exception:  # a failing case: hypothesis has shrunk it and printed it
            return cases, results, traceback.format_exc(limit=-8)
    return cases, results, None


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=3.0, help="total time (default 3)")
    p.add_argument("--only", default="", help="comma list of targets (default: all)")
    p.add_argument("--seed", type=int, default=None, help="seed of the runs (default: random)")
    args = p.parse_args()
    names = list(fuzzing.targets())
    if args.only:
        names = [n for n in args.only.split(",") if n]
        unknown = sorted(set(names) - set(fuzzing.targets()))
        if unknown:
            p.error(f"unknown targets {', '.join(unknown)}; targets are: "
                    f"{', '.join(fuzzing.targets())}")
    master_seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    master = random.Random(master_seed)
    share = args.minutes * 60 / len(names)
    print(f"fuzzing {len(names)} targets for {args.minutes:g} min ({share:.0f} s each), "
          f"seed {master_seed}", flush=True)
    failed = False
    total = 0
    for name in names:
        start = time.monotonic()
        cases, results, failure = run_target(name, share, master)
        total += cases
        kinds = ", ".join(f"{k} {v:,}" for k, v in sorted(results.items()))
        print(f"{name:<18} {cases:>9,} cases in {time.monotonic() - start:5.0f} s  ({kinds})",
              flush=True)
        if failure is not None:
            failed = True
            print(f"FAILED {name}:\n{failure}", flush=True)
    print(f"{'total':<18} {total:>9,} cases; {'a target failed' if failed else 'no failure'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
