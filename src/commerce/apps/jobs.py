"""Work shared among processes: units of work (blocks or chunks of games) played here, in a
pool of worker processes, or spread by a :class:`Spread` (:class:`commerce.spread.RayWorkers`),
with their results in order whatever played them, and Ctrl-C reported as how much was done.

Each process runs an ``init(*init_args)`` first (the run's bots, built once a process), then
``work(unit)`` for its units; *init* and *work* are module-level functions, so that another
process (or a Ray task) can find them.

>>> run_blocks((), 3, 1, abs, lambda: None)
[0, 1, 2]
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from typing import Protocol, TypeVar

from commerce.errors import CommerceError

_R = TypeVar("_R")


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`run_blocks` (or a run of games): how much was finished.

    The results played so far are dropped; the message says how many there were, e.g.
    ``interrupted after 12 of 60 games``.
    """

    def __init__(self, done: int, total: int, unit: str = "batches of games") -> None:
        super().__init__(f"interrupted after {done} of {total} {unit}")
        self.done = done
        """How many were finished."""
        self.total = total
        """How many there were to play."""


def _worker_init(init: Callable[..., None], *args: object) -> None:
    """A worker process: Ctrl-C is for the parent, which stops the pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    init(*args)


class Spread(Protocol):
    """Somewhere else to play the blocks (:class:`commerce.spread.RayWorkers`): it runs
    ``init(*init_args)`` in each of its workers and returns ``[work(b) for b in
    range(blocks)]`` in block order."""

    def run(self, init_args: tuple[object, ...], blocks: int, work: Callable[[int], _R],
            init: Callable[..., None], progress: Callable[[int], None] | None) -> list[_R]:
        """The blocks' results, in block order."""
        ...


def run_blocks(init_args: tuple[object, ...], blocks: int, jobs: int | Spread,
               work: Callable[[int], _R], init: Callable[..., None],
               progress: Callable[[int], None] | None = None) -> list[_R]:
    """``[work(b) for b in range(blocks)]``, in *jobs* processes (or spread by *jobs*, a
    :class:`Spread`), in order.

    Each process runs ``init(*init_args)`` first. With one job everything runs here.

    :raises Interrupted: on Ctrl-C (the worker processes are stopped quietly).
    """
    if not isinstance(jobs, int):
        return jobs.run(init_args, blocks, work, init, progress)
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


def _run_pool(init_args: tuple[object, ...], blocks: int, jobs: int,
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
