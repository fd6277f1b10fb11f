"""Bot-only simulation: many games, per-seat results, and the playout speed benchmark.

The games are played by the runner (:mod:`commerce.apps.runner`): per-game seeds are derived
from the master seed, so results depend only on the arguments (and the engine).

>>> from commerce.rules import find_ruleset
>>> r = simulate(find_ruleset("peel"), players=3, games=4, seed=1, bots=["random", "heuristic"])
>>> r["games"], len(r["seats"]), sum(s["net"] for s in r["seats"])
(4, 3, 0)
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from commerce import engine
from commerce.apps.runner import COMPILED, Job, Table, choose_engine, runner_for
from commerce.rules import Ruleset


def simulate(
    rules: Ruleset,
    *,
    players: int,
    games: int,
    seed: int,
    bots: Sequence[str],
    progress: Callable[[int], None] | None = None,
    engine: str = "reference",
) -> dict[str, Any]:
    """Play *games* games with the bots cycled over the seats; return the result table.

    ``seats[i]`` has the seat's ``bot``, ``net`` (stakes, tokens, counters or points won
    minus lost over all games), ``wins`` (deals or hands won), and what the ruleset tracks:
    totals over all games (``tokens`` left, ...), and for games where seats go out, in how
    many games the seat went out (``went_out_games``) and in which deal on average
    (``went_out_mean_deal``).

    *engine* (:data:`commerce.apps.runner.ENGINES`, chosen by
    :func:`commerce.apps.runner.choose_engine`) plays the games on the reference engine or the
    family's compiled kernel; ``engine`` and ``engine_reason`` say which played and why, and
    on the kernel ``first_call_s`` (building the kernel and loading or compiling its code) and
    ``seconds`` (playing) how long it took. The kernel's random streams are its own: a seed
    reproduces its results, which agree with the reference engine's statistically, not game
    for game.
    """
    chosen, why = choose_engine(rules, players, bots, engine)
    table = runner_for(chosen).run(Job(rules, players, tuple(bots), games, seed),
                                   progress=progress)
    result = {**summary(rules, players, games, seed, bots, table), "engine": chosen,
              "engine_reason": why}
    if chosen == "compiled":
        result.update(first_call_s=table.first_call_s, seconds=round(table.seconds, 3))
    return result


def summary(rules: Ruleset, players: int, games: int, seed: int, bots: Sequence[str],
            table: Table) -> dict[str, Any]:
    """:func:`simulate`'s table, from the runner's *table* of the games (without the engine
    and the timings)."""
    specs = [bots[i % len(bots)] for i in range(players)]
    rows = table.games
    net = rows.payoffs.sum(axis=0).tolist()
    wins = rows.wins.sum(axis=0).tolist()
    extra: list[dict[str, object]] = [{} for _ in range(players)]
    for key, values in rows.counts.items():
        for i, total in enumerate(values.sum(axis=0).tolist()):
            extra[i][key] = total
    went_out = [[int(d) for d in rows.out_in[:, i] if d > 0] for i in range(players)]
    _went_out_columns(went_out, extra)
    return {
        "rules": rules.id,
        "players": players,
        "games": games,
        "seed": seed,
        "bots": list(bots),
        "decisions": int(rows.decisions.sum()),
        "seats": [
            {"seat": i, "bot": specs[i], "net": net[i], "wins": wins[i], **extra[i]}
            for i in range(players)
        ],
    }


def _went_out_columns(went_out: Sequence[Sequence[int]], extra: list[dict[str, object]]) -> None:
    """Into each seat's *extra* columns: in how many games it went out and in which deal on
    average, from the deals it went out in (*went_out*, one list a seat), where any seat
    went out."""
    for i, deals in enumerate(went_out):
        if deals:
            extra[i]["went_out_games"] = len(deals)
            extra[i]["went_out_mean_deal"] = round(sum(deals) / len(deals), 2)
        elif any(went_out):
            extra[i]["went_out_games"] = 0


def playout_decisions_per_s(
    rules: Ruleset, players: int = 4, *, seconds: float = 1.0, seed: int = 0,
    warm_up: bool = True, clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Player decisions per second in random playouts through the checked public API.

    Each step asks :func:`engine.decision`; chance acts through :func:`engine.sample_chance`,
    a player picks uniformly from :func:`engine.legal_actions`; every action goes through the
    checked :func:`engine.apply`. With *warm_up*, games are played untimed for half of
    *seconds* first, so that what is built once per ruleset (the hand evaluator's tables, the
    cached menus) is not counted. *clock* measures the time (``time.process_time``: the
    process's CPU seconds, which other work on a shared machine barely changes).
    """
    rng = random.Random(seed)
    if warm_up:
        _play_until(rules, players, rng, time.perf_counter() + seconds / 2)
    start = clock()
    wall = time.perf_counter()
    count = _play_until(rules, players, rng, wall + seconds)
    return count / (clock() - start)


