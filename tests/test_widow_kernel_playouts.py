"""The search bot's compiled playouts in the widow family (the kernel's ``playouts``, through
``SearchHooks.batch``) against the rules.

From decisions met in seeded games (and from states drawn from those seats' observations, as
the search draws them), every action searched is played out by the kernel with its actions
recorded; each playout is replayed through ``commerce.engine.apply``: every action must be
legal where the kernel played it (chance's cards included), every choice of a seat the Python
heuristic's from that seat's own observation (a seat played at random: any legal one), the
playout must stop where the deal ends, and the gain (scored as the Python playout scores it)
and the win must be the kernel's.
"""

from __future__ import annotations

import random
from typing import Any, cast

import numpy as np
import pytest

from commerce import engine
from commerce.bots import make_bot
from commerce.bots import search as search_bot
from commerce.bots.search import default_iterations
from commerce.cards import pack
from commerce.compiled import build_kernel
from commerce.core import Action, ActionKind, Seat
from commerce.errors import RulesetError
from commerce.families.widow.compiled_playouts import arrays, improvable
from commerce.families.widow.heuristic import best_target, hand_strength, widow_action
from commerce.families.widow.kernel import decode_action
from commerce.families.widow.observe import WidowObservation
from commerce.families.widow.sample import prepare
from commerce.families.widow.search import (
    BELIEF_TRIES,
    PYTHON_ITERATIONS,
    believed_states,
    kernel_playouts,
    plausible,
    pool_model,
    pool_value,
)
from commerce.families.widow.state import Phase, WidowState
from commerce.rules import Ruleset, find_ruleset

PRESETS = ("peel-old", "pool", "widow", "pounce", "no-pair-or-point")


def _decisions(rules: Ruleset, players: int, seed: int, count: int,
               only: frozenset[Phase] | None = None) -> list[Any]:
    """Reference states at seat decisions with more than one legal action, from games of
    heuristic and random bots: every pounce and horse offer and some of the other decisions
    (with *only*, every decision in those phases alone)."""
    rng = random.Random(seed)
    bots = [make_bot("heuristic"), make_bot("random")] * players
    out: list[Any] = []
    for _ in range(60):
        state: Any = engine.new_game(rules, players, dealer=rng.randrange(players))
        while (d := engine.decision(state)) is not None and len(out) < count:
            if d.seat is None:
                action = engine.sample_chance(state, rng)
            else:
                legal = engine.legal_actions(state)
                phase = state.turn.phase
                if only is not None:
                    wanted = phase in only
                else:
                    wanted = phase in RARE or rng.random() < 0.25
                if len(legal) > 1 and wanted:
                    out.append(state)
                action = bots[d.seat].act(engine.observe(state, d.seat), legal, rng)
            state = engine.apply(state, action).state
        if len(out) >= count:
            break
    return out


def _seat(state: Any) -> Seat:
    """The seat to act in *state* (at a seat's decision)."""
    d = engine.decision(state)
    assert d is not None and d.seat is not None
    return d.seat


RARE = frozenset({Phase.POUNCE, Phase.HORSE})
"""The decisions met seldom: a pounce offer, a horse offer."""


def _rare(rules: Ruleset) -> bool:
    """Whether *rules* make pounce or horse offers."""
    return bool(rules.pounce or (rules.token_flow == "lowest_to_pool" and rules.buy_a_horse))


def _score(rules: Ruleset, start: Any, end: Any, seat: Seat) -> float:
    """The seat's gain from *start* to *end* (the next deal begun, or the session over),
    as :func:`commerce.families.widow.search.playout` scores it."""
    if pool_model(rules):
        return pool_value(end, seat) - pool_value(start, seat)
    if rules.token_flow not in ("lowest_to_best", "lowest_to_pool"):
        return float(end.balances[seat] - start.balances[seat])
    gain = float(end.tokens[seat] - start.tokens[seat])
    if end.phase is Phase.OVER and rules.token_flow == "lowest_to_pool":
        gain += float(end.balances[seat] - start.balances[seat])
    return gain


