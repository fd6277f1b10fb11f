"""Types shared by every ruleset family: actions, decisions, events, transitions, outcomes.

Each family (``trading``, ``widow``, ``cox``) provides the hooks of a
:class:`commerce.family.FamilySpec` over its own immutable state class; :mod:`commerce.engine`
dispatches to them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Any, NamedTuple, Protocol, TypeAlias, TypeVar, runtime_checkable

Seat: TypeAlias = int
"""A player's place at the table, 0 to players-1."""


_Record = TypeVar("_Record")


def evolve(record: _Record, **changes: Any) -> _Record:
    """A copy of the frozen dataclass *record* with the named fields changed: what
    :func:`dataclasses.replace` does, three times faster, for the rules' states.

    *record* must be a frozen dataclass without ``__slots__`` whose fields are all set by
    its ``__init__`` (no ``InitVar``, no ``__post_init__`` that derives fields): the copy
    takes the fields as they are, then the changes, without calling ``__init__``. A name
    that is not a field is refused, as ``replace`` refuses it.

    >>> @dataclass(frozen=True)
    ... class Point:
    ...     x: int
    ...     y: int
    >>> evolve(Point(1, 2), y=5)
    Point(x=1, y=5)
    >>> evolve(Point(1, 2), z=5)
    Traceback (most recent call last):
    ...
    TypeError: Point has no field z
    """
    old = record.__dict__
    new = object.__new__(type(record))
    fields = new.__dict__  # a frozen dataclass refuses setattr, not its own __dict__
    fields.update(old)
    fields.update(changes)
    if len(fields) != len(old):  # a name that is not a field added one
        unknown = ", ".join(sorted(changes.keys() - old.keys()))
        raise TypeError(f"{type(record).__name__} has no field {unknown}")
    return new


class ActionKind(StrEnum):
    """Every kind of action; a family uses the kinds its rules have."""

    # chance
    DEAL = "deal"
    """Chance: the next card from the stock (to whoever the state says)."""
    # trading family
    STAND = "stand"
    """Stop the trading; all hands are shown (Peel's stand, T&B's knock)."""
    TRADE = "trade"
    """Give a card to the dealer for the top card of the stock (ready money)."""
    BARTER = "barter"
    """Offer a card to the neighbour."""
    GIVE = "give"
    """Give back a card to the player who offered a barter."""
    DONE = "done"
    """End one's turn after a trade or barter without standing."""
    # widow family (and later rulesets)
    EXCHANGE = "exchange"
    """Swap cards of one's hand for cards of the widow, one for one."""
    PASS = "pass"
    """Decline to exchange (in some rulesets, for the rest of the deal)."""
    KNOCK = "knock"
    """Declare oneself content; the deal ends after a final turn each."""
    POUNCE = "pounce"
    """Take the fourth card of one's tricon from the widow, out of turn."""
    DECLINE = "decline"
    """Let an offered opportunity (a pounce, a purchase) go."""
    BUY_HORSE = "buy_horse"
    """Pool Commerce: buy one more counter after going out."""
    # Cox
    DRAW = "draw"
    """Draw the top card of the supply."""
    BUY = "buy"
    """Buy the last discard."""
    DISCARD = "discard"
    """Discard a card face up."""
    SELL_OUT = "sell_out"
    """Declare a complete hand."""
    # Vingt-un
    STAKE = "stake"
    """Put an amount (``Action.amount``, in counters) on one's first card."""
    DOUBLE = "double"
    """The dealer doubles every stake on his own first card."""
    CONTENT = "content"
    """Ask for no more cards; the hand stands."""
    DIVIDE = "divide"
    """Play two first cards that pair as two hands."""


@dataclass(frozen=True, slots=True)
class Action:
    """One action. *cards* holds the cards it names, in the order its kind defines.

    Families format and parse actions with their own card notation
    (:func:`commerce.engine.format_action`, :func:`commerce.engine.parse_action`).
    """

    kind: ActionKind
    """What is done."""
    cards: tuple[int, ...] = ()
    """The cards named, e.g. ``(given,)`` for a trade, ``(give..., take...)`` for an exchange."""
    amount: int | None = None
    """An amount the action names (a stake, in counters), or None for an action without one."""

    def __repr__(self) -> str:
        """A constructor expression; ``amount`` appears only where the action has one."""
        extra = "" if self.amount is None else f", amount={self.amount!r}"
        return f"Action(kind={self.kind!r}, cards={self.cards!r}{extra})"


