"""The widow game with tokens (preset ``widow``): scenarios from CatsAtCards, EB1911 and the
decisions of docs/rulesets/widow.md, with named cards dealt."""

from __future__ import annotations

import pytest

from commerce import engine
from commerce.cards import parse_card, parse_cards
from commerce.core import DecisionKind
from commerce.errors import IllegalActionError, IllegalReason
from commerce.families.widow.observe import observe, render_observation
from commerce.families.widow.state import with_deal
from commerce.hands import Category, compare, evaluate
from commerce.rules import find_ruleset
from helpers import Table, start

WIDOW = find_ruleset("widow")
# Three players, dealer seat 0: the eldest is seat 1, then seat 2, the dealer last.
HANDS = {1: "AS 5S 2S", 2: "KH QH 9H", 0: "7C 8D 2H"}
WIDOW_CARDS = "4D 6C JS"


def cards(text: str) -> tuple[int, ...]:
    return parse_cards(text)


def widow(text: str) -> tuple[int, ...]:
    """The widow as the state keeps it, in card order."""
    return tuple(sorted(parse_cards(text)))


def test_catsatcards_ranking_no_ace_low_sequence_and_flush_by_high_card() -> None:
    # CatsAtCards: the lowest card of a sequence is a 2; flushes compare by the highest card.
    assert evaluate(cards("AS 2S 3S"), WIDOW).category is Category.FLUSH
    assert evaluate(cards("2S 3S 4S"), WIDOW).category is Category.SEQUENCE
    assert compare(cards("AS 5S 2S"), cards("KH QH 9H"), WIDOW).winner == "a"
    assert compare(cards("QD KD AD"), cards("JH QH KH"), WIDOW).winner == "a"


def test_dealer_exchanges_blind_before_looking() -> None:
    t = Table(start(WIDOW, 3, HANDS, WIDOW_CARDS))
    assert t.decision.seat == 0 and t.decision.kind is DecisionKind.BLIND_EXCHANGE
    assert observe(t.state, 0).hand == ()  # he has not looked
    assert observe(t.state, 0).hands[0] == ()
    assert not [e for e in observe(t.state, 0).events if e.kind == "dealt"]
    assert t.legal() == ["pass", "exchange 4D", "exchange 6C", "exchange JS"]
    t.act("exchange JS")  # his first card (7C) goes face up in its place
    assert t.state.widow == widow("4D 6C 7C")
    assert observe(t.state, 0).hand == cards("JS")  # only the card he took is known
    assert t.decision.kind is DecisionKind.BLIND_EXCHANGE
    assert t.legal() == ["done", "exchange 4D", "exchange 6C"]  # not 7C back
    t.act("done")
    assert t.decision.seat == 1 and t.decision.kind is DecisionKind.TURN
    assert set(observe(t.state, 0).hand) == set(cards("JS 8D 2H"))
    # his unseen cards were dealt to nobody's view; on looking he is told the two he kept
    assert not [e for e in observe(t.state, 0).events if e.kind == "dealt"]
    looked = [e for e in observe(t.state, 0).events if e.kind == "looked"]
    assert len(looked) == 1 and set(looked[0].get("cards")) == set(cards("8D 2H"))
    blind = t.kinds("blind_exchanged")[0]
    assert blind.visible_to is None and blind.get("gave") == cards("7C")


def test_blind_exchange_of_all_three_locks_the_dealer() -> None:
    t = Table(start(WIDOW, 3, HANDS, WIDOW_CARDS))
    t.act("exchange JS", "exchange 6C", "exchange 4D")
    assert set(t.state.hands[0]) == set(cards("JS 6C 4D"))
    assert 0 in observe(t.state, 1).locked
    t.act("pass", "pass")  # seats 1 and 2 pass and are locked out: nobody may exchange
    assert t.kinds("showdown")


