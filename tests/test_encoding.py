"""The research API's encodings (:mod:`commerce.encoding`): each family's vector decodes back
to what the seat's observation says, the action space gives every legal action its own stable
integer, and the mask gives the legal actions back. (That the vector is unchanged when what
the seat cannot know is relabelled is the ``encoding`` surface of the no-leak harness.)"""

from __future__ import annotations

import random
from typing import Any

import pytest

from commerce import engine
from commerce.cards import parse_card
from commerce.core import Action, ActionKind
from commerce.encoding import (
    DECISION_KINDS,
    decode,
    int_to_action,
    legal_mask,
    observation_size,
)
from commerce.families.cox.cards import face_of
from commerce.families.cox.encode import FACES
from commerce.families.trading.encode import KINDS
from commerce.family import family_spec
from commerce.rules import Ruleset, find_ruleset
from tests.harness import all_rulesets, random_game, table_sizes

CASES = [(r, n) for r in all_rulesets() for n in (table_sizes(r)[0], table_sizes(r)[-1])]


def _states(rules: Ruleset, players: int, every: int = 3, limit: int = 40) -> list[Any]:
    out: list[Any] = []
    count = 0

    def keep(state: Any) -> None:
        nonlocal count
        if count % every == 0 and len(out) < limit:
            out.append(state)
        count += 1

    random_game(rules, players, 7, keep)
    return out


def _one_hot(values: list[float]) -> int | None:
    assert all(v in (0.0, 1.0) for v in values) and sum(values) <= 1
    return values.index(1.0) if 1.0 in values else None


def _bits(values: list[float]) -> set[int]:
    return {i for i, v in enumerate(values) if v}


def _check_common(rules: Ruleset, n: int, seat: int, obs: Any, seg: dict[str, list[float]],
                  dealer: int | None) -> None:
    d = obs.decision
    assert _one_hot(seg["phase"]) == (len(DECISION_KINDS) if d is None
                                      else DECISION_KINDS.index(d.kind))
    who = _one_hot(seg["to_act"])
    assert who == (n if d is None or d.seat is None else (d.seat - seat) % n)
    assert _one_hot(seg["position"]) == (None if dealer is None else (seat - dealer) % n)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0].id}-{c[1]}p"
                         if isinstance(c, tuple) else str(c))
def test_the_vector_decodes_back_to_the_observation(case: tuple[Ruleset, int]) -> None:
    rules, n = case
    enc = family_spec(rules.family).encoding
    assert enc is not None and enc.history >= 1
    size = observation_size(enc, rules, n)
    off = 52 - rules.pack
    checked = 0
    for state in _states(rules, n):
        for seat in range(n):
            obs = engine.observe(state, seat)
            vector = enc.encode(obs)
            assert len(vector) == size
            seg = decode(enc, rules, n, vector)
            if rules.family == "cox":
                _check_common(rules, n, seat, obs, seg, obs.wholesaler)
                held = [0.0] * FACES
                for c in obs.rack:
                    held[face_of(c)] += 1
                assert seg["hand"] == held
                assert seg["stakes"][0] == obs.totals[seat]
                assert sum(seg["hand"]) == obs.rack_sizes[seat] == seg["rack_sizes"][0]
            else:
                _check_common(rules, n, seat, obs, seg, obs.dealer)
                assert _bits(seg["hand"]) == {c - off for c in obs.hand}
                assert len(seg["hand"]) == rules.pack
                if rules.family == "widow":
                    assert _bits(seg["widow"]) == {c - off for c in obs.widow}
                    tokens = obs.tokens if obs.tokens is not None else (0,) * n
                    assert seg["tokens"][0] == tokens[seat]
                    assert seg["tokens"] == [tokens[(seat + i) % n] for i in range(n)]
                    assert seg["balances"][0] == obs.balances[seat]
                else:
                    assert seg["stakes"] == [obs.balances[(seat + i) % n] for i in range(n)]
                    assert seg["pool"] == [obs.pool]
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0].id}-{c[1]}p"
                         if isinstance(c, tuple) else str(c))