def _replay(state: Any, codes: list[int], seat: Seat,
            erratic: frozenset[Seat] = frozenset()) -> tuple[float, float]:
    """Replay a recorded playout through the reference engine, checking each step;
    (gain, won)."""
    rules = state.ruleset
    s = state
    won = 0.0
    for i, code in enumerate(codes):
        action = decode_action(code)
        d = engine.decision(s)
        assert d is not None, f"step {i}: the kernel played on after the end"
        if d.seat is None:
            assert action.kind is ActionKind.DEAL, f"step {i}: {action} at chance's turn"
        else:
            legal = engine.legal_actions(s)
            assert action in legal, f"step {i}: {action} is not legal"
            if i and d.seat not in erratic:
                expected = widow_action(engine.observe(s, d.seat), legal, random.Random(0),
                                        0.5)
                assert action == expected, (
                    f"step {i}: the compiled heuristic played {action} where the Python "
                    f"heuristic plays {expected} ({d.kind.value})")
        t = engine.apply(s, action)  # raises IllegalActionError where illegal
        s = t.state
        for e in t.events:
            if e.kind == "showdown":
                won = float(seat in e.get("winners"))
        if any(e.kind == "deal_ended" for e in t.events):
            assert i == len(codes) - 1, "the kernel played on after the deal ended"
            return _score(rules, state, s, seat), won
    raise AssertionError("the recorded playout stops before the deal's end")


def _check(kern: Any, state: Any, actions: list[Action], seat: Seat, key: int,
           batch: Any = None, erratic: frozenset[Seat] = frozenset()) -> int:
    """Play *actions* out from *state* on the kernel and replay each; with *batch* (the
    search hook), its gains and wins must be those of the replays."""
    ends = kern.playouts(state, actions, seat, key, erratic=erratic, record=True)
    played = batch(state, actions, seat, key) if batch is not None else None
    for k, action in enumerate(actions):
        assert decode_action(ends.actions[k][0]) == action
        gain, won = _replay(state, ends.actions[k], seat, erratic)
        assert ends.wins[k] == won
        if played is not None:
            assert played[k] == pytest.approx((gain, won), abs=1e-9)
    return len(actions)


CASES: list[tuple[str, dict[str, Any], int]] = [
    *((rid, {}, 4) for rid in PRESETS),
    ("pool", {"starting_tokens": 1, "deal_prize": 2, "horse_price": 3}, 3),
    ("pool", {"starting_tokens": 1}, 5),
    ("widow", {"dealer_blind_exchange": "all_or_nothing", "direction": "right"}, 4),
    ("widow", {"end_condition": "rounds_eq_players", "max_exchange_per_turn": 1,
               "exchange_all_three_locks": False, "widow_size": 5}, 5),
    ("widow", {"worst_tie_rule": "none", "pass_locks_out": False, "deals": 2}, 3),
    ("pounce", {"pounce_on_initial_widow": False, "pounce_after_pass": False, "pack": 32}, 4),
    ("no-pair-or-point", {"no_qualifier_rule": "fallback_full_ranking",
                          "max_rounds_per_deal": 2}, 4),
    ("peel-old", {"best_tie_rule": "eldest", "ranking": "suit_point"}, 3),
]


@pytest.mark.parametrize("rid,options,players", CASES,
                         ids=[f"{r}-{'-'.join(o) or 'preset'}-{n}" for r, o, n in CASES])
def test_every_compiled_playout_replays_through_the_rules(rid: str, options: dict[str, Any],
                                                          players: int) -> None:
    rules = find_ruleset(rid).with_options(**options) if options else find_ruleset(rid)
    kern = build_kernel(rules, players)
    rng = random.Random(7)
    checked = 0
    kinds = set()
    states = _decisions(rules, players, seed=3, count=12)
    if _rare(rules):
        states += _decisions(rules, players, seed=4, count=2, only=RARE)
    for state in states:
        seat = _seat(state)
        kinds.add(state.phase)
        obs = engine.observe(state, seat)
        batch = kernel_playouts(obs)
        assert batch is not None
        legal = list(engine.legal_actions(state))
        checked += _check(kern, state, legal, seat, rng.getrandbits(64), batch)
        # states drawn from the seat's view, as the search plays them, through one batch
        draw = prepare(cast(WidowObservation, obs))
        for _ in range(2):
            drawn = draw(rng)
            some = rng.sample(legal, min(3, len(legal)))
            checked += _check(kern, drawn, some, seat, rng.getrandbits(64), batch)
    assert checked >= 60
    assert Phase.TURN in kinds
    assert not _rare(rules) or kinds & RARE


def test_seats_played_at_random_play_legal_actions() -> None:
    rules = find_ruleset("pounce")
    kern = build_kernel(rules, 4)
    rng = random.Random(11)
    for state in _decisions(rules, 4, seed=5, count=6):
        seat = _seat(state)
        erratic = frozenset(q for q in range(4) if q != seat)
        _check(kern, state, list(engine.legal_actions(state)), seat, rng.getrandbits(64),
               erratic=erratic)


