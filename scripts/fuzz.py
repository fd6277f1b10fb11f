"""Run the suite's fuzz targets at length and print the count of cases run per target.

    PYTHONPATH=src python scripts/fuzz.py --minutes 3 [--only cli,records] [--seed N]
    PYTHONPATH=src python scripts/fuzz.py --table --minutes 10 [--only peel,cox] [--seed N]

With ``--table``, the full-screen table is fuzzed instead (``tests/harness/table.py``'s
:func:`fuzz`: random keys and clicks through Textual's pilot) at several terminal sizes, game
after game with new seeds, every ruleset in turn; each failing ``(ruleset, seed, size)`` is
printed, to be added to ``tests/test_table_fuzz.py``'s ``FOUND``.

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


TABLE_SIZES = ((80, 24), (100, 30), (120, 40), (81, 25), (160, 50))
"""The terminal sizes of the table's long fuzz."""


def fuzz_table(minutes: float, only: list[str], master: random.Random) -> int:
    """The table's long fuzz (see the module); 1 if a game failed, else 0."""
    sys.path.insert(0, str(ROOT))
    from tests.harness.table import fuzz

    from commerce.rules import rulesets

    ids = only or [r.id for r in rulesets()]
    deadline = time.monotonic() + minutes * 60
    games = 0
    failed: list[tuple[str, int, tuple[int, int]]] = []
    while time.monotonic() < deadline:
        for rules_id in ids:
            if time.monotonic() >= deadline:
                break
            seed_ = master.getrandbits(32)
            size = TABLE_SIZES[games % len(TABLE_SIZES)]
            seen = fuzz(rules_id, seed_, size, 150)
            games += 1
            bad = seen["problems"] or ([] if seen["replays"] else ["the record does not replay"])
            print(f"{rules_id:<22} seed {seed_:>10} {size[0]}x{size[1]:<3} "
                  f"{seen['moves']:>4} moves  notes: {', '.join(sorted(seen['notes'])) or '-'}"
                  f"{'  FAILED: ' + '; '.join(bad) if bad else ''}", flush=True)
            if bad:
                failed.append((rules_id, seed_, size))
    print(f"{games} games; " + (f"failing: {failed}" if failed else "no failure"))
    return 1 if failed else 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=3.0, help="total time (default 3)")
    p.add_argument("--only", default="", help="comma list of targets, or of rulesets with "
                   "--table (default: all)")
    p.add_argument("--seed", type=int, default=None, help="seed of the runs (default: random)")
    p.add_argument("--table", action="store_true",
                   help="fuzz the full-screen table with random keys and clicks instead")
    args = p.parse_args()
    if args.table:
        master_seed = args.seed if args.seed is not None else \
            random.SystemRandom().getrandbits(32)
        print(f"fuzzing the table for {args.minutes:g} min, seed {master_seed}", flush=True)
        return fuzz_table(args.minutes, [n for n in args.only.split(",") if n],
                          random.Random(master_seed))
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
