"""What each seat may know: the observation, built from scratch from the reference state.

The widow, the exchanges, knocks, stands, passes and pounces are public; the cards in the
players' hands and the stock are not (docs/rulesets/widow.md: three cards face down to each player,
the widow face up), and neither are a pounce offer and its refusal: while one seat is offered a
pounce, every other seat sees the table as if no offer were pending (:func:`without_offer`).
At the showdown, and when a horse is offered, every hand is shown.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from commerce.cards import Card, format_card, format_cards
from commerce.core import Action, ActionKind, Decision, Event, Seat
from commerce.families.widow.options import WidowOptions
from commerce.families.widow.rules import apply_unchecked, decision
from commerce.families.widow.state import TOKEN_FLOWS, Phase, WidowState
from commerce.rules import Ruleset


@dataclass(frozen=True, slots=True)
class WidowObservation:
    """What one seat may know, built from scratch from the state (or everything, for a review).

    The widow, the exchanges, knocks, stands, passes and pounces are public; the cards in
    the players' hands and the stock are not, and neither are a pounce offer and its refusal
    (other seats see the table as if no offer were pending: :func:`without_offer`).
    """

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
    round: int
    """The round of turns, from 1 (0 while dealing)."""
    decision: Decision | None
    """Who must decide what (None when the game is over; another seat's pounce offer is not
    shown)."""
    turn: Seat
    """Whose turn it is."""
    hand: tuple[Card, ...]
    """The cards of this seat it may see (during his blind exchange, the dealer sees only the
    cards he has taken from the widow)."""
    hands: tuple[tuple[Card, ...] | None, ...]
    """Each seat's cards where this view may see them, else None."""
    hand_sizes: tuple[int, ...]
    """Cards each seat holds (4 after a pounce)."""
    widow: tuple[Card, ...]
    """The face-up widow."""
    stock_count: int
    """Cards left in the stock."""
    tokens: tuple[int, ...] | None
    """Tokens or counters each seat holds, where the ruleset has them."""
    balances: tuple[int, ...]
    """Each seat's net result so far (tokens or stakes)."""
    pool: int
    """Stakes in the pool (Pool Commerce)."""
    pool_counters: int
    """Counters in the pool (Pool Commerce)."""
    in_deal: tuple[Seat, ...]
    """Seats dealt in, in the order of play."""
    out: tuple[Seat, ...]
    """Seats out of the game."""
    locked: tuple[Seat, ...]
    """Seats that may not exchange again this deal."""
    passed: tuple[Seat, ...]
    """Seats that have passed."""
    stood: tuple[Seat, ...]
    """Seats that have stood or knocked."""
    pounced: tuple[Seat, ...]
    """Seats holding a pounced four."""
    knocker: Seat | None
    """The seat that knocked, if any."""
    final_turns: bool
    """Whether the final turns have begun."""
    pounce_offer: Card | None
    """The card this seat is offered for a pounce (only in its own view)."""
    events: tuple[Event, ...]
    """Events of the current deal this seat may see."""
    last_deal: tuple[Event, ...]
    """The previous deal's showdown and settlement (public)."""
    over: bool
    """Whether the session has ended."""
    ended: str
    """Why the session ended ('' while it goes on)."""

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form (cards in notation)."""
        return {
            "seat": self.seat,
            "rules": self.ruleset.label,
            "players": self.players,
            "dealer": self.dealer,
            "deal": self.deal_number,
            "round": self.round,
            "decision": None if self.decision is None else self.decision.to_dict(),
            "turn": self.turn,
            "hand": [format_card(c) for c in self.hand],
            "hands": [None if h is None else [format_card(c) for c in h] for h in self.hands],
            "hand_sizes": list(self.hand_sizes),
            "widow": [format_card(c) for c in self.widow],
            "stock": self.stock_count,
            "tokens": None if self.tokens is None else list(self.tokens),
            "balances": list(self.balances),
            "pool": self.pool,
            "pool_counters": self.pool_counters,
            "in_deal": list(self.in_deal),
            "out": list(self.out),
            "locked": list(self.locked),
            "passed": list(self.passed),
            "stood": list(self.stood),
            "pounced": list(self.pounced),
            "knocker": self.knocker,
            "final_turns": self.final_turns,
            "pounce_offer": None if self.pounce_offer is None else format_card(self.pounce_offer),
            "events": [event_to_dict(e) for e in self.events],
            "last_deal": [event_to_dict(e) for e in self.last_deal],
            "over": self.over,
            "ended": self.ended,
        }


def event_to_dict(e: Event) -> dict[str, object]:
    """A JSON-ready form of an event of this family."""
    out: dict[str, object] = {"kind": e.kind, "seat": e.seat}
    for key, value in e.data:
        if key in ("card", "gave", "took") and isinstance(value, int):
            out[key] = format_card(value)
        elif key in ("gave", "took"):
            out[key] = [format_card(c) for c in value]
        elif key == "hands":
            out[key] = [[format_card(c) for c in h] for h in value]
        else:
            out[key] = list(value) if isinstance(value, tuple) else value
    return out


def _sorted_seats(seats: frozenset[Seat]) -> tuple[Seat, ...]:
    return tuple(sorted(seats))


def _view(s: WidowState, seat: Seat | None, everything: bool) -> WidowObservation:
    deal, turn, session = s.deal, s.turn, s.session
    n = s.players
    shown = everything or turn.phase is Phase.OVER or turn.phase is Phase.HORSE
    blind = turn.phase is Phase.BLIND

    def visible(x: Seat) -> tuple[Card, ...] | None:
        if shown:
            return deal.hands[x]
        if x != seat:
            return None
        if blind and x == session.dealer:
            return deal.hands[x][:turn.swaps]  # he has seen only the cards he took
        return deal.hands[x]

    offered = turn.phase is Phase.POUNCE and (everything or seat == turn.actor)
    if everything:
        events = deal.log
    else:
        events = tuple(e for e in deal.log if e.visible(seat))
    return WidowObservation(
        seat=seat,
        ruleset=s.ruleset,
        players=n,
        dealer=session.dealer,
        deal_number=session.deal_number,
        round=turn.round,
        decision=decision(s),
        turn=turn.seat,
        hand=(visible(seat) or ()) if seat is not None else (),
        hands=tuple(visible(x) for x in range(n)),
        hand_sizes=tuple(len(h) for h in deal.hands),
        widow=deal.widow,
        stock_count=len(deal.stock),
        tokens=session.tokens if WidowOptions.of(s.ruleset).token_flow in TOKEN_FLOWS else None,
        balances=session.balances,
        pool=session.pool,
        pool_counters=session.pool_counters,
        in_deal=deal.order,
        out=tuple(x for x in range(n) if session.out_in[x]),
        locked=_sorted_seats(deal.locked),
        passed=_sorted_seats(deal.passed),
        stood=_sorted_seats(deal.stood),
        pounced=_sorted_seats(deal.pounced),
        knocker=deal.knocker,
        final_turns=turn.in_final,
        pounce_offer=turn.offer if offered else None,
        events=events,
        last_deal=session.last_deal,
        over=turn.phase is Phase.OVER,
        ended=session.ended,
    )


def observe(s: WidowState, seat: Seat | None) -> WidowObservation:
    """The view of *seat*: its own cards, the widow, public facts and the events it may see
    (a pending pounce offer only in the offered seat's view: :func:`without_offer`)."""
    if s.turn.phase is Phase.POUNCE and seat != s.turn.actor:
        return _view(without_offer(s), seat, everything=False)
    return _view(s, seat, everything=False)


def without_offer(s: WidowState) -> WidowState:
    """The state as the seats not offered a pounce see it: the offer (and any other offer
    pending on the same cards) withdrawn, play where it would stand had nobody held a tricon.

    That is whose decision declining would lead to; the log, the round and everything else
    stay as they are (the private ``pounce_declined`` events, and a ``round_started`` still to
    come, are not shown). Where declining would end the deal, chance is shown to act: the
    showdown is not shown before it happens.
    """
    t = s
    while t.turn.phase is Phase.POUNCE:
        t = apply_unchecked(t, Action(ActionKind.DECLINE)).state
    if (t.session.deal_number != s.session.deal_number or t.turn.phase is Phase.OVER
            or t.turn.phase is Phase.HORSE):
        turn = replace(s.turn, phase=Phase.CARD, offer=None)
    else:
        turn = replace(s.turn, phase=t.turn.phase, actor=t.turn.actor, seat=t.turn.seat,
                       offer=None)
    return replace(s, turn=turn)


def reveal_all(s: WidowState) -> WidowObservation:
    """Every hand and every event visible: for reviewing a finished or saved game."""
    return _view(s, None, everything=True)


def render_observation(obs: WidowObservation) -> str:
    """A plain-text picture of an observation, for a terminal.

    >>> from commerce import engine
    >>> from commerce.rules import find_ruleset
    >>> s = engine.new_game(find_ruleset("widow"), players=3)
    >>> print(render_observation(observe(s, 1)))  # doctest: +NORMALIZE_WHITESPACE
    Commerce, the widow game with tokens - deal 1, round 0, dealer seat 0
    widow: -    stock: 52
    seat 0 (dealer): 3 tokens, 0 cards
    seat 1 (you): 3 tokens, 0 cards
    seat 2: 3 tokens, 0 cards
    to act: chance
    """
    lines = [f"{obs.ruleset.name} - deal {obs.deal_number}, round {obs.round}, "
             f"dealer seat {obs.dealer}"]
    widow = format_cards(obs.widow) or "-"
    pool = f"    pool: {obs.pool} stakes, {obs.pool_counters} counters" if (
        WidowOptions.of(obs.ruleset).token_flow == "lowest_to_pool") else ""
    lines.append(f"widow: {widow}    stock: {obs.stock_count}{pool}")
    for x in range(obs.players):
        tags = []
        if x == obs.dealer:
            tags.append("dealer")
        if x == obs.seat:
            tags.append("you")
        head = f"seat {x}" + (f" ({', '.join(tags)})" if tags else "")
        parts = []
        if obs.tokens is not None:
            parts.append(f"{obs.tokens[x]} tokens")
        else:
            parts.append(f"{obs.balances[x]:+d} stakes")
        if x in obs.out:
            parts.append("out")
        else:
            cards = obs.hands[x]
            parts.append(format_cards(cards) if cards else f"{obs.hand_sizes[x]} cards")
        for flag, word in ((obs.knocker == x, "knocked"), (x in obs.stood and obs.knocker != x,
                           "stood"), (x in obs.passed, "passed"), (x in obs.pounced, "pounced"),
                           (x in obs.locked and x not in obs.stood and x not in obs.passed,
                            "no more exchanges")):
            if flag:
                parts.append(word)
        lines.append(f"{head}: {', '.join(parts)}")
    if obs.over:
        lines.append(f"game over: {obs.ended}")
    elif obs.decision is None:
        lines.append("waiting")
    elif obs.decision.seat is None:
        lines.append("to act: chance")
    else:
        final = " (final turns)" if obs.final_turns else ""
        lines.append(f"to act: seat {obs.decision.seat}, {obs.decision.kind.value}{final}")
    if obs.pounce_offer is not None:
        lines.append(f"you may pounce on {format_card(obs.pounce_offer)}")
    return "\n".join(lines)
