"""The fast path's state: :class:`WidowState`, a flat named tuple addressed by index, its
interned actions and events, and the start of a session and of a deal."""

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
    Transition,
)
from commerce.families.widow.state import Phase, Resume
from commerce.hands import Category
from commerce.rules import Ruleset


class WidowState(NamedTuple):
    """A session of a widow-family game, between two actions, as the fast path holds it.

    Immutable (a named tuple, cheap to build); :func:`to_reference` gives the reference
    state (:class:`commerce.families.widow.state.WidowState`) it stands for.
    """

    ruleset: Ruleset
    """The rules in force."""
    players: int
    """Number of seats."""
    tokens: tuple[int, ...]
    """Tokens (counters) each seat holds; unused (zeros) when stakes are paid instead."""
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
    offers: tuple[Seat, ...]
    """Seats still to be offered a horse after this deal."""
    dealer: Seat
    """The dealer of the current deal."""
    deal_number: int
    """Deals begun so far."""
    order: tuple[Seat, ...]
    """The seats dealt in, in the order of play: eldest first, the dealer last."""
    order_mask: int
    """Bit set of the seats dealt in."""
    hands: tuple[tuple[Card, ...], ...]
    """Each seat's cards (in the order received; a pounced four sorted)."""
    widow: tuple[Card, ...]
    """The face-up widow, in card order."""
    unseen: tuple[Card, ...]
    """The stock, in card order (its order is chance's)."""
    to_deal: int
    """Cards still to deal in the initial deal."""
    phase: Phase
    """Where the deal stands."""
    actor: Seat
    """The seat to act (during chance phases, whoever acted last)."""
    turn: Seat
    """The seat whose turn it is (the dealer during his blind exchange)."""
    pos: int
    """Index in :attr:`order` of the seat whose turn it is (-1 before the round's first)."""
    round: int
    """The round of turns, from 1."""
    locked: int
    """Bit set of seats that may not exchange again this deal."""
    passed: int
    """Bit set of seats that have passed."""
    stood: int
    """Bit set of seats that have stood or knocked."""
    frozen: int
    """Bit set of seats holding a pounced four (their hand may not change)."""
    knocker: int
    """The seat that knocked, or -1."""
    final: tuple[Seat, ...]
    """Seats still to take a final turn."""
    in_final: bool
    """Whether the final turns have begun."""
    swaps: int
    """One-for-one exchanges in the current turn (or the dealer's blind exchange)."""
    moved: tuple[Card, ...]
    """Cards moved in the current turn; they may not be moved back."""
    resume: Resume
    """What follows once the pending pounce checks are done."""
    fresh: tuple[Card, ...]
    """Cards that reached the widow and are still to be checked for a pounce."""
    offer: int
    """The card offered for a pounce, or -1."""
    log: tuple[Event, ...]
    """Events of the current deal (filtered by visibility before anyone sees them)."""
    last_deal: tuple[Event, ...]
    """The public showdown and settlement events of the previous deal."""
    ended: str
    """Why the session ended ('' while it goes on)."""


STATE_TYPE: Final = WidowState
# Enum members as module constants for the hot paths: ``Phase.TURN`` is a lookup through the
# enum class, several times slower than reading a global.
_P_BLIND: Final = Phase.BLIND
_P_CARD: Final = Phase.CARD
_P_DEAL: Final = Phase.DEAL
_P_FINAL: Final = Phase.FINAL
_P_HORSE: Final = Phase.HORSE
_P_MORE: Final = Phase.MORE
_P_OVER: Final = Phase.OVER
_P_POUNCE: Final = Phase.POUNCE
_P_TURN: Final = Phase.TURN
_K_BUY_HORSE: Final = ActionKind.BUY_HORSE
_K_DEAL: Final = ActionKind.DEAL
_K_DECLINE: Final = ActionKind.DECLINE
_K_DONE: Final = ActionKind.DONE
_K_EXCHANGE: Final = ActionKind.EXCHANGE
_K_KNOCK: Final = ActionKind.KNOCK
_K_PASS: Final = ActionKind.PASS
_K_POUNCE: Final = ActionKind.POUNCE
_K_STAND: Final = ActionKind.STAND
_R_FIRST: Final = Resume.FIRST
_R_MORE: Final = Resume.MORE
_R_NEXT: Final = Resume.NEXT
_C_NONE: Final = Category.NONE

