"""The named benchmarks of ``commerce bench NAME``: each returns a :class:`Figures`.

* ``hands``: hand evaluation per call and in numpy batches, against a classifier with no
  table (:func:`commerce.bench.naive_strength`);
* ``kernel``: whole games on the compiled kernel (random and heuristic players, two threads)
  against random playouts through the reference engine's checked API, per preset;
* ``kernel-ab``: this checkout's compiled kernel against another checkout's (``--against
  SRC``), alternated batch for batch, each in a fresh process;
* ``peers``: every speed figure of the project (reference engine, compiled kernel, the research
  API's environments, the compiled vector environment) beside OpenSpiel's games, all random
  play, as ratios to OpenSpiel's pure-Python Kuhn poker (the project's yardstick; needs
  ``open_spiel``);
* ``research``: the research API's steps per second per ruleset (PettingZoo, Gymnasium,
  OpenSpiel; needs ``pettingzoo``, ``gymnasium`` and ``open_spiel``), beside Kuhn poker;
* ``vector-env``: the compiled vector environment's steps per second, the whole loop with a
  random masked learner and ``env.step`` alone (``--step-only``: also timed on its own, the
  actions drawn beforehand);
* ``search``: the search bot's time per decision, seated against heuristic bots;
* ``hint``: the table's hint (``h``) per decision;
* ``jobs``: a tournament on one process and on two, the same games.

Each takes ``quick`` (a small size, for a test) and its own sizes; each rate is the median of
interleaved rounds (:func:`commerce.bench.figures.interleaved_medians`).
"""

from __future__ import annotations

import itertools
import json
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from commerce.bench.figures import Cell, Figures, interleaved_medians, rate_for
from commerce.errors import CommerceError
from commerce.rules import Ruleset, find_ruleset

if TYPE_CHECKING:
    from commerce.core import Action, Bot

NAMES = ("hands", "kernel", "kernel-ab", "peers", "research", "vector-env", "search", "hint",
         "jobs")
"""The benchmarks, in the order ``commerce bench --help`` lists them."""

EXTRAS = {"open_spiel": "openspiel", "pyspiel": "openspiel", "pettingzoo": "rl",
          "gymnasium": "rl", "rlcard": "bench"}
"""The optional packages some benchmarks need, and the extra that installs each."""


def _missing() -> list[str]:
    """The optional packages of :data:`EXTRAS` that are not installed (each imported by
    name here, never by a name built from a string)."""
    missing = []
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        missing.append("pyspiel")
    try:
        import pettingzoo  # noqa: F401
    except ImportError:
        missing.append("pettingzoo")
    try:
        import gymnasium  # noqa: F401
    except ImportError:
        missing.append("gymnasium")
    try:
        import rlcard  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        missing.append("rlcard")
    return missing


def need(bench: str, *modules: str, missing: list[str] | None = None) -> None:
    """Refuse, in one line, a benchmark whose optional packages are missing (*missing*: those
    not installed, found by :func:`_missing` where not given).

    >>> need("peers", "pyspiel", missing=["pyspiel"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    commerce.errors.CommerceError: commerce bench peers needs pyspiel, which is not installed...
    """
    absent = _missing() if missing is None else missing
    for module in modules:
        if module in absent:
            extra = EXTRAS.get(module)
            raise CommerceError(
                f"commerce bench {bench} needs {module}, which is not installed"
                + (f" (pip install 'commerce[{extra}]')" if extra else ""))


def seats_of(rules: Ruleset) -> int:
    """Four seats, or the nearest the ruleset allows.

    >>> seats_of(find_ruleset("widow-mini"))
    2
    """
    return min(max(4, rules.min_players), rules.max_players)


def presets(names: str) -> list[Ruleset]:
    """A comma list of ruleset ids (a typo fails with one line).

    >>> [r.id for r in presets("Peel, pounce")]
    ['peel', 'pounce']
    """
    return [find_ruleset(n.strip()) for n in names.split(",")]


# --- hands -------------------------------------------------------------------------------

def hands(*, quick: bool = False, seconds: float = 0.4, rounds: int = 5) -> Figures:
    """Hands evaluated per second (:func:`commerce.bench.run_bench`), against the classifier
    with no table in the same run."""
    from commerce.bench import run_bench

    if quick:
        report = run_bench(0.0, repeats=1, per_call_hands=2000, batch_hands=10_000)
    else:
        report = run_bench(seconds, repeats=rounds)
    naive = float(report["naive_eval_per_s"] or 1.0)
    what = {"hand_eval_per_call_per_s": "`Evaluator.rank_of`, a Python loop",
            "hand_eval_per_call_map_per_s": "`Evaluator.rank_of` driven by `map`",
            "hand_eval_inline_table_per_s": "`rank_table[a][b][c]` inline in the loop",
            "naive_eval_per_s": "a classifier with no table (the baseline)",
            "hand_eval_batch_per_s": "`evaluate_batch`, a numpy array of hands",
            "hand_eval_packed_per_s": "`evaluate_packed`, hands packed in integers"}
    rows: list[dict[str, Cell]] = [
        {"key": key, "what": label, "per_s": float(report[key] or 0.0),
         "ratio": round(float(report[key] or 0.0) / naive, 2)}
        for key, label in what.items()]
    return Figures("hands", f"Peel's hands evaluated per second, one core; median of "
                            f"{1 if quick else rounds} interleaved rounds",
                   [("what", "what runs"), ("per_s", "hands per second"),
                    ("ratio", "× no table")], rows)


