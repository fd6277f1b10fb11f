"""The fast path's state: :class:`FastCoxState`, one flat named tuple, with its immutable
tables, and the start of a game and of a hand."""

from __future__ import annotations

from typing import Final, NamedTuple

from commerce.core import (
    Action,
    ActionKind,
    Decision,
    DecisionKind,
    Event,
    Seat,
)
from commerce.families.cox.cards import (
    CoxCard,
    pack,
)
from commerce.families.cox.state import (
    DIRECTOR_NAMES,
    Phase,
)
from commerce.rules import Ruleset

_DIRECTOR_NAMES: Final = DIRECTOR_NAMES


class FastCoxState(NamedTuple):
    """A game of Cox's Commerce between two actions, every field flat (see
    :mod:`commerce.families.cox.state`)."""

    ruleset: Ruleset
    """The rules in force."""
    players: int
    """Number of seats (2-4)."""
    director_dealer: Seat
    """Who deals the Directors cards (the first goes to his right)."""
    hand_number: int
    """The current hand, from 1."""
    totals: tuple[int, ...]
    """Each seat's score over the finished hands."""
    hand_scores: tuple[tuple[int, ...], ...]
    """Each finished hand's scores, by seat."""
    phase: Phase
    """Where the hand stands."""
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
    live: CoxCard | None
    """The last discard while it may still be bought."""
    discarder: Seat | None
    """Who made the live discard."""
    turn: Seat
    """Whose turn it is."""
    actor: Seat
    """Who acts now (a seat offered the discard during OFFER)."""
    offer_queue: tuple[Seat, ...]
    """During OFFER: the seats still to be asked, the actor first."""
    pending_draw: bool
    """During OFFER: the turn player chose to draw once nobody buys."""
    bought: CoxCard | None
    """The card bought this turn (its face may not be discarded at once)."""
    must_sell_out: bool
    """The buyer bought only to complete his hand and must sell out now."""
    log: tuple[Event, ...]
    """Events of the current hand."""
    last_hand: tuple[Event, ...]
    """The public events of the previous hand's end."""

    @property
    def step(self) -> int:
        """+1 when play goes to the left (increasing seats), -1 to the right."""
        return 1 if self.ruleset.direction == "left" else -1


# Enum members as module constants for the hot paths: ``Phase.TURN`` is a lookup through the
# enum class, several times slower than reading a global.
_P_DIRECTORS: Final = Phase.DIRECTORS
_P_DISCARD: Final = Phase.DISCARD
_P_OFFER: Final = Phase.OFFER
_P_OVER: Final = Phase.OVER
_P_SHUFFLE: Final = Phase.SHUFFLE
_P_TURN: Final = Phase.TURN
_K_BUY: Final = ActionKind.BUY
_K_DEAL: Final = ActionKind.DEAL
_K_DECLINE: Final = ActionKind.DECLINE
_K_DISCARD: Final = ActionKind.DISCARD
_K_DRAW: Final = ActionKind.DRAW
_K_SELL_OUT: Final = ActionKind.SELL_OUT

_DRAW: Final = Action(_K_DRAW)
_BUY: Final = Action(_K_BUY)
_DECLINE: Final = Action(_K_DECLINE)
_DEAL: Final = tuple(Action(_K_DEAL, (c,)) for c in range(83))
_DISCARD: Final = tuple(Action(_K_DISCARD, (c,)) for c in range(80))
_SELL: Final = tuple(Action(_K_SELL_OUT, (c,)) for c in range(80))
_ONLY: Final = tuple(frozenset({s}) for s in range(4))
_CHANCE: Final = Decision(None, DecisionKind.CHANCE)
_DECISIONS: Final = {
    (phase, seat): Decision(seat, kind)
    for phase, kind in (
        (_P_TURN, DecisionKind.DRAW_OR_BUY),
        (_P_OFFER, DecisionKind.BUY_OFFER),
        (_P_DISCARD, DecisionKind.DISCARD),
    )
    for seat in range(4)
}


def new_game(ruleset: Ruleset, players: int, dealer: Seat) -> FastCoxState:
    """The game before the first hand: the Directors are to be dealt by *dealer*."""
    return _new_hand(
        FastCoxState(
            ruleset=ruleset, players=players, director_dealer=dealer, hand_number=0,
            totals=(0,) * players, hand_scores=(), phase=_P_DIRECTORS, directors=(),
            wholesaler=None, retailer=None, base_numbers=(None,) * players, unseen=(),
            bases=((),) * 4, current_base=0, racks=((),) * players, laid=((),) * players,
            greenbacks=((),) * players, discards=(), live=None, discarder=None, turn=dealer,
            actor=dealer, offer_queue=(), pending_draw=False, bought=None, must_sell_out=False,
            log=(), last_hand=(),
        ),
        (),
    )


def _new_hand(s: FastCoxState, last_hand: tuple[Event, ...]) -> FastCoxState:
    n = s.players
    number = s.hand_number + 1
    return s._replace(
        hand_number=number, phase=_P_DIRECTORS, directors=(), wholesaler=None,
        retailer=None, base_numbers=(None,) * n, unseen=pack(), bases=((),) * 4,
        current_base=0, racks=((),) * n, laid=((),) * n, greenbacks=((),) * n, discards=(),
        live=None, discarder=None, turn=s.director_dealer, actor=s.director_dealer,
        offer_queue=(), pending_draw=False, bought=None, must_sell_out=False,
        log=(Event("hand_started", None, (("hand", number),)),), last_hand=last_hand,
    )
