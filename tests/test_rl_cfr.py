"""Exact tree algorithms: the game tree as arrays, CFR+ and best responses.

The sweeps are checked against OpenSpiel's own CFR+ and exploitability on its games (to
rounding), and the trees walked from our engine against the reference engine: their values,
their information states (a seat's key is its observation) and their payoffs.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from commerce import engine
from commerce.bots import make_bot
from commerce.core import Action, ActionKind
from commerce.errors import CommerceError
from commerce.family import family_spec
from commerce.rl.cfr import (
    CFRPlus,
    best_response,
    best_response_value,
    exploitability,
    nash_conv,
    policy_value,
)
from commerce.rl.tree import (
    CHANCE,
    TERMINAL,
    GameTree,
    bot_choices,
    build_tree,
    count_deals,
    draw_deal,
    merge_trees,
    observe_for,
    play_deal,
    pure_policy,
    state_at,
)
from commerce.rules import find_ruleset
from tests.harness.rl_deps import need

ROOT = Path(__file__).resolve().parent.parent
MINIS = ("trade-and-barter-mini", "widow-mini")


@lru_cache(maxsize=4)
def _tree(rules_id: str, deals: int, seed: int = 5) -> GameTree:
    return build_tree(find_ruleset(rules_id), 2, deals=deals, seed=seed)


# -- against OpenSpiel ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["kuhn_poker", "kuhn_poker(players=3)", "leduc_poker"])
def test_cfr_plus_and_exploitability_give_openspiels_numbers(name: str) -> None:
    need("pyspiel")
    import pyspiel
    from open_spiel.python import policy as os_policy
    from open_spiel.python.algorithms import cfr as os_cfr
    from open_spiel.python.algorithms import exploitability as os_exploitability

    from commerce.rl.tree import walk_spiel

    game = pyspiel.load_game(name)
    tree = walk_spiel(game)
    players = game.num_players()
    uniform = os_exploitability.nash_conv(game, os_policy.UniformRandomPolicy(game)) / players
    assert exploitability(tree, tree.uniform_policy()) == pytest.approx(uniform, abs=1e-12)
    iterations = 5 if name == "leduc_poker" else 20
    ours, theirs = CFRPlus(tree), os_cfr.CFRPlusSolver(game)
    ours.run(iterations)
    for _ in range(iterations):
        theirs.evaluate_and_update_policy()
    average = theirs.average_policy()
    expected = os_exploitability.nash_conv(game, average) / players
    assert exploitability(tree, ours.average_policy()) == pytest.approx(expected, abs=1e-9)
    # the same policies, information state by information state
    as_ours = tree.policy_from(lambda i: [average.policy_for_key(tree.iset_keys[i][1])[a]
                                          for a in tree.iset_labels[i]])
    np.testing.assert_allclose(ours.average_policy(), as_ours, atol=1e-9)
    assert expected < uniform


def test_kuhn_poker_converges_to_its_value() -> None:
    need("pyspiel")
    import pyspiel

    from commerce.rl.tree import walk_spiel

    tree = walk_spiel(pyspiel.load_game("kuhn_poker"))
    solver = CFRPlus(tree)
    solver.run(1000)
    average = solver.average_policy()
    assert exploitability(tree, average) < 1e-3
    # the game's value to the first player is -1/18
    assert policy_value(tree, average, 0) == pytest.approx(-1 / 18, abs=2e-3)


# -- the trees of our rulesets ---------------------------------------------------------------


@pytest.mark.parametrize("rules_id", MINIS)
def test_the_tree_is_a_well_formed_zero_sum_game(rules_id: str) -> None:
    tree = _tree(rules_id, 12)
    assert tree.deals == 12 and tree.zero_sum()
    assert tree.kind[0] == CHANCE and (tree.parent[1:] < np.arange(1, tree.nodes)).all()
    kids = tree.parent[1:]
    # the chances of each chance node's outcomes add up to one
    chance = np.flatnonzero(tree.kind == CHANCE)
    sums = np.bincount(kids, weights=tree.prob[1:], minlength=tree.nodes)
    np.testing.assert_allclose(sums[chance], 1.0)
    # a seat's node has one child per legal action of its information state
    seats = np.flatnonzero(tree.kind >= 0)
    counts = np.bincount(kids, minlength=tree.nodes)
    assert (counts[seats] == tree.iset_actions[tree.infoset[seats]]).all()
    assert (counts[tree.kind == TERMINAL] == 0).all()
    assert (tree.iset_seat[tree.infoset[seats]] == tree.kind[seats]).all()


def test_the_deal_counts_are_those_of_the_research_pack() -> None:
    # three cards to each of two hands from twelve: C(12,3) C(9,3); the widow three more
    assert count_deals(find_ruleset("trade-and-barter-mini"), 2) == 220 * 84
    assert count_deals(find_ruleset("widow-mini"), 2) == 220 * 84 * 20


def _reference_value(rules_id: str, cards: tuple[int, ...], seat: int) -> float:
    """*seat*'s expected payoff of one deal under uniform play, by the reference engine."""
    rules = find_ruleset(rules_id)
    reader = family_spec(rules.family).deal_reader
    assert reader is not None
    start = engine.new_game(rules, 2, dealer=0)
    public = list(getattr(engine.observe(start, None), "events", ()))

    def value(state: Any, public: list[Any]) -> float:
        found = reader(rules, 2, public)
        if found:
            return float(found[0].payoffs[seat])
        legal = engine.legal_actions(state)
        total = 0.0
        for a in legal:
            child, events = engine.apply(state, a)
            total += value(child, public + [e for e in events if e.visible_to is None])
        return total / len(legal)

    state, events = engine.apply(start, Action(ActionKind.DEAL, cards))
    return value(state, public + [e for e in events if e.visible_to is None])


