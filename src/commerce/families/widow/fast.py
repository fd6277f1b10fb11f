"""The widow family's fast path: Peel's Old Game, Pool Commerce, the token game, Pounce,
No Pair or Point, written for speed (a named tuple addressed by index, interned events).

It plays exactly the rules of the reference, and every whole-game loop may use it
(simulations, the search's playouts). It holds no mutable module state: its only caches are
bounded caches of pure functions (:func:`functools.lru_cache`).

The rules themselves are told in the reference modules (:mod:`.deal`, :mod:`.turn`,
:mod:`.settle`); ``tests/test_widow_fast_equals_reference.py`` steps both side by side.

>>> from commerce.rules import find_ruleset
>>> from commerce.cards import parse_cards
>>> s = new_game(find_ruleset("widow"), 3, 0)
>>> deal = parse_cards("2S 3S 4S  9H 9D 9C  KS QD 7C  AS 5H 8D")
>>> s = apply(s, Action(ActionKind.DEAL, deal)).state
>>> decision(s).kind.value, decision(s).seat   # the dealer, blind
('blind_exchange', 0)
>>> observe(s, 0).hand        # he has not looked at his hand
()
>>> to_reference(s).deal.widow == s.widow
True
"""

from __future__ import annotations

import random
from bisect import insort
from functools import lru_cache
from typing import Any, Final, NamedTuple

from commerce.cards import Card, format_card, format_cards, pack, sample_cards
from commerce.core import (
    Action,
    ActionKind,
    Decision,
    DecisionKind,
    Event,
    Outcome,
    Seat,
    Transition,
)
from commerce.errors import IllegalActionError, IllegalReason
from commerce.families.widow import state as ref
from commerce.families.widow.observe import WidowObservation
from commerce.families.widow.state import Phase, Resume
from commerce.hands import Category, Evaluator, evaluator_for
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


# -- queries -------------------------------------------------------------------------------


def decision(s: WidowState) -> Decision | None:
    """Who must decide what."""
    phase = s.phase
    if phase is _P_DEAL or phase is _P_CARD:
        return _CHANCE
    if phase is _P_OVER:
        return None
    return _DECISIONS[phase][s.actor]


def legal_actions(s: WidowState) -> tuple[Action, ...]:
    """Legal actions in a fixed order: pass/done, knock/stand, then exchanges by card."""
    phase = s.phase
    if phase is _P_TURN or phase is _P_FINAL:
        seat = s.actor
        head: tuple[Action, ...] = _PASS_ONLY
        if phase is _P_TURN:
            end = s.ruleset.end_condition
            if end == "knock_final_round":
                if s.knocker < 0:
                    head = _PASS_KNOCK
            elif end == "two_stand":
                head = _PASS_STAND
        if s.frozen & _BIT[seat]:
            return head
        widow = s.widow
        swap = _SWAP
        return (*head, *[swap[g][t] for g in sorted(s.hands[seat]) for t in widow])
    if phase is _P_MORE:
        moved = s.moved
        swap = _SWAP
        return (_DONE, *[swap[g][t] for g in sorted(s.hands[s.actor]) if g not in moved
                         for t in s.widow if t not in moved])
    if phase is _P_DEAL or phase is _P_CARD:
        return tuple(_DEAL[c] for c in s.unseen)
    if phase is _P_BLIND:
        if s.ruleset.dealer_blind_exchange == "all_or_nothing":
            return (_PASS, Action(_K_EXCHANGE, s.widow))
        stop = _PASS if s.swaps == 0 else _DONE
        return (stop, *[_TAKE[c] for c in s.widow if c not in s.moved])
    if phase is _P_POUNCE:
        return (_POUNCE[s.offer], _DECLINE)
    if phase is _P_HORSE:
        return (_BUY_HORSE, _DECLINE)
    return ()


def _swap_limit(s: WidowState) -> int:
    return int(s.ruleset.max_exchange_per_turn)


