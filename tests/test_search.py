"""Determinisation (sample_state) and the search bot."""

from __future__ import annotations

import io
import math
import random
import sys

import pytest

from commerce import engine
from commerce.bots import make_bot
from commerce.bots.search import SearchBot, search, search_hint
from commerce.cards import pack
from commerce.cli import main
from commerce.core import ActionKind
from commerce.determinize import sample_state, state_sampler
from commerce.driver import Driver, play_game
from commerce.errors import CommerceError
from commerce.families.trading.rules import TradingState
from commerce.rules import find_ruleset
from tests.invariants import random_game

PEEL = find_ruleset("peel")
VARIANTS = [
    PEEL,
    PEEL.with_options(pack=32),
    PEEL.with_options(barter_return_from_original_hand=False, stand_after_trade=False,
                      direction="right", barter_direction="right"),
]

SEEN_KINDS = ("dealt", "drew", "traded_card", "barter_card", "barter_returned")


def _seen_cards(obs) -> set[int]:
    seen = set(obs.hand)
    for e in obs.events:
        if e.kind in SEEN_KINDS:
            seen.update(e.get("cards") or (e.get("card"),))
    return seen


def _check_sampler(state: TradingState, rng: random.Random) -> None:
    for seat in range(state.players):
        obs = engine.observe(state, seat)
        sampled = sample_state(obs, rng)
        # consistent with what the seat sees
        assert engine.observe(sampled, seat) == obs
        # legal: the pack's cards, each once, in the same places' sizes as the real state
        cards = [c for h in sampled.hands for c in h] + [*sampled.unseen, *sampled.bottom]
        assert sorted(cards) == list(pack(state.ruleset.pack))
        assert [len(h) for h in sampled.hands] == [len(h) for h in state.hands]
        assert (len(sampled.unseen), len(sampled.bottom)) == (len(state.unseen),
                                                               len(state.bottom))
        assert list(sampled.unseen) == sorted(sampled.unseen)
        # a card the seat has seen was dealt or drawn, so it is never in the unseen stock
        assert not _seen_cards(obs) & set(sampled.unseen)
        if state.phase.name != "OVER":
            assert sampled.turns_taken == state.turns_taken
        d = engine.decision(state)
        if d is not None and d.seat == seat:
            assert engine.legal_actions(sampled) == engine.legal_actions(state)


@pytest.mark.parametrize("rules", VARIANTS, ids=["peel", "piquet", "variant"])
@pytest.mark.parametrize("players", [3, 5])
def test_sampled_states_are_legal_and_consistent_random_play(rules, players):
    rng = random.Random(0)
    for seed in range(4):
        random_game(rules, players, seed, lambda s: _check_sampler(s, rng))


def test_sampled_states_are_consistent_in_heuristic_games_with_barters():
    rng = random.Random(1)
    rules = PEEL.with_options(pack=32)  # the stock runs out: traded cards come back up
    for seed in range(3):
        driver = Driver(rules, [make_bot("heuristic"), make_bot("random")] * 3, seed=seed)
        while driver.step():
            _check_sampler(driver.state, rng)


def test_sampler_knows_the_card_it_gave_in_a_barter():
    state = engine.new_game(PEEL, 3, dealer=2)
    hands = pack(52)[:9]
    state = engine.apply(state, engine.Action(ActionKind.DEAL, hands)).state
    seat = engine.decision(state).seat
    partner = (seat + 1) % 3
    mine, theirs = state.hands[seat], state.hands[partner]
    state = engine.apply(state, engine.Action(ActionKind.BARTER, (mine[0],))).state
    state = engine.apply(state, engine.Action(ActionKind.GIVE, (theirs[0],))).state
    obs = engine.observe(state, seat)
    draw = state_sampler(obs)
    for i in range(20):
        sampled = draw(random.Random(i))
        assert mine[0] in sampled.hands[partner]
        assert engine.observe(sampled, seat) == obs


def test_sampler_refuses_a_spectator():
    state = engine.new_game(PEEL, 3)
    with pytest.raises(CommerceError):
        sample_state(engine.observe(state, None), random.Random(0))