# --- kernel ------------------------------------------------------------------------------

def _batch_games(rules: Ruleset, bot: str, quick: bool) -> int:
    if rules.family == "trading":
        return 500 if quick else (200_000 if bot == "random" else 50_000)
    return 10 if quick else 4_000  # a widow session or a game of Cox's: hundreds of decisions


def kernel_work(rules: Ruleset, bot: str, *, games: int, threads: int,
                players: int = 4, clock: Callable[[], float] = time.perf_counter,
                ) -> Callable[[], float]:
    """One timed batch of *games* on the compiled kernel a call: player decisions a second
    (of *clock*). The kernel is built (compiled, or loaded from numba's cache) here."""
    from commerce.compiled import build_kernel, run_batch

    kernel = build_kernel(rules, players)
    seeds = itertools.count(1)

    def work() -> float:
        start = clock()
        result = run_batch(rules, players=players, games=games, seed=next(seeds), bots=[bot],
                           kernel=kernel, threads=threads)
        return float(result.decisions.sum()) / max(clock() - start, 1e-9)
    return work


def reference_work(rules: Ruleset, seconds: float, players: int = 4) -> Callable[[], float]:
    """Random playouts through the reference engine's checked API for *seconds* a call:
    player decisions a second (:func:`commerce.apps.simulate.playout_decisions_per_s`)."""
    from commerce.apps.simulate import playout_decisions_per_s

    seeds = itertools.count()
    return lambda: playout_decisions_per_s(rules, players, seconds=seconds, seed=next(seeds),
                                           warm_up=False)


def kernel(*, quick: bool = False, rules: str | None = None, seconds: float = 1.0,
           rounds: int = 5, threads: int = 2) -> Figures:
    """The compiled kernel against the reference engine, per preset, 4 players."""
    from commerce.compiled import kernel_reason
    from commerce.rules import rulesets

    if rules:
        chosen = presets(rules)
    elif quick:
        chosen = [find_ruleset("hoyle")]
    else:
        chosen = [r for r in rulesets() if kernel_reason(r, ["random"]) is None
                  and 4 in r.player_range()]
    for r in chosen:
        reason = kernel_reason(r, ["random"])
        if reason is not None:
            raise CommerceError(f"commerce bench kernel: {r.id}: {reason}")
    seconds = 0.02 if quick else seconds
    rounds = 1 if quick else rounds
    rows: list[dict[str, Cell]] = []
    for r in chosen:
        works = {"reference": reference_work(r, seconds),
                 **{bot: kernel_work(r, bot, games=_batch_games(r, bot, quick), threads=threads)
                    for bot in ("random", "heuristic")}}
        med = interleaved_medians(works, rounds)
        rows.append({"rules": r.id, "reference_per_s": round(med["reference"]),
                     "random_per_s": round(med["random"]),
                     "random_ratio": round(med["random"] / med["reference"]),
                     "heuristic_per_s": round(med["heuristic"]),
                     "heuristic_ratio": round(med["heuristic"] / med["reference"])})
    return Figures(
        "kernel",
        f"player decisions per second, 4 players, whole games: the compiled kernel on "
        f"{threads} threads and the reference engine (random playouts through `engine.apply`, "
        f"one core); median of {rounds} interleaved rounds",
        [("rules", "ruleset"), ("reference_per_s", "reference engine"),
         ("random_per_s", "kernel, random"), ("random_ratio", "× reference"),
         ("heuristic_per_s", "kernel, heuristic"), ("heuristic_ratio", "× reference")],
        rows)


_AB_BATCH = """
import sys, time
try:
    from commerce.compiled import build_kernel, run_batch
except ImportError:
    from commerce.compiled import build_kernel, run_batch
from commerce.rules import find_ruleset
rules_id, bot, games, threads, seed = sys.argv[1:6]
r = find_ruleset(rules_id)
k = build_kernel(r, 4)
run_batch(r, players=4, games=2, seed=0, bots=[bot], kernel=k, threads=1)
t = time.perf_counter()
x = run_batch(r, players=4, games=int(games), seed=int(seed), bots=[bot], kernel=k,
              threads=int(threads))
print(float(x.decisions.sum()) / (time.perf_counter() - t))
"""
"""One timed batch on the compiled kernel of the checkout first on ``PYTHONPATH`` (the kernel
loaded or compiled before the timing)."""


