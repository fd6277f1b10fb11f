"""Tournaments between bots: seat rotation over replayed deals, payoffs with 95% intervals,
Bradley-Terry ratings.

A tournament's verdict must not depend on how its bots were listed. The bots are put in one
order first (sorted by name), and with *B* bots at *N* seats a tournament is made of
**blocks** that share one seed (the same first dealer, and the driver's fresh chance RNG for
each deal deals the same cards at the start of every deal, however the deals before were
played). A block is every rotation of the sorted bot order, cycled over the seats, and every
rotation of its mirror (the order reversed), each distinct line-up once
(:func:`block_lineups`): ``2 * B`` games for three bots or more, ``B`` for two (whose mirror
is a rotation). Over a block every bot plays every seat equally often on the same deals, and
sits on each side of every other bot equally often: the luck of the cards and of the
neighbours is shared out equally (with three bots at four seats, who sits beside whom decides
much of a seat's payoff). Block *b* uses the seed ``game_seed(seed, b)``, so results depend
only on the arguments and not on how many processes play them.

- ``payoff[bot]``: the bot's mean payoff per game for one seat (stakes, tokens or points won
  minus lost over the game), and ``ci95`` its 95% t-interval, taking each block (the mean over
  the bot's seats in the block) as one sample, which respects the pairing of the replayed deals.
- ``pairs``: for every two bots, *a* the one that scored more and *b* the other (the later
  in the sorted order where they scored the same), the mean per-block difference ``a - b``
  of their payoffs with its 95% interval; it excludes 0 when *a* is shown to beat *b*.
- ``ratings``: Bradley-Terry strengths on the Elo scale (mean 1500) fitted to every comparison
  of two seats of different bots in the same game (the higher payoff wins, equal is a tie).

>>> from commerce.rules import find_ruleset
>>> r = tournament(find_ruleset("peel"), players=3, bots=["random", "heuristic"], games=4,
...                seed=1)
>>> r["games"], r["bots"], r["ratings"]["heuristic"] > r["ratings"]["random"]
(4, ['heuristic', 'random'], True)
"""

from __future__ import annotations

import math
import signal
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from commerce.errors import CommerceError
from commerce.rules import Ruleset
from commerce.stats import bradley_terry, mean_ci

BlockResult = list[tuple[tuple[int, ...], tuple[int, ...]]]
"""One block: for each game, (bot index of each seat, payoff of each seat)."""


def block_lineups(bots: int, players: int) -> list[tuple[int, ...]]:
    """The seat -> bot assignment of each game of a block: every rotation of the bot order
    ``0 .. bots - 1`` cycled over the seats, then every rotation of its mirror, each distinct
    line-up once.

    >>> block_lineups(3, 4)
    [(0, 1, 2, 0), (1, 2, 0, 1), (2, 0, 1, 2), (2, 1, 0, 2), (1, 0, 2, 1), (0, 2, 1, 0)]
    >>> block_lineups(2, 4)
    [(0, 1, 0, 1), (1, 0, 1, 0)]
    """
    out: list[tuple[int, ...]] = []
    order = list(range(bots))
    for seq in (order, order[::-1]):
        for j in range(bots):
            lineup = tuple(seq[(i + j) % bots] for i in range(players))
            if lineup not in out:
                out.append(lineup)
    return out


def block_size(bots: int, players: int) -> int:
    """Games in one block of a tournament of *bots* bots at *players* seats.

    >>> block_size(3, 4), block_size(2, 4), block_size(4, 4)
    (6, 2, 8)
    """
    return len(block_lineups(bots, players))


def bot_order(bots: Sequence[str]) -> list[str]:
    """The order a tournament seats *bots* in, whatever order they were listed in: sorted by
    name, blanks dropped.

    >>> bot_order(["search", " random", "heuristic"])
    ['heuristic', 'random', 'search']
    """
    return sorted(b.strip() for b in bots if b.strip())


_WORKER: dict[str, Any] = {}
_R = TypeVar("_R")


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`run_blocks` (or a tournament): how much was finished.

    The results played so far are dropped; the message says how many there were, e.g.
    ``interrupted after 12 of 60 games``.
    """

    def __init__(self, done: int, total: int, unit: str = "batches of games") -> None:
        super().__init__(f"interrupted after {done} of {total} {unit}")
        self.done = done
        """How many were finished."""
        self.total = total
        """How many there were to play."""


def _worker_init(init: Callable[..., None], *args: Any) -> None:
    """A worker process: Ctrl-C is for the parent, which stops the pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    init(*args)


def _init(rules: Ruleset, players: int, specs: Sequence[str], seed: int) -> None:
    from commerce.bots import make_bot

    _WORKER.update(rules=rules, players=players, bots=[make_bot(s) for s in specs], seed=seed)


