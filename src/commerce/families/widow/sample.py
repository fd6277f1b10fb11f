"""Determinisation for the widow family: states consistent with one seat's observation.

In the widow games every movement of a card between a hand and the widow is public (the
exchanges, the dealer's blind exchange, a pounce), so what a seat knows of the other hands
is read from the deal's public events, in order:

- a card a player took from the widow is in his hand until he gives it back (the cards it
  gave itself and the others took, the cards it saw in the widow, alike);
- a player who pounced holds the four cards of that rank;
- during the dealer's blind exchange the cards he took are the first of his hand (in his
  own view the rest of his hand is hidden from him too);
- players out of the game hold nothing; at the showdown and a horse offer every hand is
  shown.

The other cards (never seen) are dealt uniformly among the other hands' free places and the
unseen stock. Counters, balances, the pool, who is locked, passed, stood or pounced, the
knocker, the round and the final turns still to come are read from the observation; fields no
view shows are rebuilt as well as the events allow (``deals_won`` zero, ``out_in`` the deal
in which a seat went out if this or the last deal shows it, else 1, the horses bought from
the pool when the ruleset has no deal prize).

Chance decisions (dealing) and a pounce offer made to another seat (its view shows no
decision) cannot be rebuilt: :class:`CommerceError`. The seat's own pounce offer is rebuilt
with a best guess of how play resumes after it (a view does not show it).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from commerce.cards import Card, pack
from commerce.core import DecisionKind
from commerce.errors import CommerceError
from commerce.families.widow import state as ref
from commerce.families.widow.observe import WidowObservation
from commerce.families.widow.options import WidowOptions
from commerce.families.widow.state import Phase, Resume

_PHASE_OF: dict[DecisionKind, Phase] = {
    DecisionKind.BLIND_EXCHANGE: Phase.BLIND,
    DecisionKind.TURN: Phase.TURN,
    DecisionKind.MORE_EXCHANGE: Phase.MORE,
    DecisionKind.FINAL_TURN: Phase.FINAL,
    DecisionKind.POUNCE_OFFER: Phase.POUNCE,
    DecisionKind.HORSE_OFFER: Phase.HORSE,
}
_TOKENS = frozenset({"lowest_to_best", "lowest_to_pool"})


def _mask(seats: tuple[int, ...]) -> int:
    m = 0
    for x in seats:
        m |= 1 << x
    return m


def _turn_exchanges(obs: WidowObservation) -> list[tuple[Card, Card]]:
    """The (gave, took) of the exchanges made so far in the current turn."""
    out: list[tuple[Card, Card]] = []
    for e in reversed(obs.events):
        kind = e.kind
        if kind == "exchanged" and e.seat == obs.turn:
            out.append((e.get("gave"), e.get("took")))
        elif kind in ("pounced", "pounce_declined", "widow_card"):
            continue
        else:
            break
    out.reverse()
    return out


def prepare(obs: WidowObservation) -> Callable[[random.Random], ref.WidowState]:
    """Read *obs* once; return a function that draws a consistent state with an RNG.

    :raises CommerceError: for a spectator's view, a chance decision, or a pounce offer
        pending for another seat.
    """
    seat = obs.seat
    if seat is None:
        raise CommerceError("only a seat's own view can be determinised, not a spectator's")
    rules = obs.ruleset
    opts = WidowOptions.of(rules)
    n = obs.players
    d = obs.decision
    if obs.over:
        phase = Phase.OVER
        actor = obs.turn
    elif d is None:
        raise CommerceError("another seat is deciding on a pounce: this view cannot be "
                            "rebuilt until it has")
    elif d.seat is None:
        raise CommerceError("chance is dealing: only a player's decision can be rebuilt")
    else:
        phase = _PHASE_OF[d.kind]
        actor = d.seat
    events = obs.events
    sizes = list(obs.hand_sizes)
    own = tuple(obs.hand)
    shown = all(obs.hands[x] is not None for x in obs.in_deal)

    # -- follow the cards through the public events ---------------------------------------
    known: list[list[Card]] = [[] for _ in range(n)]
    blind_took: list[Card] = []
    blind_gave: list[Card] = []
    for e in events:
        kind = e.kind
        if kind == "exchanged":
            q = e.seat
            assert q is not None
            gave, took = e.get("gave"), e.get("took")
            if gave in known[q]:
                known[q].remove(gave)
            known[q].append(took)
        elif kind == "blind_exchanged":
            q = e.seat
            assert q is not None
            gave, took = e.get("gave"), e.get("took")
            if len(gave) == 3 and len(took) == 3 and opts.dealer_blind_exchange == (
                    "all_or_nothing"):
                known[q] = list(took)
            else:
                known[q].extend(took)
            blind_took.extend(took)
            blind_gave.extend(gave)
        elif kind == "pounced":
            q = e.seat
            assert q is not None
            rank = e.get("card") >> 2
            known[q] = [c for c in pack(rules.pack) if c >> 2 == rank]
    blind = phase is Phase.BLIND
    dealer = obs.dealer
    if shown:
        for x in range(n):
            h = obs.hands[x]
            known[x] = list(h) if h is not None else []
    known[seat] = list(own)  # for the dealer in his blind exchange: the cards he took
    placed: set[Card] = set(obs.widow)
    for x in range(n):
        placed.update(known[x])
    hidden = [c for c in pack(rules.pack) if c not in placed]
    free = [sizes[x] - len(known[x]) for x in range(n)]
    if any(f < 0 for f in free) or sum(free) + obs.stock_count != len(hidden):
        raise CommerceError("the observation's cards do not add up")
    known_hands = [tuple(k) for k in known]
    if shown:  # every hand is shown, in its order
        known_hands = [tuple(h) if h is not None else () for h in obs.hands]

    # -- the rest of the state ------------------------------------------------------------
    order = obs.in_deal
    locked = _mask(obs.locked)
    knocker = obs.knocker if obs.knocker is not None else -1
    final: tuple[int, ...] = ()
    if obs.final_turns and phase in (Phase.FINAL, Phase.MORE, Phase.POUNCE):
        ender = knocker
        if ender < 0:  # the second stand began the final turns
            standers = [e.seat for e in events if e.kind == "stood" and e.seat is not None]
            ender = standers[1] if len(standers) > 1 else (standers[0] if standers else -1)
        if ender in order:
            i = order.index(ender)
            rotated = order[i + 1:] + order[:i]
            after = rotated[rotated.index(obs.turn) + 1:] if obs.turn in rotated else rotated
            final = tuple(x for x in after if not locked >> x & 1)
    swaps = 0
    moved: tuple[Card, ...] = ()
    resume = Resume.NEXT
    offer = -1
    if blind:
        swaps = len(blind_took)
        moved = tuple(blind_gave)
    elif phase is Phase.MORE or phase is Phase.POUNCE:
        made = _turn_exchanges(obs)
        swaps = len(made)
        moved = tuple(c for pair in made for c in pair)
    if phase is Phase.POUNCE:
        offer = obs.pounce_offer if obs.pounce_offer is not None else -1
        last = next((e for e in reversed(events) if e.kind in (
            "exchanged", "widow_card", "round_started", "blind_exchanged", "blind_passed",
            "blind_done")), None)
        if last is not None and last.kind == "exchanged" and last.get("gave") == offer:
            more = (swaps < opts.max_exchange_per_turn and swaps < 3
                    and len(obs.widow) > swaps)
            resume = Resume.MORE if more else Resume.NEXT
        elif last is None or last.kind != "exchanged":
            resume = Resume.FIRST
    pos = order.index(obs.turn) if (obs.turn in order and not blind
                                    and phase is not Phase.OVER) else -1
    if resume is Resume.FIRST:
        pos = -1
    out_in = [0] * n
    for e in (*obs.last_deal, *events):
        if e.kind == "went_out" and e.seat is not None:
            out_in[e.seat] = e.get("deal")
    for x in obs.out:
        if not out_in[x]:
            out_in[x] = 1
    for x in range(n):
        if x not in obs.out:
            out_in[x] = 0
    tracked = opts.token_flow in _TOKENS
    pooled = opts.token_flow == "lowest_to_pool"
    horses = 0
    if pooled and opts.horse_price and not opts.deal_prize:
        horses = max(0, obs.pool - opts.pool_entry * n) // opts.horse_price
    ever_out = bool(obs.out) or horses > 0 or any(
        e.kind == "went_out" for e in (*obs.last_deal, *events))
    offers: tuple[int, ...] = ()
    if phase is Phase.HORSE:
        newly = [e.seat for e in events if e.kind == "went_out" and e.seat is not None]
        answered = {e.seat for e in events if e.kind in ("horse_bought", "horse_declined")}
        if actor in newly:
            offers = tuple(x for x in newly[newly.index(actor) + 1:] if x not in answered)
    horse_open = not ever_out and phase is not Phase.HORSE
    widow = tuple(obs.widow)
    tokens = tuple(obs.tokens) if (tracked and obs.tokens is not None) else (0,) * n
    hidden_t = tuple(hidden)
    in_final = obs.final_turns
    locked_seats = frozenset(obs.locked)
    passed_seats = frozenset(obs.passed)
    stood_seats = frozenset(obs.stood)
    pounced_seats = frozenset(obs.pounced)

    def draw(rng: random.Random) -> ref.WidowState:
        rest = list(hidden_t)
        rng.shuffle(rest)
        hands: list[tuple[Card, ...]] = []
        k = 0
        for x in range(n):
            f = free[x]
            h = known_hands[x] + tuple(rest[k:k + f])
            k += f
            hands.append(h)
        if not blind or seat != dealer:
            hands[seat] = own
        unseen = tuple(sorted(rest[k:]))
        return ref.WidowState(
            ruleset=rules,
            players=n,
            session=ref.Session(
                tokens=tokens, balances=obs.balances, out_in=tuple(out_in),
                deals_won=(0,) * n, pool=obs.pool, pool_counters=obs.pool_counters,
                horses=horses, horse_open=horse_open, horse_offers=offers, dealer=dealer,
                deal_number=obs.deal_number, last_deal=obs.last_deal, ended=obs.ended,
            ),
            deal=ref.Deal(
                order=order, hands=tuple(hands), widow=widow, stock=unseen, to_deal=0,
                locked=locked_seats, passed=passed_seats, stood=stood_seats,
                pounced=pounced_seats, knocker=None if knocker < 0 else knocker, log=events,
            ),
            turn=ref.Turn(
                phase=phase, actor=actor, seat=obs.turn, pos=pos, round=obs.round,
                final=final, in_final=in_final, swaps=swaps, moved=moved, resume=resume,
                fresh=(), offer=None if offer < 0 else offer,
            ),
        )

    return draw
