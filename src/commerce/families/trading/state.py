"""The state of a trading-family game, split by how long each part lives.

- :class:`Session` lasts the whole game: the stakes each player has won or lost, the deals he
  has won, who deals now and how many deals have begun.
- :class:`Deal` lasts one deal: the hands, the stock (its unseen cards and the traded-in cards
  under them), the pool, and the deal's events.
- :class:`Turn` lasts one turn: where play stands (:class:`Phase`), who acts, whose turn it is,
  and the card offered in a pending barter.

:class:`TradingState` holds the three with the ruleset and the number of players. Every part is
a frozen dataclass; a rule step returns a new state made with :func:`commerce.core.evolve` on the
fields it changes. States are never sent to a player: views come from
:func:`commerce.families.trading.observe.observe`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from commerce.cards import Card
from commerce.core import Event, Seat
from commerce.rules import Ruleset


class Phase(IntEnum):
    """Where a deal stands."""

    DEAL = 0
    """Chance deals the hands."""
    TURN = 1
    """A player's turn begins."""
    DRAW = 2
    """Chance gives the trader the top card of the stock."""
    AFTER_TRADE = 3
    """The player who traded or bartered may stand or end his turn."""
    BARTER_REPLY = 4
    """The neighbour offered a barter gives a card back or stands."""
    OVER = 5
    """The session has ended."""


@dataclass(frozen=True)
class Session:
    """What lasts from deal to deal."""

    balances: tuple[int, ...]
    """Each seat's net stakes over the session so far (the pool holds the rest)."""
    deals_won: tuple[int, ...]
    """Deals each seat has won."""
    dealer: Seat
    """The dealer of the current deal."""
    deal_number: int
    """Deals begun so far (1 during the first deal)."""
    last_deal: tuple[Event, ...]
    """The public events of the previous deal's showdown and settlement."""


@dataclass(frozen=True)
class Deal:
    """What lasts one deal."""

    hands: tuple[tuple[Card, ...], ...]
    """Each seat's cards: a drawn card goes last, a card got in barter takes the place of the
    card given."""
    unseen: tuple[Card, ...]
    """Cards of the stock nobody has seen, in card order (their order is chance's)."""
    bottom: tuple[Card, ...]
    """Traded-in cards under the unseen ones, top first."""
    pool: int
    """Stakes in the pool."""
    to_deal: int
    """Cards still to deal in the initial deal."""
    log: tuple[Event, ...]
    """Events of the deal (filtered by visibility before anyone sees them)."""


@dataclass(frozen=True)
class Turn:
    """What lasts one turn."""

    phase: Phase
    """Where the deal stands."""
    actor: Seat
    """The seat to act (the trader while he draws; the partner answering a barter)."""
    seat: Seat
    """Whose turn it is."""
    taken: int
    """Turns begun this deal (a full round is one turn for each player)."""
    offered: Card | None
    """The card offered in a pending barter."""


@dataclass(frozen=True)
class TradingState:
    """A session of a trading-family game, between two actions.

    The properties below read the parts for convenience (``state.hands`` is
    ``state.deal.hands``); a change goes through the part that holds the field.
    """

    ruleset: Ruleset
    """The rules in force."""
    players: int
    """Number of seats."""
    session: Session
    """What lasts from deal to deal."""
    deal: Deal
    """What lasts this deal."""
    current: Turn
    """What lasts this turn."""

    @property
    def step(self) -> int:
        """+1 when play goes to the left (increasing seats), -1 to the right."""
        return 1 if self.ruleset.direction == "left" else -1

    @property
    def balances(self) -> tuple[int, ...]:
        """Each seat's net stakes (:attr:`Session.balances`)."""
        return self.session.balances

    @property
    def deals_won(self) -> tuple[int, ...]:
        """Deals each seat has won (:attr:`Session.deals_won`)."""
        return self.session.deals_won

    @property
    def dealer(self) -> Seat:
        """The dealer (:attr:`Session.dealer`)."""
        return self.session.dealer

    @property
    def deal_number(self) -> int:
        """The current deal, from 1 (:attr:`Session.deal_number`)."""
        return self.session.deal_number

    @property
    def last_deal(self) -> tuple[Event, ...]:
        """The previous deal's settlement (:attr:`Session.last_deal`)."""
        return self.session.last_deal

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards (:attr:`Deal.hands`)."""
        return self.deal.hands

    @property
    def unseen(self) -> tuple[Card, ...]:
        """The unseen cards of the stock (:attr:`Deal.unseen`)."""
        return self.deal.unseen

    @property
    def bottom(self) -> tuple[Card, ...]:
        """The traded-in cards under them (:attr:`Deal.bottom`)."""
        return self.deal.bottom

    @property
    def pool(self) -> int:
        """Stakes in the pool (:attr:`Deal.pool`)."""
        return self.deal.pool

    @property
    def log(self) -> tuple[Event, ...]:
        """Events of the deal (:attr:`Deal.log`)."""
        return self.deal.log

    @property
    def phase(self) -> Phase:
        """Where the deal stands (:attr:`Turn.phase`)."""
        return self.current.phase

    @property
    def actor(self) -> Seat:
        """The seat to act (:attr:`Turn.actor`)."""
        return self.current.actor

    @property
    def turn(self) -> Seat:
        """Whose turn it is (:attr:`Turn.seat`)."""
        return self.current.seat

    @property
    def turns_taken(self) -> int:
        """Turns begun this deal (:attr:`Turn.taken`)."""
        return self.current.taken

    @property
    def to_deal(self) -> int:
        """Cards still to deal (:attr:`Deal.to_deal`)."""
        return self.deal.to_deal

    @property
    def offered(self) -> Card | None:
        """The card offered in a pending barter (:attr:`Turn.offered`)."""
        return self.current.offered
