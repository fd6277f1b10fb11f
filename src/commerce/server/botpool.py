"""The bots' thinking, off the request path: worker processes at a lower priority, shared
fairly between the players who host tables.

Each decision of a bot at a table is a job: the bot's spec (a menu level at the server's time
cap), the seat's observation, the legal actions and a seed for the bot's generator; so is each
hint a player asks for (the search bot's estimates from the player's observation, or the
policy of the learned model of ``commerce serve --hint-model``). Jobs wait
in one queue per host and go to the workers in turn, one host after another, so one host's
forty tables of search bots take their turn beside another host's one table and never ahead
of it. The workers are separate processes (the tables' own process stays free to answer
people), in Linux's idle scheduling class (``SCHED_IDLE``: a core runs a worker only when
nothing else of the machine wants it, and gives it up the moment a server thread does; a
higher ``nice`` value where that class is missing), and they compile every bot's kernels before
the server accepts tables (:meth:`BotPool.start`). With ``workers=0`` the jobs run in threads
of the server's process instead (tests, and a server that should start at once).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import multiprocessing
import os
import random
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from starlette.concurrency import run_in_threadpool

from commerce.bots import make_bot
from commerce.core import Action
from commerce.family import Observation

if TYPE_CHECKING:
    from commerce.bots.learned import LearnedBot
    from commerce.bots.search import Estimate

_J = TypeVar("_J")
_R = TypeVar("_R")

__all__ = ["BotPool", "HintJob", "Job", "PolicyJob", "decide", "estimate", "policy", "warm"]

NICE = 10
"""How much lower the workers' priority is than the server's (``nice``), where the idle
scheduling class is missing."""


@dataclass(frozen=True)
class Job:
    """One decision of a bot: what it is given."""

    spec: str
    obs: Observation
    legal: tuple[Action, ...]
    seed: int


def decide(job: Job) -> Action:
    """A bot's decision (in a worker): one of the legal actions."""
    bot = make_bot(job.spec)
    action: Action = bot.act(job.obs, job.legal, random.Random(job.seed))
    return action


@dataclass(frozen=True)
class HintJob:
    """One hint: the search bot's estimate of each legal action of a seat to act."""

    obs: Observation
    legal: tuple[Action, ...]
    seed: int
    iterations: int


def estimate(job: HintJob) -> list[Estimate]:
    """The search bot's estimate of each of the job's legal actions, in their order (in a
    worker)."""
    from commerce.bots.search import search

    return list(search(job.obs, job.legal, random.Random(job.seed),
                       iterations=job.iterations))


@dataclass(frozen=True)
class PolicyJob:
    """One hint from a learned model: how often its policy plays each legal action of a seat
    to act. *model* is a name the server's operator listed, never one a client sent."""

    model: str
    obs: Observation
    legal: tuple[Action, ...]


@functools.lru_cache(maxsize=8)
def _learned(model: str) -> LearnedBot:
    """The learned model *model*, read once per worker (the operator's models do not change
    while the server runs; a hint need not read its weights from disk again)."""
    from commerce.bots.learned import LearnedBot

    return LearnedBot(model)


def policy(job: PolicyJob) -> tuple[list[float], int]:
    """The learned model's probability of each of the job's legal actions, in their order,
    and the index of the one it plays (in a worker:
    :meth:`commerce.bots.learned.LearnedBot.policy`)."""
    chances: tuple[list[float], int] = _learned(job.model).policy(job.obs, job.legal)
    return chances


def warm(specs: Sequence[str]) -> int:
    """Every family's first decisions by each bot of *specs* (which compiles the kernels they
    use); returns how many decisions were made."""
    from commerce.driver import Driver
    from commerce.rules import rulesets

    made = 0
    if not specs:
        return made
    seen: set[str] = set()
    for rules in rulesets():
        if rules.family in seen:
            continue
        seen.add(rules.family)
        bots = [make_bot(specs[k % len(specs)]) for k in range(rules.min_players)]
        driver = Driver(rules, bots, seed=1)
        for _ in range(400):
            if driver.decisions >= 2 * len(bots) or not driver.step():
                break
        made += driver.decisions
    return made


