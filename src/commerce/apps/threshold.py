"""``commerce analyze stand-threshold``: for each place from the dealer, the weakest hand
worth standing (knocking) on, from each seat's first turn of a deal at which it may stand
played both ways (:func:`stand_threshold`), on the reference engine in chunks of games (the
runner's :class:`~commerce.apps.runner.Job` and seeds, shared among processes by
:func:`commerce.apps.jobs.run_blocks`) or on a family's compiled kernel (its ``stand_run``).

>>> from commerce.rules import find_ruleset
>>> r = stand_threshold(find_ruleset("peel"), players=3, games=4, seed=1, engine="reference")
>>> [p["role"] for p in r["positions"]], r["engine"]
(['dealer', 'eldest', 'seat 2'], 'reference')
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from commerce import engine
from commerce.apps.analysis import (
    analysis_engine,
    checked_bots,
    role_name,
    rounded,
    seat_position,
)
from commerce.apps.jobs import Interrupted, Spread, run_blocks
from commerce.apps.runner import CHUNK, Job, deal_reader
from commerce.core import Action, ActionKind, Bot, DecisionKind, Event, Seat
from commerce.errors import CommerceError
from commerce.family import DealReader, DealSummary, family_spec, payoff_unit
from commerce.rules import RankingOptions, Ruleset
from commerce.stats import mean_ci, proportion_ci

if TYPE_CHECKING:
    from commerce.driver import Driver


def hand_class(rules: Ruleset, hand: Sequence[int]) -> tuple[tuple[int, ...], str]:
    """A readable class of *hand* and a key that orders classes weakest first.

    Tricons and sequences are one class each; pairs by the pair's rank; flushes and points
    by their pip total in steps of three.

    >>> from commerce.rules import find_ruleset
    >>> from commerce.cards import parse_cards
    >>> hand_class(find_ruleset("peel"), parse_cards("9S 9H 2C"))[1]
    'pair of 9s'
    >>> hand_class(find_ruleset("peel"), parse_cards("AS KH 2C"))[1]
    'point 21-23'
    """
    from commerce.hands import evaluator_for

    ev = evaluator_for(rules)
    return rank_class(rules, ev.rank_of(tuple(hand)) if len(hand) == 3 else ev.value(hand).rank)


def rank_class(rules: Ruleset, rank: int) -> tuple[tuple[int, ...], str]:
    """:func:`hand_class` of the hands of evaluator rank *rank* (the compiled kernels report
    ranks)."""
    from commerce.cards import RANKS
    from commerce.hands import evaluator_for

    ev = evaluator_for(rules)
    key = ev.keys[rank]
    level = key[0]
    category = ev.categories[rank].value
    if category == "pair":
        return (level, key[1]), f"pair of {RANKS[key[1] - 2]}s"
    if category in ("flush", "point") and len(key) > 1:
        if category == "flush" and RankingOptions.of(rules).flush_compare != "points":
            return (level, key[1]), f"flush, {RANKS[key[1] - 2]} high"
        low = (key[1] // 3) * 3
        return (level, low), f"{category} {low}-{low + 2}"
    return (level,), category


def stand_action(rules: Ruleset) -> Action:
    """The action whose threshold ``stand-threshold`` measures: ``stand`` in the trading
    games and the Old Game, ``knock`` in the widow games that end on a knock.

    :raises CommerceError: for a ruleset with neither.
    """
    hook = family_spec(rules.family).stand_action
    action = hook(rules) if hook is not None else None
    if action is not None:
        return action
    why = family_spec(rules.family).extras.get("no_stand_reason")
    raise CommerceError(str(why).format(id=rules.id) if why else
                        f"stand-threshold needs a ruleset with a stand or a knock "
                        f"({rules.id} has neither)")


_WORKER: dict[str, Any] = {}


def _start(job: Job) -> None:
    """A worker's set-up: the job, and its bots by seat (the job's cycled)."""
    from commerce.bots import make_bot

    _WORKER.update(job=job, bots=[make_bot(job.bots[i % len(job.bots)])
                                  for i in range(job.players)])


def _stand_chunk(chunk: int) -> list[tuple[int, tuple[int, ...], str, float, float, float]]:
    """Samples (position, class key, class label, stand payoff, play-on payoff, stand won) of
    the games of chunk *chunk* (:data:`commerce.apps.runner.CHUNK` games) of the worker's
    job."""
    from commerce.driver import Driver

    job: Job = _WORKER["job"]
    rules, players, bots = job.rules, job.players, _WORKER["bots"]
    reader = deal_reader(rules)
    stand = stand_action(rules)
    out = []
    for g in range(chunk * CHUNK, min((chunk + 1) * CHUNK, job.games)):
        driver = Driver(rules, bots, seed=job.seed_of(g))
        deal_start = 0
        first_turn_done: set[Seat] = set()
        while True:
            state = driver.state
            d = engine.decision(state)
            if d is None:
                break
            # a seat that may only stand has no other way to compare (the kernels skip it too)
            if (d.seat is not None and d.kind is DecisionKind.TURN and d.seat not in first_turn_done
                    and stand in (legal := engine.legal_actions(state)) and len(legal) > 1):
                seat = d.seat
                first_turn_done.add(seat)
                prefix = driver.events[deal_start:]
                deal = _play_on(driver, seat, reader, prefix, stand)
                played = _play_on(driver, seat, reader, prefix, None).payoffs[seat]
                view: Any = engine.observe(state, seat)  # a three-card family's view
                hand = view.hand
                key, label = hand_class(rules, hand)
                pos = seat_position(seat, deal.dealer, players, rules)
                out.append((pos, key, label, deal.payoffs[seat], played,
                            float(seat in deal.winners)))
            before = len(driver.events)
            driver.step()
            if any(e.kind == "deal_ended" for e in driver.events[before:]):
                deal_start = next(i for i in range(before, len(driver.events))
                                  if driver.events[i].kind == "deal_ended") + 1
                first_turn_done = set()
    return out


def _bot(driver: Driver, seat: Seat) -> Bot:
    """The bot playing *seat* (every seat of a measured game is a bot's)."""
    bot = driver.agents[seat]
    if bot is None:
        raise CommerceError(f"seat {seat} has no bot: stand-threshold plays bots only")
    return bot


def _play_on(driver: Driver, seat: Seat, reader: DealReader, prefix: Sequence[Event],
             first: Action | None) -> DealSummary:
    """The deal as it ends if *seat* plays *first* now (None: what its bot would play other
    than standing or knocking) and everyone plays on, with copies of the game's RNGs."""
    state = driver.state
    chance = random.Random()
    chance.setstate(driver.chance_rng.getstate())
    rngs = []
    for r in driver.seat_rngs:
        c = random.Random()
        c.setstate(r.getstate())
        rngs.append(c)
    if first is None:
        legal = [a for a in engine.legal_actions(state)
                 if a.kind is not ActionKind.STAND and a.kind is not ActionKind.KNOCK]
        action = _bot(driver, seat).act(engine.observe(state, seat), legal, rngs[seat])
    else:
        action = first
    events = list(prefix)
    while True:
        t = engine.apply(state, action)
        events.extend(t.events)
        if any(e.kind == "deal_ended" for e in t.events):
            return reader(driver.rules, driver.players, events)[0]
        state = t.state
        d = engine.decision(state)
        assert d is not None
        if d.seat is None:
            action = engine.sample_chance(state, chance)
        else:
            action = _bot(driver, d.seat).act(engine.observe(state, d.seat),
                                               engine.legal_actions(state), rngs[d.seat])


def stand_threshold(rules: Ruleset, *, players: int, games: int, seed: int,
                    bots: Sequence[str] = ("heuristic",), jobs: int | Spread = 1,
                    min_samples: int = 8,
                    progress: Callable[[int], None] | None = None,
                    engine: str = "reference") -> dict[str, Any]:
    """For each place relative to the dealer: the weakest hand worth standing (knocking) on.

    At each seat's first turn of a deal at which it may stand (knock), the hand is scored
    twice on the same cards:
    standing (in the widow games that end on a knock: knocking) now, and playing on as its
    bot would without standing (with the other seats' bots and the same chance RNG) to the
    end of the deal; standing plays on too where the others still have turns after it.
    ``gain`` is the mean of stand minus play on; ``win`` the chance that standing wins the
    deal. Each place's ``verdict`` and ``threshold`` are :func:`threshold_verdict`'s: the
    threshold is stated only where the 95% interval supports it (classes with fewer than
    *min_samples* samples are passed over).

    *engine* (``auto``, ``reference`` or ``compiled``) may play the games on the family's
    compiled kernel where it plays these samples (the trading and widow families' kernels:
    their ``compiled_stand`` modules, the same two ways from copies of the deal and its
    random streams); ``engine`` and ``engine_reason`` say which played.

    :raises CommerceError: for Cox's game, which has no stand or knock.
    """
    stand_action(rules)
    specs = checked_bots(rules, players, bots, games)
    chosen, why = analysis_engine("stand-threshold", rules, players, specs, engine)
    first_call = None
    if chosen == "compiled":
        samples, first_call = _threshold_kernel(rules, players, specs, seed, games, progress)
        chunks = [samples]
    else:
        job = Job(rules, players, tuple(specs), games, seed)
        try:
            chunks = run_blocks((job,), -(-games // CHUNK), jobs, _stand_chunk, _start,
                                None if progress is None else
                                (lambda done: progress(min(done * CHUNK, games))))
        except Interrupted as exc:
            raise Interrupted(min(exc.done * CHUNK, games), games, "games") from None
    cells: dict[tuple[int, tuple[int, ...]], list[tuple[float, float, float]]] = {}
    labels: dict[tuple[int, ...], str] = {}
    for chunk in chunks:
        for pos, key, label, s, p, won in chunk:
            cells.setdefault((pos, key), []).append((s, p, won))
            labels[key] = label
    order = {key: i for i, key in enumerate(sorted({k for _, k in cells}))}
    positions = []
    for pos in range(players):
        classes: list[dict[str, Any]] = []
        for key in sorted(k for (q, k) in cells if q == pos):
            rows = cells[pos, key]
            gain = mean_ci([s - p for s, p, _ in rows])
            share, lo, hi = proportion_ci(sum(w for _, _, w in rows), len(rows))
            classes.append({
                "class": labels[key], "order": order[key], "samples": len(rows),
                "win": rounded(share), "win_ci95": [rounded(lo), rounded(hi)],
                "stand": rounded(sum(s for s, _, _ in rows) / len(rows)),
                "play_on": rounded(sum(p for _, p, _ in rows) / len(rows)),
                "gain": rounded(gain.mean), "gain_ci95": [rounded(gain.lo), rounded(gain.hi)],
            })
        keys = sorted(k for (q, k) in cells if q == pos)
        verdict = threshold_verdict(
            [(c["class"], [s - p for s, p, _ in cells[pos, key]])
             for c, key in zip(classes, keys, strict=True)], min_samples)
        positions.append({"position": pos, "role": role_name(pos),
                          "threshold": verdict["from"] if verdict["supported"] else None,
                          "verdict": verdict, "classes": classes})
    return {"analysis": "stand-threshold", "rules": rules.id, "players": players,
            "bots": specs, "games": games, "seed": seed, "positions": positions,
            "unit": payoff_unit(rules), "min_samples": min_samples, "engine": chosen,
            "engine_reason": why, "first_call_s": first_call}


def threshold_verdict(classes: Sequence[tuple[str, Sequence[float]]],
                      min_samples: int = 8) -> dict[str, Any]:
    """The weakest hand worth standing on, from each class's gains (stand minus play on),
    classes weakest first, and whether the data support it.

    One noisy class must not decide it. The gains are fitted as growing with the strength of
    the hand (pooling adjacent classes that break the order, the pool-adjacent-violators
    fit, weighted by samples; classes under *min_samples* samples are passed over): the
    candidate (``from``) is the weakest class whose fitted gain is above 0, and its pool of
    classes (``from`` ... ``through``) gives ``gain`` and its 95% interval. It is
    ``supported`` where that interval lies above 0; else the data do not settle where
    standing starts to pay. No candidate (``from`` None): standing paid with no class.

    >>> v = threshold_verdict([("point", [-1.0, -2.0] * 10), ("pair of Qs", [-0.5] * 9 + [0.0]),
    ...                        ("pair of Ks", [1.0, 2.0] * 10), ("flush", [2.0, 3.0] * 10)])
    >>> v["from"], v["through"], v["supported"], v["gain"]
    ('pair of Ks', 'pair of Ks', True, 1.5)
    >>> threshold_verdict([("pair of Qs", [-0.4] * 18), ("pair of Ks", [3.0, -2.5] * 10),
    ...                    ("flush", [2.0, 3.0] * 10)])["from"]
    'pair of Ks'
    """
    blocks: list[list[Any]] = []  # [sum, samples, names, gains] of adjacent classes
    for name, gains in classes:
        if len(gains) < min_samples:
            continue
        blocks.append([math.fsum(gains), len(gains), [name], list(gains)])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            last = blocks.pop()
            for i in range(4):
                blocks[-1][i] += last[i]
    for total, n, names, gains in blocks:
        if total / n > 0:
            ci = mean_ci(gains)
            lo = None if math.isinf(ci.lo) else rounded(ci.lo)
            hi = None if math.isinf(ci.hi) else rounded(ci.hi)
            return {"from": names[0], "through": names[-1], "gain": rounded(ci.mean),
                    "gain_ci95": [lo, hi], "samples": n,
                    "supported": lo is not None and lo > 0}
    return {"from": None, "through": None, "gain": None, "gain_ci95": [None, None],
            "samples": 0, "supported": False}


_STAND_PIECE = 2_000
"""The most games of a piece of :func:`_threshold_kernel`'s run."""


def _threshold_kernel(rules: Ruleset, players: int, specs: Sequence[str], seed: int,
                      games: int, progress: Callable[[int], None] | None
                      ) -> tuple[list[tuple[int, tuple[int, ...], str, float, float, float]],
                                 float]:
    """:func:`_stand_chunk`'s samples of *games* games played on the compiled kernel
    (its ``stand_run``), in pieces of at most :data:`_STAND_PIECE` games, four or more for
    each thread (a widow session is long: pieces taken as threads come free share the work
    evenly; the results do not depend on the pieces), and the seconds its first call took
    (building the kernel and loading, or the first time compiling, its code)."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    from commerce.compiled import build_kernel, policy_arrays
    from commerce.kernelkit import S_PLACE, S_PLAY, S_RANK, S_STAND, S_WON

    start = time.perf_counter()
    kern = build_kernel(rules, players)
    codes, boldness = policy_arrays(specs, players)
    kern.stand_run(seed, 0, 1, codes, boldness)
    first_call = time.perf_counter() - start
    threads = min(os.cpu_count() or 1, 8)
    size = max(1, min(_STAND_PIECE, games // (4 * threads)))
    bounds = list(range(0, games, size)) + [games]
    classes: dict[int, tuple[tuple[int, ...], str]] = {}
    out: list[tuple[int, tuple[int, ...], str, float, float, float]] = []

    def piece(i: int) -> tuple[Any, Any, Any]:
        run = kern.stand_run(seed, bounds[i], bounds[i + 1] - bounds[i], codes, boldness)
        return run[0], run[1], run[2]

    with ThreadPoolExecutor(threads) as pool:
        for i, (samples, counts, _) in enumerate(pool.map(piece, range(len(bounds) - 1))):
            for g in range(samples.shape[0]):
                for row in samples[g, :counts[g]].tolist():
                    rank = row[S_RANK]
                    if rank not in classes:
                        classes[rank] = rank_class(rules, rank)
                    key, label = classes[rank]
                    out.append((row[S_PLACE], key, label, float(row[S_STAND]),
                                float(row[S_PLAY]), float(row[S_WON])))
            if progress is not None:
                progress(bounds[i + 1] - bounds[i])
    return out, round(first_call, 3)
