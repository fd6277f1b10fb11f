"""What a seat may know of a game of Cox's Commerce, built from scratch from the state.

A seat sees its own rack, everything laid out, the discard pile, the size of every rack and
Supply Base, the scores, and the events it may see. It never sees which copy of a face a card
is (copies are alike, docs/rulesets/cox.md): :class:`Copies` renumbers the copies a view shows. A
buy offer is put to one seat alone: the others see the turn as it stood (Cox, "Buying a
discard": nobody learns who could have bought).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from commerce.core import Decision, DecisionKind, Event, Seat
from commerce.families.cox.cards import CoxCard, face_card, format_cox_card
from commerce.families.cox.choices import decision
from commerce.families.cox.options import CoxOptions
from commerce.families.cox.state import DIRECTOR_NAMES, CoxState, Phase
from commerce.rules import Ruleset


@dataclass(frozen=True, slots=True)
class CoxObservation:
    """What one seat may know, built from scratch from the state (or everything, for a review)."""

    seat: Seat | None
    """Whose view this is (None: a spectator or a review)."""
    ruleset: Ruleset
    """The rules in force."""
    players: int
    """Number of seats."""
    hand_number: int
    """The current hand, from 1."""
    hands_total: int
    """Hands in the game."""
    decision: Decision | None
    """Who must decide what."""
    turn: Seat
    """Whose turn it is."""
    wholesaler: Seat | None
    """Who holds the Wholesaler card."""
    retailer: Seat | None
    """Who holds the Retailer card (Base No. 1)."""
    directors: tuple[tuple[Seat, str], ...]
    """The Directors cards dealt this hand: (seat, W/R/X), face up."""
    base_numbers: tuple[int | None, ...]
    """Each seat's Supply Base number."""
    rack: tuple[CoxCard, ...]
    """This seat's rack, sorted (empty for a spectator)."""
    racks: tuple[tuple[CoxCard, ...] | None, ...]
    """Each seat's rack where this view may see it, else None."""
    rack_sizes: tuple[int, ...]
    """Cards in each rack."""
    laid: tuple[tuple[tuple[CoxCard, ...], ...], ...]
    """Each seat's laid-out combinations."""
    greenbacks: tuple[tuple[CoxCard, ...], ...]
    """Each seat's Greenbacks."""
    discards: tuple[CoxCard, ...]
    """The discard pile, oldest first."""
    live: CoxCard | None
    """The discard that may still be bought, if any."""
    discarder: Seat | None
    """Who made it."""
    supply: tuple[int, ...]
    """Cards left in Supply Bases 1-4."""
    current_base: int
    """The base drawn from next (1-4; 5 when all are empty)."""
    totals: tuple[int, ...]
    """Each seat's score over the finished hands."""
    hand_scores: tuple[tuple[int, ...], ...]
    """Each finished hand's scores."""
    events: tuple[Event, ...]
    """Events of the current hand this seat may see."""
    last_hand: tuple[Event, ...]
    """How the previous hand ended (public)."""
    over: bool
    """Whether the game has ended."""

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form (cards in notation)."""
        return {
            "seat": self.seat,
            "rules": self.ruleset.label,
            "players": self.players,
            "hand": self.hand_number,
            "hands_total": self.hands_total,
            "decision": None if self.decision is None else self.decision.to_dict(),
            "turn": self.turn,
            "wholesaler": self.wholesaler,
            "retailer": self.retailer,
            "directors": [list(d) for d in self.directors],
            "base_numbers": list(self.base_numbers),
            "rack": _names(self.rack),
            "racks": [None if r is None else _names(r) for r in self.racks],
            "rack_sizes": list(self.rack_sizes),
            "laid": [[_names(g) for g in groups] for groups in self.laid],
            "greenbacks": [_names(g) for g in self.greenbacks],
            "discards": _names(self.discards),
            "live": None if self.live is None else format_cox_card(self.live),
            "discarder": self.discarder,
            "supply": list(self.supply),
            "current_base": self.current_base,
            "totals": list(self.totals),
            "hand_scores": [list(h) for h in self.hand_scores],
            "events": [event_to_dict(e) for e in self.events],
            "last_hand": [event_to_dict(e) for e in self.last_hand],
            "over": self.over,
        }


def _names(cards: tuple[CoxCard, ...]) -> list[str]:
    return [format_cox_card(c) for c in cards]


def event_to_dict(e: Event) -> dict[str, object]:
    """A JSON-ready form of an event of this family."""
    out: dict[str, object] = {"kind": e.kind, "seat": e.seat}
    for key, value in e.data:
        if key == "card":
            out[key] = format_cox_card(value)
        elif key == "cards":
            out[key] = _names(value)
        elif key == "racks":
            out[key] = [_names(r) for r in value]
        else:
            out[key] = list(value) if isinstance(value, tuple) else value
    return out


class Copies:
    """Renumbers copies for one view: the first A1 the view shows is copy 0, the next copy 1.

    Places are walked in a fixed order (the discards, each seat's laid-out combinations and
    Greenbacks, then the racks shown), so the numbers depend only on the faces in each place:
    a view never tells which of four alike cards it shows.
    """

    __slots__ = ("used",)

    def __init__(self) -> None:
        self.used = [0] * 80

    def place(self, cards: Sequence[CoxCard]) -> tuple[CoxCard, ...]:
        """The cards of one place, renumbered."""
        used = self.used
        out = []
        for c in cards:
            f = face_card(c)
            out.append(f + used[f])
            used[f] += 1
        return tuple(out)


def shown_decision(s: CoxState, seat: Seat | None, everything: bool) -> Decision | None:
    """The decision as *seat* sees it: a buy offer to another seat shows as the turn player's
    draw-or-buy decision (the turn as it stood)."""
    d = decision(s)
    if s.turn.phase is Phase.OFFER and not everything and seat != s.turn.actor:
        return Decision(s.turn.player, DecisionKind.DRAW_OR_BUY)
    return d


def directors_shown(s: CoxState) -> tuple[tuple[Seat, str], ...]:
    """The Directors cards dealt so far, face up: (seat, W/R/X)."""
    n = s.players
    dealer = s.session.director_dealer
    return tuple(((dealer + s.step * (i + 1)) % n, DIRECTOR_NAMES[code])
                 for i, code in enumerate(s.deal.directors))


def view(s: CoxState, seat: Seat | None, everything: bool) -> CoxObservation:
    """The view of *seat* (None: a spectator), or every rack and event (*everything*)."""
    deal = s.deal
    current = deal.current_base
    while current < 4 and not deal.bases[current]:
        current += 1
    copies = Copies()
    discards = copies.place(deal.discards)
    laid = tuple(tuple(copies.place(g) for g in groups) for groups in deal.laid)
    greenbacks = tuple(copies.place(g) for g in deal.greenbacks)
    racks = tuple(copies.place(sorted(r, key=face_card)) if (everything or i == seat) else None
                  for i, r in enumerate(deal.racks))
    return CoxObservation(
        seat=seat,
        ruleset=s.ruleset,
        players=s.players,
        hand_number=s.session.hand_number,
        hands_total=CoxOptions.of(s.ruleset).hands_per_game,
        decision=shown_decision(s, seat, everything),
        turn=s.turn.player,
        wholesaler=deal.wholesaler,
        retailer=deal.retailer,
        directors=directors_shown(s),
        base_numbers=deal.base_numbers,
        rack=(racks[seat] or ()) if seat is not None else (),
        racks=racks,
        rack_sizes=tuple(len(r) for r in deal.racks),
        laid=laid,
        greenbacks=greenbacks,
        discards=discards,
        live=discards[-1] if s.turn.live is not None else None,
        discarder=s.turn.discarder if s.turn.live is not None else None,
        supply=(tuple(len(b) for b in deal.bases) if s.turn.phase is not Phase.SHUFFLE
                else (0,) * 4),
        current_base=current + 1,
        totals=s.session.totals,
        hand_scores=s.session.hand_scores,
        events=deal.log if everything else tuple(e for e in deal.log if e.visible(seat)),
        last_hand=s.session.last_hand,
        over=s.turn.phase is Phase.OVER,
    )


def observe(s: CoxState, seat: Seat | None) -> CoxObservation:
    """The view of *seat*: its rack, everything laid out, the discards, the supply sizes."""
    return view(s, seat, everything=False)


def reveal_all(s: CoxState) -> CoxObservation:
    """Every rack and event visible: for reviewing a finished or saved game (not the supply)."""
    return view(s, None, everything=True)
