"""Peel's Vingt-un: scenarios from the sources with named cards, the refused irregularities,
and exact values.

Three players, seat 0 deals (``first_dealer=given``); the first and the second round go to
seats 1, 2 and then the dealer.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import pytest

from commerce import engine
from commerce.core import Action, ActionKind
from commerce.errors import IllegalActionError, IllegalReason
from commerce.families.vingtun.odds import first_two_cards
from commerce.families.vingtun.state import Phase, Status
from commerce.rules import find_ruleset
from tests.helpers import Table


def table(players: int = 3, **options: object) -> Table:
    rules = find_ruleset("vingt-un").with_options(first_dealer="given", **options)
    return Table(engine.new_game(rules, players, dealer=0))


def hand(t: Table, first: str, stakes: tuple[int, ...], second: str,
         double: bool = False, keep: bool = True) -> Table:
    """Deal the first round, stake, (not) double, deal the second round; then (*keep*) every
    player keeps his two cards as one hand when asked before the drawing."""
    t.act(f"deal {first}", *(f"stake {k}" for k in stakes),
          "double" if double else "decline", f"deal {second}")
    while keep and t.state.phase is Phase.DIVIDE:
        t.act("decline")
    return t


def balances(t: Table) -> tuple[int, ...]:
    return tuple(t.state.session.balances)


def test_the_dealers_natural_collects_double_but_a_natural_against_it_is_void():
    t = hand(table(), "AS 5H AH", (2, 3), "KS 9C QH")
    assert balances(t) == (6, 0, -6)
    void = [e for e in t.kinds("natural") if e.get("void")]
    assert [e.seat for e in void] == [1]
    assert t.state.session.hand_number == 2 and t.state.dealer == 0


def test_a_doubled_dealers_natural_collects_four_stakes():
    t = hand(table(), "5S 5H AH", (1, 2), "9S 9C QH", double=True)
    assert balances(t) == (12, -4, -8)


def test_a_natural_in_the_first_hand_is_paid_as_a_drawn_21_and_the_dealer_stays():
    t = hand(table(drawn_21_pays=3), "AS 5H 9H", (2, 1), "KS 9C 8H")
    assert balances(t)[1] == 6  # three stakes of two: a drawn Vingt-un's rate
    t.act("content", "content")  # seat 2 (14), then the dealer (17) settles
    assert t.state.session.hand_number == 2 and t.state.dealer == 0
    assert t.state.session.deal_number == 1


def test_a_natural_after_the_first_hand_puts_the_dealer_out_to_his_left():
    t = hand(table(), "5S 5H 9H", (1, 1), "9S 9C 8H")
    t.act("content", "content", "content")
    hand(t, "AS 5D 9D", (2, 1), "KS 4C 8D")
    natural = [(e.seat, e.get("to"), e.get("amount")) for e in t.kinds("paid")
               if e.get("why") == "natural"]
    assert natural == [(0, 1, 4)]  # double the stake of two
    t.act("content", "content")
    assert t.state.dealer == 1 and t.state.session.deal_number == 2


def test_the_deal_can_go_to_the_naturals_holder_the_first_from_the_dealers_left():
    t = hand(table(4, deal_passes_to="natural"), "5S 5H 4C 9H", (1, 1, 1), "9S 9C 4D 8H")
    t.act("content", "content", "content", "content")
    hand(t, "7S AD AC 9D", (1, 1, 1), "2S KD KC 8D")
    assert [e.seat for e in t.kinds("natural")][-2:] == [2, 3]
    t.act("content", "content")
    assert t.state.dealer == 2


def test_divided_pairs_are_settled_one_after_the_other():
    t = hand(table(divide_when="own_turn"), "8S 5H 9H", (2, 1), "8H 9C 8D")
    assert "divide" in t.legal()
    t.act("divide", "deal 3C", "deal 2D")
    own = t.state.round.hands[1]
    assert [h.stake for h in own] == [2, 2] and all(h.divided for h in own)
    assert own[0].up == (True, False)  # the pair shown, the half's second card face down
    assert (t.decision.seat, t.state.current.part) == (1, 0)
    t.act("card", "deal KC")  # 8 3 K = 21: the first half stands at 21
    t.act("content")
    assert (t.decision.seat, t.state.current.part) == (1, 1)
    t.act("card", "deal KD")  # 8 2 K = 20
    t.act("content")
    assert t.decision.seat == 2  # only then the next player
    t.act("content", "content")  # seat 2 (14); the dealer (17)
    paid = [(e.seat, e.get("to"), e.get("amount")) for e in t.kinds("paid")]
    assert (0, 1, 4) in paid  # the 21 on a divided half: a drawn 21, double
    assert (0, 1, 2) in paid and (2, 0, 1) in paid


def test_a_natural_on_a_divided_half_is_a_drawn_21_and_does_not_put_the_dealer_out():
    t = hand(table(), "AS 5H 9H", (1, 1), "AH 9C 8D", keep=False)
    t.act("divide", "deal KC", "deal 2D")
    assert t.state.round.put_out is None
    assert not t.kinds("natural")


def test_the_dealer_who_over_draws_pays_only_those_still_standing():
    t = hand(table(), "TS 5H 9H", (2, 3), "6S 9C 6D")
    t.act("card", "deal KS")  # seat 1: 26, over-drawn, pays at once
    assert t.state.round.hands[1][0].status is Status.OVER
    t.act("content")  # seat 2 stands on 14
    t.act("card", "deal KH")  # the dealer: 25
    paid = [(e.seat, e.get("to"), e.get("amount")) for e in t.kinds("paid")]
    assert paid == [(1, 0, 2), (0, 2, 3)]
    assert balances(t) == (-1, -2, 3)


def test_ties_pay_the_dealer():
    t = hand(table(), "TS 9H 9D", (2, 3), "8S 8C 8D")
    t.act("content", "content", "content")  # 18, 17 against the dealer's 17
    paid = [(e.seat, e.get("to"), e.get("amount"), e.get("why")) for e in t.kinds("paid")]
    assert (0, 1, 2, "18 beats 17") in paid and (2, 0, 3, "a tie") in paid
    assert t.state.session.hands_won == (1, 1, 0)  # the dealer nets one, seat 1 two


def test_the_last_card_goes_to_the_pone_to_be_shuffled_with_the_used_cards():
    t = hand(table(), "TS 9H 9D", (1, 1), "8S 8C 8D")
    t.act("content", "content", "content")  # hand 1 ends: six cards to the pone
    s = t.state
    last = s.round.stock[0]
    t.state = replace(s, round=replace(s.round, stock=(last,)))
    used = t.state.round.used
    assert engine.legal_actions(t.state) == (Action(ActionKind.DEAL, (last,)),)
    events = engine.apply(t.state, Action(ActionKind.DEAL, (last,))).events
    t.state = engine.apply(t.state, Action(ActionKind.DEAL, (last,))).state
    renewed = [e for e in events if e.kind == "renewed"]
    assert [e.seat for e in renewed] == [2]  # the pone: the dealer's right
    assert t.state.round.stock == tuple(sorted((*used, last))) and t.state.round.used == ()
    assert renewed[0].visible_to is None and renewed[0].get("card") is None
    assert all(not h.cards for own in t.state.round.hands for h in own)  # nobody got it


def test_the_first_dealer_is_the_first_player_dealt_an_ace_face_up():
    t = Table(engine.new_game(find_ruleset("vingt-un"), 3, dealer=0))
    t.act("deal 5S 9H KD 7C AH")  # seats 1, 2, 0, 1, 2
    assert t.state.dealer == 2 and t.state.phase is Phase.FIRST
    assert [e.seat for e in t.kinds("turned")] == [1, 2, 0, 1, 2]


def _refused(t: Table, text: str, reason: IllegalReason) -> None:
    before = t.state
    with pytest.raises(IllegalActionError) as info:
        engine.apply(t.state, engine.parse_action(t.state, text))
    assert info.value.reason is reason
    assert t.state is before


def test_a_human_dealers_irregularities_are_refused():
    t = hand(table(), "TS 9H 9D", (1, 1), "5S 8C 8D", keep=False)
    _refused(t, "divide", IllegalReason.NOT_ALLOWED_BY_RULES)  # T and 5 do not pair
    t.act("decline", "decline", "card")
    _refused(t, "deal 2C 3C", IllegalReason.NOT_ALLOWED_BY_RULES)  # two cards at once
    t.act("deal 2C", "content", "content", "card")
    _refused(t, "deal 3C 4C", IllegalReason.NOT_ALLOWED_BY_RULES)  # the dealer's two cards
    t.act("deal 3C")
    assert t.decision.seat == 0


def test_stakes_outside_the_agreed_range_are_refused():
    t = table(min_stake=2, max_stake=3).act("deal 5S 5H 9H")
    assert t.legal() == ["stake 2", "stake 3"]
    _refused(t, "stake 4", IllegalReason.NOT_ALLOWED_BY_RULES)
    _refused(t, "stake 1", IllegalReason.NOT_ALLOWED_BY_RULES)
    _refused(t, "content", IllegalReason.WRONG_KIND)


def test_stake_notation_round_trips_its_amount():
    rules = find_ruleset("vingt-un")
    action = engine.parse_action(rules, "stake 3")
    assert action == Action(ActionKind.STAKE, amount=3) != Action(ActionKind.STAKE)
    assert engine.format_action(rules, action) == "stake 3"
    assert repr(Action(ActionKind.STAND)) == "Action(kind=<ActionKind.STAND: 'stand'>, cards=())"


def test_the_chance_of_a_natural_from_a_full_pack_is_32_in_663():
    odds = first_two_cards(find_ruleset("vingt-un"))
    assert odds["natural"] == Fraction(2 * 4 * 16, 52 * 51) == Fraction(32, 663)
    assert sum(odds["totals"].values()) == 1 and odds["pairs"] == 1326
    # 12: two aces (6 pairs), a two and a ten-card (4 x 16), 3-9, 4-8, 5-7 (16 each), 6-6 (6)
    assert odds["totals"][12] == Fraction(6 + 4 * 16 + 3 * 16 + 6, 1326)
    assert min(odds["totals"]) == 4 and max(odds["totals"]) == 21


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from commerce.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_commerce_odds_prints_the_first_two_cards_through_the_family_hook(capsys):
    code, out, _ = _cli(capsys, "odds", "--rules", "vingt-un", "--json")
    odds = json.loads(out)
    assert code == 0 and odds["total"] == 1326
    assert odds["counts"]["natural"] == 64 and odds["exact"]["natural"] == "32/663"
    assert sum(v for k, v in odds["counts"].items() if k != "natural") == 1326


def test_three_card_commands_refuse_vingt_un_with_one_line(capsys):
    code, out, err = _cli(capsys, "hand", "AS", "KS", "QS", "--rules", "vingt-un")
    assert code == 2 and not out
    assert err.startswith("commerce hand: error: ") and err.count("\n") == 1


def test_rules_diff_across_families_marks_the_options_one_side_does_not_read(capsys):
    code, out, _ = _cli(capsys, "rules", "diff", "vingt-un", "peel", "--json")
    rows = {r["name"]: r for r in json.loads(out)["differences"]}
    assert code == 0 and rows["ranking"]["vingt-un"] is None and rows["ranking"]["peel"]
    assert rows["min_stake"]["peel"] is None and rows["min_stake"]["vingt-un"] == 1


def test_the_dealers_hole_card_stays_hidden_until_every_hand_is_shown():
    t = hand(table(), "TS 9H 5D", (1, 1), "8S 8C 8D")
    t.act("content", "content", "card", "deal 2C")
    seen = engine.observe(t.state, 1).hands[0][0]
    assert seen.cards[:2] == (None, None) and seen.cards[2] is not None  # drawn: face up
    assert engine.observe(t.state, 0).hands[0][0].cards[:2] != (None, None)
    t.act("content")
    shown = [e for e in engine.observe(t.state, 1).last_hand if e.kind == "shown"]
    assert len(shown) == 1 and shown[0].get("hands")[0][0][:2] == tuple(
        engine.parse_action(t.state, "deal 5D 8D").cards)


def test_a_limited_deal_passes_after_its_hands_even_without_a_natural():
    t = hand(table(deal_limit="hands", deal_hands=1), "TS 9H 9D", (1, 1), "8S 8C 8D")
    t.act("content", "content", "content")
    assert t.state.dealer == 1 and t.state.session.deal_number == 2


def test_the_pool_is_fed_by_each_deal_the_dealers_over_draw_and_ties_and_goes_to_a_natural():
    t = table(pool_ante=1, pool_dealer_overdraw=2, pool_tie_share="third",
              natural_bonus="pool")
    assert t.state.session.pool == 3 and balances(t) == (-1, -1, -1)
    hand(t, "TS 9H 9D", (3, 3), "7S 8C 8D")  # 17, 17 against the dealer's 17: two ties
    t.act("content", "content", "content")
    assert t.state.session.pool == 3 + 1 + 1  # a third of each tie's three counters
    hand(t, "TC 5H 6D", (1, 1), "9S 9C 7D")
    t.act("content", "content", "card", "deal KD")  # the dealer over-draws: 23
    assert t.state.session.pool == 5 + 2
    hand(t, "AS 4H 6C", (1, 1), "JS 5C 7C")  # seat 1's natural takes the pool
    assert t.state.session.pool == 0
    assert [e.seat for e in t.kinds("pool_taken")] == [1]


def test_an_empty_stock_is_made_of_the_used_cards_when_a_card_is_asked_for():
    t = hand(table(), "TS 9H 9D", (1, 1), "5S 8C 8D")
    s = t.state
    rest = s.round.stock
    t.state = replace(s, round=replace(s.round, stock=(), used=rest))
    t.act("card")
    assert engine.legal_actions(t.state) and t.state.round.stock == rest
    assert t.kinds("renewed")[-1].seat == 2


def test_divided_pairs_are_dealt_their_second_cards_before_anyone_draws():
    """Peel, "Drawing": "The whole of the hands having been dealt--that is, two cards given to
    each player, and also to cases of divided pairs, the drawing of further cards commences.
    The dealer begins with the player on his left-hand side"."""
    t = table().act("deal 8S 9H 5D", "stake 1", "stake 2", "decline", "deal 8H 9C 7D")
    assert t.decision.seat == 1 and "divide" in t.legal() and "card" not in t.legal()
    t.act("divide", "deal 3C", "deal 2D")  # seat 1 (8-8): each half's second card
    assert t.decision.seat == 2 and "divide" in t.legal() and "card" not in t.legal()
    t.act("divide", "deal 4C", "deal 5S")  # seat 2 (9-9), before seat 1 has drawn
    assert not t.kinds("asked") and not t.kinds("drew")
    assert [e.seat for e in t.kinds("divided")] == [1, 2]
    assert [len(h.cards) for own in t.state.round.hands[1:] for h in own] == [2, 2, 2, 2]
    assert (t.decision.seat, t.state.current.part) == (1, 0)  # the drawing: the dealer's left
    assert t.legal() == ["content", "card"]


