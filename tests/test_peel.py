"""Peel's new mode: scenarios from Peel's text (Round Games with Cards, pp. 70-76), dealt with
named cards, and the house rulings of docs/decisions.md."""

from __future__ import annotations

import random

import pytest

from commerce import engine
from commerce.cards import parse_cards
from commerce.core import Action, ActionKind, DecisionKind
from commerce.errors import IllegalActionError, IllegalReason
from commerce.families.trading.rules import TradingState
from commerce.rules import find_ruleset

PEEL = find_ruleset("peel")


def act(state: TradingState, text: str) -> TradingState:
    return engine.apply(state, engine.parse_action(state, text)).state


def dealt(hands: list[str], *, dealer: int = 0, rules=PEEL) -> TradingState:
    """A new deal with the given hands (seat order), dealt one card at a time from the eldest."""
    n = len(hands)
    state = engine.new_game(rules, n, dealer=dealer)
    parsed = [parse_cards(h) for h in hands]
    order = [(dealer + 1 + i) % n for i in range(n)]
    cards = [parsed[seat][k] for k in range(3) for seat in order]
    return engine.apply(state, Action(ActionKind.DEAL, tuple(cards))).state


def test_antes_dealer_puts_two_others_one():
    s = engine.new_game(PEEL, 4, dealer=2)
    assert s.pool == 5
    assert s.balances == (-1, -1, -2, -1)


def test_deal_goes_to_the_eldest_first_and_he_acts_first():
    s = dealt(["AS KS QS", "2H 2D 2C", "7C 8D 9H", "5S 6S 8S"], dealer=3)
    assert s.hands[0] == parse_cards("AS KS QS")
    d = engine.decision(s)
    assert d is not None and d.seat == 0 and d.kind is DecisionKind.TURN


def test_ready_money_card_to_bottom_stake_to_dealer_top_card_back():
    s = dealt(["2C 7D 9H", "2H 3D 5C", "4S 6S 8D"], dealer=0)
    assert engine.decision(s).seat == 1
    s = act(s, "trade 5C")
    assert s.bottom == parse_cards("5C")
    assert s.balances[1] == -1 - 1 and s.balances[0] == -2 + 1
    # chance now supplies the top card of the stock
    assert engine.decision(s).is_chance
    s = act(s, "deal AH")
    assert sorted(s.hands[1]) == sorted(parse_cards("2H 3D AH"))
    d = engine.decision(s)
    assert d.seat == 1 and d.kind is DecisionKind.AFTER_TRADE
    # only one card may be bought or bartered per turn
    with pytest.raises(IllegalActionError) as err:
        engine.apply(s, engine.parse_action(s, "trade 2H"))
    assert err.value.reason is IllegalReason.WRONG_KIND
    s = act(s, "done")
    assert engine.decision(s).seat == 2


def test_dealer_trades_with_the_stock_free():
    s = dealt(["2C 7D 9H", "2H 3D 5C", "4S 6S 8D"], dealer=0)
    s = act(act(s, "trade 5C"), "deal AH")
    s = act(s, "done")
    s = act(s, "trade 8D")  # seat 2
    s = act(act(s, "deal AC"), "done")
    assert engine.decision(s).seat == 0  # the dealer's turn
    before = s.balances
    s = act(act(s, "trade 2C"), "deal AD")
    assert s.balances == before and s.pool == 4


def test_barter_partner_gives_back_one_of_his_own_cards():
    s = dealt(["2C 7D 9H", "2H 3D 5C", "4S 6S 8D"], dealer=0)
    s = act(s, "barter 2H")  # seat 1 offers to his left neighbour, seat 2
    d = engine.decision(s)
    assert d.seat == 2 and d.kind is DecisionKind.BARTER_REPLY
    legal = [engine.format_action(s, a) for a in engine.legal_actions(s)]
    assert legal == ["stand", "give 4S", "give 6S", "give 8D"]  # not the offered 2H
    s = act(s, "give 8D")
    assert sorted(s.hands[1]) == sorted(parse_cards("8D 3D 5C"))
    assert sorted(s.hands[2]) == sorted(parse_cards("4S 6S 2H"))
    d = engine.decision(s)
    assert d.seat == 1 and d.kind is DecisionKind.AFTER_TRADE