@lru_cache(maxsize=1024)
def card_action(kind: ActionKind, card: int) -> Action:
    """``Action(kind, (card,))``, shared: the menus of every turn name the same few hundred
    one-card actions, and an action is immutable."""
    return Action(kind, (card,))


class DecisionKind(StrEnum):
    """What the seat to act must decide."""

    CHANCE = "chance"
    """Chance (the driver) supplies the next card."""
    TURN = "turn"
    """A player's ordinary turn."""
    AFTER_TRADE = "after_trade"
    """Right after one's own trade or barter: stand, or end the turn."""
    BARTER_REPLY = "barter_reply"
    """Offered a barter: give a card back, or stand."""
    BLIND_EXCHANGE = "blind_exchange"
    """The dealer's exchange with the widow before looking at his hand."""
    FINAL_TURN = "final_turn"
    """The last turn after a knock or two stands."""
    MORE_EXCHANGE = "more_exchange"
    """Widow games: after a one-for-one exchange, exchange another card or end the turn."""
    POUNCE_OFFER = "pounce_offer"
    """The fourth card of one's tricon is in the widow: pounce or decline."""
    HORSE_OFFER = "horse_offer"
    """Out of counters: buy a horse or decline."""
    DRAW_OR_BUY = "draw_or_buy"
    """Cox: draw from the supply, or buy the last discard."""
    DISCARD = "discard"
    """Cox: discard a card."""
    BUY_OFFER = "buy_offer"
    """Cox: buy the discard just made, or decline."""


@dataclass(frozen=True, slots=True)
class Decision:
    """Who must act now and what kind of decision it is; ``seat`` is None for chance."""

    seat: Seat | None
    """The seat to act, or None when chance acts."""
    kind: DecisionKind
    """The kind of decision."""

    @property
    def is_chance(self) -> bool:
        """Whether chance (the driver) acts."""
        return self.seat is None

    def to_dict(self) -> dict[str, object]:
        """The JSON-ready form: ``{"seat": ..., "kind": ...}``."""
        return {"seat": self.seat, "kind": self.kind.value}


@lru_cache(maxsize=1024)
def decision_of(seat: Seat | None, kind: DecisionKind) -> Decision:
    """``Decision(seat, kind)``, shared (a decision is immutable and asked for at every
    step)."""
    return Decision(seat, kind)


class Event(NamedTuple):
    """Something that happened, with who may see it.

    ``visible_to`` is None for a public event, else the seats that may see it. Events drive
    logs and user interfaces; the actions, not the events, are the canonical record. (Events,
    transitions and states are immutable named tuples: they are built on every action, and a
    named tuple is several times cheaper to build than a frozen dataclass.)
    """

    kind: str
    """A short machine name, e.g. ``traded``, ``drew``, ``showdown``."""
    seat: Seat | None = None
    """The seat the event is about, if any."""
    data: tuple[tuple[str, Any], ...] = ()
    """Details as (name, value) pairs: card tuples, amounts, seats."""
    visible_to: frozenset[Seat] | None = None
    """None for public, else the seats that see it."""

    def get(self, name: str, default: Any = None) -> Any:
        """The value of detail *name*."""
        for key, value in self.data:
            if key == name:
                return value
        return default

    def visible(self, seat: Seat | None) -> bool:
        """Whether *seat* (None = a spectator) may see this event."""
        return self.visible_to is None or (seat is not None and seat in self.visible_to)


class Transition(NamedTuple):
    """What :func:`commerce.engine.apply` returns: the successor state and the events."""

    state: Any
    """The new state."""
    events: tuple[Event, ...] = ()
    """What happened, in order."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game (a whole session of deals)."""

    payoffs: tuple[int, ...]
    """Each seat's net result (stakes, tokens, counters or points won minus lost)."""
    reason: str
    """Why the game ended."""
    details: Mapping[str, Any] = field(default_factory=dict)
    """Ruleset-specific figures (tokens left, deals won, when a seat went out ...)."""


@runtime_checkable
class Bot(Protocol):
    """A computer player."""

    name: str
    """Short name, e.g. ``heuristic``."""
    spec: str
    """The spec it was made from, e.g. ``search:iterations=200`` (stored in records)."""

    # A bot may also set ``reads_observation = False``: it never looks at the observation, and
    # the driver passes None in its place (building an observation costs more than a random
    # bot's whole choice).

    def act(self, obs: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        """Choose one of *legal* given the observation *obs*."""
        ...