def test_every_legal_action_has_its_own_integer_and_the_mask_gives_it_back(
        case: tuple[Ruleset, int]) -> None:
    rules, n = case
    enc = family_spec(rules.family).encoding
    assert enc is not None
    size = enc.num_actions(rules, n)
    decided = 0
    for state in _states(rules, n, every=1, limit=300):
        d = engine.decision(state)
        if d is None or d.seat is None:
            continue
        legal = engine.legal_actions(state)
        ints = [enc.action_to_int(rules, n, a) for a in legal]
        assert len(set(ints)) == len(ints) and all(0 <= i < size for i in ints)
        mask = legal_mask(enc, rules, n, legal)
        assert sorted(i for i, m in enumerate(mask) if m) == sorted(ints)
        for a, i in zip(legal, ints, strict=True):
            assert int_to_action(enc, rules, n, i, legal) == a
        free = next(i for i, m in enumerate(mask) if not m)
        assert int_to_action(enc, rules, n, free, legal) is None
        decided += 1
    assert decided > 0


def test_the_integers_are_stable() -> None:
    peel, widow = find_ruleset("peel"), find_ruleset("widow")
    trading = family_spec("trading").encoding
    widow_enc = family_spec("widow").encoding
    assert trading is not None and widow_enc is not None
    two_s, ace_c = parse_card("2S"), parse_card("AC")
    assert trading.action_to_int(peel, 4, Action(ActionKind.STAND)) == 0
    assert trading.action_to_int(peel, 4, Action(ActionKind.BARTER, (ace_c,))) == 2 + 52 + 51
    piquet = peel.with_options(pack=32)
    assert trading.num_actions(piquet, 4) == 2 + 3 * 32
    assert trading.action_to_int(piquet, 4, Action(ActionKind.TRADE, (parse_card("7S"),))) == 2
    swap = Action(ActionKind.EXCHANGE, (ace_c, two_s))
    assert widow_enc.action_to_int(widow, 4, swap) == 7 + 104 + 51 * 52


def test_an_action_outside_the_space_is_refused() -> None:
    from commerce.errors import IllegalActionError

    enc = family_spec("trading").encoding
    assert enc is not None
    with pytest.raises(IllegalActionError, match="no place"):
        enc.action_to_int(find_ruleset("peel"), 4, Action(ActionKind.DEAL, (1, 2)))


def test_the_history_keeps_the_last_k_acts_newest_first() -> None:
    rules, n = find_ruleset("trade-and-barter"), 3
    enc = family_spec("trading").encoding
    assert enc is not None
    rng = random.Random(5)
    state = engine.new_game(rules, n)
    acts = 0
    while acts < enc.history + 3:
        d = engine.decision(state)
        assert d is not None
        if d.seat is None:
            state = engine.apply(state, engine.sample_chance(state, rng)).state
            continue
        legal = [a for a in engine.legal_actions(state) if a.kind is not ActionKind.STAND]
        state = engine.apply(state, legal[0]).state
        acts += 1
    seg = decode(enc, rules, n, enc.encode(engine.observe(state, 0)))
    per = len(seg["history"]) // enc.history
    rows = [seg["history"][i * per:(i + 1) * per] for i in range(enc.history)]
    assert all(sum(r) > 0 for r in rows)  # every slot is filled once K acts have been seen
    kinds = [e.kind for e in engine.observe(state, 0).events if e.kind in KINDS]
    assert [_one_hot(r[:len(KINDS)]) for r in rows] == \
        [KINDS.index(k) for k in reversed(kinds[-enc.history:])]


@pytest.mark.parametrize("rules_id", ["peel", "widow", "cox", "vingt-un"])
def test_the_documented_layout_is_the_layout(rules_id: str) -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "research.md").read_text()
    rules = find_ruleset(rules_id)
    enc = family_spec(rules.family).encoding
    assert enc is not None
    at = 0
    for seg in enc.layout(rules, 4):
        assert f"| {at} | {seg.size} | `{seg.name}` | {seg.doc} |" in doc, seg.name
        at += seg.size
