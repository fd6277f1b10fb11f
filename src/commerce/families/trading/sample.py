"""Determinisation for the trading family: states consistent with one seat's observation.

What the seat knows is read from the events it was shown this deal:

- its own hand, and the cards it traded in (they lie in the stock's bottom, in order, until a
  trader draws them back once the unseen cards are used up: then that trader holds them);
- in a barter it made or answered, the card it gave and the card it got: the other player
  holds the card it gave, until that player gives away a card the seat did not see (a trade
  or another barter), after which the card is somewhere in a hand or the bottom;
- how many cards were drawn from the unseen stock and how many lie at the bottom.

Cards the seat never saw are dealt uniformly among the other hands' free places, the unknown
places of the bottom and the unseen stock; cards it saw but lost track of go uniformly to the
hands and the bottom (never to the unseen stock, which only holds cards nobody has seen).
The balances, pool, dealer and events come from the observation; ``deals_won`` (not part of
a view) is left at zero.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from commerce.cards import Card, pack
from commerce.core import DecisionKind
from commerce.errors import CommerceError
from commerce.families.trading.observe import TradingObservation
from commerce.families.trading.state import Deal, Phase, Session, TradingState, Turn

_PHASE_OF: dict[DecisionKind, Phase] = {
    DecisionKind.TURN: Phase.TURN,
    DecisionKind.AFTER_TRADE: Phase.AFTER_TRADE,
    DecisionKind.BARTER_REPLY: Phase.BARTER_REPLY,
}


def prepare(obs: TradingObservation) -> Callable[[random.Random], TradingState]:
    """Read *obs* once; return a function that draws a consistent state with an RNG.

    :raises CommerceError: for a spectator's view.
    """
    seat = obs.seat
    if seat is None:
        raise CommerceError("only a seat's own view can be determinised, not a spectator's")
    rules = obs.ruleset
    n = obs.players
    full = pack(rules.pack)
    step = 1 if rules.direction == "left" else -1
    events = obs.events
    d = obs.decision

    # -- the phase, who acts, and how many cards each hand holds --------------------------
    sizes = [3] * n
    to_deal = 0
    if obs.over or d is None:
        phase = Phase.OVER
    elif d.kind is DecisionKind.CHANCE:
        public = [e for e in events if e.visible_to is None]
        if public and public[-1].kind == "traded":
            phase = Phase.DRAW
            sizes[obs.turn] = 2
        else:
            phase = Phase.DEAL
            dealt = len(full) - obs.stock_count
            to_deal = 3 * n - dealt
            sizes = [0] * n
            for j in range(dealt):
                sizes[(obs.dealer + step * (1 + j)) % n] += 1
    else:
        phase = _PHASE_OF[d.kind]
    if phase is Phase.OVER:
        actor = seat if (obs.offered is not None and seat != obs.turn) else obs.turn
    elif d is not None and d.seat is not None:
        actor = d.seat
    else:
        actor = obs.turn if phase is Phase.DRAW else obs.dealer
    if len(obs.hand) != sizes[seat] and phase is not Phase.OVER:
        raise CommerceError("the observation's hand does not fit the deal")

    # -- follow the cards through the events ----------------------------------------------
    known: list[set[Card]] = [set() for _ in range(n)]
    lost: set[Card] = set()
    bottom: list[Card | None] = []
    unseen_left = len(full) - 3 * n
    trade_indices = [i for i, e in enumerate(events) if e.kind == "traded"]
    pending = trade_indices[-1] if phase is Phase.DRAW and trade_indices else -1
    offered: Card | None = None

    def forget(q: int) -> None:
        lost.update(known[q])
        known[q].clear()

    for i, e in enumerate(events):
        kind = e.kind
        if kind == "traded":
            q = e.seat
            assert q is not None
            card: Card | None = None
            if q == seat:
                card = next(x.get("card") for x in events[i + 1:] if x.kind == "traded_card")
            else:
                forget(q)
            bottom.append(card)
            if unseen_left > 0:
                if i != pending:
                    unseen_left -= 1
            else:
                drawn = bottom.pop(0)
                if drawn is not None and q != seat:
                    known[q].add(drawn)
                    lost.discard(drawn)
        elif kind == "barter_card":
            offered = e.get("card")
        elif kind == "bartered":
            offerer, partner = e.seat, e.get("partner")
            assert offerer is not None
            if seat not in (offerer, partner):
                forget(offerer)
                forget(partner)
        elif kind == "barter_returned":
            returned, offerer, partner = e.get("card"), e.get("offerer"), e.seat
            assert partner is not None and offered is not None
            if returned == offered:  # handed straight back: the offerer keeps it
                if seat == partner:
                    known[offerer].add(offered)
                    lost.discard(offered)
            else:
                if seat == offerer:
                    known[partner].discard(returned)
                    known[partner].add(offered)
                    lost.discard(offered)
                else:
                    known[offerer].discard(offered)
                    known[offerer].add(returned)
                    lost.discard(returned)
            offered = None
    if phase is Phase.BARTER_REPLY and seat == actor and obs.offered is not None:
        known[obs.turn].add(obs.offered)

    own = set(obs.hand)
    if phase is Phase.OVER:
        for q in range(n):
            shown = obs.hands[q]
            known[q] = set(shown) if shown is not None else set()
            sizes[q] = len(shown) if shown is not None else 3
    unseen_count = max(0, unseen_left) if phase is not Phase.DEAL else obs.stock_count
    if unseen_count + len(bottom) != obs.stock_count:
        raise CommerceError("the observation's stock does not fit its events")
    placed = set(own)
    for q in range(n):
        if q == seat:
            known[q].clear()
            continue
        known[q] -= placed
        extra = sorted(known[q])[sizes[q]:]
        known[q].difference_update(extra)
        lost.update(extra)
        placed |= known[q]
    placed.update(c for c in bottom if c is not None)
    lost -= placed
    free = [c for c in full if c not in placed]
    hidden = sorted(set(free) - lost)
    lost_cards = sorted(lost)
    # places a lost card may take: hand places (seat, None) and unknown bottom places (-1, i)
    hand_places = [q for q in range(n) if q != seat for _ in range(sizes[q] - len(known[q]))]
    bottom_places = [i for i, c in enumerate(bottom) if c is None]
    if len(hand_places) + len(bottom_places) + unseen_count != len(free):
        raise CommerceError("the observation's cards do not add up")
    if len(lost_cards) > len(hand_places) + len(bottom_places):  # pragma: no cover
        raise CommerceError("the observation's cards do not add up")
    places = len(hand_places) + len(bottom_places)
    known_hands = [tuple(sorted(k)) for k in known]
    if phase is Phase.OVER:  # every hand is shown, in its order
        known_hands = [tuple(h) if h is not None else () for h in obs.hands]
    own_hand = tuple(obs.hand)
    offered_visible = obs.offered
    barter_pending = phase is Phase.BARTER_REPLY

    def draw(rng: random.Random) -> TradingState:
        slots: list[Card | None] = [None] * places
        for pos, c in zip(rng.sample(range(places), len(lost_cards)), lost_cards, strict=True):
            slots[pos] = c
        rest = list(hidden)
        rng.shuffle(rest)
        k = 0
        for pos in range(places):
            if slots[pos] is None:
                slots[pos] = rest[k]
                k += 1
        unseen = tuple(sorted(rest[k:]))
        hands: list[list[Card]] = [list(h) for h in known_hands]
        for q, slot in zip(hand_places, slots[:len(hand_places)], strict=True):
            assert slot is not None
            hands[q].append(slot)
        new_bottom = list(bottom)
        for pos, slot in zip(bottom_places, slots[len(hand_places):], strict=True):
            new_bottom[pos] = slot
        hands[seat] = list(own_hand)
        offer = offered_visible
        if barter_pending and offer is None:
            offer = rng.choice(hands[obs.turn])
        return TradingState(
            ruleset=rules,
            players=n,
            session=Session(balances=obs.balances, deals_won=(0,) * n, dealer=obs.dealer,
                            deal_number=obs.deal_number, last_deal=obs.last_deal),
            deal=Deal(hands=tuple(tuple(h) for h in hands), unseen=unseen,
                      bottom=tuple(c for c in new_bottom if c is not None), pool=obs.pool,
                      to_deal=to_deal, log=events),
            current=Turn(phase=phase, actor=actor, seat=obs.turn, taken=turns_taken,
                         offered=offer),
        )

    acted = sum(1 for e in events if e.kind in ("traded", "barter_offered"))
    if phase is Phase.DEAL:
        turns_taken = 0
    else:
        busy = phase in (Phase.DRAW, Phase.AFTER_TRADE, Phase.BARTER_REPLY)
        turns_taken = 1 + acted - (1 if busy else 0)
    return draw
