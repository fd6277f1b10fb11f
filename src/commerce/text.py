"""Words shared by the families' log lines: names of seats and the showdown.

>>> seat_name(["Ann", "Bo"], 1, 0), seat_name(["Ann", "Bo"], 0, 0)
('Bo', 'You')
>>> f"Bo pays {seat_object(['Ann', 'Bo'], 0, 0)} 2 stakes."
'Bo pays you 2 stakes.'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from commerce.cards import format_cards
from commerce.core import Event, Outcome


def seat_name(names: Sequence[str], seat: int | None, viewer: int | None) -> str:
    """A seat's name, 'You' for the viewer, or a dash for no seat."""
    if seat is None:
        return "—"
    return "You" if seat == viewer else names[seat]


def seat_object(names: Sequence[str], seat: int | None, viewer: int | None) -> str:
    """A seat's name inside a sentence: as :func:`seat_name`, but 'you' for the viewer."""
    return "you" if seat is not None and seat == viewer else seat_name(names, seat, viewer)


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


def plural(count: int, word: str) -> str:
    """*count* *word*s, singular for one.

    >>> plural(1, "deal"), plural(0, "hand")
    ('1 deal', '0 hands')
    """
    return f"{count} {word}{'' if count == 1 else 's'}"


_TIMES = re.compile(r"\b(\d+) time\(s\)")
_PLURALS = re.compile(r"\b(\d+) (\w+)\(s\)")


def times(text: str) -> str:
    """"1 time(s)" as "once", "2 time(s)" as "twice", others as "N times"; any other
    "N word(s)" in the singular or the plural as N says.

    >>> times("every player has dealt 1 time(s)")
    'every player has dealt once'
    >>> times("gives up the deal after 1 hand(s), not 3 hand(s)")
    'gives up the deal after 1 hand, not 3 hands'
    """
    text = _TIMES.sub(lambda m: {"1": "once", "2": "twice"}.get(m.group(1),
                                                              f"{m.group(1)} times"), text)
    return _PLURALS.sub(lambda m: plural(int(m.group(1)), m.group(2)), text)


def standing(outcome: Outcome, players: int) -> list[int]:
    """The seats from first to last: by their result, then (in the token games) those still
    in before those out, and of those out, who went out later first; then by seat."""
    out_in = outcome.details.get("out_in") or (None,) * players
    return sorted(range(players), key=lambda s: (
        -outcome.payoffs[s], out_in[s] is not None, -(out_in[s] or 0), s))
