"""The fast path's showdown and settlement, then the next deal or the end of the session."""

from __future__ import annotations

from functools import lru_cache

from commerce.core import (
    Event,
    Outcome,
    Seat,
    Transition,
)
from commerce.families.trading.fast.state import (
    _BALANCES,
    _DEALS_WON,
    _LOG,
    _P_OVER,
    _PHASE,
    _POOL,
    FastState,
    _new_tuple,
    _start_deal,
)
from commerce.hands import evaluator_for


@lru_cache(maxsize=1024)
def _priority(dealer: Seat, n: int, step: int, dealer_first: bool) -> tuple[Seat, ...]:
    """Seats in priority order for complete ties: the eldest first, the dealer last (or
    first, when the dealer counts as eldest)."""
    seats = [(dealer + step * i) % n for i in range(1, n + 1)]
    if dealer_first:
        seats.insert(0, seats.pop())
    return tuple(seats)


def _showdown(s: FastState, stander: Seat | None, events: tuple[Event, ...]) -> Transition:
    rules = s.ruleset
    ev = evaluator_for(rules)
    table = ev.rank_table
    hands = s.hands
    ranks = [table[a][b][c] for a, b, c in hands]
    n = s.players
    dealer = s.dealer
    step = s.step
    tie_rule = rules.best_tie_rule
    order = _priority(dealer, n, step, tie_rule == "dealer_as_eldest")
    # A seat beats another with a higher rank, or an equal rank and earlier priority:
    # a stable sort by rank of the priority order.
    ranking = sorted(order, key=ranks.__getitem__, reverse=True)
    best_rank = ranks[ranking[0]]
    if tie_rule == "split_pool":
        winners = [seat for seat in ranking if ranks[seat] == best_rank]
    else:
        winners = ranking[:1]
    balances = list(s.balances)
    payments: list[Event] = []
    share, rest = divmod(s.pool, len(winners))
    for i, w in enumerate(winners):
        amount = share + (rest if i == 0 else 0)
        balances[w] += amount
        payments.append(_new_tuple(Event, ("paid", None, (("to", w), ("amount", amount),
                                                        ("why", "pool")), None)))
    fee = rules.dealer_pays_winner
    if fee:
        for w in winners:
            if w != dealer:
                balances[dealer] -= fee
                balances[w] += fee
                payments.append(Event("paid", dealer, (("to", w), ("amount", fee),
                                                      ("why", "from the dealer"))))
    if stander is not None and stander not in winners and rules.stander_penalty != "none":
        better = [winners[0]] if rules.stander_penalty == "best_hand_only" else (
            ranking[: ranking.index(stander)])
        if not rules.stander_pays_equal_hands:  # Peel: only the *better* hands are paid
            better = [seat for seat in better if ranks[seat] > ranks[stander]]
        for seat in better:
            balances[stander] -= 1
            balances[seat] += 1
            payments.append(Event("paid", stander, (("to", seat), ("amount", 1),
                                                   ("why", "beaten stander"))))
    names = ev.category_names
    shown = _new_tuple(Event, (
        "showdown",
        stander,
        (("hands", hands), ("categories", tuple(map(names.__getitem__, ranks))),
         ("winners", tuple(winners))),
        None,
    ))
    deals_won = list(s.deals_won)
    for w in winners:
        deals_won[w] += 1
    deal_number = s.deal_number
    last = deal_number >= n * rules.deals_each
    ended = _new_tuple(Event, ("deal_ended", None, (("deal", deal_number), ("last", last)), None))
    # Every event of the settlement is public: it is what the next deal's view shows.
    summary = (*events, shown, *payments, ended)
    if last:
        f = list(s)
        f[_BALANCES] = tuple(balances)
        f[_POOL] = 0
        f[_DEALS_WON] = tuple(deals_won)
        f[_LOG] = s.log + summary
        f[_PHASE] = _P_OVER
        return _new_tuple(Transition, (_new_tuple(FastState, f), summary))
    # The next deal begins at once: the deal passes on and everyone antes.
    nxt = _start_deal(rules, n, balances, tuple(deals_won), (dealer + step) % n,
                      deal_number + 1, summary)
    return _new_tuple(Transition, (nxt, (*summary, *nxt.log)))


def outcome(s: FastState) -> Outcome | None:
    """Each seat's net stakes once the session is over."""
    if s.phase is not _P_OVER:
        return None
    return Outcome(
        payoffs=s.balances,
        reason=f"every player has dealt {s.ruleset.deals_each} time(s)",
        details={"deals_won": s.deals_won, "deals": s.deal_number},
    )