def test_barter_partner_who_stands_ends_the_deal_and_keeps_his_hand():
    s = dealt(["2C 7D 9H", "2H 3D 5C", "AS AH AD"], dealer=0)
    s = act(s, "barter 2H")
    t = engine.apply(s, engine.parse_action(s, "stand"))
    showdown = next(e for e in t.events if e.kind == "showdown")
    assert showdown.seat == 2  # the partner is the stander
    assert showdown.get("hands")[2] == parse_cards("AS AH AD")
    assert showdown.get("hands")[1] == parse_cards("2H 3D 5C")
    assert showdown.get("winners") == (2,)


def test_settlement_best_hand_takes_pool_and_a_stake_from_the_dealer():
    # Seat 1 stands at once and is beaten by seat 2 (tricon) and seat 3 (sequence).
    s = dealt(["2C 7D 9H", "KH KD 5C", "4S 4H 4D", "7S 8S 9S"], dealer=0)
    t = engine.apply(s, engine.parse_action(s, "stand"))
    paid = [(e.seat, e.get("to"), e.get("amount"), e.get("why")) for e in t.events
            if e.kind == "paid"]
    assert (None, 2, 5, "pool") in paid
    assert (0, 2, 1, "from the dealer") in paid
    # a beaten stander pays one stake to each better hand
    assert (1, 2, 1, "beaten stander") in paid
    assert (1, 3, 1, "beaten stander") in paid
    assert not any(why == "beaten stander" and to == 0 for _, to, _, why in paid)
    st = t.state
    # after the first of four deals: antes -2/-1/-1/-1, then payments
    assert st.balances[0] == -2 - 1 - 1 + 0  # dealer: ante 2, paid winner 1, next deal ante 1
    assert sum(st.balances) + st.pool == 0


def test_dealer_who_wins_takes_the_pool_and_pays_nobody():
    s = dealt(["AS AH AD", "2C 7D 9H", "KH QD 5C"], dealer=0)
    t = engine.apply(s, engine.parse_action(s, "stand"))  # seat 1 stands, dealer wins
    paid = [(e.seat, e.get("to"), e.get("why")) for e in t.events if e.kind == "paid"]
    assert (None, 0, "pool") in paid
    assert not any(why == "from the dealer" for _, _, why in paid)
    assert (1, 0, "beaten stander") in paid


def test_stander_who_wins_pays_nothing():
    s = dealt(["2C 7D 9H", "AS AH AD", "KH QD 5C"], dealer=0)
    t = engine.apply(s, engine.parse_action(s, "stand"))
    assert not any(e.get("why") == "beaten stander" for e in t.events if e.kind == "paid")


def test_complete_tie_goes_to_the_eldest_dealer_last():
    # Seats 0 (dealer) and 2 hold identical ranks; seat 2 is earlier from the eldest.
    s = dealt(["QS JD 9C", "2C 3D 5H", "QH JC 9D"], dealer=0)
    t = engine.apply(s, engine.parse_action(s, "stand"))
    showdown = next(e for e in t.events if e.kind == "showdown")
    assert showdown.get("winners") == (2,)
    s = dealt(["2C 3D 5H", "QH JC 9D", "QS JD 9C"], dealer=0)  # seat 1 eldest wins the tie
    t = engine.apply(s, engine.parse_action(s, "stand"))
    assert next(e for e in t.events if e.kind == "showdown").get("winners") == (1,)


@pytest.mark.parametrize("equal_paid", [False, True])
def test_tie_beaten_stander_pays_only_hands_that_beat_him(equal_paid):
    # Seat 2 stands holding the same ranks as eldest seat 1: seat 1 wins the tie, but his hand
    # is not better, so seat 2 pays no one (version 1 of peel paid him).
    rules = PEEL.with_options(stander_pays_equal_hands=equal_paid)
    s = dealt(["2C 3D 5H", "QH JC 9D", "QS JD 9C"], dealer=0, rules=rules)
    s = act(act(s, "trade 9D"), "deal 9H")  # seat 1 keeps the same ranks
    s = act(s, "done")
    t = engine.apply(s, engine.parse_action(s, "stand"))  # seat 2 stands
    paid = [(e.seat, e.get("to")) for e in t.events if e.get("why") == "beaten stander"]
    assert paid == ([(2, 1)] if equal_paid else [])


def test_stand_after_own_trade_in_the_same_turn():
    s = dealt(["2C 7D 9H", "2H 3D 5C", "4S 6S 8D"], dealer=0)
    s = act(act(s, "trade 5C"), "deal 2S")
    t = engine.apply(s, engine.parse_action(s, "stand"))
    assert next(e for e in t.events if e.kind == "showdown").seat == 1


