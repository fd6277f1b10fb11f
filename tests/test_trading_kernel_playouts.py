"""The search bot's compiled playouts (the trading kernel's ``playouts``) against the rules.

From decisions met in seeded games, every legal action is played out by the kernel with its
actions recorded; each playout is replayed through the family's reference rules: every action
must be legal where the kernel played it, every seat's choice the Python heuristic's from that
seat's own observation (a random seat's any legal one), and the seat's change in stakes and
whether it won the deal the kernel's.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from commerce import engine
from commerce.bots import make_bot
from commerce.compiled import build_kernel
from commerce.core import ActionKind
from commerce.families.trading import rules as ref
from commerce.families.trading.heuristic import trading_action
from commerce.families.trading.search import kernel_playouts
from commerce.families.trading.state import Phase
from commerce.kernelkit import decode_action
from commerce.rules import find_ruleset

DECISIONS = (Phase.TURN, Phase.AFTER_TRADE, Phase.BARTER_REPLY)


def _decisions(rules_id: str, players: int, seed: int, count: int) -> list[Any]:
    """Reference states at seat decisions, from games of heuristic and random bots."""
    rules = find_ruleset(rules_id)
    rng = random.Random(seed)
    bots = [make_bot("heuristic"), make_bot("random")] * players
    out: list[Any] = []
    while len(out) < count:
        state = engine.new_game(rules, players, dealer=rng.randrange(players))
        while engine.decision(state) is not None and len(out) < count:
            d = engine.decision(state)
            assert d is not None
            if d.seat is None:
                action = engine.sample_chance(state, rng)
            else:
                legal = engine.legal_actions(state)
                if state.phase in DECISIONS and len(legal) > 1 and rng.random() < 0.4:
                    out.append(state)
                action = bots[d.seat].act(engine.observe(state, d.seat), legal, rng)
            state = engine.apply(state, action).state
    return out


def _replay(state: Any, codes: list[int], seat: int, erratic: frozenset[int],
            ) -> tuple[float, float]:
    """Replay a recorded playout on the reference rules, checking each step; (gain, won)."""
    start = state.balances[seat]
    s = state
    for i, code in enumerate(codes):
        action = decode_action(code)
        if i and action.kind is ActionKind.DEAL:
            assert s.phase is Phase.DRAW
            assert action.cards[0] in s.unseen
        else:
            legal = ref.legal_actions(s)
            assert action in legal, f"{action} is not legal at step {i}"
            if i and s.actor not in erratic:
                expected = (legal[0] if len(legal) == 1 else
                            trading_action(ref.observe(s, s.actor), legal, random.Random(0),
                                           0.5))
                assert action == expected, f"step {i}: the heuristic plays {expected}"
        t = ref.apply(s, action)
        s = t.state
        ended = [e for e in t.events if e.kind == "deal_ended"]
        if ended:
            assert i == len(codes) - 1, "the kernel played on after the deal ended"
            balance = s.balances[seat]
            if s.phase is not Phase.OVER:  # the next deal's ante is already taken
                rules = s.ruleset
                balance += rules.dealer_ante if seat == s.dealer else rules.ante
            won = 0.0
            for e in t.events:  # as the Python playout reads it
                if e.kind == "showdown":
                    won = float(seat in e.get("winners"))
            return float(balance - start), won
    raise AssertionError("the recorded playout stops before the deal's end")


@pytest.mark.parametrize("rules_id,players", [("peel", 4), ("hoyle", 5),
                                              ("trade-and-barter", 4),
                                              ("trade-and-barter-mini", 2)])
def test_every_compiled_playout_replays_through_the_rules(rules_id: str, players: int) -> None:
    rules = find_ruleset(rules_id)
    kernel = build_kernel(rules, players)
    rng = random.Random(7)
    checked = 0
    for state in _decisions(rules_id, players, seed=3, count=25):
        seat = state.actor
        legal = engine.legal_actions(state)
        erratic = frozenset({(seat + 1) % players}) if rng.random() < 0.3 else frozenset()
        gains, wins, moves = kernel.playouts(state, legal, seat, rng.getrandbits(64),
                                             erratic=erratic, record=True)
        for k in range(len(legal)):
            gain, won = _replay(state, moves[k], seat, erratic)
            assert gains[k] == gain and wins[k] == won
            checked += 1
    assert checked >= 50


def test_every_action_of_one_state_meets_the_same_cards() -> None:
    """Common random numbers: two actions that leave the same state play the same deal."""
    rules = find_ruleset("peel")
    state = _decisions("peel", 4, seed=5, count=1)[0]
    legal = engine.legal_actions(state)
    kernel = build_kernel(rules, 4)
    twice = list(legal) + list(legal)
    gains, wins, _ = kernel.playouts(state, twice, state.actor, 12345)
    assert list(gains[:len(legal)]) == list(gains[len(legal):])
    again, _, _ = kernel.playouts(state, legal, state.actor, 12345)
    assert list(again) == list(gains[:len(legal)])


def test_the_search_hook_plays_on_the_kernel() -> None:
    state = _decisions("trade-and-barter", 4, seed=9, count=1)[0]
    batch = kernel_playouts(engine.observe(state, state.actor))
    assert batch is not None
    legal = engine.legal_actions(state)
    played = batch(state, legal, state.actor, 99)
    assert len(played) == len(legal)
    assert all(won in (0.0, 1.0) for _, won in played)
