"""OpenSpiel's own CFR and ``exploitability()`` on a research mini through the Python game.

    PYTHONPATH=src python scripts/openspiel_cfr.py                       # widow-mini, 2 deals
    PYTHONPATH=src python scripts/openspiel_cfr.py --rules trade-and-barter-mini --deals 1

Loads ``python_commerce_<rules>`` with the parameter ``deals`` (chance picks one of that many
drawn openings, :func:`commerce.rl.openspiel.openings`), runs
``open_spiel.python.algorithms.cfr.CFRSolver`` and prints, as a markdown table, the average
policy's exploitability (``open_spiel.python.algorithms.exploitability.exploitability``, in
the ruleset's unit per deal) after each count of iterations, with the seconds spent.
"""

from __future__ import annotations

import argparse
import time

import pyspiel
from open_spiel.python.algorithms import cfr, exploitability

from commerce.rl.openspiel import game_name


def main(argv: list[str] | None = None) -> None:
    """Run CFR and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="widow-mini")
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", default="0,1,3,10,30",
                        help="comma-separated counts at which to measure (default 0,1,3,10,30)")
    parser.add_argument("--quick", action="store_true",
                        help="one deal, iterations 0 and 1 (a check that the table is made)")
    args = parser.parse_args(argv)
    if args.quick:
        args.deals, args.iterations = 1, "0,1"
    game = pyspiel.load_game(game_name(args.rules),
                             {"players": 2, "deals": args.deals, "seed": args.seed})
    solver = cfr.CFRSolver(game)
    print(f"`{args.rules}`, 2 players, deals={args.deals}, seed={args.seed}: OpenSpiel's "
          f"CFRSolver ({game.get_type().utility.name})\n")
    print("| CFR iterations | exploitability | seconds (CFR, cumulative) |")
    print("|---|---|---|")
    done, spent = 0, 0.0
    for target in sorted(int(x) for x in args.iterations.split(",")):
        start = time.perf_counter()
        while done < target:
            solver.evaluate_and_update_policy()
            done += 1
        spent += time.perf_counter() - start
        value = exploitability.exploitability(game, solver.average_policy())
        print(f"| {done} | {value:.4f} | {spent:.1f} |", flush=True)


if __name__ == "__main__":
    main()
