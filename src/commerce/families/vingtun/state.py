"""The state of a game of Vingt-un, split by how long each part lives.

The word *deal* means here, as in Peel's chapter, a dealer's whole turn with the pack; one
round of stakes, cards and settlement under that dealer is a *hand*.

- :class:`Session` lasts the whole game: each seat's counters, the pool, who deals, how many
  deals and hands have begun, and the public settlement of the previous hand.
- :class:`Round` lasts one hand: each seat's hands of cards (two after dividing a pair), the
  stock (its unseen cards), the used cards the pone holds, whether the dealer doubled, and the
  hand's events.
- :class:`Turn` lasts one decision: where the hand stands (:class:`Phase`), who acts, and
  which of his hands.

Every part is a frozen dataclass; a rule step returns a new state made with
:func:`dataclasses.replace`. States are never sent to a player: views come from
:func:`commerce.families.vingtun.observe.observe`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum

from commerce.cards import Card, rank_of
from commerce.core import Decision, DecisionKind, Event, Seat
from commerce.rules import Ruleset


class Phase(IntEnum):
    """Where a hand stands."""

    CHOOSE = 0
    """Chance turns cards face up, one to each player, until an ace shows the first dealer."""
    FIRST = 1
    """Chance deals the first card to each player, face down."""
    STAKE = 2
    """A player stakes on his first card."""
    DOUBLE = 3
    """The dealer may double every stake."""
    SECOND = 4
    """Chance deals the second card to each player, face down."""
    PLAY = 5
    """A player says 'content', asks for a card, or divides a pair."""
    DRAW = 6
    """Chance gives the actor's hand a card."""
    DEALER = 7
    """The dealer draws for himself or is content."""
    OVER = 8
    """The session has ended."""
    DIVIDE = 9
    """Before the drawing, a player says whether he divides a pair (``divide_when=
    "before_drawing"``; every player is asked in turn, so that nobody learns who holds one)."""


class Status(StrEnum):
    """Where one hand of cards stands."""

    OPEN = "open"
    """Still to play (or playing)."""
    CONTENT = "content"
    """Standing, to be settled with the dealer."""
    OVER = "over"
    """Over-drawn: paid at once, its cards gone to the pone."""
    NATURAL = "natural"
    """A natural, paid at once."""
    VOID = "void"
    """A natural against the dealer's natural: nothing paid."""
    SETTLED = "settled"
    """Paid the dealer's natural."""


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand of cards of a seat (a seat holds two after dividing a pair)."""

    cards: tuple[Card, ...] = ()
    """The cards, in the order dealt."""
    up: tuple[bool, ...] = ()
    """For each card, whether it lies face up (drawn cards, a divided pair)."""
    stake: int = 0
    """Counters staked on it (the dealer's hand: 0)."""
    status: Status = Status.OPEN
    """Where it stands."""
    divided: bool = False
    """Whether it is one half of a divided pair."""


@dataclass(frozen=True, slots=True)
class Session:
    """What lasts from hand to hand and from deal to deal."""

    balances: tuple[int, ...]
    """Each seat's net counters (the pool holds the rest)."""
    pool: int
    """Counters in the pool."""
    dealer: Seat
    """The dealer."""
    deal_number: int
    """Deals (dealers' turns) begun (0 while the first dealer is sought)."""
    hand_number: int
    """Hands begun in this deal."""
    renewals: int
    """Times the stock was renewed from the used cards in this deal."""
    last_hand: tuple[Event, ...]
    """The public events of the previous hand's settlement."""
    hands_won: tuple[int, ...]
    """Hands each seat ended with more counters than it began."""
    hand_start: tuple[int, ...]
    """Each seat's counters when the current hand began."""


@dataclass(frozen=True, slots=True)
class Round:
    """What lasts one hand."""

    hands: tuple[tuple[Hand, ...], ...]
    """Each seat's hands of cards (one, or two after dividing)."""
    stock: tuple[Card, ...]
    """The unseen cards of the stock, in card order (their order is chance's)."""
    used: tuple[Card, ...]
    """The used cards the pone holds, in card order (each was seen face up)."""
    doubled: bool
    """Whether the dealer called 'double'."""
    put_out: Seat | None
    """The first player whose natural puts the dealer out this hand."""
    to_deal: int
    """Cards still to deal in this round of the deal."""
    log: tuple[Event, ...]
    """Events of the hand (filtered by visibility before anyone sees them)."""


@dataclass(frozen=True, slots=True)
class Turn:
    """What lasts one decision."""

    phase: Phase
    """Where the hand stands."""
    actor: Seat
    """The seat to act, or to receive chance's next card."""
    part: int
    """Which of the actor's hands (0, or 1 for the second half of a divided pair)."""


@dataclass(frozen=True, slots=True)
class VingtUnState:
    """A session of Vingt-un between two actions."""

    ruleset: Ruleset
    """The rules in force."""
    players: int
    """Number of seats."""
    session: Session
    """What lasts from hand to hand."""
    round: Round
    """What lasts this hand."""
    current: Turn
    """What lasts this decision."""

    @property
    def step(self) -> int:
        """+1 when play goes to the left (increasing seats), -1 to the right."""
        return 1 if self.ruleset.direction == "left" else -1

    @property
    def dealer(self) -> Seat:
        """The dealer (:attr:`Session.dealer`)."""
        return self.session.dealer

    @property
    def phase(self) -> Phase:
        """Where the hand stands (:attr:`Turn.phase`)."""
        return self.current.phase

    @property
    def pone(self) -> Seat:
        """The player on the dealer's right, who keeps the used cards."""
        return (self.dealer - self.step) % self.players


def value(card: Card) -> int:
    """A card's points with the ace as one: courts ten, others their face (Peel)."""
    rank = rank_of(card)
    return 1 if rank == 14 else min(rank, 10)


def total(cards: tuple[Card, ...]) -> int:
    """The best total of *cards*: an ace counts eleven where that does not pass 21."""
    points = sum(value(c) for c in cards)
    if points <= 11 and any(rank_of(c) == 14 for c in cards):
        return points + 10
    return points


def is_natural(cards: tuple[Card, ...]) -> bool:
    """An ace and a ten-card as one's first two cards (Peel's natural Vingt-un)."""
    return len(cards) == 2 and total(cards) == 21


CHANCE_PHASES = frozenset({Phase.CHOOSE, Phase.FIRST, Phase.SECOND, Phase.DRAW})
"""The phases where chance gives the next card."""


def decision(s: VingtUnState) -> Decision | None:
    """Chance while cards are turned, dealt or drawn; else the seat to act, whose turn it is
    (staking, doubling and drawing are each a turn); None once the session is over."""
    if s.phase is Phase.OVER:
        return None
    if s.phase in CHANCE_PHASES:
        return Decision(None, DecisionKind.CHANCE)
    return Decision(s.current.actor, DecisionKind.TURN)
