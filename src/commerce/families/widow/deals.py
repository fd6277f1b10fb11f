"""The widow family's games read deal by deal from their public events, for the analyses."""

from __future__ import annotations

from collections.abc import Sequence

from commerce.core import Event, Seat
from commerce.family import DealSummary
from commerce.rules import Ruleset


def read_widow_deals(rules: Ruleset, players: int,
                     events: Sequence[Event]) -> list[DealSummary]:
    """Deals of a widow-family game, from the settlement events.

    The payoff is what changed hands in the deal: stakes paid to the winner (Peel's Old
    Game), tokens moved from the lowest hands to the best (the token games), or, in Pool
    Commerce, the counters the lowest hands put into the pool (-1 each, so these do not sum
    to 0) and any deal prize; a horse and the pool shared out at the end of the session
    belong to no deal. The stander is the seat that knocked, or in the Old Game the first
    that stood.
    """
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
            pay = [0.0] * players
            stander = None
        elif kind == "paid":
            amount = e.get("amount")
            pay[e.get("to")] += amount
            if e.seat is not None:
                pay[e.seat] -= amount
        elif kind == "token_moved":
            pay[e.get("to")] += 1
            if e.seat is not None:
                pay[e.seat] -= 1
        elif kind == "counter_to_pool" and e.seat is not None:
            pay[e.seat] -= 1
        elif kind == "prize" and e.seat is not None:
            pay[e.seat] += e.get("amount")
        elif kind in ("knocked", "stood") and stander is None:
            stander = e.seat
        elif kind == "showdown":
            winners, categories = e.get("winners"), e.get("categories")
        elif kind == "deal_ended":
            out.append(DealSummary(dealer, tuple(pay), winners, categories, stander, i))
    return out
