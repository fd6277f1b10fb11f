"""Cox's compiled rules, continued: the Supply Bases (drawing a replacement), laying out
(:mod:`.layout`) and buying the live discard (:func:`.choices.buy_mode`), over the state
and the holdings of :mod:`.compiled_rules`; the turn's steps (:mod:`.compiled_turn`) and the
heuristic call them."""

from __future__ import annotations

from typing import Any

from commerce.families.cox.compiled_rules import (
    _BOT,
    _CAP4,
    _DISCARDER,
    _FACES,
    _GB,
    _GC,
    _GK,
    _GN,
    _GREEN0,
    _GSZ,
    _LAST,
    _LAST_NO,
    _LAST_SELL_OUT,
    _LIVE,
    _MAXG,
    _NG,
    _RACK,
    _RSIZE,
    _SKIP,
    _SUP,
    _TOP,
    _W_CNT,
    _add,
    _complete,
    _hold_copy,
    _kind,
    _may_complete_held,
    _rack_kind,
    _to_rack,
)
from commerce.kernelkit import uncounted

# -- the supply and laying out ----------------------------------------------------------------


@uncounted()
def _empty(g: Any) -> Any:
    """Whether every Supply Base is drawn out."""
    for b in range(4):
        if g[_TOP + b] < g[_BOT + b]:
            return False
    return True


@uncounted()
def _replacement(g: Any, cfg: Any, seat: Any) -> None:
    """:func:`.layout.take_replacement`: the bottom card of Base 4 (or the fallback)."""
    index = 3
    if g[_TOP + 3] >= g[_BOT + 3]:
        if cfg[_SKIP] == 1:
            return
        index = -1
        for b in range(4):
            if g[_TOP + b] < g[_BOT + b]:
                index = b
        if index < 0:
            return
    g[_BOT + index] -= 1
    _to_rack(g, seat, g[_SUP + index * 20 + g[_BOT + index]], 1)


@uncounted()
def _new_group(g: Any, seat: Any, k: Any, naturals: Any, captain: Any) -> None:
    i = seat * _MAXG + g[_NG + seat]
    g[_GK + i] = k
    g[_GN + i] = naturals
    g[_GC + i] = captain
    g[_GSZ + i] = naturals + (1 if captain >= 0 else 0)
    g[_NG + seat] += 1


@uncounted()
def _lay_out(g: Any, cfg: Any, seat: Any) -> None:
    """:func:`.layout.lay_out`: Greenbacks (replaced), then a fourth (replaced), then a three,
    until nothing is left to lay out."""
    base = _RACK + seat * _FACES
    while True:
        notes = 0
        for f in range(_GREEN0, _FACES):
            if g[base + f] > 0:
                g[base + f] = 0
                g[_GB + seat * 4 + f - _GREEN0] = 1
                notes += 1
        if notes > 0:
            g[_RSIZE + seat] -= notes
            for _ in range(notes):
                _replacement(g, cfg, seat)
            continue
        fourth = False
        for i in range(g[_NG + seat]):
            at = seat * _MAXG + i
            if g[_GSZ + at] != 3 or (g[_GN + at] < 3 and cfg[_CAP4] == 0):
                continue
            k = g[_GK + at]
            f = -1
            if k < 15:
                if g[base + k] > 0:
                    f = k
            else:
                for x in range(19 + (k - 15) * 4, 23 + (k - 15) * 4):
                    if f < 0 and g[base + x] > 0:
                        f = x
            if f < 0:
                continue
            g[base + f] -= 1
            g[_RSIZE + seat] -= 1
            g[_GN + at] += 1
            g[_GSZ + at] = 4
            _replacement(g, cfg, seat)
            fourth = True
            break
        if fourth:
            continue
        three = -1
        for k in range(18):
            if three < 0 and _rack_kind(g, seat, k) >= 3:
                three = k
        if three < 0:
            return
        if three < 15:
            g[base + three] -= 3
        else:
            left = 3
            for x in range(19 + (three - 15) * 4, 23 + (three - 15) * 4):
                if left > 0 and g[base + x] > 0:
                    g[base + x] -= 1
                    left -= 1
        g[_RSIZE + seat] -= 3
        _new_group(g, seat, three, 3, -1)


@uncounted(inline="always")
def _lay_out_gained(g: Any, cfg: Any, seat: Any, f: Any) -> None:
    """:func:`_lay_out` once face *f* has joined *seat*'s rack, which held nothing to lay out
    before (every gain is laid out at once): only a Greenback, a third card of a kind or a
    fourth for a three of his can start it, so the rest of the rack is not searched."""
    k = _kind(f)
    if k < 0:  # a wild card is laid out only with a pair it is bought to
        return
    if k == 18 or _rack_kind(g, seat, k) >= 3:
        _lay_out(g, cfg, seat)
        return
    for i in range(g[_NG + seat]):
        at = seat * _MAXG + i
        if g[_GK + at] == k and g[_GSZ + at] == 3 and (g[_GN + at] == 3 or cfg[_CAP4] == 1):
            _lay_out(g, cfg, seat)
            return


# -- buying ---------------------------------------------------------------------------------


@uncounted(inline="always")
def _pair_kind(g: Any, seat: Any, f: Any) -> Any:
    """:func:`.choices.pair_kind`: the kind *seat*'s rack holds two like face *f* of, or -1."""
    if 15 <= f <= 17:
        s = f - 15
        for k in range(s * 5 + 4, s * 5 - 1, -1):
            if g[_RACK + seat * _FACES + k] >= 2:
                return k
        return -1
    k = _kind(f)
    if 0 <= k < 18 and _rack_kind(g, seat, k) >= 2:
        return k
    return -1


@uncounted(inline="always")
def _sells_with(g: Any, cfg: Any, w: Any, seat: Any, f: Any, at: Any) -> Any:
    """Whether face *f* added to *seat*'s holding completes it once some other face of his rack
    is let go (the waiting-hand test of :func:`.choices.buy_mode`, and the heuristic's
    :func:`.heuristic._buy_sells_out`); the holding is built at *at*."""
    if not _may_complete_held(g, seat, f):
        return False
    _hold_copy(g, seat, w, at)
    _add(w, at, f, 1)
    cap4 = cfg[_CAP4] == 1
    base = _RACK + seat * _FACES
    for x in range(_FACES):
        if g[base + x] == 0 or x == f:
            continue
        _add(w, at, x, -1)
        ok = _complete(w, at, cap4)
        _add(w, at, x, 1)
        if ok:
            return True
    return False


@uncounted()
def _buy_mode(g: Any, cfg: Any, w: Any, seat: Any) -> Any:
    """:func:`.choices.buy_mode`: 1 (two like it), 2 (it completes his hand: sell out at once)
    or 0 (he may not buy the live discard)."""
    f = g[_LIVE]
    if f < 0 or seat == g[_DISCARDER]:
        return 0
    empty = _empty(g)
    last = cfg[_LAST]
    if empty and last == _LAST_NO:
        return 0
    if not (empty and last == _LAST_SELL_OUT) and _pair_kind(g, seat, f) >= 0:
        return 1
    return 2 if _sells_with(g, cfg, w, seat, f, _W_CNT) else 0
