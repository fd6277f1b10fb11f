"""Speed measurements: hands evaluated per second, per call and in numpy batches.

:func:`run_bench` times, on one core and for a few seconds in all:

* ``hand_eval_per_call_per_s``: :attr:`Evaluator.rank_of <commerce.hands.Evaluator.rank_of>`
  called from a Python ``for`` loop on random hands held as tuples (loop overhead included);
* ``hand_eval_per_call_map_per_s``: the same calls driven by ``map`` (no loop overhead);
* ``hand_eval_inline_table_per_s``: ``rank_table[a][b][c]`` written inline in the loop;
* ``naive_eval_per_s``: :func:`naive_strength`, a classifier that uses no table, in the same
  loop (the baseline the tables are measured against);
* ``hand_eval_batch_per_s``: :func:`commerce.batch.evaluate_batch` on an ``(N, 3)`` ``uint8``
  array, checked; ``hand_eval_packed_per_s``: :func:`commerce.batch.evaluate_packed`;
* ``playout_decisions_per_s``: whatever the *playout* callable returns (``None`` without one).

Each figure is the median of several timed repeats. numpy is imported only when the batch
figures are measured, so this module is importable without it.
"""

from __future__ import annotations

import gc
import platform
import random
import statistics
import time
from collections import deque
from collections.abc import Callable, Sequence
from itertools import combinations, permutations

from commerce.cards import Card, pack
from commerce.hands import evaluator_for
from commerce.rules import Ruleset, find_ruleset


def naive_strength(hand: Sequence[Card]) -> int:
    """Strength of a hand under Peel's ranking, computed from scratch with no table.

    Kept only as the baseline of the benchmark: the integer orders hands exactly like
    :func:`commerce.hands.hand_key` under the ``peel`` preset (tricon, sequence with A-2-3
    lowest, flush by points then cards, pair then odd card, point by pips then cards).

    >>> from commerce.cards import parse_cards
    >>> naive_strength(parse_cards("2H 3H 4H")) > naive_strength(parse_cards("AS 2S 3S"))
    True
    """
    a, b, c = hand
    ra, rb, rc = (a >> 2) + 2, (b >> 2) + 2, (c >> 2) + 2
    if ra < rb:
        ra, rb = rb, ra
    if rb < rc:
        rb, rc = rc, rb
        if ra < rb:
            ra, rb = rb, ra
    if ra == rc:
        return 5 << 20 | ra
    cards = ra << 8 | rb << 4 | rc
    if (a & 3) == (b & 3) == (c & 3):
        if ra - rb == 1 and rb - rc == 1:
            return 4 << 20 | ra
        if ra == 14 and rb == 3:
            return 4 << 20 | 3
        pts = ((11 if ra == 14 else 10 if ra > 10 else ra) + (10 if rb > 10 else rb)
               + (10 if rc > 10 else rc))
        return 3 << 20 | pts << 12 | cards
    if ra == rb:
        return 2 << 20 | rb << 4 | rc
    if rb == rc:
        return 2 << 20 | rb << 4 | ra
    pts = ((11 if ra == 14 else 10 if ra > 10 else ra) + (10 if rb > 10 else rb)
           + (10 if rc > 10 else rc))
    return 1 << 20 | pts << 12 | cards


def _median_rates(
    items: dict[str, tuple[Callable[[], object], int]], seconds: float, repeats: int
) -> dict[str, float]:
    """Items per second of each ``name: (work, items)``: the median of its timed runs.

    The works run in interleaved rounds (at least *repeats*, more while the time budget of
    *seconds* per work lasts), so that a slow spell of a shared machine hits all of them
    alike. Each runs once untimed first; the garbage collector is paused while timing, as
    :mod:`timeit` does.
    """
    for work, _ in items.values():
        work()
    times: dict[str, list[float]] = {name: [] for name in items}
    gc_was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        deadline = time.perf_counter() + seconds * len(items)
        rounds = 0
        while rounds < repeats or (time.perf_counter() < deadline and rounds < 100):
            for name, (work, _) in items.items():
                start = time.perf_counter()
                work()
                times[name].append(time.perf_counter() - start)
            rounds += 1
    finally:
        if gc_was_enabled:
            gc.enable()
    return {name: n / statistics.median(times[name]) for name, (_, n) in items.items()}


