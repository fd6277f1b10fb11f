"""Playouts of the widow family for the search bot.

Inside a drawn (determinised) state, every seat plays the heuristic's rules of thumb
(:func:`commerce.families.widow.heuristic.widow_action`) on its own cards and the public table
until the deal ends: on the compiled kernel (:func:`kernel_playouts`) where it plays the
ruleset, else on the reference rules' unchecked transition (:func:`playout`, each action from
``legal_actions``). The gain is the seat's change in tokens (counters) where the ruleset has them,
else in stakes, from now to the end of the deal (and the pool, if the session ends with it).

In Pool Commerce (counters to the pool, no cap on the deals, no prize per deal) a counter is
worth nothing in itself: the survivor takes the pool. There the gain is the change in the
seat's *expected stakes* (:func:`pool_value`): its balance plus its chance of surviving
times the pool, plus what it can expect of the horse money still to come, from a model of
the rest of the game (:func:`survival`), so that a counter weighs what it does for the
seat's survival (which depends on everyone's counters), an opponent losing a counter counts
for the seat, and a horse is bought only when it pays.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from commerce.cards import Card
from commerce.core import Action, ActionKind, Decision, DecisionKind, Event, Seat, Transition
from commerce.families.widow import rules as widow
from commerce.families.widow.heuristic import (
    best_target,
    hand_strength,
    hand_value,
    knock_threshold,
    widow_action,
)
from commerce.families.widow.observe import WidowObservation
from commerce.families.widow.options import WidowOptions
from commerce.families.widow.state import Phase, WidowState
from commerce.family import BatchPlayouts, SearchHooks, kernel_or_none, kernel_plays
from commerce.rules import Ruleset

_TOKENS = frozenset({"lowest_to_best", "lowest_to_pool"})
DEFAULT_ITERATIONS = 1000
"""The search bot's default budget in this family, on the compiled playouts
(:func:`kernel_playouts`, :func:`believed_states`): a decision costs little more than drawing
its states, and 1000 playouts answered in a median of about 20 ms, 95% of decisions within
90 ms (``commerce bench search``: see docs/bots.md)."""
POOL_ITERATIONS = 800
"""The default budget in Pool Commerce (:func:`pool_model`), whose searches weigh only a few
actions (:func:`candidates`), so that each drawn state serves fewer playouts: 800 answered
in about the time of the other games' 1000."""
PYTHON_ITERATIONS = 120
"""The default budget where the kernel does not play the ruleset (:func:`compiled`) and the
playouts are :func:`playout`'s: longer than the trading family's (several rounds of
exchanges), so fewer fit in 200 ms."""
PYTHON_POOL_ITERATIONS = 300
"""As :data:`PYTHON_ITERATIONS`, in Pool Commerce."""
CANDIDATE_EXCHANGES = 3
"""In Pool Commerce, the exchanges searched at a decision: those that make the hands the
heuristic values most (and the heuristic's own choice)."""
MAX_ACTIONS = 2000
"""A safety bound on the actions of one playout (a deal ends long before)."""


class View(NamedTuple):
    """The part of an observation the heuristic reads (a test checks it reads as
    :func:`commerce.families.widow.observe.observe` of the seat to act)."""

    ruleset: Ruleset
    seat: Seat
    hand: tuple[int, ...]
    widow: tuple[int, ...]
    decision: Decision | None
    in_deal: tuple[Seat, ...]
    final_turns: bool
    events: tuple[Event, ...]


def view(s: WidowState) -> View:
    """What the seat to act in *s* observes, as far as the heuristic reads it: during the
    dealer's blind exchange only the cards he has taken so far are his hand."""
    turn, deal = s.turn, s.deal
    actor = turn.actor
    hand = deal.hands[actor]
    if turn.phase is Phase.BLIND:
        hand = hand[:turn.swaps]
    return View(s.ruleset, actor, hand, deal.widow, widow.decision(s), deal.order,
                turn.in_final, deal.log)


