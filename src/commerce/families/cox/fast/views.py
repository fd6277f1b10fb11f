"""What a seat sees of a fast state, and the heuristic's own cheaper view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from commerce.core import (
    Seat,
)
from commerce.families.cox.cards import (
    CoxCard,
    face_card,
)
from commerce.families.cox.fast.queries import decision
from commerce.families.cox.fast.state import (
    _DECISIONS,
    _DIRECTOR_NAMES,
    _P_OFFER,
    _P_OVER,
    _P_SHUFFLE,
    _P_TURN,
    FastCoxState,
)
from commerce.families.cox.observe import CoxObservation
from commerce.rules import Ruleset


def _faces(cards: Sequence[CoxCard]) -> tuple[CoxCard, ...]:
    """*cards* by face: what an event may say of them (copies are alike)."""
    return tuple(face_card(c) for c in cards)


_FACE: Final = tuple(face_card(c) for c in range(80))
_face: Final = _FACE.__getitem__


def _renumber(cards: Sequence[CoxCard], used: list[int]) -> tuple[CoxCard, ...]:
    """:meth:`Copies.place` for the fast path: only transport cards have copies."""
    out = []
    for c in cards:
        if c < 60:
            f = c - c % 4
            out.append(f + used[f])
            used[f] += 1
        else:
            out.append(c)
    return tuple(out)


def _view(s: FastCoxState, seat: Seat | None, everything: bool) -> CoxObservation:
    n = s.players
    seats = [(s.director_dealer + s.step * (i + 1)) % n for i in range(len(s.directors))]
    current = s.current_base
    while current < 4 and not s.bases[current]:
        current += 1
    used = [0] * 60
    discards = _renumber(s.discards, used)
    laid = tuple(tuple(_renumber(g, used) for g in groups) for groups in s.laid)
    greenbacks = s.greenbacks  # Greenbacks have no copies.
    racks = tuple(_renumber(sorted(r, key=_face), used) if (everything or i == seat) else None
                  for i, r in enumerate(s.racks))
    d = decision(s)
    if s.phase is _P_OFFER and not everything and seat != s.actor:
        # A buy offer is made to one seat alone: every other seat sees the turn as it stood.
        d = _DECISIONS[_P_TURN, s.turn]
    return CoxObservation(
        seat=seat,
        ruleset=s.ruleset,
        players=n,
        hand_number=s.hand_number,
        hands_total=s.ruleset.hands_per_game,
        decision=d,
        turn=s.turn,
        wholesaler=s.wholesaler,
        retailer=s.retailer,
        directors=tuple((seats[i], _DIRECTOR_NAMES[x]) for i, x in enumerate(s.directors)),
        base_numbers=s.base_numbers,
        rack=(racks[seat] or ()) if seat is not None else (),
        racks=racks,
        rack_sizes=tuple(len(r) for r in s.racks),
        laid=laid,
        greenbacks=greenbacks,
        discards=discards,
        live=discards[-1] if s.live is not None else None,
        discarder=s.discarder if s.live is not None else None,
        supply=tuple(len(b) for b in s.bases) if s.phase is not _P_SHUFFLE else (0,) * 4,
        current_base=current + 1,
        totals=s.totals,
        hand_scores=s.hand_scores,
        events=s.log if everything else tuple(e for e in s.log if e.visible(seat)),
        last_hand=s.last_hand,
        over=s.phase is _P_OVER,
    )


class HeuristicView(NamedTuple):
    """What the heuristic reads of an observation (:func:`heuristic_view`)."""

    seat: Seat
    ruleset: Ruleset
    rack: tuple[CoxCard, ...]
    laid: tuple[tuple[tuple[CoxCard, ...], ...], ...]
    greenbacks: tuple[tuple[CoxCard, ...], ...]
    base_numbers: tuple[int | None, ...]
    discards: tuple[CoxCard, ...]
    live: CoxCard | None


def heuristic_view(s: FastCoxState, seat: Seat) -> HeuristicView:
    """The fields of ``observe(s, seat)`` that the heuristic reads, each equal to the
    observation's (``tests/test_cox_search.py`` checks it), built without the rest."""
    used = [0] * 60
    discards = _renumber(s.discards, used)
    laid = tuple(tuple(_renumber(g, used) for g in groups) for groups in s.laid)
    rack = _renumber(sorted(s.racks[seat], key=_face), used)
    return HeuristicView(seat, s.ruleset, rack, laid, s.greenbacks, s.base_numbers, discards,
                         discards[-1] if s.live is not None else None)


def observe(s: FastCoxState, seat: Seat | None) -> CoxObservation:
    """The view of *seat*: its rack, everything laid out, the discards, the supply sizes."""
    return _view(s, seat, everything=False)


def reveal_all(s: FastCoxState) -> CoxObservation:
    """Every rack and event visible: for reviewing a finished or saved game (not the supply)."""
    return _view(s, None, everything=True)
