"""The heuristic bot's rules of thumb for the widow family (Peel's Old Game, Pool Commerce,
the token game, Pounce, No Pair or Point).

It plays like a sensible person, from its observation, the legal actions and its RNG only:

* **Worth of a hand.** A three-card hand is worth the share of the pack's hands it beats
  (:func:`commerce.bots.heuristic.strength_table`); while more turns may follow, a hand's
  *promise* counts too: what it is worth on average once one of its cards is replaced at
  best by a random card (so a pair or two cards of a sequence beat three odd cards of the
  same strength).
* **Blind exchange (the dealer).** Before looking at his hand the dealer takes the widow
  cards that make the best hand on average once his unseen cards fill it (a random hand is
  worth one half): a pair or a good widow is taken, three odd cards are left.
* **Exchanges.** On its turn it looks at every hand it can reach from its cards and the
  widow within the turn's limit (``max_exchange_per_turn``; cards moved this turn stay
  where they are) and heads for the one worth most, one ``exchange GIVE for TAKE`` at a time,
  then ``done``; with nothing better it does not exchange.
* **Knocking and standing.** It knocks (stands, in the Old Game) once no exchange improves
  its hand: it may not improve any more, and the sooner the deal ends the fewer turns the
  others have to pass it (passing would lock it out just the same). On a hand near the top
  of the pack (a tricon or the best sequences) it knocks at once. In a final turn it
  exchanges if that helps, else passes.
* **Pounce and horse.** It always pounces on the fourth card of its tricon (four of a kind
  beats every three-card hand), and buys a horse when it is offered one.

``boldness`` (0-1, default 0.5) sets how strong a hand it knocks on at once (at 1, none:
it always plays on while exchanges help). Earlier knocks on merely good hands were measured
to lose to this rule in Peel's Old Game, Pool Commerce and the token game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Final, Protocol

from commerce.cards import Card, pack
from commerce.core import Action, ActionKind, Decision, DecisionKind, Event, Seat
from commerce.families.widow.options import WidowOptions
from commerce.hands import evaluator_for
from commerce.rules import Ruleset
from commerce.strength import strength_table

PROMISE_WEIGHT: Final = 0.5
"""How much a hand's promise (see the module's text) counts while more turns may follow."""
_TOKEN_FLOWS: Final = frozenset({"lowest_to_best", "lowest_to_pool"})

_BLIND: dict[tuple[int, tuple[Card, ...], int], float] = {}


class HeuristicView(Protocol):
    """The part of an observation the heuristic reads: a seat's
    :class:`~commerce.families.widow.observe.WidowObservation`, or the playouts' light
    :class:`~commerce.families.widow.search.View` of a state."""

    @property
    def ruleset(self) -> Ruleset:
        """The rules in force."""
        ...

    @property
    def seat(self) -> Seat | None:
        """Whose view this is."""
        ...

    @property
    def hand(self) -> tuple[Card, ...]:
        """The seat's cards it may see."""
        ...

    @property
    def widow(self) -> tuple[Card, ...]:
        """The face-up widow."""
        ...

    @property
    def decision(self) -> Decision | None:
        """Who must decide what."""
        ...

    @property
    def in_deal(self) -> tuple[Seat, ...]:
        """Seats dealt in, in the order of play."""
        ...

    @property
    def final_turns(self) -> bool:
        """Whether the deal is in its final turns (someone knocked)."""
        ...

    @property
    def events(self) -> tuple[Event, ...]:
        """The events the seat has seen."""
        ...


class _Context:
    """Per hand ranking: the strength of every dense rank, the rank table and the promises
    worked out so far (keyed by the hand's bit mask of cards)."""

    __slots__ = ("ev", "table", "rt", "cards", "promise", "values")

    def __init__(self, rules: Ruleset) -> None:
        self.ev = evaluator_for(rules)
        self.table = strength_table(rules)
        self.rt = self.ev.rank_table
        self.cards = pack(rules.pack)
        self.promise: dict[int, float] = {}
        self.values: dict[int, float] = {}
        """The bot's worth of a hand while more turns may follow, by bit mask."""


_CONTEXTS: dict[int, tuple[Ruleset, _Context]] = {}


def _context(rules: Ruleset) -> _Context:
    hit = _CONTEXTS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    ev = evaluator_for(rules)
    ctx = next((c for _, c in _CONTEXTS.values() if c.ev is ev), None) or _Context(rules)
    if len(_CONTEXTS) > 64:
        _CONTEXTS.clear()
    _CONTEXTS[id(rules)] = (rules, ctx)
    return ctx