_FIELD_INDEX: Final = {name: i for i, name in enumerate(WidowState._fields)}
_new_tuple: Final = tuple.__new__
_tuple_item: Final = tuple.__getitem__
_I_TOKENS: Final = _FIELD_INDEX["tokens"]
_I_BALANCES: Final = _FIELD_INDEX["balances"]
_I_OUT_IN: Final = _FIELD_INDEX["out_in"]
_I_DEALS_WON: Final = _FIELD_INDEX["deals_won"]
_I_POOL: Final = _FIELD_INDEX["pool"]
_I_POOL_COUNTERS: Final = _FIELD_INDEX["pool_counters"]
_I_HORSES: Final = _FIELD_INDEX["horses"]
_I_HORSE_OPEN: Final = _FIELD_INDEX["horse_open"]
_I_OFFERS: Final = _FIELD_INDEX["offers"]
_I_DEALER: Final = _FIELD_INDEX["dealer"]
_I_DEAL_NUMBER: Final = _FIELD_INDEX["deal_number"]
_I_ORDER: Final = _FIELD_INDEX["order"]
_I_ORDER_MASK: Final = _FIELD_INDEX["order_mask"]
_I_HANDS: Final = _FIELD_INDEX["hands"]
_I_WIDOW: Final = _FIELD_INDEX["widow"]
_I_UNSEEN: Final = _FIELD_INDEX["unseen"]
_I_TO_DEAL: Final = _FIELD_INDEX["to_deal"]
_I_PHASE: Final = _FIELD_INDEX["phase"]
_I_ACTOR: Final = _FIELD_INDEX["actor"]
_I_TURN: Final = _FIELD_INDEX["turn"]
_I_POS: Final = _FIELD_INDEX["pos"]
_I_ROUND: Final = _FIELD_INDEX["round"]
_I_LOCKED: Final = _FIELD_INDEX["locked"]
_I_PASSED: Final = _FIELD_INDEX["passed"]
_I_STOOD: Final = _FIELD_INDEX["stood"]
_I_FROZEN: Final = _FIELD_INDEX["frozen"]
_I_KNOCKER: Final = _FIELD_INDEX["knocker"]
_I_FINAL: Final = _FIELD_INDEX["final"]
_I_IN_FINAL: Final = _FIELD_INDEX["in_final"]
_I_SWAPS: Final = _FIELD_INDEX["swaps"]
_I_MOVED: Final = _FIELD_INDEX["moved"]
_I_RESUME: Final = _FIELD_INDEX["resume"]
_I_FRESH: Final = _FIELD_INDEX["fresh"]
_I_OFFER: Final = _FIELD_INDEX["offer"]
_I_LOG: Final = _FIELD_INDEX["log"]
_I_LAST_DEAL: Final = _FIELD_INDEX["last_deal"]
_I_ENDED: Final = _FIELD_INDEX["ended"]
_DEAL_FIELDS: Final = ("hands", "widow", "unseen", "to_deal", "phase", "actor", "turn", "pos",
                       "round", "locked", "passed", "stood", "frozen", "knocker", "final",
                       "in_final", "swaps", "moved", "resume", "fresh", "offer")
"""The fields a new deal sets, in the state's order: one slice of the field list."""
assert WidowState._fields[_I_HANDS:_I_OFFER + 1] == _DEAL_FIELDS


_PASS: Final = Action(_K_PASS)
_DONE: Final = Action(_K_DONE)
_KNOCK: Final = Action(_K_KNOCK)
_STAND: Final = Action(_K_STAND)
_DECLINE: Final = Action(_K_DECLINE)
_BUY_HORSE: Final = Action(_K_BUY_HORSE)
_DEAL: Final = tuple(Action(_K_DEAL, (c,)) for c in range(52))
_TAKE: Final = tuple(Action(_K_EXCHANGE, (c,)) for c in range(52))
_POUNCE: Final = tuple(Action(_K_POUNCE, (c,)) for c in range(52))
_PASS_ONLY: Final = (_PASS,)
_PASS_KNOCK: Final = (_PASS, _KNOCK)
_PASS_STAND: Final = (_PASS, _STAND)
_SWAP: Final = tuple(
    tuple(Action(_K_EXCHANGE, (g, t)) for t in range(52)) for g in range(52)
)
"""``_SWAP[give][take]``: the interned one-for-one exchange."""
_BIT: Final = tuple(1 << s for s in range(12))
_ONLY: Final = tuple(frozenset({s}) for s in range(12))
_DEALT: Final = tuple(
    tuple(Event("dealt", s, (("card", c),), _ONLY[s]) for c in range(52)) for s in range(12)
)
"""``_DEALT[seat][card]``: the (immutable, shared) event of a card dealt to a seat."""
_DEALT_UNSEEN: Final = tuple(
    tuple(Event("dealt", s, (("card", c),), frozenset()) for c in range(52)) for s in range(12)
)
"""``_DEALT_UNSEEN[seat][card]``: a card dealt to a dealer who may exchange blind (nobody
sees it dealt; he sees his hand when he looks, ``looked``)."""
_WIDOW_DEALT: Final = tuple(Event("widow_dealt", None, (("card", c),)) for c in range(52))
_PASSED: Final = tuple(Event("passed", s) for s in range(12))
_DONE_EVENT: Final = tuple(Event("done", s) for s in range(12))
_CHANCE: Final = Decision(None, DecisionKind.CHANCE)
_KIND_OF_PHASE: Final = {
    _P_BLIND: DecisionKind.BLIND_EXCHANGE,
    _P_TURN: DecisionKind.TURN,
    _P_MORE: DecisionKind.MORE_EXCHANGE,
    _P_FINAL: DecisionKind.FINAL_TURN,
    _P_POUNCE: DecisionKind.POUNCE_OFFER,
    _P_HORSE: DecisionKind.HORSE_OFFER,
}
_DECISIONS: Final = tuple(
    tuple(Decision(seat, _KIND_OF_PHASE[phase]) for seat in range(12))
    if phase in _KIND_OF_PHASE else () for phase in Phase
)
"""``_DECISIONS[phase][seat]``: the decision of a seat in a player's phase."""
assert [int(phase) for phase in Phase] == list(range(len(Phase)))
_TOKENS: Final = frozenset({"lowest_to_best", "lowest_to_pool"})
_NO_CARDS: Final = frozenset({_K_PASS, _K_DONE, _K_KNOCK,
                              _K_STAND, _K_DECLINE, _K_BUY_HORSE})