def tree_work(src: str, rules: Ruleset, bot: str, *, games: int,
              threads: int) -> Callable[[], float]:
    """One batch on the compiled kernel of the checkout whose ``src`` folder is *src*, in a
    fresh process a call: player decisions a second (the process's start and the kernel's
    loading are not timed)."""
    import os
    import subprocess
    import sys

    seeds = itertools.count(1)
    env = {**os.environ, "PYTHONPATH": src}

    def work() -> float:
        done = subprocess.run([sys.executable, "-c", _AB_BATCH, rules.id, bot, str(games),
                               str(threads), str(next(seeds))], env=env, capture_output=True,
                              text=True, check=False)
        if done.returncode:
            raise CommerceError(f"commerce bench kernel-ab: the kernel of {src} failed: "
                                + (done.stderr.strip().splitlines() or ["?"])[-1])
        return float(done.stdout.strip().splitlines()[-1])
    return work


def kernel_ab(*, quick: bool = False, against: str, rules: str | None = None,
              bots: str = "random,heuristic", rounds: int = 5, threads: int = 2) -> Figures:
    """This checkout's kernel against the kernel of another checkout's ``src`` (*against*;
    ``git worktree add`` or ``git archive COMMIT src | tar -x -C DIR`` makes one), batch
    for batch in turn, each batch in a fresh process of its version; the ratio is the median
    of the rounds' ratios."""
    from pathlib import Path

    import commerce

    other = Path(against).resolve()
    if not (other / "commerce" / "__init__.py").is_file():
        raise CommerceError(f"commerce bench kernel-ab: {against} is not a src folder with "
                            "the commerce package in it")
    here = str(Path(commerce.__file__).resolve().parent.parent)
    chosen = presets(rules or ("hoyle" if quick else "peel,widow,cox"))
    kinds = ["random"] if quick else [b.strip() for b in bots.split(",") if b.strip()]
    rounds = 1 if quick else rounds
    rows: list[dict[str, Cell]] = []
    for r in chosen:
        for bot in kinds:
            games = _batch_games(r, bot, quick)
            mine = tree_work(here, r, bot, games=games, threads=threads)
            theirs = tree_work(str(other), r, bot, games=games, threads=threads)
            new: list[float] = []
            old: list[float] = []
            for n in range(rounds):
                pair = (theirs, mine) if n % 2 == 0 else (mine, theirs)
                got = [w() for w in pair]
                old.append(got[0] if n % 2 == 0 else got[1])
                new.append(got[1] if n % 2 == 0 else got[0])
            rows.append({"rules": r.id, "bot": bot, "this_per_s": round(statistics.median(new)),
                         "other_per_s": round(statistics.median(old)),
                         "ratio": round(statistics.median(a / b for a, b in
                                                          zip(new, old, strict=True)), 3)})
    return Figures(
        "kernel-ab",
        f"player decisions per second on the compiled kernel, 4 players, {threads} threads: "
        f"this checkout against {against}, a batch of each in turn (each in a fresh process); "
        f"the ratio is the median of {rounds} rounds' ratios",
        [("rules", "ruleset"), ("bot", "policy"), ("this_per_s", "this checkout"),
         ("other_per_s", "the other"), ("ratio", "this / the other")], rows)


# --- the research API --------------------------------------------------------------------

def spiel_work(name: str, seconds: float) -> Callable[[], float]:
    """Random play of the OpenSpiel game *name*, chance sampled from its outcomes, for
    *seconds* a call: player actions a second."""
    import pyspiel
    from open_spiel.python.games import (  # type: ignore[import-untyped]  # noqa: F401
        kuhn_poker,  # registers the game
    )

    game = pyspiel.load_game(name)
    rng = random.Random(0)

    def episode() -> int:
        state = game.new_initial_state()
        count = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                count += 1
        return count
    return lambda: rate_for(seconds, episode)


def aec_work(rules: Ruleset, seconds: float, engine: str = "auto") -> Callable[[], float]:
    """The PettingZoo AEC environment as :func:`commerce.rl.pettingzoo_env` returns it (order
    enforcement included), random masked agents at every seat: agent steps a second (those
    that play an action: not the dead steps that end an episode)."""
    from commerce.rl import pettingzoo_env

    return aec_loop(pettingzoo_env(rules.id, seats_of(rules), engine=engine), seconds)


