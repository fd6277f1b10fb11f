"""The cox family's games read deal by deal from their public events, for the analyses."""

from __future__ import annotations

from collections.abc import Sequence

from commerce.core import Event, Seat
from commerce.family import DealSummary
from commerce.rules import Ruleset


def read_cox_deals(rules: Ruleset, players: int, events: Sequence[Event]) -> list[DealSummary]:
    """Hands of a Cox game: the Retailer as the dealer, each seat's points for the hand.

    The winners are the seats with the hand's best score; a seat's category is ``sold out``
    (it ended the hand with a complete hand), ``complete`` (a complete hand held at the
    end), ``clear`` (black cards of one transport suit at most) or ``not clear`` (the -5);
    the stander is the seat that sold out, if any.
    """
    out: list[DealSummary] = []
    retailer: Seat = 0
    seller: Seat | None = None
    for i, e in enumerate(events):
        kind = e.kind
        if kind == "directors_dealt":
            retailer = e.get("retailer")
            seller = None
        elif kind == "sold_out":
            seller = e.seat
        elif kind == "hand_scored":
            scores = tuple(float(p) for p in e.get("scores"))
            best = max(scores)
            categories = tuple(
                "sold out" if q == seller else "complete" if b["complete"] else
                "clear" if b["clear"] else "not clear"
                for q, b in enumerate(e.get("breakdowns")))
            out.append(DealSummary(retailer, scores,
                                   tuple(q for q, p in enumerate(scores) if p == best),
                                   categories, seller, i))
    return out


_COX_BASES = {4: (1, 2, 3, 4), 3: (1, 2, 3), 2: (1, 3)}


def cox_role(position: int, players: int) -> str:
    """``retailer`` (Base No. 1, first to play), then ``base N`` round the table."""
    return "retailer" if position == 0 else f"base {_COX_BASES[players][position]}"
