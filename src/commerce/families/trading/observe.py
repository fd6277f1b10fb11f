"""What each seat may know of a trading-family game: its observation, built from scratch.

Hands are held concealed; the cards a player traded in and drew, and the cards of a barter,
are seen only by the players concerned (each event says who may see it, ``visible_to``);
stakes, the pool, the size of the stock and every other event are public.
"""

from __future__ import annotations

from dataclasses import dataclass

from commerce.cards import Card, format_card, format_cards
from commerce.core import Decision, Event, Seat
from commerce.families.trading.options import TradingOptions
from commerce.families.trading.state import Phase, TradingState
from commerce.families.trading.turn import decision
from commerce.rules import Ruleset


@dataclass(frozen=True, slots=True)
class TradingObservation:
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
    """The current deal, from 1."""
    deals_total: int
    """Deals in the session."""
    decision: Decision | None
    """Who must decide what."""
    turn: Seat
    """Whose turn it is."""
    hand: tuple[Card, ...]
    """This seat's cards (empty for a spectator)."""
    hands: tuple[tuple[Card, ...] | None, ...]
    """Each seat's cards where this view may see them, else None."""
    pool: int
    """Stakes in the pool."""
    balances: tuple[int, ...]
    """Each seat's net stakes."""
    stock_count: int
    """Cards left in the stock."""
    offered: Card | None
    """The card offered to this seat in a pending barter (or by it)."""
    events: tuple[Event, ...]
    """Events of the current deal this seat may see."""
    last_deal: tuple[Event, ...]
    """The previous deal's showdown and payments (public)."""
    over: bool
    """Whether the session has ended."""

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form (cards in notation)."""
        return {
            "seat": self.seat,
            "rules": self.ruleset.label,
            "players": self.players,
            "dealer": self.dealer,
            "deal": self.deal_number,
            "deals_total": self.deals_total,
            "decision": None if self.decision is None else self.decision.to_dict(),
            "hand": [format_card(c) for c in self.hand],
            "hands": [None if h is None else [format_card(c) for c in h] for h in self.hands],
            "pool": self.pool,
            "balances": list(self.balances),
            "stock": self.stock_count,
            "offered": None if self.offered is None else format_card(self.offered),
            "events": [event_to_dict(e) for e in self.events],
            "over": self.over,
        }


def event_to_dict(e: Event) -> dict[str, object]:
    """A JSON-ready form of an event of this family."""
    out: dict[str, object] = {"kind": e.kind, "seat": e.seat}
    for key, value in e.data:
        if key == "card":
            out[key] = format_card(value)
        elif key == "cards":
            out[key] = [format_card(c) for c in value]
        elif key == "hands":
            out[key] = [[format_card(c) for c in h] for h in value]
        else:
            out[key] = list(value) if isinstance(value, tuple) else value
    return out


def observe(s: TradingState, seat: Seat | None) -> TradingObservation:
    """The view of *seat*: its own cards, public facts and the events it may see.

    A player sees his own hand and not the others' until the hands are shown at the end (Peel,
    docs/rulesets/peel.md: the cards are dealt face down; when one stands, everyone
    exposes); the card offered in a barter is known to the two players of the barter, the
    traded-in and drawn cards to the trader alone (they pass face down).
    """
    events = tuple(e for e in s.log if e.visible(seat))
    shown = s.phase is Phase.OVER
    hands = tuple(
        s.hands[i] if (shown or i == seat) else None for i in range(s.players)
    )
    offered = None
    if s.offered is not None and seat is not None and seat in (s.turn, s.actor):
        offered = s.offered
    return TradingObservation(
        seat=seat,
        ruleset=s.ruleset,
        players=s.players,
        dealer=s.dealer,
        deal_number=s.deal_number,
        deals_total=s.players * TradingOptions.of(s.ruleset).deals_each,
        decision=decision(s),
        turn=s.turn,
        hand=s.hands[seat] if seat is not None else (),
        hands=hands,
        pool=s.pool,
        balances=s.balances,
        stock_count=len(s.unseen) + len(s.bottom),
        offered=offered,
        events=events,
        last_deal=s.last_deal,
        over=s.phase is Phase.OVER,
    )


def reveal_all(s: TradingState) -> TradingObservation:
    """Every hand and every event visible: for reviewing a finished or saved game."""
    return TradingObservation(
        seat=None,
        ruleset=s.ruleset,
        players=s.players,
        dealer=s.dealer,
        deal_number=s.deal_number,
        deals_total=s.players * TradingOptions.of(s.ruleset).deals_each,
        decision=decision(s),
        turn=s.turn,
        hand=(),
        hands=s.hands,
        pool=s.pool,
        balances=s.balances,
        stock_count=len(s.unseen) + len(s.bottom),
        offered=s.offered,
        events=s.log,
        last_deal=s.last_deal,
        over=s.phase is Phase.OVER,
    )


def render_observation(obs: TradingObservation) -> str:
    """A plain-text picture of an observation, for a terminal.

    >>> from commerce import engine
    >>> from commerce.rules import find_ruleset
    >>> s = engine.new_game(find_ruleset("peel"), players=3)
    >>> print(render_observation(observe(s, 1)))
    Commerce, Peel's new mode - deal 1 of 3, dealer seat 0
    pool: 4 stakes    stock: 52
    seat 0 (dealer): -2 stakes, hidden
    seat 1 (you): -1 stakes, no cards yet
    seat 2: -1 stakes, hidden
    to act: chance
    """
    lines = [f"{obs.ruleset.name} - deal {obs.deal_number} of {obs.deals_total}, "
             f"dealer seat {obs.dealer}",
             f"pool: {obs.pool} stakes    stock: {obs.stock_count}"]
    for x in range(obs.players):
        tags = [word for flag, word in ((x == obs.dealer, "dealer"), (x == obs.seat, "you"))
                if flag]
        head = f"seat {x}" + (f" ({', '.join(tags)})" if tags else "")
        cards = obs.hands[x]
        shown = "hidden" if cards is None else (format_cards(cards) or "no cards yet")
        lines.append(f"{head}: {obs.balances[x]:+d} stakes, {shown}")
    if obs.offered is not None:
        lines.append(f"barter card: {format_card(obs.offered)}")
    if obs.over:
        lines.append("game over")
    elif obs.decision is None or obs.decision.seat is None:
        lines.append("to act: chance")
    else:
        lines.append(f"to act: seat {obs.decision.seat}, {obs.decision.kind.value}")
    return "\n".join(lines)
