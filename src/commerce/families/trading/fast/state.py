"""The fast path's state: :class:`FastState`, a flat named tuple, with the interned
actions, events and decisions the transitions pick instead of building them, and the start of
a deal.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from commerce.cards import Card, pack
from commerce.core import (
    Action,
    ActionKind,
    Decision,
    DecisionKind,
    Event,
    Seat,
)
from commerce.families.trading.state import Phase
from commerce.hands import Category
from commerce.rules import Ruleset


class FastState(NamedTuple):
    """A session of a trading-family game, between two actions.

    Immutable: a named tuple, because one is built on every action and a named tuple is about
    five times cheaper to build than a frozen dataclass. Never sent to a player: views come
    from :func:`observe`.
    """

    ruleset: Ruleset
    """The rules in force."""
    players: int
    """Number of seats."""
    balances: tuple[int, ...]
    """Each seat's net stakes over the session so far (the pool holds the rest)."""
    deals_won: tuple[int, ...]
    """Deals each seat has won."""
    dealer: Seat
    """The dealer of the current deal."""
    deal_number: int
    """Deals begun so far (1 during the first deal)."""
    hands: tuple[tuple[Card, ...], ...]
    """Each seat's cards."""
    unseen: tuple[Card, ...]
    """Cards of the stock nobody has seen, in card order (their order is chance's)."""
    bottom: tuple[Card, ...]
    """Traded-in cards under the unseen ones, top first."""
    pool: int
    """Stakes in the pool."""
    phase: Phase
    """Where the deal stands."""
    actor: Seat
    """The seat to act (the trader during DRAW; the partner during BARTER_REPLY)."""
    turn: Seat
    """Whose turn it is."""
    turns_taken: int
    """Turns begun this deal (a full round is ``players`` turns)."""
    to_deal: int
    """Cards still to deal in the initial deal."""
    offered: Card | None
    """The card offered in a pending barter."""
    log: tuple[Event, ...]
    """Events of the current deal (filtered by visibility before anyone sees them)."""
    last_deal: tuple[Event, ...]
    """The public events of the previous deal's showdown and settlement."""

    @property
    def step(self) -> int:
        """+1 when play goes to the left (increasing seats), -1 to the right."""
        return 1 if self.ruleset.direction == "left" else -1

    def replace(self, **changes: Any) -> FastState:
        """A copy with *changes*: ``_replace``, about twice as fast (the hot path of play)."""
        fields = list(self)
        for name, value in changes.items():
            fields[_INDEX[name]] = value
        return _new_tuple(FastState, fields)


STATE_TYPE: Final = FastState
# Enum members as module constants for the hot paths: ``Phase.TURN`` is a lookup through the
# enum class, several times slower than reading a global.
_P_DEAL, _P_TURN, _P_DRAW, _P_AFTER_TRADE, _P_BARTER_REPLY, _P_OVER = Phase
_K_DEAL: Final = ActionKind.DEAL
_K_STAND: Final = ActionKind.STAND
_K_TRADE: Final = ActionKind.TRADE
_K_BARTER: Final = ActionKind.BARTER
_K_GIVE: Final = ActionKind.GIVE
_K_DONE: Final = ActionKind.DONE
_C_NONE: Final = Category.NONE
_INDEX: Final = {name: i for i, name in enumerate(FastState._fields)}
# Builds a named tuple from a tuple of all its fields, without the Python-level call of the
# class's own constructor: the hot paths build states, events and transitions with it.
_new_tuple: Final = tuple.__new__
# Field positions, for the hot transitions that copy a state as a list and change a few
# fields in place (cheaper than ``replace`` with keywords, which builds a dict per call).
_BALANCES: Final = _INDEX["balances"]
_DEALS_WON: Final = _INDEX["deals_won"]
_HANDS: Final = _INDEX["hands"]
_UNSEEN: Final = _INDEX["unseen"]
_BOTTOM: Final = _INDEX["bottom"]
_POOL: Final = _INDEX["pool"]
_PHASE: Final = _INDEX["phase"]
_ACTOR: Final = _INDEX["actor"]
_TURN: Final = _INDEX["turn"]
_TURNS_TAKEN: Final = _INDEX["turns_taken"]
_TO_DEAL: Final = _INDEX["to_deal"]
_OFFERED: Final = _INDEX["offered"]
_LOG: Final = _INDEX["log"]

