"""Tournaments and analyses past one machine: their blocks of games as Ray tasks.

``commerce tournament --ray [ADDRESS]`` and ``commerce analyze ... --ray [ADDRESS]`` hand the
blocks of games that ``--jobs`` would share among local processes to a Ray cluster instead:
the one at *ADDRESS* (``ray://host:10001``, or ``auto`` for the cluster this machine belongs
to), or, with no address, a local Ray started for the run and stopped after it. The blocks
and their seeds are exactly those of a single-process run, and the results come back in block
order, so a seed gives the same results however the blocks were spread. Every machine of the
cluster needs Commerce installed (the same version). Needs the optional ``ray`` package
(``pip install 'commerce[ray]'``).
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any, TypeVar

from commerce.errors import CommerceError

__all__ = ["CHUNKS_PER_CPU", "RayWorkers", "check_address"]

_R = TypeVar("_R")

CHUNKS_PER_CPU = 4
"""Tasks per CPU of the cluster: enough to keep every CPU busy to the end of the run."""


def _chunk(init: Callable[..., None], init_args: tuple[object, ...],
           work: Callable[[int], object], first: int, stop: int) -> list[object]:
    """One Ray task: a worker's set-up, then the blocks *first* to *stop*."""
    init(*init_args)
    return [work(b) for b in range(first, stop)]


class RayWorkers:
    """Where :func:`commerce.apps.jobs.run_blocks` sends the blocks: a Ray cluster.

    :param address: the cluster's address; None or ``""`` starts a local Ray for the run.
    :param num_cpus: CPUs of a local Ray (default: this machine's).
    """

    def __init__(self, address: str | None = None, *, num_cpus: int | None = None) -> None:
        self.address = address or None
        self.num_cpus = num_cpus

    def run(self, init_args: tuple[object, ...], blocks: int, work: Callable[[int], _R],
            init: Callable[..., None], progress: Callable[[int], None] | None) -> list[_R]:
        """``[work(b) for b in range(blocks)]``, each Ray task running ``init(*init_args)``
        first, in block order.

        :raises CommerceError: when Ray is missing or the cluster cannot be reached.
        """
        try:
            import ray
        except ImportError:
            raise CommerceError("--ray needs Ray: pip install 'commerce[ray]'") from None
        started = not ray.is_initialized()
        if started:
            check_address(self.address)
            try:
                if self.address is None:
                    ray.init(num_cpus=self.num_cpus, include_dashboard=False,
                             log_to_driver=False, configure_logging=False)
                else:
                    ray.init(address=self.address, log_to_driver=False,
                             configure_logging=False)
            except Exception as exc:  # noqa: BLE001 - any failure to connect: one line
                where = self.address or "a local Ray"
                first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
                raise CommerceError(f"--ray: cannot start or reach {where}: "
                                    f"{first or type(exc).__name__}") from None
        try:
            resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
            cpus = max(1, int(resources.get("CPU", 1)))
            tasks = max(1, min(blocks, cpus * CHUNKS_PER_CPU))
            bounds = [blocks * t // tasks for t in range(tasks + 1)]
            remote = ray.remote(_chunk)
            refs = [remote.remote(init, init_args, work, bounds[t], bounds[t + 1])
                    for t in range(tasks)]
            results: list[Any] = []  # each Ray task's results, as work gave them
            for ref in refs:
                part: list[Any] = ray.get(ref)
                results.extend(part)
                if progress is not None:
                    progress(len(results))
            return results
        finally:
            if started:
                ray.shutdown()


def check_address(address: str | None) -> None:
    """Refuse at once an address nothing listens on (Ray itself waits half a minute).

    :raises CommerceError: naming the address.
    """
    if address is None or address == "auto":
        return
    where = address.removeprefix("ray://")
    host, _, port = where.rpartition(":")
    if not host or not port.isdigit():
        raise CommerceError(f"--ray: {address!r} is not an address: use ray://HOST:PORT, "
                            f"HOST:PORT or auto")
    try:
        with socket.create_connection((host, int(port)), timeout=3):
            pass
    except OSError as exc:
        raise CommerceError(f"--ray: cannot start or reach {address}: "
                            f"{exc.strerror or exc}") from None
