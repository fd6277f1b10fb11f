"""Saying what a long wait is, on a terminal.

A command whose work starts with the compiled simulator loads its code from numba's cache,
or, the first time on a machine (or after an upgrade), compiles it: 15 s to a minute with
nothing else to show. :func:`warm_kernel` does that first, under a :func:`notice` that
appears once the wait passes a second, so that the command's own progress bar then moves
from its first game. The notice is written to standard error, and only when it is a terminal:
piped or redirected output stays clean.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from commerce.rules import Ruleset

AFTER_S = 1.0
"""Seconds a wait lasts before it is explained."""
COMPILING = "loading the simulator (its first run compiles it, once)"
"""What :func:`warm_kernel` says while it waits."""


@contextlib.contextmanager
def notice(text: str, *, after: float = AFTER_S, stream: TextIO | None = None) -> Iterator[None]:
    """While the block runs: from *after* seconds on, *text* and the seconds spent so far,
    on one line of *stream* (standard error, cut to the terminal's width) rewritten every
    second and wiped at the end. Nothing at all when *stream* is not a terminal."""
    out = sys.stderr if stream is None else stream
    try:
        terminal = out.isatty()
    except (OSError, ValueError):
        terminal = False
    if not terminal:
        yield
        return
    import shutil

    width = shutil.get_terminal_size((80, 24)).columns - 1  # a wrapped line is not rewritten
    done = threading.Event()
    shown = threading.Event()
    start = time.monotonic()

    def tick() -> None:
        if done.wait(after):
            return
        while True:
            try:
                line = f"{text}: {time.monotonic() - start:.0f} s"
                out.write(f"\r{line[:width]}\x1b[K")
                out.flush()
            except (OSError, ValueError):  # the terminal went away: nothing more to say
                return
            shown.set()
            if done.wait(1.0):
                return

    thread = threading.Thread(target=tick, name="commerce-notice", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        if shown.is_set():
            with contextlib.suppress(OSError, ValueError):
                out.write("\r\x1b[K")
                out.flush()


def warm_kernel(rules: Ruleset, players: int, bots: Sequence[str], *, stand: bool = False,
                stream: TextIO | None = None) -> float:
    """Build the kernel of *rules* at *players* seats and play one game on it (with *stand*,
    one game of its stand samples), so that its code is loaded, or compiled the first time,
    before a command's games begin, under a :func:`notice`; the seconds it took."""
    from commerce.compiled import build_kernel, policy_arrays, run_batch

    start = time.perf_counter()
    with notice(COMPILING, stream=stream):
        kern = build_kernel(rules, players)
        if stand:
            codes, boldness = policy_arrays(list(bots), players)
            kern.stand_run(0, 0, 1, codes, boldness)
        else:
            run_batch(rules, players=players, games=1, seed=0, bots=list(bots), kernel=kern,
                      threads=1)
    return time.perf_counter() - start
