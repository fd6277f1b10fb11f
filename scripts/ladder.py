"""Regenerate docs/ladder.md: the bot ladder of every preset at 4 players, with 95% intervals.

    PYTHONPATH=src python scripts/ladder.py                 # every registered preset
    PYTHONPATH=src python scripts/ladder.py --rules peel    # only some (comma list)
    PYTHONPATH=src python scripts/ladder.py --mixed --rules trade-and-barter --jobs 1

Every figure comes from the command people use, ``commerce tournament ... --json``, run as a
process: for each preset a tournament of random against heuristic and one of heuristic
against search (default budget). A rung holds when the 95% interval of (stronger - weaker)
payoff per game excludes 0. With ``--mixed``, instead the mixed table: random, heuristic and
search seated together, whose blocks seat every bot on each side of the others alike
(:func:`commerce.apps.tournament.block_lineups`). Rulesets not given with --rules keep their rows
from the existing file. The page's prose is written in docs/ladder.md itself: the script
rewrites only the rows of its two tables (:func:`with_rows`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from commerce.rules import find_ruleset, rulesets

DOC = Path(__file__).resolve().parent.parent / "docs" / "ladder.md"
RUNGS = (("random", "heuristic"), ("heuristic", "search"))
HEADER = ("| ruleset | players | rung | games | stronger − weaker per game | 95% interval "
          "| ratings (weaker, stronger) | holds |\n"
          "|---|---|---|---|---|---|---|---|\n")
MIXED = ("random", "heuristic", "search")
MIXED_HEADER = ("| ruleset | players | games | random | heuristic | search "
                "| search − heuristic | search first |\n"
                "|---|---|---|---|---|---|---|---|\n")
SKELETON = ("# The bot ladder\n\nRegenerate with `PYTHONPATH=src python scripts/ladder.py`.\n\n"
            + HEADER + "\n## The mixed table\n\n" + MIXED_HEADER)
"""The page before its first measurement (the prose is written in the page itself, which
this script keeps: it rewrites only the rows of its two tables)."""


def with_rows(page: str, header: str, rows: list[str]) -> str:
    """*page* with the rows of the table headed by *header* replaced by *rows*.

    >>> with_rows("a\\n| x |\\n|---|\\n| 1 |\\n\\nb\\n", "| x |\\n|---|\\n", ["| 2 |"])
    'a\\n| x |\\n|---|\\n| 2 |\\n\\nb\\n'
    """
    start = page.find(header)
    if start < 0:
        raise SystemExit(f"{DOC}: no table headed {header.splitlines()[0]!r}")
    end = start + len(header)
    rest = page[end:].split("\n")
    kept = 0
    while kept < len(rest) and rest[kept].startswith("|"):
        kept += 1
    return page[:end] + "".join(row + "\n" for row in rows) + "\n".join(rest[kept:])


def command(rules_id: str, players: int, bots: tuple[str, ...], games: int, seed: int,
            jobs: int, engine: str = "auto") -> dict[str, Any]:
    """What ``commerce tournament ... --json`` prints, run as its own process."""
    argv = [sys.executable, "-m", "commerce", "tournament", "--rules", rules_id,
            "--players", str(players), "--bots", ",".join(bots), "--games", str(games),
            "--seed", str(seed), "--jobs", str(jobs), "--engine", engine, "--json"]
    done = subprocess.run(argv, capture_output=True, text=True, env=os.environ.copy(),
                          check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv[2:])}: {done.stderr.strip()}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def pair(result: dict[str, Any], a: str, b: str) -> tuple[float, float, float]:
    """The difference ``a - b`` per game and its 95% interval, from a tournament's pairs
    (each listed with the bot that scored more first).

    >>> pair({"pairs": [{"a": "x", "b": "y", "diff": 1.5, "ci95": [0.5, 2.5]}]}, "y", "x")
    (-1.5, -2.5, -0.5)
    """
    for p in result["pairs"]:
        lo, hi = p["ci95"]
        if (p["a"], p["b"]) == (a, b):
            return p["diff"], lo, hi
        if (p["a"], p["b"]) == (b, a):
            return -p["diff"], -hi, -lo
    raise KeyError((a, b))


def mixed_row(rules_id: str, players: int, games: int, seed: int, jobs: int) -> str:
    """The mixed table's row of one ruleset."""
    rules = find_ruleset(rules_id)
    n = min(max(players, rules.min_players), rules.max_players)
    start = time.perf_counter()
    r = command(rules.id, n, MIXED, games, seed, jobs)
    cells = []
    for b in MIXED:
        lo, hi = r["ci95"][b]
        cells.append(f"{r['payoff'][b]:+.2f} [{lo:+.2f}, {hi:+.2f}]")
    diff, plo, phi = pair(r, "search", "heuristic")
    first = r["ci95"]["search"][0] > max(r["ci95"]["random"][1], r["ci95"]["heuristic"][1])
    row = (f"| {rules.id} | {n} | {r['games']} | {' | '.join(cells)} | "
           f"{diff:+.2f} [{plo:+.2f}, {phi:+.2f}] | {'yes' if first else '**no**'} |")
    print(row, f"({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    return row


def rows_for(rules_id: str, players: int, games: dict[str, int], seed: int,
             jobs: int, rungs: set[str]) -> list[str]:
    rules = find_ruleset(rules_id)
    n = min(max(players, rules.min_players), rules.max_players)
    out = []
    for weak, strong in RUNGS:
        if strong not in rungs:
            continue
        start = time.perf_counter()
        r = command(rules.id, n, (weak, strong), games[strong], seed, jobs)
        diff, lo, hi = pair(r, strong, weak)
        holds = "yes" if lo is not None and lo > 0 else "**no**"
        out.append(f"| {rules.id} | {n} | {weak} → {strong} | {r['games']} | "
                   f"{diff:+.2f} | [{lo:+.2f}, {hi:+.2f}] | "
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
    p.add_argument("--mixed", action="store_true",
                   help="measure the mixed table (random, heuristic and search together) "
                        "instead of the rungs")
    p.add_argument("--rewrite", action="store_true",
                   help="measure nothing: write the page again from its rows")
    p.add_argument("--print", action="store_true",
                   help="print the table (the ladder's, or with --mixed the mixed table's) "
                        "instead of writing the page: scripts/figures.py runs this")
    p.add_argument("--mixed-games", type=int, default=120,
                   help="games of the mixed table (default 120; rounded up to whole blocks "
                        "of 6)")
    p.add_argument("--quick", action="store_true",
                   help="Peel alone, a dozen games a rung and at the mixed table, one "
                        "process: a check that the table is made")
    args = p.parse_args()
    if args.quick:
        args.rules, args.games, args.search_games, args.mixed_games, args.jobs = (
            "peel", 12, 12, 12, 1)
    rungs = {r.strip() for r in args.rungs.split(",") if r.strip()}
    chosen = ([find_ruleset(x).id for x in args.rules.split(",")] if args.rules
              else [r.id for r in rulesets()])
    if args.rewrite:
        chosen = []
    old: dict[tuple[str, str], str] = {}
    old_mixed: dict[str, str] = {}
    if DOC.exists():
        for line in DOC.read_text().splitlines():
            m = re.match(r"\| ([\w-]+) \| \d+ \| \w+ → (\w+) \|", line)
            if m:
                old[m.group(1), m.group(2)] = line
            m = re.match(r"\| ([\w-]+) \| \d+ \| \d+ \| [+-]", line)
            if m:
                old_mixed[m.group(1)] = line
    games = {"heuristic": args.games, "search": args.search_games}
    new: dict[tuple[str, str], str] = {}
    new_mixed: dict[str, str] = {}
    for rid in chosen:
        if args.mixed:
            new_mixed[rid] = mixed_row(rid, args.players, args.mixed_games, args.seed, args.jobs)
            continue
        for line, (_, strong) in zip(
            rows_for(rid, args.players, games, args.seed, args.jobs, rungs),
            [r for r in RUNGS if r[1] in rungs], strict=True,
        ):
            new[rid, strong] = line
    order = [r.id for r in rulesets()]
    lines = []
    mixed_lines = []
    for rid in order:
        for _, strong in RUNGS:
            row = new.get((rid, strong)) or old.get((rid, strong))
            if row is not None:
                lines.append(row)
        row = new_mixed.get(rid) or old_mixed.get(rid)
        if row is not None:
            mixed_lines.append(row)
    if args.print:
        print((MIXED_HEADER if args.mixed else HEADER)
              + "\n".join(mixed_lines if args.mixed else lines))
        return 0
    page = DOC.read_text() if DOC.exists() else SKELETON
    DOC.write_text(with_rows(with_rows(page, HEADER, lines), MIXED_HEADER, mixed_lines))
    print(f"wrote {DOC}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