def check(s: WidowState, action: Action) -> None:
    """Raise :class:`IllegalActionError` with a reason unless *action* is legal."""
    phase = s.phase
    kind = action.kind
    cards = action.cards
    if phase is _P_OVER:
        raise IllegalActionError(IllegalReason.GAME_OVER, "the game is over")
    if phase is _P_DEAL or phase is _P_CARD:
        if kind is not _K_DEAL:
            raise IllegalActionError(
                IllegalReason.NOT_YOUR_TURN, "chance must act now (deal a card), not a player"
            )
        limit = s.to_deal if phase is _P_DEAL else 1
        dealt = set(cards)
        if not 1 <= len(cards) <= limit or len(dealt) != len(cards):
            raise IllegalActionError(
                IllegalReason.CARD_NOT_AVAILABLE,
                f"deal between 1 and {limit} different card(s) now",
            )
        if not dealt.issubset(s.unseen):
            raise IllegalActionError(
                IllegalReason.CARD_NOT_AVAILABLE,
                "a dealt card must be one of the unseen cards of the stock",
            )
        return
    if kind is _K_DEAL:
        raise IllegalActionError(IllegalReason.WRONG_KIND, "no card is being dealt now")
    if cards and kind in _NO_CARDS:
        raise IllegalActionError(IllegalReason.WRONG_KIND, f"{kind.value} names no card")
    seat = s.actor
    if phase is _P_TURN or phase is _P_FINAL or phase is _P_MORE:
        if kind is _K_EXCHANGE:
            _check_swap(s, seat, cards)
            return
        if phase is _P_MORE:
            if kind is _K_DONE:
                return
            raise IllegalActionError(
                IllegalReason.WRONG_KIND,
                "you are exchanging: exchange another card, or end your turn (done)",
            )
        if kind is _K_PASS:
            return
        if phase is _P_TURN:
            end = s.ruleset.end_condition
            if kind is _K_KNOCK:
                if end != "knock_final_round":
                    raise IllegalActionError(
                        IllegalReason.NOT_ALLOWED_BY_RULES, "there is no knock in these rules"
                    )
                if s.knocker >= 0:
                    raise IllegalActionError(
                        IllegalReason.NOT_ALLOWED_BY_RULES, "someone has already knocked"
                    )
                return
            if kind is _K_STAND:
                if end != "two_stand":
                    raise IllegalActionError(
                        IllegalReason.NOT_ALLOWED_BY_RULES, "there is no stand in these rules"
                    )
                return
        word = "exchange or pass" if phase is _P_FINAL else "exchange, pass, knock or stand"
        raise IllegalActionError(
            IllegalReason.WRONG_KIND, f"on your turn you may {word}, not {kind.value}"
        )
    if phase is _P_BLIND:
        if kind is _K_PASS and s.swaps == 0 or kind is _K_DONE and s.swaps:
            return
        if kind is _K_EXCHANGE:
            if s.ruleset.dealer_blind_exchange == "all_or_nothing":
                if sorted(cards) != list(s.widow):
                    raise IllegalActionError(
                        IllegalReason.NOT_ALLOWED_BY_RULES,
                        "the dealer takes the whole widow for his whole hand, or nothing",
                    )
                return
            if len(cards) != 1 or cards[0] not in s.widow or cards[0] in s.moved:
                raise IllegalActionError(
                    IllegalReason.CARD_NOT_AVAILABLE,
                    "name one widow card to take (not one you have just put there)",
                )
            return
        raise IllegalActionError(
            IllegalReason.WRONG_KIND,
            "before looking at your hand you may exchange with the widow, or "
            + ("pass" if s.swaps == 0 else "stop (done)"),
        )
    if phase is _P_POUNCE:
        if kind is _K_DECLINE:
            return
        if kind is _K_POUNCE:
            if cards != (s.offer,):
                raise IllegalActionError(
                    IllegalReason.CARD_NOT_AVAILABLE,
                    f"you may pounce on {format_card(s.offer)} only",
                )
            return
        raise IllegalActionError(
            IllegalReason.WRONG_KIND, "the fourth card of your tricon is in the widow: "
            "pounce or decline"
        )
    # HORSE
    if kind is _K_BUY_HORSE or kind is _K_DECLINE:
        return
    raise IllegalActionError(
        IllegalReason.WRONG_KIND, "you are out of counters: buy a horse or decline"
    )


def _may_swap(s: WidowState, seat: Seat, cards: tuple[int, ...]) -> bool:
    """Whether *seat* may exchange ``(give, take)`` in his turn (:func:`_check_swap` says
    why not)."""
    if len(cards) != 2 or s.frozen & _BIT[seat]:
        return False
    give, take = cards
    moved = s.moved
    return give in s.hands[seat] and take in s.widow and give not in moved and (
        take not in moved)


def _check_swap(s: WidowState, seat: Seat, cards: tuple[int, ...]) -> None:
    if _may_swap(s, seat, cards):
        return
    if len(cards) != 2:
        raise IllegalActionError(
            IllegalReason.WRONG_KIND, "an exchange gives one card and takes one widow card"
        )
    give, take = cards
    if s.frozen & _BIT[seat]:
        raise IllegalActionError(
            IllegalReason.NOT_ALLOWED_BY_RULES, "a pounced four may not be broken up"
        )
    if give not in s.hands[seat]:
        raise IllegalActionError(
            IllegalReason.CARD_NOT_HELD,
            f"name one of the cards you hold ({format_cards(sorted(s.hands[seat]))})",
        )
    if take not in s.widow:
        raise IllegalActionError(
            IllegalReason.CARD_NOT_AVAILABLE,
            f"name one of the widow cards ({format_cards(s.widow)})",
        )
    if give in s.moved or take in s.moved:
        raise IllegalActionError(
            IllegalReason.NOT_ALLOWED_BY_RULES,
            "a card moved this turn may not be moved back in the same turn",
        )


# -- transitions ---------------------------------------------------------------------------


def apply(s: WidowState, action: Action) -> Transition:
    """Check *action*, then apply it (what :func:`commerce.engine.apply` calls).

    :raises IllegalActionError: with the reason, if *action* is not legal in *s*.
    """
    phase = s.phase
    if action.kind is _K_EXCHANGE and (phase is _P_MORE or phase is _P_TURN or phase is _P_FINAL):
        # the most common action, checked here at once (check() says why one is illegal)
        cards = action.cards
        seat = s.actor
        if _may_swap(s, seat, cards):
            return _swap(s, seat, cards[0], cards[1])
    check(s, action)
    return apply_unchecked(s, action)


