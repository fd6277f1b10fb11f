"""``analyze stand-threshold`` on the trading and widow kernels, checked against the
reference engine.

The kernel's sampled games are recorded by the batch kernel from the same seed (they are the
same games) and replayed through ``engine.apply``. At every seat's first turn of a deal where
it may stand (knock, in the widow games that end on one) the kernel must have taken a sample,
and no other, with the seat's place and hand. Each sample's two ways were recorded: played by
the reference from the same state, each must be legal, the first begin by standing and the
other by something else, every heuristic seat's choice must be the Python heuristic's (from
its own observation; standing left out of the other way's first), and each way's deal must
pay the seat what the kernel says (and, standing, win when it says).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from commerce import engine
from commerce.apps.threshold import stand_action, stand_threshold
from commerce.compiled import build_kernel, policy_arrays, run_batch
from commerce.core import ActionKind, DecisionKind
from commerce.errors import CommerceError
from commerce.family import family_spec
from commerce.hands import evaluator_for
from commerce.kernelkit import (
    RANDOM,
    S_DECISION,
    S_PLACE,
    S_PLAY,
    S_PLAYED,
    S_RANK,
    S_STAND,
    S_STOOD,
    S_WON,
)
from commerce.kernelkit import decode_action as decode_trading
from commerce.rules import Ruleset, find_ruleset


def one_way(rules: Ruleset, players: int, state: Any, events: list[Any], codes: Any,
            bold: list[float | None], decode: Any, stand: bool) -> Any:
    """The deal as the recorded *codes* end it from *state* (the game's *events* so far), each
    heuristic seat's choice checked (*bold*: each seat's boldness, None where it plays at
    random); *stand*: whether the first is the stand (else anything but)."""
    spec = family_spec(rules.family)
    standing = stand_action(rules)
    events = list(events)
    for i, code in enumerate(codes):
        action = decode(int(code))
        d = engine.decision(state)
        assert d is not None
        if d.seat is None:
            assert action.kind is ActionKind.DEAL
        else:
            legal = engine.legal_actions(state)
            if i == 0:
                assert (action == standing) == stand
                legal = tuple(a for a in legal if a != standing)
            if bold[d.seat] is not None and not (i == 0 and stand):
                obs = engine.observe(state, d.seat)
                assert spec.heuristic(obs, legal, random.Random(0), bold[d.seat]) == action
        t = engine.apply(state, action)
        events.extend(t.events)
        state = t.state
        if any(e.kind == "deal_ended" for e in t.events):
            assert i == len(codes) - 1, "a way played on past its deal"
            return spec.deal_reader(rules, players, events)[-1]
    raise AssertionError("a way ended before its deal")


def check_game(rules: Ruleset, players: int, result: Any, row: int, samples: Any,
               ways: tuple[Any, Any], bold: list[float | None], decode: Any) -> int:
    """Replay game *row* and check its samples; how many were checked."""
    ev = evaluator_for(rules)
    standing = stand_action(rules)
    state = engine.new_game(rules, players, dealer=int(result.dealers[row]))
    events = list(getattr(state, "log", ()))
    decisions = 0
    taken = 0
    sampled: set[int] = set()
    for code in result.actions[row, :result.action_counts[row]]:
        action = decode(int(code))
        d = engine.decision(state)
        assert d is not None
        legal = engine.legal_actions(state) if d.seat is not None else ()
        if (d.seat is not None and d.kind is DecisionKind.TURN and d.seat not in sampled
                and standing in legal and len(legal) > 1):
            sampled.add(d.seat)
            assert taken < len(samples), f"game {row}: a sample missing at decision {decisions}"
            x = samples[taken]
            assert x[S_DECISION] == decisions
            hand = tuple(engine.observe(state, d.seat).hand)
            assert x[S_RANK] == (ev.rank_of(hand) if len(hand) == 3 else ev.value(hand).rank)
            deal = one_way(rules, players, state, events,
                           ways[0][taken, :x[S_STOOD]], bold, decode, True)
            step = 1 if rules.direction == "left" else -1
            assert (deal.dealer + step * x[S_PLACE]) % players == d.seat
            assert deal.payoffs[d.seat] == x[S_STAND], f"game {row}: standing pays otherwise"
            assert (d.seat in deal.winners) == bool(x[S_WON])
            other = one_way(rules, players, state, events,
                            ways[1][taken, :x[S_PLAYED]], bold, decode, False)
            assert other.payoffs[d.seat] == x[S_PLAY], f"game {row}: playing on pays otherwise"
            taken += 1
        if d.seat is not None:
            decisions += 1
        t = engine.apply(state, action)
        events.extend(t.events)
        state = t.state
        if any(e.kind == "deal_ended" for e in t.events):
            sampled = set()
    assert taken == len(samples), f"game {row}: the kernel sampled more than the reference"
    return taken


CASES = [("peel", 4, 30), ("peel", 3, 10), ("hoyle", 4, 30), ("trade-and-barter", 4, 30),
         ("peel-old", 4, 12), ("widow", 4, 3), ("pounce", 3, 3)]


@pytest.mark.parametrize(("rid", "players", "games"), CASES,
                         ids=[f"{r}-{p}" for r, p, _ in CASES])
@pytest.mark.parametrize("lineup", [["heuristic"], ["random"],
                                    ["random", "heuristic:boldness=0.8"]],
                         ids=["heuristic", "random", "mixed"])
def test_each_sample_is_the_reference_played_both_ways(rid: str, players: int, games: int,
                                                       lineup: list[str]) -> None:
    rules = find_ruleset(rid)
    kern = build_kernel(rules, players)
    decode = getattr(kern, "decode_action", decode_trading)
    codes, boldness = policy_arrays(lineup, players)
    samples, counts, payoffs, ways = kern.stand_run(11, 0, games, codes, boldness, record=True)
    result = run_batch(rules, players=players, games=games, seed=11, bots=lineup, record=True,
                       kernel=kern, deal_room=None)
    assert (payoffs == result.payoffs).all(), "the sampled games are not the kernel's own"
    bold = [None if codes[0, s] == RANDOM else float(boldness[0, s]) for s in range(players)]
    checked = 0
    for row in range(games):
        assert result.action_counts[row] > 0, "the recorded game overflowed its row"
        checked += check_game(rules, players, result, row, samples[row, :counts[row]],
                              (ways[0][row], ways[1][row]), bold, decode)
    assert checked == counts.sum() > games


def test_the_samples_of_a_run_do_not_depend_on_its_pieces() -> None:
    for rid, room in (("peel", None), ("pounce", 8)):
        kern = build_kernel(find_ruleset(rid), 4)
        codes, boldness = policy_arrays(["heuristic"], 4)
        whole = kern.stand_run(3, 0, 12, codes, boldness, **({"room": room} if room else {}))
        parts = [kern.stand_run(3, a, 4, codes, boldness) for a in (0, 4, 8)]
        assert whole[3] is None
        assert np.array_equal(whole[1], np.concatenate([p[1] for p in parts]))
        assert np.array_equal(whole[2], np.concatenate([p[2] for p in parts]))
        for g in range(12):  # a session longer than the room was played again alone, whole
            part = parts[g // 4][0][g % 4]
            assert np.array_equal(whole[0][g, :whole[1][g]], part[:whole[1][g]])


def test_the_analysis_runs_on_the_kernel_and_says_so() -> None:
    rules = find_ruleset("peel")
    fast = stand_threshold(rules, players=4, games=400, seed=2, engine="auto")
    assert fast["engine"] == "compiled"
    samples = sum(c["samples"] for p in fast["positions"] for c in p["classes"])
    assert samples > 400 * 4
    again = stand_threshold(rules, players=4, games=400, seed=2, engine="compiled")
    assert again["positions"] == fast["positions"]
    ref = stand_threshold(rules, players=4, games=4, seed=2, engine="auto",
                          bots=["search:iterations=4"])
    assert ref["engine"] == "reference" and "search" in ref["engine_reason"]
    assert fast["first_call_s"] >= 0 and ref["first_call_s"] is None
    widow = stand_threshold(find_ruleset("widow"), players=4, games=40, seed=2)
    assert widow["engine"] == "reference"  # the default of the function: the driver
    assert stand_threshold(find_ruleset("widow"), players=4, games=40, seed=2,
                           engine="auto")["engine"] == "compiled"
    with pytest.raises(CommerceError, match="no meaning"):
        stand_threshold(find_ruleset("cox"), players=4, games=4, seed=2, engine="compiled")


def _mean_gain(result: dict[str, Any]) -> tuple[float, float]:
    """The mean gain of standing over every sample, and its standard error (from each
    class's mean and 95% interval)."""
    total = n = 0.0
    var = 0.0
    for p in result["positions"]:
        for c in p["classes"]:
            total += c["gain"] * c["samples"]
            n += c["samples"]
            lo, hi = c["gain_ci95"]
            if lo is not None:
                var += (c["samples"] * (hi - lo) / 3.92) ** 2
    return total / n, var ** 0.5 / n


@pytest.mark.parametrize(("rid", "games"), [("peel", 300), ("trade-and-barter", 300),
                                            ("peel-old", 100), ("pounce", 20)])
def test_the_engines_agree_on_the_worth_of_standing(rid: str, games: int) -> None:
    """The two engines draw differently, so they agree statistically: the mean gain of
    standing over all samples, within four standard errors."""
    rules = find_ruleset(rid)
    ref = _mean_gain(stand_threshold(rules, players=4, games=games, seed=5,
                                     engine="reference"))
    fast = _mean_gain(stand_threshold(rules, players=4, games=100 * games, seed=5,
                                      engine="compiled"))
    assert abs(ref[0] - fast[0]) < 4 * (ref[1] ** 2 + fast[1] ** 2) ** 0.5, (ref, fast)


def test_a_seat_that_may_only_stand_is_not_sampled() -> None:
    """Where the dealer may neither trade nor barter and may stand at any time, standing is
    all he can do: there is no other way to compare, and neither engine samples him."""
    rules = find_ruleset("peel").with_options(dealer_may_trade=False, may_barter=False,
                                              stand_allowed="any_time")
    for engine_name, games in (("reference", 6), ("compiled", 200)):
        r = stand_threshold(rules, players=3, games=games, seed=1, engine=engine_name)
        assert r["engine"] == engine_name
        places = {p["position"]: sum(c["samples"] for c in p["classes"])
                  for p in r["positions"]}
        assert places[0] == 0 and places[1] > 0 and places[2] > 0
