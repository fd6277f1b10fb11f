"""The state of a game of Cox's Commerce, split by how long each part lives.

* :class:`Session`: what lasts the whole game (the scores, the hands played, who deals the
  Directors);
* :class:`Deal`: what one hand deals out (the Directors, the Supply Bases, the racks, what is
  laid out, the discard pile, the hand's events);
* :class:`Turn`: whose turn it is and what is being decided (draw or buy, a buy offer, a
  discard);
* :class:`CoxState`: the three together with the rules and the number of players.

Every part is a frozen dataclass changed with :func:`commerce.core.evolve` on named fields. The
state is never sent to a player: :mod:`commerce.families.cox.observe` builds what a seat sees.
Cards are ints of :mod:`commerce.families.cox.cards`; the state knows which copy of a face is
which (a rule never reads it; views never show it).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from commerce.core import Event, Seat
from commerce.families.cox.cards import CoxCard
from commerce.rules import Ruleset

WHOLESALER: Final = 80
"""The Wholesaler director card (in ``deal`` actions)."""
RETAILER: Final = 81
"""The Retailer director card."""
BLANK: Final = 82
"""A blank director card (all blanks are alike)."""
DIRECTOR_NAMES: Final = {WHOLESALER: "W", RETAILER: "R", BLANK: "X"}
"""The letter of each Directors card in notation."""
HAND_SIZE: Final = 8
"""Cards dealt to each player (Cox, start of each hand, 4)."""
BASE_SIZE: Final = 20
"""Cards in each Supply Base (Cox, start of each hand, 3)."""


class Phase(IntEnum):
    """Where a hand stands."""

    DIRECTORS = 0
    """Chance deals the Directors cards."""
    SHUFFLE = 1
    """Chance orders the pack into the four Supply Bases."""
    TURN = 2
    """The player whose turn it is draws, buys the last discard, or (supply empty) declines."""
    OFFER = 3
    """Another player is offered the last discard."""
    DISCARD = 4
    """The player who drew or bought discards (or sells out)."""
    OVER = 5
    """The game has ended."""


@dataclass(frozen=True)
class Session:
    """What lasts the whole game."""

    director_dealer: Seat
    """Who deals the Directors cards (the first goes to his right)."""
    hand_number: int
    """The current hand, from 1."""
    totals: tuple[int, ...]
    """Each seat's score over the finished hands."""
    hand_scores: tuple[tuple[int, ...], ...]
    """Each finished hand's scores, by seat."""
    last_hand: tuple[Event, ...]
    """The public events of the previous hand's end."""


@dataclass(frozen=True)
class Deal:
    """What one hand deals out, and the hand's events."""

    directors: tuple[int, ...]
    """Directors cards dealt so far this hand, in order."""
    wholesaler: Seat | None
    """Who holds the Wholesaler card (None until dealt)."""
    retailer: Seat | None
    """Who holds the Retailer card: Supply Base No. 1, the first player."""
    base_numbers: tuple[int | None, ...]
    """Each seat's Supply Base number (1-4), None until the Directors are dealt."""
    unseen: tuple[CoxCard, ...]
    """During the shuffle, the cards not yet placed in a base (card order)."""
    bases: tuple[tuple[CoxCard, ...], ...]
    """The four Supply Bases, top card first (hidden)."""
    current_base: int
    """Index (0-3) of the base drawn from."""
    racks: tuple[tuple[CoxCard, ...], ...]
    """Each seat's rack (hidden cards)."""
    laid: tuple[tuple[tuple[CoxCard, ...], ...], ...]
    """Each seat's laid-out combinations."""
    greenbacks: tuple[tuple[CoxCard, ...], ...]
    """Each seat's laid-out Greenbacks."""
    discards: tuple[CoxCard, ...]
    """The discard pile, oldest first."""
    log: tuple[Event, ...]
    """Events of the hand."""


@dataclass(frozen=True)
class Turn:
    """Whose turn it is and what is being decided."""

    phase: Phase
    """Where the hand stands."""
    player: Seat
    """Whose turn it is."""
    actor: Seat
    """Who acts now (a seat offered the discard during an offer)."""
    live: CoxCard | None = None
    """The last discard while it may still be bought."""
    discarder: Seat | None = None
    """Who made the live discard."""
    offer_queue: tuple[Seat, ...] = ()
    """During an offer: the seats still to be asked, the actor first."""
    pending_draw: bool = False
    """During an offer: the turn player chose to draw once nobody buys."""
    bought: CoxCard | None = None
    """The card bought this turn (its face may not be discarded at once)."""
    must_sell_out: bool = False
    """The buyer bought only to complete his hand and must sell out now."""


@dataclass(frozen=True)
class CoxState:
    """A game of Cox's Commerce between two actions."""

    ruleset: Ruleset
    """The rules in force."""
    players: int
    """Number of seats (2-4)."""
    session: Session
    """What lasts the whole game."""
    deal: Deal
    """The current hand."""
    turn: Turn
    """Whose turn it is and what is being decided."""

    @property
    def step(self) -> int:
        """+1 when play goes to the left (increasing seats), -1 to the right (decision #41)."""
        return 1 if self.ruleset.direction == "left" else -1

    def next_seat(self, seat: Seat) -> Seat:
        """The seat after *seat* in the direction of play."""
        return (seat + self.step) % self.players