def apply_unchecked(s: WidowState, action: Action) -> Transition:
    """Apply an action already known to be legal (the public path checks first)."""
    kind = action.kind
    if kind is _K_EXCHANGE:
        if s.phase is _P_BLIND:
            return _blind(s, action.cards)
        cards = action.cards
        return _swap(s, s.actor, cards[0], cards[1])
    if kind is _K_DEAL:
        if s.phase is _P_CARD:
            return _widow_card(s, action.cards[0])
        return _deal(s, action.cards)
    seat = s.actor
    if kind is _K_PASS:
        if s.phase is _P_BLIND:
            ev = Event("blind_passed", seat)
            v = list(s)
            v[_I_LOG] = s.log + (ev,)
            return _end_blind(v, (ev,))
        ev = _PASSED[seat]
        v = list(s)
        v[_I_LOG] = s.log + (ev,)
        if s.phase is _P_TURN and s.ruleset.pass_locks_out:
            bit = _BIT[seat]
            v[_I_LOCKED] = s.locked | bit
            v[_I_PASSED] = s.passed | bit
        return _next_turn(v, (ev,))
    if kind is _K_DONE:
        v = list(s)
        if s.phase is _P_BLIND:
            ev = Event("blind_done", seat)
            v[_I_LOG] = s.log + (ev,)
            return _end_blind(v, (ev,))
        ev = _DONE_EVENT[seat]
        v[_I_LOG] = s.log + (ev,)
        return _next_turn(v, (ev,))
    if kind is _K_KNOCK:
        return _knock(s, seat)
    if kind is _K_STAND:
        return _stand(s, seat)
    if kind is _K_POUNCE:
        return _pounce(s, seat, action.cards[0])
    if kind is _K_DECLINE:
        if s.phase is _P_POUNCE:
            ev = Event("pounce_declined", seat, (("card", s.offer),), _ONLY[seat])
            v = list(s)
            v[_I_OFFER] = -1
            v[_I_LOG] = s.log + (ev,)
            return _proceed(v, (ev,))
        return _horse(s, seat, bought=False)
    # BUY_HORSE
    return _horse(s, seat, bought=True)


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


def _deal(s: WidowState, cards: tuple[Card, ...]) -> Transition:
    """Cards of the initial deal: one at a time to the hands from the eldest, then the widow."""
    order = s.order
    m = len(order)
    cut = 3 * m
    rules = s.ruleset
    to_deal = s.to_deal
    hands = list(s.hands)
    if len(cards) == to_deal == cut + rules.widow_size:
        # the whole deal at once (what sample_chance draws): the j-th seat gets every m-th card
        for j in range(m):
            hands[order[j]] = tuple(cards[j:cut:m])
        widow = tuple(sorted(cards[cut:]))
        # the event of each card from its seat's row of _DEALT, or from _WIDOW_DEALT
        rows = tuple([_DEALT[seat] for seat in order]) * 3 + (_WIDOW_DEALT,) * rules.widow_size
        evs = tuple(map(_tuple_item, rows, cards))
    else:
        widow_list = list(s.widow)
        k = cut + rules.widow_size - to_deal
        events: list[Event] = []
        for card in cards:
            if k < cut:
                seat = order[k % m]
                hands[seat] += (card,)
                events.append(_DEALT[seat][card])
            else:
                insort(widow_list, card)
                events.append(_WIDOW_DEALT[card])
            k += 1
        widow = tuple(widow_list)
        evs = tuple(events)
    to_deal -= len(cards)
    v = list(s)
    v[_I_HANDS] = tuple(hands)
    v[_I_WIDOW] = widow
    v[_I_UNSEEN] = _without(s.unseen, cards)
    v[_I_TO_DEAL] = to_deal
    v[_I_LOG] = s.log + evs
    if to_deal:
        return _result(v, evs)
    v[_I_ROUND] = 1
    v[_I_POS] = -1
    v[_I_FRESH] = widow if rules.pounce and rules.pounce_on_initial_widow else ()
    v[_I_RESUME] = _R_FIRST
    if rules.dealer_blind_exchange != "none":
        v[_I_PHASE] = _P_BLIND
        v[_I_ACTOR] = v[_I_TURN] = s.dealer
        return _result(v, evs)
    return _proceed(v, evs)


_WIDOW_CARD: Final = tuple(Event("widow_card", None, (("card", c),)) for c in range(52))


def _widow_card(s: WidowState, card: Card) -> Transition:
    """The card added to the widow at the start of a round, or in place of a pounced card."""
    unseen = s.unseen
    i = unseen.index(card)
    widow = list(s.widow)
    insort(widow, card)
    ev = _WIDOW_CARD[card]
    v = list(s)
    v[_I_WIDOW] = tuple(widow)
    v[_I_UNSEEN] = unseen[:i] + unseen[i + 1:]
    if s.ruleset.pounce:
        v[_I_FRESH] = s.fresh + (card,)
    v[_I_LOG] = s.log + (ev,)
    return _proceed(v, (ev,))


def sample_chance(s: WidowState, rng: random.Random) -> Action:
    """Chance's next action drawn with *rng*: the whole initial deal, or one widow card.

    A multi-card ``deal`` is the same as dealing its cards one at a time, in order.
    """
    if s.phase is _P_DEAL:
        return Action(_K_DEAL, tuple(sample_cards(rng, s.unseen, s.to_deal)))
    return _DEAL[rng.choice(s.unseen)]


@lru_cache(maxsize=4096)
def _blind_exchanged(seat: Seat, give: Card, take: Card) -> Event:
    """The one-card ``blind_exchanged`` event (events are immutable values)."""
    return Event("blind_exchanged", seat, (("gave", (give,)), ("took", (take,))))