def test_search_bot_sees_only_the_observation():
    calls = []
    inner = make_bot("search:iterations=30")

    class Spy:
        name, spec = "spy", "spy"

        def act(self, obs, legal, rng):
            calls.append(obs)
            return inner.act(obs, legal, rng)

    driver = Driver(PEEL, [Spy(), make_bot("heuristic"), make_bot("heuristic")], seed=3)
    while driver.step():
        state = driver.state
        d = engine.decision(state)
        if d is None or d.seat != 0 or len(engine.legal_actions(state)) < 2:
            continue
        # the bot gets a view built from scratch: no field of it is (or holds) a state
        obs = engine.observe(state, 0)
        for value in vars(obs).values() if hasattr(obs, "__dict__") else (
                getattr(obs, f) for f in obs.__dataclass_fields__):
            assert not isinstance(value, TradingState)
        # another state with the same view (other hidden cards) gets the same answer
        twin = sample_state(obs, random.Random(len(calls)))
        legal = engine.legal_actions(state)
        assert inner.act(obs, legal, random.Random(9)) == inner.act(
            engine.observe(twin, 0), engine.legal_actions(twin), random.Random(9))
    assert calls and driver.outcome() is not None


def test_search_bot_is_deterministic_for_an_rng_and_plays_legally():
    bots = [make_bot("search:iterations=40"), make_bot("heuristic"), make_bot("random")]
    a = play_game(PEEL, bots, seed=11)
    b = play_game(PEEL, bots, seed=11)
    assert a.actions == b.actions and a.complete and sum(a.payoffs) == 0


def test_search_bot_stands_on_a_tricon_and_hint_says_why():
    state = engine.new_game(PEEL, 4, dealer=3)
    aces = tuple(c for c in pack(52) if c >> 2 == 12)[:3]
    rest = [c for c in pack(52) if c not in aces][:9]
    cards = tuple(x for i in range(3) for x in (aces[i], *rest[3 * i:3 * i + 3]))
    state = engine.apply(state, engine.Action(ActionKind.DEAL, cards)).state
    seat = engine.decision(state).seat
    assert set(state.hands[seat]) == set(aces)
    obs = engine.observe(state, seat)
    legal = engine.legal_actions(state)
    action = SearchBot(iterations=60).act(obs, legal, random.Random(0))
    assert action.kind is ActionKind.STAND
    hints = search_hint(obs, legal, random.Random(0), iterations=60)
    assert [a for a, _ in hints] == list(legal)
    stand = hints[0][1]
    assert stand.win == 1.0 and stand.value > 0 and stand.samples >= 1


def test_search_options_are_validated():
    assert make_bot("search:iterations=7").iterations == 7
    assert make_bot("search:ms=50").ms == 50 and make_bot("search:ms=50").iterations is None
    for bad in ("search:iterations=0", "search:iterations=x", "search:ms=-1", "search:deep=1"):
        with pytest.raises(CommerceError) as info:
            make_bot(bad)
        assert "iterations" in str(info.value) or "ms" in str(info.value)


def test_search_with_a_time_budget_answers():
    state = engine.new_game(PEEL, 3)
    state = engine.apply(state, engine.sample_chance(state, random.Random(2))).state
    seat = engine.decision(state).seat
    action = make_bot("search:ms=20").act(engine.observe(state, seat),
                                          engine.legal_actions(state), random.Random(0))
    assert action in engine.legal_actions(state)


def test_hint_in_play(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "stdin", io.StringIO("hint\nq\n"))
    code = main(["play", "--seed", "5", "--players", "3", "--save", str(tmp_path / "g.json")])
    out = capsys.readouterr().out
    assert code == 0
    assert "search bot's estimates" in out and "<- best" in out and "win" in out


def test_best_index_keeps_to_the_reference_unless_the_paired_edge_is_clear():
    from commerce.bots.search import Estimate, best_index

    ref = Estimate(1.0, 0.5, 0.5, 10)
    close = Estimate(1.5, 0.5, 0.5, 10, edge=0.5, edge_stderr=0.4)
    clear = Estimate(1.5, 0.5, 0.5, 10, edge=0.5, edge_stderr=0.2)
    assert best_index([ref, close]) == 1
    assert best_index([ref, close], reference=0, confidence=2.0) == 0
    assert best_index([ref, clear], reference=0, confidence=2.0) == 1
    assert best_index([close, ref], reference=1, confidence=0.0) == 0