def test_every_player_is_asked_before_the_drawing_pair_or_not_and_the_dealer_never():
    t = hand(table(4), "8S 5H 9H 8D", (1, 1, 1), "8H 9C 9D 8C", keep=False)
    asked = []
    while t.state.phase is Phase.DIVIDE:
        asked.append((t.decision.seat, t.legal()))
        t.act("decline")
    # seat 1 holds 8-8, seat 2 5-9, seat 3 9-9; the dealer's 8-8 is never offered
    assert asked == [(1, ["divide", "decline"]), (2, ["decline"]), (3, ["divide", "decline"])]
    assert t.decision.seat == 1 and t.legal() == ["content", "card"]
    assert not t.kinds("divided")
    kept = [(e.seat, e.get("pair"), e.visible_to) for e in t.kinds("kept")]
    assert kept == [(1, True, {1}), (2, False, {2}), (3, True, {3})]  # each to himself alone


def test_a_pair_may_not_be_divided_once_the_drawing_has_begun():
    t = hand(table(), "8S 5H 9H", (1, 1), "8H 9C 8D")
    _refused(t, "divide", IllegalReason.NOT_ALLOWED_BY_RULES)
    t = hand(table(), "8S 5H 9H", (1, 1), "8H 9C 8D", keep=False)
    _refused(t, "card", IllegalReason.WRONG_KIND)  # nobody draws before the declarations


