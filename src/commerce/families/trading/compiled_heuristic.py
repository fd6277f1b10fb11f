"""The trading family's compiled heuristic: the twin of :func:`.heuristic.trading_action` in
numba, with the action codes and decision kinds the kernel (:mod:`.kernel`) shares with it.

:func:`heuristic_choice` reads only what the seat's observation holds (its hand as held, the
offered card, the number of players and what the rules allow it now); a test holds it equal to
the Python heuristic decision for decision (``tests/test_trading_kernel.py``).
"""

from __future__ import annotations

from typing import Any, Final

import numba
import numpy as np

from commerce.kernelkit import NO_CARD, next_below, uncounted

# Action codes (commerce.kernelkit.KINDS order): kind * 64 + card.
_DEAL, _STAND, _TRADE, _BARTER, _GIVE, _DONE = 0, 64, 128, 192, 256, 320
_NONE = NO_CARD
# Decision kinds the heuristic is asked at.
TURN: Final = 1
"""The start of a turn: stand, trade or barter."""
AFTER_TRADE: Final = 3
"""After one's own trade or barter: stand or done."""
BARTER_REPLY: Final = 4
"""Offered a barter: give a card back, or stand where allowed."""


@numba.njit(cache=True, nogil=True, inline="always")
def _nth_lowest(hand: Any, j: Any) -> Any:
    """The *j*-th lowest card (from 0) of a three-card hand."""
    a, b, c = hand[0], hand[1], hand[2]
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return a if j == 0 else b if j == 1 else c


@numba.njit(cache=True, nogil=True, inline="always")
def _nth_lowest3(a: Any, b: Any, c: Any, j: Any) -> Any:
    """The *j*-th lowest card (from 0) of the three *a*, *b*, *c* (min and max: no branch on
    the cards)."""
    lo = min(a, min(b, c))
    hi = max(a, max(b, c))
    return lo if j == 0 else hi if j == 2 else a + b + c - lo - hi


@numba.njit(cache=True, nogil=True, inline="always")
def random_turn(state: Any, a: Any, b: Any, c: Any, stand_ok: Any, trade_ok: Any,
                n_barter: Any) -> Any:
    """``(state, code)``: the random policy's choice at a turn of a seat holding *a*, *b*,
    *c*, uniform over the legal actions in :func:`.rules.legal_actions`' order (a stand where
    *stand_ok*, three trades where *trade_ok*, *n_barter* barters), from stream *state*."""
    ns = 1 if stand_ok else 0
    nt = 3 if trade_ok else 0
    state, j = next_below(state, ns + nt + n_barter)
    if j < ns:
        return state, _STAND + _NONE
    j -= ns
    kind = _TRADE if j < nt else _BARTER
    return state, kind + _nth_lowest3(a, b, c, j if j < nt else j - nt)


@numba.njit(cache=True, nogil=True, inline="always")
def random_reply(state: Any, a: Any, b: Any, c: Any, offered: Any, n_ret: Any,
                 n_pstand: Any) -> Any:
    """``(state, code)``: the random policy's answer to a barter offering *offered* to a seat
    holding *a*, *b*, *c*: a stand where it may (*n_pstand* 1), else one of the *n_ret* cards
    it may give back (3: from its hand; 4: the offered card too)."""
    state, j = next_below(state, n_ret + n_pstand)
    if j < n_pstand:
        return state, _STAND + _NONE
    if n_ret == 3:
        return state, _GIVE + _nth_lowest3(a, b, c, j - n_pstand)
    return state, _GIVE + _nth_lowest4(a, b, c, offered, j - n_pstand)


@numba.njit(cache=True, nogil=True, inline="always")
def _nth_lowest4(a: Any, b: Any, c: Any, d: Any, j: Any) -> Any:
    """The *j*-th lowest (from 0) of four different cards."""
    if a > b:
        a, b = b, a
    if c > d:
        c, d = d, c
    if a > c:
        a, c = c, a
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    return a if j == 0 else b if j == 1 else c if j == 2 else d


@uncounted()
def heuristic_choice(kind: Any, hand: Any, offered: Any, may_stand: Any, may_trade: Any,
                     may_barter: Any, partner_may_stand: Any, return_orig: Any, rank3: Any,
                     strength: Any, pwin: Any, give_value: Any, boldness: Any,
                     after_win: Any, trade_cost: Any, pool: Any) -> Any:
    """The heuristic's action code at a decision of *kind*, or -1 where it would draw a random
    legal action (no trade, barter or stand to make). *hand* is the seat's hand as held;
    *trade_cost* what ready money costs this seat, *pool* the pool now (a barter is preferred
    where ready money costs more than the replacement is expected to win back)."""
    r = rank3[hand[0], hand[1], hand[2]]
    confident = pwin[r] >= boldness
    if kind == AFTER_TRADE:
        if may_stand and confident:
            return _STAND + _NONE
        return _DONE + _NONE
    if kind == BARTER_REPLY:
        if partner_may_stand and confident:
            return _STAND + _NONE
        n = 3 if return_orig else 4
        best_card, best = -1, -1.0
        for i in range(n):
            if n == 3:
                card = _nth_lowest(hand, i)
            else:
                card = _nth_lowest4(hand[0], hand[1], hand[2], offered, i)
            if card == offered:
                v = strength[r]
            else:
                a, b, c = hand[0], hand[1], hand[2]
                if a == card:
                    a = offered
                elif b == card:
                    b = offered
                else:
                    c = offered
                v = strength[rank3[a, b, c]]
            if best_card < 0 or v > best:
                best_card, best = card, v
        return _GIVE + best_card
    if may_stand and confident:
        return _STAND + _NONE
    give, best = hand[0], -1.0
    gk1, gk2 = hand[1], hand[2]
    for i in range(3):
        k1, k2 = hand[(i + 1) % 3], hand[(i + 2) % 3]
        v = give_value[hand[i], k1, k2]
        if v > best:
            give, best = hand[i], v
            gk1, gk2 = k1, k2
    if may_barter and (not may_trade or (
            trade_cost > 0 and (after_win[give, gk1, gk2] - pwin[r]) * pool < trade_cost)):
        return _BARTER + give
    if may_trade:
        return _TRADE + give
    if may_stand:
        return _STAND + _NONE
    return -1


@numba.njit(cache=True, nogil=True)
def _give_values(pack_cards: Any, rank3: Any, strength: Any) -> Any:
    """``v[give, k1, k2]``: the mean strength after trading *give* away, keeping *k1*, *k2*
    (:func:`commerce.strength.best_replacement`, summed in the same order)."""
    n = pack_cards.shape[0]
    v = np.full((52, 52, 52), -1.0)
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                trio = (pack_cards[i], pack_cards[j], pack_cards[k])
                for t in range(3):
                    give, k1, k2 = trio[t], trio[(t + 1) % 3], trio[(t + 2) % 3]
                    total = 0.0
                    for x in range(n):
                        c = pack_cards[x]
                        if c == give or c == k1 or c == k2:
                            continue
                        total += strength[rank3[k1, k2, c]]
                    value = total / (n - 3)
                    v[give, k1, k2] = value
                    v[give, k2, k1] = value
    return v


@numba.njit(cache=True, nogil=True)
def _after_wins(pack_cards: Any, rank3: Any, pwin: Any) -> Any:
    """``v[give, k1, k2]``: the mean chance to win after replacing *give* by a card not in the
    hand, keeping *k1*, *k2* (:func:`.heuristic._barter_rather`, summed in the same order)."""
    return _give_values(pack_cards, rank3, pwin)

