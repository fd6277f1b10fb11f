"""Analyses by simulation: dealer advantage and the variants side by side (stand
thresholds are in :mod:`commerce.apps.threshold`, on the plumbing here).

Games are played by :class:`commerce.driver.Driver` and read back from their public events;
what a deal paid each seat, who won it and with what is read by a per-family **deal reader**
(:func:`register_deal_reader`; the trading family's and the cox family's are here). In Cox's
game a "deal" is a hand, its "dealer" the Retailer (Base No. 1, who plays first), its payoffs
the points each seat scored in it (not zero-sum) and the hand categories ``sold out``,
``complete``, ``clear`` and ``not clear``; standing has no counterpart there, so
:func:`commerce.apps.threshold.stand_threshold` refuses it. Work is split into chunks of
games whose seeds come from the master seed (``game_seed(seed, i)``), so results are the
same for any number of processes. :func:`dealer_advantage` and :func:`variants` may play on
the family's compiled kernel instead (*engine*), where it reports what they read of each
deal (:mod:`commerce.compiled`); its random streams are not the reference's, so the two engines
agree statistically, not game for game.

>>> from commerce.rules import find_ruleset
>>> r = dealer_advantage(find_ruleset("peel"), players=3, games=6, seed=1)
>>> [row["role"] for row in r["seats"]], r["deals"]
(['dealer', 'eldest', 'seat 2'], 18)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

from commerce.apps.simulate import game_seed
from commerce.apps.tournament import Spread, run_blocks
from commerce.core import Event, Seat
from commerce.errors import CommerceError
from commerce.family import DealReader, DealSummary, family_spec, payoff_unit
from commerce.rules import Ruleset, rulesets
from commerce.stats import mean_ci

CHUNK = 10
"""Games per unit of work (fixed, so that results do not depend on ``--jobs``)."""


def _role(rules: Ruleset, position: int, players: int) -> str:
    namer = family_spec(rules.family).role_name
    return namer(position, players) if namer else role_name(position)


def deal_reader(rules: Ruleset) -> DealReader:
    """The deal reader of *rules*' family (the family's ``deal_reader`` hook).

    :raises CommerceError: for a family without one yet.
    """
    reader = family_spec(rules.family).deal_reader
    if reader is None:
        raise CommerceError(f"the analyses do not read {rules.family}-family games yet "
                            f"({rules.id}); give the family a deal_reader hook")
    return reader


class PlayedGame(NamedTuple):
    """A game's events, the player decisions made before each, and its deals."""

    events: list[Event]
    decisions_at: list[int]
    deals: list[DealSummary]
    decisions: int


def play_and_read(rules: Ruleset, bots: Sequence[Any], seed: int) -> PlayedGame:
    """Play one game with *bots* and read its deals."""
    from commerce.driver import Driver

    driver = Driver(rules, bots, seed=seed)
    events: list[Event] = list(driver.events)
    at = [0] * len(events)

    def hook(evs: tuple[Event, ...]) -> None:
        events.extend(evs)
        at.extend([driver.decisions] * len(evs))

    driver.on_events = hook
    driver.run()
    deals = deal_reader(rules)(rules, driver.players, events)
    return PlayedGame(events, at, deals, driver.decisions)


# -- parallel plumbing ---------------------------------------------------------------------

WORKER: dict[str, Any] = {}
"""A worker process's run, set by :func:`init_worker`: rules, players, bot specs, bots by
seat, master seed and games (each process of a run has its own; the analyses' chunks read it)."""


def init_worker(rules: Ruleset, players: int, specs: Sequence[str], seed: int,
                games: int) -> None:
    """Set up a worker process's run (:data:`WORKER`): the bots by seat, *specs* cycled."""
    from commerce.bots import make_bot

    WORKER.update(rules=rules, players=players, specs=list(specs),
                   bots=[make_bot(specs[i % len(specs)]) for i in range(players)],
                   seed=seed, games=games)


def games_of_chunk(chunk: int) -> range:
    """The games of chunk number *chunk* of the worker's run (:data:`CHUNK` games a chunk)."""
    return range(chunk * CHUNK, min((chunk + 1) * CHUNK, WORKER["games"]))


