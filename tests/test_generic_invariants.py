"""Invariants of every registered ruleset, through the public engine API and the family's
test hooks only (so a new family is covered by adding it to the registry).

At every state of seeded random games: every card of the pack lies in exactly one place
(``cards_in_play``); ``legal_actions`` is empty exactly when the game is over (and the outcome
exists exactly then); every listed action is accepted by ``check`` and ``is_legal``; actions
outside the list (every kind, with and without cards, and random garbage) are refused with a
reason and ``check``/``is_legal`` agree; a seat that is not to act is refused with
NOT_YOUR_TURN; every listed action's notation parses back to it. At the end: payoffs sum to
zero where the family's unit is stakes or tokens; and the driver's record replays to the same
outcome.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce import engine
from commerce.bots import make_bot
from commerce.core import Action, ActionKind
from commerce.driver import play_game
from commerce.errors import IllegalActionError, IllegalReason
from commerce.record import GameRecord, replay
from commerce.rules import Ruleset
from tests.harness import all_rulesets, case_id, cases, hook, random_game, spec

CASES = cases()
RULESETS = all_rulesets()
KINDS = list(ActionKind)
TRANSFERS = ("stakes", "tokens")


def _pack(rules: Ruleset, players: int) -> Counter[int]:
    start = engine.new_game(rules, players)
    cards = Counter(hook(rules, "cards_in_play")(start))
    assert sum(cards.values()) == rules.pack and len(cards) == rules.pack
    return cards


def _garbage(rng: random.Random, pack_size: int) -> Action:
    kind = rng.choice(KINDS)
    size = rng.choice((0, 1, 1, 2, 2, 3, 4))
    return Action(kind, tuple(rng.randrange(-2, pack_size + 3) for _ in range(size)))


def _fixed_garbage(pack_size: int) -> list[Action]:
    """Every kind with no card, one card (first, last, outside the pack) and two cards."""
    out = [Action(kind) for kind in KINDS]
    for kind in KINDS:
        out += [Action(kind, (0,)), Action(kind, (pack_size - 1,)), Action(kind, (pack_size,)),
                Action(kind, (pack_size - 1, 0))]
    return out


def _decomposes(state: Any, cards: tuple[int, ...]) -> bool:
    """Whether a several-card deal is a run of legal one-card deals with chance to act."""
    if len(set(cards)) != len(cards):
        return False
    for i, card in enumerate(cards):
        single = Action(ActionKind.DEAL, (card,))
        if single not in engine.legal_actions(state):
            return False
        state = engine.apply(state, single).state
        if i < len(cards) - 1:
            d = engine.decision(state)
            if d is None or d.seat is not None:
                return False
    return True


def _refused(state: Any, action: Action, legal: frozenset[Action]) -> None:
    """*action* (not listed) is refused by check, apply and is_legal alike, with a reason."""
    assert action not in legal
    if action.kind is ActionKind.DEAL and len(action.cards) > 1:
        # A several-card deal is legal exactly when its one-card deals are, in turn.
        assert engine.is_legal(state, action) == _decomposes(state, action.cards)
        return
    with pytest.raises(IllegalActionError) as info:
        engine.check(state, action)
    assert isinstance(info.value.reason, IllegalReason) and str(info.value)
    with pytest.raises(IllegalActionError):
        engine.apply(state, action)
    assert not engine.is_legal(state, action)


def _probe(rules: Ruleset, players: int, seed: int) -> int:
    pack = _pack(rules, players)
    cards_in_play = hook(rules, "cards_in_play")
    fixed = _fixed_garbage(rules.pack)
    rng = random.Random(seed + 77)
    states = 0

    def each(s: Any) -> None:
        nonlocal states
        states += 1
        assert Counter(cards_in_play(s)) == pack, "cards are not conserved"
        d = engine.decision(s)
        legal = engine.legal_actions(s)
        assert (d is None) == (legal == ()) == engine.is_terminal(s)
        assert (engine.outcome(s) is None) == (d is not None)
        if states > 40 and states % 25 and d is not None:
            return  # the full probe on the first states and every 25th after
        listed = frozenset(legal)
        assert len(listed) == len(legal), "an action is listed twice"
        for a in legal[:40]:
            engine.check(s, a)
            assert engine.is_legal(s, a)
            assert engine.parse_action(s, engine.format_action(s, a)) == a
        if d is None:
            for a in fixed[:8]:
                _refused(s, a, listed)
            return
        if d.seat is not None:
            wrong = (d.seat + 1) % players
            with pytest.raises(IllegalActionError) as info:
                engine.check(s, legal[0], seat=wrong)
            assert info.value.reason is IllegalReason.NOT_YOUR_TURN
            engine.check(s, legal[0], seat=d.seat)
        else:
            with pytest.raises(IllegalActionError):
                engine.check(s, legal[0], seat=0)
        candidates = [_garbage(rng, rules.pack) for _ in range(4)]
        if states % 5 == 1:
            candidates += fixed
        for a in candidates:
            if a not in listed:
                _refused(s, a, listed)

    state, _ = random_game(rules, players, seed, each)
    result = engine.outcome(state)
    assert result is not None and len(result.payoffs) == players
    if spec(rules).unit in TRANSFERS:
        assert sum(result.payoffs) == 0, "payoffs must sum to zero"
    return states


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_random_games_keep_the_invariants(case: tuple[Ruleset, int]) -> None:
    rules, players = case
    assert sum(_probe(rules, players, seed) for seed in range(2)) > 20


def _transfers_conserved(rules: Ruleset, players: int, seed: int) -> None:
    """The payoffs sum to zero where they are transfers."""
    state, _ = random_game(rules, players, seed)
    result = engine.outcome(state)
    assert result is not None and len(result.payoffs) == players
    if spec(rules).unit in TRANSFERS:
        assert sum(result.payoffs) == 0


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.id)
def test_many_games_conserve_what_changes_hands(rules: Ruleset) -> None:
    for seed in range(12):
        n = rules.min_players + seed % (min(rules.max_players, 7) - rules.min_players + 1)
        _transfers_conserved(rules, n, 100 + seed)


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.id)
def test_records_replay_to_the_same_outcome(rules: Ruleset) -> None:
    players = min(max(4, rules.min_players), rules.max_players)
    bots = [make_bot("heuristic" if i % 2 else "random") for i in range(players)]
    record = play_game(rules, bots, seed=5)
    again = GameRecord.from_json(record.to_json())
    assert again == record
    final = replay(again)
    result = engine.outcome(final)
    assert result is not None and tuple(result.payoffs) == record.payoffs
    # Replaying the actions by hand reaches the same state.
    state = engine.new_game(rules, players, dealer=record.dealer)
    for text in record.actions:
        state = engine.apply(state, engine.parse_action(state, text)).state
    assert state == final


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(CASES), st.data())
def test_any_choices_conserve_the_cards(case: tuple[Ruleset, int], data: Any) -> None:
    """Hypothesis draws every choice (chance included), so a failure shrinks to a short
    action sequence."""
    rules, players = case
    pack = _pack(rules, players)
    cards_in_play = hook(rules, "cards_in_play")
    s = engine.new_game(rules, players)
    for _ in range(120):
        legal = engine.legal_actions(s)
        if engine.decision(s) is None:
            assert legal == ()
            break
        s = engine.apply(s, data.draw(st.sampled_from(legal))).state
        assert Counter(cards_in_play(s)) == pack
