"""States consistent with a seat's observation, for the search bot (determinisation).

The cards a seat cannot place are the others' face-down cards and the stock: every card that
is neither its own, nor face up, nor with the pone. They are dealt at random to the face-down
places, the rest making the stock; a hand past the declaration of naturals (while the pairs
are divided, the drawing, the dealer's turn) that declared none is redrawn if it holds one
(what everyone saw rules it out). The count of hands won, which the rules never read, starts
again from nothing in a drawn state.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from commerce.cards import pack
from commerce.errors import CommerceError
from commerce.families.vingtun.observe import VingtUnObservation
from commerce.families.vingtun.state import (
    Hand,
    Phase,
    Round,
    Session,
    Status,
    Turn,
    VingtUnState,
    is_natural,
)

_DECLARED = frozenset({Phase.DIVIDE, Phase.PLAY, Phase.DRAW, Phase.DEALER})


def prepare(obs: VingtUnObservation) -> Callable[[random.Random], VingtUnState]:
    """Read *obs* once; return a function that draws a consistent state with an RNG.

    :raises CommerceError: for a spectator's view.
    """
    seat = obs.seat
    if seat is None:
        raise CommerceError("only a seat's own view can be determinised, not a spectator's")
    phase = Phase[obs.stage.upper()]
    known = {c for own in obs.hands for h in own for c in h.cards if c is not None}
    known |= set(obs.used)
    unknown = [c for c in pack(52) if c not in known]
    slots = [(x, i, j) for x, own in enumerate(obs.hands) for i, h in enumerate(own)
             for j, c in enumerate(h.cards) if c is None]
    checked = [(x, i) for x, own in enumerate(obs.hands) for i, h in enumerate(own)
               if phase in _DECLARED and x != seat and not h.divided
               and h.status in (Status.OPEN.value, Status.CONTENT.value)
               and sum(c is None for c in h.cards) == 2]
    session = Session(balances=obs.balances, pool=obs.pool, dealer=obs.dealer,
                      deal_number=obs.deal_number, hand_number=obs.hand_number,
                      renewals=obs.renewals, last_hand=obs.last_hand,
                      hands_won=(0,) * obs.players, hand_start=obs.balances)
    if phase is Phase.FIRST:
        to_deal = sum(1 for own in obs.hands if not own[0].cards)
    elif phase is Phase.SECOND:
        to_deal = sum(1 for own in obs.hands if len(own[0].cards) == 1)
    else:
        to_deal = 0

    def draw(rng: random.Random) -> VingtUnState:
        hands: tuple[tuple[Hand, ...], ...] = ()
        cards: list[int] = []
        for _ in range(50):
            cards = unknown[:]
            rng.shuffle(cards)
            placed = dict(zip(slots, cards, strict=False))
            hands = tuple(
                tuple(Hand(cards=tuple(placed[(x, i, j)] if c is None else c
                                       for j, c in enumerate(h.cards)),
                           up=h.up, stake=h.stake, status=Status(h.status), divided=h.divided)
                      for i, h in enumerate(own))
                for x, own in enumerate(obs.hands))
            if not any(is_natural(hands[x][i].cards) for x, i in checked):
                break
        stock = tuple(sorted(cards[len(slots):]))
        rnd = Round(hands=hands, stock=stock, used=obs.used, doubled=obs.doubled,
                    put_out=obs.put_out, to_deal=to_deal, log=())
        return VingtUnState(obs.ruleset, obs.players, session, rnd,
                            Turn(phase, obs.actor, obs.part))

    return draw
