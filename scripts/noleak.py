"""Run the no-leak harness over every registered ruleset and print what it compared.

    PYTHONPATH=src python scripts/noleak.py --states 40

One line per ruleset: the states sampled, the comparisons made on each surface, the next
actions not compared because they show the seat a relabelled card, and the surfaces where a
seat's output changed with what it cannot know (see ``tests/harness/noleak.py``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.harness.noleak import check_ruleset  # noqa: E402

from commerce.rules import find_ruleset, rulesets  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Print one report line per ruleset (and the first differences); 1 if any leaked."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--states", type=int, default=40, help="states sampled per ruleset")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", action="append", help="a ruleset id (default: all)")
    args = parser.parse_args(argv)
    chosen = [find_ruleset(r) for r in args.rules] if args.rules else list(rulesets())
    leaked = False
    for rules in chosen:
        report = check_ruleset(rules, states=args.states, seed=args.seed)
        print(report.line())
        for surface in report.leaking():
            leaked = True
            for line in report.leaks[surface][:2]:
                print(f"  {surface}: {line}")
        for error, count in sorted(report.errors.items()):
            print(f"  error x{count}: {error}")
    return 1 if leaked else 0


if __name__ == "__main__":
    sys.exit(main())
