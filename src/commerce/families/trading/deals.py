"""The trading family's games read deal by deal from their public events, for the analyses."""

from __future__ import annotations

from collections.abc import Sequence

from commerce.core import Event, Seat
from commerce.families.trading.options import TradingOptions
from commerce.family import DealSummary
from commerce.rules import Ruleset


def read_trading_deals(rules: Ruleset, players: int,
                       events: Sequence[Event]) -> list[DealSummary]:
    """Deals of a trading-family game: antes, trades and payments from the events."""
    opts = TradingOptions.of(rules)
    out: list[DealSummary] = []
    pay = [0.0] * players
    dealer = 0
    winners: tuple[Seat, ...] = ()
    categories: tuple[str, ...] = ()
    stander: Seat | None = None
    for i, e in enumerate(events):
        kind = e.kind
        if kind == "deal_started":
            dealer = e.seat if e.seat is not None else 0
            pay = [-float(opts.ante)] * players
            pay[dealer] = -float(opts.dealer_ante)
        elif kind == "traded":
            seat, cost = e.seat, e.get("cost")
            assert seat is not None
            pay[seat] -= cost
            if seat != dealer:  # the dealer's own purchases go to the pool
                pay[dealer] += cost
        elif kind == "paid":
            pay[e.get("to")] += e.get("amount")
            if e.seat is not None:
                pay[e.seat] -= e.get("amount")
        elif kind == "showdown":
            winners, categories, stander = e.get("winners"), e.get("categories"), e.seat
        elif kind == "deal_ended":
            out.append(DealSummary(dealer, tuple(pay), winners, categories, stander, i))
    return out
