"""The OpenSpiel games (:mod:`commerce.rl.openspiel`): every ruleset registered, passing
OpenSpiel's own ``random_sim_test`` (serialisation included), with chance outcomes that add up
to 1 and follow ``sample_chance``'s odds, and views built from the seat's observation."""

from __future__ import annotations

from typing import Any

import pytest

from commerce import engine
from commerce.rules import Ruleset
from tests.harness import all_rulesets
from tests.harness.rl_deps import need


def _spiel() -> tuple[Any, Any]:
    pyspiel = need("pyspiel")
    import commerce.rl.openspiel as games

    return pyspiel, games


@pytest.mark.parametrize("rules", all_rulesets(), ids=lambda r: r.id)
def test_every_ruleset_passes_openspiels_random_simulation_test(rules: Ruleset) -> None:
    pyspiel, games = _spiel()
    name = games.game_name(rules.id)
    assert name in games.GAME_NAMES and name in pyspiel.registered_names()
    game = pyspiel.load_game(name, {"players": rules.min_players})
    assert game.num_players() == rules.min_players
    pyspiel.random_sim_test(game, num_sims=1 if rules.family == "cox" else 2,
                            serialize=True, verbose=False)


def _walk(game: Any, steps: int) -> list[Any]:
    import random

    rng = random.Random(3)
    state, seen = game.new_initial_state(), []
    for _ in range(steps):
        if state.is_terminal():
            break
        seen.append(state.clone())
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return seen


def test_cox_chance_follows_what_is_left_to_deal() -> None:
    pyspiel, _ = _spiel()
    game = pyspiel.load_game("python_commerce_cox", {"players": 3})
    first = game.new_initial_state()
    # The Directors cards for three players: 2n = 6, the Wholesaler, the Retailer and 4 blanks
    probs = dict(first.chance_outcomes())
    assert sorted(probs.values()) == pytest.approx([1 / 6, 1 / 6, 4 / 6])
    for state in _walk(game, 200):
        if state.is_chance_node():
            assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)


def test_the_views_are_the_seats_observation() -> None:
    import json

    pyspiel, _ = _spiel()
    from commerce.family import family_spec

    game = pyspiel.load_game("python_commerce_widow", {"players": 3})
    enc = family_spec("widow").encoding
    assert enc is not None
    for state in _walk(game, 60)[::7]:
        for seat in range(3):
            obs = engine.observe(state.state, seat)
            assert state.observation_tensor(seat) == pytest.approx(enc.encode(obs))
            assert json.loads(state.information_state_string(seat)) == \
                json.loads(json.dumps(obs.to_dict(), default=repr))