def leduc_work(seconds: float) -> Callable[[], float]:
    """PettingZoo's Leduc hold'em (``leduc_holdem_v4.env()``, on rlcard) in the loop of
    :func:`aec_work`: agent steps a second."""
    import os

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # pettingzoo's import of pygame
    # leduc_holdem_v4's own module (importing the name leduc_holdem_v4 warns that its way of
    # making environments is deprecated)
    from pettingzoo.classic.rlcard_envs.leduc_holdem import env

    return aec_loop(env(), seconds)


def aec_loop(env: Any, seconds: float) -> Callable[[], float]:
    """Episodes of the AEC environment *env*, every agent a random choice among the legal
    actions of its observation's mask: agent steps that play an action, a second. The first
    reset is seeded, the next ones go on from it, as PettingZoo's examples play (a seeded
    reset of an rlcard game makes its whole environment anew)."""
    import numpy as np

    rng = random.Random(0)
    seeded = False

    def episode() -> int:
        nonlocal seeded
        if seeded:
            env.reset()
        else:
            env.reset(seed=0)
            seeded = True
        steps = 0
        for _agent in env.agent_iter():
            obs, _r, terminated, truncated, _i = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
        return steps
    return lambda: rate_for(seconds, episode)


def gym_work(rules: Ruleset, seconds: float, opponents: str = "random") -> Callable[[], float]:
    """The Gymnasium environment, a random masked learner at seat 0 against *opponents*:
    ``env.step`` calls a second (the bots' decisions inside a step are not counted)."""
    import gymnasium
    import numpy as np

    import commerce.rl.gym  # noqa: F401  (registers the ids)
    from commerce.rl.gym import env_id

    env = gymnasium.make(env_id(rules.id), opponents=opponents)
    rng = np.random.default_rng(0)
    seeds = itertools.count()

    def episode() -> int:
        _obs, info = env.reset(seed=next(seeds))
        steps, done = 0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _obs, _r, terminated, truncated, info = env.step(action)
            steps += 1
            done = bool(terminated or truncated)
        return steps
    return lambda: rate_for(seconds, episode)


def openspiel_work(rules: Ruleset, seconds: float, engine: str = "auto") -> Callable[[], float]:
    """The OpenSpiel Python game, random play with chance by its odds: player actions a
    second (chance's are not counted)."""
    import pyspiel

    import commerce.rl.openspiel  # noqa: F401  (registers the games)
    from commerce.rl.openspiel import game_name

    return spiel_loop(pyspiel.load_game(game_name(rules.id), {"players": seats_of(rules),
                                                                "engine": engine}), seconds)


def stub_work(seconds: float) -> Callable[[], float]:
    """The OpenSpiel game of Peel's shape with no rules (:mod:`commerce.bench.spiel_stub`) in
    the loop of :func:`openspiel_work`: player actions a second."""
    import pyspiel

    from commerce.bench.spiel_stub import STUB

    return spiel_loop(pyspiel.load_game(STUB), seconds)


def spiel_loop(game: Any, seconds: float) -> Callable[[], float]:
    """Deals of the OpenSpiel *game*, random play with chance by its odds: player actions a
    second (chance's are not counted)."""
    rng = random.Random(0)

    def episode() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps
    return lambda: rate_for(seconds, episode)


def vector_work(rules: Ruleset, seconds: float, *, envs: int = 1024,
                opponents: str = "random") -> Callable[[], float]:
    """The compiled vector environment, *envs* games, a random learner drawing from the mask
    in numpy: env steps a second, the learner's sampling included."""
    import numpy as np

    from commerce.rl.vector import CommerceVectorEnv

    env = CommerceVectorEnv(rules.id, seats_of(rules), num_envs=envs, opponents=opponents,
                            seed=1)
    rng = np.random.default_rng(0)
    info = env.reset()[1]

    def step() -> int:
        nonlocal info
        mask = info["action_mask"]
        noise = rng.random(mask.shape, dtype=np.float32)
        info = env.step(np.argmax(np.where(mask == 1, noise + 1.0, noise - 1.0), axis=1))[4]
        return envs
    return lambda: rate_for(seconds, step)


