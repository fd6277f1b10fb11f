"""Bot-only simulation: many games, per-seat results, and the playout speed benchmark.

Per-game seeds are derived from the master seed, so results depend only on the arguments.

>>> from commerce.rules import find_ruleset
>>> r = simulate(find_ruleset("peel"), players=3, games=4, seed=1, bots=["random", "heuristic"])
>>> r["games"], len(r["seats"]), sum(s["net"] for s in r["seats"])
(4, 3, 0)
"""

from __future__ import annotations

import random
import statistics
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from commerce import engine
from commerce.bots import make_bot
from commerce.driver import Driver
from commerce.rules import Ruleset


def game_seed(master: int, index: int) -> int:
    """The seed of game *index* of a run with seed *master* (stable across versions)."""
    return random.Random(f"commerce/{master}/{index}").getrandbits(63)


def simulate(
    rules: Ruleset,
    *,
    players: int,
    games: int,
    seed: int,
    bots: Sequence[str],
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play *games* games with the bots cycled over the seats; return the result table.

    ``seats[i]`` has the seat's ``bot``, ``net`` (stakes, tokens, counters or points won
    minus lost over all games), ``wins`` (deals or hands won), and what the ruleset tracks:
    totals over all games (``tokens`` left, ...), and for games where seats go out, in how
    many games the seat went out (``went_out_games``) and in which deal on average
    (``went_out_mean_deal``).
    """
    specs = [bots[i % len(bots)] for i in range(players)]
    agents = [make_bot(s) for s in specs]
    net = [0] * players
    wins = [0] * players
    extra: list[dict[str, Any]] = [{} for _ in range(players)]
    went_out: list[list[int]] = [[] for _ in range(players)]
    decisions = 0
    for g in range(games):
        driver = Driver(rules, agents, seed=game_seed(seed, g))
        driver.run()
        result = driver.outcome()
        assert result is not None
        decisions += driver.decisions
        for i, p in enumerate(result.payoffs):
            net[i] += p
        won = result.details.get("deals_won") or result.details.get("hands_won")
        if won is not None:
            for i, w in enumerate(won):
                wins[i] += int(w)
        out_in = result.details.get("out_in")
        if isinstance(out_in, tuple) and len(out_in) == players:
            for i, deal in enumerate(out_in):
                if deal is not None:
                    went_out[i].append(int(deal))
        for key, values in result.details.items():
            if key in ("deals_won", "hands_won") or not isinstance(values, tuple):
                continue
            if len(values) == players and all(isinstance(v, int) for v in values):
                for i, v in enumerate(values):
                    extra[i][key] = extra[i].get(key, 0) + v
        if progress is not None:
            progress(g + 1)
    _went_out_columns(went_out, extra)
    return {
        "rules": rules.id,
        "players": players,
        "games": games,
        "seed": seed,
        "bots": list(bots),
        "decisions": decisions,
        "seats": [
            {"seat": i, "bot": specs[i], "net": net[i], "wins": wins[i], **extra[i]}
            for i in range(players)
        ],
    }


def _went_out_columns(went_out: Sequence[Sequence[int]], extra: list[dict[str, Any]]) -> None:
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


ENGINES = ("auto", "reference", "compiled")
"""The engines ``simulate`` may run on: the compiled kernel when it can (auto), the reference
engine, or the compiled kernel (compiled). ``fast``, the former name of ``compiled``, is
still accepted for one version, with a ``DeprecationWarning`` (:func:`resolve_engine`)."""


def resolve_engine(name: str) -> str:
    """The engine *name* asks for: ``fast`` (deprecated, warning) is ``compiled``.

    >>> resolve_engine("auto")
    'auto'
    """
    if name == "fast":
        warnings.warn("the engine 'fast' is now called 'compiled' (--engine compiled)",
                      DeprecationWarning, stacklevel=2)
        return "compiled"
    return name


def choose_engine(rules: Ruleset, players: int, bots: Sequence[str],
                  engine_name: str) -> tuple[str, str]:
    """``(engine, why)``: the engine a run of *bots* under *rules* uses, and why.

    ``auto`` takes the compiled kernel when the family has one, it plays every option of
    *rules* and every bot in the line-up has a compiled policy; otherwise the reference.

    :raises CommerceError: for ``compiled`` when the kernel cannot play the run, saying why.
    """
    from commerce.compiled import build_kernel, kernel_reason, policy_missing
    from commerce.errors import CommerceError, RulesetError

    engine_name = resolve_engine(engine_name)
    if engine_name not in ENGINES:
        raise CommerceError(f"--engine must be one of {', '.join(ENGINES)}, not {engine_name!r}")
    if engine_name == "reference":
        return "reference", "asked for"
    reason = kernel_reason(rules, bots)
    if reason is None:
        try:
            reason = policy_missing(build_kernel(rules, players), bots)
        except RulesetError as exc:
            reason = str(exc)
    if reason is None:
        return ("compiled",
                "every bot has a compiled policy" if engine_name == "auto" else "asked for")
    if engine_name == "compiled":
        raise CommerceError(f"--engine compiled: {reason}")
    return "reference", reason


def simulate_fast(rules: Ruleset, *, players: int, games: int, seed: int,
                  bots: Sequence[str]) -> dict[str, Any]:
    """:func:`simulate` on the family's compiled kernel (:mod:`commerce.compiled`): the same table,
    with ``first_call_s`` (building the kernel and loading or compiling its code) and
    ``seconds`` (playing).

    Its random streams are the kernel's: a seed reproduces its results, which agree with the
    reference engine's statistically, not game for game.
    """
    from commerce.compiled import build_kernel, run_batch

    start = time.perf_counter()
    kernel = build_kernel(rules, players)
    run_batch(rules, players=players, games=1, seed=seed, bots=bots, kernel=kernel)
    first = time.perf_counter() - start
    start = time.perf_counter()
    result = run_batch(rules, players=players, games=games, seed=seed, bots=bots,
                       kernel=kernel)
    seconds = time.perf_counter() - start
    specs = [bots[i % len(bots)] for i in range(players)]
    net = result.payoffs.sum(axis=0)
    wins = result.deals_won.sum(axis=0)
    extra: list[dict[str, Any]] = [{} for _ in range(players)]
    if result.session.shape[1] == 2:  # tokens, and who went out (as :func:`simulate`)
        tokens, out_in = result.session[:, 0, :], result.session[:, 1, :]
        for i in range(players):
            extra[i]["tokens"] = int(tokens[:, i].sum())
        _went_out_columns([[int(d) for d in out_in[:, i] if d > 0] for i in range(players)],
                          extra)
    return {
        "rules": rules.id,
        "players": players,
        "games": games,
        "seed": seed,
        "bots": list(bots),
        "decisions": int(result.decisions.sum()),
        "seats": [{"seat": i, "bot": specs[i], "net": int(net[i]), "wins": int(wins[i]),
                   **extra[i]} for i in range(players)],
        "first_call_s": round(first, 3),
        "seconds": round(seconds, 3),
    }


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