def run_bench(
    seconds_per_item: float = 0.4,
    *,
    rules: Ruleset | None = None,
    repeats: int = 5,
    per_call_hands: int = 100_000,
    batch_hands: int = 1 << 20,
    playout: Callable[[], float] | None = None,
    batch: bool = True,
    seed: int = 0,
) -> dict[str, float | int | None]:
    """Measure evaluation speed on this machine; returns a JSON-ready dict of figures.

    :param seconds_per_item: time spent on each figure (at least *repeats* runs are made).
    :param rules: ruleset whose evaluator is timed (default ``peel``; the naive baseline is
        always Peel's ranking).
    :param per_call_hands: random hands per timed run of the per-call figures.
    :param batch_hands: hands in the numpy array of the batch figures.
    :param playout: optional callable returning playout decisions per second; it is called
        *repeats* times and the median reported as ``playout_decisions_per_s`` (``None``
        when absent, for the caller to fill in).
    :param batch: measure the numpy figures (``None`` when false).
    :param seed: seed of the random hands.

    Every value is a number (or ``None`` as said above), so that a caller can print them all
    alike: the keys ending in ``_per_s`` are medians in items per second, the others the
    sizes used. :func:`bench_environment` describes the machine and versions.
    """
    rules = rules or find_ruleset("peel")
    ev = evaluator_for(rules)
    rng = random.Random(seed)
    as_held = [p for h in combinations(pack(rules.pack), 3) for p in permutations(h)]
    # Fresh tuples, allocated one after another as a game makes them: drawing the objects of
    # *as_held* themselves would time cache misses on 132,600 scattered tuples instead.
    hands = [(a, b, c) for a, b, c in rng.choices(as_held, k=per_call_hands)]
    rank_of, table = ev.rank_of, ev.rank_table

    def per_call_loop() -> None:
        for hand in hands:
            rank_of(hand)

    def per_call_map() -> None:
        deque(map(rank_of, hands), 0)

    def inline_table() -> None:
        for a, b, c in hands:
            table[a][b][c]

    def naive_loop() -> None:
        for hand in hands:
            naive_strength(hand)

    result: dict[str, float | int | None] = {
        "repeats": repeats,
        "per_call_hands": per_call_hands,
        **_median_rates(
            {
                "hand_eval_per_call_per_s": (per_call_loop, per_call_hands),
                "hand_eval_per_call_map_per_s": (per_call_map, per_call_hands),
                "hand_eval_inline_table_per_s": (inline_table, per_call_hands),
                "naive_eval_per_s": (naive_loop, per_call_hands),
            },
            seconds_per_item,
            repeats,
        ),
        "hand_eval_batch_per_s": None,
        "hand_eval_packed_per_s": None,
        "batch_hands": batch_hands if batch else 0,
        "playout_decisions_per_s": None,
    }
    if batch:
        result.update(_batch_figures(rules, as_held, batch_hands, seconds_per_item, repeats,
                                     seed))
    if playout is not None:
        result["playout_decisions_per_s"] = statistics.median(
            float(playout()) for _ in range(repeats))
    return result


def bench_environment(rules: Ruleset | None = None) -> dict[str, str]:
    """What the figures of :func:`run_bench` depend on: versions, machine and ruleset label."""
    env = {
        "rules": (rules or find_ruleset("peel")).label,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
    }
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy is a dependency
        return env
    return {**env, "numpy": np.__version__}


def _batch_figures(rules: Ruleset, as_held: list[tuple[Card, ...]], n: int, seconds: float,
                   repeats: int, seed: int) -> dict[str, float]:
    import numpy as np

    from commerce.batch import evaluate_batch, evaluate_packed, pack_hands

    every = np.array(as_held, dtype=np.uint8)
    hands = every[np.random.default_rng(seed).integers(0, len(every), n)]
    codes = pack_hands(hands)
    out = np.empty(n, dtype=np.int16)
    evaluate_batch(hands[:2], rules)  # build the table outside the timing
    return _median_rates(
        {
            "hand_eval_batch_per_s": (lambda: evaluate_batch(hands, rules, out=out), n),
            "hand_eval_packed_per_s": (lambda: evaluate_packed(codes, rules, out=out), n),
        },
        seconds,
        repeats,
    )