# Interned actions: legal_actions returns these, and bots choose among them.
_STAND: Final = Action(_K_STAND)
_DONE: Final = Action(_K_DONE)
_DEAL: Final = tuple(Action(_K_DEAL, (c,)) for c in range(52))
_TRADE: Final = tuple(Action(_K_TRADE, (c,)) for c in range(52))
_BARTER: Final = tuple(Action(_K_BARTER, (c,)) for c in range(52))
_GIVE: Final = tuple(Action(_K_GIVE, (c,)) for c in range(52))
_ONLY: Final = tuple(frozenset({s}) for s in range(12))
_PAIRS: Final = tuple(tuple(frozenset({a, b}) for b in range(12)) for a in range(12))
# Interned events that depend only on seats and cards (events are immutable values): the
# transitions pick them instead of building them on every action.
_STOOD: Final = tuple(Event("stood", seat) for seat in range(12))
_DREW: Final = tuple(tuple(Event("drew", seat, (("card", c),), _ONLY[seat]) for c in range(52))
                     for seat in range(12))
_TRADED_CARD: Final = tuple(
    tuple(Event("traded_card", seat, (("card", c),), _ONLY[seat]) for c in range(52))
    for seat in range(12)
)
_BARTER_OFFERED: Final = tuple(tuple(Event("barter_offered", seat, (("partner", p),))
                                     for p in range(12)) for seat in range(12))
_BARTERED: Final = tuple(tuple(Event("bartered", seat, (("partner", p),)) for p in range(12))
                         for seat in range(12))
_CHANCE: Final = Decision(None, DecisionKind.CHANCE)
_DECISIONS: Final = {
    (phase, seat): Decision(seat, kind)
    for phase, kind in (
        (_P_TURN, DecisionKind.TURN),
        (_P_AFTER_TRADE, DecisionKind.AFTER_TRADE),
        (_P_BARTER_REPLY, DecisionKind.BARTER_REPLY),
    )
    for seat in range(12)
}


def new_game(ruleset: Ruleset, players: int, dealer: Seat) -> FastState:
    """The session before the first deal: antes paid, nothing dealt."""
    return _start_deal(ruleset, players, [0] * players, (0,) * players, dealer, 1, ())


def _start_deal(rules: Ruleset, n: int, balances: list[int], deals_won: tuple[int, ...],
                dealer: Seat, deal_number: int, last_deal: tuple[Event, ...]) -> FastState:
    """Deal number *deal_number* before its cards: everyone antes (the dealer his own ante)
    into an empty pool; *balances* (changed in place) are the stakes before the antes."""
    ante = rules.ante
    for seat in range(n):
        balances[seat] -= ante
    balances[dealer] -= rules.dealer_ante - ante
    pool = ante * (n - 1) + rules.dealer_ante
    event = _new_tuple(Event, ("deal_started", dealer,
                               (("deal", deal_number), ("pool", pool)), None))
    return _new_tuple(FastState, (
        rules, n, tuple(balances), deals_won, dealer, deal_number, ((),) * n,
        pack(rules.pack), (), pool, _P_DEAL, dealer, dealer, 0, 3 * n, None, (event,),
        last_deal,
    ))


_PACK_SETS: Final = {id(pack(n)): frozenset(pack(n)) for n in (52, 32)}


def _as_set(unseen: tuple[Card, ...]) -> frozenset[Card] | set[Card]:
    """The unseen cards as a set; at the start of a deal (the whole pack) a shared one."""
    whole = _PACK_SETS.get(id(unseen))
    if whole is not None and len(whole) == len(unseen):
        return whole
    return set(unseen)