def _play_block(block: int) -> BlockResult:
    from commerce.apps.simulate import game_seed
    from commerce.driver import play_game

    rules, players, bots = _WORKER["rules"], _WORKER["players"], _WORKER["bots"]
    seed = game_seed(_WORKER["seed"], block)
    out: BlockResult = []
    for lineup in block_lineups(len(bots), players):
        record = play_game(rules, [bots[k] for k in lineup], seed=seed)
        assert record.payoffs is not None
        out.append((lineup, tuple(record.payoffs)))
    return out


class Spread(Protocol):
    """Somewhere else to play the blocks (:class:`commerce.spread.RayWorkers`): it runs
    ``init(*init_args)`` in each of its workers and returns ``[work(b) for b in
    range(blocks)]`` in block order."""

    def run(self, init_args: tuple[Any, ...], blocks: int, work: Callable[[int], Any],
            init: Callable[..., None], progress: Callable[[int], None] | None) -> list[Any]:
        """The blocks' results, in block order."""
        ...


def run_blocks(init_args: tuple[Any, ...], blocks: int, jobs: int | Spread,
               work: Callable[[int], _R], init: Callable[..., None],
               progress: Callable[[int], None] | None = None) -> list[_R]:
    """``[work(b) for b in range(blocks)]``, in *jobs* processes (or spread by *jobs*, a
    :class:`Spread`), in order.

    Each process runs ``init(*init_args)`` first. With one job everything runs here.

    :raises Interrupted: on Ctrl-C (the worker processes are stopped quietly).
    """
    if not isinstance(jobs, int):
        spread: list[_R] = jobs.run(init_args, blocks, work, init, progress)
        return spread
    if jobs < 1:
        raise CommerceError("--jobs must be at least 1")
    results: list[_R] = []
    try:
        if jobs == 1 or blocks <= 1:
            init(*init_args)
            for b in range(blocks):
                results.append(work(b))
                if progress is not None:
                    progress(b + 1)
            return results
        _run_pool(init_args, blocks, jobs, work, init, progress, results)
    except Interrupted:
        raise
    except KeyboardInterrupt:
        raise Interrupted(len(results), blocks) from None
    return results


def _run_pool(init_args: tuple[Any, ...], blocks: int, jobs: int,
              work: Callable[[int], _R], init: Callable[..., None],
              progress: Callable[[int], None] | None, results: list[_R]) -> None:
    """:func:`run_blocks` in a pool of worker processes, appending to *results*."""
    import multiprocessing
    import threading

    init(*init_args)  # warm the tables here, so that forked workers share them
    ctx = multiprocessing.get_context("fork")
    # Ctrl-C is held back (blocked, not ignored) while the workers start: they inherit the
    # block and their initializer ignores it (dropping one held back); the parent gets a
    # Ctrl-C that came meanwhile once the pool is up, and stops them. Ignoring it instead
    # lost a Ctrl-C pressed while the pool started. Signals belong to the main thread.
    main = threading.current_thread() is threading.main_thread()
    held = {signal.SIGINT}
    if main:
        signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        pool = ctx.Pool(min(jobs, blocks), initializer=_worker_init,
                        initargs=(init, *init_args))
    except BaseException:
        if main:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, held)
        raise
    with pool:  # leaving it, on Ctrl-C too, terminates the workers
        if main:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, held)
        for b, result in enumerate(pool.imap(work, range(blocks), chunksize=1)):
            results.append(result)
            if progress is not None:
                progress(b + 1)


def tournament(
    rules: Ruleset,
    *,
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int,
    jobs: int | Spread = 1,
    progress: Callable[[int], None] | None = None,
    engine: str = "reference",
) -> dict[str, Any]:
    """Play about *games* games (rounded up to whole blocks, :func:`block_size`), the bots in
    :func:`bot_order` whatever order *bots* lists them in.

    *engine* (:data:`commerce.apps.simulate.ENGINES`): ``auto`` plays on the family's
    compiled kernel when every bot has a compiled policy there
    (:func:`commerce.apps.simulate.choose_engine`),
    ``compiled`` insists on it, ``reference`` plays through the driver. On the kernel the blocks
    are the same (each bot at every seat once, on the same deals: the games of a block share
    their first dealer and chance's cards deal for deal), but its random streams are the
    kernel's, so a seed reproduces results within one engine. The result says which engine
    played (``engine``) and why (``engine_reason``).

    :raises CommerceError: for fewer than two bots, a repeated bot, a bad count, or ``compiled``
        where the kernel cannot play.
    :raises Interrupted: on Ctrl-C, saying how many games were finished.
    """
    from commerce.apps.simulate import choose_engine
    from commerce.bots import make_bot

    names = bot_order(bots)
    if len(names) < 2:
        raise CommerceError("a tournament needs at least two bots, e.g. --bots random,heuristic")
    if len(set(names)) != len(names):
        raise CommerceError("name each bot once in --bots")
    if players not in rules.player_range():
        raise CommerceError(f"{rules.name} is for {rules.players_phrase()}, not {players}")
    if games < 1:
        raise CommerceError("--games must be at least 1")
    for spec in names:
        make_bot(spec)  # validate before playing
    k = block_size(len(names), players)
    blocks = math.ceil(games / k)
    chosen, why = choose_engine(rules, players, names, engine)
    if chosen == "compiled":
        result = summarize(rules, players, names, seed, _kernel_blocks(
            rules, players, names, seed, blocks, progress))
        return {**result, "engine": chosen, "engine_reason": why}
    try:
        results: list[BlockResult] = run_blocks(
            (rules, players, names, seed), blocks, jobs, _play_block, _init,
            None if progress is None else (lambda done: progress(min(done * k, blocks * k))))
    except Interrupted as exc:
        raise Interrupted(exc.done * k, blocks * k, "games") from None
    return {**summarize(rules, players, names, seed, results), "engine": chosen,
            "engine_reason": why}


