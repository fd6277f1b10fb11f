"""The showdown and the settlement of a deal, then the next deal or the end of the session.

Peel (docs/rulesets/peel.md): "the best hand takes the whole pool and one stake
from the dealer"; a stander beaten by anyone "pays an additional stake to the holders of the
better hands". The session ends "just before the first dealer would deal again" (Peel; option
``deals_each``).
"""

from __future__ import annotations

from commerce.core import Event, Outcome, Seat, Transition, evolve
from commerce.families.trading.deal import start_deal
from commerce.families.trading.options import TradingOptions
from commerce.families.trading.state import Phase, TradingState
from commerce.hands import evaluator_for


def priority(s: TradingState) -> tuple[Seat, ...]:
    """The seats in the order that settles a complete tie for best hand: the eldest first and
    the dealer last (house rule, decision #8), or the dealer first where he "counts as eldest"
    (Hoyle: ``best_tie_rule="dealer_as_eldest"``)."""
    seats = [(s.dealer + s.step * i) % s.players for i in range(1, s.players + 1)]
    if TradingOptions.of(s.ruleset).best_tie_rule == "dealer_as_eldest":
        seats.insert(0, seats.pop())
    return tuple(seats)


def ranking(s: TradingState) -> tuple[list[Seat], list[int]]:
    """Every seat from the best hand down (equal hands in :func:`priority` order), and each
    seat's hand strength (:mod:`commerce.hands`: Peel's combinations and tie rules)."""
    rank_of = evaluator_for(s.ruleset).rank_of
    ranks = [rank_of(hand) for hand in s.hands]
    return sorted(priority(s), key=lambda seat: ranks[seat], reverse=True), ranks


def winners(s: TradingState, order: list[Seat], ranks: list[int]) -> list[Seat]:
    """Who takes the pool: the best hand; with ``best_tie_rule="split_pool"`` every hand equal
    to it (decision #8)."""
    if TradingOptions.of(s.ruleset).best_tie_rule != "split_pool":
        return order[:1]
    return [seat for seat in order if ranks[seat] == ranks[order[0]]]


def pool_payments(s: TradingState, won: list[Seat]) -> list[Event]:
    """The pool to the winner ("the best hand takes the whole pool", Peel); split, the first
    winner in priority order takes the odd stakes."""
    share, rest = divmod(s.pool, len(won))
    return [Event("paid", None, (("to", w), ("amount", share + (rest if i == 0 else 0)),
                                 ("why", "pool")))
            for i, w in enumerate(won)]


def dealer_payments(s: TradingState, won: list[Seat]) -> list[Event]:
    """The dealer pays each winner other than himself ``dealer_pays_winner`` stakes (Peel:
    "one stake from the dealer"; Hoyle: if the banker does not win; decision #15)."""
    fee = TradingOptions.of(s.ruleset).dealer_pays_winner
    if not fee:
        return []
    return [Event("paid", s.dealer, (("to", w), ("amount", fee), ("why", "from the dealer")))
            for w in won if w != s.dealer]


def stander_payments(s: TradingState, stander: Seat | None, won: list[Seat],
                     order: list[Seat], ranks: list[int]) -> list[Event]:
    """A beaten stander pays one stake "to the holders of the better hands" (Peel;
    docs/rulesets/peel.md; decision #14): to each better hand, or to the best hand only
    (``stander_penalty``). A hand only equal to his is not better, even where the tie rule places it
    ahead of him (unless ``stander_pays_equal_hands``, the behaviour of version 1 of the
    presets)."""
    rules = s.ruleset
    opts = TradingOptions.of(rules)
    if stander is None or stander in won or opts.stander_penalty == "none":
        return []
    if opts.stander_penalty == "best_hand_only":
        paid = won[:1]
    else:
        paid = order[:order.index(stander)]
    if not opts.stander_pays_equal_hands:
        paid = [seat for seat in paid if ranks[seat] > ranks[stander]]
    return [Event("paid", stander, (("to", seat), ("amount", 1), ("why", "beaten stander")))
            for seat in paid]


def showdown(s: TradingState, stander: Seat | None, events: tuple[Event, ...]) -> Transition:
    """Every hand is shown and the deal is settled (Peel, docs/rulesets/peel.md); then the
    deal passes to the next player and everyone antes again, or the session ends.

    *events* are what led to the showdown (a stand, the round limit). Every event of the
    settlement is public: it is what the next deal's view shows as the last deal.
    """
    order, ranks = ranking(s)
    won = winners(s, order, ranks)
    payments = [*pool_payments(s, won), *dealer_payments(s, won),
                *stander_payments(s, stander, won, order, ranks)]
    balances = list(s.balances)
    for paid in payments:
        balances[paid.get("to")] += paid.get("amount")
        if paid.seat is not None:
            balances[paid.seat] -= paid.get("amount")
    deals_won = list(s.deals_won)
    for w in won:
        deals_won[w] += 1
    names = evaluator_for(s.ruleset).category_names
    shown = Event("showdown", stander, (("hands", s.hands),
                                        ("categories", tuple(names[r] for r in ranks)),
                                        ("winners", tuple(won))))
    number = s.deal_number
    last = number >= s.players * TradingOptions.of(s.ruleset).deals_each
    ended = Event("deal_ended", None, (("deal", number), ("last", last)))
    summary = (*events, shown, *payments, ended)
    session = evolve(s.session, balances=tuple(balances), deals_won=tuple(deals_won))
    if last:
        return Transition(evolve(
            s, session=session, deal=evolve(s.deal, pool=0, log=s.log + summary),
            current=evolve(s.current, phase=Phase.OVER),
        ), summary)
    nxt = start_deal(s.ruleset, s.players, evolve(
        session, dealer=(s.dealer + s.step) % s.players, deal_number=number + 1,
        last_deal=summary))
    return Transition(nxt, (*summary, *nxt.log))


def outcome(s: TradingState) -> Outcome | None:
    """Each seat's net stakes once the session is over."""
    if s.phase is not Phase.OVER:
        return None
    return Outcome(
        payoffs=s.balances,
        reason=f"every player has dealt {TradingOptions.of(s.ruleset).deals_each} time(s)",
        details={"deals_won": s.deals_won, "deals": s.deal_number},
    )