def playout(state: WidowState, action: Action, seat: Seat,
            rng: random.Random) -> tuple[float, float]:
    """Play *action* in the drawn state, then heuristics to the deal's end, on the reference
    rules: (gain from now, won the deal)."""
    rules = state.ruleset
    tokens = WidowOptions.of(rules).token_flow in _TOKENS
    pooled = pool_model(rules)
    start = state.tokens[seat] if tokens else state.balances[seat]
    start_balance = state.balances[seat]
    start_value = pool_value(state, seat) if pooled else 0.0
    apply = widow.apply_unchecked
    t = apply(state, action)
    won = 0.0
    for _ in range(MAX_ACTIONS):
        for e in t.events:
            if e.kind == "showdown":  # a horse offer may come between it and the deal's end
                won = float(seat in e.get("winners"))
            elif e.kind == "deal_ended":
                if pooled:
                    return pool_value(t.state, seat) - start_value, won
                return _settle(t, seat, tokens, start, start_balance), won
        s = t.state
        phase = s.phase
        if phase is Phase.DEAL or phase is Phase.CARD:
            t = apply(s, widow.sample_chance(s, rng))
            continue
        legal = widow.legal_actions(s)
        if len(legal) == 1:
            t = apply(s, legal[0])
            continue
        t = apply(s, widow_action(view(s), legal, rng, 0.5))
    return 0.0, 0.0  # pragma: no cover - a deal always ends


def _settle(t: Transition, seat: Seat, tokens: bool, start: int, start_balance: int) -> float:
    """The seat's gain from the start of the playout to the state of transition *t*."""
    s: WidowState = t.state
    if not tokens:
        return float(s.balances[seat] - start)
    gain = float(s.tokens[seat] - start)
    if s.phase is Phase.OVER and WidowOptions.of(s.ruleset).token_flow == "lowest_to_pool":
        gain += float(s.balances[seat] - start_balance)
    return gain


def pool_model(rules: Ruleset) -> bool:
    """Whether the playout scores *rules* by :func:`pool_value`: counters go to the pool,
    and the game runs until one player is left (no cap on the deals, no prize per deal)."""
    opts = WidowOptions.of(rules)
    return (opts.token_flow == "lowest_to_pool" and not opts.deals
            and not opts.deal_prize)


def pool_value(state: WidowState, seat: Seat) -> float:
    """The stakes *seat* can expect to hold at the end of a Pool Commerce game from *state*:
    its balance now, plus the pool times its chance of surviving, plus its share of the horse
    money to come, as :func:`survival` models the rest of the game. Once the game is over,
    its balance."""
    session, turn = state.session, state.turn
    offered = seat in session.horse_offers or (turn.phase is Phase.HORSE and turn.actor == seat)
    return expected_stakes(state.ruleset, seat, session.balances[seat], session.tokens,
                           session.pool, session.horse_open, turn.phase is Phase.OVER, offered)


def expected_stakes(rules: Ruleset, seat: Seat, balance: int, tokens: Sequence[int],
                    pool: int, horse_open: bool, over: bool, offered: bool) -> float:
    """:func:`pool_value` from the parts of the state it reads: *seat*'s *balance*, every
    seat's *tokens*, the *pool*, whether a horse may still be bought, whether the session
    is *over* and whether *seat* is offered a horse (now or after this deal)."""
    opts = WidowOptions.of(rules)
    if over:
        return float(balance)
    mine = tokens[seat]
    if mine <= 0 and not offered:
        return float(balance)
    if mine <= 0:  # offered a horse: as if it buys one (the heuristic does)
        balance -= opts.horse_price
        mine = 1
        pool += opts.horse_price
        open_ = False
    else:
        open_ = horse_open and opts.buy_a_horse
    others = tuple(sorted(c for x, c in enumerate(tokens) if x != seat and c > 0))
    win, horses = survival(mine, others, open_, opts.horse_price)
    return float(balance + win * pool + horses)