def _tables(rules: Ruleset) -> tuple[list[float], list[list[list[int]]]]:
    ctx = _context(rules)
    return ctx.table, ctx.rt


def hand_strength(rules: Ruleset, hand: Sequence[Card]) -> float:
    """The share of the pack's three-card hands *hand* beats (ties half; a four: 1)."""
    ctx = _context(rules)
    return float(ctx.table[ctx.ev.rank_of(tuple(hand))])


def _promise(ctx: _Context, a: Card, b: Card, c: Card) -> float:
    key = 1 << a | 1 << b | 1 << c
    hit = ctx.promise.get(key)
    if hit is not None:
        return hit
    table, rt = ctx.table, ctx.rt
    here = table[rt[a][b][c]]
    total = 0.0
    count = 0
    for x in ctx.cards:
        if x == a or x == b or x == c:
            continue
        best = here
        v = table[rt[x][b][c]]
        if v > best:
            best = v
        v = table[rt[a][x][c]]
        if v > best:
            best = v
        v = table[rt[a][b][x]]
        if v > best:
            best = v
        total += best
        count += 1
    value = total / count
    if len(ctx.promise) > 100_000:
        ctx.promise.clear()
    ctx.promise[key] = value
    return value


def promise(rules: Ruleset, hand: Sequence[Card]) -> float:
    """What *hand* is worth on average once a random card (from the rest of the pack) has
    replaced the card it helps most to replace, or kept the hand if none helps."""
    a, b, c = hand
    return _promise(_context(rules), a, b, c)


def hand_value(rules: Ruleset, hand: Sequence[Card], more_turns: bool) -> float:
    """The worth the bot gives *hand*: its strength, and while more turns may follow, part of
    its promise."""
    if len(hand) != 3:
        return hand_strength(rules, hand)
    ctx = _context(rules)
    a, b, c = hand
    s = ctx.table[ctx.rt[a][b][c]]
    if not more_turns:
        return s
    return s + PROMISE_WEIGHT * (_promise(ctx, a, b, c) - s)


def _blind_value(rules: Ruleset, taken: tuple[Card, ...], seen: frozenset[Card]) -> float:
    """Mean strength of *taken* filled up to three with random cards not in *seen*."""
    key = (id(evaluator_for(rules)), tuple(sorted(taken)), hash(seen))
    hit = _BLIND.get(key)
    if hit is not None:
        return hit
    table, rt = _tables(rules)
    rest = [c for c in pack(rules.pack) if c not in seen]
    k = len(taken)
    if k == 0:
        value = 0.5
    elif k == 3:
        value = table[rt[taken[0]][taken[1]][taken[2]]]
    elif k == 2:
        a, b = taken
        value = sum(table[rt[a][b][x]] for x in rest) / len(rest)
    else:
        a = taken[0]
        total = 0.0
        for x, y in combinations(rest, 2):
            total += table[rt[a][x][y]]
        value = total / (len(rest) * (len(rest) - 1) / 2)
    if len(_BLIND) > 20_000:
        _BLIND.clear()
    _BLIND[key] = value
    return value


def best_target(rules: Ruleset, hand: Sequence[Card], gives: Sequence[Card],
                takes: Sequence[Card], swaps: int, more_turns: bool) -> tuple[Card, ...]:
    """The hand worth most that *hand* can become by giving up to *swaps* of *gives* for as
    many of *takes* (the current hand if nothing is better; fewer exchanges on ties)."""
    ctx = _context(rules)
    table, rt = ctx.table, ctx.rt
    values = ctx.values
    weight = PROMISE_WEIGHT

    def value(a: Card, b: Card, c: Card) -> float:
        if not more_turns:
            return table[rt[a][b][c]]
        key = 1 << a | 1 << b | 1 << c
        v = values.get(key)
        if v is None:
            if len(values) > 300_000:
                values.clear()
            s = table[rt[a][b][c]]
            v = values[key] = s + weight * (_promise(ctx, a, b, c) - s)
        return v

    fixed = tuple(c for c in hand if c not in gives)
    free = tuple(c for c in hand if c in gives)
    best = tuple(hand)
    if len(best) != 3:
        return best
    best_value = value(*best) + 1e-9
    get = values.get
    for j in range(1, min(swaps, len(free), len(takes)) + 1):
        for kept in combinations(free, len(free) - j):
            base = fixed + kept
            if j == 1 and more_turns:  # the hot case, inlined
                a, b = base
                head = 1 << a | 1 << b
                for t in takes:
                    v = get(head | 1 << t)
                    if v is None:
                        v = value(a, b, t)
                    if v > best_value:
                        best, best_value = (a, b, t), v + 1e-9
                continue
            for took in combinations(takes, j):
                a, b, c = base + took
                v = value(a, b, c)
                if v > best_value:
                    best, best_value = (a, b, c), v + 1e-9
    return best