def _kernel_blocks(rules: Ruleset, players: int, names: Sequence[str], seed: int,
                   blocks: int, progress: Callable[[int], None] | None) -> list[BlockResult]:
    """The blocks played on the compiled kernel (:func:`commerce.compiled.run_batch` with
    ``rotate``), in batches of at most 4,096 blocks so that progress can be shown."""
    from commerce.compiled import build_kernel

    lineups = block_lineups(len(names), players)
    k = len(lineups)
    kernel = build_kernel(rules, players)
    out: list[BlockResult] = []
    step = 4096
    try:
        _kernel_batches(rules, players, names, seed, blocks, progress, kernel, lineups, out,
                        step)
    except KeyboardInterrupt:
        raise Interrupted(len(out) * k, blocks * k, "games") from None
    return out


def _kernel_batches(rules: Ruleset, players: int, names: Sequence[str], seed: int,
                    blocks: int, progress: Callable[[int], None] | None, kernel: Any,
                    lineups: list[tuple[int, ...]], out: list[BlockResult], step: int) -> None:
    from commerce.compiled import run_batch

    k = len(lineups)
    for first in range(0, blocks, step):
        n = min(step, blocks - first)
        batch = run_batch(rules, players=players, games=n * k, seed=seed, bots=names,
                          kernel=kernel, first_game=first * k, lineups=lineups)
        pay = batch.payoffs.tolist()
        for b in range(n):
            out.append([(lineups[j], tuple(pay[b * k + j])) for j in range(k)])
        if progress is not None:
            progress((first + n) * k)


def summarize(rules: Ruleset, players: int, names: Sequence[str], seed: int,
              results: Sequence[BlockResult]) -> dict[str, Any]:
    """The tournament's figures from its blocks (see the module's text)."""
    k = len(names)
    size = len(results[0]) if results else 0
    per_block: list[list[float]] = [[] for _ in range(k)]
    wins = [[0.0] * k for _ in range(k)]
    for block in results:
        totals = [0.0] * k
        counts = [0] * k
        for lineup, payoffs in block:
            for seat, bot in enumerate(lineup):
                totals[bot] += payoffs[seat]
                counts[bot] += 1
            for i in range(players):
                for j in range(i + 1, players):
                    a, b = lineup[i], lineup[j]
                    if a == b:
                        continue
                    if payoffs[i] > payoffs[j]:
                        wins[a][b] += 1.0
                    elif payoffs[i] < payoffs[j]:
                        wins[b][a] += 1.0
                    else:
                        wins[a][b] += 0.5
                        wins[b][a] += 0.5
        for bot in range(k):
            per_block[bot].append(totals[bot] / counts[bot])
    cis = [mean_ci(xs) for xs in per_block]
    ratings = bradley_terry(wins)
    pairs = []
    for b in range(k):
        for a in range(b + 1, k):  # the one that scored more minus the other
            diff = mean_ci([x - y for x, y in zip(per_block[a], per_block[b], strict=True)])
            if diff.mean < 0:
                diff = mean_ci([y - x for x, y in zip(per_block[a], per_block[b],
                                                      strict=True)])
                pairs.append({"a": names[b], "b": names[a], "diff": _r(diff.mean),
                              "ci95": [_r(diff.lo), _r(diff.hi)]})
                continue
            pairs.append({"a": names[a], "b": names[b], "diff": _r(diff.mean),
                          "ci95": [_r(diff.lo), _r(diff.hi)]})
    return {
        "rules": rules.id,
        "players": players,
        "seed": seed,
        "bots": list(names),
        "games": len(results) * size,
        "blocks": len(results),
        "ratings": {n: _r(r, 1) for n, r in zip(names, ratings, strict=True)},
        "payoff": {n: _r(c.mean) for n, c in zip(names, cis, strict=True)},
        "ci95": {n: [_r(c.lo), _r(c.hi)] for n, c in zip(names, cis, strict=True)},
        "pairs": pairs,
    }


def _r(x: float, digits: int = 4) -> float | None:
    """Round for output; None for an undefined value (JSON has no infinity)."""
    if math.isnan(x) or math.isinf(x):
        return None
    return round(x, digits)
