"""Random-playout speed of Commerce beside its peers, measured in one process and one run.

The peers are not dependencies of Commerce. OpenSpiel comes with the project's ``openspiel``
extra (``./dev test`` installs it); RLCard goes into a folder of its own::

    .venv/bin/python -m pip install --target /tmp/rlcard rlcard==1.2.0 termcolor --no-deps
    PYTHONPATH=src:/tmp/rlcard .venv/bin/python scripts/peer_bench.py            # the yardsticks
    PYTHONPATH=src:/tmp/rlcard .venv/bin/python scripts/peer_bench.py --table    # every figure

Without ``--table``: one JSON object with player decisions per second (median of the repeats)
for Peel's 4-player Commerce through the checked public API, OpenSpiel's pure-Python Kuhn poker
(player actions, chance sampled from ``chance_outcomes``) and RLCard's UNO (``env.step`` calls
with random legal actions), and the ratios of Commerce to each peer.

With ``--table``: every speed figure of the project (the reference engine, ``simulate`` on the
fast path, the compiled kernel with random and heuristic players on one thread and on every
core, and the research API's PettingZoo, Gymnasium and OpenSpiel environments) beside
OpenSpiel's Python and C++ games and RLCard's, all random play, all in this run, as the
Markdown table of ``docs/performance.md`` (each figure the median of the repeats; the ratio is
to OpenSpiel's pure-Python Kuhn poker, the project's yardstick).
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
    return _spiel_rate("python_kuhn_poker")


def _spiel_rate(name: str) -> float:
    """Random play of the OpenSpiel game *name* (``scripts/bench_paths.py``'s loop)."""
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from scripts.bench_paths import kuhn_rate as spiel_loop

    rate = spiel_loop(SECONDS, name)
    if rate is None:
        raise ImportError("open_spiel is not installed", name="open_spiel")
    return rate


def uno_rate() -> float:
    return rlcard_rate("uno")()


def median_rate(fn: Callable[[], float]) -> float:
    fn()  # warm-up
    return statistics.median(fn() for _ in range(REPEATS))


def spiel_cpp_rate(name: str) -> Callable[[], float]:
    """Random play of OpenSpiel's C++ game *name*, driven from Python (player actions/s)."""
    return lambda: _spiel_rate(name)


def rlcard_rate(name: str) -> Callable[[], float]:
    """Random play of RLCard's *name* environment (``env.step`` calls/s)."""
    def rate() -> float:
        import rlcard

        env = rlcard.make(name, config={"seed": 0})
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
    return rate


def simulate_rate() -> float:
    """``commerce simulate --engine reference --bots random``: the driver on the fast path."""
    from commerce.rules import find_ruleset
    from commerce.simulate import simulate

    rules = find_ruleset("peel")
    decisions, batch = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        decisions += int(simulate(rules, players=4, games=50, seed=batch,
                                  bots=["random"])["decisions"])
        batch += 1
    return decisions / (time.perf_counter() - start)


def kernel_rate(bot: str, threads: int, rules_id: str = "peel") -> Callable[[], float]:
    """The compiled kernel, *rules_id* (Peel), four players of *bot*, on *threads* threads."""
    def rate() -> float:
        from commerce.compiled import build_kernel, run_batch
        from commerce.rules import find_ruleset

        rules = find_ruleset(rules_id)
        kernel = build_kernel(rules, 4)
        games = (200_000 if bot == "random" else 50_000) if rules.family == "trading" \
            else 4_000  # a widow session or a game of Cox's is hundreds of decisions
        run_batch(rules, players=4, games=1000, seed=0, bots=[bot], kernel=kernel,
                  threads=threads)  # compiled (or loaded from the cache) before timing
        start = time.perf_counter()
        result = run_batch(rules, players=4, games=games, seed=1, bots=[bot], kernel=kernel,
                           threads=threads)
        return float(result.decisions.sum()) / (time.perf_counter() - start)
    return rate


def research_rate(api: str) -> Callable[[], float]:
    """Peel through the research API (``scripts/bench_rl.py``'s loops): steps per second."""
    def rate() -> float:
        from pathlib import Path

        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from commerce.rules import find_ruleset
        from scripts import bench_rl

        rules = find_ruleset("peel")
        if api == "pettingzoo":
            return bench_rl.aec_rate(rules, SECONDS)[0]
        if api == "gymnasium":
            return bench_rl.gym_rate(rules, SECONDS, "random")[0]
        return bench_rl.spiel_rate(rules, SECONDS)[0]
    return rate


def vector_rate(rules_id: str) -> Callable[[], float]:
    """The compiled vector environment (``commerce.rl.vector``), 1,024 games of *rules_id* at
    four seats, random bots inside, a random learner drawing from the mask: env steps."""
    def rate() -> float:
        import numpy as np

        from commerce.rl.vector import CommerceVectorEnv

        envs = 1024
        env = CommerceVectorEnv(rules_id, 4, num_envs=envs, opponents="random", seed=1)
        rng = np.random.default_rng(0)
        _obs, info = env.reset()

        def step() -> None:
            nonlocal info
            noise = rng.random(info["action_mask"].shape, dtype=np.float32)
            actions = np.argmax(np.where(info["action_mask"] == 1, noise + 1.0, noise - 1.0),
                                axis=1)
            info = env.step(actions)[4]

        step()  # compiled (or loaded from the cache) before timing
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < SECONDS:
            step()
            steps += envs
        env.close()
        return steps / (time.perf_counter() - start)
    return rate


ROWS: tuple[tuple[str, str, str, Callable[[], float]], ...] = (
    ("Commerce", "Peel, 4 players: reference engine (`engine.apply`, checked)",
     "player decisions", commerce_rate),
    ("Commerce", "Peel, 4 players: `simulate --engine reference` (driver, fast path)",
     "player decisions", simulate_rate),
    ("Commerce", "Peel, 4 players: compiled kernel, random, 1 thread", "player decisions",
     kernel_rate("random", 1)),
    ("Commerce", "Peel, 4 players: compiled kernel, random, every core", "player decisions",
     kernel_rate("random", 0)),
    ("Commerce", "Peel, 4 players: compiled kernel, heuristic, 1 thread", "player decisions",
     kernel_rate("heuristic", 1)),
    ("Commerce", "Peel, 4 players: PettingZoo AEC env", "agent steps",
     research_rate("pettingzoo")),
    ("Commerce", "Peel, 4 players: Gymnasium env (3 random bots inside)", "env steps",
     research_rate("gymnasium")),
    ("Commerce", "Peel, 4 players: OpenSpiel Python game", "player actions",
     research_rate("openspiel")),
    ("Commerce", "Peel, 4 players: compiled vector env (1,024 games, 3 random bots inside)",
     "env steps", vector_rate("peel")),
    ("Commerce", "Widow game, 4 players: compiled kernel, random, every core",
     "player decisions", kernel_rate("random", 0, "widow")),
    ("Commerce", "Widow game, 4 players: compiled vector env (1,024 games, 3 random bots "
     "inside)", "env steps", vector_rate("widow")),
    ("Commerce", "Cox's game, 4 players: compiled kernel, random, every core",
     "player decisions", kernel_rate("random", 0, "cox")),
    ("Commerce", "Cox's game, 4 players: compiled vector env (1,024 games, 3 random bots "
     "inside)", "env steps", vector_rate("cox")),
    ("OpenSpiel", "Kuhn poker, pure Python (`python_kuhn_poker`)", "player actions",
     kuhn_rate),
    ("OpenSpiel", "Kuhn poker, C++ (`kuhn_poker`), stepped from Python", "player actions",
     spiel_cpp_rate("kuhn_poker")),
    ("OpenSpiel", "Leduc poker, C++ (`leduc_poker`), stepped from Python", "player actions",
     spiel_cpp_rate("leduc_poker")),
    ("RLCard", "UNO (`rlcard.make('uno')`)", "env steps", rlcard_rate("uno")),
    ("RLCard", "Leduc Hold'em (`rlcard.make('leduc-holdem')`)", "env steps",
     rlcard_rate("leduc-holdem")),
)
"""The rows of ``--table``: (system, what runs, what is counted, the rate's function)."""


def table() -> str:
    """Every row of :data:`ROWS` measured now, as a Markdown table."""
    import os
    import platform

    rates: list[float | str] = []
    for _, what, _, fn in ROWS:
        try:
            rates.append(median_rate(fn))
        except ImportError as exc:
            rates.append(f"not installed ({exc.name})")
        print(f"{what}: {rates[-1]}", file=sys.stderr)
    kuhn = next(r for (_, w, _, _), r in zip(ROWS, rates, strict=True) if "pure Python" in w)
    lines = [f"Measured {time.strftime('%Y-%m-%d')} on {platform.machine()}, "
             f"{os.cpu_count()} cores, Python {platform.python_version()}; "
             f"median of {REPEATS} runs of {SECONDS:g} s each (`scripts/peer_bench.py --table`).",
             "",
             "| system | what runs (random play) | counted | per second | × Kuhn (Python) |",
             "|---|---|---|---:|---:|"]
    for (system, what, counted, _), rate in zip(ROWS, rates, strict=True):
        if isinstance(rate, float):
            ratio = f"{rate / kuhn:,.2f}" if isinstance(kuhn, float) else "–"
            lines.append(f"| {system} | {what} | {counted} | {rate:,.0f} | {ratio} |")
        else:
            lines.append(f"| {system} | {what} | {counted} | {rate} | – |")
    return "\n".join(lines)


def main() -> int:
    if "--table" in sys.argv[1:]:
        print(table())
        return 0
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
