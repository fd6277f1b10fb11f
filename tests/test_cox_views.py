"""Cox's game: what each seat sees carries no copy identity and no buy offer made to another.

Copies of a face are alike (docs/rulesets/cox.md): no view, event or bot input may tell which copy
of four Ship 2s a card is. A buy offer ("I buy") is put to one seat alone: every other seat sees
the turn as it stood until the offers are settled.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import pytest

from commerce import engine
from commerce.families.cox.cards import face_card, pack
from commerce.families.cox.state import CoxState, Phase
from commerce.families.cox.text import render_observation
from commerce.family import family_spec
from commerce.rules import find_ruleset

COX = find_ruleset("cox")
SPEC = family_spec("cox")
VARIANTS = [
    {},
    {"buy_offers": "eligible_only", "last_discard_buyable": "yes"},
    {"captain_can_be_fourth": True, "replacement_fallback": "skip",
     "bank_counts_for_clear_hand": True},
]


def _states(rules, players: int, seed: int) -> Iterator[CoxState]:
    """Every state of a game played with random legal actions (buying whenever offered, so
    that offers and purchases happen often)."""
    rng = random.Random(seed)
    state = engine.new_game(rules, players, dealer=seed % players)
    yield state
    while engine.decision(state) is not None:
        d = engine.decision(state)
        if d.seat is None:
            action = engine.sample_chance(state, rng)
        else:
            legal = engine.legal_actions(state)
            buys = [a for a in legal if a.kind.value == "buy"]
            action = buys[0] if buys and rng.random() < 0.7 else rng.choice(legal)
        state = engine.apply(state, action).state
        yield state


def _games():
    for i, options in enumerate(VARIANTS):
        for players in (2, 3, 4):
            yield COX.with_options(hands_per_game=1, **options), players, 10 * i + players


@pytest.mark.parametrize("rules,players,seed", list(_games()))
def test_permuting_what_a_seat_cannot_know_leaves_its_view_unchanged(rules, players, seed):
    rng = random.Random(seed)
    changed = 0
    for state in _states(rules, players, seed):
        assert sorted(SPEC.cards_in_play(state)) == list(pack())
        for seat in range(players):
            other = SPEC.permute_hidden(state, seat, rng)
            assert sorted(SPEC.cards_in_play(other)) == list(pack())
            assert engine.observe(other, seat) == engine.observe(state, seat)
            changed += other != state
    assert changed > 0


def _all_copies_relabelled(state: CoxState, rng: random.Random) -> CoxState:
    """Every transport face's copies shuffled in every place, the seat's own included."""
    from commerce.families.cox.hidden import _relabel_copies
    return _relabel_copies(state, rng)


@pytest.mark.parametrize("rules,players,seed", list(_games())[:6])
def test_views_and_events_carry_faces_not_copies(rules, players, seed):
    rng = random.Random(seed)
    for state in _states(rules, players, seed):
        other = _all_copies_relabelled(state, rng)
        assert engine.reveal_all(other) == engine.reveal_all(state)
        for seat in range(players):
            obs = engine.observe(state, seat)
            assert engine.observe(other, seat) == obs
            # Holding copy 3 of a face but not copy 1 would say where copy 1 went: a view
            # numbers the copies it shows 0, 1, 2 ... for each face.
            shown = [*obs.discards, *obs.rack, *(c for g in obs.laid for h in g for c in h),
                     *(c for g in obs.greenbacks for c in g)]
            per_face = Counter(face_card(c) for c in shown)
            assert sorted(shown) == sorted(f + i for f, n in per_face.items()
                                           for i in range(n))
            for e in obs.events:
                for key, value in e.data:
                    if key == "card":
                        assert value == face_card(value), e
                    elif key == "cards":
                        assert all(c == face_card(c) for c in value), e


def test_a_view_shows_the_lowest_copies_whatever_is_held():
    state = engine.new_game(COX, 4, dealer=0)
    rng = random.Random(1)
    while state.turn.phase is not Phase.TURN:
        state = engine.apply(state, engine.sample_chance(state, rng)).state
    seat = state.turn.player
    # Give the seat copy 3 of Ship 2 (card 27) while copy 1 (card 25) lies elsewhere.
    where = {c: q for q in range(4) for c in state.deal.racks[q]}
    for b, base in enumerate(state.deal.bases):
        for c in base:
            where[c] = ("base", b)
    mine = next(c for c in state.deal.racks[seat] if 0 <= c < 60 and c % 4 == 0
                and where.get(c + 3) != seat and where.get(c + 1) != seat)
    swap = {mine: mine + 3, mine + 3: mine}

    def m(cards):
        return tuple(swap.get(c, c) for c in cards)

    moved = replace(state, deal=replace(state.deal, racks=tuple(m(r) for r in state.deal.racks),
                                        bases=tuple(m(b) for b in state.deal.bases)))
    assert mine + 3 in moved.deal.racks[seat] and mine not in moved.deal.racks[seat]
    obs = engine.observe(moved, seat)
    assert obs == engine.observe(state, seat)
    assert mine in obs.rack and mine + 3 not in obs.rack


@pytest.mark.parametrize("options", [VARIANTS[0], VARIANTS[1]])
@pytest.mark.parametrize("players", [3, 4])
def test_a_buy_offer_to_one_seat_shows_the_others_the_turn_as_it_stood(options, players):
    rules = COX.with_options(hands_per_game=2, **options)
    offers = 0
    for seed in range(3):
        turn_start: CoxState | None = None
        for state in _states(rules, players, 100 + seed):
            if state.turn.phase is Phase.TURN:
                turn_start = state
            if state.turn.phase is not Phase.OFFER:
                continue
            assert turn_start is not None and turn_start.turn.player == state.turn.player
            offers += 1
            before = len(turn_start.deal.log)
            for seat in range(players):
                if seat == state.turn.actor:
                    continue
                obs = engine.observe(state, seat)
                stood = engine.observe(turn_start, seat)
                own = tuple(e for e in state.deal.log[before:] if e.visible_to == frozenset({seat}))
                assert obs.events == stood.events + own
                assert all(e.kind == "declined" for e in own)
                assert obs.decision == stood.decision
                fields = [f for f in obs.__slots__ if f != "events"]
                assert [getattr(obs, f) for f in fields] == [getattr(stood, f) for f in fields]
    assert offers > 0


def test_the_turn_player_waiting_on_the_offers_is_not_asked_again():
    rules = COX.with_options(hands_per_game=1)
    for state in _states(rules, 4, 7):
        if state.turn.phase is Phase.OFFER and state.turn.actor != state.turn.player:
            me = state.turn.player
            obs = engine.observe(state, me)
            text = render_observation(obs)
            assert "the other players are asked whether they buy" in text
            assert "Your turn" not in text
            return
    raise AssertionError("no buy offer in the game")
