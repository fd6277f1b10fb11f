"""The beaten stander pays the *better* hands (Peel, Round Games with Cards; docs/rulesets/peel.md,
decision #14).

Peel: a stander who does not win "has to pay an additional stake to the holders of the better
hands". A hand equal to his is not better, even where the tie rule places it ahead of him: a
stander who ties for best and loses the pool on the tie rule pays no one. Version 1 of the
trading presets paid such a hand; records of version 1 replay as they were played.
"""

from __future__ import annotations

import pytest

from commerce import engine
from commerce.family import older_version
from commerce.record import GameRecord, replay
from commerce.rules import Ruleset, find_ruleset

PEEL = find_ruleset("peel")

# Three seats, seat 0 deals; the cards go round from the eldest (seat 1): seat 1 gets
# 9H 9S 2C, seat 2 gets 3D 5C 7H, the dealer 9D 9C KD.
_DEAL = "deal 9H 3D 9D 9S 5C 9C 2C 7H KD"


def _script(seat1_draws: str) -> list[str]:
    """Seat 1 trades 2C for *seat1_draws*, seat 2 trades 3D for 4S, the dealer stands."""
    return [_DEAL, "trade 2C", f"deal {seat1_draws}", "done", "trade 3D", "deal 4S", "done",
            "stand"]


def _stander_payments(rules: Ruleset, seat1_draws: str) -> list[tuple[int, int]]:
    """The (to, amount) of each stake the stander (the dealer, seat 0) pays at the showdown."""
    state = engine.new_game(rules, players=3, dealer=0)
    events = []
    for text in _script(seat1_draws):
        t = engine.apply(state, engine.parse_action(state, text))
        state, events = t.state, list(t.events)
    showdown = next(e for e in events if e.kind == "showdown")
    assert showdown.seat == 0 and showdown.get("winners") == (1,)
    return [(e.get("to"), e.get("amount")) for e in events
            if e.kind == "paid" and e.get("why") == "beaten stander"]


@pytest.mark.parametrize("penalty", ["each_better_hand", "best_hand_only"])
def test_a_stander_who_ties_the_winner_pays_no_one(penalty):
    # seat 1 holds 9H 9S KH, the dealer 9D 9C KD: equal hands; the eldest wins the tie
    rules = PEEL.with_options(stander_penalty=penalty)
    assert _stander_payments(rules, "KH") == []


@pytest.mark.parametrize("penalty", ["each_better_hand", "best_hand_only"])
def test_a_stander_beaten_by_a_better_hand_still_pays_it(penalty):
    # seat 1 holds 9H 9S AH: the better kicker
    rules = PEEL.with_options(stander_penalty=penalty)
    assert _stander_payments(rules, "AH") == [(1, 1)]


def test_version_1_paid_the_equal_hand():
    old = older_version(PEEL, 1)
    assert old is not None and old.version == 1 and old.stander_pays_equal_hands
    assert PEEL.version == 2
    assert _stander_payments(old, "KH") == [(1, 1)]


def test_a_version_1_record_replays_as_it_was_played():
    actions = tuple(_script("KH"))
    record = GameRecord(rules=PEEL, players=3, dealer=0, actions=actions)
    data = record.to_dict()
    data["rules"]["version"] = 1
    old = GameRecord.from_dict(data)
    assert old.rules.version == 1 and old.rules.stander_pays_equal_hands
    assert replay(old).balances != replay(record).balances
    # saved again, it still names version 1 and replays the same
    again = GameRecord.from_json(old.to_json())
    assert again.rules == old.rules
    assert replay(again).balances == replay(old).balances


def test_an_unknown_old_version_is_refused():
    data = GameRecord(rules=PEEL, players=3, dealer=0).to_dict()
    data["rules"]["version"] = 0
    with pytest.raises(Exception, match="version 0"):
        GameRecord.from_dict(data)
