"""What the server's views say at the end of a game, and in words: each seat's result in the
ruleset's unit, the deals one by one, deals won counted by seat (two bots may share a name),
one word per unit."""

from __future__ import annotations

import re

from commerce.server.tables import Table, TableConfig, one_word_per_unit


def test_the_end_of_a_game_gives_results_in_the_unit_deal_by_deal() -> None:
    table = Table.new("t1", "inv", "host", TableConfig("widow", {"deals": 3}, 3),
                      bots={0: "heuristic", 1: "heuristic", 2: "random"})
    table.start("host", "g1", seed=11)
    assert table.status == "over"
    view = table.view(None)
    assert view.standings is not None and view.deals is not None
    assert view.unit == "tokens" and view.deal_word == "deal" and view.reason
    assert len(view.deals) == 3
    assert all(re.fullmatch(r"[+-]?\d+ tokens?", r) for d in view.deals for r in d.results)
    won = {s.seat: s.deals_won for s in view.standings}
    assert sum(won.values()) == sum(len(d.winners) for d in view.deals)
    # the two bots, numbered apart ("heuristic bot 1", "heuristic bot 2"), each count only
    # their own deals
    names = {s.seat: s.name for s in view.standings}
    assert names[0] != names[1] and names[0].startswith("heuristic bot")
    for seat in (0, 1):
        assert won[seat] == sum(d.winners.count(names[seat]) for d in view.deals)
    for s in view.standings:
        assert s.result == one_word_per_unit(f"{s.payoff:+d} tokens" if s.payoff
                                             else "0 tokens")


def test_one_word_per_unit_in_the_table_and_the_log() -> None:
    table = Table.new("t2", "inv2", "host", TableConfig("peel", {}, 3),
                      bots={0: "heuristic", 1: "heuristic", 2: "heuristic"})
    table.start("host", "g2", seed=3)
    view = table.view(None)
    assert view.table is not None
    words = [s.score for s in view.table.seats] + view.log
    assert not [w for w in words if re.search(r"(?<![\d.])[+-]?1 (stakes|tokens|cards)\b", w)]
