"""A game of Cox's Commerce: the session, and each new hand (Cox, "Start of each hand")."""

from __future__ import annotations

from commerce.core import Event, Seat, evolve
from commerce.families.cox.cards import pack
from commerce.families.cox.state import CoxState, Deal, Phase, Session, Turn
from commerce.rules import Ruleset


def new_game(ruleset: Ruleset, players: int, dealer: Seat) -> CoxState:
    """The game before the first hand: the Directors are to be dealt by *dealer*.

    Cox: two, three or four players play ``hands_per_game`` completed hands (four), the
    highest total winning (docs/rulesets/cox.md, "Players"; decision #40).
    """
    session = Session(director_dealer=dealer, hand_number=0, totals=(0,) * players,
                      hand_scores=(), last_hand=())
    state = CoxState(ruleset=ruleset, players=players, session=session,
                     deal=_fresh_deal(players), turn=Turn(phase=Phase.DIRECTORS, player=dealer,
                                                          actor=dealer))
    return new_hand(state, (), [])


def _fresh_deal(players: int) -> Deal:
    return Deal(directors=(), wholesaler=None, retailer=None, base_numbers=(None,) * players,
                unseen=pack(), bases=((),) * 4, current_base=0, racks=((),) * players,
                laid=((),) * players, greenbacks=((),) * players, discards=(), log=())


def new_hand(s: CoxState, last_hand: tuple[Event, ...], out: list[Event]) -> CoxState:
    """The next hand: the whole pack is gathered and the Directors are to be dealt again.

    Cox, "Start of each hand" 1-2: the cards are shuffled and the Directors cards dealt face
    up. *last_hand* is what every seat saw of the previous hand's end.
    """
    number = s.session.hand_number + 1
    started = Event("hand_started", None, (("hand", number),))
    out.append(started)
    dealer = s.session.director_dealer
    return evolve(
        s,
        session=evolve(s.session, hand_number=number, last_hand=last_hand),
        deal=evolve(_fresh_deal(s.players), log=(started,)),
        turn=Turn(phase=Phase.DIRECTORS, player=dealer, actor=dealer),
    )
