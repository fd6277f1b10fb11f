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
from collections.abc import Callable, Sequence
from typing import Any

from commerce.apps.jobs import Spread
from commerce.apps.runner import Job, Table, choose_engine, runner_for
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

    The games are the runner's (:mod:`commerce.apps.runner`), a job of whole blocks.
    *engine* (:data:`commerce.apps.runner.ENGINES`): ``auto`` plays on the family's compiled
    kernel when every bot has a compiled policy there
    (:func:`commerce.apps.runner.choose_engine`), ``compiled`` insists on it, ``reference``
    plays through the driver, *jobs* processes (or a :class:`commerce.apps.jobs.Spread`)
    sharing the blocks. On the kernel the blocks
    are the same (each bot at every seat once, on the same deals: the games of a block share
    their first dealer and chance's cards deal for deal), but its random streams are the
    kernel's, so a seed reproduces results within one engine. The result says which engine
    played (``engine``) and why (``engine_reason``).

    :raises CommerceError: for fewer than two bots, a repeated bot, a bad count, or ``compiled``
        where the kernel cannot play.
    :raises Interrupted: on Ctrl-C, saying how many games were finished.
    """
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
    lineups = tuple(block_lineups(len(names), players))
    job = Job(rules, players, tuple(names), blocks * k, seed, lineups=lineups)
    table = runner_for(chosen).run(job, jobs=jobs, progress=progress)
    return {**summarize(rules, players, names, seed, blocks_of(table, k)), "engine": chosen,
            "engine_reason": why}


def blocks_of(table: Table, size: int) -> list[BlockResult]:
    """The blocks of *size* games of a tournament's *table* (the runner's), each game's
    line-up and payoffs."""
    lineups = [tuple(lineup) for lineup in table.games.lineups.tolist()]
    payoffs = [tuple(row) for row in table.games.payoffs.tolist()]
    return [list(zip(lineups[b:b + size], payoffs[b:b + size], strict=True))
            for b in range(0, len(payoffs), size)]


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
