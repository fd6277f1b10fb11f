"""Regenerate docs/ladder.md: the bot ladder of every preset at 4 players, with 95% intervals.

    PYTHONPATH=src python scripts/ladder.py                 # every registered preset
    PYTHONPATH=src python scripts/ladder.py --rules peel    # only some (comma list)

For each preset: a tournament of random against heuristic and one of heuristic against
search (default budget), each with seat rotation over replayed deals (commerce.tournament).
A rung holds when the 95% interval of (stronger - weaker) payoff per game excludes 0.
Rulesets not given with --rules keep their rows from the existing file.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

from commerce.rules import find_ruleset, rulesets
from commerce.tournament import tournament

DOC = Path(__file__).resolve().parent.parent / "docs" / "ladder.md"
RUNGS = (("random", "heuristic"), ("heuristic", "search"))
HEADER = ("| ruleset | players | rung | games | stronger − weaker per game | 95% interval "
          "| ratings (weaker, stronger) | holds |\n"
          "|---|---|---|---|---|---|---|---|\n")


def rows_for(rules_id: str, players: int, games: dict[str, int], seed: int,
             jobs: int, rungs: set[str]) -> list[str]:
    rules = find_ruleset(rules_id)
    n = min(max(players, rules.min_players), rules.max_players)
    out = []
    for weak, strong in RUNGS:
        if strong not in rungs:
            continue
        start = time.perf_counter()
        r = tournament(rules, players=n, bots=[weak, strong], games=games[strong], seed=seed,
                       jobs=jobs)
        pair = r["pairs"][0]
        lo, hi = pair["ci95"]
        holds = "yes" if lo is not None and lo > 0 else "**no**"
        out.append(f"| {rules.id} | {n} | {weak} → {strong} | {r['games']} | "
                   f"{pair['diff']:+.2f} | [{lo:+.2f}, {hi:+.2f}] | "
                   f"{r['ratings'][weak]:.0f}, {r['ratings'][strong]:.0f} | {holds} |")
        print(out[-1], f"({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default=None, help="comma list of ruleset ids (default: all)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=200,
                   help="games of random against heuristic (default 200, seconds)")
    p.add_argument("--search-games", type=int, default=600,
                   help="games of heuristic against search (default 600, about 3 minutes a "
                        "ruleset on 2 cores)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--rungs", default="heuristic,search",
                   help="which rungs to measure, by their stronger bot (default both); the "
                        "rows of rungs not measured are kept from the current page")
    args = p.parse_args()
    rungs = {r.strip() for r in args.rungs.split(",") if r.strip()}
    chosen = ([find_ruleset(x).id for x in args.rules.split(",")] if args.rules
              else [r.id for r in rulesets()])
    old: dict[tuple[str, str], str] = {}
    if DOC.exists():
        for line in DOC.read_text().splitlines():
            m = re.match(r"\| ([\w-]+) \| \d+ \| \w+ → (\w+) \|", line)
            if m:
                old[m.group(1), m.group(2)] = line
    games = {"heuristic": args.games, "search": args.search_games}
    new: dict[tuple[str, str], str] = {}
    for rid in chosen:
        for line, (_, strong) in zip(
            rows_for(rid, args.players, games, args.seed, args.jobs, rungs),
            [r for r in RUNGS if r[1] in rungs], strict=True,
        ):
            new[rid, strong] = line
    order = [r.id for r in rulesets()]
    lines = []
    for rid in order:
        for _, strong in RUNGS:
            row = new.get((rid, strong)) or old.get((rid, strong))
            if row is not None:
                lines.append(row)
    DOC.write_text(
        "# The bot ladder\n\n"
        "Each rung is a tournament of two bots at the table (`commerce tournament --bots "
        "WEAK,STRONG`): seat rotation over replayed deals, so every bot plays every seat on the "
        "same cards. The difference is the stronger bot's mean payoff per game (one seat, in the "
        "ruleset's unit: stakes, tokens, counters or points) minus the weaker's, with its 95% "
        "t-interval over blocks of replayed deals; a "
        "rung holds when the interval excludes 0. Ratings are Bradley-Terry on the Elo scale "
        "(mean 1500) from every two seats of different bots in a game. The search bot plays at "
        "its default budget.\n\n"
        f"Regenerate with `PYTHONPATH=src python scripts/ladder.py` (seed {args.seed}; "
        "`--rules` and `--rungs` remeasure some rows and keep the others; each row gives its "
        "own number of games).\n\n" + HEADER + "\n".join(lines) + "\n"
    )
    print(f"wrote {DOC}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
