"""The deal: the antes and three cards to each player.

Chance enters only here, as ``deal`` actions: each names the next card taken from the unseen
part of the stock (the cards in the pack nobody has seen). Traded-in cards go under them
(:attr:`Deal.bottom`) in a known order.
"""

from __future__ import annotations

import random
from itertools import filterfalse

from commerce.cards import Card, pack, sample_cards
from commerce.core import Action, ActionKind, Event, Seat, Transition, card_action, evolve
from commerce.families.trading.options import TradingOptions
from commerce.families.trading.state import Deal, Phase, Session, TradingState, Turn
from commerce.rules import Ruleset


def new_game(ruleset: Ruleset, players: int, dealer: Seat) -> TradingState:
    """The session before the first deal: antes paid, nothing dealt.

    Every player starts even; *dealer* deals first (Peel: the first knave turned up deals,
    "as in Nap"; the driver chooses the seat).
    """
    session = Session(balances=(0,) * players, deals_won=(0,) * players, dealer=dealer,
                      deal_number=1, last_deal=())
    return start_deal(ruleset, players, session)


def start_deal(rules: Ruleset, players: int, session: Session) -> TradingState:
    """A deal begins: everyone antes into an empty pool, nothing is dealt yet.

    Peel: every player puts one stake in the pool, the dealer two (docs/rulesets/peel.md;
    options
    ``ante`` and ``dealer_ante``; Hoyle: one counter each; docs/rulesets/peel.md, decision
    #19).
    """
    opts = TradingOptions.of(rules)
    dealer = session.dealer
    balances = [b - opts.ante for b in session.balances]
    balances[dealer] -= opts.dealer_ante - opts.ante
    pool = opts.ante * (players - 1) + opts.dealer_ante
    started = Event("deal_started", dealer, (("deal", session.deal_number), ("pool", pool)))
    return TradingState(
        ruleset=rules,
        players=players,
        session=evolve(session, balances=tuple(balances)),
        deal=Deal(hands=((),) * players, unseen=pack(rules.pack), bottom=(), pool=pool,
                  to_deal=3 * players, log=(started,)),
        current=Turn(phase=Phase.DEAL, actor=dealer, seat=dealer, taken=0, offered=None),
    )


def receiver(s: TradingState, k: int) -> Seat:
    """Who gets the *k*-th card (from 0) of the deal: one at a time round the table from the
    dealer's left (Peel, docs/rulesets/peel.md; to the right under ``direction="right"``,
    Hoyle)."""
    return (s.dealer + s.step * (1 + k)) % s.players


def deal_cards(s: TradingState, cards: tuple[Card, ...]) -> Transition:
    """Chance deals *cards* in order, each to the next player; once everyone holds three, the
    eldest hand (the dealer's left) begins (Peel; docs/rulesets/peel.md).

    Each player is told his own cards (a ``dealt`` event each player sees alone).
    """
    got: dict[Seat, list[Card]] = {}
    seat, step, players = receiver(s, 3 * s.players - s.deal.to_deal), s.step, s.players
    for card in cards:
        got.setdefault(seat, []).append(card)
        seat = (seat + step) % players  # the next card to the next player
    hands = list(s.hands)
    for seat, own in got.items():
        hands[seat] = (*hands[seat], *own)
    events = tuple(Event("dealt", seat, (("cards", tuple(own)),), frozenset({seat}))
                   for seat, own in got.items())
    to_deal = s.deal.to_deal - len(cards)
    deal = evolve(s.deal, hands=tuple(hands), unseen=without(s.unseen, cards),
                  to_deal=to_deal, log=s.log + events)
    if to_deal:
        return Transition(evolve(s, deal=deal), events)
    eldest = receiver(s, 0)
    current = Turn(phase=Phase.TURN, actor=eldest, seat=eldest, taken=1, offered=None)
    return Transition(evolve(s, deal=deal, current=current), events)


def sample_chance(s: TradingState, rng: random.Random) -> Action:
    """Chance's next action drawn with *rng*: every card still to be dealt, or the drawn card.

    A multi-card ``deal`` is the same as dealing its cards one at a time, in order.
    """
    if s.phase is Phase.DEAL:
        return Action(ActionKind.DEAL, tuple(sample_cards(rng, s.unseen, s.deal.to_deal)))
    return card_action(ActionKind.DEAL, rng.choice(s.unseen))


def without(unseen: tuple[Card, ...], cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """The unseen cards less *cards*, still in card order."""
    return tuple(filterfalse(set(cards).__contains__, unseen))
