"""Cox's heuristic compiled: the twin of :func:`.heuristic.cox_heuristic` for the kernel
(:mod:`.kernel`), reading only what the seat's observation holds: its rack, every seat's
laid-out combinations, its Greenbacks and base number, the discard pile and the live
discard. Its sums are the Python heuristic's, term for term in the same order, so that the
same cards compare equal; where the Python heuristic breaks a tie among equally useless
discards with its RNG, this one draws one of them uniformly from the seat's stream. The
differential test holds the two equal decision for decision.
"""

from __future__ import annotations

from typing import Any

from commerce.families.cox.compiled_rules import (
    _ACTOR,
    _DISCARD,
    _FACES,
    _GK,
    _GN,
    _HOLD,
    _HW,
    _K_BUY,
    _K_DECLINE,
    _K_DISCARD,
    _K_DRAW,
    _K_SELL,
    _LIVE,
    _MAXG,
    _NG,
    _P,
    _PHASE,
    _RACK,
    _SEEN,
    _TURN,
    _W_CNT2,
    _W_DISC,
    _W_KC,
    _W_LEGAL,
    _W_OUTS,
    _W_SEEN,
    _W_TIES,
    _add,
    _code,
    _face,
    _hold_copy,
    _kind,
    _rack_kind,
    _score,
)
from commerce.families.cox.compiled_supply import (
    _buy_mode,
    _empty,
    _sells_with,
)
from commerce.families.cox.compiled_turn import legal
from commerce.kernelkit import next_below, uncounted


@uncounted(inline="always")
def _rack_weight(g: Any, base: Any, s: Any, extra: Any) -> Any:
    """The rack's part of suit *s*'s weight in :func:`choose_suit`, in half points: per
    number held 1 (4 for two or more), 1.5 more per card of the five up to two, and 3 for
    the suit's Captain (face *extra* counted in)."""
    t = 0
    for j in range(5):
        k = s * 5 + j
        n = g[base + k] + (extra == k)
        t += (n > 0) * (2 + 6 * (n >= 2)) + (3 * min(n, 2) if j == 4 else 0)
    return t + 6 * (g[base + 15 + s] > 0 or extra == 15 + s)


