"""Seeded invariant simulations over the trading family with varied options: conservation,
legality, determinism, replay and no-leak."""

from __future__ import annotations

import random

import pytest

from commerce import engine
from commerce.bots import make_bot
from commerce.cards import pack
from commerce.core import Action, ActionKind
from commerce.driver import Driver, play_game
from commerce.families.trading import FAMILY
from commerce.families.trading.rules import Phase, TradingState
from commerce.record import GameRecord, replay
from commerce.rules import find_ruleset, rulesets
from tests.invariants import check_outside_legal_rejected, garbage_actions, random_game

PEEL = find_ruleset("peel")
VARIANTS = [
    ("peel", PEEL, 4),
    ("peel-32", PEEL.with_options(pack=32), 7),
    ("peel-3", PEEL, 3),
    ("peel-12", PEEL, 12),
    ("peel-options", PEEL.with_options(flush_compare="high_card", stander_penalty="best_hand_only",
                                       best_tie_rule="split_pool", barter_direction="right",
                                       direction="right", max_rounds_per_deal=2), 5),
    ("peel-no-stand-after", PEEL.with_options(stand_after_trade=False,
                                              barter_return_from_original_hand=False), 4),
]
TRADING = [r for r in rulesets() if r.family == "trading"]


def _conserved(state: TradingState) -> None:
    cards = [c for h in state.hands for c in h] + list(state.unseen) + list(state.bottom)
    if state.phase is Phase.BARTER_REPLY:
        assert state.offered in state.hands[state.turn]
    assert len(cards) == len(set(cards))
    if state.phase is not Phase.DEAL:
        assert sorted(cards) == list(pack(state.ruleset.pack))
    assert sum(state.balances) + state.pool == 0
    d = engine.decision(state)
    assert (d is None) == (engine.legal_actions(state) == ())


@pytest.mark.parametrize("name,rules,players", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_random_games_conserve_cards_and_stakes(name, rules, players):
    for seed in range(40):
        state, _ = random_game(rules, players, seed, each=_conserved)
        result = engine.outcome(state)
        assert result is not None and sum(result.payoffs) == 0


@pytest.mark.parametrize("name,rules,players", VARIANTS[:3], ids=[v[0] for v in VARIANTS[:3]])
def test_everything_outside_legal_actions_is_rejected(name, rules, players):
    cards = range(52)
    garbage = garbage_actions(cards)
    rng = random.Random(7)

    def each(state):
        if rng.random() < 0.3:
            extra = [Action(k, (rng.randrange(52),)) for k in ActionKind]
            extra.append(Action(ActionKind.DEAL, tuple(rng.sample(range(52), 3))))
            check_outside_legal_rejected(state, garbage + extra)

    for seed in range(6):
        random_game(rules, players, seed, each=each)


def test_same_seed_same_game_and_records_replay():
    bots = [make_bot("heuristic"), make_bot("random"), make_bot("heuristic"), make_bot("random")]
    a = play_game(PEEL, bots, seed=11)
    b = play_game(PEEL, bots, seed=11)
    assert a.to_json() == b.to_json()
    assert play_game(PEEL, bots, seed=12).actions != a.actions
    again = GameRecord.from_json(a.to_json())
    final = replay(again)
    assert engine.outcome(final).payoffs == a.payoffs


def test_resume_continues_exactly_where_the_game_stopped():
    bots = [make_bot("heuristic"), make_bot("random"), make_bot("heuristic")]
    whole = Driver(PEEL, bots, seed=5)
    whole.run()
    for cut in (1, 7, len(whole.actions) // 2):
        partial = GameRecord.from_dict({**whole.record().to_dict(),
                                        "actions": whole.actions[:cut], "complete": False,
                                        "payoffs": None})
        resumed = Driver.resume(partial, bots)
        resumed.run()
        assert resumed.actions == whole.actions


@pytest.mark.parametrize("players", [3, 4, 6])
def test_observation_does_not_depend_on_hidden_cards(players):
    rng = random.Random(players)
    checked = 0

    def each(state):
        nonlocal checked
        for seat in range(players):
            other = FAMILY.permute_hidden(state, seat, rng)
            assert engine.observe(other, seat) == engine.observe(state, seat)
            checked += 1

    for seed in range(10):
        random_game(PEEL, players, seed, each=each)
    assert checked > 100


def test_observation_hides_other_hands_and_the_stock():
    state, _ = random_game(PEEL, 4, 3)
    s = engine.new_game(PEEL, 4)
    s = engine.apply(s, engine.sample_chance(s, random.Random(1))).state
    obs = engine.observe(s, 2)
    assert obs.hand == s.hands[2]
    assert [h is None for h in obs.hands] == [True, True, False, True]
    text = repr(obs.to_dict())
    assert "unseen" not in text
    assert all(e.visible(2) for e in obs.events)
    spectator = engine.observe(s, None)
    assert spectator.hand == () and all(h is None for h in spectator.hands)


@pytest.mark.parametrize("rules", TRADING, ids=[r.id for r in TRADING])
def test_registered_trading_presets_play_to_the_end(rules):
    players = max(rules.min_players, min(4, rules.max_players))
    for seed in range(10):
        state, _ = random_game(rules, players, seed, each=_conserved)
        assert engine.outcome(state) is not None
