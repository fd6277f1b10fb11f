"""The showdown and the settlement: who wins the deal, who pays or loses a token, horses,
and the end of the session (docs/rulesets/ for each widow game, decisions #8, #9, #20, #25, #26).
"""

from __future__ import annotations

from functools import lru_cache

from commerce.core import Event, Outcome, Seat, Transition
from commerce.families.widow import start
from commerce.families.widow.options import WidowOptions
from commerce.families.widow.state import (
    TOKEN_FLOWS,
    Phase,
    WidowState,
    logged,
    seats_from,
    step_of,
    with_session,
    with_turn,
)
from commerce.hands import Category, Evaluator, evaluator_for
from commerce.rules import Ruleset


@lru_cache(maxsize=64)
def fallback_evaluator(rules: Ruleset) -> Evaluator:
    """The full 'peel' ranking under *rules*: in No Pair or Point, when no hand qualifies and
    ``no_qualifier_rule`` says so, the hands are compared as in the base game (decision #20)."""
    return evaluator_for(rules.with_options(ranking="peel", four_of_a_kind=False,
                                            pounce=False))


def losers(order: tuple[Seat, ...], ranks: list[int], rule: str) -> list[Seat]:
    """The seats that lose a token or counter: the lowest hand (CatsAtCards, decision #25);
    among tied lowest hands, as ``worst_tie_rule`` says (decision #9: all of them, none, or the
    latest in the order of play). Where every hand ties nobody is lowest."""
    low = min(ranks)
    if low == max(ranks):
        return []
    lowest = [x for x, r in zip(order, ranks, strict=True) if r == low]
    if len(lowest) == 1 or rule == "all_lose":
        return lowest
    if rule == "none":
        return []
    return [lowest[-1]]


def winners(s: WidowState, scoring: list[int], nobody: bool) -> list[Seat]:
    """The best hand wins; a complete tie goes to the eldest (Peel; decision #8), the dealer
    counting as eldest where ``dealer_as_eldest``, or pays every tied hand (``all_paid``)."""
    if nobody:
        return []
    order = s.deal.order
    best = max(scoring)
    top = [x for x, r in zip(order, scoring, strict=True) if r == best]
    rule = WidowOptions.of(s.ruleset).best_tie_rule
    if rule == "dealer_as_eldest" and top[-1] == order[-1]:
        top = [top[-1], *top[:-1]]
    return top if rule == "all_paid" else top[:1]


def showdown(s: WidowState, events: tuple[Event, ...], extra: tuple[Event, ...]) -> Transition:
    """Show the hands and settle (*events* are logged; *extra*, a round limit, comes first).

    With stakes, each other hand pays the winner one (Peel's Old Game, EB1911); with tokens,
    the lowest hand gives one to the best (CatsAtCards, decision #25) or, in Pool Commerce, puts a
    counter in the pool, and the winner takes the ``deal_prize`` from it (Peel:
    docs/rulesets/peel-old.md). A player out of tokens is out of the game (decision #26); the first
    may buy a horse.
    """
    rules = s.ruleset
    opts = WidowOptions.of(rules)
    ev = evaluator_for(rules)
    order = s.deal.order
    hands = s.deal.hands
    ranks = [ev.rank_of(hands[x]) for x in order]
    categories = [""] * s.players
    for x, r in zip(order, ranks, strict=True):
        categories[x] = ev.category_names[r]
    scoring = ranks
    nobody = False
    if opts.ranking == "no_pair_or_point" and all(
            ev.categories[r] is Category.NONE for r in ranks):
        if opts.no_qualifier_rule == "no_transfer":
            nobody = True
        else:
            scoring = [fallback_evaluator(rules).rank_of(hands[x]) for x in order]
    won = winners(s, scoring, nobody)
    session = s.session
    tokens = list(session.tokens)
    balances = list(session.balances)
    pool = session.pool
    pool_counters = session.pool_counters
    settlement: list[Event] = []
    flow = opts.token_flow
    if flow == "stake_from_each":
        for w in won:
            for x in order:
                if x not in won:
                    balances[x] -= 1
                    balances[w] += 1
                    settlement.append(Event("paid", x, (("to", w), ("amount", 1))))
    elif won:
        w = won[0]
        for loser in losers(order, scoring, opts.worst_tie_rule):
            tokens[loser] -= 1
            if flow == "lowest_to_best":
                tokens[w] += 1
                balances[loser] -= 1
                balances[w] += 1
                settlement.append(Event("token_moved", loser, (("to", w),)))
            else:
                pool_counters += 1
                settlement.append(Event("counter_to_pool", loser))
        prize = min(opts.deal_prize, pool) if flow == "lowest_to_pool" else 0
        if prize:
            pool -= prize
            balances[w] += prize
            settlement.append(Event("prize", w, (("amount", prize),)))
    newly: tuple[Seat, ...] = ()
    out_in = session.out_in
    if flow in TOKEN_FLOWS:
        newly = tuple(x for x in order if tokens[x] == 0)
        if newly:
            out = list(out_in)
            for x in newly:
                out[x] = session.deal_number
                settlement.append(Event("went_out", x, (("deal", session.deal_number),)))
            out_in = tuple(out)
    deals_won = list(session.deals_won)
    for w in won:
        deals_won[w] += 1
    shown = Event("showdown", None, (("hands", hands), ("categories", tuple(categories)),
                                     ("winners", tuple(won))))
    summary = (*extra, shown, *settlement)
    t = with_session(s, tokens=tuple(tokens), balances=tuple(balances), pool=pool,
                     pool_counters=pool_counters, deals_won=tuple(deals_won), out_in=out_in,
                     horse_open=session.horse_open and not newly)
    t = logged(with_turn(t, fresh=(), offer=None), *summary)
    offers = newly if newly and session.horse_open and opts.buy_a_horse else ()
    if offers:
        t = with_session(t, horse_offers=offers[1:])
        t = with_turn(t, phase=Phase.HORSE, actor=offers[0], swaps=0, moved=())
        return Transition(t, (*events, *summary))
    return end_of_deal(t, (*events, *summary), summary)