@lru_cache(maxsize=100_000)
def survival(mine: int, others: tuple[int, ...], horse_open: bool,
             price: int) -> tuple[float, float]:
    """(chance to survive, expected horse stakes) of a seat with *mine* counters against
    others holding *others* (sorted, all above 0), in a model of the rest of Pool Commerce:
    each deal, one of the players still in, each as likely as the others, puts a counter in
    the pool; while *horse_open*, the first to run out buys a horse for *price* (one counter,
    the price into the pool). The expected horse stakes are the horse money the seat can
    expect to take with the pool, less what it pays for its own horse; the seat's expected
    result is then ``chance * pool + horse stakes``.

    >>> survival(1, (1,), False, 1)
    (0.5, 0.0)
    >>> survival(3, (), False, 1)
    (1.0, 0.0)
    >>> survival(1, (2,), False, 1)[0]
    0.25
    """
    if mine <= 0:
        return 0.0, 0.0
    if not others:
        return 1.0, 0.0
    m = 1 + len(others)
    win = 0.0
    horses = 0.0
    # The seat itself loses the counter.
    if mine == 1 and horse_open:
        w, h = survival(1, others, False, price)
        win += w
        horses += h + price * w - price
    else:
        w, h = survival(mine - 1, others, horse_open, price)
        win += w
        horses += h
    # Another player does (one of each count, times how many hold it).
    for i, c in enumerate(others):
        if i and others[i - 1] == c:
            continue
        k = others.count(c)
        rest = others[:i] + others[i + 1:]
        if c == 1 and horse_open:
            w, h = survival(mine, others, False, price)
            w, h = k * w, k * (h + price * w)
        elif c == 1:
            w, h = survival(mine, rest, False, price)
            w, h = k * w, k * h
        else:
            nxt = tuple(sorted((*rest, c - 1)))
            w, h = survival(mine, nxt, horse_open, price)
            w, h = k * w, k * h
        win += w
        horses += h
    return win / m, horses / m


def plausible(state: WidowState, seat: Seat) -> bool:
    """Whether every other seat that stood, knocked or passed on its turn (and whose hand has
    not changed since) holds a hand the heuristic would have stopped on: one no exchange with
    the widow of that moment improved, unless it was strong enough to knock on at once
    (:func:`judged` finds those moments)."""
    rules = state.ruleset
    hands = state.hands
    limit = min(WidowOptions.of(rules).max_exchange_per_turn, 3)
    threshold = knock_threshold(rules, len(state.deal.order) - 1, 0.5)
    for q, widow_then in judged(state.deal.log, state.widow, seat):
        hand = hands[q]
        if len(hand) != 3 or hand_strength(rules, hand) >= threshold:
            continue
        if best_target(rules, hand, hand, widow_then, limit, True) != tuple(hand):
            return False
    return True


def judged(log: tuple[Event, ...], widow: Sequence[Card],
           seat: Seat) -> list[tuple[Seat, tuple[Card, ...]]]:
    """The moments :func:`plausible` judges, newest first: each other seat's stand, knock or
    pass with its hand unchanged since and a widow then, with that widow (in card order).

    The widow of each moment is rebuilt from *widow* (now) by undoing the public moves of
    the deal's *log* since, newest first."""
    widow_now = set(widow)
    out: list[tuple[Seat, tuple[Card, ...]]] = []
    for e in reversed(log):
        kind = e.kind
        q = e.seat
        if kind == "exchanged":
            widow_now.discard(e.get("gave"))
            widow_now.add(e.get("took"))
        elif kind == "blind_exchanged":
            widow_now.difference_update(e.get("gave"))
            widow_now.update(e.get("took"))
        elif kind == "widow_card":
            widow_now.discard(e.get("card"))
        elif kind == "pounced":
            widow_now.add(e.get("card"))
        elif kind in ("stood", "knocked", "passed") and q is not None and q != seat:
            if widow_now and q not in _changed_since(log, e):
                out.append((q, tuple(sorted(widow_now))))
    return out


def _changed_since(log: tuple[Event, ...], mark: Event) -> set[Seat]:
    """Seats whose hands changed after the event *mark* (by an exchange or a pounce)."""
    out: set[Seat] = set()
    for e in reversed(log):
        if e is mark:
            break
        if e.kind in ("exchanged", "pounced") and e.seat is not None:
            out.add(e.seat)
    return out


