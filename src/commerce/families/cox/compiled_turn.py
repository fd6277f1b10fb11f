"""Cox's compiled rules, continued: the turn's steps (:mod:`.turn`: drawing, the "I buy"
offers, buying, discarding and selling out), the legal actions in the reference's order
(:func:`.choices.legal_actions`) and a hand's deal and count (:mod:`.deal`, :mod:`.settle`),
over the state laid out by :mod:`.compiled_rules`, whose holdings they call, and the
supply and buying steps of :mod:`.compiled_supply`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from commerce.families.cox.compiled_rules import (
    _ACTOR,
    _BN,
    _BOT,
    _BOUGHT,
    _CAP4,
    _CUR,
    _DISCARD,
    _DISCARDER,
    _ELIGIBLE,
    _FACES,
    _GC,
    _GSZ,
    _HAND,
    _HANDS,
    _HOLD,
    _HSC,
    _HW,
    _K_BUY,
    _K_DECLINE,
    _K_DISCARD,
    _K_DRAW,
    _K_SELL,
    _LAST,
    _LAST_NO,
    _LIVE,
    _MAXG,
    _MUST,
    _NG,
    _NPILE,
    _OFFER,
    _OVER,
    _P,
    _PENDING,
    _PHASE,
    _PILE,
    _PLAYER,
    _Q,
    _QHEAD,
    _QLEN,
    _RACK,
    _RETAILER,
    _RSIZE,
    _SEATS,
    _SEEN,
    _SELLER,
    _START,
    _STEP,
    _SUP,
    _TOP,
    _TOT,
    _TURN,
    _TURNS,
    _W_CNT,
    _W_DISC,
    _W_LEGAL,
    _add,
    _code,
    _complete,
    _face,
    _hold_add,
    _hold_copy,
    _kind,
    _may_complete_held,
    _score,
    _to_rack,
)
from commerce.families.cox.compiled_supply import (
    _buy_mode,
    _empty,
    _lay_out,
    _lay_out_gained,
    _new_group,
    _pair_kind,
)
from commerce.kernelkit import uncounted

# -- a turn ---------------------------------------------------------------------------------


@uncounted(inline="always")
def _next(cfg: Any, seat: Any) -> Any:
    return (seat + cfg[_STEP] + cfg[_P]) % cfg[_P]


@uncounted()
def _begin_turn(g: Any, cfg: Any, w: Any, seat: Any, live: Any, discarder: Any) -> Any:
    """:func:`.turn.begin_turn`; True when the hand ends instead (the supply run out)."""
    empty = _empty(g)
    if empty and (live < 0 or cfg[_LAST] == _LAST_NO):
        return True
    g[_PHASE] = _TURN
    g[_PLAYER] = seat
    g[_ACTOR] = seat
    g[_LIVE] = live
    g[_DISCARDER] = discarder
    g[_QHEAD] = 0
    g[_QLEN] = 0
    g[_PENDING] = 0
    g[_BOUGHT] = -1
    g[_MUST] = 0
    if empty and cfg[_ELIGIBLE] == 1:
        anyone = False
        for other in range(cfg[_P]):
            if not anyone and _buy_mode(g, cfg, w, other) > 0:
                anyone = True
        if not anyone:
            return True
    g[_TURNS] += 1
    return False


@uncounted()
def _after_gain(g: Any, cfg: Any, w: Any, seat: Any, bought: Any, must: Any) -> Any:
    """:func:`.turn.after_gain`: the seat discards, or (nothing over his hand) the next turn
    begins; True when the hand ends."""
    size = g[_RSIZE + seat]
    quota = 8
    for i in range(g[_NG + seat]):
        n = g[_GSZ + seat * _MAXG + i]
        size += n
        if n == 4:
            quota += 1
    if size > quota and g[_RSIZE + seat] > 0:
        g[_PHASE] = _DISCARD
        g[_PLAYER] = seat
        g[_ACTOR] = seat
        g[_LIVE] = -1
        g[_DISCARDER] = -1
        g[_QHEAD] = 0
        g[_QLEN] = 0
        g[_PENDING] = 0
        g[_BOUGHT] = bought
        g[_MUST] = must
        return False
    return _begin_turn(g, cfg, w, _next(cfg, seat), -1, -1)


@uncounted()
def _draw(g: Any, cfg: Any, w: Any, seat: Any) -> Any:
    """:func:`.turn.draw`: the top card of the current base; True when the hand ends."""
    cur = g[_CUR]
    while cur < 4 and g[_TOP + cur] >= g[_BOT + cur]:
        cur += 1
    f = g[_SUP + cur * 20 + g[_TOP + cur]]
    g[_TOP + cur] += 1
    g[_CUR] = cur
    _to_rack(g, seat, f, 1)
    _lay_out_gained(g, cfg, seat, f)
    return _after_gain(g, cfg, w, seat, -1, 0)


@uncounted()
def _settle_offers(g: Any, cfg: Any, w: Any, pending: Any) -> Any:
    """:func:`.turn.settle_offers`: nobody bought; True when the hand ends."""
    if pending == 0:
        return True
    return _draw(g, cfg, w, g[_PLAYER])


@uncounted()
def _offer(g: Any, cfg: Any, w: Any, pending: Any) -> Any:
    """:func:`.turn.offer_discard`: the other seats asked in turn; True when the hand ends."""
    n = 0
    if g[_LIVE] >= 0:
        seat = _next(cfg, g[_PLAYER])
        while seat != g[_DISCARDER]:
            if cfg[_ELIGIBLE] == 0 or _buy_mode(g, cfg, w, seat) > 0:
                g[_Q + n] = seat
                n += 1
            seat = _next(cfg, seat)
    if n > 0:
        g[_PHASE] = _OFFER
        g[_ACTOR] = g[_Q]
        g[_QHEAD] = 0
        g[_QLEN] = n
        g[_PENDING] = pending
        return False
    return _settle_offers(g, cfg, w, pending)


@uncounted()
def _buy(g: Any, cfg: Any, w: Any) -> Any:
    """:func:`.turn.buy`: the actor takes the live discard; True when the hand ends."""
    seat = g[_ACTOR]
    f = g[_LIVE]
    mode = _buy_mode(g, cfg, w, seat)
    base = _RACK + seat * _FACES
    pair = _pair_kind(g, seat, f) if mode == 1 else -1
    if pair >= 0 and 15 <= f <= 17:  # the Captain laid out with his pair: held all the same
        g[base + pair] -= 2
        g[_RSIZE + seat] -= 2
        _hold_add(g, seat, f, 1)
        _new_group(g, seat, pair, 2, f)
        _lay_out(g, cfg, seat)
    else:
        _to_rack(g, seat, f, 1)
        _lay_out_gained(g, cfg, seat, f)
    g[_NPILE] -= 1
    k = _kind(f)
    if k >= 0:
        g[_SEEN + k] -= 1
    g[_LIVE] = -1
    return _after_gain(g, cfg, w, seat, f, 1 if mode == 2 else 0)


@uncounted()
def _discard(g: Any, cfg: Any, w: Any, f: Any, sell: Any) -> Any:
    """:func:`.turn.discard`: the actor discards face *f*, or sells out; True when the hand
    ends."""
    seat = g[_ACTOR]
    _to_rack(g, seat, f, -1)
    g[_PILE + g[_NPILE]] = f
    g[_NPILE] += 1
    k = _kind(f)
    if k >= 0:
        g[_SEEN + k] += 1
    if sell:
        g[_SELLER] = seat
        return True
    return _begin_turn(g, cfg, w, _next(cfg, seat), f, seat)


@uncounted()
def apply_code(g: Any, cfg: Any, w: Any, code: Any) -> Any:
    """Play the seat's action *code* (legal) in state *g*; True when the hand ends (then
    :func:`end_hand` is due)."""
    kind = code >> 7
    card = code & 127
    phase = g[_PHASE]
    if kind == _K_BUY:
        return _buy(g, cfg, w)
    if kind == _K_DRAW or kind == _K_DECLINE:
        if phase == _TURN:
            return _offer(g, cfg, w, 1 if kind == _K_DRAW else 0)
        g[_QHEAD] += 1
        g[_QLEN] -= 1
        if g[_QLEN] > 0:
            g[_ACTOR] = g[_Q + g[_QHEAD]]
            return False
        return _settle_offers(g, cfg, w, g[_PENDING])
    return _discard(g, cfg, w, _face(card), kind == _K_SELL)


# -- the legal actions ------------------------------------------------------------------------


@uncounted(inline="always")
def _discardable(g: Any, w: Any, seat: Any) -> Any:
    """The faces *seat* may discard (:func:`.choices.discardable`: his rack's, but not the
    face just bought unless it is all he has), in order, into ``w[_W_DISC...]``; their
    number."""
    base = np.uint64(_RACK + seat * _FACES)  # unsigned: no wrap-around of a negative index
    bought = g[_BOUGHT]
    n = 0
    kept = False
    for f in range(_FACES):  # without a branch on what the rack holds
        held = g[base + np.uint64(f)] > 0
        w[np.uint64(_W_DISC + n)] = f
        n += held
        kept |= held and f != bought
    if bought < 0 or not kept:
        return n
    m = 0
    for i in range(n):
        if w[_W_DISC + i] != bought:
            w[_W_DISC + m] = w[_W_DISC + i]
            m += 1
    return m


@uncounted()
def legal(g: Any, cfg: Any, w: Any) -> Any:
    """The legal actions of the seat to act, as :func:`.choices.legal_actions` orders them,
    into ``w[_W_LEGAL...]``; their number."""
    phase = g[_PHASE]
    seat = g[_ACTOR]
    out = _W_LEGAL
    if phase == _TURN:
        w[out] = _code(_K_DECLINE if _empty(g) else _K_DRAW, -1)
        n = 1
        if _buy_mode(g, cfg, w, seat) > 0:
            w[out + 1] = _code(_K_BUY, -1)
            n = 2
        return n
    if phase == _OFFER:
        n = 0
        if _buy_mode(g, cfg, w, seat) > 0:
            w[out] = _code(_K_BUY, -1)
            n = 1
        w[out + n] = _code(_K_DECLINE, -1)
        return n + 1
    n = 0
    faces = _discardable(g, w, seat)
    if g[_MUST] == 0:
        for i in range(faces):
            w[out + n] = _code(_K_DISCARD, w[_W_DISC + i])
            n += 1
    if _may_complete_held(g, seat, -1):
        _hold_copy(g, seat, w, _W_CNT)
        cap4 = cfg[_CAP4] == 1
        for i in range(faces):
            f = w[_W_DISC + i]
            _add(w, _W_CNT, f, -1)
            if _complete(w, _W_CNT, cap4):
                w[out + n] = _code(_K_SELL, f)
                n += 1
            _add(w, _W_CNT, f, 1)
    if n == 0:  # bound to sell out only while he can (decision #32): the discards
        for i in range(faces):
            w[out + n] = _code(_K_DISCARD, w[_W_DISC + i])
            n += 1
    return n


# -- a hand ---------------------------------------------------------------------------------


@uncounted()
def clear_hand(g: Any) -> None:
    """Empty the racks, the layouts, the pile and the supply (a hand to deal)."""
    for i in range(_RACK, _TOT):
        g[i] = 0
    for i in range(_PILE, _HSC):
        g[i] = 0
    for i in range(_HOLD, _HOLD + _SEATS * _HW):
        g[i] = 0
    for i in (_NPILE, _QHEAD, _QLEN, _CUR, _PENDING, _MUST, _TURNS):
        g[i] = 0
    for i in (_LIVE, _DISCARDER, _BOUGHT, _SELLER):
        g[i] = -1
    for i in range(_GC, _GC + _SEATS * _MAXG):
        g[i] = -1


@uncounted()
def deal_hands(g: Any, cfg: Any, w: Any) -> Any:
    """:func:`.deal.deal_hands` once the supply is placed (``_SUP``, each base whole): eight
    cards each from Base 1 on, the layouts from the Retailer on; the Retailer's turn begins.
    Returns True when the hand ends at once (it never does: the supply is full)."""
    p = cfg[_P]
    step = cfg[_STEP]
    retailer = g[_RETAILER]
    for b in range(4):
        g[_TOP + b] = 0
        g[_BOT + b] = 20
    base = 0
    for _ in range(8):
        for i in range(p):
            seat = (retailer + step * (i + 1) + 2 * p) % p
            while g[_TOP + base] >= g[_BOT + base]:
                base += 1
            f = g[_SUP + base * 20 + g[_TOP + base]]
            g[_TOP + base] += 1
            _to_rack(g, seat, f, 1)
    g[_CUR] = base if g[_TOP + base] < g[_BOT + base] else base + 1
    for i in range(p):
        _lay_out(g, cfg, (retailer + step * i + 2 * p) % p)
    g[_SELLER] = -1
    g[_TURNS] = 0
    return _begin_turn(g, cfg, w, retailer, -1, -1)


@uncounted()
def base_numbers(g: Any, cfg: Any) -> None:
    """Each seat's Supply Base number from the Retailer on (two players sit as 1 and 3)."""
    p = cfg[_P]
    for i in range(p):
        number = i + 1 if p > 2 else 2 * i + 1
        g[_BN + (g[_RETAILER] + cfg[_STEP] * i + 2 * p) % p] = number


@uncounted()
def end_hand(g: Any, cfg: Any, w: Any) -> None:
    """:func:`.settle.end_hand`: every holding scored into ``_HSC`` and added to the totals;
    the next hand is to start, or the game is over."""
    for seat in range(cfg[_P]):
        _hold_copy(g, seat, w, _W_CNT)
        pts = _score(g, cfg, w, seat, _W_CNT)
        g[_HSC + seat] = pts
        g[_TOT + seat] += pts
    if g[_HAND] >= cfg[_HANDS]:
        g[_PHASE] = _OVER
    else:
        g[_HAND] += 1
        g[_PHASE] = _START