def test_version_1_divided_on_the_players_own_turn_and_its_records_replay_as_before():
    from pathlib import Path

    from commerce.family import older_version
    from commerce.record import GameRecord, replay

    rules = find_ruleset("vingt-un")
    assert rules.version == 2 and rules.divide_when == "before_drawing"
    old = older_version(rules, 1)
    assert old is not None and old.version == 1 and old.divide_when == "own_turn"
    for name in ("vingt-un-v1-4p-seed1.json", "vingt-un-v1-3p-divided.json"):
        record = GameRecord.load(Path(__file__).parent / "records" / name)
        assert record.rules.version == 1 and record.rules.divide_when == "own_turn"
        assert tuple(engine.outcome(replay(record)).payoffs) == record.payoffs
    assert record.actions.count("divide") == 2  # divided on the player's own turn


def test_the_encoding_says_when_the_players_are_dividing_their_pairs():
    from commerce.encoding import decode
    from commerce.family import family_spec

    enc = family_spec("vingtun").encoding
    assert enc is not None
    t = hand(table(), "8S 5H 9H", (1, 1), "8H 9C 8D", keep=False)
    rules = t.state.ruleset

    def flag() -> list[float]:
        return decode(enc, rules, 3, enc.encode(engine.observe(t.state, 2)))["dividing"]

    assert flag() == [1.0]
    t.act("decline", "decline")
    assert flag() == [0.0] and t.legal() == ["content", "card"]


