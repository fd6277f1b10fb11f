"""Hand evaluation against docs/counts.md (exact counts and cases worked by hand).

Every expected number below is copied from that page, whose counts come from a full
enumeration made apart from the evaluator; none is read back from the code under test.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commerce.cards import (
    PIPS,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    format_card,
    format_cards,
    pack,
    parse_card,
    parse_cards,
)
from commerce.errors import NotationError
from commerce.hands import Category, compare, evaluate, evaluator_for, hand_key
from commerce.rules import Ruleset, find_ruleset

PEEL = find_ruleset("peel")
CATS = PEEL.with_options(ace_low_sequence=False, flush_compare="high_card")
WRAP = PEEL.with_options(allow_wraparound=True)
PEEL32 = PEEL.with_options(pack=32, max_players=7)
CATS32 = CATS.with_options(pack=32, max_players=7)
NPP = CATS.with_options(ranking="no_pair_or_point")
NPP32 = NPP.with_options(pack=32, max_players=7)
TB = PEEL.with_options(ranking="suit_point", ace_low_sequence=False)
TB_ACE_LOW = PEEL.with_options(ranking="suit_point", ace_low_sequence=True)
TB32 = TB.with_options(pack=32, max_players=7)
POUNCE = CATS.with_options(four_of_a_kind=True)

T, S, F, P, PT, N = (Category.TRICON, Category.SEQUENCE, Category.FLUSH, Category.PAIR,
                     Category.POINT, Category.NONE)


def category_counts(rules: Ruleset) -> Counter[Category]:
    return Counter(evaluate(h, rules).category for h in combinations(pack(rules.pack), 3))


def h(text: str) -> tuple[int, ...]:
    return parse_cards(text)


# -- 3.1 five-category scheme ----------------------------------------------------------------

@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        (PEEL, {T: 52, S: 48, F: 1096, P: 3744, PT: 17160}),
        (CATS, {T: 52, S: 44, F: 1100, P: 3744, PT: 17160}),
        (PEEL.with_options(ace_low_sequence=False), {T: 52, S: 44, F: 1100, P: 3744, PT: 17160}),
        (PEEL.with_options(ace_low_sequence_rank="highest"),
         {T: 52, S: 48, F: 1096, P: 3744, PT: 17160}),
        (WRAP, {T: 52, S: 52, F: 1092, P: 3744, PT: 17160}),
        (PEEL32, {T: 32, S: 24, F: 200, P: 1344, PT: 3360}),
        (CATS32, {T: 32, S: 24, F: 200, P: 1344, PT: 3360}),
        (PEEL32.with_options(allow_wraparound=True), {T: 32, S: 24, F: 200, P: 1344, PT: 3360}),
    ],
    ids=["peel", "cats", "no-ace-low", "ace-low-highest", "wraparound", "peel32", "cats32",
         "wrap32"],
)
def test_five_category_counts(rules: Ruleset, expected: dict[Category, int]) -> None:
    counts = category_counts(rules)
    assert counts == Counter(expected)
    assert sum(counts.values()) == (22100 if rules.pack == 52 else 4960)


def test_peel_probabilities() -> None:
    counts = category_counts(PEEL)
    percent = {c: round(100 * n / 22100, 4) for c, n in counts.items()}
    assert percent == {T: 0.2353, S: 0.2172, F: 4.9593, P: 16.9412, PT: 77.6471}


def test_point_includes_mixed_suit_runs() -> None:
    def runs(rules: Ruleset) -> int:
        n = 0
        for hand in combinations(pack(52), 3):
            r = sorted(c >> 2 for c in hand)
            window = r[2] - r[0] == 2 and r[1] - r[0] == 1 or r == [0, 1, 12]
            if window and evaluate(hand, rules).category is PT:
                n += 1
        return n

    # 60 suit patterns per rank window; the A-2-3 window is counted in both conventions.
    assert runs(PEEL) == runs(CATS) == 720


@pytest.mark.parametrize(
    ("rules", "qualifying", "void"),
    [(NPP, 1196, 20904), (NPP.with_options(ace_low_sequence=True), 1196, 20904),
     (NPP.with_options(allow_wraparound=True), 1196, 20904), (NPP32, 256, 4704)],
)
def test_no_pair_or_point(rules: Ruleset, qualifying: int, void: int) -> None:
    counts = category_counts(rules)
    assert counts[N] == void
    assert counts[T] + counts[S] + counts[F] == qualifying
    assert counts[P] == counts[PT] == 0
    # Under 'void' every hand without a combination ties; under 'high_card' they rank.
    ev = evaluator_for(rules)
    assert sum(1 for c in ev.categories if c is N) == 1
    high = evaluator_for(rules.with_options(void_rank="high_card"))
    assert sum(1 for c in high.categories if c is N) > 1


@pytest.mark.parametrize(
    ("rules", "levels", "tied_pairs"),
    [(PEEL, 741, 551_070), (CATS.with_options(ace_low_sequence=True), 741, 551_070),
     (PEEL32, 176, 114_960), (CATS32, 176, 114_960)],
)
def test_distinct_levels_and_ties(rules: Ruleset, levels: int, tied_pairs: int) -> None:
    ev = evaluator_for(rules)
    assert ev.level_count == levels
    sizes = Counter(ev.sorted_ranks.values())
    assert sum(n * (n - 1) // 2 for n in sizes.values()) == tied_pairs
    assert sum(sizes.values()) == (22100 if rules.pack == 52 else 4960)


def _flush_rank_sets() -> list[tuple[int, ...]]:
    """One spade flush (not a sequence under Peel) per rank-set, as cards."""
    out = []
    for ranks in combinations(range(13), 3):
        if ranks[2] - ranks[0] == 2 or ranks == (0, 1, 12):
            continue
        out.append(tuple(r * 4 for r in ranks))
    return out


def test_flush_orders_disagree_on_7670_pairs() -> None:
    sets = _flush_rank_sets()
    assert len(sets) == 274
    by_points = evaluator_for(PEEL).sorted_ranks
    by_high = evaluator_for(PEEL.with_options(flush_compare="high_card")).sorted_ranks
    disagree = equal_totals = 0
    pairs = 0
    for a, b in combinations(sets, 2):
        pairs += 1
        pa, pb = by_points[a], by_points[b]
        ha, hb = by_high[a], by_high[b]
        assert pa != pb and ha != hb
        if (pa > pb) != (ha > hb):
            disagree += 1
        if sum(PIPS[c] for c in a) == sum(PIPS[c] for c in b):
            equal_totals += 1
            # decision #4: equal totals fall back to the highest differing card.
            assert (pa > pb) == (ha > hb)
    assert pairs == 37_401
    assert disagree == 7_670
    assert equal_totals == 2_189


# -- 3.2 suit-point scheme ---------------------------------------------------------------------

@pytest.mark.parametrize(
    ("rules", "expected"),
    [(TB_ACE_LOW, (52, 48, 1096, 12168, 8736)), (TB, (52, 44, 1100, 12168, 8736)),
     (TB32, (32, 24, 200, 2688, 2016))],
)
def test_suit_point_counts(rules: Ruleset, expected: tuple[int, ...]) -> None:
    classes: Counter[str] = Counter()
    for hand in combinations(pack(rules.pack), 3):
        v = evaluate(hand, rules)
        if v.category is PT:
            classes[f"point{v.key[2]}"] += 1
        else:
            classes[v.category.value] += 1
    got = (classes["tricon"], classes["sequence"], classes["point3"], classes["point2"],
           classes["none"])
    assert got == expected
    assert sum(classes.values()) == sum(expected)


def test_suit_point_ranges() -> None:
    two = {evaluate(h_, TB).key[1] for h_ in combinations(pack(52), 3)
           if evaluate(h_, TB).key[0] == 1 and evaluate(h_, TB).key[2] == 2}
    three = {evaluate(h_, TB).key[1] for h_ in combinations(pack(52), 3)
             if evaluate(h_, TB).key[0] == 1 and evaluate(h_, TB).key[2] == 3}
    assert (min(two), max(two)) == (5, 21)
    assert (min(three), max(three)) == (10, 31)
    two32 = {evaluate(h_, TB32).key[1] for h_ in combinations(pack(32), 3)
             if evaluate(h_, TB32).category is PT and evaluate(h_, TB32).key[2] == 2}
    assert (min(two32), max(two32)) == (15, 21)


# -- 3.3 pip totals ----------------------------------------------------------------------------

POINT_DIST = {9: 60, 10: 60, 11: 120, 12: 180, 13: 240, 14: 300, 15: 600, 16: 660, 17: 900,
              18: 960, 19: 1140, 20: 1140, 21: 1320, 22: 1440, 23: 1560, 24: 1320, 25: 1200,
              26: 960, 27: 900, 28: 660, 29: 600, 30: 480, 31: 360}
FLUSH_DIST = {10: 4, 11: 8, 12: 8, 13: 16, 14: 20, 15: 36, 16: 40, 17: 60, 18: 60, 19: 76,
              20: 76, 21: 84, 22: 96, 23: 104, 24: 84, 25: 80, 26: 64, 27: 56, 28: 44, 29: 36,
              30: 24, 31: 20}


def pip_distribution(rules: Ruleset, category: Category) -> Counter[int]:
    out: Counter[int] = Counter()
    for hand in combinations(pack(rules.pack), 3):
        v = evaluate(hand, rules)
        if v.category is category:
            out[v.points] += 1
    return out


def test_point_pip_distribution() -> None:
    assert pip_distribution(PEEL, PT) == Counter(POINT_DIST)
    assert sum(POINT_DIST.values()) == 17160


def test_flush_pip_distribution() -> None:
    assert pip_distribution(PEEL, F) == Counter(FLUSH_DIST)
    assert sum(FLUSH_DIST.values()) == 1096


def test_32_card_pip_ranges() -> None:
    point = pip_distribution(PEEL32, PT)
    flush = pip_distribution(PEEL32, F)
    assert (min(point), max(point)) == (24, 31)
    assert (min(flush), max(flush)) == (25, 31)


def test_point_ties_about_six_percent() -> None:
    dist = POINT_DIST
    n = sum(dist.values())
    measured = pip_distribution(PEEL, PT)
    p_equal = sum(k * k for k in measured.values()) / (n * n)
    assert round(p_equal, 3) == 0.060


# -- 3.5 fixed cases -----------------------------------------------------------------------------

def test_ace_low_sequence() -> None:
    assert evaluate(h("AS 2S 3S"), PEEL).category is S
    assert evaluate(h("AS 2S 3S"), CATS).category is F
    assert compare(h("AS 2S 3S"), h("2H 3H 4H"), PEEL).winner == "b"
    assert compare(h("AS 2S 3S"), h("2H 3H 4H"), CATS).winner == "b"
    highest = PEEL.with_options(ace_low_sequence_rank="highest")
    assert compare(h("AS 2S 3S"), h("QH KH AH"), highest).winner == "a"


@pytest.mark.parametrize("rules", [PEEL, CATS, PEEL.with_options(ace_low_sequence=False),
                                   POUNCE])
def test_king_ace_two_is_a_flush(rules: Ruleset) -> None:
    assert evaluate(h("KC AC 2C"), rules).category is F
    assert evaluate(h("KC AC 2C"), rules.with_options(allow_wraparound=True)).category is S


@pytest.mark.parametrize("rules", [PEEL, CATS, WRAP, TB, TB_ACE_LOW, NPP, POUNCE])
def test_top_sequence_beats_next(rules: Ruleset) -> None:
    result = compare(h("QD KD AD"), h("JH QH KH"), rules)
    assert result.winner == "a"
    assert compare(h("JH QH KH"), h("QD KD AD"), rules).winner == "b"


def test_flush_compare_points_vs_high_card() -> None:
    a, b = h("AS 5S 2S"), h("KH QH 9H")
    assert evaluate(a, PEEL).points == 18 and evaluate(b, PEEL).points == 29
    assert compare(a, b, PEEL).winner == "b"
    assert compare(a, b, CATS).winner == "a"
    assert compare(a, b, PEEL.with_options(flush_compare="high_card")).winner == "a"


def test_equal_flush_totals_secondary_rule() -> None:
    result = compare(h("KH QH 9H"), h("KS JS 9S"), PEEL)
    assert result.a.points == result.b.points == 29
    assert result.winner == "a"
    assert "Q" in result.reason


def test_point_secondary_rule() -> None:
    assert compare(h("AC KD QH"), h("AS KC JD"), PEEL).winner == "a"
    assert compare(h("AC KD QH"), h("KS QD JC"), PEEL).winner == "a"
    assert evaluate(h("AS KC JD"), PEEL).points == 31
    assert evaluate(h("KS QD JC"), PEEL).points == 30


def test_pairs() -> None:
    assert compare(h("8S 8H KD"), h("8D 8C QS"), PEEL).winner == "a"
    assert compare(h("8S 8H 2D"), h("7D 7C AS"), PEEL).winner == "a"
    no_kicker = PEEL.with_options(pair_kicker=False)
    assert compare(h("8S 8H KD"), h("8D 8C QS"), no_kicker).winner == "tie"


def test_suit_point_cases() -> None:
    assert compare(h("KH QH 2H"), h("AS KS 5D"), TB).winner == "a"
    assert evaluate(h("KH QH 2H"), TB).key[1:] == (22, 3)
    assert evaluate(h("AS KS 5D"), TB).key[1:] == (21, 2)
    assert compare(h("KH QH 3C"), h("TD 8D 2D"), TB).winner == "b"
    assert evaluate(h("KH QH 3C"), TB).key[1:] == (20, 2)
    assert evaluate(h("TD 8D 2D"), TB).key[1:] == (20, 3)


def test_pounce_four_of_a_kind() -> None:
    four = h("9S 9H 9D 9C")
    aces = h("AS AH AD")
    result = compare(four, aces, POUNCE)
    assert result.winner == "a"
    assert result.a.category is Category.FOUR
    assert hand_key(four, POUNCE)[0] > hand_key(aces, POUNCE)[0]
    with pytest.raises(NotationError):
        evaluate(four, CATS)
    with pytest.raises(NotationError):
        hand_key(h("9S 9H 9D 8C"), POUNCE)


def test_bad_hands_are_refused() -> None:
    for bad in ("AS KS", "AS KS QS JS", "AS AS KS"):
        with pytest.raises(NotationError):
            evaluate(h(bad), PEEL)
    with pytest.raises(NotationError):
        evaluate(h("2S 3S 4S"), PEEL32)
    with pytest.raises(NotationError):
        compare(h("AS KS QS"), h("AS 2H 3D"), PEEL)


@pytest.mark.parametrize("bad", [(52, 53, 54), (-1, 0, 1), (0, 1, 60)])
def test_out_of_range_cards_are_notation_errors(bad: tuple[int, ...]) -> None:
    with pytest.raises(NotationError):
        hand_key(bad, PEEL)
    with pytest.raises(NotationError):
        evaluate(bad, PEEL)


def test_four_copies_of_one_card_are_not_four_of_a_kind() -> None:
    with pytest.raises(NotationError):
        hand_key((0, 0, 0, 0), POUNCE)
    with pytest.raises(NotationError):
        evaluate((0, 0, 0, 0), POUNCE)


def test_rulesets_with_equal_hand_options_share_an_evaluator() -> None:
    assert evaluator_for(PEEL) is evaluator_for(PEEL.with_options(max_players=5, ante=2))
    assert evaluator_for(PEEL) is not evaluator_for(CATS)


# -- properties -----------------------------------------------------------------------------

RULESETS = [PEEL, CATS, WRAP, PEEL32, CATS32, NPP, NPP.with_options(void_rank="high_card"), TB,
            TB_ACE_LOW, TB.with_options(void_rank="high_card"), TB32, POUNCE,
            PEEL.with_options(pair_kicker=False, ace_low_sequence_rank="highest")]


@st.composite
def two_hands(draw: st.DrawFn) -> tuple[Ruleset, tuple[int, ...], tuple[int, ...]]:
    rules = draw(st.sampled_from(RULESETS))
    cards = draw(st.permutations(pack(rules.pack)))
    return rules, tuple(cards[:3]), tuple(cards[3:6])


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@given(two_hands())
@settings(max_examples=300)
def test_rank_order_is_key_order(case: tuple[Ruleset, tuple[int, ...], tuple[int, ...]]) -> None:
    rules, a, b = case
    ev = evaluator_for(rules)
    ka, kb = hand_key(a, rules), hand_key(b, rules)
    ra, rb = ev.rank_of(a), ev.rank_of(b)
    assert _sign(ra - rb) == ((ka > kb) - (ka < kb))
    assert ev.value(a).rank == ra


@given(two_hands(), st.permutations(range(4)), st.permutations(range(3)))
@settings(max_examples=300)
def test_rank_invariant_under_order_and_suits(
    case: tuple[Ruleset, tuple[int, ...], tuple[int, ...]],
    suit_map: list[int],
    order: list[int],
) -> None:
    rules, a, _ = case
    ev = evaluator_for(rules)
    shuffled = tuple(a[i] for i in order)
    renamed = tuple((c & ~3) | suit_map[c & 3] for c in a)
    assert ev.rank_of(shuffled) == ev.rank_of(a)
    assert ev.rank_of(renamed) == ev.rank_of(a)
    assert evaluate(renamed, rules).category is evaluate(a, rules).category


@given(two_hands())
@settings(max_examples=300)
def test_compare_is_antisymmetric(case: tuple[Ruleset, tuple[int, ...], tuple[int, ...]]) -> None:
    rules, a, b = case
    ab, ba = compare(a, b, rules), compare(b, a, rules)
    assert {"a": "b", "b": "a", "tie": "tie"}[ab.winner] == ba.winner
    assert ab.reason == ba.reason
    assert (ab.winner == "tie") == (ab.a.key == ab.b.key)


_RANK_CANON = {**{r: r for r in RANKS}, **{r.lower(): r for r in RANKS}, "10": "T", "1": "A"}
_SUIT_CANON = {**{s: s for s in SUITS}, **{s.lower(): s for s in SUITS},
               **dict(zip(SUIT_SYMBOLS, SUITS, strict=True)),
               **dict(zip("♤♡♢♧", SUITS, strict=True))}


def _canonical(text: str) -> str | None:
    """An independent reading of card notation: the canonical form, or None."""
    token = text.strip()
    for n in (1, 2):
        rank, suit = token[:n], token[n:]
        if len(token) == n + 1 and rank in _RANK_CANON and suit in _SUIT_CANON:
            return _RANK_CANON[rank] + _SUIT_CANON[suit]
    return None


card_like = st.builds(
    lambda pre, r, s, post: pre + r + s + post,
    st.sampled_from(["", " ", "\t", "x"]),
    st.sampled_from([*RANKS, *RANKS.lower(), "10", "1", "11", "0", "B", ""]),
    st.sampled_from([*SUITS, *SUITS.lower(), *SUIT_SYMBOLS, "♤", "X", "", "SS"]),
    st.sampled_from(["", " ", "\n", "s"]),
)


@given(st.one_of(st.text(max_size=6), card_like))
@settings(max_examples=500)
def test_parse_card_round_trips_or_raises(text: str) -> None:
    expected = _canonical(text)
    try:
        card = parse_card(text)
    except NotationError:
        assert expected is None
        return
    assert format_card(card) == expected
    assert parse_card(format_card(card)) == card
    assert parse_card(format_card(card, symbols=True)) == card


@given(st.one_of(st.text(max_size=20),
                 st.lists(card_like, max_size=4).map(" , ".join)))
@settings(max_examples=300)
def test_parse_cards_round_trips_or_raises(text: str) -> None:
    try:
        cards = parse_cards(text)
    except NotationError:
        return
    assert all(0 <= c < 52 for c in cards)
    assert parse_cards(format_cards(cards)) == cards
    assert len(cards) == len(text.replace(",", " ").split())


def test_every_card_round_trips() -> None:
    for card in range(52):
        assert parse_card(format_card(card)) == card
        assert parse_card(format_card(card, symbols=True)) == card
        assert parse_card(format_card(card).lower()) == card
    assert parse_card("10h") == parse_card("TH")
    assert format_cards(parse_cards("AS, KD 10c")) == "AS KD TC"
