"""Regenerate docs/ladder.md: the bot ladder of every preset at 4 players, with 95% intervals.

    PYTHONPATH=src python scripts/ladder.py                 # every registered preset
    PYTHONPATH=src python scripts/ladder.py --rules peel    # only some (comma list)
    PYTHONPATH=src python scripts/ladder.py --mixed --rules trade-and-barter --jobs 1

For each preset: a tournament of random against heuristic and one of heuristic against
search (default budget), each with seat rotation over replayed deals (commerce.tournament).
A rung holds when the 95% interval of (stronger - weaker) payoff per game excludes 0.
With ``--mixed``, instead the mixed table: random, heuristic and search seated together
(:func:`mixed_table`). Rulesets not given with --rules keep their rows from the existing file.
The page's prose is written in docs/ladder.md itself: the script rewrites only the rows of its
two tables (:func:`with_rows`).
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import time
from pathlib import Path
from typing import Any

from commerce.bots import make_bot
from commerce.driver import play_game
from commerce.rules import Ruleset, find_ruleset, rulesets
from commerce.simulate import game_seed
from commerce.tournament import BlockResult, block_lineups, run_blocks, summarize, tournament

DOC = Path(__file__).resolve().parent.parent / "docs" / "ladder.md"
RUNGS = (("random", "heuristic"), ("heuristic", "search"))
HEADER = ("| ruleset | players | rung | games | stronger − weaker per game | 95% interval "
          "| ratings (weaker, stronger) | holds |\n"
          "|---|---|---|---|---|---|---|---|\n")
MIXED = ("random", "heuristic", "search")
ORDERS = ((0, 1, 2), (0, 2, 1))
"""The two seating orders of the mixed table's bots (every other order is one of these,
rotated): with three bots at four seats, seat rotation alone seats each bot beside the others
in different places, and a seat's neighbours decide much of its payoff (in Trade and Barter,
one heuristic listed after another earned +1.69 a game and the same bot listed third +0.49
over 600 games); the second order mirrors the first, so every bot sits in the same places."""
MIXED_HEADER = ("| ruleset | players | games | random | heuristic | search "
                "| search − heuristic | search first |\n"
                "|---|---|---|---|---|---|---|---|\n")
_MIXED_WORKER: dict[str, object] = {}
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


def _mixed_init(rules: Ruleset, players: int, seed: int, specs: tuple[str, ...]) -> None:
    _MIXED_WORKER.update(rules=rules, players=players, seed=seed,
                         bots=[make_bot(b) for b in specs])


def _mixed_block(block: int) -> BlockResult:
    """One block of the mixed table: both seating orders, each rotated, on the same deals."""
    w = _MIXED_WORKER
    rules, players, seed, bots = w["rules"], w["players"], w["seed"], w["bots"]
    assert isinstance(rules, Ruleset) and isinstance(players, int) and isinstance(seed, int)
    assert isinstance(bots, list)
    out: BlockResult = []
    for order in ORDERS:
        for lineup in block_lineups(len(order), players):
            seats = tuple(order[k] for k in lineup)
            record = play_game(rules, [bots[k] for k in seats], seed=game_seed(seed, block),
                               fast=True)
            assert record.payoffs is not None
            out.append((seats, tuple(record.payoffs)))
    return out


def mixed_table(rules: Ruleset, players: int, games: int, seed: int, jobs: int,
                bots: tuple[str, ...] = MIXED) -> dict[str, Any]:
    """Three *bots* (random, heuristic and search) at one table of *players*: about *games*
    games in blocks of six on the same deals (both :data:`ORDERS`, each with seat rotation);
    the figures of :func:`commerce.tournament.summarize`, each block one sample, and
    ``"blocks_played"``: each block's games as (bot index of each seat, payoffs)."""
    blocks = max(1, math.ceil(games / (len(ORDERS) * len(bots))))
    results = run_blocks((rules, players, seed, bots), blocks, jobs, _mixed_block, _mixed_init)
    summary = summarize(rules, players, bots, seed, results)
    summary["games"] = blocks * len(ORDERS) * len(bots)
    summary["blocks_played"] = results
    return summary


def mixed_row(rules_id: str, players: int, games: int, seed: int, jobs: int) -> str:
    """The mixed table's row of one ruleset."""
    rules = find_ruleset(rules_id)
    n = min(max(players, rules.min_players), rules.max_players)
    start = time.perf_counter()
    r = mixed_table(rules, n, games, seed, jobs)
    cells = []
    for b in MIXED:
        lo, hi = r["ci95"][b]
        cells.append(f"{r['payoff'][b]:+.2f} [{lo:+.2f}, {hi:+.2f}]")
    pair = next(p for p in r["pairs"] if (p["a"], p["b"]) == ("search", "heuristic"))
    plo, phi = pair["ci95"]
    first = r["ci95"]["search"][0] > max(r["ci95"]["random"][1], r["ci95"]["heuristic"][1])
    row = (f"| {rules.id} | {n} | {r['games']} | {' | '.join(cells)} | "
           f"{pair['diff']:+.2f} [{plo:+.2f}, {phi:+.2f}] | {'yes' if first else '**no**'} |")
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
    p.add_argument("--mixed", action="store_true",
                   help="measure the mixed table (random, heuristic and search together) "
                        "instead of the rungs")
    p.add_argument("--rewrite", action="store_true",
                   help="measure nothing: write the page again from its rows")
    p.add_argument("--mixed-games", type=int, default=120,
                   help="games of the mixed table (default 120; rounded up to blocks of 6)")
    args = p.parse_args()
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
    page = DOC.read_text() if DOC.exists() else SKELETON
    DOC.write_text(with_rows(with_rows(page, HEADER, lines), MIXED_HEADER, mixed_lines))
    print(f"wrote {DOC}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
