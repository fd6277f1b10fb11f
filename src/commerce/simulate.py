"""Bot-only simulation: many games, per-seat results, and the playout speed benchmark.

Per-game seeds are derived from the master seed, so results depend only on the arguments.

>>> from commerce.rules import find_ruleset
>>> r = simulate(find_ruleset("peel"), players=3, games=4, seed=1, bots=["random", "heuristic"])
>>> r["games"], len(r["seats"]), sum(s["net"] for s in r["seats"])
(4, 3, 0)
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from commerce import engine
from commerce.bots import make_bot
from commerce.driver import Driver
from commerce.rules import Ruleset


def game_seed(master: int, index: int) -> int:
    """The seed of game *index* of a run with seed *master* (stable across versions)."""
    return random.Random(f"commerce/{master}/{index}").getrandbits(63)


def simulate(
    rules: Ruleset,
    *,
    players: int,
    games: int,
    seed: int,
    bots: Sequence[str],
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play *games* games with the bots cycled over the seats; return the result table.

    ``seats[i]`` has the seat's ``bot``, ``net`` (stakes, tokens, counters or points won
    minus lost over all games), ``wins`` (deals or hands won), and what the ruleset tracks:
    totals over all games (``tokens`` left, ...), and for games where seats go out, in how
    many games the seat went out (``went_out_games``) and in which deal on average
    (``went_out_mean_deal``).
    """
    specs = [bots[i % len(bots)] for i in range(players)]
    agents = [make_bot(s) for s in specs]
    net = [0] * players
    wins = [0] * players
    extra: list[dict[str, Any]] = [{} for _ in range(players)]
    went_out: list[list[int]] = [[] for _ in range(players)]
    decisions = 0
    for g in range(games):
        driver = Driver(rules, agents, seed=game_seed(seed, g), fast=True)
        driver.run()
        result = driver.outcome()
        assert result is not None
        decisions += driver.decisions
        for i, p in enumerate(result.payoffs):
            net[i] += p
        won = result.details.get("deals_won") or result.details.get("hands_won")
        if won is not None:
            for i, w in enumerate(won):
                wins[i] += int(w)
        out_in = result.details.get("out_in")
        if isinstance(out_in, tuple) and len(out_in) == players:
            for i, deal in enumerate(out_in):
                if deal is not None:
                    went_out[i].append(int(deal))
        for key, values in result.details.items():
            if key in ("deals_won", "hands_won") or not isinstance(values, tuple):
                continue
            if len(values) == players and all(isinstance(v, int) for v in values):
                for i, v in enumerate(values):
                    extra[i][key] = extra[i].get(key, 0) + v
        if progress is not None:
            progress(g + 1)
    for i, deals in enumerate(went_out):
        if deals:
            extra[i]["went_out_games"] = len(deals)
            extra[i]["went_out_mean_deal"] = round(sum(deals) / len(deals), 2)
        elif any(went_out):
            extra[i]["went_out_games"] = 0
    return {
        "rules": rules.id,
        "players": players,
        "games": games,
        "seed": seed,
        "bots": list(bots),
        "decisions": decisions,
        "seats": [
            {"seat": i, "bot": specs[i], "net": net[i], "wins": wins[i], **extra[i]}
            for i in range(players)
        ],
    }


def playout_decisions_per_s(
    rules: Ruleset, players: int = 4, *, seconds: float = 1.0, seed: int = 0,
    warm_up: bool = True,
) -> float:
    """Player decisions per second in random playouts through the checked public API.

    Each step asks :func:`engine.decision`; chance acts through :func:`engine.sample_chance`,
    a player picks uniformly from :func:`engine.legal_actions`; every action goes through the
    checked :func:`engine.apply`. With *warm_up*, games are played untimed for half of
    *seconds* first, so that what is built once per ruleset (the hand evaluator's tables, the
    cached menus) is not counted.
    """
    rng = random.Random(seed)
    if warm_up:
        _play_until(rules, players, rng, time.perf_counter() + seconds / 2)
    start = time.perf_counter()
    count = _play_until(rules, players, rng, start + seconds)
    return count / (time.perf_counter() - start)


def _play_until(rules: Ruleset, players: int, rng: random.Random, deadline: float) -> int:
    """Play whole random games until *deadline* (at least one); the player decisions made."""
    decision, legal_actions, apply = engine.decision, engine.legal_actions, engine.apply
    sample_chance = engine.sample_chance
    count = 0
    while True:
        state = engine.new_game(rules, players)
        while (d := decision(state)) is not None:
            if d.seat is None:
                action = sample_chance(state, rng)
            else:
                legal = legal_actions(state)
                action = legal[rng.randrange(len(legal))]
                count += 1
            state = apply(state, action).state
        if time.perf_counter() >= deadline:
            return count


def playout_medians(presets: Sequence[Ruleset], players: int = 4, *, seconds: float = 1.0,
                    repeats: int = 5) -> dict[str, float]:
    """The median of *repeats* runs of :func:`playout_decisions_per_s` for each preset, by id.

    Every preset is warmed up first; then the runs of the presets are interleaved, so that a
    busy spell on the machine slows every preset alike.
    """
    for rules in presets:
        _play_until(rules, players, random.Random(0), time.perf_counter() + seconds / 2)
    runs: dict[str, list[float]] = {rules.id: [] for rules in presets}
    for seed in range(repeats):
        for rules in presets:
            runs[rules.id].append(playout_decisions_per_s(
                rules, players, seconds=seconds, seed=seed, warm_up=False))
    return {rid: statistics.median(rates) for rid, rates in runs.items()}