def _blind(s: WidowState, takes: tuple[Card, ...]) -> Transition:
    seat = s.dealer
    rules = s.ruleset
    hands = list(s.hands)
    hand = hands[seat]
    v = list(s)
    if rules.dealer_blind_exchange == "all_or_nothing":
        hands[seat] = tuple(takes)
        ev = Event("blind_exchanged", seat, (("gave", hand), ("took", tuple(takes))))
        returned = tuple(sorted(hand))
        v[_I_HANDS] = tuple(hands)
        v[_I_WIDOW] = returned
        if rules.pounce:
            v[_I_FRESH] = s.fresh + returned
        v[_I_LOCKED] = s.locked | _BIT[seat]
        v[_I_SWAPS] = 3
        v[_I_LOG] = s.log + (ev,)
        return _end_blind(v, (ev,))
    take = takes[0]
    i = s.swaps
    give = hand[i]
    hands[seat] = (*hand[:i], take, *hand[i + 1:])
    widow = list(s.widow)
    widow.remove(take)
    insort(widow, give)
    one = _blind_exchanged(seat, give, take)
    swaps = i + 1
    v[_I_HANDS] = tuple(hands)
    v[_I_WIDOW] = tuple(widow)
    v[_I_SWAPS] = swaps
    v[_I_MOVED] = (*s.moved, give)
    if rules.pounce:
        v[_I_FRESH] = s.fresh + (give,)
    v[_I_LOG] = s.log + (one,)
    if swaps >= 3 or len(widow) <= swaps:
        if swaps >= 3 and rules.exchange_all_three_locks:
            v[_I_LOCKED] = s.locked | _BIT[seat]
        return _end_blind(v, (one,))
    return _result(v, (one,))


def _end_blind(v: list[Any], events: tuple[Event, ...]) -> Transition:
    """The dealer has looked at his hand; play begins from the eldest (*events* are logged)."""
    # ``moved`` (the cards he gave) is kept until the first turn, so that he cannot pounce
    # on them himself.
    v[_I_SWAPS] = 0
    v[_I_POS] = -1
    v[_I_RESUME] = _R_FIRST
    return _proceed(v, events)


@lru_cache(maxsize=8192)
def _exchanged(seat: Seat, give: Card, take: Card) -> Event:
    """The ``exchanged`` event (events are immutable values, so one serves every game)."""
    return Event("exchanged", seat, (("gave", give), ("took", take)))


def _swap(s: WidowState, seat: Seat, give: Card, take: Card) -> Transition:
    hands = list(s.hands)
    hand = hands[seat]
    i = hand.index(give)
    hands[seat] = (*hand[:i], take, *hand[i + 1:])
    widow = list(s.widow)
    widow.remove(take)
    insort(widow, give)
    swaps = s.swaps + 1
    ev = _exchanged(seat, give, take)
    evs = (ev,)
    rules = s.ruleset
    v = list(s)
    v[_I_HANDS] = tuple(hands)
    v[_I_WIDOW] = tuple(widow)
    v[_I_SWAPS] = swaps
    v[_I_MOVED] = (*s.moved, give, take)
    if swaps >= 3 and rules.exchange_all_three_locks:
        v[_I_LOCKED] = s.locked | _BIT[seat]
    v[_I_LOG] = s.log + evs
    more = swaps < rules.max_exchange_per_turn and swaps < 3 and len(widow) > swaps
    if rules.pounce:
        holder = _pounce_holder(s, give, exclude=seat)
        if holder is not None:
            v[_I_PHASE] = _P_POUNCE
            v[_I_ACTOR] = holder
            v[_I_OFFER] = give
            v[_I_RESUME] = _R_MORE if more else _R_NEXT
            return _result(v, evs)
    if more:
        v[_I_PHASE] = _P_MORE
        return _new_tuple(Transition, (_new_tuple(WidowState, v), evs))  # _result, inline
    return _next_turn(v, evs)


_KNOCKED: Final = tuple(Event("knocked", s) for s in range(12))
_STOOD: Final = tuple(Event("stood", s) for s in range(12))


def _final_turns(order: tuple[Seat, ...], seat: Seat, locked: int) -> tuple[Seat, ...]:
    """The seats after *seat*, in the order of play, that may still exchange."""
    i = order.index(seat)
    return tuple([x for x in order[i + 1:] + order[:i] if not locked & _BIT[x]])


def _knock(s: WidowState, seat: Seat) -> Transition:
    bit = _BIT[seat]
    ev = _KNOCKED[seat]
    v = list(s)
    v[_I_LOCKED] = s.locked | bit
    v[_I_STOOD] = s.stood | bit
    v[_I_KNOCKER] = seat
    v[_I_FINAL] = _final_turns(s.order, seat, s.locked)
    v[_I_IN_FINAL] = True
    v[_I_LOG] = s.log + (ev,)
    return _next_turn(v, (ev,))


def _stand(s: WidowState, seat: Seat) -> Transition:
    bit = _BIT[seat]
    ev = _STOOD[seat]
    stood = s.stood | bit
    locked = s.locked | bit
    v = list(s)
    v[_I_LOCKED] = locked
    v[_I_STOOD] = stood
    v[_I_LOG] = s.log + (ev,)
    if stood.bit_count() >= 2:
        v[_I_FINAL] = _final_turns(s.order, seat, locked)
        v[_I_IN_FINAL] = True
    return _next_turn(v, (ev,))


