"""A benchmark's result: rows of figures, printed as text, JSON or a Markdown table.

Every named benchmark of ``commerce bench NAME`` returns one :class:`Figures`; its rates are
medians of interleaved rounds (:func:`interleaved_medians`), and its ratios are taken against
a baseline measured in the same run, so that a busy spell of a shared machine slows the
measured figure and its baseline alike.
"""

from __future__ import annotations

import datetime
import gc
import os
import platform
import statistics
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

Cell = str | int | float | None
"""One figure or label of a row."""


@dataclass
class Figures:
    """The result of one benchmark.

    :param name: the benchmark's name (``commerce bench NAME``).
    :param title: one line: what was measured, and how.
    :param columns: ``(key, label)`` of each column, in order.
    :param rows: the rows, each a mapping from a column's key to its value (extra keys are
        kept in the JSON and left out of the tables).
    :param notes: lines printed under the table.
    """

    name: str
    title: str
    columns: list[tuple[str, str]]
    rows: list[dict[str, Cell]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        """A JSON-ready object: ``bench``, ``title``, ``environment``, ``rows``, ``notes``."""
        return {"bench": self.name, "title": self.title, "environment": environment(),
                "rows": self.rows, "notes": self.notes}

    def markdown(self) -> str:
        """The figures as a Markdown table, under one line naming the machine.

        >>> f = Figures("x", "t", [("a", "a"), ("n", "per second")], [{"a": "peel", "n": 1e6}])
        >>> print(f.markdown().split("\\n", 2)[2])
        | a | per second |
        |---|---:|
        | peel | 1,000,000 |
        """
        head = "| " + " | ".join(label for _, label in self.columns) + " |"
        rule = "|" + "|".join("---:" if self._numeric(k) else "---" for k, _ in self.columns) + "|"
        lines = [self._measured(), "", head, rule]
        lines += ["| " + " | ".join(cell(row.get(k)) for k, _ in self.columns) + " |"
                  for row in self.rows]
        return "\n".join(lines)

    def text(self) -> str:
        """The figures as aligned columns for a terminal, the title first, the notes last."""
        table = [[label for _, label in self.columns]]
        table += [[cell(row.get(k)) for k, _ in self.columns] for row in self.rows]
        widths = [max(len(r[i]) for r in table) for i in range(len(self.columns))]
        lines = [self.title, ""]
        for r in table:
            lines.append("  ".join(c.rjust(w) if self._numeric(k) else c.ljust(w)
                                   for c, w, (k, _) in zip(r, widths, self.columns, strict=True))
                         .rstrip())
        env = environment()
        return "\n".join([*lines, *([""] + self.notes if self.notes else []),
                          f"({env['machine']}, {env['cpus']} cores, Python {env['python']}, "
                          f"load average {env['load']})"])

    def _numeric(self, key: str) -> bool:
        return any(isinstance(v, int | float) and not isinstance(v, bool)
                   for v in (row.get(key) for row in self.rows))

    def _measured(self) -> str:
        env = environment()
        return (f"Measured {env['date']} on {env['machine']}, {env['cpus']} cores, Python "
                f"{env['python']} (load average {env['load']} at the end); {self.title}")


def cell(value: Cell) -> str:
    """A value as the tables show it: large numbers with thousands separators, small ones
    with three significant digits, ``–`` for none.

    >>> [cell(x) for x in (1234567.8, 12.345, 0.01234, 7, None, "peel")]
    ['1,234,568', '12.3', '0.0123', '7', '–', 'peel']
    """
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if abs(value) >= 1000:
            return f"{value:,.0f}"
        return f"{value:.3g}"
    return value


def environment() -> dict[str, str]:
    """The date, the machine, its cores, Python's version and the load average."""
    try:
        load = f"{os.getloadavg()[0]:.1f}"
    except OSError:  # pragma: no cover - not on Linux
        load = "?"
    return {"date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d"),
            "machine": platform.machine(), "cpus": str(os.cpu_count()),
            "python": platform.python_version(), "load": load}


def interleaved_medians(works: Mapping[str, Callable[[], float]], rounds: int,
                        *, warm_up: bool = True) -> dict[str, float]:
    """The median over *rounds* rounds of each work's rate.

    Each work makes one timed measurement and returns its rate (items per second). Every
    work runs once untimed first (with *warm_up*: compiling, filling tables); then each
    round runs every work once, in turn, so that a slow spell of a shared machine meets all
    of them alike. The garbage collector is paused during a measurement, as :mod:`timeit`
    does.

    >>> interleaved_medians({"one": lambda: 1.0, "two": lambda: 2.0}, 3)
    {'one': 1.0, 'two': 2.0}
    """
    if warm_up:
        for work in works.values():
            work()
    runs: dict[str, list[float]] = {name: [] for name in works}
    for _ in range(max(1, rounds)):
        for name, work in works.items():
            runs[name].append(_without_gc(work))
    return {name: statistics.median(rates) for name, rates in runs.items()}


def _without_gc(work: Callable[[], float]) -> float:
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        return work()
    finally:
        if was:
            gc.enable()


def rate_for(seconds: float, step: Callable[[], int]) -> float:
    """Items per second of *step* (which returns how many items it did), called again and
    again for at least *seconds* (at least once)."""
    count = 0
    start = time.perf_counter()
    while True:
        count += step()
        spent = time.perf_counter() - start
        if spent >= seconds:
            return count / spent