def test_knock_then_one_final_turn_each_and_best_takes_a_token_from_lowest() -> None:
    t = Table(start(WIDOW, 3, HANDS, WIDOW_CARDS))
    t.act("exchange JS", "done")  # dealer: JS 8D 2H
    assert "knock" in t.legal()
    t.act("knock")  # seat 1 knocks
    assert t.decision.seat == 2 and t.decision.kind is DecisionKind.FINAL_TURN
    assert "knock" not in t.legal()
    t.act("pass")
    assert t.decision.seat == 0 and t.decision.kind is DecisionKind.FINAL_TURN
    t.act("exchange 2H for 4D")
    assert t.decision.kind is DecisionKind.MORE_EXCHANGE
    t.act("done")
    show = t.kinds("showdown")[0]
    assert show.get("winners") == (1,)  # A-5-2 flush beats K-Q-9 flush by the highest card
    assert t.state.tokens == (2, 4, 3)  # seat 0 (point 22) was lowest
    assert [e.seat for e in t.kinds("token_moved")] == [0]
    assert t.state.session.deal_number == 2  # the next deal has begun
    assert t.state.dealer == 1


def test_flush_by_points_option_changes_the_winner() -> None:
    t = Table(start(WIDOW, 3, HANDS, WIDOW_CARDS, flush_compare="points"))
    t.act("pass", "pass", "pass", "pass")  # dealer declines the blind exchange; all pass
    assert t.kinds("showdown")[0].get("winners") == (2,)


def test_exchanges_of_one_to_three_cards_and_all_three_lock() -> None:
    t = Table(start(WIDOW, 3, HANDS, WIDOW_CARDS))
    t.act("pass")  # no blind exchange
    t.act("exchange 2S for 4D")
    assert t.decision.seat == 1 and t.decision.kind is DecisionKind.MORE_EXCHANGE
    legal = t.legal()
    assert legal[0] == "done"
    assert "exchange 4D for 2S" not in legal and not any(a.startswith("exchange 4D") for a in legal)
    assert not any(a.endswith("for 2S") for a in legal)
    with pytest.raises(IllegalActionError) as info:
        t.act("exchange 4D for 2S")
    assert info.value.reason is IllegalReason.NOT_ALLOWED_BY_RULES
    t.act("exchange 5S for 6C", "exchange AS for JS")  # three cards exchanged: turn over
    assert t.decision.seat == 2
    assert 1 in observe(t.state, 2).locked
    assert t.state.widow == widow("5S 2S AS")
    t.act("pass")  # seat 2 is locked out by passing
    t.act("exchange 2H for AS", "done")  # dealer
    # Round 2 begins: a card from the stock is added to the widow; only the dealer may act.
    assert engine.decision(t.state).is_chance
    t.act("deal 3C")
    assert t.state.widow == widow("2S 3C 5S 2H")
    assert t.decision.seat == 0 and t.state.turn.round == 2
    assert [e.get("round") for e in t.kinds("round_started")] == [2]


def test_passing_locks_a_player_out_for_the_deal() -> None:
    t = Table(start(WIDOW, 3, HANDS, WIDOW_CARDS))
    t.act("pass", "pass")  # blind declined; seat 1 passes
    t.act("exchange KH for 4D", "done")  # seat 2
    t.act("exchange 7C for 6C", "done")  # dealer
    t.act("deal 3C")  # round 2: seat 1 is skipped
    assert t.decision.seat == 2
    assert observe(t.state, 0).passed == (1,)


def test_ties_for_lowest_all_lose_a_token() -> None:
    hands = {1: "AS AH AD", 2: "2S 3H 5D", 3: "2H 3D 5C", 0: "9S 9H 4C"}
    t = Table(start(WIDOW, 4, hands, "KC QD 8S"))
    t.act("pass", "pass", "pass", "pass", "pass")
    assert t.state.tokens == (3, 5, 2, 2)
    assert sorted(e.seat for e in t.kinds("token_moved")) == [2, 3]


def test_latest_in_rotation_option_for_ties_for_lowest() -> None:
    hands = {1: "AS AH AD", 2: "2S 3H 5D", 3: "2H 3D 5C", 0: "9S 9H 4C"}
    t = Table(start(WIDOW, 4, hands, "KC QD 8S", worst_tie_rule="latest_in_rotation_loses"))
    t.act("pass", "pass", "pass", "pass", "pass")
    assert t.state.tokens == (3, 4, 3, 2)