def _play_until(rules: Ruleset, players: int, rng: random.Random, deadline: float) -> int:
    """Play whole random games until *deadline* (at least one); the player decisions made."""
    decision, legal_actions, apply = engine.decision, engine.legal_actions, engine.apply
    sample_chance = engine.sample_chance
    count = 0
    while True:
        state = engine.new_game(rules, players)
        while (d := decision(state)) is not None:
            if d.seat is None:
                action = sample_chance(state, rng)
            else:
                legal = legal_actions(state)
                action = legal[rng.randrange(len(legal))]
                count += 1
            state = apply(state, action).state
        if time.perf_counter() >= deadline:
            return count


def playout_medians(presets: Sequence[Ruleset], players: int = 4, *, seconds: float = 1.0,
                    repeats: int = 5) -> dict[str, float]:
    """The median of *repeats* runs of :func:`playout_decisions_per_s` for each preset, by id.

    Every preset is warmed up first; then the runs of the presets are interleaved, so that a
    busy spell on the machine slows every preset alike.
    """
    for rules in presets:
        _play_until(rules, players, random.Random(0), time.perf_counter() + seconds / 2)
    runs: dict[str, list[float]] = {rules.id: [] for rules in presets}
    for seed in range(repeats):
        for rules in presets:
            runs[rules.id].append(playout_decisions_per_s(
                rules, players, seconds=seconds, seed=seed, warm_up=False))
    return {rid: statistics.median(rates) for rid, rates in runs.items()}


def simulate_fast(rules: Ruleset, *, players: int, games: int, seed: int,
                  bots: Sequence[str]) -> dict[str, Any]:
    """:func:`simulate` on the family's compiled kernel (:data:`commerce.apps.runner.COMPILED`):
    the same table, with ``first_call_s`` (building the kernel and loading or compiling its
    code) and ``seconds`` (playing), without the engine's name.

    :raises CommerceError: for a bot without a compiled policy or an option the kernel does
        not play.
    """
    table = COMPILED.run(Job(rules, players, tuple(bots), games, seed))
    return {**summary(rules, players, games, seed, bots, table),
            "first_call_s": table.first_call_s, "seconds": round(table.seconds, 3)}


def kernel_decisions_per_s(rules: Ruleset, players: int = 4, *, bot: str = "random",
                           games: int = 200_000, repeats: int = 5, seconds: float = 0.0,
                           threads: int = 2) -> dict[str, float]:
    """Whole games on the compiled kernel, every seat played by *bot*, on *threads* threads:
    ``decisions_per_s`` (the median over the batches of player decisions per wall-clock
    second), ``decisions_per_cpu_s`` (per CPU second of the process: what one core does,
    whatever else runs on the machine), ``cpu_per_wall`` (the cores the batch had, on
    average), ``first_call_s`` (building the kernel and loading or compiling its code,
    timed apart and not counted in the rates) and ``batches``. It plays *repeats* batches
    at least, and more while they have taken less than *seconds* of the clock (at most 100):
    a batch of Peel's short games takes a tenth of a second, and five of them alone fall
    within half a second of a machine whose speed wanders."""
    from commerce.compiled import build_kernel, run_batch

    start = time.perf_counter()
    kernel = build_kernel(rules, players)
    run_batch(rules, players=players, games=2, seed=0, bots=[bot], kernel=kernel, threads=1)
    first = time.perf_counter() - start
    rates, cpu_rates, shares = [], [], []
    spent = 0.0
    seed = 0
    while seed < repeats or (spent < seconds and seed < 100):
        cpu, start = time.process_time(), time.perf_counter()
        result = run_batch(rules, players=players, games=games, seed=seed, bots=[bot],
                           kernel=kernel, threads=threads)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        spent += wall
        seed += 1
        decisions = int(result.decisions.sum())
        rates.append(decisions / wall)
        cpu_rates.append(decisions / cpu)
        shares.append(cpu / wall)
    return {"decisions_per_s": statistics.median(rates),
            "decisions_per_cpu_s": statistics.median(cpu_rates),
            "cpu_per_wall": statistics.median(shares), "first_call_s": first,
            "batches": len(rates)}