def horse(s: WidowState, seat: Seat, bought: bool) -> Transition:
    """The first player out of counters may buy a horse, once: one counter for
    ``horse_price`` stakes into the pool, and he is back in (Peel, Hoyle: decision #26)."""
    session = s.session
    if bought:
        price = WidowOptions.of(s.ruleset).horse_price
        tokens = list(session.tokens)
        tokens[seat] += 1
        balances = list(session.balances)
        balances[seat] -= price
        out_in = list(session.out_in)
        out_in[seat] = 0
        ev = Event("horse_bought", seat, (("price", price),))
        t = with_session(s, tokens=tuple(tokens), balances=tuple(balances),
                         out_in=tuple(out_in), pool=session.pool + price,
                         horses=session.horses + 1)
    else:
        ev = Event("horse_declined", seat)
        t = s
    t = logged(t, ev)
    if session.horse_offers:
        t = with_session(t, horse_offers=session.horse_offers[1:])
        return Transition(with_turn(t, actor=session.horse_offers[0]), (ev,))
    return end_of_deal(t, (ev,), None)


def _since_showdown(log: tuple[Event, ...]) -> tuple[Event, ...]:
    """The events of the log from the showdown (and a round limit just before it) on."""
    i = len(log) - 1
    while i > 0 and log[i].kind != "showdown":
        i -= 1
    if i > 0 and log[i - 1].kind == "round_limit":
        i -= 1
    return log[i:]


def end_of_deal(s: WidowState, events: tuple[Event, ...],
                since: tuple[Event, ...] | None) -> Transition:
    """After the settlement: the session ends when one player is left in it (CatsAtCards,
    docs/rulesets/widow.md) or after its number of deals (``deals``; Peel: until every player has
    dealt ``deals_each`` times), else the next player still in deals (*events* are logged;
    *since*: the events from the showdown on, None to find them in the log).

    At the end of Pool Commerce the survivors with the most counters share the pool, the
    eldest of the last dealer taking any odd stake (Peel's Old Game, docs/rulesets/peel-old.md).
    """
    rules = s.ruleset
    opts = WidowOptions.of(rules)
    n = s.players
    session = s.session
    flow = opts.token_flow
    number = session.deal_number
    length = opts.deals or (n * opts.deals_each if flow == "stake_from_each" else 0)
    ended = ""
    if flow in TOKEN_FLOWS and session.out_in.count(0) <= 1:
        ended = "one player is left in the game"
    elif length and number >= length:
        ended = f"{number} deals have been played"
    done = Event("deal_ended", None, (("deal", number), ("last", bool(ended))))
    if not ended:
        shown = _since_showdown(s.deal.log) if since is None else since
        last = tuple(e for e in (*shown, done) if e.visible_to is None)
        step = step_of(rules)
        dealer = session.dealer
        for i in range(1, n + 1):
            dealer = (session.dealer + step * i) % n
            if session.out_in[dealer] == 0:
                break
        nxt = start.start_deal(s, dealer, last)
        return Transition(nxt, (*events, done, *nxt.deal.log))
    summary: list[Event] = [done]
    balances = list(session.balances)
    pool = session.pool
    if flow == "lowest_to_pool" and pool:
        alive = [x for x in range(n) if session.out_in[x] == 0]
        most = max(session.tokens[x] for x in alive)
        takers = [x for x in seats_from(session.dealer, rules, n)
                  if x in alive and session.tokens[x] == most]
        share, rest = divmod(pool, len(takers))
        for i, x in enumerate(takers):
            amount = share + (rest if i == 0 else 0)
            balances[x] += amount
            summary.append(Event("pool_taken", x, (("amount", amount),)))
        pool = 0
    t = with_session(s, balances=tuple(balances), pool=pool, ended=ended)
    t = logged(with_turn(t, phase=Phase.OVER), *summary)
    return Transition(t, (*events, *summary))


def outcome(s: WidowState) -> Outcome | None:
    """Each seat's net tokens, counters' stakes or stakes once the session is over."""
    if s.turn.phase is not Phase.OVER:
        return None
    session = s.session
    flow = WidowOptions.of(s.ruleset).token_flow
    details: dict[str, object] = {"deals": session.deal_number, "deals_won": session.deals_won}
    if flow in TOKEN_FLOWS:
        details["tokens"] = session.tokens
        details["out_in"] = tuple(None if d == 0 else d for d in session.out_in)
    if flow == "lowest_to_pool":
        details["pool_counters"] = session.pool_counters
        details["horses"] = session.horses
    return Outcome(payoffs=session.balances, reason=session.ended, details=details)
