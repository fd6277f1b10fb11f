"""The search bot's belief in Trade and Barter: states drawn by replaying the deal."""

from __future__ import annotations

import random

import pytest

from commerce import engine
from commerce.bots import make_bot
from commerce.cards import pack
from commerce.core import Action, ActionKind
from commerce.determinize import state_sampler
from commerce.driver import Driver, play_game
from commerce.families.trading import rules, search
from commerce.families.trading.search import candidates, replayed_states
from commerce.hands import Category, evaluator_for
from commerce.rules import find_ruleset
from tests.invariants import random_game

TB = find_ruleset("trade-and-barter")
PEEL = find_ruleset("peel")


def _check_replayed(state, rng: random.Random) -> int:
    """Draw replayed states for the seat to act; check each fits its view. How many drawn."""
    d = engine.decision(state)
    if d is None or d.seat is None:
        return 0
    obs = engine.observe(state, d.seat)
    draw = replayed_states(obs)
    assert draw is not None
    for _ in range(3):
        sampled = draw(rng)
        assert engine.observe(sampled, d.seat) == obs
        cards = [c for h in sampled.hands for c in h] + [*sampled.unseen, *sampled.bottom]
        assert sorted(cards) == list(pack(52))
        assert (len(sampled.unseen), len(sampled.bottom)) == (len(state.unseen),
                                                               len(state.bottom))
        assert engine.legal_actions(sampled) == engine.legal_actions(state)
    return 3


ONE_ACTION = [
    TB,
    # a partner may hand the offered card straight back; play goes to the right
    PEEL.with_options(stand_after_trade=False, barter_return_from_original_hand=False,
                      direction="right", barter_direction="right"),
]


@pytest.mark.parametrize("rules", ONE_ACTION, ids=["trade-and-barter", "peel-variant"])
def test_replayed_states_fit_the_view_in_games_with_barters(rules):
    rng = random.Random(4)
    drawn = 0
    for seed in range(6):
        bots = [make_bot("heuristic"), make_bot("random"), make_bot("random"),
                make_bot("search:iterations=20")]
        driver = Driver(rules, bots, seed=seed)
        while driver.step():
            drawn += _check_replayed(driver.state, rng)
    assert drawn > 100


def test_replay_only_where_a_turn_is_one_action():
    state = engine.new_game(PEEL, 4)
    state = engine.apply(state, engine.sample_chance(state, random.Random(1))).state
    assert replayed_states(engine.observe(state, engine.decision(state).seat)) is None
    state = engine.new_game(TB, 4)
    state = engine.apply(state, engine.sample_chance(state, random.Random(1))).state
    assert replayed_states(engine.observe(state, engine.decision(state).seat)) is not None


def _after_one_trade() -> tuple[object, int, int]:
    """A T&B deal in which the eldest, holding three odd cards, traded once; (obs of the
    next seat, that seat, the eldest)."""
    state = engine.new_game(TB, 4, dealer=3)
    state = engine.apply(state, engine.sample_chance(state, random.Random(7))).state
    eldest = engine.decision(state).seat
    card = state.hands[eldest][0]
    state = engine.apply(state, Action(ActionKind.TRADE, (card,))).state
    state = engine.apply(state, engine.sample_chance(state, random.Random(8))).state
    seat = engine.decision(state).seat
    return engine.observe(state, seat), seat, eldest


def test_a_trader_keeps_his_best_cards_in_the_replay():
    # The heuristic trades its worst card, so after one trade the trader holds a point
    # three times in four (two cards of a suit kept, or a fresh card of a kept suit); a
    # uniform draw of his hand holds a combination about three times in five.
    obs, _, eldest = _after_one_trade()
    ev = evaluator_for(TB)

    def share_with_combination(draw) -> float:
        rng = random.Random(3)
        hands = [draw(rng).hands[eldest] for _ in range(1000)]
        return sum(ev.categories[ev.rank_of(h)] is not Category.NONE for h in hands) / 1000

    assert share_with_combination(replayed_states(obs)) > 0.7
    assert share_with_combination(state_sampler(obs)) < 0.65


def test_a_trader_did_not_pass_up_a_standing_hand_in_the_replay():
    # The eldest traded on his first turn: in every replay his dealt hand was one the
    # heuristic does not stand on, so replays are refused and drawn again, never all
    # accepted at the first try.
    from commerce.families.trading import search as search_trading

    obs, _, _ = _after_one_trade()
    refused = 0
    original = search_trading.win_chance

    def counting(rules, hand, opponents):
        nonlocal refused
        p = original(rules, hand, opponents)
        refused += p >= 0.5
        return p

    search_trading.win_chance = counting
    try:
        draw = replayed_states(obs)
        for i in range(200):
            draw(random.Random(i))
    finally:
        search_trading.win_chance = original
    assert refused > 5


def test_no_barters_searched_in_trade_and_barter():
    state = engine.new_game(TB, 4, dealer=3)
    state = engine.apply(state, engine.sample_chance(state, random.Random(2))).state
    obs = engine.observe(state, engine.decision(state).seat)
    legal = engine.legal_actions(state)
    kinds = {legal[i].kind for i in candidates(obs, legal)}
    assert ActionKind.BARTER in {a.kind for a in legal}
    assert ActionKind.BARTER not in kinds and ActionKind.TRADE in kinds
    peel = engine.new_game(PEEL, 4, dealer=3)
    peel = engine.apply(peel, engine.sample_chance(peel, random.Random(2))).state
    peel_legal = engine.legal_actions(peel)
    assert candidates(engine.observe(peel, engine.decision(peel).seat), peel_legal) == list(
        range(len(peel_legal)))


