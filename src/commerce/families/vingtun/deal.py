"""The first dealer, the start of a deal and of a hand, and the stock.

Chance enters only as ``deal`` actions, each naming one card of the unseen stock (several
named in one action are dealt one after the other). Peel's pack is not gathered after a hand:
the dealer deals on through it, the pone keeps the used cards, and when one card is left the
dealer hands it unexposed to the pone, who shuffles it with the used cards for the dealer to
go on (:func:`renew`).
"""

from __future__ import annotations

from dataclasses import replace

from commerce.cards import Card, pack, rank_of
from commerce.core import Event, Seat, Transition
from commerce.families.vingtun.options import VingtUnOptions
from commerce.families.vingtun.state import Hand, Phase, Round, Session, Turn, VingtUnState
from commerce.rules import Ruleset


def new_game(ruleset: Ruleset, players: int, dealer: Seat) -> VingtUnState:
    """The session before the first deal: everyone even, the pack whole.

    Peel: "cards are dealt face up as for Nap, but the first ace decides": *dealer* is the
    seat that turns the cards up, beginning at his left (``first_dealer="first_ace"``); with
    ``first_dealer="given"`` *dealer* deals first.
    """
    session = Session(balances=(0,) * players, pool=0, dealer=dealer, deal_number=0,
                      hand_number=0, renewals=0, last_hand=(), hands_won=(0,) * players,
                      hand_start=(0,) * players)
    step = 1 if ruleset.direction == "left" else -1
    if VingtUnOptions.of(ruleset).first_dealer == "given":
        state: VingtUnState = start_deal(ruleset, players, session, dealer, ()).state
        return state
    rnd = Round(hands=((),) * players, stock=pack(52), used=(), doubled=False, put_out=None,
                to_deal=0, log=())
    return VingtUnState(ruleset, players, session, rnd,
                        Turn(Phase.CHOOSE, (dealer + step) % players, 0))


def turn_up(s: VingtUnState, card: Card) -> Transition:
    """A card turned face up to the next player; the first ace deals (Peel, "as for Nap")."""
    seat = s.current.actor
    events: tuple[Event, ...] = (Event("turned", seat, (("card", card),)),)
    if rank_of(card) == 14:
        events += (Event("first_dealer", seat),)
        return start_deal(s.ruleset, s.players, s.session, seat, events)
    rnd = replace(s.round, stock=tuple(c for c in s.round.stock if c != card),
                  used=tuple(sorted((*s.round.used, card))), log=s.round.log + events)
    return Transition(replace(s, round=rnd,
                              current=Turn(Phase.CHOOSE, (seat + s.step) % s.players, 0)),
                      events)


def start_deal(rules: Ruleset, players: int, session: Session, dealer: Seat,
               events: tuple[Event, ...]) -> Transition:
    """A dealer's turn begins with the whole pack shuffled; pool feed (a): each player puts
    ``pool_ante`` counters in the pool (Peel, "Pool")."""
    opts = VingtUnOptions.of(rules)
    balances = tuple(b - opts.pool_ante for b in session.balances)
    session = replace(session, balances=balances, pool=session.pool + opts.pool_ante * players,
                      dealer=dealer, deal_number=session.deal_number + 1, hand_number=0,
                      renewals=0)
    started = Event("deal_started", dealer, (("deal", session.deal_number),
                                              ("pool", session.pool)))
    return start_hand(rules, players, session, pack(52), (), (*events, started))


def start_hand(rules: Ruleset, players: int, session: Session, stock: tuple[Card, ...],
               used: tuple[Card, ...], events: tuple[Event, ...]) -> Transition:
    """A hand begins: the first card to each player, face down, from the dealer's left
    (Peel, "A hand" step 1); the stock goes on from where the last hand left it."""
    session = replace(session, hand_number=session.hand_number + 1,
                      hand_start=session.balances)
    started = Event("hand_started", session.dealer, (("hand", session.hand_number),))
    step = 1 if rules.direction == "left" else -1
    rnd = Round(hands=((Hand(),),) * players, stock=stock, used=used, doubled=False,
                put_out=None, to_deal=players, log=(started,))
    state = VingtUnState(rules, players, session, rnd,
                         Turn(Phase.FIRST, (session.dealer + step) % players, 0))
    return Transition(state, (*events, started))


def renewal_due(s: VingtUnState) -> bool:
    """Whether the next card is the stock's last with used cards to shuffle: the dealer never
    deals it (Peel, "A hand" step 7)."""
    return len(s.round.stock) == 1 and bool(s.round.used)


def renew(s: VingtUnState, card: Card) -> Transition:
    """The last card handed unexposed to the pone, shuffled with the used cards: the new stock
    (Peel: "he hands it to the pone, who shuffles it with the used cards")."""
    stock = tuple(sorted((*s.round.used, card)))
    event = Event("renewed", s.pone, (("count", len(stock)),))
    rnd = replace(s.round, stock=stock, used=(), log=s.round.log + (event,))
    session = replace(s.session, renewals=s.session.renewals + 1)
    return Transition(replace(s, round=rnd, session=session), (event,))


def take(s: VingtUnState, card: Card) -> tuple[Round, tuple[Event, ...]]:
    """The stock without *card*; if that empties it, the used cards become the stock."""
    stock = tuple(c for c in s.round.stock if c != card)
    if stock or not s.round.used:
        return replace(s.round, stock=stock), ()
    event = Event("renewed", s.pone, (("count", len(s.round.used)),))
    return replace(s.round, stock=s.round.used, used=()), (event,)


def refill(s: VingtUnState) -> tuple[VingtUnState, tuple[Event, ...]]:
    """Before a card is asked for: an empty stock is made of the used cards (the last card
    was dealt when the pone held none, and cards came to him since)."""
    if s.round.stock or not s.round.used:
        return s, ()
    event = Event("renewed", s.pone, (("count", len(s.round.used)),))
    rnd = replace(s.round, stock=s.round.used, used=(), log=s.round.log + (event,))
    return replace(s, round=rnd), (event,)


def available(s: VingtUnState) -> int:
    """Cards the dealer can still give: the stock and the used cards."""
    return len(s.round.stock) + len(s.round.used)
