"""The widow family's compiled kernel against the reference engine, decision for decision.

Every session the kernel plays is recorded and replayed through ``engine.apply``: each action
must be legal where the kernel played it (chance's cards included), each decision the seat's
the reference asks for, and each showdown's categories, the knocker or first stander, the
turns of each deal, the payoffs and the deals won the reference's.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from commerce import engine
from commerce.apps.runner import choose_engine
from commerce.compiled import build_kernel, run_batch
from commerce.core import ActionKind
from commerce.errors import CommerceError, RulesetError
from commerce.families.widow.kernel import SUPPORTED, check_supported, decode_action
from commerce.family import family_spec
from commerce.rules import Ruleset, find_ruleset
from tests.harness.options import Case, check_case, option_cases

HEURISTIC = family_spec("widow").heuristic
LINEUPS = (("random",), ("heuristic",), ("random", "heuristic", "heuristic:boldness=0.9"))


def replay(rules: Ruleset, players: int, result: Any, row: int,
           bots: tuple[str, ...] = ("random",)) -> int:
    """Replay session *row* of *result* through the reference, the heuristic's choices checked
    against the Python heuristic's from the seat's observation; the deals played."""
    spec = [bots[i % len(bots)] for i in range(players)]
    boldness = [float(s.partition("boldness=")[2] or 0.5) if s.startswith("heuristic") else None
                for s in spec]
    count = int(result.action_counts[row])
    assert count > 0, f"game {row}: its record overflowed"
    state = engine.new_game(rules, players, dealer=int(result.dealers[row]))
    deal = 0
    decisions = 0
    turns = 0
    stander = -1
    events = list(getattr(state, "log", ()))
    at = [0] * len(events)  # the player decisions made before each event
    for code in result.actions[row, :count]:
        action = decode_action(int(code))
        d = engine.decision(state)
        assert d is not None, f"game {row}: the kernel played on after the end"
        if d.seat is None:
            assert action.kind is ActionKind.DEAL
        else:
            decisions += 1
            assert action.kind is not ActionKind.DEAL
            if d.kind.value in ("turn", "final_turn"):
                turns += 1
            bold = boldness[d.seat]
            if bold is not None:
                obs = engine.observe(state, d.seat)
                chosen = HEURISTIC(obs, engine.legal_actions(state), random.Random(0), bold)
                assert chosen == action, (
                    f"game {row}: the compiled heuristic played {action} where the Python "
                    f"heuristic plays {chosen} ({d.kind.value})")
        transition = engine.apply(state, action)  # raises IllegalActionError if illegal
        events.extend(transition.events)
        at.extend([decisions] * len(transition.events))
        for event in transition.events:
            if event.kind in ("knocked", "stood") and stander < 0:
                stander = int(event.seat)
            if event.kind == "showdown":
                if deal < result.standers.shape[1]:
                    names = event.get("categories")
                    for seat in range(players):
                        code_ = int(result.categories[row, deal, seat])
                        assert names[seat] == ("" if code_ < 0 else
                                               result.category_names[code_])
                    assert stander == result.standers[row, deal], f"game {row} deal {deal}"
                    assert turns == result.deal_turns[row, deal], f"game {row} deal {deal}"
                deal += 1
                stander, turns = -1, 0
        state = transition.state
    assert engine.decision(state) is None, f"game {row}: the kernel stopped before the end"
    outcome = engine.outcome(state)
    assert outcome is not None
    assert outcome.payoffs == tuple(int(x) for x in result.payoffs[row])
    assert outcome.details["deals_won"] == tuple(int(x) for x in result.deals_won[row])
    if "tokens" in outcome.details:  # the session's tokens and who went out, when
        assert outcome.details["tokens"] == tuple(int(x) for x in result.session[row, 0])
        assert outcome.details["out_in"] == tuple(
            int(x) if x > 0 else None for x in result.session[row, 1])
    else:
        assert result.session.shape[1] == 0
    assert decisions == result.decisions[row]
    # each deal as the analyses read it: its decisions (up to its end) and who took its pool,
    # a bit mask of seats (0: nobody qualified), for the deals the row has room for
    deals = family_spec("widow").deal_reader(rules, players, events)
    assert len(deals) == deal == result.deal_counts[row]
    kept = min(len(deals), result.deal_decisions.shape[1])
    ends = [at[d.end] for d in deals]
    assert [b - a for a, b in zip([0, *ends[:-1]], ends, strict=True)][:kept] == \
        result.deal_decisions[row, :kept].tolist()
    assert [sum(1 << w for w in d.winners) for d in deals][:kept] == \
        result.deal_winners[row, :kept].tolist()
    # and what each deal's settlement paid each seat, and who dealt it
    assert [list(d.payoffs) for d in deals][:kept] == \
        result.deal_payoffs[row, :kept].astype(float).tolist(), f"game {row}"
    assert [d.dealer for d in deals][:kept] == result.deal_dealers[row, :kept].tolist()
    return deal


PRESETS = ("peel-old", "pool", "widow", "pounce", "no-pair-or-point")


@pytest.mark.parametrize("rid", PRESETS)
@pytest.mark.parametrize("lineup", LINEUPS, ids=["random", "heuristic", "mixed"])
def test_presets_replay_through_the_reference(rid: str, lineup: tuple[str, ...]) -> None:
    rules = find_ruleset(rid)
    long = rid == "no-pair-or-point" and lineup == ("random",)  # sessions of thousands of
    for players, games in ((4, 4), (3, 3), (6, 1)) if long else ((4, 14), (3, 5), (6, 3)):
        result = run_batch(rules, players=players, games=games, seed=7, bots=list(lineup),
                           record=True)
        for row in range(games):
            assert replay(rules, players, result, row, lineup) >= 1


VARIANTS: list[tuple[str, dict[str, Any], int]] = [
    ("widow", {"dealer_blind_exchange": "all_or_nothing", "direction": "right"}, 4),
    ("widow", {"end_condition": "rounds_eq_players", "max_exchange_per_turn": 1,
               "exchange_all_three_locks": False, "widow_size": 5}, 5),
    ("widow", {"worst_tie_rule": "latest_in_rotation_loses", "add_widow_card_each_round": False,
               "best_tie_rule": "dealer_as_eldest"}, 4),
    ("widow", {"worst_tie_rule": "none", "pass_locks_out": False, "deals": 6}, 3),
    ("pounce", {"pounce_on_initial_widow": False, "pounce_after_pass": False, "pack": 32}, 4),
    ("no-pair-or-point", {"no_qualifier_rule": "fallback_full_ranking", "max_rounds_per_deal": 2},
     4),
    ("pool", {"deal_prize": 2, "horse_price": 3, "starting_tokens": 1}, 5),
    ("pool", {"buy_a_horse": False, "pool_entry": 1, "end_condition": "knock_final_round"}, 3),
    ("peel-old", {"best_tie_rule": "eldest", "deals_each": 2, "ranking": "suit_point"}, 4),
]


@pytest.mark.parametrize("rid,options,players", VARIANTS,
                         ids=[f"{r}-{'-'.join(o)}" for r, o, _ in VARIANTS])
def test_options_replay_through_the_reference(rid: str, options: dict[str, Any],
                                              players: int) -> None:
    rules = find_ruleset(rid).with_options(**options)
    for lineup in (("random",), ("heuristic", "random", "heuristic:boldness=0.2")):
        result = run_batch(rules, players=players, games=8, seed=3, bots=list(lineup),
                           record=True)
        for row in range(8):
            replay(rules, players, result, row, lineup)


def _bounded(rules: Ruleset) -> dict[str, int]:
    """A session of tokens or counters has no cap on its deals: one of 20 tokens each can
    last tens of thousands of deals, too long to replay; 60 deals cap it (most sessions of 3
    tokens end before, with a player left)."""
    return {"deals": 60} if rules.deals == 0 and rules.token_flow != "stake_from_each" else {}


OPTION_CASES = option_cases("widow", check_supported, _bounded)


@pytest.mark.parametrize("case", OPTION_CASES, ids=str)
def test_every_declared_value_of_every_option_replays_or_is_refused(case: Case) -> None:
    # from the options' declarations (tests/harness/options.py): the kernel plays each value
    # it declares (SUPPORTED) as the reference does, and refuses every other by name
    check_case(case, SUPPORTED, replay)


def test_a_rule_changed_in_the_reference_alone_fails_the_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from commerce.families.widow import settle

    case = Case("widow", "worst_tie_rule", "none", 4)
    assert check_case(case, SUPPORTED, replay, games=4) == "played"
    # the reference's lowest hand no longer loses a token; the kernel's still does
    monkeypatch.setattr(settle, "losers", lambda order, ranks, rule: [])
    with pytest.raises(AssertionError):
        check_case(case, SUPPORTED, replay, games=4)


def test_results_depend_on_the_seed_alone() -> None:
    # 650 sessions on 2 threads: 6 pieces of unequal rows (a piece is at least piece_games)
    rules = find_ruleset("pounce")
    kern = build_kernel(rules, 4)
    assert 650 // kern.piece_games == 6
    bots = ["random", "heuristic"]
    one = run_batch(rules, players=4, games=650, seed=11, bots=bots, threads=1, kernel=kern,
                    rotate=True, details=True)
    two = run_batch(rules, players=4, games=650, seed=11, bots=bots, threads=2, kernel=kern,
                    rotate=True, details=True)
    for a, b in zip(one.arrays(), two.arrays(), strict=True):
        assert np.array_equal(a, b)
    assert int(one.payoffs.sum()) == 0
    assert len(set(one.decisions.tolist())) > 100  # the sessions differ from one another


def test_what_the_kernel_does_not_play_is_refused() -> None:
    with pytest.raises(RulesetError, match="max_rounds_per_deal=0"):
        build_kernel(find_ruleset("widow").with_options(max_rounds_per_deal=0), 4)
    odd = find_ruleset("no-pair-or-point").with_options(
        pounce=True, four_of_a_kind=True, no_qualifier_rule="fallback_full_ranking")
    with pytest.raises(RulesetError, match="fallback_full_ranking"):
        build_kernel(odd, 4)
    widow = find_ruleset("widow")
    with pytest.raises(CommerceError, match="search has no compiled policy"):
        run_batch(widow, players=4, games=2, seed=0, bots=["search"])
    assert choose_engine(widow, 4, ["random", "heuristic"], "auto") == (
        "compiled", "every bot has a compiled policy")
    engine_name, why = choose_engine(widow, 4, ["random", "search"], "auto")
    assert engine_name == "reference" and "bot search has no compiled policy" in why


def test_simulate_on_the_kernel_shows_the_tokens_and_who_went_out() -> None:
    from commerce.apps.simulate import simulate_fast

    table = simulate_fast(find_ruleset("pounce"), players=4, games=30, seed=2,
                          bots=["random", "heuristic"])
    seats = table["seats"]
    assert sum(s["tokens"] for s in seats) == 12 * 30  # the winner holds every token
    assert sum(s["went_out_games"] for s in seats) == 3 * 30  # the three others went out
    assert all(s["went_out_mean_deal"] >= 1 for s in seats if s["went_out_games"])
    old_game = simulate_fast(find_ruleset("peel-old"), players=4, games=5, seed=2,
                             bots=["heuristic"])
    assert all("tokens" not in s for s in old_game["seats"])  # no tokens in the Old Game


@pytest.mark.parametrize("rid", ["widow", "no-pair-or-point"])
def test_a_larger_deal_room_keeps_every_deal_of_a_long_session(rid: str) -> None:
    rules = find_ruleset(rid)
    lineup = ("heuristic", "random")
    result = run_batch(rules, players=4, games=12, seed=5, bots=list(lineup), record=True,
                       deal_room=600)
    assert result.deal_counts.max() > build_kernel(rules, 4).deals  # past the default room
    assert result.deal_counts.max() <= 600
    for row in range(12):
        assert replay(rules, 4, result, row, lineup) == result.deal_counts[row]
    if rid == "no-pair-or-point":  # deals in which no hand qualified: nobody took the pool
        assert (result.deal_winners == 0).any()
    short = run_batch(rules, players=4, games=12, seed=5, bots=list(lineup), details=True,
                      deal_room=3)  # the first deals of the same sessions
    assert np.array_equal(short.deal_counts, result.deal_counts)
    assert np.array_equal(short.deal_decisions, result.deal_decisions[:, :3])
    assert np.array_equal(short.deal_winners, result.deal_winners[:, :3])


def test_the_deal_winners_are_the_deals_won() -> None:
    # the Old Game's tied best hands are all paid: each takes the deal (several bits)
    result = run_batch(find_ruleset("peel-old"), players=5, games=2000, seed=3,
                       bots=["random", "heuristic"], details=True)
    bits = (result.deal_winners[:, :, None].astype(np.int64) >> np.arange(5)) & 1
    assert np.array_equal(bits.sum(axis=1), result.deals_won)
    assert (bits.sum(axis=2) > 1).any()
    assert (result.deal_counts == 5).all()
    with pytest.raises(CommerceError, match="sessions all play 4 deals: no deal_room"):
        run_batch(find_ruleset("peel"), players=4, games=2, seed=0, bots=["random"],
                  details=True, deal_room=9)