def test_out_of_tokens_out_of_the_game_and_the_game_ends_with_one_left() -> None:
    t = Table(start(WIDOW, 3, {1: "AS AH AD", 2: "2S 3H 5D", 0: "9S 9H 4C"}, "KC QD 8S",
                    starting_tokens=1))
    t.act("pass", "pass", "pass", "pass")
    assert t.state.session.out_in == (0, 0, 1)
    assert t.state.dealer == 1 and t.state.deal.order == (0, 1)  # seat 2 is dealt no cards
    t.deal({0: "KS KH KD", 1: "3S 4H 6D"}, "2C 7C 9C")
    t.act("pass", "pass", "pass")  # dealer 1 declines the blind exchange; both pass
    assert t.state.tokens == (2, 1, 0) and engine.outcome(t.state) is None
    assert t.state.dealer == 0 and t.state.deal.order == (1, 0)  # the deal skips seat 2
    t.deal({1: "3S 4H 6D", 0: "KS KH KD"}, "2C 7C 9C")
    t.act("pass", "pass", "pass")
    result = engine.outcome(t.state)
    assert result is not None
    assert result.payoffs == (2, -1, -1) and sum(result.payoffs) == 0
    assert result.details["tokens"] == (3, 0, 0)
    assert result.details["out_in"] == (None, 3, 1)
    assert result.reason == "one player is left in the game"
    assert engine.legal_actions(t.state) == ()


def test_deals_option_caps_the_session() -> None:
    t = Table(start(WIDOW, 3, HANDS, WIDOW_CARDS, deals=1))
    t.act("pass", "pass", "pass", "pass")
    result = engine.outcome(t.state)
    assert result is not None and result.reason == "1 deals have been played"
    assert result.payoffs == (-1, 1, 0)  # A-5-2 flush best; seat 0's point lowest
    assert result.details["tokens"] == (2, 4, 3)


def test_observation_shows_the_widow_tokens_and_locks_but_not_hidden_cards() -> None:
    t = Table(start(WIDOW, 3, HANDS, WIDOW_CARDS))
    t.act("pass", "knock")
    obs = observe(t.state, 2)
    assert obs.widow == widow(WIDOW_CARDS)
    assert obs.hand == cards(HANDS[2])
    assert obs.hands[1] is None and obs.hands[0] is None
    assert obs.knocker == 1 and obs.stood == (1,) and obs.final_turns
    assert obs.tokens == (3, 3, 3)
    text = render_observation(obs)
    assert "knocked" in text and "KH QH 9H" in text and "AS" not in text.split("widow")[0]
    assert obs.to_dict()["widow"] == ["4D", "6C", "JS"]


def test_illegal_actions_are_refused_with_reasons() -> None:
    t = Table(start(WIDOW, 3, HANDS, WIDOW_CARDS))
    with pytest.raises(IllegalActionError) as info:
        t.act("knock")  # the dealer's blind exchange comes first
    assert info.value.reason is IllegalReason.WRONG_KIND
    t.act("pass")
    with pytest.raises(IllegalActionError) as info:
        t.act("exchange KH for 4D")  # seat 1 does not hold KH
    assert info.value.reason is IllegalReason.CARD_NOT_HELD
    with pytest.raises(IllegalActionError) as info:
        t.act("exchange AS for KH")  # KH is not in the widow
    assert info.value.reason is IllegalReason.CARD_NOT_AVAILABLE
    with pytest.raises(IllegalActionError) as info:
        engine.apply(t.state, engine.parse_action(t.state, "pass"), seat=2)
    assert info.value.reason is IllegalReason.NOT_YOUR_TURN
    with pytest.raises(IllegalActionError) as info:
        t.act("stand")
    assert info.value.reason is IllegalReason.NOT_ALLOWED_BY_RULES
    assert parse_card("AS") in t.state.hands[1]


def test_the_blind_dealer_sees_nothing_of_his_own_cards() -> None:
    t = Table(start(WIDOW, 3, HANDS, WIDOW_CARDS))
    t.act("exchange JS")  # one known card; the other two are still unseen by him
    before = observe(t.state, 0)
    s = t.state
    hands = list(s.hands)
    unseen = list(s.unseen)
    hands[0] = (hands[0][0], unseen[0], unseen[1])  # swap his unseen cards for stock cards
    twin = with_deal(s, hands=tuple(hands),
                     stock=tuple(sorted(unseen[2:] + list(s.hands[0][1:]))))
    assert observe(twin, 0) == before
