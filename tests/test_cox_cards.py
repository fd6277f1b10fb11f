"""The Cox pack and its notation."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commerce.errors import NotationError
from commerce.families.cox.cards import (
    BANK,
    CAPTAINS,
    GREENBACKS,
    canonical,
    face_card,
    face_of,
    format_cox_card,
    format_cox_cards,
    is_black,
    is_greenback,
    is_wild,
    kind_of,
    make_transport,
    pack,
    parse_cox_card,
    parse_cox_cards,
)


def test_pack_composition() -> None:
    cards = pack()
    assert len(cards) == 80 == len(set(cards))
    names = Counter(format_cox_card(c) for c in cards)
    for suit in "ASP":
        for number in range(1, 6):
            assert names[f"{suit}{number}"] == 4
    for name in ("AC", "SC", "PC", "BK"):
        assert names[name] == 1
    for suit in "FGIM":
        for number in range(1, 5):
            assert names[f"{suit}{number}"] == 1
    assert sum(1 for c in cards if c < 64) == 64  # suit cards, the Bank included
    assert sum(1 for c in cards if is_black(c)) == 63
    assert len({face_of(c) for c in cards}) == 35
    assert [format_cox_card(c) for c in CAPTAINS] == ["AC", "SC", "PC"]
    assert format_cox_card(BANK) == "BK" and all(is_greenback(c) for c in GREENBACKS)
    assert sum(1 for c in cards if is_wild(c)) == 4


def test_copies_share_face_and_kind() -> None:
    copies = [make_transport(1, 3, k) for k in range(4)]
    assert len(set(copies)) == 4
    assert {face_card(c) for c in copies} == {copies[0]}
    assert {kind_of(c) for c in copies} == {kind_of(copies[0])}
    grain = parse_cox_cards("G1 G2 G3 G4")
    assert len({kind_of(c) for c in grain}) == 1
    assert len({face_card(c) for c in grain}) == 4


def test_parse_distinct_copies_and_case() -> None:
    assert parse_cox_cards("A1 A1 A1") == (0, 1, 2)
    assert parse_cox_cards("a1, s5 pc bk m4") == (0, 36, 62, 63, 79)
    assert parse_cox_card(" sc ") == 61
    assert format_cox_cards(parse_cox_cards("p5 P5 i2")) == "P5 P5 I2"


@pytest.mark.parametrize("text", ["A6", "Z1", "F5", "M0", "A", "BANK", "10", "A1A1"])
def test_bad_token_named(text: str) -> None:
    with pytest.raises(NotationError, match=repr(text)):
        parse_cox_cards(f"A1 {text}")


def test_too_many_copies() -> None:
    with pytest.raises(NotationError, match="only 4"):
        parse_cox_cards("S2 S2 S2 S2 S2")
    with pytest.raises(NotationError, match="only 1"):
        parse_cox_cards("BK bk")


@given(st.lists(st.sampled_from(list(range(80))), max_size=30, unique=True))
def test_format_parse_round_trip(cards: list[int]) -> None:
    text = format_cox_cards(cards)
    assert parse_cox_cards(text) == canonical(cards)
    assert [face_card(c) for c in parse_cox_cards(text)] == [face_card(c) for c in cards]


@given(st.text(max_size=20))
def test_parser_raises_only_notation_error(text: str) -> None:
    try:
        cards = parse_cox_cards(text)
    except NotationError:
        return
    assert all(0 <= c < 80 for c in cards)
    assert len(set(cards)) == len(cards)
    assert parse_cox_cards(format_cox_cards(cards)) == cards
