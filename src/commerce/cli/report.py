"""Output shared by ``commerce tournament`` and ``commerce analyze``: the table, ``--json``,
``--csv FILE``, ``--plot FILE.png|.svg`` and ``--jobs N``; and the progress bar they and
``commerce simulate`` show.

Heavy imports (rich, matplotlib) happen inside the functions.
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from commerce.cli import GAMES, JOBS, SEED, file_name, int_in, span
from commerce.errors import CommerceError

if TYPE_CHECKING:
    from commerce.apps.jobs import Spread

_T = TypeVar("_T")

PLOT_SUFFIXES = (".png", ".svg")



def with_progress(total: int, work: Callable[[Callable[[int], None] | None], _T]) -> _T:
    """``work(progress)``: on a terminal with a progress bar on stderr of *total* games, that
    *progress* (told games done) moves; elsewhere *progress* is ``None``."""
    if not sys.stderr.isatty():
        return work(None)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("games", total=total)
        return work(lambda done: bar.update(task, completed=done))


def add_output_arguments(p: argparse.ArgumentParser, *, games: int, seed: bool = True) -> None:
    """``--games --seed --jobs --json --csv --plot``."""
    p.add_argument("--games", type=int_in(*GAMES), default=games,
                   help=f"games to play, {span(GAMES)} (default {games})")
    if seed:
        p.add_argument("--seed", type=int_in(*SEED), default=0,
                       help=f"master seed, {span(SEED)} (default 0)")
    p.add_argument("--jobs", type=int_in(*JOBS), default=1, metavar="N",
                   help=f"processes to use, {span(JOBS)}; results are identical for any N "
                        "(default 1)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--csv", metavar="FILE", type=file_name, default=None,
                   help="also write the table as CSV")
    p.add_argument("--plot", metavar="FILE", type=file_name, default=None,
                   help="also draw the results to FILE.png or FILE.svg")


def check_output_arguments(args: argparse.Namespace) -> None:
    """Refuse bad ``--jobs``, ``--games`` or ``--plot`` before any work is done."""
    if args.jobs < 1:
        raise CommerceError("--jobs must be at least 1")
    if getattr(args, "games", 1) < 1:
        raise CommerceError("--games must be at least 1")
    if args.plot is not None and Path(args.plot).suffix.lower() not in PLOT_SUFFIXES:
        raise CommerceError(f"--plot {args.plot}: the file name must end in .png or .svg")
    for path in (args.csv, args.plot):
        if path is None:
            continue
        try:
            folder = Path(path).resolve().parent
        except (OSError, RuntimeError, ValueError) as exc:  # a symlink loop, a NUL
            raise CommerceError(f"{path!r}: not a usable file name ({exc})") from None
        if not folder.is_dir():
            raise CommerceError(f"{path}: no such directory")


def fmt(x: float | None, spec: str = "+.3f") -> str:
    """A number for a table; '—' for a missing one."""
    if x is None or (isinstance(x, float) and (math.isnan(x) or math.isinf(x))):
        return "—"
    return format(x, spec)


def interval(lo: float | None, hi: float | None, spec: str = "+.3f") -> str:
    """``[lo, hi]`` for a table."""
    return f"[{fmt(lo, spec)}, {fmt(hi, spec)}]"


def column_groups(header: Sequence[str], rows: Sequence[Sequence[object]], left: int,
                  width: int) -> list[list[int]]:
    """The columns of a table split into groups that each fit *width* characters, every
    group opening with the first *left* columns (the rows' keys); one group if all fit.

    >>> column_groups(["ruleset", "a", "b", "c"], [["peel", "1.00", "2.00", "3.00"]], 1, 30)
    [[0, 1, 2], [0, 3]]
    """
    def need(i: int) -> int:  # a column's text and its share of the rules and padding
        cells = [len(str(header[i]))] + [len(str(r[i])) for r in rows]
        return max(cells) + 3
    keys = list(range(min(left, len(header))))
    base = 1 + sum(need(i) for i in keys)
    groups: list[list[int]] = []
    current: list[int] = []
    used = base
    for i in range(len(keys), len(header)):
        if current and used + need(i) > width:
            groups.append(keys + current)
            current, used = [], base
        current.append(i)
        used += need(i)
    if current or not groups:
        groups.append(keys + current)
    return groups


def print_table(title: str, header: Sequence[str], rows: Sequence[Sequence[object]],
                *, left: int = 1, width: int | None = None, wide: bool = False) -> None:
    """A rich table on standard output; the first *left* columns are left-aligned (and are
    the rows' keys). A table wider than the terminal (80 columns when not a terminal) is
    printed as several, each with the keys and the columns that fit; *wide* prints it whole
    however wide it is."""
    from rich.console import Console
    from rich.table import Table

    console = Console() if width is None else Console(width=width)
    if wide:
        need = 1 + sum(3 + max(len(str(h)), *(len(str(r[i])) for r in rows))
                       for i, h in enumerate(header)) if rows else console.width
        console = Console(width=max(console.width, need))
    groups = column_groups(header, rows, left, console.width)
    for n, group in enumerate(groups, 1):
        part = title if len(groups) == 1 else f"{title} ({n} of {len(groups)})"
        table = Table(title=part)
        for i in group:
            table.add_column(header[i], justify="left" if i < left else "right")
        for row in rows:
            table.add_row(*(str(row[i]) for i in group))
        console.print(table)


def write_csv(path: str, header: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """Write *rows* under *header* to *path*."""
    try:
        with open(path, "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(header)
            for row in rows:
                writer.writerow(["" if x is None else x for x in row])
    except OSError as exc:
        raise CommerceError(f"{path}: {exc.strerror or exc}") from None


def new_figure(rows: int = 1, cols: int = 1, *, width: float = 8.0,
               height: float = 4.5) -> tuple[Any, Any]:
    """A matplotlib figure (headless backend) and its axes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(rows, cols, figsize=(width, height), squeeze=False)
    return fig, axes


def save_figure(fig: Any, path: str) -> None:
    """Save and close *fig*."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    try:
        fig.savefig(path, dpi=120, bbox_inches="tight")  # legends beside the axes too
    except OSError as exc:
        raise CommerceError(f"{path}: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)


def interval_axes(ax: Any, labels: Sequence[str], means: Sequence[float | None],
                  los: Sequence[float | None], his: Sequence[float | None], *,
                  xlabel: str, title: str, zero: bool = True) -> None:
    """Horizontal points with 95% interval bars, one row per label (the first on top)."""
    ys = list(range(len(labels)))[::-1]
    for y, m, lo, hi in zip(ys, means, los, his, strict=True):
        if m is None:
            continue
        left = m - lo if lo is not None else 0.0
        right = hi - m if hi is not None else 0.0
        color = "tab:green" if lo is not None and lo > 0 else (
            "tab:red" if hi is not None and hi < 0 else "tab:blue")
        ax.errorbar([m], [y], xerr=[[left], [right]], fmt="o", color=color, capsize=4)
        ax.annotate(f"{m:+.2f}", (m, y), textcoords="offset points", xytext=(0, 7),
                    ha="center", fontsize=8)
    if zero:
        ax.axvline(0, color="grey", linewidth=0.8, linestyle="--")
    ax.margins(y=0.25)
    ax.set_yticks(ys)
    ax.set_yticklabels(labels)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)


def add_ray_argument(p: argparse.ArgumentParser) -> None:
    """``--ray [ADDRESS]``: the blocks of games as Ray tasks (:mod:`commerce.spread`)."""
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="spread the games over a Ray cluster (ray://host:10001, or auto), or "
                        "with no address over a local Ray started for the run; results are "
                        "identical to one process's. Needs commerce[ray]")


def workers(args: argparse.Namespace) -> int | Spread:
    """What ``--jobs`` and ``--ray`` ask for: a number of processes, or a Ray cluster."""
    if getattr(args, "ray", None) is None:
        jobs: int = args.jobs
        return jobs
    if args.jobs != 1:
        raise CommerceError("use --jobs or --ray, not both")
    from commerce.spread import RayWorkers, check_address

    check_address(args.ray or None)  # at once, whichever engine plays
    return RayWorkers(args.ray or None)
