"""The cox family engine: deal and bases, buying, selling out, invariants, determinism, no leak."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from commerce import engine
from commerce.core import Action, ActionKind, DecisionKind
from commerce.errors import IllegalActionError, IllegalReason, RulesetError
from commerce.families.cox import rules as cox
from commerce.families.cox.cards import face_card, format_cox_cards, is_greenback, parse_cox_cards
from commerce.families.cox.text import render_observation
from commerce.rules import find_ruleset

COX = find_ruleset("cox")


def act(s: Any, text: str) -> Any:
    return engine.apply(s, engine.parse_action(s, text)).state


def directors_for(n: int, retailer: int, wholesaler: int | None = None) -> str:
    """A Directors deal giving *retailer* the R card (dealt by seat 0, first card to his right)."""
    seats = [(0 - (i + 1)) % n for i in range(2 * n)]
    order = ["X"] * (2 * n)
    order[seats.index(retailer)] = "R"
    w = retailer if wholesaler is None else wholesaler
    order[next(i for i, seat in enumerate(seats) if seat == w and order[i] == "X")] = "W"
    return "deal " + " ".join(order)


def supply_for(n: int, retailer: int, racks: dict[int, str], draws: str = "") -> str:
    """A supply order dealing *racks* (eight cards each) and putting *draws* next on top."""
    order = [(retailer - (i + 1)) % n for i in range(n)]
    hands = {seat: [face_card(c) for c in parse_cox_cards(racks[seat])] for seat in order}
    seq: list[int] = []
    for i in range(8):
        for seat in order:
            seq.append(hands[seat][i])
    seq += [face_card(c) for c in parse_cox_cards(draws)]
    left = Counter(face_card(c) for c in range(80))
    left.subtract(seq)
    assert all(v >= 0 for v in left.values()), "more copies than the pack has"
    rest = sorted(left.elements())
    # keep Greenbacks away from the ends of the supply (drawn first, replaced from the bottom)
    plain = [c for c in rest if not is_greenback(c)]
    money = [c for c in rest if is_greenback(c)]
    rest = plain[: len(plain) // 2] + money + plain[len(plain) // 2:]
    return "deal " + format_cox_cards(seq + rest)


def start(n: int, retailer: int, racks: dict[int, str], draws: str = "",
          rules: Any = COX) -> Any:
    s = engine.new_game(rules, n, dealer=0)
    s = act(s, directors_for(n, retailer))
    return act(s, supply_for(n, retailer, racks, draws))


FILLER = {  # no pairs, no Greenbacks, at most three copies of a face in all
    0: "A1 A2 A3 A4 S1 S2 S3 S4",
    1: "A1 A2 A3 A4 P1 P2 P3 P4",
    2: "S1 S2 S3 S4 P1 P2 P3 P4",
    3: "A3 A4 S3 S4 P3 P4 F1 I1",
}


# -- rulesets --------------------------------------------------------------------------------


def test_preset() -> None:
    assert COX.family == "cox" and COX.pack == 80 and COX.player_range() == range(2, 5)
    assert COX.direction == "right" and COX.hands_per_game == 4
    with pytest.raises(RulesetError):
        COX.with_options(pack=52)
    with pytest.raises(RulesetError):
        find_ruleset("peel").with_options(pack=80)
    with pytest.raises(RulesetError):
        COX.with_options(max_players=5)
    with pytest.raises(RulesetError):
        engine.new_game(COX, 5)
    assert COX.with_options(last_discard_buyable="no").last_discard_buyable == "no"
    for name in ("buy_priority", "buy_offers", "captain_can_be_fourth", "bank_double_order",
                 "bank_counts_for_clear_hand", "last_discard_buyable", "replacement_fallback",
                 "hands_per_game"):
        assert COX.option_source(name)


# -- the deal --------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "numbers", "supply"), [
    (4, {2: 1, 1: 2, 0: 3, 3: 4}, (0, 8, 20, 20)),
    (3, {2: 1, 1: 2, 0: 3}, (0, 16, 20, 20)),
    (2, {1: 1, 0: 3}, (4, 20, 20, 20)),
])
def test_deal_and_base_numbers(n: int, numbers: dict[int, int], supply: tuple[int, ...]) -> None:
    retailer = max(numbers, key=lambda seat: -numbers[seat])
    s = engine.new_game(COX, n, dealer=0)
    assert engine.decision(s).is_chance
    assert {engine.format_action(s, a) for a in engine.legal_actions(s)} == (
        {"deal W", "deal R", "deal X"})
    s = act(s, directors_for(n, retailer, wholesaler=(retailer + 1) % n))
    obs = engine.observe(s, 0)
    assert obs.retailer == retailer and obs.wholesaler == (retailer + 1) % n
    assert len(obs.directors) == 2 * n
    assert s.deal.base_numbers == tuple(numbers.get(i) for i in range(n))
    # a hand of the same eight faces for everyone, no Greenbacks or threes
    s = act(s, supply_for(n, retailer, {i: FILLER[i] for i in range(n)}))
    obs = engine.observe(s, None)
    assert obs.supply == supply
    assert obs.rack_sizes == (8,) * n
    assert engine.decision(s) == engine.Decision(retailer, DecisionKind.DRAW_OR_BUY)
    assert obs.current_base == (2 if n > 2 else 1)


def test_deal_goes_to_the_right_one_at_a_time() -> None:
    s = engine.new_game(COX, 4, dealer=0)
    s = act(s, directors_for(4, 2))
    order = [face_card(c) for c in parse_cox_cards(
        "A1 A2 A3 A4 S1 S2 S3 S4 P1 P2 P3 P4 A1 A2 A3 A4 S1 S2 S3 S4 P1 P2 P3 P4"
        " F1 F2 F3 F4 G1 G2 G3 G4")]
    left = Counter(face_card(c) for c in range(80))
    left.subtract(order)
    rest = [c for c in sorted(left.elements()) if not is_greenback(c)]
    rest = rest[:20] + [76, 77, 78, 79] + rest[20:]
    s = act(s, "deal " + format_cox_cards(order + rest))
    # the Retailer (seat 2) deals to his right: seat 1 first, then 0, 3 and himself last
    assert format_cox_cards(sorted(s.deal.racks[1])) == "A1 A1 S1 S1 P1 P1 F1 G1"
    assert format_cox_cards(sorted(s.deal.racks[2])) == "A4 A4 S4 S4 P4 P4 F4 G4"


def test_greenbacks_in_the_deal_are_replaced_from_base_four() -> None:
    racks = dict(FILLER)
    racks[3] = "A1 A2 A3 A4 S1 S2 S3 M4"
    s = start(4, 0, racks)
    assert s.deal.greenbacks[3] == (79,)
    assert len(s.deal.racks[3]) == 8
    assert [len(b) for b in s.deal.bases] == [0, 8, 20, 19]
    kinds = [e.kind for e in s.deal.log]
    assert "greenback_laid" in kinds and "replaced" in kinds


def test_threes_are_laid_out_at_once() -> None:
    racks = dict(FILLER)
    racks[0] = "P5 P5 P5 A4 S1 S2 S3 S4"
    s = start(4, 0, racks)
    assert [format_cox_cards(g) for g in s.deal.laid[0]] == ["P5 P5 P5"]
    assert len(s.deal.racks[0]) == 5


def test_drawn_fourth_is_laid_out_and_replaced() -> None:
    racks = dict(FILLER)
    racks[0] = "P5 P5 P5 A4 S1 S2 S3 S4"
    s = start(4, 0, racks, draws="P5")
    s = act(s, "draw")
    assert [format_cox_cards(g) for g in s.deal.laid[0]] == ["P5 P5 P5 P5"]
    assert len(s.deal.racks[0]) == 6  # five, plus the replacement from the bottom of Base 4
    assert engine.decision(s).kind is DecisionKind.DISCARD
    s = act(s, "discard A4")
    # one more card for the four
    assert len(s.deal.racks[0]) + sum(len(g) for g in s.deal.laid[0]) == 9


# -- buying ----------------------------------------------------------------------------------


def four_player_buy() -> Any:
    """Retailer seat 0; play goes 0, 3, 2, 1. Seat 0 discards S5: seat 2 holds two S5s, seat 1
    a waiting hand (two threes out, S5 and G2 in his rack)."""
    racks = {
        0: "A1 A2 A3 A4 S1 S2 S3 S5",
        3: "A1 A2 A3 A4 S1 S2 S3 S4",
        2: "A1 A2 A3 A4 S1 S2 S5 S5",
        1: "P1 P1 P1 P2 P2 P2 S5 G2",
    }
    s = start(4, 0, racks, draws="P3 P4 P5")
    s = act(s, "draw")
    return act(s, "discard S5")


def test_nearest_claimant_buys_and_skipped_players_lose_their_turn() -> None:
    s = four_player_buy()
    assert engine.decision(s) == engine.Decision(3, DecisionKind.DRAW_OR_BUY)
    assert engine.legal_actions(s) == (Action(ActionKind.DRAW),)  # seat 3 has no pair
    s = act(s, "draw")
    # seat 3 chose to draw: first the others are offered the discard, nearest first
    assert engine.decision(s) == engine.Decision(2, DecisionKind.BUY_OFFER)
    assert Action(ActionKind.BUY) in engine.legal_actions(s)
    t = engine.apply(s, engine.parse_action(s, "buy"))
    s = t.state
    bought = next(e for e in t.events if e.kind == "bought")
    assert bought.seat == 2 and bought.get("lost_turns") == (3,)
    assert [format_cox_cards(g) for g in s.deal.laid[2]] == ["S5 S5 S5"]
    assert engine.decision(s) == engine.Decision(2, DecisionKind.DISCARD)
    assert s.deal.discards == ()
    assert len(s.deal.racks[3]) == 8  # seat 3 never drew
    s = act(s, "discard A1")
    assert engine.decision(s).seat == 1  # play goes on to the buyer's right


def test_farther_claimant_when_nearer_declines() -> None:
    s = act(four_player_buy(), "draw")
    s = act(s, "decline")
    assert engine.decision(s) == engine.Decision(1, DecisionKind.BUY_OFFER)
    t = engine.apply(s, engine.parse_action(s, "buy"))
    bought = next(e for e in t.events if e.kind == "bought")
    assert bought.seat == 1 and bought.get("lost_turns") == (3, 2)
    assert engine.legal_actions(t.state) == (engine.parse_action(s, "sell_out G2"),)


def test_nobody_buys_then_the_turn_player_draws() -> None:
    s = act(four_player_buy(), "draw")
    s = act(s, "decline")
    s = act(s, "decline")
    assert engine.decision(s) == engine.Decision(3, DecisionKind.DISCARD)
    assert len(s.deal.racks[3]) == 9
    assert s.turn.live is None


def test_every_seat_is_asked_unless_eligible_only() -> None:
    racks = dict(FILLER)
    s = start(4, 0, racks, draws="P1")
    s = act(act(s, "draw"), "discard P1")
    s = act(s, "draw")
    # nobody can buy P1, yet seats 2 and 1 are asked (and may only decline)
    assert engine.decision(s) == engine.Decision(2, DecisionKind.BUY_OFFER)
    assert engine.legal_actions(s) == (Action(ActionKind.DECLINE),)
    with pytest.raises(IllegalActionError) as err:
        engine.apply(s, Action(ActionKind.BUY))
    assert err.value.reason is IllegalReason.NOT_ALLOWED_BY_RULES
    quick = start(4, 0, racks, draws="P1", rules=COX.with_options(buy_offers="eligible_only"))
    quick = act(act(act(quick, "draw"), "discard P1"), "draw")
    assert engine.decision(quick) == engine.Decision(3, DecisionKind.DISCARD)


def test_turn_player_may_buy_instead_of_drawing() -> None:
    racks = dict(FILLER)
    racks[3] = "A1 A2 A3 A4 S1 S2 P5 P5"
    s = start(4, 0, racks, draws="P5")
    s = act(act(s, "draw"), "discard P5")
    assert engine.legal_actions(s) == (Action(ActionKind.DRAW), Action(ActionKind.BUY))
    t = engine.apply(s, Action(ActionKind.BUY))
    assert next(e for e in t.events if e.kind == "bought").get("lost_turns") == ()
    assert [format_cox_cards(g) for g in t.state.deal.laid[3]] == ["P5 P5 P5"]
    # the freshly bought card's face may not be discarded (here he holds no other P5 anyway)
    with pytest.raises(IllegalActionError):
        engine.apply(t.state, engine.parse_action(t.state, "discard P5"))


def test_captain_buying_conditions() -> None:
    racks = dict(FILLER)
    racks[3] = "A1 A2 A3 A4 S1 S2 P2 P2"   # two like cards of Aeroplanes: may buy PC
    racks[2] = "A1 A2 A3 A4 S1 S2 P3 BK"   # one Aeroplane and the Bank: may not
    s = start(4, 0, racks, draws="PC")
    s = act(act(s, "draw"), "discard PC")
    assert Action(ActionKind.BUY) in engine.legal_actions(s)
    s2 = act(s, "draw")
    assert engine.legal_actions(s2) == (Action(ActionKind.DECLINE),)  # seat 2
    s = act(s, "buy")
    assert [format_cox_cards(g) for g in s.deal.laid[3]] == ["P2 P2 PC"]


def test_honour_buying_needs_two_of_the_suit() -> None:
    racks = dict(FILLER)
    racks[3] = "A1 A2 A3 A4 S1 S2 G1 G2"
    racks[2] = "A1 A2 A3 A4 S1 S2 S3 G4"
    s = start(4, 0, racks, draws="G3")
    s = act(act(s, "draw"), "discard G3")
    assert Action(ActionKind.BUY) in engine.legal_actions(s)
    s = act(s, "draw")
    assert engine.legal_actions(s) == (Action(ActionKind.DECLINE),)


def test_no_buying_a_fourth() -> None:
    racks = dict(FILLER)
    racks[3] = "P5 P5 P5 A1 A2 A3 S1 S2"
    s = start(4, 0, racks, draws="P5")
    s = act(act(s, "draw"), "discard P5")
    assert engine.legal_actions(s) == (Action(ActionKind.DRAW),)


def test_waiting_hand_may_buy_to_sell_out() -> None:
    # Seat 3: two threes laid out, S4 and G1 in the rack; a discarded S4 completes his pair.
    racks = dict(FILLER)
    racks[3] = "S1 S1 S1 S2 S2 S2 S4 G1"
    racks[0] = "A1 A2 A3 A4 P1 P2 P3 P4"
    s = start(4, 0, racks, draws="S4")
    assert len(s.deal.racks[3]) == 2
    s = act(act(s, "draw"), "discard S4")
    assert Action(ActionKind.BUY) in engine.legal_actions(s)
    s = act(s, "buy")
    # bought only to complete the hand: he must sell out, discarding the other single
    assert engine.legal_actions(s) == (Action(ActionKind.SELL_OUT, (parse_cox_cards("G1")[0],)),)
    t = engine.apply(s, engine.parse_action(s, "sell_out G1"))
    assert any(e.kind == "sold_out" for e in t.events)
    scored = next(e for e in t.events if e.kind == "hand_scored")
    assert scored.get("scores")[3] == 3 + 3   # two threes (the suit pair scores nothing)
    assert t.state.session.hand_number == 2


def test_sell_out_detection_after_draw() -> None:
    racks = dict(FILLER)
    racks[0] = "S1 S1 S1 S2 S2 S2 S4 G1"
    s = start(4, 0, racks, draws="G2")
    s = act(s, "draw")
    legal = [engine.format_action(s, a) for a in engine.legal_actions(s)]
    assert "sell_out S4" in legal and "sell_out G1" not in legal and "discard G1" in legal
    with pytest.raises(IllegalActionError) as err:
        engine.apply(s, engine.parse_action(s, "sell_out G1"))
    assert err.value.reason is IllegalReason.NOT_ALLOWED_BY_RULES
    t = engine.apply(s, engine.parse_action(s, "sell_out S4"))
    scored = next(e for e in t.events if e.kind == "hand_scored")
    assert scored.get("reason") == "sold_out"
    assert scored.get("scores")[0] == 3 + 3 + 3


def test_copies_are_named_by_face() -> None:
    s = start(4, 0, dict(FILLER), draws="P1")
    s = act(s, "draw")
    a1_copy = parse_cox_cards("A1 A1")[1]
    with pytest.raises(IllegalActionError, match="copies are alike"):
        engine.apply(s, Action(ActionKind.DISCARD, (a1_copy,)))


# -- whole games -----------------------------------------------------------------------------


def play(n: int, seed: int, rules: Any = COX, every: int = 0) -> tuple[Any, list[Action]]:
    """A random game; with *every*, check the invariants at every *every*-th state."""
    rng = random.Random(seed)
    chance = random.Random(seed + 10_000)
    s = engine.new_game(rules, n, dealer=seed % n)
    actions: list[Action] = []
    step = 0
    while True:
        legal = engine.legal_actions(s)
        d = engine.decision(s)
        assert (d is None) == (not legal)
        if every:
            check_places(s)
            if step % every == 0:
                check_rejections(s, legal)
        if d is None:
            return s, actions
        a = engine.sample_chance(s, chance) if d.is_chance else rng.choice(legal)
        actions.append(a)
        s = engine.apply(s, a).state
        step += 1


def check_places(s: Any) -> None:
    """No Greenback stays in a rack (card conservation: tests/test_generic_invariants.py)."""
    for seat in range(s.players):
        assert not any(is_greenback(c) for c in s.deal.racks[seat])


CANDIDATES = [Action(kind) for kind in ActionKind] + [
    Action(kind, (c,)) for kind in (ActionKind.DISCARD, ActionKind.SELL_OUT, ActionKind.DEAL,
                                    ActionKind.BUY) for c in range(83)
]


def check_rejections(s: Any, legal: tuple[Action, ...]) -> None:
    allowed = set(legal)
    for a in CANDIDATES:
        if a in allowed:
            engine.check(s, a)
            continue
        with pytest.raises(IllegalActionError) as err:
            engine.check(s, a)
        assert str(err.value) and isinstance(err.value.reason, IllegalReason)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_keep_invariants(n: int) -> None:
    for seed in range(6):
        s, _ = play(n, seed, every=25)
        out = engine.outcome(s)
        assert out is not None
        assert out.payoffs == out.details["net"] == tuple(map(sum, zip(*out.details["hand_scores"],
                                                                      strict=True)))
        assert len(out.details["hand_scores"]) == 4
        assert out.reason == "4 hands played"


@pytest.mark.parametrize("options", [
    {"buy_offers": "eligible_only"},
    {"last_discard_buyable": "yes"},
    {"last_discard_buyable": "no", "replacement_fallback": "skip"},
    {"captain_can_be_fourth": True, "bank_double_order": "before_penalty", "hands_per_game": 2},
])
def test_random_games_under_options(options: dict[str, Any]) -> None:
    rules = COX.with_options(**options)
    for n in (2, 4):
        s, _ = play(n, 7, rules=rules, every=50)
        assert engine.outcome(s) is not None
        assert s.session.hand_number == rules.hands_per_game
    one = COX.with_options(hands_per_game=1)
    out = engine.outcome(play(2, 7, rules=one, every=50)[0])
    assert out is not None and out.reason == "1 hand played"


def test_observation_hides_racks_and_supply() -> None:
    s, actions = play(3, 9)
    r = engine.new_game(COX, 3, dealer=0)
    for a in actions[:60]:
        r = engine.apply(r, a).state
    obs = engine.observe(r, 1)
    assert obs.racks[0] is None and obs.racks[2] is None and obs.racks[1] == obs.rack
    d = obs.to_dict()
    assert d["racks"][0] is None and "bases" not in d
    assert all(e.visible(1) for e in obs.events)
    assert not any(e.kind in ("dealt_cards", "drew_card", "replacement") and e.seat != 1
                   for e in obs.events)
    text = render_observation(obs)
    assert "seat 1 (you)" in text and "Supply left" in text
    spectator = engine.observe(r, None)
    assert spectator.rack == () and all(x is None for x in spectator.racks)
    assert all(x is not None for x in engine.reveal_all(r).racks)


def test_parse_action_errors() -> None:
    from commerce.errors import NotationError

    for bad in ("", "jump", "discard", "discard Z9", "draw A1", "deal", "sell_out A1 A2"):
        with pytest.raises(NotationError):
            cox.parse_action(bad)
    assert cox.parse_action("DEAL w r x") == Action(ActionKind.DEAL, (80, 81, 82))
    assert cox.format_action(cox.parse_action("sell_out g2")) == "sell_out G2"
