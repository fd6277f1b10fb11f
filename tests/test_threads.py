"""No process-wide mutable state: two games of every family, stepped alternately in one thread
and at once in two threads, play exactly as each played alone (same records, same
observations after every step)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from commerce import engine
from commerce.bots import make_bot
from commerce.driver import Driver
from commerce.family import family_names
from commerce.rules import Ruleset, rulesets

BOTS = ("heuristic", "random", "search:iterations=1")


def _first_of_each_family() -> list[Ruleset]:
    firsts: dict[str, Ruleset] = {}
    for rules in rulesets():
        firsts.setdefault(rules.family, rules)
    assert set(firsts) == set(family_names())
    return list(firsts.values())


def _driver(rules: Ruleset, seed: int) -> Driver:
    players = min(max(3, rules.min_players), rules.max_players)
    return Driver(rules, [make_bot(BOTS[i % len(BOTS)]) for i in range(players)], seed=seed)


def _views(driver: Driver) -> tuple[Any, ...]:
    return tuple(engine.observe(driver.state, seat) for seat in range(driver.players))


def _alone(rules: Ruleset, seed: int) -> tuple[str, list[Any]]:
    driver = _driver(rules, seed)
    seen = [_views(driver)]
    while driver.step():
        seen.append(_views(driver))
    return driver.record().to_json(), seen


def _alternately(rules: Ruleset, seeds: tuple[int, int]) -> list[tuple[str, list[Any]]]:
    drivers = [_driver(rules, seed) for seed in seeds]
    seen: list[list[Any]] = [[_views(d)] for d in drivers]
    going = [True, True]
    while any(going):
        for i, d in enumerate(drivers):
            if going[i]:
                going[i] = d.step()
                if going[i]:
                    seen[i].append(_views(d))
    return [(d.record().to_json(), s) for d, s in zip(drivers, seen, strict=True)]


def _in_threads(rules: Ruleset, seeds: tuple[int, int]) -> list[tuple[str, list[Any]]]:
    results: list[Any] = [None, None]
    start = threading.Barrier(2)

    def run(i: int) -> None:
        start.wait()
        results[i] = _alone(rules, seeds[i])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


@pytest.mark.parametrize("rules", _first_of_each_family(), ids=lambda r: r.family)
def test_two_games_at_once_play_as_each_alone(rules: Ruleset) -> None:
    seeds = (1, 2)
    alone = [_alone(rules, seed) for seed in seeds]
    assert alone[0][0] != alone[1][0], "two different games are needed"
    assert _alternately(rules, seeds) == alone
    assert _in_threads(rules, seeds) == alone
