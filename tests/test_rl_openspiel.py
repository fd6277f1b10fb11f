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
    """The default views, then every observer type's tensor and string (the public ones'
    history rows included)."""
    game = state.get_game()
    more: list[Any] = []
    for public, recall, private in OBSERVER_TYPES:
        observer = _observer(game, public, recall, private)
        observer.set_from(state, seat)
        more += [observer.tensor.tolist(), observer.string_from(state, seat)]
    return (state.information_state_string(seat), state.information_state_tensor(seat),
            state.observation_string(seat), state.observation_tensor(seat), *more)


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


OBSERVER_TYPES = [(public, recall, private) for private in ("SINGLE_PLAYER", "NONE")
                  for public in (True, False) for recall in (False, True)
                  if (public, private) != (False, "SINGLE_PLAYER")]
"""Every observer type Commerce's games provide: (public_info, perfect_recall,
PrivateInfoType's name)."""


def _observer(game: Any, public: bool, recall: bool, private: str) -> Any:
    pyspiel, _ = _spiel()
    from open_spiel.python.observation import make_observation

    return make_observation(game, pyspiel.IIGObservationType(
        public_info=public, perfect_recall=recall,
        private_info=getattr(pyspiel.PrivateInfoType, private)))


@pytest.mark.parametrize("rules", all_rulesets(), ids=lambda r: r.id)
def test_every_observer_type_shows_a_seat_only_what_it_may_know(rules: Ruleset) -> None:
    """The relabelling harness over every observer type: the seat's views are unchanged in
    its twin, and the public views (``PrivateInfoType.NONE``) in every seat's twin, so they
    hold no seat's own hand. On the reference engine, whose states the harness relabels; the
    compiled engine's views are the reference's (``tests/test_rl_openspiel_compiled.py``)."""
    from tests.harness.noleak import check_views

    pyspiel, games = _spiel()
    players = min(max(4, rules.min_players), rules.max_players)
    game = pyspiel.load_game(games.game_name(rules.id),
                             {"players": players, "engine": "reference"})
    shim = game.new_initial_state()
    for public, recall, private in OBSERVER_TYPES:
        observer = _observer(game, public, recall, private)

        def views(state: Any, seat: int, observer: Any = observer) -> Any:
            shim.state, shim.acted = state, [(seat, state, 0)]
            observer.set_from(shim, seat)
            return observer.tensor.tobytes(), observer.string_from(shim, seat)

        kind = f"{'public' if public else 'no public'}, {private}, recall {recall}"
        report = check_views(rules, views, public=private == "NONE", surface=kind,
                             states=6, players=players)
        assert report.leaks == {}, report.leaks
        assert report.checks[kind] >= 6 * players


@pytest.mark.parametrize("rules", all_rulesets(), ids=lambda r: r.id)
def test_the_public_observer_holds_no_hand(rules: Ruleset) -> None:
    import json

    from commerce.encoding import decode

    pyspiel, games = _spiel()
    players = min(max(4, rules.min_players), rules.max_players)
    game = pyspiel.load_game(games.game_name(rules.id), {"players": players})
    public = _observer(game, True, False, "NONE")
    seat_view = _observer(game, True, False, "SINGLE_PLAYER")
    held = 0
    for state in _walk(game, 250)[3::12]:
        strings = {public.string_from(state, seat) for seat in range(players)}
        assert len(strings) == 1
        assert json.loads(strings.pop())["seat"] is None
        enc = state.game_.encoding
        for seat in range(players):
            public.set_from(state, seat)
            seat_view.set_from(state, seat)
            assert public.tensor.shape == seat_view.tensor.shape
            assert not any(decode(enc, rules, players, public.tensor.tolist())["hand"])
            held += any(decode(enc, rules, players, seat_view.tensor.tolist())["hand"])
    assert held > 0


def test_the_observer_types_commerce_does_not_provide_are_refused_by_name() -> None:
    pyspiel, games = _spiel()
    game = pyspiel.load_game(games.game_name("peel"))
    with pytest.raises(ValueError, match="ALL_PLAYERS is not provided"):
        _observer(game, True, False, "ALL_PLAYERS")
    with pytest.raises(ValueError, match="public_info=False is not provided"):
        _observer(game, False, True, "SINGLE_PLAYER")
    nothing = _observer(game, False, False, "NONE")
    state = game.new_initial_state()
    nothing.set_from(state, 0)
    assert nothing.tensor.size == 0 and nothing.string_from(state, 0) == ""


@pytest.mark.parametrize("rules", all_rulesets(), ids=lambda r: r.id)
def test_each_game_declares_its_true_utility(rules: Ruleset) -> None:
    """Zero-sum exactly where every simulated deal's payoffs add up to 0, at the fewest and
    the most seats (and by the rules: :func:`commerce.rl.openspiel.is_zero_sum`);
    general-sum where some deal's do not, their sums varying (so not constant-sum)."""
    import random

    from commerce.rl.table import Table

    pyspiel, games = _spiel()
    declared = pyspiel.load_game(games.game_name(rules.id)).get_type().utility
    sums = set()
    for players in (rules.min_players, rules.max_players):
        table, rng = Table(rules, players), random.Random(players)
        for deal in range(150 if rules.family == "widow" else 40):
            table.reset(deal)
            total = 0.0
            while not table.done:
                total += sum(table.play(rng.choice(table.legal())))
            sums.add(total)
    if sums == {0.0}:
        assert declared == pyspiel.GameType.Utility.ZERO_SUM
        assert pyspiel.load_game(games.game_name(rules.id)).utility_sum() == 0.0
    else:
        assert len(sums) > 1
        assert declared == pyspiel.GameType.Utility.GENERAL_SUM
    assert games.is_zero_sum(rules) == (sums == {0.0})


def test_openspiels_own_cfr_and_exploitability_run_on_a_mini_of_one_deal() -> None:
    """OpenSpiel's ``exploitability()`` accepts the zero-sum games, and its CFR lowers it on
    ``widow-mini`` played from one fixed opening (``deals=1``)."""
    pyspiel, games = _spiel()
    from open_spiel.python.algorithms import cfr, exploitability

    game = pyspiel.load_game(games.game_name("widow-mini"), {"players": 2, "deals": 1})
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    first = game.new_initial_state()
    assert first.chance_outcomes() == [(0, 1.0)]
    assert first.action_to_string(pyspiel.PlayerId.CHANCE, 0).startswith("opening 0: ")
    solver = cfr.CFRSolver(game)
    before = exploitability.exploitability(game, solver.average_policy())
    for _ in range(3):
        solver.evaluate_and_update_policy()
    after = exploitability.exploitability(game, solver.average_policy())
    assert 0.0 <= after < before


def test_the_deals_parameter_plays_the_drawn_openings_and_is_checked() -> None:
    pyspiel, games = _spiel()
    game = pyspiel.load_game(games.game_name("trade-and-barter-mini"),
                             {"players": 2, "deals": 3, "seed": 5})
    opened = games.openings("trade-and-barter-mini", 2, 3, 5)
    assert len(opened) == 3 and all(len(cards) == 6 for cards in opened)
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(i, pytest.approx(1 / 3)) for i in range(3)]
    state.apply_action(2)
    assert not state.is_chance_node()
    assert state.history() == [2]
    _, again = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))
    assert again.information_state_string(0) == state.information_state_string(0)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    with pytest.raises(ValueError, match="parameter deals"):
        pyspiel.load_game(games.game_name("trade-and-barter-mini"), {"deals": 99})