def research(*, quick: bool = False, rules: str | None = None, seconds: float = 1.0,
             rounds: int = 5) -> Figures:
    """The research API's steps per second per ruleset, beside OpenSpiel's Kuhn poker."""
    from commerce.rules import rulesets

    need("research", "pettingzoo", "gymnasium", "pyspiel")
    chosen = presets(rules) if rules else [find_ruleset("peel")] if quick else list(rulesets())
    seconds = 0.05 if quick else seconds
    rounds = 1 if quick else rounds
    works: dict[str, Callable[[], float]] = {"kuhn": spiel_work("python_kuhn_poker", seconds)}
    for r in chosen:
        works |= {f"{r.id} pettingzoo": aec_work(r, seconds),
                  f"{r.id} gymnasium": gym_work(r, seconds),
                  f"{r.id} openspiel": openspiel_work(r, seconds)}
    med = interleaved_medians(works, rounds)
    kuhn = med["kuhn"]
    rows: list[dict[str, Cell]] = []
    for r in chosen:
        row: dict[str, Cell] = {"rules": r.id, "seats": seats_of(r)}
        for api in ("pettingzoo", "gymnasium", "openspiel"):
            row[f"{api}_per_s"] = round(med[f"{r.id} {api}"])
            row[f"{api}_kuhn"] = round(med[f"{r.id} {api}"] / kuhn, 3)
        rows.append(row)
    return Figures(
        "research",
        f"steps per second of the research API, random play: PettingZoo agent steps (every "
        f"seat random), Gymnasium `env.step` calls (random learner, random bots inside), "
        f"OpenSpiel player actions; × Kuhn: the ratio to OpenSpiel's pure-Python Kuhn poker "
        f"in the same run ({kuhn:,.0f} actions a second); median of {rounds} interleaved "
        f"rounds of {seconds:g} s",
        [("rules", "ruleset"), ("seats", "seats"),
         ("pettingzoo_per_s", "PettingZoo"), ("pettingzoo_kuhn", "× Kuhn"),
         ("gymnasium_per_s", "Gymnasium"), ("gymnasium_kuhn", "× Kuhn"),
         ("openspiel_per_s", "OpenSpiel"), ("openspiel_kuhn", "× Kuhn")],
        rows)


# --- peers -------------------------------------------------------------------------------

def peers(*, quick: bool = False, seconds: float = 1.0, rounds: int = 5) -> Figures:
    """Every speed figure of the project beside OpenSpiel's games, in one run."""
    need("peers", "pyspiel", "pettingzoo", "gymnasium", "rlcard")
    seconds = 0.05 if quick else seconds
    rounds = 1 if quick else rounds
    peel, widow, cox = (find_ruleset(x) for x in ("peel", "widow", "cox"))
    envs = 32 if quick else 1024

    def kern(r: Ruleset, bot: str, threads: int) -> Callable[[], float]:
        return kernel_work(r, bot, games=_batch_games(r, bot, quick), threads=threads)

    table: list[tuple[str, str, str, Callable[[], float]]] = [
        ("Commerce", "Peel, 4 players: reference engine (`engine.apply`, checked)",
         "player decisions", reference_work(peel, seconds)),
        ("Commerce", "Peel, 4 players: compiled kernel, random, 1 thread", "player decisions",
         kern(peel, "random", 1)),
        ("Commerce", "Peel, 4 players: compiled kernel, random, 2 threads",
         "player decisions", kern(peel, "random", 2)),
        ("Commerce", "Peel, 4 players: compiled kernel, heuristic, 1 thread",
         "player decisions", kern(peel, "heuristic", 1)),
        ("Commerce", "Peel, 4 players: PettingZoo AEC env (`pettingzoo_env`), compiled engine",
         "agent steps", aec_work(peel, seconds)),
        ("Commerce", "Peel, 4 players: PettingZoo AEC env, `engine=reference`",
         "agent steps", aec_work(peel, seconds, "reference")),
        ("PettingZoo", "Leduc hold'em (`leduc_holdem_v4`, rlcard), the same loop",
         "agent steps", leduc_work(seconds)),
        ("Commerce", "Peel, 4 players: Gymnasium env (3 random bots inside)", "env steps",
         gym_work(peel, seconds)),
        ("Commerce", "Peel, 4 players: OpenSpiel Python game, compiled engine",
         "player actions", openspiel_work(peel, seconds)),
        ("Commerce", "Peel, 4 players: OpenSpiel Python game, `engine=reference`",
         "player actions", openspiel_work(peel, seconds, "reference")),
        ("OpenSpiel", "a Python game of Peel's shape with no rules (`python_commerce_stub`)",
         "player actions", stub_work(seconds)),
        ("Commerce", f"Peel, 4 players: compiled vector env ({envs:,} games, 3 random bots "
                     "inside)", "env steps", vector_work(peel, seconds, envs=envs)),
        ("Commerce", "Widow game, 4 players: compiled kernel, random, 2 threads",
         "player decisions", kern(widow, "random", 2)),
        ("Commerce", f"Widow game, 4 players: compiled vector env ({envs:,} games, 3 random "
                     "bots inside)", "env steps", vector_work(widow, seconds, envs=envs)),
        ("Commerce", "Cox's game, 4 players: compiled kernel, random, 2 threads",
         "player decisions", kern(cox, "random", 2)),
        ("Commerce", f"Cox's game, 4 players: compiled vector env ({envs:,} games, 3 random "
                     "bots inside)", "env steps", vector_work(cox, seconds, envs=envs)),
        ("OpenSpiel", "Kuhn poker, pure Python (`python_kuhn_poker`)", "player actions",
         spiel_work("python_kuhn_poker", seconds)),
        ("OpenSpiel", "Kuhn poker, C++ (`kuhn_poker`), stepped from Python", "player actions",
         spiel_work("kuhn_poker", seconds)),
        ("OpenSpiel", "Leduc poker, C++ (`leduc_poker`), stepped from Python",
         "player actions", spiel_work("leduc_poker", seconds)),
    ]
    med = interleaved_medians({what: work for _, what, _, work in table}, rounds)
    kuhn = med["Kuhn poker, pure Python (`python_kuhn_poker`)"]
    rows: list[dict[str, Cell]] = [
        {"system": system, "what": what, "counted": counted, "per_s": round(med[what]),
         "kuhn": round(med[what] / kuhn, 2)}
        for system, what, counted, _ in table]
    return Figures(
        "peers",
        f"random play, everything in one run; × Kuhn: the ratio to OpenSpiel's pure-Python "
        f"Kuhn poker, the project's yardstick; median of {rounds} interleaved rounds "
        f"({seconds:g} s, or one batch of the kernel, each)",
        [("system", "system"), ("what", "what runs (random play)"), ("counted", "counted"),
         ("per_s", "per second"), ("kuhn", "× Kuhn (Python)")], rows)


