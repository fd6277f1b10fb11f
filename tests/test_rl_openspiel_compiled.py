"""The OpenSpiel games on the compiled engine (``engine`` ``auto``, the default for the trading
family) against the same games on the reference engine (``engine="reference"``), node for
node.

Both games are driven by the same actions, chance's cards included (a random legal one at
each node). At every node they must agree on who acts, the legal actions, chance's outcomes
and odds, whether the deal is over and its returns, and every seat's views: the observation
and information-state tensors (the recall rows of the seat's own decisions included) and
strings (every seat's at a table of four or fewer, two seats' a node at larger tables). A
clone must go on apart from its original. Every trading preset is played at its least and
greatest number of seats and at four.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from commerce.rules import find_ruleset
from tests.harness.rl_deps import need

PRESETS = ["peel", "hoyle", "trade-and-barter", "trade-and-barter-mini"]


def _tables(rid: str) -> list[int]:
    rules = find_ruleset(rid)
    return sorted({rules.min_players, min(4, rules.max_players), rules.max_players})


CASES = [(rid, players) for rid in PRESETS for players in _tables(rid)]


def _games(rid: str, **params: Any) -> tuple[Any, Any]:
    pyspiel = need("pyspiel")
    import commerce.rl.openspiel as games

    name = games.game_name(rid)
    compiled = pyspiel.load_game(name, {**params})
    reference = pyspiel.load_game(name, {**params, "engine": "reference"})
    return compiled, reference


def _agree(a: Any, b: Any, seats: range | list[int], strings: bool) -> None:
    assert type(a).__name__ == "_CompiledState" and type(b).__name__ == "_State"
    assert a.current_player() == b.current_player()
    assert a.is_terminal() == b.is_terminal()
    assert a.returns() == b.returns()
    if a.is_chance_node():
        assert a.chance_outcomes() == pytest.approx(b.chance_outcomes())
    elif not a.is_terminal():
        assert a.legal_actions() == b.legal_actions()
    for seat in seats:
        assert a.observation_tensor(seat) == pytest.approx(b.observation_tensor(seat))
        assert a.information_state_tensor(seat) == pytest.approx(
            b.information_state_tensor(seat))
        if strings:
            assert a.information_state_string(seat) == b.information_state_string(seat)
            assert a.observation_string(seat) == b.observation_string(seat)
    if strings:
        assert str(a) == str(b)


def _play(compiled: Any, reference: Any, players: int, seed: int, every: int = 5) -> int:
    """One deal on both, driven by the same random actions; returns the nodes compared."""
    rng = random.Random(seed)
    a, b = compiled.new_initial_state(), reference.new_initial_state()
    nodes = 0
    while True:
        # every seat's views at a table of four or fewer; else two seats' (the one to act)
        seats = range(players) if players <= 4 else sorted(
            {nodes % players, max(a.current_player(), 0)})
        _agree(a, b, seats, strings=nodes % every == 0)
        nodes += 1
        if a.is_terminal():
            return nodes
        if a.is_chance_node():
            outcomes, odds = zip(*a.chance_outcomes(), strict=True)
            action = rng.choices(outcomes, odds)[0]
        else:
            action = rng.choice(a.legal_actions())
        if nodes % 7 == 0:  # a clone goes on apart from its original
            twin = a.clone()
            twin.apply_action(action)
            _agree(twin, b.child(action), seats, strings=False)
        a.apply_action(action)
        b.apply_action(action)


@pytest.mark.parametrize("rid,players", CASES, ids=str)
def test_the_compiled_game_is_the_reference_node_for_node(rid: str, players: int) -> None:
    compiled, reference = _games(rid, players=players, recall=3)
    nodes = sum(_play(compiled, reference, players, seed, every=12) for seed in range(2))
    assert nodes > 2 * 3 * players


def test_the_drawn_openings_are_the_same_on_both_engines() -> None:
    compiled, reference = _games("trade-and-barter-mini", players=2, deals=3, seed=5)
    for seed in range(3):
        _play(compiled, reference, 2, seed, every=1)


def test_the_engine_parameter_is_checked_and_refused_where_there_is_none() -> None:
    pyspiel = need("pyspiel")
    import commerce.rl.openspiel as games
    from commerce.errors import RulesetError

    widow = pyspiel.load_game(games.game_name("widow"), {"players": 4})
    assert type(widow.new_initial_state()).__name__ == "_State"
    with pytest.raises(ValueError, match="parameter engine"):
        pyspiel.load_game(games.game_name("peel"), {"engine": "fast"})
    with pytest.raises(RulesetError, match="draws the first dealer"):  # OpenSpiel's is seat 0
        pyspiel.load_game(games.game_name("widow"), {"engine": "compiled"}).new_initial_state()
    with pytest.raises(RulesetError, match="does not stop for chance"):
        pyspiel.load_game(games.game_name("cox"), {"engine": "compiled"}).new_initial_state()
