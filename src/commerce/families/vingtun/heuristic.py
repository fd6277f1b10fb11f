"""Vingt-un's heuristic, a plain basic strategy: stake by the first card (more on an ace or
a ten-card), double as dealer on an ace or a ten-card, divide aces and eights (when asked
before the drawing, or on its own turn under ``divide_when=own_turn``), draw below 17
(a bolder player a point higher, a timid one a point lower) and be content from there.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from commerce.cards import rank_of
from commerce.core import Action, ActionKind
from commerce.families.vingtun.observe import VingtUnObservation
from commerce.families.vingtun.state import total, value


def _find(legal: Sequence[Action], kind: ActionKind) -> Action | None:
    return next((a for a in legal if a.kind is kind), None)


def threshold(boldness: float) -> int:
    """The total from which the heuristic is content: 17, one more when bold (boldness
    above 0.7), one less when timid (below 0.3)."""
    return 17 + (boldness > 0.7) - (boldness < 0.3)


def vingtun_action(obs: VingtUnObservation, legal: Sequence[Action], rng: random.Random,
                   boldness: float) -> Action:
    """The heuristic's choice (reads ``hands``, ``seat``, ``part`` and ``stage`` of *obs*)."""
    seat = obs.seat
    assert seat is not None, "the heuristic is asked only at a seat's decision"
    own = obs.hands[seat]
    first = own[0].cards[0] if own and own[0].cards else None
    if legal[0].kind is ActionKind.STAKE:
        amounts = [a.amount or 0 for a in legal]
        strong = first is not None and value(first) in (1, 10)
        best = max(amounts) if first is not None and rank_of(first) == 14 else \
            (amounts[len(amounts) // 2] if strong else min(amounts))
        return next(a for a in legal if a.amount == best)
    if legal[0].kind is ActionKind.DOUBLE:
        strong = first is not None and value(first) in (1, 10)
        found = _find(legal, ActionKind.DOUBLE if strong else ActionKind.DECLINE)
        return found if found is not None else legal[0]
    divide = _find(legal, ActionKind.DIVIDE)
    if obs.stage == "divide":  # before the drawing: divide or keep the two cards
        pair = tuple(c for c in own[0].cards if c is not None) if own else ()
        if divide is not None and len(pair) == 2 and rank_of(pair[0]) in (8, 14):
            return divide
        found = _find(legal, ActionKind.DECLINE)
        return found if found is not None else legal[0]
    hand = own[obs.part] if obs.part < len(own) else own[0]
    cards = tuple(c for c in hand.cards if c is not None)
    if divide is not None and len(cards) == 2 and rank_of(cards[0]) in (8, 14):
        return divide
    card = _find(legal, ActionKind.DRAW)
    if card is not None and total(cards) < threshold(boldness):
        return card
    found = _find(legal, ActionKind.CONTENT)
    return found if found is not None else legal[rng.randrange(len(legal))]