@pytest.mark.parametrize("rules_id", MINIS)
def test_a_deals_tree_has_the_reference_engines_value(rules_id: str) -> None:
    rules = find_ruleset(rules_id)
    rng = random.Random(3)
    for _ in range(2):
        tree = build_tree(rules, 2, deals=1, seed=rng.randrange(10**6))
        cards = tree.dealt[0]
        for seat in (0, 1):
            assert policy_value(tree, tree.uniform_policy(), seat) == pytest.approx(
                _reference_value(rules_id, cards, seat), abs=1e-12)


@pytest.mark.parametrize("rules_id", MINIS)
def test_an_information_state_is_what_the_seat_observes(rules_id: str) -> None:
    """Along random deals, a seat's key and its observation determine each other."""
    rules = find_ruleset(rules_id)
    by_key: dict[Any, str] = {}
    by_obs: dict[str, Any] = {}
    rng = random.Random(11)

    def choose(seat: int, key: Any, state: Any, legal: tuple[Any, ...]) -> Any:
        obs = json.dumps(observe_for(rules, state, seat).to_dict(), sort_keys=True,
                         default=repr)
        assert by_key.setdefault(key, obs) == obs
        assert by_obs.setdefault(obs, key) == key
        return legal[rng.randrange(len(legal))]

    # few deals, many plays of each: the same information state is met again
    deals = [draw_deal(rules, 2, rng) for _ in range(3)]
    for _ in range(150):
        play_deal(rules, 2, deals[rng.randrange(3)], choose, rng)
    assert len(by_key) > 20


def test_play_deal_plays_the_trees_policy_at_its_value() -> None:
    """A policy played deal by deal through :func:`play_deal` earns the tree's value."""
    tree = _tree("trade-and-barter-mini", 12)
    rules = find_ruleset("trade-and-barter-mini")
    solver = CFRPlus(tree)
    solver.run(30)
    average = solver.average_policy()
    ids = {key: i for i, key in enumerate(tree.iset_keys)}
    rng = random.Random(2)

    def choose(seat: int, key: Any, state: Any, legal: tuple[Any, ...]) -> Any:
        i = ids[key]
        start = int(tree.iset_offset[i])
        return legal[rng.choices(range(len(legal)), average[start:start + len(legal)])[0]]

    games = 4000
    total = sum(play_deal(rules, 2, tree.dealt[rng.randrange(tree.deals)], choose, rng)[0]
                for _ in range(games))
    # payoffs lie in [-1, 1]: four standard errors at most
    assert total / games == pytest.approx(policy_value(tree, average, 0), abs=4 / games ** 0.5)


def test_trees_built_in_parts_merge_into_the_whole() -> None:
    rules = find_ruleset("widow-mini")
    whole = build_tree(rules, 2, deals=9, seed=4)
    parts = merge_trees([build_tree(rules, 2, deals=9, seed=4, part=(k, 2)) for k in (0, 1)])
    assert (parts.nodes, parts.infosets, parts.deals) == (whole.nodes, whole.infosets, 9)
    for policy_of in (GameTree.uniform_policy,):
        assert exploitability(parts, policy_of(parts)) == pytest.approx(
            exploitability(whole, policy_of(whole)), abs=1e-12)


