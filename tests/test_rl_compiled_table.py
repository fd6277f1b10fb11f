"""The research API's compiled table (:class:`commerce.rl.table.CompiledTable`) against the
reference's (:class:`commerce.rl.table.Table`), step for step.

Each episode is played with random legal actions on the compiled engine, every seat a
learner. Its recorded codes (the first dealer, chance's cards, every decision) drive a
reference table: the dealer fixed, chance's actions the recorded ones. At every step both must
agree on the seat to decide, its mask, what each step paid each seat, whether the episode is
over, and every seat's observation vector (so the compiled observations are the reference's
encoding of ``engine.observe``, which the no-leak harness holds to each seat's view); at the
end the spectator's text too. The option sets are the trading and Cox kernels' declared cases
(:func:`tests.harness.options.option_cases`): each value it plays, one deal (a Cox hand) each.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

import numpy as np
import pytest

from commerce.errors import IllegalActionError, RulesetError
from commerce.families.cox import kernel as cox_kernel
from commerce.families.trading.kernel import SUPPORTED, check_supported
from commerce.rl.table import CompiledTable, Table, make_table
from commerce.rules import Ruleset, find_ruleset, refusal
from tests.harness.options import SEED, Case, option_cases, seed_named


def _agree(compiled: CompiledTable, reference: Table) -> None:
    assert (compiled.seat, compiled.done) == (reference.seat, reference.done)
    assert np.array_equal(compiled.mask(), reference.mask())
    for seat in range(compiled.players):
        assert np.array_equal(compiled.observation(seat), reference.observation(seat)), seat


def twin_episode(rules: Ruleset, players: int, episode: Any, seed: int,
                 dealer: int | None = None) -> int:
    """Play one random episode on both tables; returns the steps played."""
    rng = random.Random(seed)
    compiled = CompiledTable.made(rules, players, episode=episode, dealer=dealer)
    compiled.reset(seed)
    codes = compiled.codes()
    chance = deque(codes[1:])
    reference = Table(rules, players, episode=episode, dealer=-1 - codes[0],
                      chance=lambda _state, _rng: compiled.decode(chance.popleft()))
    reference.reset(0)
    assert not chance
    seen, steps = len(codes), 0
    _agree(compiled, reference)
    while not compiled.done:
        index = rng.choice(np.flatnonzero(compiled.mask()).tolist())
        paid = compiled.step(index)
        codes = compiled.codes()
        played, *drawn = codes[seen:]
        seen = len(codes)
        assert compiled.decode(played) == reference.action(index)
        chance.extend(drawn)
        assert reference.step(index) == paid
        assert not chance
        _agree(compiled, reference)
        steps += 1
    assert compiled.text() == reference.text()
    return steps


PRESETS = [("peel", 4, "deal"), ("peel", 3, "game"), ("hoyle", 5, "game"),
           ("trade-and-barter", 3, "deal"), ("trade-and-barter-mini", 2, "game"),
           ("peel", 7, "deal"), ("peel", 5, "game")]


@pytest.mark.parametrize("rid,players,episode", PRESETS, ids=str)
def test_the_compiled_table_is_the_reference_step_for_step(rid: str, players: int,
                                                            episode: str) -> None:
    rules = find_ruleset(rid)
    for seed in range(3):
        assert twin_episode(rules, players, episode, seed) > 0


OPTION_CASES = option_cases("trading", check_supported)


@pytest.mark.parametrize("case", OPTION_CASES, ids=str)
def test_every_declared_option_value_steps_as_the_reference(case: Case) -> None:
    """A value the kernel declares steps as the reference; any other is refused by name and
    the research API's tables step the reference."""
    with seed_named(case):
        rules = case.rules()
        why = refusal(rules, SUPPORTED, "the compiled kernel")
        if why is None:
            twin_episode(rules, case.players, "deal", SEED)
            return
        with pytest.raises(RulesetError) as refused:
            CompiledTable.made(rules, case.players)
        assert str(refused.value) == f"{why}; use --engine reference"
        assert isinstance(make_table(rules, case.players), Table)


COX_PRESETS = [("cox", 4, "deal", 3), ("cox", 3, "game", 2), ("cox", 2, "game", 2),
               ("cox", 4, "game", 1)]


@pytest.mark.parametrize("rid,players,episode,seeds", COX_PRESETS, ids=str)
def test_coxs_compiled_table_is_the_reference_step_for_step(rid: str, players: int,
                                                             episode: str, seeds: int) -> None:
    """Cox's game: a hand pays each seat its points; a whole game's rewards add up to each
    seat's total (what the reference pays at the game's end beyond the hands is 0)."""
    rules = find_ruleset(rid)
    for seed in range(seeds):
        assert twin_episode(rules, players, episode, seed) > 0