@uncounted()
def choose_suit(g: Any, seat: Any, extra: Any) -> Any:
    """:func:`.heuristic.choose_suit` of *seat*'s rack (with face *extra* added, unless -1)
    and his laid-out combinations: the suit 0-2, or -1 when the combinations are of two
    suits. Its weights are sums of halves, so they are counted exactly in half points."""
    laid = 0
    w0 = 0
    w1 = 0
    w2 = 0
    for i in range(g[_NG + seat]):
        k = g[_GK + seat * _MAXG + i]
        if k < 15:
            laid |= 1 << (k // 5)
            add = 20 + (8 if k % 5 == 4 else 0)  # 10 a combination, 4 more of fives
            if k < 5:
                w0 += add
            elif k < 10:
                w1 += add
            else:
                w2 += add
    if laid == 3 or laid == 5 or laid == 6 or laid == 7:
        return -1
    base = _RACK + seat * _FACES
    w0 += _rack_weight(g, base, 0, extra)
    w1 += _rack_weight(g, base, 1, extra)
    w2 += _rack_weight(g, base, 2, extra)
    best = 0
    top = w0
    if w1 > top:
        best = 1
        top = w1
    if w2 > top:
        best = 2
    return best


@uncounted()
def wants_to_buy(g: Any, cfg: Any, w: Any, seat: Any, f: Any) -> Any:
    """:func:`.heuristic.wants_to_buy` of the live discard, face *f*."""
    if _sells_with(g, cfg, w, seat, f, _W_CNT2):
        return True
    if 15 <= f <= 17:
        s = f - 15
        pair = False
        for k in range(s * 5, s * 5 + 5):
            if g[_RACK + seat * _FACES + k] >= 2:
                pair = True
        if not pair:
            return False
        suit = choose_suit(g, seat, f)
        return suit < 0 or suit == s
    k = _kind(f)
    if not 0 <= k < 18 or _rack_kind(g, seat, k) < 2:
        return False
    if k >= 15:
        return True
    suit = choose_suit(g, seat, f)
    return suit < 0 or suit == k // 5


@uncounted(inline="always")
def _value(f: Any, w: Any, suit: Any, captains: Any) -> Any:
    """:func:`.heuristic.card_value` of face *f* plus its danger (:func:`.heuristic.
    rank_discards`' badness), the counts and outs in the scratch."""
    if f == 18:
        return 1000.0
    if 15 <= f <= 17:
        return 500.0 + (10.0 if suit < 0 or f - 15 == suit else 0.0)
    k = _kind(f)
    n = w[_W_KC + k]
    o = w[_W_OUTS + k]
    danger = 0.3 if o >= 2 else 0.0
    if k >= 15:
        value = 8.0 + 0.5 * o if n >= 2 else 1.0 + 0.6 * o
        return value + danger
    five = k % 5 == 4
    if not (suit < 0 or k // 5 == suit):
        value = -1.0 + 0.2 * o if n >= 2 else -2.0
        return value + danger
    if n >= 2:
        wild = 2.0 if captains & (1 << (k // 5)) != 0 else 0.0
        value = 6.0 + (2.0 if five else 0.0) + 1.0 * o + wild
        return value + danger
    value = 1.0 + 0.5 * o + (0.5 if five else 0.0)
    return value + danger


@uncounted(inline="always")
def _rank(g: Any, cfg: Any, w: Any, seat: Any, n: Any, state: Any) -> Any:
    """The discard :func:`.heuristic.rank_discards` puts first among the *n* discards of the
    legal actions (those of the faces at ``w[_W_DISC...]``, in that order, as
    :func:`.compiled_turn.legal` lists them), equal ones drawn from *state*: ``(state,
    code)``."""
    suit = choose_suit(g, seat, -1)
    base = _RACK + seat * _FACES
    for k in range(18):
        w[_W_KC + k] = _rack_kind(g, seat, k)
        w[_W_SEEN + k] = g[_SEEN + k]
    for q in range(cfg[_P]):
        if q != seat:
            for i in range(g[_NG + q]):
                at = q * _MAXG + i
                w[_W_SEEN + g[_GK + at]] += g[_GN + at]
    mine = _HOLD + seat * _HW  # his rack and laid-out cards by kind
    for k in range(18):
        w[_W_OUTS + k] = max(0, 4 - g[mine + k] - w[_W_SEEN + k])
    captains = 0
    for s in range(3):
        if g[base + 15 + s] > 0:
            captains |= 1 << s
    low = 0.0
    ties = 0
    for i in range(n):
        f = w[_W_DISC + i]
        v = _value(f, w, suit, captains)
        if ties == 0 or v < low:
            low = v
            ties = 0
        elif v != low:
            continue
        w[_W_TIES + ties] = f
        ties += 1
    pick = 0
    if ties > 1:
        state, pick = next_below(state, ties)
    return state, _code(_K_DISCARD, w[_W_TIES + pick])


@uncounted()
def heuristic_choice(g: Any, cfg: Any, w: Any, state: Any) -> Any:
    """:func:`.heuristic.cox_heuristic`'s choice for the seat to act: ``(state, code)``, the
    random *state* drawn from only to break a tie among discards."""
    seat = g[_ACTOR]
    if g[_PHASE] != _DISCARD:
        # buy where it wants the live discard and may buy it (the wish asked first: it is
        # the rarer and the cheaper to refuse); else draw, or decline, whichever
        # :func:`.compiled_turn.legal` lists (a turn lists one of the two, an offer declines)
        if (g[_LIVE] >= 0 and wants_to_buy(g, cfg, w, seat, g[_LIVE])
                and _buy_mode(g, cfg, w, seat) > 0):
            return state, _code(_K_BUY, -1)
        draws = g[_PHASE] == _TURN and not _empty(g)
        return state, _code(_K_DRAW if draws else _K_DECLINE, -1)
    n = legal(g, cfg, w)
    best = -1
    top = 0
    discards = 0
    for i in range(n):
        code = w[_W_LEGAL + i]
        kind = code >> 7
        if kind == _K_DISCARD:
            discards += 1
        elif kind == _K_SELL:
            f = _face(code & 127)
            _hold_copy(g, seat, w, _W_CNT2)
            _add(w, _W_CNT2, f, -1)
            pts = _score(g, cfg, w, seat, _W_CNT2)
            if best < 0 or pts > top:
                best = code
                top = pts
    if best >= 0:
        return state, best
    if discards == 0:
        state, j = next_below(state, n)
        return state, w[_W_LEGAL + j]
    return _rank(g, cfg, w, seat, discards, state)
