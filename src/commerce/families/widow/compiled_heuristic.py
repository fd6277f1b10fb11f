"""The widow heuristic compiled: the twin of :func:`.heuristic.widow_action` for the kernel
(:mod:`.kernel`), reading only what the seat's observation holds (its hand as held, or the
cards it took blind, the widow, the cards moved this turn, whether the final turns have
begun, the decision and what it may do). The differential test holds the two equal decision
for decision.
"""

from __future__ import annotations

from typing import Any, Final

import numba
import numpy as np

from commerce.families.widow.compiled_rules import (
    _BLINDX,
    _DEALER,
    _FINAL,
    _INFINAL,
    _K_DONE,
    _K_EXCH,
    _K_PASS,
    _MAXEX,
    _MORE,
    _NMOVED,
    _SWAPS,
    _WLEN,
    _code,
    _in,
)
from commerce.kernelkit import uncounted

PROMISE_WEIGHT: Final = 0.5
"""As :data:`.heuristic.PROMISE_WEIGHT`."""


@numba.njit(cache=True, nogil=True)
def _values(pack_cards: Any, rank3: Any, strength: Any) -> Any:
    """``v[a, b, c]``: the heuristic's worth of a hand while more turns may follow (its
    strength and half its promise: :func:`.heuristic.hand_value`, summed in the same order)."""
    n = pack_cards.shape[0]
    v = np.full((52, 52, 52), -1.0)
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                a, b, c = pack_cards[i], pack_cards[j], pack_cards[k]
                here = strength[rank3[a, b, c]]
                total = 0.0
                count = 0
                for t in range(n):
                    x = pack_cards[t]
                    if x == a or x == b or x == c:
                        continue
                    best = here
                    w = strength[rank3[x, b, c]]
                    if w > best:
                        best = w
                    w = strength[rank3[a, x, c]]
                    if w > best:
                        best = w
                    w = strength[rank3[a, b, x]]
                    if w > best:
                        best = w
                    total += best
                    count += 1
                value = here + PROMISE_WEIGHT * (total / count - here)
                v[a, b, c] = v[a, c, b] = v[b, a, c] = value
                v[b, c, a] = v[c, a, b] = v[c, b, a] = value
    return v


@uncounted()
def _blind_value(taken: Any, k: Any, rest: Any, n_rest: Any, rank3: Any,
                 strength: Any) -> Any:
    """:func:`.heuristic._blind_value`: the mean strength of the *k* cards *taken* filled up
    to three with cards of *rest*."""
    if k == 0:
        return 0.5
    if k == 3:
        return strength[rank3[taken[0], taken[1], taken[2]]]
    total = 0.0
    a = taken[0]
    if k == 2:
        b = taken[1]
        for i in range(n_rest):
            total += strength[rank3[a, b, rest[i]]]
        return total / n_rest
    for i in range(n_rest):
        for j in range(i + 1, n_rest):
            total += strength[rank3[a, rest[i], rest[j]]]
    return total / (n_rest * (n_rest - 1) / 2)


@uncounted()
def _blind_choice(st: Any, cfg: Any, hands: Any, widow: Any, moved: Any, pack_cards: Any,
                  rank3: Any, strength: Any, takes: Any, rest: Any, buf: Any) -> Any:
    """The heuristic's blind exchange (:func:`.heuristic._blind`), as an action code."""
    dealer = st[_DEALER]
    n_taken = st[_SWAPS]
    w = st[_WLEN]
    n_rest = 0
    for i in range(pack_cards.shape[0]):
        c = pack_cards[i]
        if _in(widow, 0, w, c) or _in(hands, dealer * 4, n_taken, c):
            continue
        rest[n_rest] = c
        n_rest += 1
    stop = _code(_K_PASS if n_taken == 0 else _K_DONE, 63, 63, 63)
    if cfg[_BLINDX] == 1:
        if _blind_value(widow, 3, rest, n_rest, rank3, strength) > 0.55:
            return _code(_K_EXCH, widow[0], widow[1], widow[2])
        return stop
    n_av = 0
    for i in range(w):
        if not _in(moved, 0, st[_NMOVED], widow[i]):
            takes[n_av] = widow[i]
            n_av += 1
    if n_av == 0:
        return stop
    for i in range(n_taken):
        buf[i] = hands[dealer * 4 + i]
    best_value = _blind_value(buf, n_taken, rest, n_rest, rank3, strength) if n_taken \
        else 0.5
    best = -1
    room = 3 - n_taken
    for j in range(1, min(room, n_av) + 1):
        # combinations(avail, j) in itertools' order
        for x in range(n_av):
            if j == 1:
                buf[n_taken] = takes[x]
                v = _blind_value(buf, n_taken + 1, rest, n_rest, rank3, strength)
                if v > best_value + 1e-9:
                    best, best_value = takes[x], v
                continue
            for y in range(x + 1, n_av):
                if j == 2:
                    buf[n_taken] = takes[x]
                    buf[n_taken + 1] = takes[y]
                    v = _blind_value(buf, n_taken + 2, rest, n_rest, rank3, strength)
                    if v > best_value + 1e-9:
                        best, best_value = takes[x], v
                    continue
                for z in range(y + 1, n_av):
                    buf[0], buf[1], buf[2] = takes[x], takes[y], takes[z]
                    v = _blind_value(buf, 3, rest, n_rest, rank3, strength)
                    if v > best_value + 1e-9:
                        best, best_value = takes[x], v
    if best < 0:
        return stop
    return _code(_K_EXCH, best, 63, 63)