def _worker_start() -> None:
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (OSError, AttributeError):
        with contextlib.suppress(OSError, AttributeError):
            os.nice(NICE)
    # a worker ends with its server, even one killed outright (no shutdown to tell it)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="server-watch", daemon=True).start()


class BotPool:
    """The bots' workers, and the fair queue in front of them (one per server)."""

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        self._executor: Executor | None = None
        self._queues: dict[str, deque[tuple[Callable[[Any], Any], Any,
                                            asyncio.Future[Any]]]] = {}
        self._turns: deque[str] = deque()
        self._free = max(1, workers)
        self.done = 0
        self._warming: asyncio.Future[Any] | None = None

    async def start(self, specs: Sequence[str] = ()) -> None:
        """Start the workers; with *specs*, each one begins by making those bots' first
        decisions in every family (their kernels compiled), and this process those of the
        levels that think here: :meth:`ready` waits for it, and every job waits behind it."""
        loop = asyncio.get_running_loop()
        if self.workers > 0:
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_start)
            if specs:
                cheap = [x for x in specs if not x.startswith("search")]
                self._warming = asyncio.gather(
                    run_in_threadpool(warm, cheap),  # the levels that think in this process
                    *(loop.run_in_executor(self._executor, warm, list(specs))
                      for _ in range(self.workers)))
        elif specs:
            self._warming = asyncio.ensure_future(run_in_threadpool(warm, list(specs)))

    async def ready(self) -> None:
        """Wait until every worker has compiled its bots' kernels."""
        if self._warming is not None:
            await asyncio.shield(self._warming)

    def stop(self) -> None:
        """Stop the workers now (a decision under way is dropped)."""
        if self._warming is not None:
            self._warming.cancel()
        for queue in self._queues.values():
            for _, _, future in queue:
                future.cancel()
        self._queues.clear()
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
            processes = getattr(executor, "_processes", None) or {}
            for process in list(processes.values()):
                with contextlib.suppress(Exception):
                    process.terminate()

    async def decide(self, host: str, job: Job) -> Action:
        """The decision of *job*, queued behind the jobs of other hosts in turn."""
        action: Action = await self._submit(host, decide, job)
        return action

    async def estimate(self, who: str, job: HintJob) -> list[Estimate]:
        """The estimates of a hint, asked by *who* (queued as a host's jobs are)."""
        rows: list[Estimate] = await self._submit(who, estimate, job)
        return rows

    async def policy(self, who: str, job: PolicyJob) -> tuple[list[float], int]:
        """A learned model's hint, asked by *who* (queued as a host's jobs are)."""
        chances: tuple[list[float], int] = await self._submit(who, policy, job)
        return chances

    async def _submit(self, host: str, fn: Callable[[_J], _R], job: _J) -> _R:
        future: asyncio.Future[_R] = asyncio.get_running_loop().create_future()
        queue = self._queues.get(host)
        if queue is None:
            queue = self._queues[host] = deque()
            self._turns.append(host)
        queue.append((fn, job, future))
        self._dispatch()
        return await future

    def _dispatch(self) -> None:
        while self._free > 0 and self._turns:
            host = self._turns.popleft()
            queue = self._queues[host]
            fn, job, future = queue.popleft()
            if queue:
                self._turns.append(host)  # its next job waits for every other host's turn
            else:
                del self._queues[host]
            if future.done():
                continue
            self._free -= 1
            asyncio.get_running_loop().create_task(self._run(fn, job, future))

    async def _run(self, fn: Callable[[Any], Any], job: Any,
                   future: asyncio.Future[Any]) -> None:
        try:
            if self._executor is not None:
                loop = asyncio.get_running_loop()
                result = await loop.run_in_executor(self._executor, fn, job)
            else:
                result = await run_in_threadpool(fn, job)
            if not future.done():
                future.set_result(result)
        except BaseException as exc:  # noqa: BLE001 - the asker sees it
            if not future.done():
                if isinstance(exc, asyncio.CancelledError):
                    future.cancel()
                else:
                    future.set_exception(exc)
        finally:
            self.done += 1
            self._free += 1
            self._dispatch()
