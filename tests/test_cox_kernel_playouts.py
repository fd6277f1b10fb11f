"""The search bot's compiled playouts in Cox's game (the kernel's ``playouts``, through
``SearchHooks.batch``) against the rules.

From decisions met in seeded games, and from states drawn from those seats' observations as
the search draws them, every legal action is played out by the kernel with its actions
recorded; each playout is replayed through ``commerce.engine.apply`` (asking only the seats
that may buy a discard, as the Python playouts do): every action must be legal where the
kernel played it, every choice of a seat the Python heuristic's from that seat's own
observation (a seat played at random: any legal one), the playout must stop where the hand
is counted, and the hand's scores must be the kernel's.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from commerce import engine
from commerce.bots import make_bot
from commerce.bots.search import default_iterations
from commerce.compiled import build_kernel
from commerce.core import Action, ActionKind, Seat
from commerce.errors import RulesetError
from commerce.families.cox.compiled_playouts import state_array
from commerce.families.cox.heuristic import cox_heuristic
from commerce.families.cox.kernel import decode_action
from commerce.families.cox.sample import prepare
from commerce.families.cox.search import (
    DEFAULT_ITERATIONS,
    PYTHON_ITERATIONS,
    SEARCH,
    kernel_playouts,
)
from commerce.rules import Ruleset, find_ruleset
from tests.harness.cox import rigged_for

COX = find_ruleset("cox")


def _decisions(rules: Ruleset, players: int, seed: int, count: int) -> list[Any]:
    """Reference states at seat decisions with more than one legal action, from games of
    heuristic and random bots."""
    rng = random.Random(seed)
    bots = [make_bot("heuristic"), make_bot("random")] * players
    out: list[Any] = []
    for _ in range(20):
        state: Any = engine.new_game(rules, players, dealer=rng.randrange(players))
        while (d := engine.decision(state)) is not None and len(out) < count:
            if d.seat is None:
                action = engine.sample_chance(state, rng)
            else:
                legal = engine.legal_actions(state)
                if len(legal) > 1 and rng.random() < 0.2:
                    out.append(state)
                action = bots[d.seat].act(engine.observe(state, d.seat), legal, rng)
            state = engine.apply(state, action).state
        if len(out) >= count:
            break
    return out


def _seat(state: Any) -> Seat:
    d = engine.decision(state)
    assert d is not None and d.seat is not None
    return d.seat


def _replay(state: Any, codes: list[int], erratic: frozenset[Seat] = frozenset()) -> Any:
    """Replay a recorded playout through the reference engine (only the seats that may buy
    asked), checking each step; the hand's scores."""
    s = dataclasses.replace(state, ruleset=state.ruleset.with_options(
        buy_offers="eligible_only"))
    for i, code in enumerate(codes):
        action = decode_action(code)
        d = engine.decision(s)
        assert d is not None and d.seat is not None, f"step {i}: not a seat's decision"
        legal = engine.legal_actions(s)
        assert action in legal, f"step {i}: {action} is not legal"
        if i and d.seat not in erratic:
            expected = cox_heuristic(engine.observe(s, d.seat), legal, rigged_for(legal, action),
                                     0.5)
            assert action == expected, (
                f"step {i}: the compiled heuristic played {action} where the Python "
                f"heuristic plays {expected} ({d.kind.value})")
        t = engine.apply(s, action)  # raises IllegalActionError where illegal
        s = t.state
        scored = [e for e in t.events if e.kind == "hand_scored"]
        if scored:
            assert i == len(codes) - 1, "the kernel played on after the hand was counted"
            return scored[0].get("scores")
    raise AssertionError("the recorded playout stops before the hand is counted")


VARIANTS: list[tuple[dict[str, Any], int]] = [
    ({}, 4),
    ({}, 3),
    ({"captain_can_be_fourth": True, "last_discard_buyable": "yes", "direction": "left"}, 2),
    ({"buy_offers": "eligible_only", "bank_double_order": "before_penalty",
      "replacement_fallback": "skip", "hands_per_game": 2}, 4),
]


@pytest.mark.parametrize("options,players", VARIANTS,
                         ids=[f"{p}-" + "-".join(o) for o, p in VARIANTS])
def test_every_compiled_playout_replays_through_the_rules(options: dict[str, Any],
                                                          players: int) -> None:
    rules = COX.with_options(**options)
    kern = build_kernel(rules, players)
    rng = random.Random(7)
    states = _decisions(rules, players, seed=players, count=12)
    assert len(states) == 12
    for state in states:
        seat = _seat(state)
        obs: Any = engine.observe(state, seat)
        draw = prepare(obs)
        for drawn in (state, draw(rng), draw(rng)):
            legal = list(engine.legal_actions(drawn))
            ends = kern.playouts(drawn, legal, seat, rng.getrandbits(64), record=True)
            assert ends.actions is not None
            for i, codes in enumerate(ends.actions):
                assert decode_action(codes[0]) == legal[i]
                scores = _replay(drawn, codes)
                assert tuple(scores) == tuple(int(x) for x in ends.scores[i])


def test_seats_played_at_random_play_legal_actions() -> None:
    kern = build_kernel(COX, 4)
    rng = random.Random(3)
    for state in _decisions(COX, 4, seed=9, count=6):
        seat = _seat(state)
        erratic = frozenset(q for q in range(4) if q != seat)
        legal = list(engine.legal_actions(state))
        ends = kern.playouts(state, legal, seat, rng.getrandbits(64), erratic, record=True)
        assert ends.actions is not None
        for i, codes in enumerate(ends.actions):
            assert tuple(_replay(state, codes, erratic)) == tuple(
                int(x) for x in ends.scores[i])


def test_the_hook_scores_the_lead_in_the_hand() -> None:
    state = _decisions(COX, 4, seed=1, count=1)[0]
    seat = _seat(state)
    obs = engine.observe(state, seat)
    batch = kernel_playouts(obs)
    assert batch is not None
    legal = list(engine.legal_actions(state))
    got = batch(state, legal, seat, 99)
    scores = build_kernel(COX, 4).playouts(state, legal, seat, 99).scores.tolist()
    assert len(got) == len(legal)
    for (lead, won), row in zip(got, scores, strict=True):
        others = [p for q, p in enumerate(row) if q != seat]
        assert lead == row[seat] - sum(others) / 3
        assert won == float(row[seat] >= max(others))
    # the same key, the same playouts; the search's budget is the compiled one
    assert batch(state, legal, seat, 99) == got
    assert SEARCH.batch is kernel_playouts
    assert default_iterations("cox", COX) == DEFAULT_ITERATIONS > PYTHON_ITERATIONS


def test_a_playout_starts_at_a_decision() -> None:
    state: Any = engine.new_game(COX, 4, dealer=0)
    with pytest.raises(RulesetError, match="starts at a decision"):
        state_array(state)
    with pytest.raises(RulesetError, match="starts at a decision"):
        build_kernel(COX, 4).playouts(state, [Action(ActionKind.DRAW)], 0, 1)