def test_search_with_a_reference_keeps_it_in_the_running_and_pairs_the_playouts():
    rules = find_ruleset("cox")
    state = engine.new_game(rules, 4)
    rng = random.Random(3)
    while True:  # to the first decision with four actions or more (a discard)
        d = engine.decision(state)
        assert d is not None
        legal = engine.legal_actions(state)
        if d.seat is not None and len(legal) >= 4:
            break
        action = engine.sample_chance(state, rng) if d.seat is None else legal[0]
        state = engine.apply(state, action).state
    obs = engine.observe(state, d.seat)
    ref = len(legal) - 1
    for reference in (None, ref):
        est = search(obs, legal, random.Random(1), iterations=40, reference=reference)
        if reference is None:
            assert all(e.edge == 0.0 and e.edge_stderr == math.inf for e in est)
        else:
            most = max(e.samples for e in est)
            assert est[ref].samples == most and est[ref].edge == 0.0
            assert all(e.edge_stderr < math.inf for e in est if e.samples > 1)


def test_the_fast_level_plays_a_tenth_of_the_default_budget():
    from commerce.bots.search import FAST_SHARE, default_iterations

    state = engine.new_game(PEEL, 4, dealer=3)
    state = engine.apply(state, engine.sample_chance(state, random.Random(4))).state
    seat = engine.decision(state).seat
    obs, legal = engine.observe(state, seat), engine.legal_actions(state)
    fast = make_bot("search-fast")
    assert fast.name == "search-fast" and fast.act(obs, legal, random.Random(0)) in legal
    tenth = default_iterations("trading", PEEL) // FAST_SHARE
    assert tenth - len(legal) <= fast.playouts <= tenth
    exact = make_bot(f"search:iterations={tenth}")
    exact.act(obs, legal, random.Random(0))
    assert exact.playouts == fast.playouts
    with pytest.raises(CommerceError, match="search-fast takes no options"):
        make_bot("search-fast:iterations=5")


def test_a_budget_in_time_stops_before_a_state_that_would_end_past_it(monkeypatch):
    import dataclasses

    import commerce.bots.search as search_module
    from commerce.family import family_spec

    clock = [0.0]

    class Clock:
        @staticmethod
        def perf_counter() -> float:
            return clock[0]

    def slow_playout(state, action, seat, rng):
        clock[0] += 0.020  # each playout takes 20 ms on this clock
        return 0.0, 0.0

    monkeypatch.setattr(search_module, "time", Clock)
    monkeypatch.setattr(search_module, "playout_for", lambda family: slow_playout)
    no_batch = dataclasses.replace(family_spec("trading").search, batch=None)
    monkeypatch.setattr(search_module, "_hooks", lambda family: no_batch)
    state = engine.new_game(PEEL, 4, dealer=3)
    state = engine.apply(state, engine.sample_chance(state, random.Random(4))).state
    seat = engine.decision(state).seat
    obs, legal = engine.observe(state, seat), engine.legal_actions(state)[:2]
    # two actions: 40 ms a drawn state, reckoned at up to 80 ms for the next: the second
    # might end at 120 ms, past 100
    assert [e.samples for e in search(obs, legal, random.Random(0), ms=100)] == [1, 1]
    assert clock[0] <= 0.100
    clock[0] = 0.0  # the default budget stops within CAP_MS (190 ms): three states
    assert [e.samples for e in search(obs, legal, random.Random(0))] == [3, 3]
    assert clock[0] <= search_module.CAP_MS / 1000


def test_the_fast_level_keeps_the_heuristics_choice_when_playouts_cannot_tell(monkeypatch):
    import dataclasses

    import commerce.bots.search as search_module
    from commerce.bots.heuristic import HeuristicBot
    from commerce.family import family_spec

    hooks = dataclasses.replace(family_spec("trading").search, fitted=None, batch=None,
                                playout=lambda *a: (0.0, 0.0))
    monkeypatch.setattr(search_module, "_hooks", lambda family: hooks)
    checked = 0
    for state in _states_to_decide(PEEL, 4, range(3)):
        seat = engine.decision(state).seat
        obs, legal = engine.observe(state, seat), engine.legal_actions(state)
        favourite = HeuristicBot().act(obs, legal, random.Random(0))
        if len(legal) < 2 or favourite == legal[0]:
            continue
        assert make_bot("search-fast").act(obs, legal, random.Random(1)) == favourite
        assert make_bot("search:iterations=50").act(obs, legal, random.Random(1)) == legal[0]
        checked += 1
    assert checked >= 3


def _states_to_decide(rules, players, seeds):
    out: list = []
    for seed in seeds:
        random_game(rules, players, seed, each=out.append)
    return [s for s in out if (d := engine.decision(s)) is not None and d.seat is not None]