def _pounce(s: WidowState, seat: Seat, card: Card) -> Transition:
    hands = list(s.hands)
    hands[seat] = tuple(sorted((*hands[seat], card)))
    ev = Event("pounced", seat, (("card", card),))
    v = list(s)
    v[_I_HANDS] = tuple(hands)
    v[_I_WIDOW] = tuple([c for c in s.widow if c != card])
    v[_I_FROZEN] = s.frozen | _BIT[seat]
    v[_I_OFFER] = -1
    v[_I_LOG] = s.log + (ev,)
    if s.unseen:
        v[_I_PHASE] = _P_CARD
        return _result(v, (ev,))
    return _proceed(v, (ev,))


def _pounce_holder(s: WidowState, card: Card, exclude: Seat = -1) -> Seat | None:
    """The seat holding the other three cards of *card*'s rank, if it may pounce.

    Nobody pounces on a card he has just put into the widow himself (*exclude*, or the
    player whose turn it is for a card moved this turn). Only one seat can hold the three.
    """
    rank = card >> 2
    hands = s.hands
    for seat in s.order:
        hand = hands[seat]
        if (len(hand) == 3 and hand[0] >> 2 == rank and hand[1] >> 2 == rank
                and hand[2] >> 2 == rank):
            if seat == exclude or (seat == s.turn and card in s.moved):
                return None
            if not s.ruleset.pounce_after_pass and (s.passed | s.stood) & _BIT[seat]:
                return None
            return seat
    return None


def _proceed(v: list[Any], events: tuple[Event, ...]) -> Transition:
    """Offer pending pounces, then go on as the ``resume`` field says.

    *v* is the field list of the state so far (changed in place: one copy of the state per
    action is the cheapest); *events* are already logged.
    """
    fresh = v[_I_FRESH]
    if fresh:
        s = _new_tuple(WidowState, v)
        widow = s.widow
        while fresh:
            card, fresh = fresh[0], fresh[1:]
            if card not in widow:
                continue
            holder = _pounce_holder(s, card)
            if holder is not None:
                v[_I_FRESH] = fresh
                v[_I_PHASE] = _P_POUNCE
                v[_I_ACTOR] = holder
                v[_I_OFFER] = card
                return _result(v, events)
        v[_I_FRESH] = ()
    resume = v[_I_RESUME]
    if resume is _R_MORE:
        v[_I_PHASE] = _P_MORE
        v[_I_ACTOR] = v[_I_TURN]
        return _result(v, events)
    if resume is _R_FIRST:
        v[_I_POS] = -1
    return _next_turn(v, events)


def _next_turn(v: list[Any], events: tuple[Event, ...]) -> Transition:
    """Give the next turn, start a new round, or end the deal.

    *v* is the field list of the state so far (changed in place); *events* are logged.
    """
    locked = v[_I_LOCKED]
    if v[_I_IN_FINAL]:
        final = v[_I_FINAL]
        while final:
            seat, final = final[0], final[1:]
            if not locked & _BIT[seat]:
                v[_I_FINAL] = final
                v[_I_PHASE] = _P_FINAL
                v[_I_ACTOR] = v[_I_TURN] = seat
                v[_I_SWAPS] = 0
                v[_I_MOVED] = ()
                return _result(v, events)
        v[_I_FINAL] = ()
        return _showdown(v, events, ())
    mask = v[_I_ORDER_MASK]
    if locked & mask == mask:
        return _showdown(v, events, ())
    order = v[_I_ORDER]
    bits = _BIT
    n = len(order)
    pos = v[_I_POS] + 1
    rnd = v[_I_ROUND]
    while True:
        if pos >= n:
            rnd += 1
            pos = 0
            rules: Ruleset = v[0]
            if rules.end_condition == "rounds_eq_players" and rnd > n:
                return _showdown(v, events, ())
            limit = rules.max_rounds_per_deal
            if limit and rnd > limit:
                return _showdown(v, events, (Event("round_limit", None, (("rounds", limit),)),))
            ev = _new_tuple(Event, ("round_started", None, (("round", rnd),), None))
            events = (*events, ev)
            v[_I_LOG] = v[_I_LOG] + (ev,)
            if rules.add_widow_card_each_round and v[_I_UNSEEN]:
                v[_I_PHASE] = _P_CARD
                v[_I_ROUND] = rnd
                v[_I_POS] = -1
                v[_I_RESUME] = _R_FIRST
                v[_I_SWAPS] = 0
                v[_I_MOVED] = ()
                return _result(v, events)
        seat = order[pos]
        if not locked & bits[seat]:
            v[_I_PHASE] = _P_TURN
            v[_I_ACTOR] = v[_I_TURN] = seat
            v[_I_POS] = pos
            v[_I_ROUND] = rnd
            v[_I_SWAPS] = 0
            v[_I_MOVED] = ()
            return _new_tuple(Transition, (_new_tuple(WidowState, v), events))  # _result
        pos += 1


# -- showdown and settlement ---------------------------------------------------------------

@lru_cache(maxsize=64)
def _fallback_evaluator(rules: Ruleset) -> Evaluator:
    """The evaluator of the full 'peel' ranking under *rules* (No Pair or Point, when no
    hand qualifies)."""
    return evaluator_for(rules.with_options(ranking="peel", four_of_a_kind=False,
                                            pounce=False))