def knock_threshold(rules: Ruleset, opponents: int, boldness: float) -> float:
    """The hand strength from which the bot knocks or stands at once, improvable or not.

    Knocking early on a merely good hand loses to playing on until nothing improves it
    (measured in every preset: the others' remaining turns improve them more than the early
    knock saves), so only a hand near the top of the pack is knocked on at once: the top 2%
    at the default *boldness*, only a four of a kind at 1. *opponents* is not used yet.
    """
    return 1.0 - 0.04 * (1.0 - boldness)


def _swaps_this_turn(obs: HeuristicView, seat: Seat | None) -> int:
    """One-for-one exchanges *seat* has made in the current turn (read from the events)."""
    count = 0
    for e in reversed(obs.events):
        kind = e.kind
        if kind == "exchanged" and e.seat == seat:
            count += 1
        elif kind in ("pounced", "pounce_declined", "widow_card"):
            continue
        else:
            break
    return count


def widow_action(obs: HeuristicView, legal: Sequence[Action], rng: random.Random,
                 boldness: float) -> Action:
    """The heuristic's choice in a widow-family game.

    Reads only ``ruleset``, ``seat``, ``hand``, ``widow``, ``decision``, ``in_deal``,
    ``final_turns`` and ``events`` of *obs*, so a playout can pass a light view.
    """
    rules: Ruleset = obs.ruleset
    d = obs.decision
    kind = d.kind if d is not None else None
    first = legal[0]
    if kind is DecisionKind.POUNCE_OFFER or kind is DecisionKind.HORSE_OFFER:
        for a in legal:
            if a.kind is ActionKind.POUNCE or a.kind is ActionKind.BUY_HORSE:
                return a
        return first
    if kind is DecisionKind.BLIND_EXCHANGE:
        return _blind(obs, legal, rules)
    hand = tuple(obs.hand)
    swaps = [a for a in legal if a.kind is ActionKind.EXCHANGE]
    stop = next((a for a in legal if a.kind in (ActionKind.KNOCK, ActionKind.STAND)), None)
    if len(hand) != 3:  # a pounced four: nothing to exchange
        return stop if stop is not None else first
    opponents = len(obs.in_deal) - 1
    if stop is not None and hand_strength(rules, hand) >= knock_threshold(rules, opponents,
                                                                           boldness):
        return stop
    if swaps:
        gives = sorted({a.cards[0] for a in swaps})
        takes = sorted({a.cards[1] for a in swaps})
        limit = min(WidowOptions.of(rules).max_exchange_per_turn, 3)
        if kind is DecisionKind.MORE_EXCHANGE:
            limit -= _swaps_this_turn(obs, obs.seat)
        more_turns = not obs.final_turns and kind is not DecisionKind.FINAL_TURN
        target = best_target(rules, hand, gives, takes, max(limit, 1), more_turns)
        give = next((c for c in hand if c not in target), None)
        take = next((c for c in target if c not in hand), None)
        if give is not None and take is not None:
            for a in swaps:
                if a.cards == (give, take):
                    return a
    if stop is not None:
        return stop
    return first  # pass, or done


def _blind(obs: HeuristicView, legal: Sequence[Action], rules: Ruleset) -> Action:
    """The dealer's blind exchange: take the widow cards that make the best hand on average."""
    taken = tuple(obs.hand)
    takes = [a for a in legal if a.kind is ActionKind.EXCHANGE]
    if not takes:
        return legal[0]
    seen = frozenset((*obs.widow, *taken))
    if len(takes[0].cards) > 1:  # all or nothing: the whole widow for the whole hand
        whole = takes[0].cards
        return takes[0] if _blind_value(rules, whole, seen) > 0.55 else legal[0]
    avail = [a.cards[0] for a in takes]
    room = 3 - len(taken)
    best: tuple[Card, ...] = ()
    best_value = _blind_value(rules, taken, seen) if taken else 0.5
    for j in range(1, min(room, len(avail)) + 1):
        for more in combinations(avail, j):
            v = _blind_value(rules, (*taken, *more), seen)
            if v > best_value + 1e-9:
                best, best_value = more, v
    if not best:
        return legal[0]  # pass, or done
    return next(a for a in takes if a.cards[0] == best[0])