def test_traded_cards_come_back_up_when_the_unseen_stock_is_used():
    rules = PEEL.with_options(max_rounds_per_deal=0)
    s = dealt(["2C 7D 9H", "2H 3D 5C", "4S 6S 8D"], dealer=0, rules=rules)
    traded = []
    # Trade until the 43 unseen cards are gone; then the first traded card returns.
    while s.unseen:
        d = engine.decision(s)
        if d.kind is DecisionKind.TURN:
            card = min(s.hands[d.seat])
            traded.append(card)
            s = engine.apply(s, Action(ActionKind.TRADE, (card,))).state
        elif d.is_chance:
            s = engine.apply(s, Action(ActionKind.DEAL, (s.unseen[0],))).state
        else:
            s = act(s, "done")
    d = engine.decision(s)
    assert d.kind is DecisionKind.AFTER_TRADE
    s = act(s, "done")
    seat = engine.decision(s).seat
    give = min(s.hands[seat])
    t = engine.apply(s, Action(ActionKind.TRADE, (give,)))
    drew = next(e for e in t.events if e.kind == "drew")
    assert drew.get("card") == traded[0]  # the first card put under the stock


def test_round_limit_forces_a_showdown_without_stander_penalty():
    rules = PEEL.with_options(max_rounds_per_deal=1)
    s = dealt(["2C 7D 9H", "2H 3D 5C", "4S 6S 8D"], dealer=0, rules=rules)
    for seat in (1, 2, 0):
        card = min(s.hands[seat])
        s = engine.apply(s, Action(ActionKind.TRADE, (card,))).state
        s = engine.apply(s, Action(ActionKind.DEAL, (s.unseen[-1],))).state
        t = engine.apply(s, engine.parse_action(s, "done"))
        s = t.state
    kinds = [e.kind for e in t.events]
    assert "round_limit" in kinds and "showdown" in kinds
    assert not any(e.get("why") == "beaten stander" for e in t.events)


def test_deal_passes_left_and_session_ends_when_all_have_dealt():
    s = engine.new_game(PEEL, 3, dealer=1)
    dealers = []
    while engine.decision(s) is not None:
        d = engine.decision(s)
        if d.is_chance:
            s = engine.apply(s, engine.sample_chance(s, random.Random(0))).state
        else:
            if s.dealer not in dealers:
                dealers.append(s.dealer)
            s = engine.apply(s, Action(ActionKind.STAND)).state
    assert dealers == [1, 2, 0]
    assert engine.legal_actions(s) == ()
    result = engine.outcome(s)
    assert result is not None and sum(result.payoffs) == 0
    with pytest.raises(IllegalActionError) as err:
        engine.apply(s, Action(ActionKind.STAND))
    assert err.value.reason is IllegalReason.GAME_OVER


def test_illegal_actions_say_why():
    s = dealt(["2C 7D 9H", "2H 3D 5C", "4S 6S 8D"], dealer=0)
    cases = [
        ("trade AS", IllegalReason.CARD_NOT_HELD),
        ("give 2H", IllegalReason.WRONG_KIND),
        ("deal AS", IllegalReason.WRONG_KIND),
    ]
    for text, reason in cases:
        with pytest.raises(IllegalActionError) as err:
            engine.apply(s, engine.parse_action(s, text))
        assert err.value.reason is reason, text
    with pytest.raises(IllegalActionError) as err:
        engine.apply(s, Action(ActionKind.STAND), seat=2)
    assert err.value.reason is IllegalReason.NOT_YOUR_TURN


def test_hoyle_style_options_barter_cannot_be_refused():
    rules = PEEL.with_options(barter_partner_may_stand=False)
    s = dealt(["2C 7D 9H", "2H 3D 5C", "4S 6S 8D"], dealer=0, rules=rules)
    s = act(s, "barter 2H")
    assert all(a.kind is ActionKind.GIVE for a in engine.legal_actions(s))
    with pytest.raises(IllegalActionError) as err:
        engine.apply(s, Action(ActionKind.STAND))
    assert err.value.reason is IllegalReason.NOT_ALLOWED_BY_RULES


def test_32_card_pack_deals_from_seven_up():
    rules = PEEL.with_options(pack=32)
    assert rules.max_players == 7
    s = engine.new_game(rules, 7)
    assert len(s.unseen) == 32 and min(s.unseen) == parse_cards("7S")[0]