def _evaluator(rules: Ruleset, fallback: bool = False) -> Evaluator:
    """The hand evaluator of *rules* (with *fallback*, of the full 'peel' ranking)."""
    return _fallback_evaluator(rules) if fallback else evaluator_for(rules)


def _losers(order: tuple[Seat, ...], ranks: list[int], rule: str) -> list[Seat]:
    """The seats that lose a token or counter: the lowest hands, as *rule* says (*ranks*
    are those of the hands of *order*)."""
    low = min(ranks)
    if low == max(ranks):
        return []  # every hand ties: nobody is lowest
    lowest = [x for x, r in zip(order, ranks, strict=True) if r == low]
    if len(lowest) == 1 or rule == "all_lose":
        return lowest
    if rule == "none":
        return []
    return [lowest[-1]]  # latest in the order of play


_PAID: Final = tuple(
    tuple(Event("paid", x, (("to", w), ("amount", 1))) for w in range(12)) for x in range(12)
)
"""``_PAID[payer][winner]``: a stake paid to the winner."""
_TOKEN_MOVED: Final = tuple(
    tuple(Event("token_moved", x, (("to", w),)) for w in range(12)) for x in range(12)
)
"""``_TOKEN_MOVED[loser][winner]``: a token moved from the lowest hand to the best."""
_COUNTER_TO_POOL: Final = tuple(Event("counter_to_pool", x) for x in range(12))


def _showdown(v: list[Any], events: tuple[Event, ...], extra: tuple[Event, ...]) -> Transition:
    """Show the hands and settle. *v* is the field list of the state so far (changed in
    place); *events* are logged; *extra* (a round limit) goes before the showdown."""
    s: WidowState = _new_tuple(WidowState, v)
    rules = s.ruleset
    ev = _evaluator(rules)
    names = ev.category_names
    order = s.order
    hands = s.hands
    rank_of = ev.rank_of
    ranks = [rank_of(hands[x]) for x in order]  # in the order of play, like *order*
    categories = [""] * s.players
    for x, r in zip(order, ranks, strict=True):
        categories[x] = names[r]
    scoring = ranks
    nobody = False
    if rules.ranking == "no_pair_or_point" and all(
        ev.categories[r] is _C_NONE for r in ranks
    ):
        if rules.no_qualifier_rule == "no_transfer":
            nobody = True
        else:
            fb = _evaluator(rules, fallback=True).rank_of
            scoring = [fb(hands[x]) for x in order]
    best = max(scoring)
    top = [x for x, r in zip(order, scoring, strict=True) if r == best]
    if rules.best_tie_rule == "dealer_as_eldest" and top[-1] == order[-1]:
        top = [top[-1], *top[:-1]]  # the dealer (last in the order) counts as eldest
    winners: list[Seat] = [] if nobody else (
        top if rules.best_tie_rule == "all_paid" else top[:1]
    )
    tokens = list(s.tokens)
    balances = list(s.balances)
    pool = s.pool
    pool_counters = s.pool_counters
    settle: list[Event] = []
    flow = rules.token_flow
    if flow == "stake_from_each":
        for w in winners:
            for x in order:
                if x not in winners:
                    balances[x] -= 1
                    balances[w] += 1
                    settle.append(_PAID[x][w])
    elif winners:
        w = winners[0]
        for loser in _losers(order, scoring, rules.worst_tie_rule):
            tokens[loser] -= 1
            if flow == "lowest_to_best":
                tokens[w] += 1
                balances[loser] -= 1
                balances[w] += 1
                settle.append(_TOKEN_MOVED[loser][w])
            else:
                pool_counters += 1
                settle.append(_COUNTER_TO_POOL[loser])
        prize = min(rules.deal_prize, pool) if flow == "lowest_to_pool" else 0
        if prize:
            pool -= prize
            balances[w] += prize
            settle.append(Event("prize", w, (("amount", prize),)))
    newly: tuple[Seat, ...] = ()
    if flow in _TOKENS:
        newly = tuple([x for x in order if tokens[x] == 0])
        if newly:
            out_in = list(s.out_in)
            for x in newly:
                out_in[x] = s.deal_number
                settle.append(Event("went_out", x, (("deal", s.deal_number),)))
            v[_I_OUT_IN] = tuple(out_in)
    deals_won = list(s.deals_won)
    for w in winners:
        deals_won[w] += 1
    shown = _new_tuple(Event, ("showdown", None, (
        ("hands", hands), ("categories", tuple(categories)), ("winners", tuple(winners)),
    ), None))
    summary = (*extra, shown, *settle)
    v[_I_TOKENS] = tuple(tokens)
    v[_I_BALANCES] = tuple(balances)
    v[_I_POOL] = pool
    v[_I_POOL_COUNTERS] = pool_counters
    v[_I_DEALS_WON] = tuple(deals_won)
    v[_I_HORSE_OPEN] = s.horse_open and not newly
    v[_I_LOG] = s.log + summary
    v[_I_FRESH] = ()
    v[_I_OFFER] = -1
    offers = newly if newly and s.horse_open and rules.buy_a_horse else ()
    if offers:
        # the deal's exchanges are over: nothing of the last turn carries into the offer
        v[_I_PHASE] = _P_HORSE
        v[_I_ACTOR] = offers[0]
        v[_I_OFFERS] = offers[1:]
        v[_I_SWAPS] = 0
        v[_I_MOVED] = ()
        return _result(v, (*events, *summary))
    return _end_of_deal(v, (*events, *summary), summary)


