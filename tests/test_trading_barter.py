"""The trading heuristic barters when ready money would cost more than it wins back, so that a
player at the table receives barter offers; with free trades it trades."""

from __future__ import annotations

from commerce.bots import make_bot
from commerce.driver import Driver, play_game
from commerce.rules import find_ruleset

GAMES = 20


def _count(rules_id: str, **options: int) -> tuple[int, int]:
    rules = find_ruleset(rules_id).with_options(**options)
    barters = trades = 0
    for seed in range(GAMES):
        record = play_game(rules, [make_bot("heuristic")] * 4, seed=seed)
        barters += sum(a.startswith("barter") for a in record.actions)
        trades += sum(a.startswith("trade") for a in record.actions)
    return barters, trades


def test_the_heuristic_barters_when_ready_money_costs_more_than_it_wins() -> None:
    barters, trades = _count("peel")
    assert barters > 0 and trades > 0, (barters, trades)


def test_with_free_trades_the_heuristic_trades() -> None:
    barters, trades = _count("peel", trade_cost=0, dealer_trade_cost=0)
    assert barters == 0 and trades > 0, (barters, trades)


def test_a_player_receives_barter_offers_from_the_computer_players() -> None:
    rules = find_ruleset("peel")
    offers = 0
    for seed in range(GAMES):
        driver = Driver(rules, [make_bot("heuristic")] * 4, seed=seed)
        driver.run()
        offers += sum(e.kind == "barter_offered" and e.get("partner") == 0
                      for e in driver.visible_events(0))
    assert offers > 0
