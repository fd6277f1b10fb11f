"""The learned player's figures: balanced tournaments of trained models against our bots.

    COMMERCE_MODELS=DIR PYTHONPATH=src python scripts/learned_figures.py \\
        --models peel-s1,peel-s2,peel-s3 --games 1000 --seed 9001 --json /tmp/learned.json

For each model (``learned:model=NAME``, greedy), ``commerce tournament``'s balanced blocks
(every rotation of the sorted bot order and of its mirror, on the same deals) in Peel with
four seats: head to head against the heuristic bot, head to head against the random bot, and
at the mixed table (the model, heuristic, random). Each line: the model's payoff a game minus
its opponent's (paired by block) with the 95% interval over blocks, the games played, and
the seconds. Then, over the models, the mean and the worst of each figure. The evaluation
seed is apart from the training seeds (the training deals come from its own seed's streams).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from commerce.apps.tournament import tournament
from commerce.rules import find_ruleset


def _pair(result: dict[str, Any], a: str, b: str) -> tuple[float, list[float]]:
    for p in result["pairs"]:
        if p["a"] == a and p["b"] == b:
            return float(p["diff"]), [float(x) for x in p["ci95"]]
        if p["a"] == b and p["b"] == a:
            return -float(p["diff"]), [-float(p["ci95"][1]), -float(p["ci95"][0])]
    raise KeyError((a, b))


def main() -> None:
    """Run the tournaments and print the table."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--models", required=True, help="model names, comma-separated")
    p.add_argument("--rules", default="peel")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=9001)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--pairings", default="heuristic,random,mixed",
                   help="which of heuristic, random, mixed, search:ms=N (head to head)")
    p.add_argument("--json", default=None)
    args = p.parse_args()
    rules = find_ruleset(args.rules)
    rows: list[dict[str, Any]] = []
    for name in [m.strip() for m in args.models.split(",") if m.strip()]:
        me = f"learned:model={name}"
        for pairing in args.pairings.split(","):
            bots = [me, "heuristic", "random"] if pairing == "mixed" else [me, pairing]
            start = time.monotonic()
            result = tournament(rules, players=args.players, bots=bots, games=args.games,
                                seed=args.seed, jobs=args.jobs)
            seconds = time.monotonic() - start
            for other in bots[1:]:
                diff, ci = _pair(result, me, other)
                row = {"model": name, "table": pairing, "vs": other, "diff": diff, "ci95": ci,
                       "payoff": result["payoff"][me], "games": result["games"],
                       "seconds": round(seconds, 1)}
                rows.append(row)
                print(f"{name:10} {pairing:10} − {other:10} {diff:+.3f} "
                      f"[{ci[0]:+.3f}, {ci[1]:+.3f}] a game, {result['games']} games, "
                      f"{seconds:.0f} s", flush=True)
    print()
    for key in sorted({(r["table"], r["vs"]) for r in rows}):
        diffs = [r["diff"] for r in rows if (r["table"], r["vs"]) == key]
        print(f"{key[0]:10} − {key[1]:10} mean {sum(diffs) / len(diffs):+.3f}, worst "
              f"{min(diffs):+.3f} over {len(diffs)} model(s)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"rules": args.rules, "players": args.players, "seed": args.seed,
                       "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
