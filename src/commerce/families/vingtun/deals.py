"""Vingt-un read deal by deal (a deal is a dealer's whole turn) from its public events, for
the analyses (``commerce analyze dealer-advantage``)."""

from __future__ import annotations

from collections.abc import Sequence

from commerce.core import Event, Seat
from commerce.families.vingtun.options import VingtUnOptions
from commerce.family import DealSummary
from commerce.rules import Ruleset


def read_vingtun_deals(rules: Ruleset, players: int,
                       events: Sequence[Event]) -> list[DealSummary]:
    """Deals of a game of Vingt-un: every payment and pool movement between a deal's start
    and its end. Each player plays against the dealer and no hand is best at the table, so a
    deal names no winners and no hand categories."""
    out: list[DealSummary] = []
    pay = [0.0] * players
    dealer: Seat = 0
    for i, e in enumerate(events):
        kind = e.kind
        if kind == "deal_started":
            dealer = e.seat if e.seat is not None else 0
            pay = [-float(VingtUnOptions.of(rules).pool_ante)] * players
        elif kind == "paid":
            pay[e.get("to")] += e.get("amount")
            if e.seat is not None:
                pay[e.seat] -= e.get("amount")
        elif kind == "pooled" and e.seat is not None:
            pay[e.seat] -= e.get("amount")
        elif kind == "pool_taken" and e.seat is not None:
            pay[e.seat] += e.get("amount")
        elif kind == "deal_ended":
            out.append(DealSummary(dealer, tuple(pay), (), (), None, i))
    return out
