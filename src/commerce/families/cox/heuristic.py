"""The heuristic bot's rules of thumb for Cox's 1925 Commerce (family ``cox``).

It plays like a sensible person, from its observation, the legal actions and its RNG only:

* **Its transport suit.** It picks the suit it holds most of, laid-out combinations weighing
  most, then pairs, then single cards, 5s and the suit's Captain a little more; it keeps to that
  suit so the hand stays clear (no -5), and discards the other suits' cards first (single cards
  before pairs). Once its laid-out combinations are of two suits the hand cannot be clear and
  every suit counts as its own.
* **Pairs.** It keeps pairs of its suit and honour pairs (Fruit, Grain, Industries: 3 points
  even unmatched), the more so while copies that could complete them are unseen; it lets go of
  dead pairs and single cards first.
* **Buying.** It buys whenever the discard completes a three of an honour suit or of its own
  suit, and whenever it completes a hand it can sell out at once; it draws otherwise.
* **Selling out.** It sells out as soon as it can, discarding the card that leaves the best
  score.
* **Wild cards.** It never discards the Bank or a Captain while it has anything else to discard.
* **Safe discards.** Among equally useless cards it discards one nobody else can buy (two of
  the other copies are already seen).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

from commerce.core import Action, ActionKind, Seat
from commerce.errors import CommerceError
from commerce.families.cox.cards import (
    BANK,
    CoxCard,
    face_card,
    is_black,
    is_captain,
    kind_of,
    number_of,
    transport_suit,
)
from commerce.families.cox.observe import CoxObservation
from commerce.families.cox.options import CoxOptions
from commerce.families.cox.scoring import is_complete, may_complete_less_one, score_holding

_BANK_VALUE: Final = 1000.0
_COPIES: Final = 4
"""Copies of a transport face, and cards of an honour suit."""
_CAPTAIN_VALUE: Final = 500.0


def _laid_cards(groups: Iterable[tuple[CoxCard, ...]]) -> list[CoxCard]:
    return [c for g in groups for c in g]


def _suit_weights(rack: Sequence[CoxCard], laid: Sequence[tuple[CoxCard, ...]]) -> list[float]:
    """How much each transport suit is worth keeping to, from what the seat holds."""
    weights = [0.0, 0.0, 0.0]
    for group in laid:
        naturals = [c for c in group if is_black(c) and not is_captain(c)]
        if naturals:
            five = number_of(naturals[0]) == 5
            weights[transport_suit(naturals[0])] += 10.0 + (4.0 if five else 0.0)
    counts = Counter(kind_of(c) for c in rack)
    for k, n in counts.items():
        if 0 <= k < 15:
            five = k % 5 == 4
            weights[k // 5] += (4.0 if n >= 2 else 1.0) + (1.5 if five else 0.0) * min(n, 2)
    for c in rack:
        if is_captain(c):
            weights[transport_suit(c)] += 3.0
    return weights


def choose_suit(rack: Sequence[CoxCard], laid: Sequence[tuple[CoxCard, ...]]) -> int | None:
    """The transport suit (0-2) to keep to, or None when the laid-out combinations are already
    of two suits (the hand cannot be clear: every suit is as good)."""
    laid_suits = {transport_suit(c) for c in _laid_cards(laid) if is_black(c)}
    if len(laid_suits) >= 2:
        return None
    weights = _suit_weights(rack, laid)
    return max(range(3), key=lambda s: (weights[s], -s))


def _seen_elsewhere(obs: CoxObservation) -> Counter[int]:
    """Copies of each kind visible outside this seat's holding: the discards and the other
    seats' laid-out cards (those can be neither drawn nor bought)."""
    seen: Counter[int] = Counter(kind_of(c) for c in obs.discards)
    for seat, groups in enumerate(obs.laid):
        if seat != obs.seat:
            seen.update(kind_of(c) for c in _laid_cards(groups))
    return seen


def _own(obs: CoxObservation) -> Seat:
    """The seat whose observation *obs* is (the heuristic plays a seat, not a spectator)."""
    if obs.seat is None:
        raise CommerceError("the Cox heuristic plays a seat's view, not a spectator's")
    return obs.seat


def _holding(obs: CoxObservation) -> list[CoxCard]:
    return [*obs.rack, *_laid_cards(obs.laid[_own(obs)])]


def card_value(card: CoxCard, counts: Counter[int], suit: int | None, outs: Counter[int],
               captain_suits: set[int]) -> float:
    """How much the seat wants to keep *card* of its rack (higher: keep)."""
    if card == BANK:
        return _BANK_VALUE
    if is_captain(card):
        return _CAPTAIN_VALUE + (10.0 if suit is None or transport_suit(card) == suit else 0.0)
    k = kind_of(card)
    n = counts[k]
    o = outs[k]
    if k >= 15:  # Fruit, Grain, Industries
        return 8.0 + 0.5 * o if n >= 2 else 1.0 + 0.6 * o
    five = k % 5 == 4
    own = suit is None or k // 5 == suit
    if not own:
        return -1.0 + 0.2 * o if n >= 2 else -2.0
    if n >= 2:
        wild = 2.0 if k // 5 in captain_suits else 0.0
        return 6.0 + (2.0 if five else 0.0) + 1.0 * o + wild
    return 1.0 + 0.5 * o + (0.5 if five else 0.0)