COX_OPTION_CASES = option_cases("cox", cox_kernel.check_supported)


@pytest.mark.parametrize("case", COX_OPTION_CASES, ids=str)
def test_every_declared_cox_option_value_steps_as_the_reference(case: Case) -> None:
    """A value Cox's kernel declares steps as the reference (one hand); any other is refused
    by name and the research API's tables step the reference."""
    with seed_named(case):
        rules = case.rules()
        why = refusal(rules, cox_kernel.SUPPORTED, "the compiled kernel")
        if why is None:
            twin_episode(rules, case.players, "deal", SEED)
            return
        with pytest.raises(RulesetError) as refused:
            CompiledTable.made(rules, case.players)
        assert str(refused.value) == f"{why}; use --engine reference"
        assert isinstance(make_table(rules, case.players), Table)


@pytest.mark.parametrize("rid", ["peel", "cox"])
def test_a_fixed_dealer_deals_first_and_a_seed_reproduces_the_episode(rid: str) -> None:
    rules = find_ruleset(rid)
    twin_episode(rules, 4, "deal", 5, dealer=2)
    table = CompiledTable.made(rules, 4, dealer=2)
    traces = []
    for _ in range(2):
        table.reset(9)
        trace = [table.observation(table.seat or 0).tobytes()]
        while not table.done:
            trace.append(table.step(int(np.flatnonzero(table.mask())[-1])))
        traces.append((table.codes(), trace))
    assert traces[0] == traces[1] and traces[0][0][0] == -1 - 2
    table.reset(10)
    assert table.codes()[1:] != traces[0][0][1:len(table.codes())]


def test_an_illegal_action_changes_nothing() -> None:
    table = CompiledTable.made(find_ruleset("peel"), 4)
    table.reset(1)
    before, codes = table.observation(table.seat or 0), table.codes()
    bad = int(np.flatnonzero(table.mask() == 0)[0])
    for index in (bad, -1, table.num_actions):
        with pytest.raises(IllegalActionError, match="not legal now"):
            table.step(index)
    assert np.array_equal(table.observation(table.seat or 0), before)
    assert table.codes() == codes


def test_the_engine_is_chosen_by_name_and_refused_where_there_is_none() -> None:
    peel, vingt = find_ruleset("peel"), find_ruleset("vingt-un")
    assert isinstance(make_table(peel, 4), CompiledTable)
    assert isinstance(make_table(find_ruleset("cox"), 4), CompiledTable)
    assert isinstance(make_table(peel, 4, engine="reference"), Table)
    assert isinstance(make_table(vingt, 4), Table)
    with pytest.raises(RulesetError, match="no compiled engine"):
        make_table(vingt, 4, engine="compiled")
    with pytest.raises(RulesetError, match="engine must be"):
        make_table(peel, 4, engine="fast")  # type: ignore[arg-type]


@pytest.mark.parametrize("rid,games", [("peel", 6), ("cox", 1)])
def test_with_compiled_bots_inside_each_learner_step_is_the_reference_states(rid: str,
                                                                             games: int) -> None:
    """The table of a Gymnasium environment: the learner at seat 1, compiled bots at the
    others (played inside each step). At every learner decision its observation and mask are
    the reference's of the replayed game (the bots' own choices are held to the Python
    heuristic by ``tests/test_rl_vector.py`` and ``tests/test_cox_kernel_env.py``, the same
    compiled loop)."""
    from commerce import engine
    from commerce.encoding import legal_mask
    from commerce.kernelkit import HEURISTIC, RANDOM

    rules = find_ruleset(rid)
    table = CompiledTable.made(rules, 4, episode="game",
                               bots=[(HEURISTIC, 0.5), None, (RANDOM, 0.5), (HEURISTIC, 0.9)])
    rng = random.Random(4)
    steps = 0
    for seed in range(games):
        table.reset(seed)
        while not table.done:
            assert table.seat == 1
            state = table.decoded()
            assert engine.decision(state).seat == 1  # type: ignore[union-attr]
            assert np.array_equal(table.observation(1), np.asarray(
                table.encoding.encode(engine.observe(state, 1)), np.float32))
            expected = np.zeros(table.num_actions, np.int8)
            expected[legal_mask(table.encoding, rules, 4, engine.legal_actions(state))] = 1
            assert np.array_equal(table.mask(), expected)
            table.step(rng.choice(np.flatnonzero(table.mask()).tolist()))
            steps += 1
    assert steps > 20
