"""Batched evaluation (numpy) and the per-call rank_of agree with the reference classifier."""

from __future__ import annotations

from itertools import combinations, permutations

import numpy as np
import pytest

from commerce.batch import evaluate_batch, evaluate_packed, pack_hands, rank_table
from commerce.cards import pack, parse_cards
from commerce.errors import NotationError
from commerce.hands import evaluator_for, hand_key
from commerce.rules import Ruleset, find_ruleset

PEEL = find_ruleset("peel")
RULESETS = [
    PEEL,
    PEEL.with_options(ace_low_sequence=False, flush_compare="high_card"),
    PEEL.with_options(allow_wraparound=True, ace_low_sequence_rank="highest"),
    PEEL.with_options(pack=32, max_players=7),
    PEEL.with_options(ranking="suit_point", ace_low_sequence=False),
    PEEL.with_options(ranking="suit_point", void_rank="high_card", pack=32, max_players=7),
    PEEL.with_options(ranking="no_pair_or_point", pair_kicker=False),
    PEEL.with_options(four_of_a_kind=True, flush_compare="high_card"),
]
IDS = [f"r{i}" for i in range(len(RULESETS))]


def all_hands(rules: Ruleset) -> list[tuple[int, ...]]:
    return list(combinations(pack(rules.pack), 3))


def key_ranks(rules: Ruleset, hands: list[tuple[int, ...]]) -> list[int]:
    """Dense ranks computed here from hand_key alone (not from the Evaluator's tables)."""
    every = sorted({hand_key(h, rules) for h in all_hands(rules)})
    dense = {k: i for i, k in enumerate(every)}
    return [dense[hand_key(h, rules)] for h in hands]


@pytest.mark.parametrize("rules", RULESETS, ids=IDS)
def test_rank_of_matches_hand_key_on_every_hand(rules: Ruleset) -> None:
    hands = all_hands(rules)
    expected = key_ranks(rules, hands)
    ev = evaluator_for(rules)
    assert [ev.rank_of(h) for h in hands] == expected
    assert [ev.rank_of(h[::-1]) for h in hands] == expected
    assert [ev.rank_of(list(h)) for h in hands] == expected
    assert [ev.rank_table[c][a][b] for a, b, c in hands] == expected


@pytest.mark.parametrize("rules", RULESETS, ids=IDS)
def test_batch_matches_evaluator_on_every_hand(rules: Ruleset) -> None:
    hands = all_hands(rules)
    ev = evaluator_for(rules)
    expected = np.array([ev.rank_of(h) for h in hands], dtype=np.int16)
    assert len(set(expected.tolist())) == ev.level_count - (13 if rules.four_of_a_kind else 0)
    for order in permutations(range(3)):
        arr = np.array(hands, dtype=np.uint8)[:, list(order)]
        got = evaluate_batch(arr, rules)
        assert got.dtype == np.int16
        np.testing.assert_array_equal(got, expected)
        np.testing.assert_array_equal(evaluate_packed(pack_hands(arr), rules), expected)
    np.testing.assert_array_equal(evaluate_batch(np.array(hands, dtype=np.int64), rules),
                                  expected)


@pytest.mark.parametrize("rules", RULESETS, ids=IDS)
@pytest.mark.parametrize("n", [0, 1, 2, 1000, (1 << 17) + 3])
def test_batch_matches_evaluator_on_random_batches(rules: Ruleset, n: int) -> None:
    rng = np.random.default_rng(n)
    cards = np.array(pack(rules.pack), dtype=np.uint8)
    hands = np.array([rng.choice(cards, 3, replace=False) for _ in range(min(n, 3000))],
                     dtype=np.uint8).reshape(-1, 3)
    if n > len(hands):
        hands = hands[rng.integers(0, len(hands), n)]
    ev = evaluator_for(rules)
    expected = np.array([ev.rank_of(h) for h in hands.tolist()], dtype=np.int16)
    out = np.full(n, -7, dtype=np.int16)
    assert evaluate_batch(hands, rules, out=out) is out
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(evaluate_batch(hands, rules, check=False), expected)
    # A contiguous view that starts inside a larger array, and a non-contiguous one.
    if n > 2:
        np.testing.assert_array_equal(evaluate_batch(hands[1:-1], rules), expected[1:-1])
    wide = np.zeros((n, 5), dtype=np.uint8)
    wide[:, 1:4] = hands
    np.testing.assert_array_equal(evaluate_batch(wide[:, 1:4], rules), expected)


def test_rank_table_is_read_only_and_shared() -> None:
    table = rank_table(PEEL)
    assert table is rank_table(PEEL.with_options(max_players=5))
    assert not table.flags.writeable
    a, b, c = parse_cards("QD KD AD")
    assert table[a | b << 8 | c << 16] == evaluator_for(PEEL).rank_of((a, b, c))


@pytest.mark.parametrize(
    "bad",
    [[[0, 0, 1]], [[0, 1, 52]], [[52, 0, 1], [2, 3, 4]], [[2, 3, 4], [0, 1, 200]],
     [[-1, 2, 3]], [[5, 6, 7], [9, 9, 9]]],
)
def test_batch_refuses_non_hands(bad: list[list[int]]) -> None:
    with pytest.raises(NotationError):
        evaluate_batch(np.array(bad), PEEL)
    if min(min(row) for row in bad) >= 0 and max(max(row) for row in bad) < 256:
        with pytest.raises(NotationError):
            evaluate_batch(np.array(bad, dtype=np.uint8), PEEL)


def test_batch_refuses_cards_outside_the_short_pack() -> None:
    short = PEEL.with_options(pack=32, max_players=7)
    with pytest.raises(NotationError, match="32-card"):
        evaluate_batch(np.array([[20, 21, 22], [0, 1, 2]], dtype=np.uint8), short)
    with pytest.raises(NotationError):
        evaluate_packed(pack_hands(np.array([[0, 1, 2]])), short)
    with pytest.raises(NotationError):
        evaluate_packed(np.array([0x400000], dtype=np.uint32), PEEL)


@pytest.mark.parametrize("shape", [(3,), (2, 4), (1, 3, 1)])
def test_batch_refuses_bad_shapes(shape: tuple[int, ...]) -> None:
    with pytest.raises(NotationError):
        evaluate_batch(np.zeros(shape, dtype=np.uint8), PEEL)


def test_rank_of_refuses_non_hands() -> None:
    ev = evaluator_for(PEEL)
    for bad in [(0, 0, 1), (0, 1), (0, 1, 2, 3), (0, 1, 52), (-1, 2, 3), (0, 1, 200)]:
        with pytest.raises(NotationError):
            ev.rank_of(bad)
    short = evaluator_for(PEEL.with_options(pack=32, max_players=7))
    with pytest.raises(NotationError):
        short.rank_of((0, 1, 2))
    pounce = evaluator_for(PEEL.with_options(four_of_a_kind=True))
    nines = parse_cards("9C 9S 9D 9H")
    assert pounce.rank_of(nines) == pounce.level_count - 13 + 7
    assert pounce.rank_of(nines) > pounce.rank_of(parse_cards("AS AH AD"))