@uncounted(inline="always")
def _worth(a: Any, b: Any, c: Any, more_turns: Any, rank3: Any, strength: Any,
           vtab: Any) -> Any:
    return vtab[a, b, c] if more_turns else strength[rank3[a, b, c]]


@uncounted()
def _turn_choice(phase: Any, st: Any, cfg: Any, actor: Any, hands: Any, hlen: Any,
                 widow: Any, moved: Any, rank3: Any, strength: Any, vtab: Any,
                 boldness: Any, head1: Any, gives: Any, ng: Any, takes: Any, nt: Any,
                 free: Any) -> Any:
    """The heuristic's choice in a turn, a final turn or after an exchange
    (:func:`.heuristic.widow_action`), as an action code. *gives* and *takes* are the cards
    the seat may exchange (sorted), *head1* the knock or stand it may make (-1: none)."""
    first = _code(_K_DONE if phase == _MORE else _K_PASS, 63, 63, 63)
    stop = _code(head1, 63, 63, 63) if head1 >= 0 else first
    if hlen[actor] != 3:
        return stop
    b0 = actor * 4
    h0, h1, h2 = hands[b0], hands[b0 + 1], hands[b0 + 2]
    if head1 >= 0 and strength[rank3[h0, h1, h2]] >= 1.0 - 0.04 * (1.0 - boldness):
        return stop
    if ng * nt > 0:
        limit = min(cfg[_MAXEX], 3)
        if phase == _MORE:
            limit -= st[_SWAPS]
        limit = max(limit, 1)
        more_turns = st[_INFINAL] == 0 and phase != _FINAL
        # best_target: the hand as held, the cards that may go (free) in its order
        nf = 0
        fixed0, fixed1 = -1, -1
        n_fixed = 0
        for i in range(3):
            c = hands[b0 + i]
            if _in(gives, 0, ng, c):
                free[nf] = c
                nf += 1
            else:
                if n_fixed == 0:
                    fixed0 = c
                else:
                    fixed1 = c
                n_fixed += 1
        t0, t1, t2 = h0, h1, h2
        best_value = _worth(h0, h1, h2, more_turns, rank3, strength, vtab) + 1e-9
        for j in range(1, min(limit, nf, nt) + 1):
            r = nf - j  # cards of free kept, in combinations' order
            n_kept = 1 if r == 0 or r == nf else (nf if r == 1 or r == nf - 1 else 3)
            for q in range(n_kept):
                # base = fixed + kept (three cards at most, two here with j >= 1)
                k0, k1 = -1, -1
                if r == 1:
                    k0 = free[q]
                elif r == 2:
                    if nf == 2:
                        k0, k1 = free[0], free[1]
                    else:  # (0, 1), (0, 2), (1, 2)
                        k0 = free[0] if q < 2 else free[1]
                        k1 = free[1] if q == 0 else free[2]
                base0, base1 = fixed0, fixed1
                n_base = n_fixed
                if r >= 1:
                    if n_base == 0:
                        base0 = k0
                    else:
                        base1 = k0
                    n_base += 1
                if r == 2:
                    base1 = k1
                    n_base += 1
                if j == 1:
                    for x in range(nt):
                        v = _worth(base0, base1, takes[x], more_turns, rank3, strength, vtab)
                        if v > best_value:
                            t0, t1, t2 = base0, base1, takes[x]
                            best_value = v + 1e-9
                elif j == 2:
                    for x in range(nt):
                        for y in range(x + 1, nt):
                            v = _worth(base0, takes[x], takes[y], more_turns, rank3,
                                       strength, vtab)
                            if v > best_value:
                                t0, t1, t2 = base0, takes[x], takes[y]
                                best_value = v + 1e-9
                else:
                    for x in range(nt):
                        for y in range(x + 1, nt):
                            for z in range(y + 1, nt):
                                v = _worth(takes[x], takes[y], takes[z], more_turns, rank3,
                                           strength, vtab)
                                if v > best_value:
                                    t0, t1, t2 = takes[x], takes[y], takes[z]
                                    best_value = v + 1e-9
        give, take = -1, -1
        for i in range(3):
            c = hands[b0 + i]
            if give < 0 and c != t0 and c != t1 and c != t2:
                give = c
        for c in (t0, t1, t2):
            if take < 0 and c != h0 and c != h1 and c != h2:
                take = c
        if give >= 0 and take >= 0:
            return _code(_K_EXCH, give, take, 63)
    return stop


