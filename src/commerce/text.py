"""Words shared by the families' log lines: names of seats and the showdown.

>>> seat_name(["Ann", "Bo"], 1, 0), seat_name(["Ann", "Bo"], 0, 0)
('Bo', 'You')
"""

from __future__ import annotations

from collections.abc import Sequence

from commerce.cards import format_cards
from commerce.core import Event


def seat_name(names: Sequence[str], seat: int | None, viewer: int | None) -> str:
    """A seat's name, 'You' for the viewer, or a dash for no seat."""
    if seat is None:
        return "—"
    return "You" if seat == viewer else names[seat]


def showdown_lines(e: Event, names: Sequence[str], viewer: int | None, *, mark: str,
                   name_width: int, cards_width: int) -> str:
    """The hands of a ``showdown`` event, one line a seat with cards, *mark* on the winners."""
    lines = ["Showdown:"]
    winners = e.get("winners") or ()
    for seat, (hand, cat) in enumerate(zip(e.get("hands"), e.get("categories"), strict=True)):
        if not hand:
            continue  # a seat out of the game
        tail = f"  {mark}" if seat in winners else ""
        lines.append(f"  {seat_name(names, seat, viewer):<{name_width}} "
                     f"{format_cards(hand):<{cards_width}} {cat}{tail}")
    return "\n".join(lines)
