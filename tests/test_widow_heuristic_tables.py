"""The compiled widow heuristic's table (:func:`_values`) and its blind exchange from the
table's sums, against the values the heuristic adds up, on random hands and widows.

The whole-game differential test (tests/test_widow_kernel.py) holds every choice equal to the
Python heuristic's; this one reaches widows of five, cards taken and moved in every
combination, and the error bound the sums' choice relies on.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from commerce.compiled import build_kernel
from commerce.families.widow.compiled_heuristic import (
    _CUBE,
    _HANDS,
    _MODEL_ERR,
    _beats,
    _blind_choice,
    _blind_estimate,
    _blind_value,
    _ranks,
    _slot,
)
from commerce.families.widow.compiled_rules import _DEALER, _NMOVED, _SWAPS, _WLEN
from commerce.families.widow.heuristic import hand_value
from commerce.rules import Ruleset, find_ruleset

RULESETS: tuple[tuple[str, dict[str, object]], ...] = (
    ("widow", {}),
    ("widow", {"widow_size": 5, "max_exchange_per_turn": 1}),
    ("pounce", {"pack": 32}),
    ("no-pair-or-point", {}),
)


def _rules(rid: str, options: dict[str, object]) -> Ruleset:
    return find_ruleset(rid).with_options(**options)


@pytest.mark.parametrize("rid,options", RULESETS, ids=[r for r, _ in RULESETS])
def test_the_table_holds_each_hands_worth_and_strength(rid: str,
                                                        options: dict[str, object]) -> None:
    rules = _rules(rid, options)
    kern = build_kernel(rules, 4)
    cards = [int(c) for c in kern.pack_cards]
    rng = random.Random(5)
    for _ in range(300):
        a, b, c = rng.sample(cards, 3)
        at = _slot(a, b, c)
        assert at == _slot(c, a, b) == _slot(b, c, a)
        assert kern.vtab[at] == hand_value(rules, (a, b, c), True)
        assert kern.vtab[_HANDS + at] == kern.strength[kern.rank3[a, b, c]]


@pytest.mark.parametrize("rid,options", RULESETS, ids=[r for r, _ in RULESETS])
def test_the_ranks_compare_hands_as_the_heuristic_does(rid: str,
                                                      options: dict[str, object]) -> None:
    """The turn choice compares ranks (:func:`rank_cubes`): a higher rank exactly where the
    heuristic's comparison with its margin prefers the hand, whatever the cards' order."""
    rules = _rules(rid, options)
    kern = build_kernel(rules, 4)
    cards = [int(c) for c in kern.pack_cards]
    rng = random.Random(8)
    hands = [tuple(rng.sample(cards, 3)) for _ in range(200)]
    worth = [hand_value(rules, h, True) for h in hands]
    strong = [float(kern.strength[kern.rank3[h]]) for h in hands]

    def rank(at: int, h: tuple[int, ...]) -> int:
        a, b, c = h
        return int(kern.rtab[at * _CUBE + a * 2704 + b * 52 + c])

    for h in hands:
        assert len({rank(0, q) for q in itertools.permutations(h)}) == 1
    for i, hi in enumerate(hands):
        for j in range(i + 1, i + 30):
            hj = hands[j % len(hands)]
            for at, values in ((0, worth), (1, strong)):
                vi, vj = values[i], values[j % len(hands)]
                assert (rank(at, hi) > rank(at, hj)) == (vi > vj + 1e-9), (hi, hj)
                assert (rank(at, hi) == rank(at, hj)) == (abs(vi - vj) <= 1e-9), (hi, hj)
    assert kern.rtab[0 * 2704 + 0 * 52 + 0] == -1  # not a hand


def test_values_too_close_to_tell_apart_do_not_rank() -> None:
    assert list(_ranks(np.array([0.5, 0.25, 0.5 + 1e-15, 0.75]))) == [1, 0, 1, 2]
    assert _ranks(np.array([0.5, 0.5 + 1.5e-9])) is None  # neither alike nor apart
    assert _ranks(np.array([0.5, 0.5 + 4e-10, 0.5 + 8e-10])) is None  # a chain too wide


def _blind_state(kern: object, rng: random.Random, n_taken: int) -> tuple[object, ...]:
    """A dealer's blind exchange with *n_taken* cards taken: the state arrays the kernel
    passes to :func:`_blind_choice`."""
    cfg = kern.cfg  # type: ignore[attr-defined]
    cards = [int(c) for c in kern.pack_cards]  # type: ignore[attr-defined]
    n_pack = len(cards)
    w = int(cfg[2])
    drawn = rng.sample(cards, w + n_taken)
    widow = np.zeros(n_pack + 1, np.int64)
    widow[:w] = sorted(drawn[:w])
    hands = np.zeros(16, np.int64)
    dealer = rng.randrange(4)
    hands[dealer * 4:dealer * 4 + n_taken] = drawn[w:]
    moved = np.zeros(8, np.int64)
    gave = rng.sample(drawn[:w], min(n_taken, w))  # the cards given, not to be taken back
    moved[:len(gave)] = gave
    st = np.zeros(32, np.int64)
    st[_DEALER], st[_SWAPS], st[_WLEN], st[_NMOVED] = dealer, n_taken, w, len(gave)
    return st, cfg, hands, widow, moved


@pytest.mark.parametrize("rid,options", RULESETS, ids=[r for r, _ in RULESETS])
def test_the_blind_choice_from_the_sums_is_the_one_added_up(rid: str,
                                                             options: dict[str, object]) -> None:
    kern = build_kernel(_rules(rid, options), 4)
    n_pack = kern.pack_cards.shape[0]
    rng = random.Random(11)
    takes, rest, buf = (np.zeros(n, np.int64) for n in (n_pack + 1, n_pack, 4))
    for trial in range(400):
        st, cfg, hands, widow, moved = _blind_state(kern, rng, trial % 3)
        exact = _blind_choice(st, cfg, hands, widow, moved, kern.pack_cards, kern.rank3,
                              kern.strength, takes, rest, buf)
        assert _blind_choice(st, cfg, hands, widow, moved, kern.pack_cards, kern.rank3,
                             kern.strength, takes, rest, buf, kern.vtab) == exact


@pytest.mark.parametrize("rid,options", RULESETS[:3], ids=[r for r, _ in RULESETS[:3]])
def test_a_value_from_the_sums_lies_within_its_error(rid: str,
                                                     options: dict[str, object]) -> None:
    kern = build_kernel(_rules(rid, options), 4)
    cards = [int(c) for c in kern.pack_cards]
    rng = random.Random(3)
    for _ in range(200):
        n_seen = rng.randrange(3, 9)  # the cards taken among them
        seen = np.array(rng.sample(cards, n_seen), np.int64)
        rest = np.array([c for c in cards if c not in set(seen.tolist())], np.int64)
        for k in (1, 2, 3):
            buf = np.array(list(seen[:k]) + [0] * (4 - k), np.int64)
            added = _blind_value(buf, k, rest, rest.shape[0], kern.rank3, kern.strength)
            value, err = _blind_estimate(buf, k, seen, n_seen, rest.shape[0], kern.rank3,
                                         kern.strength, kern.vtab)
            assert abs(value - added) <= err
            assert err == (0.0 if k == 3 else _MODEL_ERR)


def test_beats_answers_only_what_the_errors_allow() -> None:
    assert _beats(0.6, 0.0, 0.5, 0.0) == 1
    assert _beats(0.5, 0.0, 0.5, 0.0) == 0
    assert _beats(0.5 + 1e-9, _MODEL_ERR, 0.5, 0.0) == -1  # the sum may fall either side
    assert _beats(0.5 + 1e-9 + 3 * _MODEL_ERR, _MODEL_ERR, 0.5, _MODEL_ERR) == 1
    assert _beats(0.5 + 1e-9 - 3 * _MODEL_ERR, _MODEL_ERR, 0.5, _MODEL_ERR) == 0
