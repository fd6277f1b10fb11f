"""Scoring in Cox's game: the booklet's table, its examples, and the house rulings."""

from __future__ import annotations

import pytest

from commerce.families.cox.cards import parse_cox_cards as cards
from commerce.families.cox.scoring import is_complete, score_holding


def score(text: str, base: int | None = 1, **options: object) -> int:
    return score_holding(cards(text), base, **options).score  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("holding", "points"),
    [
        ("A1 A1 A1", 3),            # three of a kind 1-4
        ("S4 S4 S4", 3),
        ("P5 P5 P5", 5),            # three 5s
        ("A2 A2 A2 A2", 5),         # four of a kind
        ("S5 S5 S5 S5", 10),        # four 5s
        ("F1 F3", 3),               # honour pair
        ("G1 G2 G4", 5),            # three of an honour suit
        ("I1 I2 I3 I4", 10),        # four of an honour suit
        ("M2", 3),                  # a Greenback
        ("M1", 6),                  # the Greenback of one's own base number (base 1)
        ("A3 A3", 0),               # a suit pair scores nothing
        ("F1 G1", 0),               # different honour suits never pair
        ("", 0),
    ],
)
def test_table(holding: str, points: int) -> None:
    assert score(holding) == points


def test_not_clear_penalty() -> None:
    # Honour cards never spoil a clear hand; black cards of two suits do.
    assert score_holding(cards("A1 A1 A1 G1 G2 M3"), 1).clear
    s = score_holding(cards("A1 A1 A1 S2"), 1)
    assert not s.clear and s.score == 3 - 5
    assert score("A1 S1") == -5  # "if he has no score he is given a minus 5 score"
    # A Captain is a black card of its suit.
    assert not score_holding(cards("A1 A1 A1 SC"), 1).clear


def test_captain_example() -> None:
    # "If you have two 4's of automobiles, you can buy the Captain of automobiles to make
    # three 4's"; the Captain stands only within its suit.
    assert score("A4 A4 AC") == 3
    assert score("A5 A5 AC") == 5
    assert score("A4 A4 SC") == -5  # the Ships Captain does nothing for Automobiles
    # The Captain joins the number where it scores most.
    s = score_holding(cards("A2 A2 A5 A5 AC"), 1)
    assert s.score == 5
    assert any(item.what == "three A5" and 60 in item.cards for item in s.breakdown)


def test_captain_as_fourth_is_an_option() -> None:
    assert score("A3 A3 A3 AC") == 3
    assert score("A3 A3 A3 AC", captain_can_be_fourth=True) == 5


def test_bank_example() -> None:
    # "if a player's hand is complete except for one card he can call the Banker's Card that
    # card which is needed and Sell Out. The player's score is counted using the Banker's card
    # in its substituted place and then his total score doubled."
    s = score_holding(cards("P1 P1 P1 P3 P3 P3 P4 BK"), 2)
    assert s.complete and s.clear
    assert s.score == (3 + 3) * 2
    # The Bank joins a pair to make a three where that scores most.
    assert score("P5 P5 BK") == 10
    assert score("G1 BK") == 6   # an honour pair, doubled
    assert score("BK") == 0


def test_bank_limits() -> None:
    # Not a fourth card, not with a Captain in the same three, never a Greenback.
    assert score("A2 A2 A2 BK") == 6
    assert score("A2 AC BK") == 0
    assert not is_complete(cards("A1 A1 A1 A2 A2 A2 AC BK"))
    assert score("M2 BK", base=1) == 6


def test_bank_doubles_net_after_penalty() -> None:
    # House ruling: the Bank doubles the net score, after the clear-hand penalty.
    s = score_holding(cards("A1 A1 A1 S2 S3 BK"), 1)
    assert not s.clear
    assert s.score == (3 - 5) * 2
    before = score_holding(cards("A1 A1 A1 S2 S3 BK"), 1, bank_double_order="before_penalty")
    assert before.score == 3 * 2 - 5
    assert sum(item.points for item in s.breakdown) == s.score
    assert sum(item.points for item in before.breakdown) == before.score


def test_bank_does_not_spoil_clear_hand() -> None:
    assert score_holding(cards("S1 S1 S1 BK"), 1).clear
    assert not score_holding(cards("S1 S1 S1 BK"), 1, bank_counts_for_clear_hand=True).clear


def test_complete_shapes() -> None:
    assert is_complete(cards("S1 S1 S1 S2 S2 S2 G1 G2"))              # 3 + 3 + honour pair
    assert is_complete(cards("S1 S1 S1 S1 S2 S2 S2 S3 S3"))            # 4 + 3 + 2 (nine cards)
    assert is_complete(cards("S1 S1 S1 S1 S2 S2 S2 S2 F1 F2"))         # 4 + 4 + 2 (ten cards)
    assert is_complete(cards("G1 G2 G3 I1 I2 I3 F1 F2 M1 M2"))         # Greenbacks extra
    assert not is_complete(cards("S1 S1 S1 S2 S2 S2 S3 S4"))           # no pair
    assert not is_complete(cards("S1 S1 S1 S2 S2 S3 S3 S4"))           # one combination
    assert not is_complete(cards("S1 S1 S1 S2 S2 S2 S3 S3 S4"))        # a card too many
    assert is_complete(cards("S1 S1 SC S2 S2 S2 S3 S3"))               # Captain completes a three
    assert is_complete(cards("S1 S1 S1 S2 S2 S2 S3 SC"))               # Captain pairs to sell out
    assert not is_complete(cards("S1 S1 S1 S2 S2 S2 A3 SC"))           # only within its suit
    assert is_complete(cards("S1 S1 S1 S2 S2 S2 A3 BK"))               # the Bank pairs anything


def test_waiting_hand_shape() -> None:
    # "only one card is needed to complete a hand ... usually contains only two cards (not
    # matched)": two threes out, S4 and G1 in the rack; a discarded S4 completes the pair.
    before = cards("S1 S1 S1 S2 S2 S2 S4 G1")
    assert not is_complete(before)
    assert is_complete(cards("S1 S1 S1 S2 S2 S2 S4 S4"))


def test_breakdown_adds_up() -> None:
    s = score_holding(cards("S2 S2 SC S4 S4 S4 F1 F2 M1 M3 BK"), 1)
    assert sum(item.points for item in s.breakdown) == s.score
    assert s.score == (3 + 3 + 5 + 6 + 3) * 2   # the Bank makes the Fruit pair a three
    assert s.to_dict()["breakdown"][0]["cards"]
