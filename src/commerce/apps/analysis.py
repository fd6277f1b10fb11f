"""Analyses by simulation: dealer advantage and the variants side by side (stand
thresholds are in :mod:`commerce.apps.threshold`).

The games are played by the runner (:mod:`commerce.apps.runner`), which reads every deal: what
it paid each seat, who won it and with what, by a per-family **deal reader** (the family's
``deal_reader`` hook; the trading family's and the cox family's are among them) on the
reference engine, or from the family's compiled kernel where it reports them (*engine*). In
Cox's game a "deal" is a hand, its "dealer" the Retailer (Base No. 1, who plays first), its
payoffs the points each seat scored in it (not zero-sum) and the hand categories ``sold
out``, ``complete``, ``clear`` and ``not clear``; standing has no counterpart there, so
:func:`commerce.apps.threshold.stand_threshold` refuses it. The reference engine's games are
shared among processes in chunks of games whose seeds come from the master seed
(``game_seed(seed, i)``), so results are the same for any number of processes; the kernel's
random streams are not the reference's, so the two engines agree statistically, not game for
game.

>>> from commerce.rules import find_ruleset
>>> r = dealer_advantage(find_ruleset("peel"), players=3, games=6, seed=1)
>>> [row["role"] for row in r["seats"]], r["deals"]
(['dealer', 'eldest', 'seat 2'], 18)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from commerce.apps.jobs import Spread
from commerce.apps.runner import Job, Table, choose_engine, deal_reader, runner_for
from commerce.core import Seat
from commerce.errors import CommerceError
from commerce.family import family_spec, payoff_unit
from commerce.rules import Ruleset, rulesets
from commerce.stats import MeanCI, mean_ci


def _role(rules: Ruleset, position: int, players: int) -> str:
    namer = family_spec(rules.family).role_name
    return namer(position, players) if namer else role_name(position)


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


_REPORTS = {"dealer-advantage": ("deal_payoffs", "each deal's payoffs"),
            "stand-threshold": ("stand_samples", "the stand samples"),
            "variants": ("deal_results", "each deal's winners and decisions")}
"""What each analysis reads of a kernel's run: the kernel's attribute, and in words."""


def analysis_engine(analysis: str, rules: Ruleset, players: int, specs: Sequence[str],
                    engine: str) -> tuple[str, str]:
    """The engine of a run of *analysis* (``dealer-advantage``, ``stand-threshold`` or
    ``variants``): :func:`commerce.apps.runner.choose_engine`, the kernel only where it
    reports what the analysis reads.

    :raises CommerceError: for ``compiled`` when the kernel cannot play the run or does not
        report what the analysis reads.
    """
    reports, what = _REPORTS[analysis]
    return choose_engine(rules, players, specs, engine, reports, what)


def plays_on_kernel(analysis: str, rules: Ruleset, players: int, bots: Sequence[str],
                    engine: str) -> bool:
    """Whether the run of *analysis* (``dealer-advantage``, ``stand-threshold`` or
    ``variants``) on *rules* will play on the family's compiled kernel, as its result's
    ``engine`` will say; False where the arguments are refused (the run says why).

    >>> from commerce.rules import find_ruleset
    >>> plays_on_kernel("variants", find_ruleset("peel"), 4, ["search"], "auto")
    False
    """
    try:
        specs = checked_bots(rules, players, bots, 1)
        return analysis_engine(analysis, rules, players, specs, engine)[0] == "compiled"
    except CommerceError:
        return False


# -- dealer advantage -----------------------------------------------------------------------


def advantage_samples(rules: Ruleset, players: int,
                      table: Table) -> list[tuple[list[float], list[int]]]:
    """For each game of *table* (the runner's, with its deals): the payoffs summed by place
    relative to each deal's dealer, and its deals (every seat holds each place once a deal)."""
    deals = table.deals
    assert deals is not None, "the job reads each deal"
    games = table.games.payoffs.shape[0]
    step = 1 if rules.direction == "left" else -1
    position = ((np.arange(players)[None, :] - deals.dealer[:, None]) * step) % players
    sums = np.zeros((games, players))
    # in the order of the games, their deals and the seats (np.add.at adds one at a time)
    np.add.at(sums, (np.broadcast_to(deals.game[:, None], position.shape), position),
              deals.payoffs)
    counts = np.bincount(deals.game, minlength=games).tolist()
    return [(sums[g].tolist(), [counts[g]] * players) for g in range(games)]


def dealer_advantage(rules: Ruleset, *, players: int, games: int, seed: int,
                     bots: Sequence[str] = ("heuristic",), jobs: int | Spread = 1,
                     progress: Callable[[int], None] | None = None,
                     engine: str = "reference") -> dict[str, Any]:
    """Each seat's mean payoff per deal by its place relative to the dealer.

    One sample per game (the mean of its deals for each place), so the 95% intervals are
    t-intervals over independent games. ``advantage`` is the dealer's mean payoff per deal;
    each row's ``vs_dealer`` is that place's payoff minus the dealer's.

    *engine* (``auto``, ``reference`` or ``compiled``:
    :func:`commerce.apps.runner.choose_engine`) may play the games on the family's compiled
    kernel where it reports each deal's payoffs; ``engine`` and ``engine_reason`` in the
    result say which played and why.
    """
    specs = checked_bots(rules, players, bots, games)
    chosen, why = analysis_engine("dealer-advantage", rules, players, specs, engine)
    job = Job(rules, players, tuple(specs), games, seed, deals=True)
    table = runner_for(chosen).run(job, jobs=jobs, progress=progress)
    samples: list[list[float]] = [[] for _ in range(players)]
    deals = 0
    for sums, counts in advantage_samples(rules, players, table):
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


# -- variants -------------------------------------------------------------------------------


class VariantSamples(NamedTuple):
    """What :func:`variants` reads from one ruleset's games: one sample per game of the
    deals, the decisions and the mean decisions per deal, and the deals won by each hand
    category (a split pool shared among its winners)."""

    deals: list[float]
    decisions: list[float]
    per_deal: list[float]
    wins: dict[str, float]


def variant_samples(table: Table) -> VariantSamples:
    """:class:`VariantSamples` of the games of *table* (the runner's, with its deals)."""
    deals = table.deals
    assert deals is not None, "the job reads each deal"
    rows = table.games
    games, players = rows.payoffs.shape
    per_deal = np.bincount(deals.game, weights=deals.decisions, minlength=games) / rows.deals
    won = (deals.winners[:, None] >> np.arange(players)[None, :]) & 1  # (deals, seats)
    won = won * (deals.categories >= 0)
    share = won / np.maximum(won.sum(axis=1, keepdims=True), 1)  # none where nobody won
    names = deals.category_names
    codes = np.maximum(deals.categories, 0).ravel()
    # in the order of the games, their deals and the seats, as the winners are counted
    by_code = np.bincount(codes, weights=share.ravel(), minlength=len(names))
    seen = np.bincount(codes, weights=won.ravel(), minlength=len(names))
    return VariantSamples(
        rows.deals.astype(float).tolist(), rows.decisions.astype(float).tolist(),
        per_deal.tolist(),
        {names[c]: float(by_code[c]) for c in range(len(names)) if seen[c] > 0})


def variants(*, players: int, games: int, seed: int, bots: Sequence[str] = ("heuristic",),
             jobs: int | Spread = 1, rules_list: Sequence[Ruleset] | None = None,
             progress: Callable[[int], None] | None = None,
             engine: str = "reference") -> dict[str, Any]:
    """Every preset side by side: deals per game, decisions per game and per deal, and the
    share of deals won by each hand category (*players* is clamped to each ruleset's range).

    *engine* (``auto``, ``reference`` or ``compiled``:
    :func:`commerce.apps.runner.choose_engine`) may play a ruleset's games on its family's
    compiled kernel where the kernel reports each deal's winners and decisions (its
    ``deal_results`` attribute; the trading, widow and Cox families' do: the runner reads every
    deal of a widow session however long, exactly); each row's ``engine`` and
    ``engine_reason`` say which played and why. *jobs* splits the reference engine's games
    over processes; a kernel's batch runs on threads instead.

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
        played_on, why = analysis_engine("variants", rules, n, specs, engine)
        job = Job(rules, n, tuple(specs), games, seed, deals=True)
        table = runner_for(played_on).run(job, jobs=jobs, progress=_offset(progress, done))
        samples = variant_samples(table)
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


def _ci(m: MeanCI) -> dict[str, object]:
    return {"mean": rounded(m.mean), "ci95": [rounded(m.lo), rounded(m.hi)]}


def _offset(progress: Callable[[int], None] | None,
            base: int) -> Callable[[int], None] | None:
    """*progress* told *base* more games than a ruleset's run tells."""
    if progress is None:
        return None
    return lambda done: progress(base + done)


def rounded(x: float, digits: int = 4) -> float | None:
    """*x* rounded for a report; ``None`` for a NaN or an infinity (JSON has neither)."""
    import math

    if math.isnan(x) or math.isinf(x):
        return None
    return round(x, digits)
