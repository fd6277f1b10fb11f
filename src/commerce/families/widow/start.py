"""The start of the session and of every deal: who holds what before a card is dealt
(docs/rulesets/ for each widow game, decisions #25, #26)."""

from __future__ import annotations

from commerce.cards import pack
from commerce.core import Event, Seat, evolve
from commerce.families.widow.options import WidowOptions
from commerce.families.widow.state import (
    TOKEN_FLOWS,
    Deal,
    Phase,
    Resume,
    Session,
    Turn,
    WidowState,
    seats_from,
)
from commerce.rules import Ruleset


def new_game(ruleset: Ruleset, players: int, dealer: Seat) -> WidowState:
    """The session before the first deal.

    Every seat starts with ``starting_tokens`` tokens where tokens move (CatsAtCards: three
    "lives", docs/rulesets/widow.md and decision #25); in Pool Commerce each pays ``pool_entry``
    into the pool first (Peel's Old Game, docs/rulesets/peel-old.md).
    """
    opts = WidowOptions.of(ruleset)
    pooled = opts.token_flow == "lowest_to_pool"
    entry = opts.pool_entry if pooled else 0
    tracked = opts.token_flow in TOKEN_FLOWS
    session = Session(
        tokens=(opts.starting_tokens if tracked else 0,) * players,
        balances=(-entry,) * players,
        out_in=(0,) * players,
        deals_won=(0,) * players,
        pool=entry * players,
        pool_counters=0,
        horses=0,
        horse_open=True,
        horse_offers=(),
        dealer=dealer,
        deal_number=0,
        last_deal=(),
        ended="",
    )
    empty = Deal(order=(), hands=(), widow=(), stock=(), to_deal=0, locked=frozenset(),
                 passed=frozenset(), stood=frozenset(), pounced=frozenset(), knocker=None,
                 log=())
    turn = Turn(phase=Phase.DEAL, actor=dealer, seat=dealer, pos=-1, round=0, final=(),
                in_final=False, swaps=0, moved=(), resume=Resume.FIRST, fresh=(), offer=None)
    return start_deal(WidowState(ruleset, players, session, empty, turn), dealer, ())


def start_deal(s: WidowState, dealer: Seat, last_deal: tuple[Event, ...]) -> WidowState:
    """A new deal by *dealer*, before any card is dealt.

    The players still in the game are dealt in, the eldest (next to the dealer in the
    direction of play) first and the dealer last; a player who is out gets no cards
    (CatsAtCards, Peel: decision #26). The whole pack is the stock.
    """
    rules = s.ruleset
    n = s.players
    order = tuple(x for x in seats_from(dealer, rules, n) if not s.session.out_in[x])
    number = s.session.deal_number + 1
    started = Event("deal_started", dealer, (("deal", number), ("order", order)))
    session = s.session
    return WidowState(
        ruleset=rules,
        players=n,
        session=evolve(session, dealer=dealer, deal_number=number, last_deal=last_deal),
        deal=Deal(order=order, hands=((),) * n, widow=(), stock=pack(rules.pack),
                  to_deal=3 * len(order) + WidowOptions.of(rules).widow_size, locked=frozenset(),
                  passed=frozenset(), stood=frozenset(), pounced=frozenset(), knocker=None,
                  log=(started,)),
        turn=Turn(phase=Phase.DEAL, actor=dealer, seat=dealer, pos=-1, round=0, final=(),
                  in_final=False, swaps=0, moved=(), resume=Resume.FIRST, fresh=(),
                  offer=None),
    )
