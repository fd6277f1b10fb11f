"""Cox's game: determinisation (the sampler), the search bot's playout, the deal reader."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from commerce import engine
from commerce.apps.analysis import dealer_advantage, variants
from commerce.apps.runner import deal_reader
from commerce.apps.threshold import stand_threshold
from commerce.bots import make_bot
from commerce.bots.search import default_iterations, playout_for, search_hint
from commerce.determinize import sample_state, state_sampler
from commerce.driver import Driver, play_game
from commerce.errors import CommerceError
from commerce.families.cox.cards import face_card, is_greenback, is_wild, kind_of, pack
from commerce.families.cox.state import CoxState, Phase
from commerce.rules import find_ruleset
from tests.invariants import random_game

COX = find_ruleset("cox")


def _all_cards(s: CoxState) -> list[int]:
    cards = [*s.deal.discards, *s.deal.unseen]
    for q in range(s.players):
        cards += [*s.deal.racks[q], *(c for g in s.deal.laid[q] for c in g), *s.deal.greenbacks[q]]
    for b in s.deal.bases:
        cards += b
    return sorted(cards)


def _at_rest(s: CoxState, q: int) -> bool:
    """The rack holds no Greenback, no three like naturals, no fourth of a natural three."""
    rack = s.deal.racks[q]
    if any(is_greenback(c) for c in rack):
        return False
    counts = Counter(kind_of(c) for c in rack if 0 <= kind_of(c) < 18)
    if any(v >= 3 for v in counts.values()):
        return False
    for g in s.deal.laid[q]:
        if len(g) == 3 and all(not is_wild(c) for c in g) and counts[kind_of(g[0])]:
            return False
    return True


def _check_sampler(state: CoxState, rng: random.Random) -> None:
    if state.turn.phase is Phase.SHUFFLE:
        return
    d = engine.decision(state)
    for seat in range(state.players):
        obs = engine.observe(state, seat)
        sampled = sample_state(obs, rng)
        assert engine.observe(sampled, seat) == obs
        assert _all_cards(sampled) == list(pack())
        assert [len(r) for r in sampled.deal.racks] == [len(r) for r in state.deal.racks]
        assert [len(b) for b in sampled.deal.bases] == [len(b) for b in state.deal.bases]
        assert sorted(map(face_card, sampled.deal.racks[seat])) == \
            sorted(map(face_card, state.deal.racks[seat]))
        # A buy offer to another seat is not shown: the drawn state is the turn as it stood.
        assert engine.decision(sampled) == obs.decision
        if state.turn.phase is not Phase.OVER:
            assert all(_at_rest(sampled, q) for q in range(state.players) if q != seat)
        if d is not None and d.seat == seat:
            assert engine.legal_actions(sampled) == engine.legal_actions(state)
            assert sampled.turn.offer_queue == state.turn.offer_queue
            assert sampled.turn.must_sell_out == state.turn.must_sell_out
            assert (sampled.turn.bought is None) == (state.turn.bought is None)
            if state.turn.bought is not None:
                assert face_card(sampled.turn.bought) == face_card(state.turn.bought)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sampled_states_are_consistent_in_random_games(players):
    rng = random.Random(players)
    rules = COX.with_options(hands_per_game=1)
    for seed in range(2):
        random_game(rules, players, seed, lambda s: _check_sampler(s, rng))


@pytest.mark.parametrize("options", [
    {},
    {"buy_offers": "eligible_only", "last_discard_buyable": "yes"},
    {"captain_can_be_fourth": True, "replacement_fallback": "skip"},
])
def test_sampled_states_are_consistent_in_heuristic_games(options):
    rng = random.Random(5)
    rules = COX.with_options(hands_per_game=2, **options)
    driver = Driver(rules, [make_bot("heuristic"), make_bot("random")] * 2, seed=7)
    while driver.step():
        _check_sampler(driver.state, rng)
    _check_sampler(driver.state, rng)


def test_sampler_keeps_unseen_greenbacks_in_the_supply_and_refuses_a_spectator():
    state = engine.new_game(COX, 4, dealer=0)
    while engine.decision(state).seat is None:
        state = engine.apply(state, engine.sample_chance(state, random.Random(3))).state
    seat = engine.decision(state).seat
    draw = state_sampler(engine.observe(state, seat))
    seen = {c for q in range(4) for c in state.deal.greenbacks[q]}
    for i in range(10):
        s = draw(random.Random(i))
        in_bases = {c for b in s.deal.bases for c in b if is_greenback(c)}
        assert in_bases == {c for c in pack() if is_greenback(c)} - seen
    with pytest.raises(CommerceError):
        sample_state(engine.observe(state, None), random.Random(0))


def _first_decision(rules=COX, seed=3):
    state = engine.new_game(rules, 4, dealer=0)
    rng = random.Random(seed)
    while engine.decision(state).seat is None:
        state = engine.apply(state, engine.sample_chance(state, rng)).state
    return state


def test_playout_scores_the_lead_in_the_hand():
    state = _first_decision()
    seat = engine.decision(state).seat
    playout = playout_for("cox")
    legal = engine.legal_actions(state)
    for i in range(5):
        lead, won = playout(sample_state(engine.observe(state, seat), random.Random(i)),
                            legal[0], seat, random.Random(i))
        assert won in (0.0, 1.0) and -60 <= lead <= 60
    assert default_iterations("cox") < default_iterations("trading")


def test_search_bot_plays_cox_legally_and_deterministically():
    rules = COX.with_options(hands_per_game=1)
    bots = [make_bot("search:iterations=8"), make_bot("heuristic")] * 2
    a = play_game(rules, bots, seed=4)
    b = play_game(rules, bots, seed=4)
    assert a.complete and a.actions == b.actions


def test_search_hint_in_cox_covers_every_legal_action():
    state = _first_decision()
    seat = engine.decision(state).seat
    obs = engine.observe(state, seat)
    legal = engine.legal_actions(state)
    hints = search_hint(obs, legal, random.Random(0), iterations=6)
    assert [a for a, _ in hints] == list(legal)
    assert all(e.samples >= 1 and 0 <= e.win <= 1 for _, e in hints)


def test_cox_hands_read_from_events_add_up_to_the_outcome():
    from commerce.apps.runner import play_and_read

    bots = [make_bot("heuristic"), make_bot("random")] * 2
    game = play_and_read(COX, bots, 2)
    assert len(game.deals) == 4
    record = play_game(COX, bots, seed=2)
    totals = [sum(d.payoffs[s] for d in game.deals) for s in range(4)]
    assert tuple(int(t) for t in totals) == record.payoffs
    for deal in game.deals:
        assert deal.winners and len(deal.categories) == 4
        assert set(deal.categories) <= {"sold out", "complete", "clear", "not clear"}
        assert (deal.stander is None) == ("sold out" not in deal.categories)
    assert deal_reader(COX) is not None


def test_cox_dealer_advantage_and_variants():
    r = dealer_advantage(COX, players=3, games=2, seed=1)
    assert [s["role"] for s in r["seats"]] == ["retailer", "base 2", "base 3"]
    assert r["deals"] == 8 and r["unit"] == "points"
    v = variants(players=4, games=2, seed=0, rules_list=[COX])
    row = v["rulesets"][0]
    assert row["deals_per_game"]["mean"] == 4.0
    assert abs(sum(row["wins_by_category"].values()) - 1) < 1e-3


def test_cox_stand_threshold_is_refused_in_one_line():
    with pytest.raises(CommerceError, match="no meaning in Cox's game") as info:
        stand_threshold(COX, players=4, games=1, seed=0)
    assert "\n" not in str(info.value)


def test_cox_search_keeps_to_the_heuristic_unless_it_sees_a_clear_gain(monkeypatch):
    import dataclasses

    from commerce.families import cox
    from commerce.families.cox.heuristic import cox_heuristic

    hooks = cox.FAMILY.search
    assert hooks is not None and hooks.reference is not None and hooks.confidence > 0
    rules = COX.with_options(hands_per_game=1)
    # With an unreachable confidence the search plays exactly as the heuristic would.
    from commerce import family

    patched = dataclasses.replace(cox.FAMILY, search=dataclasses.replace(hooks,
                                                                         confidence=math.inf))
    monkeypatch.setitem(family._FAMILIES, "cox", patched)
    monkeypatch.setitem(family._BY_STATE, cox.FAMILY.state_type, patched)
    bot = make_bot("search:iterations=8")
    seen = 0
    for seed in range(3):
        driver = Driver(rules, [bot] + [make_bot("heuristic")] * 3, seed=seed)
        while (d := driver.decision()) is not None:
            if d.seat == 0:
                obs = engine.observe(driver.state, 0)
                legal = engine.legal_actions(driver.state)
                expected = cox_heuristic(obs, legal, random.Random(0), 0.5)
                assert bot.act(obs, legal, random.Random(seed)) == expected
                seen += len(legal) > 1
            driver.step()
    assert seen > 5