def test_search_bot_never_barters_in_trade_and_barter():
    record = play_game(TB, [make_bot("search:iterations=40"), make_bot("heuristic")] * 2,
                       seed=5)
    assert record.complete and sum(record.payoffs) == 0
    assert not any(a.startswith("barter") for a in record.actions)

def _trading_states(ruleset, players: int, seeds: range) -> list:
    out: list = []
    for seed in seeds:
        random_game(ruleset, players, seed, each=out.append)
    return out


def test_playouts_decide_from_the_seats_observation(monkeypatch):
    seen: list = []
    decide = search.trading_action

    def spy(obs, legal, rng, boldness):
        seen.append(obs)
        return decide(obs, legal, rng, boldness)

    real: list = []
    apply = rules.apply_unchecked

    def spy_apply(s, action):
        if s.phase in (rules.Phase.TURN, rules.Phase.AFTER_TRADE, rules.Phase.BARTER_REPLY):
            real.append(rules.observe(s, s.actor))
        return apply(s, action)

    monkeypatch.setattr(search, "trading_action", spy)
    monkeypatch.setattr(rules, "apply_unchecked", spy_apply)
    rng = random.Random(3)
    turns = [s for s in _trading_states(PEEL, 4, range(3)) if s.phase is rules.Phase.TURN]
    for state in turns[:20]:
        search.playout(state, rules.legal_actions(state)[-1], state.actor, rng)
    assert len(seen) > 10
    # every heuristic decision saw exactly the observation the reference gives that seat
    assert all(obs in real for obs in seen)


def test_trade_and_barter_weighs_the_knock_and_the_heuristics_trade_only():
    from commerce.families.trading.heuristic import trading_action
    from commerce.strength import card_to_replace

    turns = 0
    for state in _trading_states(TB, 4, range(6)):
        d = engine.decision(state)
        if d is None or d.seat is None:
            continue
        obs = engine.observe(state, d.seat)
        legal = engine.legal_actions(state)
        picked = [legal[i] for i in candidates(obs, legal)]
        favourite = trading_action(obs, legal, random.Random(0), 0.5)
        assert favourite in picked
        if ActionKind.TRADE not in {a.kind for a in legal}:
            continue
        turns += 1
        give = card_to_replace(TB, tuple(obs.hand))
        assert {a.kind for a in picked} <= {ActionKind.STAND, ActionKind.TRADE}
        assert [a.cards for a in picked if a.kind is ActionKind.TRADE] == [(give,)]
        stands = [a for a in legal if a.kind is ActionKind.STAND]
        assert set(stands) <= set(picked)
    assert turns > 20


def _views_of_seat_0(ruleset, lineup: list[str], seeds: range) -> list:
    seen: list = []

    class Watcher:
        name = spec = "watcher"

        def __init__(self) -> None:
            self.bot = make_bot(lineup[0])

        def act(self, obs, legal, rng):
            seen.append(obs)
            return self.bot.act(obs, legal, rng)

    for seed in seeds:
        Driver(ruleset, [Watcher(), *(make_bot(b) for b in lineup[1:])], seed=seed).run()
    return seen


@pytest.mark.parametrize("ruleset", [PEEL, TB], ids=["peel", "trade-and-barter"])
def test_seats_that_play_unlike_the_heuristic_are_told_from_the_view(ruleset):
    views = _views_of_seat_0(ruleset, ["heuristic", "random", "heuristic", "random"], range(8))
    flagged = [search.erratic_seats(obs) for obs in views]
    assert all(f <= {1, 3} for f in flagged)
    assert sum(bool(f) for f in flagged) > len(views) // 10
    calm = _views_of_seat_0(ruleset, ["heuristic"] * 4, range(4))
    assert not any(search.erratic_seats(obs) for obs in calm)


def test_the_fitted_playout_lets_erratic_seats_choose_at_random(monkeypatch):
    views = _views_of_seat_0(PEEL, ["heuristic", "random", "heuristic", "random"], range(8))
    obs = next(o for o in views if search.erratic_seats(o))
    erratic = search.erratic_seats(obs)
    asked: list = []
    decide = search.trading_action

    def spy(view, legal, rng, boldness):
        asked.append(view.seat)
        return decide(view, legal, rng, boldness)

    monkeypatch.setattr(search, "trading_action", spy)
    play = search.fitted_playout(obs)
    assert play is not None
    draw = state_sampler(obs)
    rng = random.Random(3)
    def trade(state):
        legal = engine.legal_actions(state)
        return next((a for a in legal if a.kind is ActionKind.TRADE), legal[-1])

    for _ in range(20):
        state = draw(rng)
        play(state, trade(state), obs.seat, rng)
    assert asked and not erratic & set(asked)
    asked.clear()
    for _ in range(20):
        state = draw(rng)
        search.playout(state, trade(state), obs.seat, rng)
    assert erratic & set(asked)