def _privileges(t: Table) -> list[tuple[int, int, int]]:
    return [(e.seat, e.get("to"), e.get("amount")) for e in t.kinds("paid")
            if e.get("why") == "privilege of a natural"]


@pytest.mark.parametrize("stake,paid", [("staked", 3), ("doubled", 6)])
def test_a_naturals_privilege_after_the_double_is_paid_on_the_stake_or_the_doubled_one(
        stake, paid):
    t = hand(table(natural_bonus="stake_from_each", first_hand_natural_exception=False,
                   privilege_stake=stake), "AS 5H 9H", (3, 1), "KS 9C 8H", double=True)
    natural = [(e.seat, e.get("to"), e.get("amount")) for e in t.kinds("paid")
               if e.get("why") == "natural"]
    assert natural == [(0, 1, 12)]  # the dealer: double the doubled stake
    assert _privileges(t) == [(2, 1, paid)]


@pytest.mark.parametrize("rule,taken,left", [("first", [(1, 3)], 0),
                                             ("shared", [(1, 1), (2, 1)], 1)])
def test_the_pool_goes_to_the_first_natural_or_is_shared_between_naturals(rule, taken, left):
    t = table(natural_bonus="pool", first_hand_natural_exception=False, pool_ante=1,
              pool_naturals=rule)
    hand(t, "AS AH 9H", (1, 1), "KS KC 8H")
    assert [(e.seat, e.get("amount")) for e in t.kinds("pool_taken")] == taken
    assert t.state.session.pool == left + 3  # the dealer put out: the next deal's ante