def test_the_rare_decisions_are_met() -> None:
    """The pounce and horse offers and the blind exchange are among the starting points."""
    pounce = _decisions(find_ruleset("pounce"), 4, seed=4, count=2, only=RARE)
    horse = _decisions(find_ruleset("pool").with_options(starting_tokens=1), 5, seed=4,
                       count=2, only=RARE)
    blind = _decisions(find_ruleset("widow"), 4, seed=3, count=12)
    assert {s.phase for s in pounce} == {Phase.POUNCE}
    assert {s.phase for s in horse} == {Phase.HORSE}
    assert Phase.BLIND in {s.phase for s in blind}


def test_every_action_of_one_state_meets_the_same_cards() -> None:
    """Common random numbers: two actions that leave the same state play the same deal."""
    rules = find_ruleset("widow")
    kern = build_kernel(rules, 4)
    state = _decisions(rules, 4, seed=5, count=1)[0]
    seat = _seat(state)
    legal = list(engine.legal_actions(state))
    batch = kernel_playouts(engine.observe(state, seat))
    assert batch is not None
    once = batch(state, legal, seat, 12345)
    assert batch(state, legal + legal, seat, 12345) == once + once
    ends = kern.playouts(state, legal, seat, 12345, record=True)
    again = kern.playouts(state, legal, seat, 12345, record=True)
    assert ends.actions == again.actions


def test_a_ruleset_the_kernel_does_not_play_keeps_the_python_playouts() -> None:
    rules = find_ruleset("widow").with_options(max_rounds_per_deal=0)
    with pytest.raises(RulesetError, match="max_rounds_per_deal=0"):
        build_kernel(rules, 4)
    state = _decisions(rules, 4, seed=2, count=1)[0]
    seat = _seat(state)
    obs = engine.observe(state, seat)
    assert kernel_playouts(obs) is None
    assert default_iterations("widow", rules) == PYTHON_ITERATIONS
    bot = make_bot("search:iterations=12")
    legal = engine.legal_actions(state)
    assert bot.act(obs, legal, random.Random(0)) in legal


def test_a_playout_starts_at_a_decision() -> None:
    rules = find_ruleset("widow")
    kern = build_kernel(rules, 4)
    state = engine.new_game(rules, 4, dealer=0)  # chance deals first
    with pytest.raises(RulesetError, match="starts at a decision"):
        arrays(kern, cast(WidowState, state))


@pytest.mark.parametrize("rid", PRESETS)
def test_the_compiled_judgement_of_a_hand_is_the_heuristics(rid: str) -> None:
    """``improvable`` finds a better hand exactly where ``best_target`` does."""
    rules = find_ruleset(rid)
    kern = build_kernel(rules, 4)
    cards = list(pack(rules.pack))
    rng = random.Random(rid)
    found = 0
    for _ in range(400):
        drawn = rng.sample(cards, 3 + rng.randrange(1, 9))
        hand, widow = tuple(drawn[:3]), sorted(drawn[3:])
        limit = rng.randrange(1, 4)
        better = best_target(rules, hand, hand, widow, limit, True) != hand
        takes = np.array(widow, np.int64)
        a, b, c = hand
        tables = (kern.rank3, kern.strength, kern.vtab)
        assert improvable(a, b, c, takes, len(widow), limit, 2.0, *tables) == better
        found += better
        strong = hand_strength(rules, hand) >= 0.9
        assert improvable(a, b, c, takes, len(widow), limit, 0.9, *tables) == (
            better and not strong)
    assert 0 < found < 400


@pytest.mark.parametrize("rid,options,players", CASES[:5] + CASES[7:8],
                         ids=[f"{r}-{n}" for r, _, n in CASES[:5] + CASES[7:8]])
def test_the_search_draws_the_states_the_belief_filter_draws(rid: str, options: dict[str, Any],
                                                             players: int) -> None:
    """The sampler hook (``believed_states``) keeps the draws ``plausible`` keeps, draw for
    draw, from the same random numbers."""
    rules = find_ruleset(rid).with_options(**options) if options else find_ruleset(rid)
    rejected = 0
    for state in _decisions(rules, players, seed=8, count=12):
        seat = _seat(state)
        obs = engine.observe(state, seat)
        believed = believed_states(obs)
        assert believed is not None
        draw = prepare(cast(WidowObservation, obs))
        for k in range(6):
            rng = random.Random(k)
            expected = draw(rng)
            tries = 1
            while tries < BELIEF_TRIES and not plausible(expected, seat):
                expected = draw(rng)
                tries += 1
                rejected += 1
            got = believed(random.Random(k))
            assert got == expected
    assert rejected > 0
    assert BELIEF_TRIES == search_bot.BELIEF_TRIES
