"""The trading family's compiled kernel against the reference engine, decision for decision.

Every game the kernel plays is recorded and replayed through ``engine.apply``: each action must
be legal where the kernel played it, each seat's decision the one the reference asks for, the
heuristic's every choice the one the Python heuristic makes from the seat's observation
(``engine.observe``, so the compiled policy cannot have peeked), and the showdowns, the
payoffs and the deals won must be the reference's. One kernel build per ruleset; the compiled
code is cached on disk.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from commerce import engine
from commerce.compiled import build_kernel, kernel_reason, run_batch
from commerce.core import ActionKind
from commerce.errors import CommerceError, RulesetError
from commerce.families.trading.kernel import SUPPORTED, check_supported
from commerce.family import family_spec
from commerce.kernelkit import decode_action
from commerce.rules import Ruleset, find_ruleset
from tests.harness.options import Case, check_case, option_cases

HEURISTIC = family_spec("trading").heuristic


def replay(rules: Ruleset, players: int, result: Any, row: int, bots: list[str]) -> int:
    """Replay game *row* of *result* through the reference; the heuristic decisions checked."""
    spec = [bots[i % len(bots)] for i in range(players)]
    boldness = [float(s.partition("boldness=")[2] or 0.5) if s.startswith("heuristic") else None
                for s in spec]
    state = engine.new_game(rules, players, dealer=int(result.dealers[row]))
    events = list(getattr(state, "log", ()))
    at = [0] * len(events)  # the player decisions made before each event
    showdowns = 0
    decisions = 0
    for code in result.actions[row, :result.action_counts[row]]:
        action = decode_action(int(code))
        d = engine.decision(state)
        assert d is not None, "the kernel played on after the game ended"
        if d.seat is None:
            assert action.kind is ActionKind.DEAL
        else:
            decisions += 1
            assert action.kind is not ActionKind.DEAL
            bold = boldness[d.seat]
            if bold is not None:
                obs = engine.observe(state, d.seat)
                legal = engine.legal_actions(state)
                assert HEURISTIC(obs, legal, random.Random(0), bold) == action, (
                    f"game {row}: the compiled heuristic played {action} where the Python "
                    f"heuristic plays another action")
        transition = engine.apply(state, action)  # raises IllegalActionError if illegal
        events.extend(transition.events)
        at.extend([decisions] * len(transition.events))
        for event in transition.events:
            if event.kind == "showdown":
                names = tuple(result.category_names[c]
                              for c in result.categories[row, showdowns])
                assert names == event.get("categories")
                stander = -1 if event.seat is None else event.seat
                assert stander == result.standers[row, showdowns]
                assert state.turns_taken == result.deal_turns[row, showdowns]
                showdowns += 1
        state = transition.state
    assert engine.decision(state) is None, "the kernel's game stopped before its end"
    outcome = engine.outcome(state)
    assert outcome is not None
    assert outcome.payoffs == tuple(int(x) for x in result.payoffs[row])
    assert outcome.details["deals_won"] == tuple(int(x) for x in result.deals_won[row])
    assert decisions == result.decisions[row]
    deals = family_spec("trading").deal_reader(rules, players, events)  # as the analyses read
    assert [d.payoffs for d in deals] == [tuple(float(x) for x in result.deal_payoffs[row, i])
                                          for i in range(len(deals))]
    # the decisions of each deal (up to its end, as the variants analysis counts them) and
    # who took its pool, a bit mask of seats
    ends = [at[d.end] for d in deals]
    assert [b - a for a, b in zip([0, *ends[:-1]], ends, strict=True)] == \
        result.deal_decisions[row].tolist()
    assert [sum(1 << w for w in d.winners) for d in deals] == result.deal_winners[row].tolist()
    return showdowns


LINEUPS = (["random"], ["heuristic"], ["random", "heuristic", "heuristic:boldness=0.8"])


@pytest.mark.parametrize("rid", ["peel", "hoyle", "trade-and-barter"])
@pytest.mark.parametrize("lineup", LINEUPS, ids=["random", "heuristic", "mixed"])
def test_presets_replay_through_the_reference(rid: str, lineup: list[str]) -> None:
    rules = find_ruleset(rid)
    for players, games in ((4, 120), (3, 30), (6, 20)):
        result = run_batch(rules, players=players, games=games, seed=7, bots=lineup,
                           record=True)
        for row in range(games):
            assert replay(rules, players, result, row, lineup) == players * rules.deals_each


def test_the_two_player_preset_replays_through_the_reference() -> None:
    rules = find_ruleset("trade-and-barter-mini")
    for lineup in LINEUPS:
        result = run_batch(rules, players=2, games=60, seed=9, bots=lineup, record=True)
        for row in range(60):
            assert replay(rules, 2, result, row, lineup) == 2 * rules.deals_each


VARIANTS: list[tuple[str, dict[str, Any], int]] = [
    ("peel", {"pack": 32}, 4),
    ("peel", {"direction": "right", "barter_direction": "right"}, 5),
    ("peel", {"barter_partner_may_stand": False}, 4),
    ("hoyle", {"barter_partner_may_stand": True}, 3),
    ("peel", {"barter_return_from_original_hand": False}, 4),
    ("peel", {"stand_allowed": "with_combination", "stand_after_trade": False}, 4),
    ("peel", {"stander_penalty": "best_hand_only"}, 5),
    ("peel", {"stander_pays_equal_hands": True, "ranking": "suit_point"}, 4),
    ("peel", {"best_tie_rule": "split_pool", "ranking": "no_pair_or_point"}, 4),
    ("peel", {"best_tie_rule": "dealer_as_eldest", "void_rank": "high_card",
              "ranking": "suit_point"}, 4),
    ("trade-and-barter", {"best_tie_rule": "split_pool"}, 4),
    ("peel", {"dealer_may_trade": False, "dealer_trade_cost": 2}, 3),
    ("peel", {"may_barter": False, "ace_low_sequence_rank": "highest"}, 4),
    ("peel", {"max_rounds_per_deal": 1}, 4),
    ("hoyle", {"deals_each": 2, "ante": 2, "dealer_ante": 3, "dealer_pays_winner": 2,
               "trade_cost": 0}, 3),
    ("trade-and-barter", {"pack": 32, "flush_compare": "high_card", "pair_kicker": False}, 3),
]


@pytest.mark.parametrize("rid,options,players", VARIANTS,
                         ids=[f"{r}-{'-'.join(o)}" for r, o, _ in VARIANTS])
def test_options_replay_through_the_reference(rid: str, options: dict[str, Any],
                                              players: int) -> None:
    rules = find_ruleset(rid).with_options(**options)
    for lineup in (["random"], ["heuristic", "random", "heuristic:boldness=0.3"]):
        result = run_batch(rules, players=players, games=40, seed=3, bots=lineup, record=True)
        for row in range(40):
            replay(rules, players, result, row, lineup)


OPTION_CASES = option_cases("trading", check_supported)


@pytest.mark.parametrize("case", OPTION_CASES, ids=str)
def test_every_declared_value_of_every_option_replays_or_is_refused(case: Case) -> None:
    # from the options' declarations (tests/harness/options.py): the kernel plays each value
    # it declares (SUPPORTED) as the reference does, and refuses every other by name
    check_case(case, SUPPORTED, replay)


def test_a_rule_changed_in_the_reference_alone_fails_the_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from commerce.families.trading import settle

    case = Case("peel", "dealer_pays_winner", 2, 4)
    assert check_case(case, SUPPORTED, replay, games=4) == "played"
    # the reference's dealer no longer pays the best hand; the kernel's still does
    monkeypatch.setattr(settle, "dealer_payments", lambda s, won: [])
    with pytest.raises(AssertionError):
        check_case(case, SUPPORTED, replay, games=4)


def test_the_round_limit_ends_deals_without_a_stander() -> None:
    rules = find_ruleset("peel").with_options(max_rounds_per_deal=1)
    result = run_batch(rules, players=4, games=200, seed=5, bots=["heuristic:boldness=1.0"],
                       details=True)
    assert (result.standers == -1).all()
    assert (result.deal_turns == 4).all()


def test_unsupported_options_are_refused_by_name() -> None:
    rules = find_ruleset("peel").with_options(max_rounds_per_deal=0)
    with pytest.raises(RulesetError, match="max_rounds_per_deal=0"):
        build_kernel(rules, 4)
    odd = find_ruleset("trade-and-barter").with_options(may_barter=False, dealer_may_trade=False)
    with pytest.raises(RulesetError, match="may_barter=False"):
        build_kernel(odd, 4)


def test_results_depend_on_the_seed_alone() -> None:
    rules = find_ruleset("peel")
    kern = build_kernel(rules, 4)
    one = run_batch(rules, players=4, games=300, seed=11, bots=["random", "heuristic"],
                    threads=1, kernel=kern)
    three = run_batch(rules, players=4, games=300, seed=11, bots=["random", "heuristic"],
                      threads=3, kernel=kern)
    tail = run_batch(rules, players=4, games=100, seed=11, bots=["random", "heuristic"],
                     kernel=kern, first_game=200)
    other = run_batch(rules, players=4, games=300, seed=12, bots=["random", "heuristic"],
                      kernel=kern)
    for a, b in zip(one.arrays(), three.arrays(), strict=True):
        assert np.array_equal(a, b)
    assert np.array_equal(one.payoffs[200:], tail.payoffs)
    assert not np.array_equal(one.payoffs, other.payoffs)


def test_a_batch_cut_into_pieces_plays_what_one_thread_plays() -> None:
    # 9,000 games on 2 threads: 4 pieces of unequal rows, rotated line-ups of three bots
    rules = find_ruleset("hoyle")
    kern = build_kernel(rules, 4)
    bots = ["random", "heuristic", "heuristic:boldness=0.8"]
    one = run_batch(rules, players=4, games=9_000, seed=5, bots=bots, threads=1, kernel=kern,
                    rotate=True, details=True)
    two = run_batch(rules, players=4, games=9_000, seed=5, bots=bots, threads=2, kernel=kern,
                    rotate=True, details=True)
    for a, b in zip(one.arrays(), two.arrays(), strict=True):
        assert np.array_equal(a, b)
    assert len(set(one.payoffs[:, 0].tolist())) > 3  # the games differ from one another


def test_which_lineups_run_on_the_kernel() -> None:
    peel = find_ruleset("peel")
    assert kernel_reason(peel, ["random", "heuristic:boldness=0.6"]) is None
    assert kernel_reason(peel, ["random", "search"]) == "bot search has no compiled policy"
    assert kernel_reason(find_ruleset("vingt-un"), ["random"]) == \
        "the vingtun family has no compiled kernel"
    with pytest.raises(CommerceError, match="no compiled policy"):
        run_batch(peel, players=4, games=2, seed=0, bots=["search"])


def test_simulate_chooses_and_reports_its_engine(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from commerce.cli import main

    assert main(["simulate", "--games", "30", "--bots", "random,heuristic", "--json"]) == 0
    fast = json.loads(capsys.readouterr().out)
    assert fast["engine"] == "compiled" and sum(s["net"] for s in fast["seats"]) == 0
    assert fast["decisions"] > 0 and "first_call_s" not in fast
    assert main(["simulate", "--games", "30", "--bots", "random,heuristic", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == fast
    assert main(["simulate", "--games", "3", "--bots", "random", "--engine", "reference",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["engine"] == "reference"
    assert main(["simulate", "--games", "3", "--rules", "vingt-un", "--json"]) == 0
    other = json.loads(capsys.readouterr().out)
    assert other["engine"] == "reference" and "no compiled kernel" in other["engine_reason"]
    assert main(["simulate", "--games", "3", "--bots", "search", "--engine", "compiled"]) == 2
    assert capsys.readouterr().err.strip() == (
        "commerce simulate: error: --engine compiled: bot search has no compiled policy")


def test_bench_fast_all_times_every_four_player_preset_with_a_kernel() -> None:
    from commerce.cli.simulate import fast_bench_presets
    from commerce.errors import CommerceError

    ids = [r.id for r in fast_bench_presets("all")]
    assert ids == ["peel", "hoyle", "trade-and-barter", "peel-old", "pool", "widow", "pounce",
                   "no-pair-or-point", "cox"]  # not the two-player variants, not Vingt-un
    assert [r.id for r in fast_bench_presets("pool,peel")] == ["pool", "peel"]
    with pytest.raises(CommerceError):
        fast_bench_presets("pel")


def test_bench_fast_prints_kernel_and_reference_rates(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from commerce.cli import main

    assert main(["bench", "--fast", "--rules", "hoyle", "--seconds", "0.1", "--games", "500",
                 "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["fast"]
    assert row["rules"] == "hoyle" and row["reference_decisions_per_s"] > 0
    assert row["random_decisions_per_s"] > 0 and row["heuristic_decisions_per_s"] > 0
    assert row["random_ratio"] == round(row["random_decisions_per_s"]
                                        / row["reference_decisions_per_s"], 1)
    assert row["heuristic_cpu_ratio"] == round(row["heuristic_decisions_per_cpu_s"]
                                               / row["reference_decisions_per_cpu_s"], 1)
    assert 0 < row["random_cores_used"] <= 2.5


def test_kernel_rates_take_batches_for_at_least_the_seconds_asked() -> None:
    from commerce.apps.simulate import kernel_decisions_per_s

    rules = find_ruleset("hoyle")
    few = kernel_decisions_per_s(rules, 4, games=20, repeats=3)
    assert few["batches"] == 3 and few["decisions_per_s"] > 0
    more = kernel_decisions_per_s(rules, 4, games=20, repeats=3, seconds=0.05)
    assert 3 < more["batches"] <= 100  # a batch of 20 short games is far below 0.05 s


def test_per_deal_results_only_when_asked() -> None:
    rules = find_ruleset("hoyle")
    plain = run_batch(rules, players=4, games=50, seed=2, bots=["random", "heuristic"])
    full = run_batch(rules, players=4, games=50, seed=2, bots=["random", "heuristic"],
                     details=True)
    assert plain.standers.shape == (50, 0) and plain.deal_payoffs.shape == (50, 0, 4)
    assert full.standers.shape == (50, 4) and full.categories.shape == (50, 4, 4)
    assert np.array_equal(plain.payoffs, full.payoffs)
    assert np.array_equal(full.deal_payoffs.sum(axis=1), full.payoffs)
