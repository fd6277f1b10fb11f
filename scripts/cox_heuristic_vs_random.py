"""Cox's 1925 game: the heuristic bot against the random bot, four players.

Each game seats one heuristic bot and three random bots; the heuristic's seat goes round the
table (game g: seat g % 4), and game g is seeded with ``game_seed(seed, g)``. Prints each
side's mean score per game per seat with a 95% confidence interval (normal approximation),
and the mean per-game difference (heuristic minus the mean of the random seats at its table).

    PYTHONPATH=src python scripts/cox_heuristic_vs_random.py --games 200 --seed 1
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys

from commerce.apps.runner import game_seed
from commerce.bots import make_bot
from commerce.driver import Driver
from commerce.rules import find_ruleset


def mean_ci(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, math.inf
    return m, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def measure(games: int, seed: int, players: int = 4,
            strong: str = "heuristic", weak: str = "random") -> dict[str, tuple[float, float]]:
    rules = find_ruleset("cox")
    heur: list[float] = []
    rand: list[float] = []
    diff: list[float] = []
    for g in range(games):
        seat = g % players
        agents = [make_bot(strong if i == seat else weak) for i in range(players)]
        driver = Driver(rules, agents, seed=game_seed(seed, g))
        driver.run()
        result = driver.outcome()
        assert result is not None
        pay = result.payoffs
        others = [p for i, p in enumerate(pay) if i != seat]
        heur.append(pay[seat])
        rand.extend(others)
        diff.append(pay[seat] - statistics.fmean(others))
    return {strong: mean_ci(heur), weak: mean_ci(rand), "difference": mean_ci(diff)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    figures = measure(args.games, args.seed)
    print(f"Cox 1925, 4 players, {args.games} games (seed {args.seed}), one heuristic seat "
          "rotated, three random seats; score per game per seat, mean ± 95% CI:")
    for name, (m, h) in figures.items():
        print(f"  {name:<11} {m:7.2f} ± {h:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