MANY_EXCHANGES = 18
"""Outside Pool Commerce, a decision with more exchanges than this (a widow grown past six
cards) searches only the :data:`KEPT_EXCHANGES` that make the hands the heuristic values most
(and the heuristic's own choice): with every one of 84 exchanges searched, a decision took
1.3 s under the profiler (each exchange a single playout of the default 120), where an
ordinary turn has 12 to 18."""
KEPT_EXCHANGES = 12
"""The exchanges searched at a decision with more than :data:`MANY_EXCHANGES`."""


def candidates(obs: WidowObservation, legal: Sequence[Action]) -> list[int]:
    """The actions worth a playout: the heuristic's choice first (so that it wins ties),
    every action that is not an exchange, and the exchanges after which the hand is worth
    most to the heuristic: :data:`CANDIDATE_EXCHANGES` of them in Pool Commerce
    (:func:`pool_model`), elsewhere :data:`KEPT_EXCHANGES` where there are more than
    :data:`MANY_EXCHANGES`; otherwise every legal action."""
    everything = list(range(len(legal)))
    rules = obs.ruleset
    hand = tuple(obs.hand)
    swaps = [i for i, a in enumerate(legal) if a.kind is ActionKind.EXCHANGE
             and len(a.cards) == 2]
    kept = CANDIDATE_EXCHANGES if pool_model(rules) else KEPT_EXCHANGES
    if len(hand) != 3 or (len(swaps) <= CANDIDATE_EXCHANGES if pool_model(rules)
                          else len(swaps) <= MANY_EXCHANGES):
        return everything
    d = obs.decision
    more = not obs.final_turns and (d is None or d.kind is not DecisionKind.FINAL_TURN)

    def worth(i: int) -> float:
        give, take = legal[i].cards
        return hand_value(rules, tuple(take if c == give else c for c in hand), more)

    keep = set(sorted(swaps, key=lambda i: (-worth(i), i))[:kept])
    first = legal.index(widow_action(obs, legal, random.Random(0), 0.5))
    return [first, *(i for i in everything if i != first and (i in keep or i not in swaps))]


def _kernel(rules: Ruleset, players: int) -> Any:
    """The compiled kernel of *rules* at *players* seats, or None where it does not play them
    (built once per ruleset and table: :func:`commerce.family.kernel_or_none`)."""
    from commerce.families.widow.compiled import kernel

    return kernel_or_none(kernel, rules, players)


def compiled(rules: Ruleset) -> bool:
    """Whether the compiled kernel plays *rules* (then the search's playouts run there)."""
    from commerce.families.widow.kernel import check_supported

    return kernel_plays(check_supported, rules)


def kernel_playouts(obs: WidowObservation) -> BatchPlayouts[WidowState] | None:
    """The search bot's playouts on the compiled kernel (``SearchHooks.batch``): from a drawn
    state, each action and then the compiled heuristic in every seat to the end of the deal,
    scored as :func:`playout` scores them (tokens, stakes, or in Pool Commerce the change in
    :func:`pool_value`); the same rules and the same heuristic, tested equal step for step.
    None where the kernel does not play the ruleset (then :func:`playout`)."""
    rules = obs.ruleset
    kern = _kernel(rules, obs.players)
    if kern is None:
        return None
    from commerce.families.widow.compiled_playouts import Runner

    run = Runner(kern)
    token_flow = WidowOptions.of(rules).token_flow
    tokens = token_flow in _TOKENS
    pooled = pool_model(rules)
    pooled_over = token_flow == "lowest_to_pool"

    def playouts(state: WidowState, actions: Sequence[Action], seat: Seat,
                 key: int) -> list[tuple[float, float]]:
        ends = run(state, actions, seat, key)
        wins = ends.wins.tolist()
        if pooled:
            session, turn = state.session, state.turn
            offered = seat in session.horse_offers or (
                turn.phase is Phase.HORSE and turn.actor == seat)
            start = expected_stakes(rules, seat, session.balances[seat], session.tokens,
                                    session.pool, session.horse_open,
                                    turn.phase is Phase.OVER, offered)
            seen: dict[tuple[int, ...], float] = {}  # by the end (tokens, balance, pool ...)
            gains = []
            for row, balance, pool, open_, over in zip(
                    ends.tokens.tolist(), ends.balances[:, seat].tolist(), ends.pool.tolist(),
                    ends.horse_open.tolist(), ends.over.tolist(), strict=True):
                end = (*row, balance, pool, open_, over)
                value = seen.get(end)
                if value is None:
                    value = seen[end] = expected_stakes(rules, seat, balance, row, pool,
                                                        bool(open_), bool(over), False)
                gains.append(value - start)
        elif tokens:
            gain = ends.tokens[:, seat] - state.tokens[seat]
            if pooled_over:  # the pool shared out at the session's end
                gain = gain + ends.over * (ends.balances[:, seat] - state.balances[seat])
            gains = gain.tolist()
        else:
            gains = (ends.balances[:, seat] - state.balances[seat]).tolist()
        return [(float(g), w) for g, w in zip(gains, wins, strict=True)]

    return playouts