def _horse(s: WidowState, seat: Seat, bought: bool) -> Transition:
    v = list(s)
    if bought:
        price = s.ruleset.horse_price
        tokens = list(s.tokens)
        tokens[seat] += 1
        balances = list(s.balances)
        balances[seat] -= price
        out_in = list(s.out_in)
        out_in[seat] = 0
        ev = Event("horse_bought", seat, (("price", price),))
        v[_I_TOKENS] = tuple(tokens)
        v[_I_BALANCES] = tuple(balances)
        v[_I_OUT_IN] = tuple(out_in)
        v[_I_POOL] = s.pool + price
        v[_I_HORSES] = s.horses + 1
    else:
        ev = Event("horse_declined", seat)
    v[_I_LOG] = s.log + (ev,)
    if s.offers:
        v[_I_ACTOR] = s.offers[0]
        v[_I_OFFERS] = s.offers[1:]
        return _result(v, (ev,))
    return _end_of_deal(v, (ev,), None)


def _end_of_deal(v: list[Any], events: tuple[Event, ...],
                 since: tuple[Event, ...] | None) -> Transition:
    """After the settlement: end the session, or start the next deal.

    *v* is the field list of the state so far (changed in place); *events* are logged.
    *since*: the events logged from the showdown on (None: found in the log).
    """
    rules: Ruleset = v[0]
    n: int = v[1]
    flow = rules.token_flow
    out_in = v[_I_OUT_IN]
    number = v[_I_DEAL_NUMBER]
    length = rules.deals or (n * rules.deals_each if flow == "stake_from_each" else 0)
    ended = ""
    if flow in _TOKENS and out_in.count(0) <= 1:
        ended = "one player is left in the game"
    elif length and number >= length:
        ended = f"{number} deals have been played"
    done = _new_tuple(Event, ("deal_ended", None, (("deal", number), ("last", bool(ended))),
                              None))
    if not ended:
        if since is None:
            log = v[_I_LOG]
            i = len(log) - 1
            while i > 0 and log[i].kind != "showdown":
                i -= 1
            if i > 0 and log[i - 1].kind == "round_limit":
                i -= 1
            since = log[i:]
        last = tuple([e for e in (*since, done) if e.visible_to is None])
        step = _step(rules)
        dealer = first = v[_I_DEALER]
        for i in range(1, n + 1):
            dealer = (first + step * i) % n
            if out_in[dealer] == 0:
                break
        nxt = _start_deal(v, dealer, last)
        return _new_tuple(Transition, (nxt, (*events, done, *nxt.log)))
    extra: list[Event] = [done]
    balances = list(v[_I_BALANCES])
    pool = v[_I_POOL]
    if flow == "lowest_to_pool" and pool:
        alive = [x for x in range(n) if out_in[x] == 0]
        tokens = v[_I_TOKENS]
        most = max(tokens[x] for x in alive)
        takers = [x for x in _seats_from(v[_I_DEALER], rules, n)
                  if x in alive and tokens[x] == most]
        share, rest = divmod(pool, len(takers))
        for i, x in enumerate(takers):
            amount = share + (rest if i == 0 else 0)
            balances[x] += amount
            extra.append(Event("pool_taken", x, (("amount", amount),)))
        pool = 0
    summary = tuple(extra)
    v[_I_BALANCES] = tuple(balances)
    v[_I_POOL] = pool
    v[_I_PHASE] = _P_OVER
    v[_I_ENDED] = ended
    v[_I_LOG] = v[_I_LOG] + summary
    return _result(v, (*events, *summary))


def _seats_from(dealer: Seat, rules: Ruleset, n: int) -> list[Seat]:
    """Every seat in the order of play, the dealer's eldest first, the dealer last."""
    step = _step(rules)
    return [(dealer + step * i) % n for i in range(1, n + 1)]


def outcome(s: WidowState) -> Outcome | None:
    """Each seat's net tokens, counters' stakes or stakes once the session is over."""
    if s.phase is not _P_OVER:
        return None
    flow = s.ruleset.token_flow
    details: dict[str, Any] = {"deals": s.deal_number, "deals_won": s.deals_won}
    if flow in _TOKENS:
        details["tokens"] = s.tokens
        details["out_in"] = tuple(None if d == 0 else d for d in s.out_in)
    if flow == "lowest_to_pool":
        details["pool_counters"] = s.pool_counters
        details["horses"] = s.horses
    return Outcome(payoffs=s.balances, reason=s.ended, details=details)


# -- views ---------------------------------------------------------------------------------


def _seats(mask: int, n: int) -> tuple[Seat, ...]:
    return tuple(x for x in range(n) if mask & _BIT[x])


