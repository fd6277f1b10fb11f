"""The speed users see, beside the engine's and a peer's, for one tree or two in one run.

Three figures, each in player decisions (or actions) per second:

- ``simulate``: what ``commerce simulate --bots random`` runs (the driver, random bots,
  records), 4 players of Peel;
- ``engine``: random playouts through the checked public API alone
  (:func:`commerce.simulate.playout_decisions_per_s`);
- ``kuhn``: OpenSpiel's pure-Python Kuhn poker, the project's yardstick (needs ``open_spiel``).

Run one tree::

    PYTHONPATH=src python scripts/bench_paths.py

or compare two checkouts in one run, the workers alternating (old, new, old, new ...), each
figure the median over the rounds, with the ratios new/old taken round by round::

    python scripts/bench_paths.py --old ../old/src --new src --rounds 5

Use an interpreter that has the project's requirements (and ``open_spiel`` for the yardstick).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time


def simulate_rate(seconds: float, rules_id: str = "peel") -> float:
    """Decisions per second of :func:`commerce.simulate.simulate` with random bots."""
    from commerce.rules import find_ruleset
    from commerce.simulate import simulate

    rules = find_ruleset(rules_id)
    simulate(rules, players=4, games=20, seed=0, bots=["random"])  # warm-up
    decisions, batch = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        result = simulate(rules, players=4, games=50, seed=batch, bots=["random"])
        decisions += int(result["decisions"])
        batch += 1
    return decisions / (time.perf_counter() - start)


def engine_rate(seconds: float, rules_id: str = "peel") -> float:
    """Decisions per second of random playouts through the checked public API."""
    from commerce.rules import find_ruleset
    from commerce.simulate import playout_decisions_per_s

    return playout_decisions_per_s(find_ruleset(rules_id), 4, seconds=seconds)


def kuhn_rate(seconds: float, name: str = "python_kuhn_poker") -> float | None:
    """OpenSpiel's pure-Python Kuhn poker (or another OpenSpiel game *name*), random play
    with chance sampled from its outcomes: player actions per second (None if absent)."""
    try:
        import pyspiel
        from open_spiel.python.games import kuhn_poker  # noqa: F401  (registers the game)
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    rng = random.Random(0)
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                count += 1
    return count / (time.perf_counter() - start)


def worker(seconds: float, rules_id: str) -> dict[str, float | None]:
    """One measurement of each figure in this interpreter."""
    return {"simulate": simulate_rate(seconds, rules_id), "engine": engine_rate(seconds, rules_id),
            "kuhn": kuhn_rate(seconds)}


def _run_worker(src: str, seconds: float, rules_id: str) -> dict[str, float | None]:
    env = {**os.environ, "PYTHONPATH": src}
    out = subprocess.run([sys.executable, __file__, "--worker", "--seconds", str(seconds),
                          "--rules", rules_id], env=env, capture_output=True, text=True,
                         check=True)
    result: dict[str, float | None] = json.loads(out.stdout)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="per figure per round")
    parser.add_argument("--rules", default="peel")
    parser.add_argument("--old", help="the old tree's src folder")
    parser.add_argument("--new", help="the new tree's src folder")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker or not (args.old and args.new):
        print(json.dumps(worker(args.seconds, args.rules)))
        return 0
    rows: dict[str, list[dict[str, float | None]]] = {"old": [], "new": []}
    for _ in range(args.rounds):
        for name in ("old", "new"):
            rows[name].append(_run_worker(getattr(args, name), args.seconds, args.rules))
    report: dict[str, object] = {"rules": args.rules, "rounds": args.rounds}
    for name, runs in rows.items():
        for key in ("simulate", "engine", "kuhn"):
            values = [r[key] for r in runs if r[key] is not None]
            if values:
                report[f"{name}_{key}"] = round(statistics.median(v for v in values if v), 1)
    for key in ("simulate", "engine"):
        ratios = [n[key] / o[key] for o, n in zip(rows["old"], rows["new"], strict=True)
                  if n[key] and o[key]]
        report[f"ratio_new_to_old_{key}"] = round(statistics.median(ratios), 3)
        kuhn = [n[key] / n["kuhn"] for n in rows["new"] if n[key] and n["kuhn"]]
        if kuhn:
            report[f"ratio_new_{key}_to_kuhn"] = round(statistics.median(kuhn), 3)
    report["note"] = "ratios are medians of the per-round ratios (old and new alternate)"
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