BELIEF_TRIES = 8
"""Draws tried per state for one that :func:`plausible` accepts, the last kept whatever it
holds (as the search bot tries them where the family has no sampler of its own)."""


def believed_states(obs: WidowObservation) -> Callable[[random.Random], WidowState] | None:
    """The search's drawer of states (``SearchHooks.sampler``) where the kernel plays the
    ruleset: states drawn from the seat's view (:func:`.sample.prepare`), each redrawn up to
    :data:`BELIEF_TRIES` times until :func:`plausible` accepts it, exactly as the search bot
    filters the plain draws, but with the moments judged read once per decision
    (:func:`judged`) and each hand judged by the compiled
    :func:`.compiled_playouts.improvable` (tested equal to :func:`plausible`). None (the
    plain draws and :func:`plausible`) where the kernel does not play the ruleset."""
    rules = obs.ruleset
    kern = _kernel(rules, obs.players)
    if kern is None:
        return None
    import numpy as np

    from commerce.families.widow.compiled_playouts import improvable
    from commerce.families.widow.sample import prepare

    draw = prepare(obs)
    seat = obs.seat
    assert seat is not None  # prepare refuses a spectator's view
    limit = min(WidowOptions.of(rules).max_exchange_per_turn, 3)
    rank3, strength, vtab = kern.rank3, kern.strength, kern.vtab
    read: list[Any] = [None, None, ()]  # the log and widow last read, and their judgements

    def fits(state: WidowState) -> bool:
        deal = state.deal
        if deal.log is not read[0] or deal.widow != read[1]:
            threshold = knock_threshold(rules, len(deal.order) - 1, 0.5)
            read[:] = [deal.log, deal.widow, tuple(
                (q, np.array(w, np.int64), len(w), threshold)
                for q, w in judged(deal.log, deal.widow, seat))]
        hands = deal.hands
        for q, takes, nt, threshold in read[2]:
            hand = hands[q]
            if len(hand) == 3 and improvable(hand[0], hand[1], hand[2], takes, nt, limit,
                                             threshold, rank3, strength, vtab):
                return False
        return True

    def believed(rng: random.Random) -> WidowState:
        state = draw(rng)
        tries = 1
        while tries < BELIEF_TRIES and not fits(state):
            state = draw(rng)
            tries += 1
        return state

    return believed


def _budget(rules: Ruleset) -> int | None:
    if not compiled(rules):
        return PYTHON_POOL_ITERATIONS if pool_model(rules) else PYTHON_ITERATIONS
    return POOL_ITERATIONS if pool_model(rules) else None


SEARCH: SearchHooks[WidowState, WidowObservation] = SearchHooks(
    playout=playout, belief=plausible, candidates=candidates, sampler=believed_states,
    batch=kernel_playouts, iterations=DEFAULT_ITERATIONS, iterations_by_rules=_budget,
)
"""The widow family's hooks for the search bot."""
