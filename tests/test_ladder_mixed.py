"""The mixed table of scripts/ladder.py: every bot sits beside the others in the same places."""

from __future__ import annotations

from collections import Counter

from scripts.ladder import mixed_table

from commerce.rules import find_ruleset


def test_the_mixed_table_seats_every_bot_beside_the_others_alike():
    bots = ("random", "heuristic", "search:iterations=4")
    r = mixed_table(find_ruleset("peel"), 4, games=6, seed=1, jobs=1, bots=bots)
    assert r["games"] == 6 and set(r["payoff"]) == set(bots)
    games = [game for block in r["blocks_played"] for game in block]
    seats = Counter(b for lineup, _ in games for b in lineup)
    assert seats == Counter({0: 8, 1: 8, 2: 8})
    # who sits at whose left: as often a before b as b before a
    left = Counter((lineup[i], lineup[(i + 1) % 4]) for lineup, _ in games for i in range(4))
    for a in range(3):
        for b in range(a + 1, 3):
            assert left[a, b] == left[b, a]
    assert all(sum(payoffs) == 0 for _, payoffs in games)
