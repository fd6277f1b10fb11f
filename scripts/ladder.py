"""Regenerate docs/ladder.md: the bot ladder of every preset at 4 players, with 95% intervals.

    PYTHONPATH=src python scripts/ladder.py                 # every registered preset
    PYTHONPATH=src python scripts/ladder.py --rules peel    # only some (comma list)
    PYTHONPATH=src python scripts/ladder.py --mixed --rules trade-and-barter --jobs 1

For each preset: a tournament of random against heuristic and one of heuristic against
search (default budget), each with seat rotation over replayed deals (commerce.tournament).
A rung holds when the 95% interval of (stronger - weaker) payoff per game excludes 0.
With ``--mixed``, instead the mixed table: random, heuristic and search seated together
(:func:`mixed_table`). Rulesets not given with --rules keep their rows from the existing file.
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
NOTES = """## What was measured in Trade and Barter

Before the mixed table had both seating orders, the heuristic earned +1.41 a game and
search +0.51 over 240 games (seed 1, random, heuristic, search rotated). The same heuristic
under a second name (`heuristic:boldness=0.5`) in search's place earned +0.49 beside the
first's +1.69 over 600 games: the seat's neighbours, not the bot, made that gap. In the same
seating, over 240 games each: search drawing its states by the plain determinisation instead
of replaying the deal earned +0.44; keeping the heuristic's choice unless another was two
standard errors better, +0.46. With seat 0 against random, heuristic, random (150 games, the
same deals), the heuristic earned +2.59, search +2.51, and search whose playouts knew which
seats play at random +2.48: assuming that every other seat plays the heuristic costs it
nothing measurable. Against the heuristic (300 games, seed 1), search weighing every trade
and the knock gained +0.08 [-0.17, +0.33] a game, and weighing only the knock, the
heuristic's choice and its trade +0.21 [+0.00, +0.42]: most of what it lost was chance picks
among trades that differ little.

In Peel the opponent model does matter: with seat 0 against random, heuristic, random (120
games, the same deals) the heuristic earned +3.63, search +3.28, and search whose playouts
knew which seats play at random +4.56. Search now plays out at random the seats that its view
shows playing unlike the heuristic (a stand in the last deal on a hand the heuristic would not
stand on; a barter where a trade was free). At Peel's mixed table (360 games, seed 1) search
earned +1.71 [+1.36, +2.06] a game without it, beside the heuristic's +1.60 [+1.23, +1.98]
(paired: +0.10 [-0.51, +0.72]), and +1.84 [+1.48, +2.21] with it, beside +1.46 [+1.07, +1.85]
(paired: +0.38 [-0.27, +1.03]): first, but the intervals still overlap. A heuristic seat is
never taken for a random one (a test checks it), so a table of heuristic bots plays as before.
"""
TIMES = """## Levels and time per decision

`search` plays its default budget (playouts per decision: 500 in the trading family, 300 in
Pool Commerce, 120 in the other widow games, 64 in Cox's game), and stops drawing states once
the next might end past 190 ms. `search-fast` plays a tenth of those playouts and keeps the
heuristic's own choice unless another action's paired gain over it exceeds one standard error.
Against the heuristic (seed 1): in Peel, `search-fast` +0.59 [+0.30, +0.88] a game over 600
games, where `search` gains +0.69 [+0.35, +1.03] over 600; in Trade and Barter, `search-fast`
(taking the best mean, before it kept to the heuristic) +0.12 [-0.10, +0.34] over 300, where
`search` gained +0.07 [-0.10, +0.24] over 600 before its candidates were pruned.

Milliseconds per decision with more than one legal action (median/95th percentile/99th/
slowest) and playouts per decision (median), seat 0 against three heuristic bots:
`scripts/bench_search.py --rules RULES --games G [--bot search-fast]` (G = 6 in Trade and
Barter, 3 in the other trading games and Pool Commerce, 1 in the other widow games and Cox's
game), under `nice -n 5` on a machine of 2 cores shared with a tournament running at a lower
priority (load about 2.7). "before" is the code before the 190 ms cap, measured in an earlier,
busier hour (load 3 to 6). Since a drawn state whose playouts run past the time is abandoned
between two playouts (it counts for nothing), no decision overruns by more than one playout:
every 99th percentile is within 200 ms and the slowest decision took 174 ms (Cox's game).

| ruleset | decisions | before | playouts | search | playouts | search-fast | playouts |
|---|---|---|---|---|---|---|---|
| trade-and-barter | 22 | 203/393/416/416 | 500 | 52/96/115/115 | 500 | 6/16/18/18 | 50 |
| peel | 12 | 414/1642/1642/1642 | 500 | 57/76/76/76 | 500 | 5/7/7/7 | 50 |
| hoyle | 16 | 527/1250/1250/1250 | 500 | 52/98/98/98 | 499 | 6/9/9/9 | 50 |
| peel-old | 12 | 196/392/472/472 | 120 | 23/38/38/38 | 119 | 5/8/8/8 | 23 |
| pool | 88 | 312/509/570/570 | 300 | 39/53/65/65 | 299 | 5/8/9/9 | 29 |
| widow | 142 | 111/392/577/879 | 120 | 19/35/41/42 | 120 | 2/6/9/11 | 13 |
| pounce | 211 | 30/92/131/148 | 120 | 21/36/40/48 | 120 | 3/8/10/10 | 13 |
| no-pair-or-point | 272 | 34/240/467/627 | 120 | 16/33/43/44 | 120 | 3/6/8/8 | 13 |
| cox | 33 | 182/321/486/486 | 64 | 106/158/174/174 | 64 | 8/16/20/20 | 5 |
| vingt-un | 203 | – | – | 0.2/0.3/0.4/0.5 | 0 | 0.2/0.3/0.4/0.5 | 0 |

Vingt-un's search plays no playouts: it works each decision out from the chances of the unseen
cards (`commerce.families.vingtun.expect`; 3 games; `search-fast` makes the same reckoning, and
the playout search it replaced was not timed).
Before a long drawn state could be abandoned, Hoyle's slowest decisions took 305 ms (295 ms
for `search-fast`), in a moment when the machine gave the process a fraction of a core: a single
drawn state's playouts took longer than the whole budget.
"""


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
        "own number of games).\n\n" + HEADER + "\n".join(lines) + "\n\n"
        "## The mixed table\n\n"
        "Random, heuristic and search seated together (`--mixed`): each bot's mean payoff per "
        "game (one seat) with its 95% interval, over blocks of six games on the same deals, "
        "in both seating orders (random, heuristic, search and random, search, heuristic, each "
        "rotated round the table), so that every bot sits beside the others in the same places "
        "(with one order only, a seat's neighbours, not its bot, decided much of the result). "
        "Search is first when its interval lies above both others'; the search − heuristic "
        "column is paired by block.\n\n"
        "Regenerate with `PYTHONPATH=src python scripts/ladder.py --mixed` (seed 1, 120 games "
        "unless the row says otherwise).\n\n" + MIXED_HEADER + "\n".join(mixed_lines) + "\n\n"
        + NOTES + "\n" + TIMES
    )
    print(f"wrote {DOC}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