def test_a_first_hand_natural_under_the_exception_earns_no_privilege():
    t = hand(table(natural_bonus="stake_from_each"), "AS 5H 9H", (2, 1), "KS 9C 8H")
    assert [e.get("first_hand") for e in t.kinds("natural")] == [True]
    assert not _privileges(t)
    t = hand(table(natural_bonus="pool", pool_ante=1), "AS 5H 9H", (2, 1), "KS 9C 8H")
    assert not t.kinds("pool_taken") and t.state.session.pool == 3


@pytest.mark.parametrize("reckoned,pooled", [("hand", 1), ("tie", 0)])
def test_the_pools_share_of_ties_is_reckoned_on_the_hands_receipts(reckoned, pooled):
    t = table(4, pool_tie_share="third", pool_tie_share_of=reckoned)
    hand(t, "TS TH TD TC", (1, 1, 1), "7S 7H 7D 7C")  # three 17s against the dealer's 17
    t.act("content", "content", "content", "content")
    assert [e.get("why") for e in t.kinds("paid")] == ["a tie"] * 3
    assert t.state.session.pool == pooled  # a third of three counters; of one, nothing


def test_every_vingt_un_option_names_its_source_or_reason():
    import dataclasses

    from commerce.families.vingtun.options import VingtUnOptions
    from commerce.family import older_version

    rules = find_ruleset("vingt-un")
    missing = [f.name for f in dataclasses.fields(VingtUnOptions)
               if not rules.option_source(f.name)]
    assert not missing
    assert "house rule" in rules.option_source("deal_hands")
    old = older_version(rules, 1)
    assert old is not None and old.pool_tie_share_of == "tie"


def test_the_table_asks_a_pair_to_divide_or_keep_and_tells_a_seat_without_one():
    from commerce.families.vingtun.present import action_label
    from commerce.families.vingtun.present import table as table_view

    t = hand(table(), "8S 5H 9H", (1, 1), "8H 9C 8D", keep=False)
    names = ["Ann", "Bob", "Cy"]
    obs = engine.observe(t.state, 1)
    assert "divide your pair" in table_view(obs, names).prompt
    labels = [action_label(a, obs) for a in engine.legal_actions(t.state)]
    assert labels == ["divide the pair", "keep the two cards as one hand"]
    assert "Bob to say whether to divide" in table_view(engine.observe(t.state, 2), names).prompt
    t.act("divide", "deal 3C", "deal 2D")
    assert "no pair" in table_view(engine.observe(t.state, 2), names).prompt
    assert table_view(engine.observe(t.state, 2), names).seats[1].note == \
        "divided, stake 1 on each hand"