@pytest.mark.parametrize("rules_id", MINIS)
def test_cfr_plus_approaches_an_equilibrium_of_a_small_game(rules_id: str) -> None:
    tree = _tree(rules_id, 12)
    uniform = exploitability(tree, tree.uniform_policy())
    solver = CFRPlus(tree)
    solver.run(200)
    average = solver.average_policy()
    assert 0.0 <= exploitability(tree, average) < min(0.005, uniform / 50)
    # a best response gains nothing on an equilibrium and never loses
    for seat in (0, 1):
        value, best = best_response(tree, average, seat)
        assert value >= policy_value(tree, average, seat) - 1e-12
        mine = tree.iset_seat == seat
        assert (best[mine] >= 0).all() and (best[~mine] == -1).all()
    assert nash_conv(tree, average) == pytest.approx(2 * exploitability(tree, average))


def test_a_best_response_to_a_pure_policy_is_worth_at_least_any_pure_deviation() -> None:
    tree = _tree("trade-and-barter-mini", 12)
    rules = find_ruleset("trade-and-barter-mini")
    policy = pure_policy(tree, bot_choices(rules, tree, make_bot("heuristic").act))
    for seat in (0, 1):
        value = best_response_value(tree, policy, seat)
        rng = np.random.default_rng(seat)
        for _ in range(20):  # random pure deviations of the seat never beat the best response
            other = np.zeros(tree.flat_actions)
            choice = rng.integers(0, tree.iset_actions)
            other[tree.iset_offset + choice] = 1.0
            own = np.repeat(tree.iset_seat == seat, tree.iset_actions)
            assert policy_value(tree, np.where(own, other, policy), seat) <= value + 1e-12


def test_bad_policies_are_refused_with_a_message() -> None:
    tree = _tree("trade-and-barter-mini", 12)
    with pytest.raises(ValueError, match="a policy of this tree has"):
        exploitability(tree, np.ones(3))
    with pytest.raises(CommerceError, match="probabilities adding up to 1"):
        tree.policy_from(lambda i: [1.0] * int(tree.iset_actions[i]))
    with pytest.raises(CommerceError, match="one legal action of every"):
        pure_policy(tree, np.full(tree.infosets, -1))


def test_a_nodes_state_is_replayed_from_its_deal() -> None:
    """The state replayed for an information state's first node shows its seat the
    information state's own legal actions, and the seat's observation of it is the one
    met when the deal is played along the same path."""
    rules = find_ruleset("widow-mini")
    tree = _tree("widow-mini", 12)
    for i, node in list(enumerate(tree.first_nodes()))[::97]:
        state = state_at(rules, tree, int(node))
        assert engine.legal_actions(state) == tree.iset_labels[i]
        assert tree.kind[node] == tree.iset_seat[i]
    with pytest.raises(CommerceError, match="before the deal"):
        state_at(rules, tree, 0)


def test_a_family_without_one_dealing_action_is_refused() -> None:
    with pytest.raises(CommerceError):
        build_tree(find_ruleset("vingt-un"), 2, deals=1)


# -- the scripts ------------------------------------------------------------------------------


def _run(path: Path, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True,
                         env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_exploitability_script_reports_every_policy(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    out = _run(ROOT / "scripts" / "exploitability.py", "--rules", "widow-mini", "--deals",
               "20", "--iterations", "40", "--h2h", "6", "--jobs", "1", "--search",
               "search:iterations=10", "--json", str(target))
    report = json.loads(target.read_text())
    rows = {r["policy"]: r for r in report["policies"]}
    assert set(rows) == {"random", "heuristic", "search:iterations=10",
                         "CFR+ (40 iterations)"}
    assert rows["CFR+ (40 iterations)"]["exploitability"] < rows["heuristic"]["exploitability"]
    assert rows["heuristic"]["exploitability"] < rows["random"]["exploitability"]
    assert report["head_to_head"]["deals"] == 6 and report["deals"] == 20
    assert "search against CFR" in out


def test_the_cfr_example_runs() -> None:
    out = _run(ROOT / "examples" / "cfr.py", "--deals", "15", "--iterations", "30")
    assert "CFR+ after   30 iterations" in out and "heuristic: exploitability" in out
