"""The state of a widow-family game, split by how long each part lives.

* :class:`Session` lasts the whole game: tokens or stakes, the pool, who is out, the dealer.
* :class:`Deal` lasts one deal: the hands, the widow, the stock, who has passed, stood or
  knocked, and the deal's events.
* :class:`Turn` says where play stands: whose turn, the phase, a pending pounce offer.

:class:`WidowState` holds the three with the ruleset and the number of seats. Every part is
a frozen dataclass; the rule steps change them with :func:`commerce.core.evolve` on named
fields (:func:`with_session`, :func:`with_deal`, :func:`with_turn`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from commerce.cards import Card
from commerce.core import Event, Seat, evolve
from commerce.rules import Ruleset


class Phase(IntEnum):
    """Where a deal stands."""

    DEAL = 0
    """Chance deals the hands and the widow."""
    BLIND = 1
    """The dealer's blind exchange."""
    TURN = 2
    """A player's ordinary turn begins."""
    MORE = 3
    """After a one-for-one exchange: exchange another card, or end the turn (done)."""
    FINAL = 4
    """A final turn (after a knock or the second stand) begins."""
    CARD = 5
    """Chance turns a card from the stock into the widow (new round, or after a pounce)."""
    POUNCE = 6
    """A player may pounce on the fourth card of his tricon."""
    HORSE = 7
    """A player just out of counters may buy a horse."""
    OVER = 8
    """The session has ended."""


class Resume(IntEnum):
    """What follows once the cards that just reached the widow have been offered for pounces."""

    MORE = 0
    """The player exchanging goes on with his turn."""
    NEXT = 1
    """The next turn."""
    FIRST = 2
    """The first turn of the round (after the deal, the blind exchange or a round's card)."""


@dataclass(frozen=True)
class Session:
    """What lasts from deal to deal."""

    tokens: tuple[int, ...]
    """Tokens (counters) each seat holds; zeros where stakes are paid instead."""
    balances: tuple[int, ...]
    """Each seat's net result so far: tokens won minus lost, or stakes."""
    out_in: tuple[int, ...]
    """The deal in which each seat went out of the game (0: still in)."""
    deals_won: tuple[int, ...]
    """Deals each seat has won."""
    pool: int
    """Stakes in the pool (Pool Commerce)."""
    pool_counters: int
    """Counters put into the pool by the lowest hands (Pool Commerce)."""
    horses: int
    """Horses bought so far."""
    horse_open: bool
    """Nobody has gone out yet (the first to go out may buy a horse)."""
    horse_offers: tuple[Seat, ...]
    """Seats still to be offered a horse after this deal."""
    dealer: Seat
    """The dealer of the current deal."""
    deal_number: int
    """Deals begun so far."""
    last_deal: tuple[Event, ...]
    """The public showdown and settlement events of the previous deal."""
    ended: str
    """Why the session ended ('' while it goes on)."""


@dataclass(frozen=True)
class Deal:
    """What lasts one deal."""

    order: tuple[Seat, ...]
    """The seats dealt in, in the order of play: eldest first, the dealer last."""
    hands: tuple[tuple[Card, ...], ...]
    """Each seat's cards (in the order received; a pounced four sorted)."""
    widow: tuple[Card, ...]
    """The face-up widow, in card order."""
    stock: tuple[Card, ...]
    """The cards not yet dealt, in card order (which one comes next is chance's)."""
    to_deal: int
    """Cards still to deal in the initial deal."""
    locked: frozenset[Seat]
    """Seats that may not exchange again this deal."""
    passed: frozenset[Seat]
    """Seats that have passed (where a pass locks a player out)."""
    stood: frozenset[Seat]
    """Seats that have stood or knocked."""
    pounced: frozenset[Seat]
    """Seats holding a pounced four (their hand may not change)."""
    knocker: Seat | None
    """The seat that knocked, if any."""
    log: tuple[Event, ...]
    """The deal's events (each seat sees those visible to it)."""


