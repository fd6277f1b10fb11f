"""Determinisation for the cox family: states consistent with one seat's observation.

What a seat of Cox's game knows is nearly everything: the Directors, every laid-out
combination and Greenback, the discard pile, the size of every rack and of every Supply Base,
who bought what (a bought card is always laid out at once, or its buyer sells out and the hand
ends), and its own rack. Hidden are the other racks and the order of the supply. A drawn state
keeps everything the seat knows and deals the cards it has not seen (the pack less its rack,
the laid-out cards, the Greenbacks and the discards) at random to the other racks and the bases,
so that each rack is one the rules allow at rest:

- no Greenback (a Greenback is laid out as soon as it is held, so the unseen ones are in the
  supply);
- no three like natural cards (they would have been laid out);
- no natural card of a kind its holder has laid out as a natural three (it would have been
  laid out as the fourth; with ``captain_can_be_fourth`` any laid-out three counts).

Cards are drawn for the racks in a random order, a card a rack may not hold being passed to the
supply; what is left goes to the bases in random order. Nothing is read from how the other
seats played (which cards they declined to buy, what they kept), so the racks are uniform among
the allowed ones up to that small skew.

The phase, whose turn it is, the offer queue (the seats still to be asked about the discard),
whether the turn player drew, the card bought this turn and whether its buyer must sell out are
rebuilt from the observation and its events; the state's event log is the seat's own view of
the hand (the other seats' private events are left out: no rule reads them).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

from commerce.core import DecisionKind, Event, Seat
from commerce.errors import CommerceError
from commerce.families.cox.cards import CoxCard, face_card, is_greenback, is_wild, kind_of, pack
from commerce.families.cox.choices import buy_mode
from commerce.families.cox.observe import CoxObservation
from commerce.families.cox.options import CoxOptions
from commerce.families.cox.state import (
    BLANK,
    RETAILER,
    WHOLESALER,
    CoxState,
    Deal,
    Phase,
    Session,
    Turn,
)

_PHASE_OF = {
    DecisionKind.DRAW_OR_BUY: Phase.TURN,
    DecisionKind.BUY_OFFER: Phase.OFFER,
    DecisionKind.DISCARD: Phase.DISCARD,
}
_DIRECTOR_CODE = {"W": WHOLESALER, "R": RETAILER, "X": BLANK}
_TRIES = 20
"""Shuffles tried for racks the rules allow before giving up on the rules of rest."""


def prepare(obs: CoxObservation) -> Callable[[random.Random], CoxState]:
    """Read *obs* once; return a function that draws a consistent state with an RNG.

    :raises CommerceError: for a spectator's view, or one taken while the supply is being
        shuffled (chance is placing the cards one at a time).
    """
    seat = obs.seat
    if seat is None:
        raise CommerceError("only a seat's own view can be determinised, not a spectator's")
    rules = obs.ruleset
    opts = CoxOptions.of(rules)
    n = obs.players
    step = 1 if rules.direction == "left" else -1
    d = obs.decision
    events = obs.events
    if obs.over or d is None:
        phase = Phase.OVER
    elif d.kind is DecisionKind.CHANCE:
        if obs.retailer is not None:
            raise CommerceError("the supply is being shuffled: nothing to determinise until "
                                "it is dealt")
        phase = Phase.DIRECTORS
    else:
        phase = _PHASE_OF[d.kind]
    # The first Director goes to the dealer's right; before it, the turn is the dealer's.
    dealer = (obs.directors[0][0] - step) % n if obs.directors else obs.turn
    actor = d.seat if d is not None and d.seat is not None else obs.turn

    # -- where the hidden cards may lie -----------------------------------------------------
    racks_known: list[tuple[CoxCard, ...] | None] = [None] * n
    racks_known[seat] = obs.rack
    known: set[CoxCard] = set(obs.discards)
    for q in range(n):
        known.update(c for g in obs.laid[q] for c in g)
        known.update(obs.greenbacks[q])
    known.update(obs.rack)
    if phase is Phase.OVER:
        # The count shows every rack by face: give the other racks the copies left.
        scored = next(e for e in reversed(events) if e.kind == "hand_scored")
        used = Counter(face_card(c) for c in known)
        for q, r in enumerate(scored.get("racks")):
            if q == seat:
                continue
            rack_q = []
            for c in r:
                f = face_card(c)
                rack_q.append(f + used[f])
                used[f] += 1
            racks_known[q] = tuple(rack_q)
            known.update(rack_q)
    full = pack()
    hidden = [c for c in full if c not in known] if phase is not Phase.DIRECTORS else []
    sizes = [0 if racks_known[q] is not None else obs.rack_sizes[q] for q in range(n)]
    supply = obs.supply if phase is not Phase.DIRECTORS else (0,) * 4
    if len(hidden) != sum(sizes) + sum(supply):
        raise CommerceError("the observation's cards do not add up to the pack")
    blocked = [_blocked_kinds(obs.laid[q], opts.captain_can_be_fourth) for q in range(n)]
    others = [q for q in range(n) if racks_known[q] is None]

    # -- the decision in progress -----------------------------------------------------------
    bought: CoxCard | None = None
    must_sell_out = False
    if phase is Phase.DISCARD:
        bought, must_sell_out = _bought_this_turn(obs, actor)
    pending_draw = phase is Phase.OFFER and any(obs.supply)
    queue_after: list[Seat] = []
    if phase is Phase.OFFER:
        q = (actor + step) % n
        while q != obs.discarder:
            queue_after.append(q)
            q = (q + step) % n
    eligible_only = opts.buy_offers == "eligible_only"

    base = CoxState(
        ruleset=rules, players=n,
        session=Session(director_dealer=dealer, hand_number=obs.hand_number,
                        totals=obs.totals, hand_scores=obs.hand_scores,
                        last_hand=obs.last_hand),
        deal=Deal(directors=tuple(_DIRECTOR_CODE[name] for _, name in obs.directors),
                  wholesaler=obs.wholesaler, retailer=obs.retailer,
                  base_numbers=obs.base_numbers,
                  unseen=full if phase is Phase.DIRECTORS else (), bases=((),) * 4,
                  current_base=obs.current_base - 1, racks=((),) * n, laid=obs.laid,
                  greenbacks=obs.greenbacks, discards=obs.discards, log=events),
        turn=Turn(phase=phase, player=obs.turn, actor=actor, live=obs.live,
                  discarder=obs.discarder, offer_queue=(), pending_draw=pending_draw,
                  bought=bought, must_sell_out=must_sell_out),
    )

    def draw(rng: random.Random) -> CoxState:
        racks, rest = _deal_racks(hidden, others, sizes, blocked, rng)
        for q in range(n):
            known_rack = racks_known[q]
            if known_rack is not None:
                racks[q] = list(known_rack)
        rng.shuffle(rest)
        bases = []
        at = 0
        for size in supply:
            bases.append(tuple(rest[at:at + size]))
            at += size
        state = replace(base, deal=replace(base.deal, racks=tuple(tuple(r) for r in racks),
                                           bases=tuple(bases)))
        if phase is Phase.OFFER:
            queue = [q for q in queue_after if buy_mode(state, q)] if eligible_only \
                else queue_after
            state = replace(state, turn=replace(state.turn, offer_queue=(actor, *queue)))
        return state

    return draw


def _blocked_kinds(laid: Sequence[tuple[CoxCard, ...]], captain_fourth: bool) -> set[int]:
    """Kinds a rack may not hold a natural card of: the fourth of a laid-out three would have
    been laid out with it."""
    out = set()
    for group in laid:
        if len(group) != 3:
            continue
        naturals = [c for c in group if not is_wild(c)]
        if len(naturals) == 3 or captain_fourth:
            out.add(kind_of(naturals[0]))
    return out


def _deal_racks(hidden: Sequence[CoxCard], others: Sequence[Seat], sizes: Sequence[int],
                blocked: Sequence[set[int]],
                rng: random.Random) -> tuple[list[list[CoxCard]], list[CoxCard]]:
    """Racks of the given sizes for *others* from the *hidden* cards, each one the rules allow
    at rest (see the module's text), and the cards left over for the supply."""
    n = len(sizes)
    for attempt in range(_TRIES + 1):
        pool = [c for c in hidden if not is_greenback(c)]
        rng.shuffle(pool)
        racks: list[list[CoxCard]] = [[] for _ in range(n)]
        rest = [c for c in hidden if is_greenback(c)]
        strict = attempt < _TRIES
        ok = True
        for q in others:
            counts: Counter[int] = Counter()
            rack = racks[q]
            want = sizes[q]
            skipped: list[CoxCard] = []
            while len(rack) < want and pool:
                c = pool.pop()
                k = kind_of(c)
                if strict and 0 <= k < 18 and (counts[k] >= 2 or k in blocked[q]):
                    skipped.append(c)
                    continue
                counts[k] += 1
                rack.append(c)
            pool.extend(skipped)
            if len(rack) < want:
                ok = False
                break
        if ok:
            rest.extend(pool)
            return racks, rest
    raise CommerceError("no deal of the hidden cards fits the observation")


def _bought_this_turn(obs: CoxObservation, actor: Seat) -> tuple[CoxCard | None, bool]:
    """The card the discarding player bought this turn (None if he drew), and whether he bought
    it only to sell out at once (then he must)."""
    events: Sequence[Event] = obs.events
    at = None
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e.seat == actor and e.kind in ("drew", "bought"):
            if e.kind == "bought":
                at = i
            break
    if at is None:
        return None, False
    card: CoxCard = events[at].get("card")
    after = events[at + 1:]
    # A purchase by a pair lays the three out at once (the next event); a purchase to sell out
    # leaves the card in the rack (or lays it out as a fourth).
    by_pair = bool(after) and after[0].kind == "laid_out" and card in after[0].get("cards")
    rules = obs.ruleset
    empty_then = not any(obs.supply) and not any(e.kind == "replaced" for e in after)
    if empty_then and CoxOptions.of(rules).last_discard_buyable == "sell_out_only":
        return card, True
    return card, not by_pair
