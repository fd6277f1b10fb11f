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


def _views(state: Any, seat: int) -> tuple[Any, ...]:
    return (state.information_state_string(seat), state.information_state_tensor(seat),
            state.observation_string(seat), state.observation_tensor(seat))


def _played(state: Any, action: int) -> Any:
    """The engine's action of the integer *action* in the OpenSpiel *state*."""
    from commerce.core import Action, ActionKind
    from commerce.encoding import int_to_action
    from commerce.family import family_spec

    if state.is_chance_node():
        return Action(ActionKind.DEAL, (action,))
    ctx = state.game_
    return int_to_action(family_spec(ctx.rules.family).encoding, ctx.rules, ctx.players,
                         action, engine.legal_actions(state.state))


def _twin(game: Any, played: list[tuple[bool, Any]], pi: dict[int, int]) -> Any | None:
    """The game replayed with the cards relabelled by *pi* (None if a relabelled action is
    not legal there)."""
    from commerce.core import Action
    from commerce.family import family_spec

    state = game.new_initial_state()
    ctx = state.game_
    enc = family_spec(ctx.rules.family).encoding
    assert enc is not None
    for chance, found in played:
        if chance:
            a = pi.get(found.cards[0], found.cards[0])
        else:
            mapped = Action(found.kind, tuple(pi.get(c, c) for c in found.cards))
            a = enc.action_to_int(ctx.rules, ctx.players, mapped)
        if a not in (dict(state.chance_outcomes()) if chance else state.legal_actions()):
            return None
        state.apply_action(a)
    return state


@pytest.mark.parametrize("rules_id", ["trade-and-barter-mini", "widow-mini"])
def test_the_information_state_is_unchanged_when_what_the_seat_cannot_know_is_relabelled(
        rules_id: str) -> None:
    import random
    import re

    from commerce.cards import pack, parse_cards

    pyspiel, games = _spiel()
    game = pyspiel.load_game(games.game_name(rules_id), {"players": 2})
    cards = re.compile(r"\b[2-9TJQKA][SHDC]\b")
    compared = 0
    for seed in range(6):
        rng = random.Random(seed)
        state, played, seen = game.new_initial_state(), [], [set(), set()]
        while not state.is_terminal():
            for seat in (0, 1):
                seen[seat] |= set(parse_cards(" ".join(
                    cards.findall(state.information_state_string(seat)))))
                hidden = [c for c in pack(12) if c not in seen[seat]]
                if len(hidden) < 2:
                    continue
                pi = dict(zip(hidden, rng.sample(hidden, len(hidden)), strict=True))
                twin = _twin(game, played, pi)
                if twin is not None and pi != {c: c for c in hidden}:
                    assert _views(twin, seat) == _views(state, seat), (seed, played)
                    compared += 1
            chance = state.is_chance_node()
            if chance:
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                action = rng.choices(outcomes, probs)[0]
            else:
                action = rng.choice(state.legal_actions())
            played.append((chance, _played(state, action)))
            state.apply_action(action)
    assert compared > 50


def test_the_information_state_tensor_recalls_the_seats_own_decisions() -> None:
    import numpy as np

    pyspiel, games = _spiel()
    from commerce.encoding import observation_size
    from commerce.family import family_spec
    from commerce.rules import find_ruleset

    rules = find_ruleset("trade-and-barter-mini")
    enc = family_spec("trading").encoding
    assert enc is not None
    size, actions = observation_size(enc, rules, 2), enc.num_actions(rules, 2)
    game = pyspiel.load_game(games.game_name(rules.id), {"players": 2, "recall": 3})
    assert game.information_state_tensor_shape() == [size + 3 * (actions + size)]
    for state in _walk(game, 40):
        for seat in (0, 1):
            tensor = np.array(state.information_state_tensor(seat))
            assert tensor[:size] == pytest.approx(state.observation_tensor(seat))
            rows = tensor[size:].reshape(3, actions + size)
            mine = [(before, a) for s, before, a in state.acted if s == seat]
            for row, (before, a) in zip(rows, mine, strict=False):
                assert np.flatnonzero(row[:actions]).tolist() == [a]
                assert row[actions:] == pytest.approx(enc.encode(engine.observe(before, seat)))
            assert not rows[len(mine):].any()