# --- the vector environment --------------------------------------------------------------

def vector_env(*, quick: bool = False, rules: str | None = None,
               opponents: str = "heuristic,random", envs: int = 1024, steps: int = 100,
               rounds: int = 5, step_only: bool = False) -> Figures:
    """The compiled vector environment: the whole loop (a random masked learner's sampling in
    numpy, then ``env.step``) and ``env.step`` alone, in env steps a second.

    With *step_only*, ``env.step`` alone is timed on its own: the *steps* actions of every
    game drawn beforehand from the masks (a random legal one each, a recording run), then
    each round deals the same games anew (the same seed, untimed) and times only the
    ``env.step`` calls that replay them; the whole loop is measured beside it, rounds
    interleaved."""
    import numpy as np

    from commerce.rl.vector import CommerceVectorEnv

    chosen = presets(rules or ("peel" if quick else "peel,widow,cox"))
    kinds = [o.strip() for o in opponents.split(",") if o.strip()]
    if quick:
        envs, steps, rounds = 16, 3, 1
    if envs < 1 or steps < 1:
        raise CommerceError("commerce bench vector-env: --envs and --steps must be at least 1")
    rows: list[dict[str, Cell]] = []
    loops: dict[str, Callable[[], tuple[float, float, float]]] = {}
    alone: dict[str, Callable[[], float]] = {}
    for r in chosen:
        for opp in kinds:
            env = CommerceVectorEnv(r.id, seats_of(r), num_envs=envs, opponents=opp, seed=1)
            loops[f"{r.id} {opp}"] = _vector_round(env, envs, steps, np.random.default_rng(0))
            if step_only:
                alone[f"{r.id} {opp}"] = _vector_replay(
                    CommerceVectorEnv(r.id, seats_of(r), num_envs=envs, opponents=opp),
                    envs, steps, np.random.default_rng(0))
    runs: dict[str, list[tuple[float, float, float]]] = {k: [] for k in loops}
    replays: dict[str, list[float]] = {k: [] for k in alone}
    for key, loop in loops.items():
        loop()  # compiles the kernel, or loads it from numba's cache
        if key in alone:
            alone[key]()
    for _ in range(rounds):
        for key, loop in loops.items():
            runs[key].append(loop())
            if key in alone:
                replays[key].append(alone[key]())
    for key, got in runs.items():
        rules_id, opp = key.split()
        whole = statistics.median(g[0] for g in got)
        inside = statistics.median(g[1] for g in got)
        row: dict[str, Cell] = {"rules": rules_id, "opponents": opp,
                                "steps_per_s": round(whole)}
        if step_only:
            only = statistics.median(replays[key])
            row.update({"step_only_per_s": round(only), "step_alone_per_s": round(inside),
                        "share": round(whole / only, 2)})
        else:
            row.update({"step_alone_per_s": round(inside), "share": round(whole / inside, 2)})
        row["episodes_per_s"] = round(statistics.median(g[2] for g in got))
        rows.append(row)
    columns = [("rules", "ruleset"), ("opponents", "opponents"),
               ("steps_per_s", "whole loop")]
    if step_only:
        columns += [("step_only_per_s", "`env.step` alone, actions drawn before"),
                    ("step_alone_per_s", "`env.step` in the loop"),
                    ("share", "whole / alone")]
    else:
        columns += [("step_alone_per_s", "`env.step` alone"), ("share", "whole / alone")]
    columns.append(("episodes_per_s", "deals ended a second"))
    return Figures(
        "vector-env",
        f"env steps per second of the compiled vector environment ({envs:,} games, one "
        f"thread, deals as episodes), one learner decision in each game a step; median of "
        f"{rounds} interleaved rounds of {steps} steps"
        + ("; `env.step` alone: the same games replayed, their actions drawn beforehand from "
           "the masks" if step_only else ""),
        columns, rows)