def _view(s: WidowState, seat: Seat | None, everything: bool) -> WidowObservation:
    n = s.players
    shown = everything or s.phase is _P_OVER or s.phase is _P_HORSE
    blind = s.phase is _P_BLIND

    def visible(x: Seat) -> tuple[Card, ...] | None:
        if shown:
            return s.hands[x]
        if x != seat:
            return None
        if blind and x == s.dealer:
            return s.hands[x][:s.swaps]
        return s.hands[x]

    d = decision(s)
    tracked = s.ruleset.token_flow in _TOKENS
    return WidowObservation(
        seat=seat,
        ruleset=s.ruleset,
        players=n,
        dealer=s.dealer,
        deal_number=s.deal_number,
        round=s.round,
        decision=d,
        turn=s.turn,
        hand=(visible(seat) or ()) if seat is not None else (),
        hands=tuple(visible(x) for x in range(n)),
        hand_sizes=tuple(len(h) for h in s.hands),
        widow=s.widow,
        stock_count=len(s.unseen),
        tokens=s.tokens if tracked else None,
        balances=s.balances,
        pool=s.pool,
        pool_counters=s.pool_counters,
        in_deal=s.order,
        out=tuple(x for x in range(n) if s.out_in[x]),
        locked=_seats(s.locked, n),
        passed=_seats(s.passed, n),
        stood=_seats(s.stood, n),
        pounced=_seats(s.frozen, n),
        knocker=s.knocker if s.knocker >= 0 else None,
        final_turns=s.in_final,
        pounce_offer=(s.offer if s.phase is _P_POUNCE and (everything or seat == s.actor)
                      else None),
        events=s.log if everything else _visible_events(s, seat, blind),
        last_deal=s.last_deal,
        over=s.phase is _P_OVER,
        ended=s.ended,
    )


def _visible_events(s: WidowState, seat: Seat | None, blind: bool) -> tuple[Event, ...]:
    """The events of the deal *seat* may see; a blind dealer has not seen his cards dealt."""
    if blind and seat == s.dealer:
        return tuple(e for e in s.log if e.visible(seat)
                     and not (e.kind == "dealt" and e.seat == seat))
    return tuple(e for e in s.log if e.visible(seat))


def observe(s: WidowState, seat: Seat | None) -> WidowObservation:
    """The view of *seat*: its own cards, the widow, public facts and the events it may see.

    A pounce offer is the offered seat's secret (dossier #27: he "may call Pounce!"; nobody
    else learns that he could): every other seat sees the table as if no offer were pending
    (:func:`without_offer`).
    """
    if s.phase is _P_POUNCE and seat != s.actor:
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
    while t.phase is _P_POUNCE:
        t = apply_unchecked(t, _DECLINE).state
    if t.deal_number != s.deal_number or t.phase is _P_OVER or t.phase is _P_HORSE:
        phase, actor, turn = _P_CARD, s.actor, s.turn
    else:
        phase, actor, turn = t.phase, t.actor, t.turn
    return s._replace(phase=phase, actor=actor, turn=turn, offer=-1)


def reveal_all(s: WidowState) -> WidowObservation:
    """Every hand and every event visible: for reviewing a finished or saved game."""
    return _view(s, None, everything=True)


# -- the reference state -------------------------------------------------------------------


def _mask(seats: frozenset[Seat]) -> int:
    return sum(_BIT[x] for x in seats)


def _set(mask: int, n: int) -> frozenset[Seat]:
    return frozenset(x for x in range(n) if mask & _BIT[x])


def to_reference(s: WidowState) -> ref.WidowState:
    """The reference state this fast state stands for."""
    n = s.players
    return ref.WidowState(
        ruleset=s.ruleset,
        players=n,
        session=ref.Session(
            tokens=s.tokens, balances=s.balances, out_in=s.out_in, deals_won=s.deals_won,
            pool=s.pool, pool_counters=s.pool_counters, horses=s.horses,
            horse_open=s.horse_open, horse_offers=s.offers, dealer=s.dealer,
            deal_number=s.deal_number, last_deal=s.last_deal, ended=s.ended,
        ),
        deal=ref.Deal(
            order=s.order, hands=s.hands, widow=s.widow, stock=s.unseen, to_deal=s.to_deal,
            locked=_set(s.locked, n), passed=_set(s.passed, n), stood=_set(s.stood, n),
            pounced=_set(s.frozen, n), knocker=None if s.knocker < 0 else s.knocker,
            log=s.log,
        ),
        turn=ref.Turn(
            phase=s.phase, actor=s.actor, seat=s.turn, pos=s.pos, round=s.round,
            final=s.final, in_final=s.in_final, swaps=s.swaps, moved=s.moved,
            resume=s.resume, fresh=s.fresh, offer=None if s.offer < 0 else s.offer,
        ),
    )


def from_reference(r: ref.WidowState) -> WidowState:
    """The fast state standing for the reference state *r*."""
    session, deal, turn = r.session, r.deal, r.turn
    return WidowState(
        ruleset=r.ruleset, players=r.players, tokens=session.tokens,
        balances=session.balances, out_in=session.out_in, deals_won=session.deals_won,
        pool=session.pool, pool_counters=session.pool_counters, horses=session.horses,
        horse_open=session.horse_open, offers=session.horse_offers, dealer=session.dealer,
        deal_number=session.deal_number, order=deal.order, order_mask=_mask(frozenset(deal.order)),
        hands=deal.hands, widow=deal.widow, unseen=deal.stock, to_deal=deal.to_deal,
        phase=turn.phase, actor=turn.actor, turn=turn.seat, pos=turn.pos, round=turn.round,
        locked=_mask(deal.locked), passed=_mask(deal.passed), stood=_mask(deal.stood),
        frozen=_mask(deal.pounced), knocker=-1 if deal.knocker is None else deal.knocker,
        final=turn.final, in_final=turn.in_final, swaps=turn.swaps, moved=turn.moved,
        resume=turn.resume, fresh=turn.fresh, offer=-1 if turn.offer is None else turn.offer,
        log=deal.log, last_deal=session.last_deal, ended=session.ended,
    )
