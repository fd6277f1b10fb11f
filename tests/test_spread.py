"""Tournaments and analyses on a local Ray (commerce.spread): the same results as one process
with the same seed, and a clear refusal where Ray cannot be reached. Fails (no skip) under CI
where Ray is missing."""

from __future__ import annotations

import os

import pytest

from commerce.apps.analysis import dealer_advantage
from commerce.apps.tournament import tournament
from commerce.errors import CommerceError
from commerce.rules import find_ruleset
from commerce.spread import RayWorkers

try:
    import ray
except ImportError:  # pragma: no cover - the test command installs it
    if os.environ.get("CI"):
        raise
    pytest.skip("Ray is not installed here", allow_module_level=True)


def test_an_unreachable_cluster_is_refused_in_one_line() -> None:
    assert not ray.is_initialized()  # runs before the local Ray of the tests below
    with pytest.raises(CommerceError, match="--ray: cannot start or reach ray://127.0.0.1:9"):
        tournament(find_ruleset("peel"), players=3, bots=["random", "heuristic"], games=4,
                   seed=1, engine="reference", jobs=RayWorkers("ray://127.0.0.1:9"))


@pytest.fixture(scope="module")
def local_ray():  # type: ignore[no-untyped-def]
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    yield
    ray.shutdown()


def test_a_tournament_on_ray_is_the_tournament_of_one_process(local_ray: None) -> None:
    rules = find_ruleset("peel")
    here = tournament(rules, players=3, bots=["random", "heuristic"], games=12, seed=3,
                      engine="reference")
    spread = tournament(rules, players=3, bots=["random", "heuristic"], games=12, seed=3,
                        engine="reference", jobs=RayWorkers())
    assert spread["games"] == here["games"] == 12
    for key in ("payoff", "ci95", "ratings", "pairs"):
        assert spread[key] == here[key], key


def test_an_analysis_on_ray_is_the_analysis_of_one_process(local_ray: None) -> None:
    rules = find_ruleset("widow")
    here = dealer_advantage(rules, players=3, games=6, seed=2, bots=["random"],
                            engine="reference")
    spread = dealer_advantage(rules, players=3, games=6, seed=2, bots=["random"],
                              engine="reference", jobs=RayWorkers())
    assert spread == here