def _vector_round(env: Any, envs: int, steps: int, rng: Any,
                  ) -> Callable[[], tuple[float, float, float]]:
    import numpy as np

    info = env.reset()[1]

    def loop() -> tuple[float, float, float]:
        nonlocal info
        inside = 0.0
        ended = 0
        start = time.perf_counter()
        for _ in range(steps):
            mask = info["action_mask"]
            noise = rng.random(mask.shape, dtype=np.float32)
            actions = np.argmax(np.where(mask == 1, noise + 1.0, noise - 1.0), axis=1)
            s0 = time.perf_counter()
            _obs, _r, terminated, _tr, info = env.step(actions)
            inside += time.perf_counter() - s0
            ended += int(terminated.sum())
        wall = time.perf_counter() - start
        return envs * steps / wall, envs * steps / max(inside, 1e-9), ended / wall
    return loop


def _vector_replay(env: Any, envs: int, steps: int, rng: Any) -> Callable[[], float]:
    """``env.step`` alone: *steps* random legal actions of every game recorded once (each
    drawn from the mask), then each call deals the same games anew (untimed) and returns the
    env steps a second of the ``env.step`` calls replaying them."""
    import numpy as np

    info = env.reset(seed=2)[1]
    recorded = []
    for _ in range(steps):
        mask = info["action_mask"]
        noise = rng.random(mask.shape, dtype=np.float32)
        recorded.append(np.argmax(np.where(mask == 1, noise + 1.0, noise - 1.0), axis=1))
        info = env.step(recorded[-1])[4]

    def replay() -> float:
        env.reset(seed=2)
        inside = 0.0
        for actions in recorded:
            s0 = time.perf_counter()
            env.step(actions)
            inside += time.perf_counter() - s0
        return envs * steps / max(inside, 1e-9)
    return replay


# --- the search bot and the hint ---------------------------------------------------------

def search(*, quick: bool = False, rules: str | None = None, games: int = 10,
           bot: str = "search") -> Figures:
    """The search bot's time per decision at seat 0 against heuristic bots: the decisions
    with more than one legal action, in wall time and CPU time; playouts per decision."""
    from commerce.apps.runner import game_seed
    from commerce.bots import make_bot
    from commerce.driver import Driver

    chosen = presets(rules or ("peel" if quick else "peel,trade-and-barter,widow,cox"))
    if quick:
        games, bot = 1, "search:iterations=50"
    timed = make_bot(bot)
    rows: list[dict[str, Cell]] = []
    for r in chosen:
        wall: list[float] = []
        cpu: list[float] = []
        playouts: list[int] = []
        seats = seats_of(r)
        others = [make_bot("heuristic") for _ in range(seats - 1)]
        Driver(r, [_Timed(timed, None), *others], seed=12345).run()  # fills the tables, compiles
        for g in range(games):
            Driver(r, [_Timed(timed, (wall, cpu, playouts)), *others],
                   seed=game_seed(0, g)).run()
        wall.sort()
        n = len(wall)
        rows.append({"rules": r.id, "decisions": n,
                     "median_ms": round(statistics.median(wall), 1) if n else None,
                     "p95_ms": round(wall[math.ceil(0.95 * n) - 1], 1) if n else None,
                     "max_ms": round(wall[-1], 1) if n else None,
                     "cpu_median_ms": round(statistics.median(cpu), 1) if n else None,
                     "playouts": statistics.median(playouts) if playouts else None})
    return Figures(
        "search",
        f"`{bot}` at seat 0 against heuristic bots, {games} game(s) a ruleset: milliseconds a "
        f"decision (those with more than one legal action), wall and CPU time",
        [("rules", "ruleset"), ("decisions", "decisions"), ("median_ms", "median ms"),
         ("p95_ms", "95th percentile"), ("max_ms", "slowest"),
         ("cpu_median_ms", "median CPU ms"), ("playouts", "playouts a decision")], rows)


