"""Random-playout speed of Commerce beside two peers, measured in one process and one run.

The peers are not dependencies of Commerce; install them in a separate environment:

    python3 -m venv /tmp/peers
    /tmp/peers/bin/pip install open_spiel==2.0.2 rlcard==1.2.0 numpy
    PYTHONPATH=src /tmp/peers/bin/python scripts/peer_bench.py

Prints one JSON object: player decisions per second (median of the repeats) for Peel's
4-player Commerce through the checked public API, OpenSpiel's pure-Python Kuhn poker
(player actions, chance sampled from ``chance_outcomes``) and RLCard's UNO (``env.step`` calls
with random legal actions), and the ratios of Commerce to each peer.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections.abc import Callable

REPEATS = 5
SECONDS = 1.0


def commerce_rate() -> float:
    from commerce.rules import find_ruleset
    from commerce.simulate import playout_decisions_per_s

    return playout_decisions_per_s(find_ruleset("peel"), 4, seconds=SECONDS)


def kuhn_rate() -> float:
    import pyspiel
    from open_spiel.python.games import kuhn_poker  # noqa: F401  (registers the Python game)

    game = pyspiel.load_game("python_kuhn_poker")
    rng = random.Random(0)
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < SECONDS:
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


def uno_rate() -> float:
    import rlcard

    env = rlcard.make("uno", config={"seed": 0})
    rng = random.Random(0)
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            count += 1
    return count / (time.perf_counter() - start)


def median_rate(fn: Callable[[], float]) -> float:
    fn()  # warm-up
    return statistics.median(fn() for _ in range(REPEATS))


def main() -> int:
    result: dict[str, float | str] = {
        "commerce_peel_4p_decisions_per_s": median_rate(commerce_rate)
    }
    for key, fn in (("openspiel_python_kuhn_actions_per_s", kuhn_rate),
                    ("rlcard_uno_steps_per_s", uno_rate)):
        try:
            result[key] = median_rate(fn)
        except ImportError as exc:
            result[key] = f"not installed ({exc.name})"
    for key in ("openspiel_python_kuhn_actions_per_s", "rlcard_uno_steps_per_s"):
        peer = result[key]
        if isinstance(peer, float):
            ratio = float(result["commerce_peel_4p_decisions_per_s"]) / peer
            result["ratio_commerce_to_" + key.split("_")[0]] = round(ratio, 3)
    json.dump(result, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
