"""The fast path's showdown and settlement, horses, the end of a deal and the outcome."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final

from commerce.core import (
    Event,
    Outcome,
    Seat,
    Transition,
)
from commerce.families.widow.fast.state import (
    _C_NONE,
    _I_ACTOR,
    _I_BALANCES,
    _I_DEAL_NUMBER,
    _I_DEALER,
    _I_DEALS_WON,
    _I_ENDED,
    _I_FRESH,
    _I_HORSE_OPEN,
    _I_HORSES,
    _I_LOG,
    _I_MOVED,
    _I_OFFER,
    _I_OFFERS,
    _I_OUT_IN,
    _I_PHASE,
    _I_POOL,
    _I_POOL_COUNTERS,
    _I_SWAPS,
    _I_TOKENS,
    _P_HORSE,
    _P_OVER,
    _TOKENS,
    WidowState,
    _new_tuple,
    _result,
    _start_deal,
    _step,
)
from commerce.hands import Evaluator, evaluator_for
from commerce.rules import Ruleset


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