def chunk_count(games: int) -> int:
    """How many chunks *games* games make."""
    return -(-games // CHUNK)


def checked_bots(rules: Ruleset, players: int, bots: Sequence[str], games: int) -> list[str]:
    """The bot specs of a run, stripped and checked, with *players* and *games*.

    :raises CommerceError: for a table size the ruleset refuses, no games, no bot or a bad one,
        or a family without a deal reader.
    """
    from commerce.bots import make_bot

    if players not in rules.player_range():
        raise CommerceError(f"{rules.name} is for {rules.players_phrase()}, not {players}")
    if games < 1:
        raise CommerceError("--games must be at least 1")
    specs = [b.strip() for b in bots if b.strip()]
    if not specs:
        raise CommerceError("give at least one bot, e.g. --bots heuristic")
    for spec in specs:
        make_bot(spec)
    deal_reader(rules)
    return specs


def seat_position(seat: Seat, dealer: Seat, players: int, rules: Ruleset) -> int:
    """0 for the dealer, 1 for the eldest (first to play), and so on round the table."""
    step = 1 if rules.direction == "left" else -1
    return ((seat - dealer) * step) % players


def role_name(position: int) -> str:
    """``dealer``, ``eldest``, ``seat 2`` ..."""
    return "dealer" if position == 0 else "eldest" if position == 1 else f"seat {position}"


# -- dealer advantage -----------------------------------------------------------------------


def _advantage_chunk(chunk: int) -> list[tuple[list[float], list[int]]]:
    rules, players, bots = WORKER["rules"], WORKER["players"], WORKER["bots"]
    out = []
    for g in games_of_chunk(chunk):
        game = play_and_read(rules, bots, game_seed(WORKER["seed"], g))
        sums = [0.0] * players
        counts = [0] * players
        for deal in game.deals:
            for seat, p in enumerate(deal.payoffs):
                pos = seat_position(seat, deal.dealer, players, rules)
                sums[pos] += p
                counts[pos] += 1
        out.append((sums, counts))
    return out


def dealer_advantage(rules: Ruleset, *, players: int, games: int, seed: int,
                     bots: Sequence[str] = ("heuristic",), jobs: int | Spread = 1,
                     progress: Callable[[int], None] | None = None,
                     engine: str = "reference") -> dict[str, Any]:
    """Each seat's mean payoff per deal by its place relative to the dealer.

    One sample per game (the mean of its deals for each place), so the 95% intervals are
    t-intervals over independent games. ``advantage`` is the dealer's mean payoff per deal;
    each row's ``vs_dealer`` is that place's payoff minus the dealer's.

    *engine* (``auto``, ``reference`` or ``compiled``: :func:`commerce.apps.simulate.choose_engine`)
    may play the games on the family's compiled kernel where it reports each deal's payoffs;
    ``engine`` and ``engine_reason`` in the result say which played and why.
    """
    specs = checked_bots(rules, players, bots, games)
    chosen, why = analysis_engine(rules, players, specs, engine, "deal_payoffs",
                                   "each deal's payoffs")
    if chosen == "compiled":
        chunks = [_advantage_kernel(rules, players, specs, seed, games)]
        if progress is not None:
            progress(games)
    else:
        chunks = run_blocks((rules, players, specs, seed, games), chunk_count(games), jobs,
                            _advantage_chunk, init_worker, chunk_progress(progress, games))
    samples: list[list[float]] = [[] for _ in range(players)]
    deals = 0
    for chunk in chunks:
        for sums, counts in chunk:
            deals += counts[0]
            for pos in range(players):
                if counts[pos]:
                    samples[pos].append(sums[pos] / counts[pos])
    dealer = mean_ci(samples[0])
    rows = []
    for pos in range(players):
        m = mean_ci(samples[pos])
        vs = mean_ci([x - y for x, y in zip(samples[pos], samples[0], strict=True)])
        rows.append({"position": pos, "role": _role(rules, pos, players),
                     "payoff": rounded(m.mean),
                     "ci95": [rounded(m.lo), rounded(m.hi)], "vs_dealer": rounded(vs.mean),
                     "vs_dealer_ci95": [rounded(vs.lo), rounded(vs.hi)]})
    return {
        "analysis": "dealer-advantage", "rules": rules.id, "players": players,
        "bots": specs, "games": games, "deals": deals, "seed": seed,
        "unit": payoff_unit(rules),
        "advantage": {"payoff": rounded(dealer.mean),
                      "ci95": [rounded(dealer.lo), rounded(dealer.hi)]},
        "seats": rows, "engine": chosen, "engine_reason": why,
    }


_REPORTS = {"dealer-advantage": ("deal_payoffs", "each deal's payoffs"),
            "stand-threshold": ("stand_samples", "the stand samples"),
            "variants": ("deal_results", "each deal's winners and decisions")}
"""What each analysis reads of a kernel's run: the kernel's attribute, and in words."""


def plays_on_kernel(analysis: str, rules: Ruleset, players: int, bots: Sequence[str],
                    engine: str) -> bool:
    """Whether the run of *analysis* (``dealer-advantage``, ``stand-threshold`` or
    ``variants``) on *rules* will play on the family's compiled kernel, as its result's
    ``engine`` will say; False where the arguments are refused (the run says why).

    >>> from commerce.rules import find_ruleset
    >>> plays_on_kernel("variants", find_ruleset("peel"), 4, ["search"], "auto")
    False
    """
    reports, what = _REPORTS[analysis]
    try:
        specs = checked_bots(rules, players, bots, 1)
        return analysis_engine(rules, players, specs, engine, reports, what)[0] == "compiled"
    except CommerceError:
        return False


def analysis_engine(rules: Ruleset, players: int, specs: Sequence[str], engine: str,
                     reports: str, what: str) -> tuple[str, str]:
    """The engine of an analysis' run: :func:`commerce.apps.simulate.choose_engine`, and the
    kernel only where it reports what the analysis reads (its attribute *reports* is true;
    *what* says it in words).

    :raises CommerceError: for ``compiled`` when the kernel cannot play the run or does not
        report *what*.
    """
    from commerce.apps.simulate import choose_engine, resolve_engine

    engine = resolve_engine(engine)
    chosen, why = choose_engine(rules, players, specs, engine)
    if chosen == "compiled":
        from commerce.compiled import build_kernel

        if not getattr(build_kernel(rules, players), reports, False):
            why = f"the {rules.family} family's kernel does not report {what}"
            if engine == "compiled":
                raise CommerceError(f"--engine compiled: {why}")
            return "reference", why
    return chosen, why


def _advantage_kernel(rules: Ruleset, players: int, specs: Sequence[str], seed: int,
                      games: int, room: int | None = None) -> list[tuple[list[float], list[int]]]:
    """:func:`_advantage_chunk`'s samples of *games* games played on the compiled kernel (its
    ``deal_payoffs``, and ``deal_dealers`` where the deal does not simply pass round the
    table), in pieces of :data:`_KERNEL_PIECE` games. Where the sessions vary in length (the
    widow family's token games) a game that played more deals than the per-deal arrays hold
    is played again alone with room for all of them, as :func:`_variants_kernel` does (the
    arrays' *room*: by default :data:`_KERNEL_ROOM`, or the kernel's ``deals`` if more)."""
    out: list[tuple[list[float], list[int]]] = []
    for result, again in _kernel_pieces(rules, players, specs, seed, games, room):
        rows = _kernel_places(rules, players, result)
        for g, alone in again.items():
            rows[g] = _kernel_places(rules, players, alone)[0]
        out.extend(rows)
    return out


def _kernel_places(rules: Ruleset, players: int,
                   result: Any) -> list[tuple[list[float], list[int]]]:
    """Each game's payoffs summed by place relative to each deal's dealer, and its deals
    (every seat holds each place once a deal), over the deals its per-deal arrays hold."""
    import numpy as np

    pay = result.deal_payoffs  # (games, deals, seats)
    games, room = pay.shape[0], pay.shape[1]
    step = 1 if rules.direction == "left" else -1
    if result.deal_dealers.shape[1]:
        dealer = result.deal_dealers[:, :room].astype(np.int64)
    else:
        dealer = (result.dealers[:, None].astype(np.int64)
                  + step * np.arange(room)[None, :]) % players
    counts = (np.minimum(result.deal_counts, room) if result.deal_counts.shape[0]
              else np.full(games, room))
    played = np.arange(room)[None, :] < counts[:, None]  # (games, deals)
    position = ((np.arange(players)[None, None, :] - dealer[:, :, None]) * step) % players
    sums = np.zeros((games, players))
    for pos in range(players):
        sums[:, pos] = np.where((position == pos) & played[:, :, None], pay, 0).sum(axis=(1, 2))
    return [([float(x) for x in sums[g]], [int(counts[g])] * players) for g in range(games)]


# -- variants -------------------------------------------------------------------------------


class _VariantSamples(NamedTuple):
    """What :func:`variants` reads from one ruleset's games: one sample per game of the
    deals, the decisions and the mean decisions per deal, and the deals won by each hand
    category (a split pool shared among its winners)."""

    deals: list[float]
    decisions: list[float]
    per_deal: list[float]
    wins: dict[str, float]


def _variants_chunk(chunk: int) -> list[tuple[int, int, list[int], list[tuple[str, float]]]]:
    rules, bots = WORKER["rules"], WORKER["bots"]
    out = []
    for g in games_of_chunk(chunk):
        game = play_and_read(rules, bots, game_seed(WORKER["seed"], g))
        per_deal = []
        previous = 0
        wins = []
        for deal in game.deals:
            at = game.decisions_at[deal.end]
            per_deal.append(at - previous)
            previous = at
            for w in deal.winners:
                wins.append((deal.categories[w], 1.0 / len(deal.winners)))
        out.append((len(game.deals), game.decisions, per_deal, wins))
    return out


def _variants_reference(rules: Ruleset, players: int, specs: Sequence[str], seed: int,
                        games: int, jobs: int | Spread,
                        progress: Callable[[int], None] | None) -> _VariantSamples:
    """:class:`_VariantSamples` of *games* games played by the reference engine, in chunks
    (:func:`_variants_chunk`)."""
    chunks = run_blocks((rules, players, specs, seed, games), chunk_count(games), jobs,
                        _variants_chunk, init_worker, progress)
    out = _VariantSamples([], [], [], {})
    for chunk in chunks:
        for d, dec, pd, w in chunk:
            out.deals.append(float(d))
            out.decisions.append(float(dec))
            out.per_deal.append(sum(pd) / len(pd))
            for cat, share in w:
                out.wins[cat] = out.wins.get(cat, 0.0) + share
    return out


_KERNEL_PIECE = 4_000
"""Games of a piece of :func:`_variants_kernel`'s batch (its per-deal arrays a few MB)."""
_KERNEL_ROOM = 256
"""Deals a row of :func:`_variants_kernel`'s per-deal arrays holds where the kernel's sessions
vary in length (at least the kernel's ``deals``)."""


def _variants_kernel(rules: Ruleset, players: int, specs: Sequence[str], seed: int,
                     games: int, room: int | None = None) -> _VariantSamples:
    """:class:`_VariantSamples` of *games* games played on the compiled kernel (its
    ``deal_decisions``, ``deal_winners`` and ``categories``), in pieces of
    :data:`_KERNEL_PIECE` games.

    Where the kernel's sessions vary in length (its ``deal_counts``: the widow family's token
    sessions, until one player is left) each game counts the deals it played, and the
    per-deal arrays keep its first *room* deals (default :data:`_KERNEL_ROOM`, or the
    kernel's ``deals`` if more). A game that played more is played again alone, with room
    for every deal: its own random streams (game *g* of the seed's run) make it the same
    game, so every deal of every game is read and the samples are exact, at the cost of
    replaying the few long games.
    """
    out = _VariantSamples([], [], [], {})
    for result, again in _kernel_pieces(rules, players, specs, seed, games, room):
        per_deal, wins = _kernel_deals(result, players)
        if result.deal_counts.shape[0]:  # the sessions vary in length
            out.deals.extend(result.deal_counts.astype(float).tolist())
            for g, alone in again.items():
                (per_deal[g],), more = _kernel_deals(alone, players)
                for cat, share in more.items():
                    wins[cat] = wins.get(cat, 0.0) + share
        else:  # every game plays the kernel's deals
            out.deals.extend([float(result.deal_decisions.shape[1])] * len(per_deal))
        out.decisions.extend(result.decisions.astype(float).tolist())
        out.per_deal.extend(per_deal)
        for cat, share in wins.items():
            out.wins[cat] = out.wins.get(cat, 0.0) + share
    return out


def _kernel_pieces(rules: Ruleset, players: int, specs: Sequence[str], seed: int, games: int,
                   room: int | None) -> Iterator[tuple[Any, dict[int, Any]]]:
    """*games* games on the compiled kernel with their per-deal results, in pieces of
    :data:`_KERNEL_PIECE` games: each piece's batch, and the games of it played again alone
    (by their row in the piece). Where the kernel's sessions vary in length (its
    ``deal_counts``) the per-deal arrays keep each game's first *room* deals (default
    :data:`_KERNEL_ROOM`, or the kernel's ``deals`` if more), and a game that played more is
    played again alone with room for every deal: its own random streams (game *g* of the
    seed's run) make it the same game, so every deal of every game is read."""
    from commerce.compiled import build_kernel, run_batch

    kern = build_kernel(rules, players)
    varies = getattr(kern, "deal_counts", False)
    if varies and room is None:
        room = max(kern.deals, _KERNEL_ROOM)
    for first in range(0, games, _KERNEL_PIECE):
        n = min(_KERNEL_PIECE, games - first)
        result = run_batch(rules, players=players, games=n, seed=seed, bots=specs,
                           details=True, kernel=kern, first_game=first, deal_room=room)
        again: dict[int, Any] = {}  # deal_counts is empty where every game is whole
        for g in (g for g, k in enumerate(result.deal_counts) if k > (room or 0)):
            alone = run_batch(rules, players=players, games=1, seed=seed, bots=specs,
                              details=True, kernel=kern, first_game=first + g, threads=1,
                              deal_room=int(result.deal_counts[g]))
            if alone.deal_counts[0] != result.deal_counts[g]:  # the same game, or a bug
                raise AssertionError(f"game {first + g} played again is another game")
            again[g] = alone
        yield result, again


def _kernel_deals(result: Any, players: int) -> tuple[list[float], dict[str, float]]:
    """Each game's mean decisions per deal and the deals won by each category (a split pool
    shared), from a kernel's batch: over the deals each game played (``deal_counts``) where
    its per-deal arrays hold them all (a longer game's mean is NaN and its deals past the
    arrays are not read)."""
    import numpy as np

    room = result.deal_decisions.shape[1]
    counts = (result.deal_counts if result.deal_counts.shape[0]
              else np.full(result.decisions.shape[0], room))
    played = np.arange(room)[None, :] < counts[:, None]  # (games, deals)
    fits = counts <= room
    per_deal = np.where(played, result.deal_decisions, 0).sum(axis=1) / counts
    per_deal = np.where(fits, per_deal, np.nan)
    seats = np.arange(players)
    won = (result.deal_winners[:, :, None].astype(np.int64) >> seats) & 1  # (games, deals, seats)
    won = won * (played & fits[:, None])[:, :, None]
    share = won / np.maximum(won.sum(axis=2, keepdims=True), 1)  # none where nobody qualified
    names = result.category_names
    codes = np.maximum(result.categories, 0).ravel().astype(np.int64)  # -1: out, never won
    by_code = np.bincount(codes, weights=share.ravel(), minlength=len(names))
    seen = np.bincount(codes, weights=won.ravel(), minlength=len(names))
    return (per_deal.tolist(),
            {names[c]: float(by_code[c]) for c in range(len(names)) if seen[c] > 0})


def variants(*, players: int, games: int, seed: int, bots: Sequence[str] = ("heuristic",),
             jobs: int | Spread = 1, rules_list: Sequence[Ruleset] | None = None,
             progress: Callable[[int], None] | None = None,
             engine: str = "reference") -> dict[str, Any]:
    """Every preset side by side: deals per game, decisions per game and per deal, and the
    share of deals won by each hand category (*players* is clamped to each ruleset's range).

    *engine* (``auto``, ``reference`` or ``compiled``: :func:`commerce.apps.simulate.choose_engine`)
    may play a ruleset's games on its family's compiled kernel where the kernel reports each
    deal's winners and decisions (its ``deal_results`` attribute; the trading, widow and Cox
    families' do: :func:`_variants_kernel` reads every deal of a widow session however long,
    exactly); each row's ``engine`` and ``engine_reason`` say which played and why. *jobs* splits
    the reference engine's games over processes; a kernel's batch runs on threads instead.

    :raises CommerceError: for ``compiled`` when a ruleset's games cannot run on a kernel that
        reports them.
    """
    chosen = list(rules_list) if rules_list is not None else list(rulesets())
    rows = []
    skipped = []
    done = 0
    for rules in chosen:
        n = min(max(players, rules.min_players), rules.max_players)
        try:
            specs = checked_bots(rules, n, bots, games)
        except CommerceError as exc:
            if family_spec(rules.family).deal_reader is not None:
                raise
            skipped.append({"rules": rules.id, "reason": str(exc)})
            continue
        played_on, why = analysis_engine(rules, n, specs, engine, "deal_results",
                                          "each deal's winners and decisions")
        if played_on == "compiled":
            samples = _variants_kernel(rules, n, specs, seed, games)
            if progress is not None:
                progress(done + games)
        else:
            samples = _variants_reference(rules, n, specs, seed, games, jobs,
                                          _offset(progress, done, games))
        done += games
        total = sum(samples.wins.values())
        rows.append({
            "rules": rules.id, "players": n, "games": games,
            "deals_per_game": _ci(mean_ci(samples.deals)),
            "decisions_per_game": _ci(mean_ci(samples.decisions)),
            "decisions_per_deal": _ci(mean_ci(samples.per_deal)),
            "wins_by_category": {c: rounded(samples.wins.get(c, 0.0) / total)
                                 for c in sorted(_categories(rules) | set(samples.wins))},
            "engine": played_on, "engine_reason": why,
        })
    return {"analysis": "variants", "players": players, "bots": list(bots), "games": games,
            "seed": seed, "rulesets": rows, "skipped": skipped}


# -- helpers --------------------------------------------------------------------------------


def _categories(rules: Ruleset) -> set[str]:
    """The categories of hands *rules* ranks (none for a family that ranks no three-card
    hands): a deal may be won by each, so each has a share in ``variants``, 0 if none won.

    >>> from commerce.rules import find_ruleset
    >>> sorted(_categories(find_ruleset("hoyle")))
    ['none', 'point', 'sequence', 'tricon']
    """
    from commerce.hands import evaluator_for
    from commerce.rules import RankingOptions

    if not isinstance(rules.options, RankingOptions):
        return set()
    return set(evaluator_for(rules).category_names)


def _ci(m: Any) -> dict[str, Any]:
    return {"mean": rounded(m.mean), "ci95": [rounded(m.lo), rounded(m.hi)]}


def _offset(progress: Callable[[int], None] | None, base: int,
            games: int) -> Callable[[int], None] | None:
    if progress is None:
        return None
    return lambda chunks: progress(base + min(chunks * CHUNK, games))


def chunk_progress(progress: Callable[[int], None] | None,
                   games: int) -> Callable[[int], None] | None:
    """*progress* (told games done) as a callback told chunks done (``None`` stays ``None``)."""
    if progress is None:
        return None
    return lambda chunks: progress(min(chunks * CHUNK, games))


def rounded(x: float, digits: int = 4) -> float | None:
    """*x* rounded for a report; ``None`` for a NaN or an infinity (JSON has neither)."""
    import math

    if math.isnan(x) or math.isinf(x):
        return None
    return round(x, digits)