class _Timed:
    """A bot that plays as *bot* and, given lists, appends the wall and CPU milliseconds and
    the playouts of each decision with more than one legal action."""

    name = spec = "timed"

    def __init__(self, bot: Bot, into: tuple[list[float], list[float], list[int]] | None,
                 ) -> None:
        self.bot, self.into = bot, into

    def act(self, obs: object, legal: Sequence[Action], rng: random.Random) -> Action:
        """The bot's action, timed."""
        start, start_cpu = time.perf_counter(), time.process_time()
        action: Action = self.bot.act(obs, legal, rng)
        if self.into is not None and len(legal) > 1:
            wall, cpu, playouts = self.into
            wall.append(1000 * (time.perf_counter() - start))
            cpu.append(1000 * (time.process_time() - start_cpu))
            playouts.append(int(getattr(self.bot, "playouts", 0)))
        return action


def hint(*, quick: bool = False, rules: str | None = None, decisions: int = 30) -> Figures:
    """Milliseconds of the table's hint per decision (:func:`commerce.cli.hint.hint_text` under
    its wall-time cap), at seat 0's decisions with more than one legal move."""
    from commerce import engine
    from commerce.bots import make_bot
    from commerce.cli.hint import HINT_MS, hint_text
    from commerce.driver import Driver

    chosen = presets(rules or ("peel" if quick else "peel,widow,cox,vingt-un"))
    if quick:
        decisions = 2
    rows: list[dict[str, Cell]] = []
    for r in chosen:
        players = seats_of(r)
        found: list[Driver] = []
        seen = 0
        for seed in itertools.count():
            if len(found) >= decisions:
                break
            driver = Driver(r, [make_bot("heuristic") for _ in range(players)], seed=seed,
                            names=[f"P{i}" for i in range(players)])
            while driver.outcome() is None and len(found) < decisions:
                d = driver.decision()
                if d is not None and d.seat == 0 and len(engine.legal_actions(driver.state)) > 1:
                    seen += 1
                    if seen % 3 == 1:  # spread over the deals
                        found.append(Driver.resume(driver.record(), [None, *driver.agents[1:]]))
                driver.step()

        def time_hint(driver: Driver) -> float:
            legal = engine.legal_actions(driver.state)
            labels = [engine.format_action(driver.rules, a) for a in legal]
            start = time.perf_counter()
            hint_text(driver, 0, legal, labels, ms=HINT_MS)
            return time.perf_counter() - start

        time_hint(found[0])  # compiles the family's kernels
        times = sorted(1000 * time_hint(d) for d in found)
        rows.append({"rules": r.id, "decisions": len(times),
                     "median_ms": round(statistics.median(times), 1),
                     "p90_ms": round(times[math.ceil(0.9 * len(times)) - 1], 1),
                     "max_ms": round(times[-1], 1),
                     "moves": statistics.median(len(engine.legal_actions(d.state))
                                                for d in found)})
    return Figures(
        "hint",
        f"milliseconds to work out the table's hint at seat 0's decisions (heuristic bots, every "
        f"third decision with more than one move), under the hint's cap of {HINT_MS:g} ms",
        [("rules", "ruleset"), ("decisions", "decisions"), ("median_ms", "median ms"),
         ("p90_ms", "90th percentile"), ("max_ms", "slowest"),
         ("moves", "legal moves (median)")],
        rows)


# --- jobs --------------------------------------------------------------------------------

def jobs(*, quick: bool = False, rules: str = "peel", games: int = 48,
         bots: str = "random,heuristic,search:iterations=200", rounds: int = 3) -> Figures:
    """A tournament on the reference engine with ``--jobs 1`` and ``--jobs 2``, alternated:
    wall seconds and the speed-up, and whether the two gave the same results."""
    from commerce.apps.tournament import tournament

    r = find_ruleset(rules)
    line_up = [b.strip() for b in bots.split(",") if b.strip()]
    if quick:
        games, line_up, rounds = 6, ["random", "heuristic"], 1
    results: dict[int, str] = {}
    walls: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(rounds):
        for n in (1, 2):
            start = time.perf_counter()
            result = tournament(r, players=4, bots=line_up, games=games, seed=7, jobs=n,
                                engine="reference")
            walls[n].append(time.perf_counter() - start)
            results[n] = json.dumps(result, sort_keys=True)
    one, two = statistics.median(walls[1]), statistics.median(walls[2])
    played = json.loads(results[1])["games"]
    row: dict[str, Cell] = {"rules": r.id, "games": played, "bots": ",".join(line_up),
                            "jobs1_s": round(one, 2), "jobs2_s": round(two, 2),
                            "speedup": round(one / two, 2),
                            "identical": results[1] == results[2]}
    return Figures(
        "jobs",
        f"a tournament on the reference engine, 4 players, one process and two; median of "
        f"{rounds} alternated rounds",
        [("rules", "ruleset"), ("games", "games"), ("bots", "bots"),
         ("jobs1_s", "--jobs 1, s"), ("jobs2_s", "--jobs 2, s"), ("speedup", "speed-up"),
         ("identical", "same results")], [row])
