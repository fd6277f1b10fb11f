"""What each seat may know of a game of Vingt-un: its observation, built from scratch.

A player's first two cards (and a divided half's second card) lie face down: he sees his
own, nobody sees the others', the dealer's included, until they are shown (a natural, an
over-draw, the settlement of the hand). Drawn cards and a divided pair lie face up. Stakes,
the double, counters, the pool, the size of the stock and the used cards the pone holds (each
was seen face up) are public.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from commerce.cards import Card, format_card
from commerce.core import Decision, Event, Seat
from commerce.families.vingtun.options import VingtUnOptions
from commerce.families.vingtun.state import Phase, Status, VingtUnState, decision
from commerce.rules import Ruleset


class HandView(NamedTuple):
    """One hand of cards as a seat may see it."""

    cards: tuple[Card | None, ...]
    """Its cards, None where face down to this seat."""
    stake: int
    """Counters staked on it."""
    status: str
    """Where it stands (:class:`~commerce.families.vingtun.state.Status` value)."""
    divided: bool
    """Whether it is half of a divided pair."""
    up: tuple[bool, ...]
    """For each card, whether it lies face up (public)."""


@dataclass(frozen=True, slots=True)
class VingtUnObservation:
    """What one seat may know, built from scratch from the state (or everything, for a review)."""

    seat: Seat | None
    """Whose view this is (None: a spectator or a review)."""
    ruleset: Ruleset
    """The rules in force."""
    players: int
    """Number of seats."""
    dealer: Seat
    """The dealer."""
    deal_number: int
    """The current deal (dealer's turn), from 1 (0 while the first dealer is sought)."""
    deals_total: int
    """Deals in the session."""
    hand_number: int
    """The current hand of this deal, from 1."""
    stage: str
    """Where the hand stands: choose, first, stake, double, second, play, draw, dealer, over."""
    decision: Decision | None
    """Who must decide what."""
    actor: Seat
    """The seat acting or receiving a card."""
    part: int
    """Which of the actor's hands."""
    hand: tuple[Card, ...]
    """This seat's own cards, all its hands (empty for a spectator)."""
    hands: tuple[tuple[HandView, ...], ...]
    """Each seat's hands as this view may see them."""
    doubled: bool
    """Whether the dealer called 'double' this hand."""
    balances: tuple[int, ...]
    """Each seat's net counters."""
    pool: int
    """Counters in the pool."""
    stock_count: int
    """Cards in the stock."""
    used: tuple[Card, ...]
    """The used cards the pone holds, in card order."""
    renewals: int
    """Times the stock was renewed from the used cards in this deal."""
    put_out: Seat | None
    """The player whose natural puts the dealer out at the end of this hand, if any."""
    events: tuple[Event, ...]
    """Events of the current hand this seat may see."""
    last_hand: tuple[Event, ...]
    """The previous hand's settlement (public)."""
    over: bool
    """Whether the session has ended."""

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form (cards in notation, face-down cards as null)."""
        return {
            "seat": self.seat, "rules": self.ruleset.label, "players": self.players,
            "dealer": self.dealer, "deal": self.deal_number, "deals_total": self.deals_total,
            "hand_number": self.hand_number, "stage": self.stage,
            "decision": None if self.decision is None else self.decision.to_dict(),
            "hand": [format_card(c) for c in self.hand],
            "hands": [[{"cards": [None if c is None else format_card(c) for c in h.cards],
                        "stake": h.stake, "status": h.status, "divided": h.divided,
                        "up": list(h.up)}
                       for h in seat] for seat in self.hands],
            "doubled": self.doubled, "balances": list(self.balances), "pool": self.pool,
            "stock": self.stock_count, "used": [format_card(c) for c in self.used],
            "events": [event_to_dict(e) for e in self.events], "over": self.over,
        }


def event_to_dict(e: Event) -> dict[str, object]:
    """A JSON-ready form of an event of this family."""
    out: dict[str, object] = {"kind": e.kind, "seat": e.seat}
    for key, v in e.data:
        if key == "card":
            out[key] = format_card(v)
        elif key == "cards":
            out[key] = [format_card(c) for c in v]
        elif key == "hands":
            out[key] = [[[format_card(c) for c in h] for h in seat] for seat in v]
        else:
            out[key] = list(v) if isinstance(v, tuple) else v
    return out


def _view(s: VingtUnState, seat: Seat | None, everything: bool) -> VingtUnObservation:
    hands = tuple(
        tuple(HandView(tuple(c if (everything or up or x == seat) else None
                             for c, up in zip(h.cards, h.up, strict=True)),
                       h.stake, h.status.value, h.divided, h.up) for h in own)
        for x, own in enumerate(s.round.hands))
    own = () if seat is None else tuple(c for h in s.round.hands[seat] for c in h.cards)
    return VingtUnObservation(
        seat=seat, ruleset=s.ruleset, players=s.players, dealer=s.dealer,
        deal_number=s.session.deal_number,
        deals_total=s.players * VingtUnOptions.of(s.ruleset).deals_each,
        hand_number=s.session.hand_number, stage=s.phase.name.lower(), decision=decision(s),
        actor=s.current.actor, part=s.current.part, hand=own, hands=hands,
        doubled=s.round.doubled, balances=s.session.balances, pool=s.session.pool,
        stock_count=len(s.round.stock), used=s.round.used, renewals=s.session.renewals,
        put_out=s.round.put_out,
        events=s.round.log if everything else tuple(e for e in s.round.log if e.visible(seat)),
        last_hand=s.session.last_hand, over=s.phase is Phase.OVER)


def observe(s: VingtUnState, seat: Seat | None) -> VingtUnObservation:
    """The view of *seat*: its own cards, every face-up card and the public facts."""
    return _view(s, seat, False)


def reveal_all(s: VingtUnState) -> VingtUnObservation:
    """Every card and every event visible: for reviewing a finished or saved game."""
    return _view(s, None, True)


def standing(h: HandView) -> bool:
    """Whether a hand still plays against the dealer."""
    return h.status in (Status.OPEN.value, Status.CONTENT.value)