def _sell_score(obs: CoxObservation, face: CoxCard) -> int:
    held = _holding(obs)
    for i, c in enumerate(held):
        if face_card(c) == face:
            del held[i]
            break
    opts = CoxOptions.of(obs.ruleset)
    return score_holding(
        [*held, *obs.greenbacks[_own(obs)]], obs.base_numbers[_own(obs)],
        captain_can_be_fourth=opts.captain_can_be_fourth,
        bank_double_order=opts.bank_double_order,
        bank_counts_for_clear_hand=opts.bank_counts_for_clear_hand,
    ).score


def _buy_sells_out(obs: CoxObservation, card: CoxCard) -> bool:
    """Whether buying *card* lets the seat sell out at once."""
    held = [*_holding(obs), card]
    if not may_complete_less_one(held):
        return False
    cap4 = CoxOptions.of(obs.ruleset).captain_can_be_fourth
    for f in sorted({face_card(c) for c in obs.rack}):
        if f == face_card(card):
            continue
        rest = list(held)
        for i, c in enumerate(rest):
            if face_card(c) == f:
                del rest[i]
                break
        if is_complete(rest, captain_can_be_fourth=cap4):
            return True
    return False


def wants_to_buy(obs: CoxObservation, card: CoxCard) -> bool:
    """Whether the seat wants the discard *card* (assuming the engine lets it buy)."""
    if _buy_sells_out(obs, card):
        return True
    rack = obs.rack
    counts = Counter(kind_of(c) for c in rack)
    if is_captain(card):
        s = transport_suit(card)
        if not any(counts[k] >= 2 for k in range(s * 5, s * 5 + 5)):
            return False
        suit = choose_suit([*rack, card], obs.laid[_own(obs)])
        return suit is None or suit == s
    k = kind_of(card)
    if not 0 <= k < 18 or counts[k] < 2:
        return False
    if k >= 15:
        return True
    suit = choose_suit([*rack, card], obs.laid[_own(obs)])
    return suit is None or suit == k // 5


def choose_discard(obs: CoxObservation, legal: Sequence[Action], rng: random.Random) -> Action:
    """The discard (or sell-out) for the seat's rack."""
    sells = [a for a in legal if a.kind is ActionKind.SELL_OUT]
    if sells:
        return max(sells, key=lambda a: (_sell_score(obs, a.cards[0]), -a.cards[0]))
    discards = [a for a in legal if a.kind is ActionKind.DISCARD]
    if not discards:
        return legal[rng.randrange(len(legal))]
    return rank_discards(obs, discards, rng)[0]


def rank_discards(obs: CoxObservation, discards: Sequence[Action],
                  rng: random.Random) -> list[Action]:
    """The ``discard`` actions from the one the seat misses least (ties broken with *rng*)."""
    rack = obs.rack
    laid = obs.laid[_own(obs)]
    suit = choose_suit(rack, laid)
    counts = Counter(kind_of(c) for c in rack)
    seen = _seen_elsewhere(obs)
    mine = Counter(kind_of(c) for c in _holding(obs))
    outs: Counter[int] = Counter(
        {k: max(0, _COPIES - mine[k] - seen[k]) for k in range(18)})
    captain_suits = {transport_suit(c) for c in rack if is_captain(c)}

    def badness(a: Action) -> tuple[float, float, float]:
        card = a.cards[0]
        value = card_value(card, counts, suit, outs, captain_suits)
        k = kind_of(card)
        # Another seat may buy it if two copies could be in one rack.
        danger = 0.3 if 0 <= k < 18 and outs[k] >= 2 else 0.0
        return (value + danger, rng.random(), 0.0)

    return sorted(discards, key=badness)


def cox_heuristic(obs: CoxObservation, legal: Sequence[Action], rng: random.Random,
                  boldness: float) -> Action:
    """The heuristic bot's choice in a Cox game (*boldness* is not used)."""
    buy = next((a for a in legal if a.kind is ActionKind.BUY), None)
    if buy is not None and obs.live is not None and wants_to_buy(obs, obs.live):
        return buy
    for kind in (ActionKind.DRAW, ActionKind.DECLINE):
        a = next((a for a in legal if a.kind is kind), None)
        if a is not None:
            return a
    if any(a.kind in (ActionKind.DISCARD, ActionKind.SELL_OUT) for a in legal):
        return choose_discard(obs, legal, rng)
    return legal[rng.randrange(len(legal))]