@dataclass(frozen=True)
class Turn:
    """Where play stands within the deal."""

    phase: Phase
    """What is being decided."""
    actor: Seat
    """The seat to act (during chance phases, whoever acted last)."""
    seat: Seat
    """The seat whose turn it is (the dealer during his blind exchange)."""
    pos: int
    """Index in the deal's order of the seat whose turn it is (-1 before the round's first)."""
    round: int
    """The round of turns, from 1 (0 while dealing)."""
    final: tuple[Seat, ...]
    """Seats still to take a final turn."""
    in_final: bool
    """Whether the final turns have begun."""
    swaps: int
    """One-for-one exchanges in this turn (or in the dealer's blind exchange)."""
    moved: tuple[Card, ...]
    """Cards moved in this turn: they may not be moved back in it."""
    resume: Resume
    """What follows once the cards just put in the widow have been offered for pounces."""
    fresh: tuple[Card, ...]
    """Cards that reached the widow and are still to be offered for a pounce."""
    offer: Card | None
    """The card offered for a pounce, if one is."""


@dataclass(frozen=True)
class WidowState:
    """A session of a widow-family game, between two actions (never sent to a player: views
    come from :func:`commerce.families.widow.observe.observe`)."""

    ruleset: Ruleset
    """The rules in force."""
    players: int
    """Number of seats."""
    session: Session
    """What lasts from deal to deal."""
    deal: Deal
    """The deal in progress."""
    turn: Turn
    """Where play stands."""

    # Shorthands for the parts read most (the generic tests and the analyses read these).
    @property
    def dealer(self) -> Seat:
        """The dealer of the current deal."""
        return self.session.dealer

    @property
    def tokens(self) -> tuple[int, ...]:
        """Tokens each seat holds."""
        return self.session.tokens

    @property
    def balances(self) -> tuple[int, ...]:
        """Each seat's net result so far."""
        return self.session.balances

    @property
    def pool(self) -> int:
        """Stakes in the pool."""
        return self.session.pool

    @property
    def log(self) -> tuple[Event, ...]:
        """Events of the deal (:attr:`Deal.log`): a new game's state holds its first deal's
        ``deal_started``, which a driver reads before any action."""
        return self.deal.log

    @property
    def pool_counters(self) -> int:
        """Counters in the pool."""
        return self.session.pool_counters

    @property
    def horses(self) -> int:
        """Horses bought so far."""
        return self.session.horses

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards."""
        return self.deal.hands

    @property
    def widow(self) -> tuple[Card, ...]:
        """The face-up widow."""
        return self.deal.widow

    @property
    def unseen(self) -> tuple[Card, ...]:
        """The stock."""
        return self.deal.stock

    @property
    def phase(self) -> Phase:
        """Where the deal stands."""
        return self.turn.phase


def with_session(s: WidowState, **changes: Any) -> WidowState:
    """*s* with the named fields of its session changed."""
    return evolve(s, session=evolve(s.session, **changes))


def with_deal(s: WidowState, **changes: Any) -> WidowState:
    """*s* with the named fields of its deal changed."""
    return evolve(s, deal=evolve(s.deal, **changes))


def with_turn(s: WidowState, **changes: Any) -> WidowState:
    """*s* with the named fields of its turn changed."""
    return evolve(s, turn=evolve(s.turn, **changes))


def logged(s: WidowState, *events: Event) -> WidowState:
    """*s* with *events* added to the deal's log."""
    return with_deal(s, log=s.deal.log + events)


def step_of(rules: Ruleset) -> int:
    """+1 where play goes to the left, -1 to the right."""
    return 1 if rules.direction == "left" else -1


def seats_from(dealer: Seat, rules: Ruleset, n: int) -> list[Seat]:
    """Every seat in the order of play, the dealer's eldest first, the dealer last."""
    step = step_of(rules)
    return [(dealer + step * i) % n for i in range(1, n + 1)]


TOKEN_FLOWS = frozenset({"lowest_to_best", "lowest_to_pool"})
"""The token flows in which each seat holds tokens (counters)."""