def _step(rules: Ruleset) -> int:
    return 1 if rules.direction == "left" else -1


def new_game(ruleset: Ruleset, players: int, dealer: Seat) -> WidowState:
    """The session before the first deal (Pool Commerce: the entry stakes already paid)."""
    pooled = ruleset.token_flow == "lowest_to_pool"
    entry = ruleset.pool_entry if pooled else 0
    tracked = ruleset.token_flow in _TOKENS
    unset: dict[str, Any] = dict.fromkeys(_DEAL_FIELDS)  # every one set by the deal
    empty = WidowState(
        ruleset=ruleset,
        players=players,
        tokens=(ruleset.starting_tokens if tracked else 0,) * players,
        balances=(-entry,) * players,
        out_in=(0,) * players,
        deals_won=(0,) * players,
        pool=entry * players,
        pool_counters=0,
        horses=0,
        horse_open=True,
        offers=(),
        dealer=dealer,
        deal_number=0,
        order=(),
        order_mask=0,
        log=(),
        last_deal=(),
        ended="",
        **unset,
    )
    return _start_deal(list(empty), dealer, ())


_ROTATIONS: Final = {
    (n, step, dealer): tuple((dealer + step * i) % n for i in range(1, n + 1))
    for n in range(1, 13) for step in (1, -1) for dealer in range(n)
}
"""``_ROTATIONS[n, step, dealer]``: every seat in the order of play, the dealer last."""
_ALL_SEATS: Final = tuple((1 << n) - 1 for n in range(13))
"""``_ALL_SEATS[n]``: the bit set of every seat of *n*."""
_NO_HANDS: Final = tuple(((),) * n for n in range(13))


def _start_deal(v: list[Any], dealer: Seat, last_deal: tuple[Event, ...]) -> WidowState:
    """The next deal, before any card is dealt, from the field list *v* of the last state."""
    rules: Ruleset = v[0]
    n: int = v[1]
    out_in = v[_I_OUT_IN]
    order = _ROTATIONS[n, 1 if rules.direction == "left" else -1, dealer]
    if any(out_in):
        order = tuple([x for x in order if not out_in[x]])
        v[_I_ORDER_MASK] = sum([_BIT[x] for x in order])
    else:
        v[_I_ORDER_MASK] = _ALL_SEATS[n]
    number = v[_I_DEAL_NUMBER] + 1
    event = _new_tuple(Event, ("deal_started", dealer,
                               (("deal", number), ("order", order)), None))
    v[_I_DEALER] = dealer
    v[_I_DEAL_NUMBER] = number
    v[_I_ORDER] = order
    # hands, widow, unseen, to_deal, phase, actor, turn, pos, round, locked, passed, stood,
    # frozen, knocker, final, in_final, swaps, moved, resume, fresh, offer
    v[_I_HANDS:_I_OFFER + 1] = (
        _NO_HANDS[n], (), pack(rules.pack), 3 * len(order) + rules.widow_size, _P_DEAL,
        dealer, dealer, -1, 0, 0, 0, 0, 0, -1, (), False, 0, (), _R_FIRST, (), -1,
    )
    v[_I_LOG] = (event,)
    v[_I_LAST_DEAL] = last_deal
    return _new_tuple(WidowState, v)


def _result(v: list[Any], events: tuple[Event, ...]) -> Transition:
    """The transition to the state whose fields are *v*."""
    return _new_tuple(Transition, (_new_tuple(WidowState, v), events))


def _without(unseen: tuple[Card, ...], cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """*unseen* (in card order) less *cards*.

    >>> _without((0, 5, 9, 51), (9, 0))
    (5, 51)
    """
    if len(cards) == 1:
        i = unseen.index(cards[0])
        return unseen[:i] + unseen[i + 1:]
    # cards are small ints: bytes.translate deletes them in one pass, in C
    return tuple(bytes(unseen).translate(None, bytes(cards)))
