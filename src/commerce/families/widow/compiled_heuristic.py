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
    _K_DONE,
    _K_EXCH,
    _K_PASS,
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


_QSCALE: Final = 2.0 ** 40
"""The blind sums' unit: a strength counts as a whole multiple of ``2**-40`` (rounded)."""
_MODEL_ERR: Final = 1e-12
"""How far a blind value worked out from the sums (:func:`_blind_estimate`) may lie from the
one :func:`_blind_value` adds up: at most ``2**-41`` from the rounding of each strength to
the unit, and ``(n - 1) * 2**-53`` from the rounding of a sum of *n* strengths (each at most
1) taken in any order, ``n`` at most 1,326 (the pairs of 52 cards): 6.1e-13 in all."""


@uncounted(inline="always")
def _units(s: Any) -> Any:
    """A strength (0 to 1) in whole units of :data:`_QSCALE` (rounded to the nearest)."""
    return np.int64(s * _QSCALE + 0.5)


_HANDS: Final = 22100
"""Three-card hands of 52 cards: a hand's slot in :func:`_values`' table is its index among
them (:func:`_slot`); the table holds every hand's worth, then every hand's strength (two
runs of one number a hand, so that a decision, which reads one of them, reads half the
table's memory)."""
_SUMS: Final = 2 * _HANDS
"""Where the blind sums begin in :func:`_values`' table."""


_CHOOSE3: Final = np.array([h * (h - 1) * (h - 2) // 6 for h in range(52)], np.int64)
"""``C(h, 3)`` for the cards *h* (a constant of the compiled code: no division per hand)."""
_CHOOSE2: Final = np.array([m * (m - 1) // 2 for m in range(52)], np.int64)
"""``C(m, 2)`` for the cards *m*."""


@uncounted(inline="always")
def _slot(a: Any, b: Any, c: Any) -> Any:
    """Hand ``{a, b, c}``'s (three cards below 52, in any order) slot in the table of
    :func:`_values`: its index in the combinatorial number system (its worth there, its
    strength ``_HANDS`` further). The indices are cast to ``np.uint64``: numba wraps a
    signed index that might be negative, three instructions a lookup."""
    lo = min(a, min(b, c))
    hi = max(a, max(b, c))
    return _CHOOSE3[np.uint64(hi)] + _CHOOSE2[np.uint64(a + b + c - lo - hi)] + lo


@numba.njit(cache=True, nogil=True)
def _values(pack_cards: Any, rank3: Any, strength: Any) -> Any:
    """The heuristic's table of hands (cards below 52), small enough to stay in the cache.

    For each hand, at :func:`_slot`: its worth while more turns may follow (its strength and
    half its promise: :func:`.heuristic.hand_value`, summed in the same order), and
    :data:`_HANDS` further its strength (``strength[rank3[a, b, c]]``). From :data:`_SUMS`
    on, the blind sums (in :func:`_units`, whole numbers held exactly), ``52 * a + b`` past
    it: the strengths of ``(a, b, y)`` summed over the pack's other cards *y*, and at
    ``a == b`` those of ``(a, x, y)`` over the pairs of the pack without *a*."""
    n = pack_cards.shape[0]
    v = np.full(_SUMS + 52 * 52, -1.0)
    for i in range(n):
        a = pack_cards[i]
        whole = 0
        for j in range(n):
            b = pack_cards[j]
            if i == j:
                continue
            t = 0
            for k in range(n):
                y = pack_cards[k]
                if y != a and y != b:
                    t += _units(strength[rank3[a, b, y]])
            v[_SUMS + 52 * a + b] = t
            whole += t
        v[_SUMS + 53 * a] = whole // 2  # each pair counted once from each of its cards
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
                at = _slot(a, b, c)
                v[at] = here + PROMISE_WEIGHT * (total / count - here)
                v[_HANDS + at] = here
    return v


_PLANE: Final = 52 * 52
"""The step of a triple's first card in :func:`rank_cubes`' table (its second steps 52)."""
_CUBE: Final = 52 * _PLANE
"""Entries of one run of :func:`rank_cubes`' table: one for each ordered triple of cards."""
FREE: Final = 7
"""The length of the turn choice's scratch (``free``, :func:`_turn_choice`): the cards that
may go in its first three, then :data:`_KEPT`."""
_KEPT: Final = 3
"""``free[_KEPT]`` is 1 where the turn choice exchanged towards a target that beat every other
hand by a rank, kept in the next three (see :func:`_turn_choice`)."""
_NEAR: Final = 1e-9
"""The heuristic's margin: a hand worth more than another by no more than this is not
preferred to it (:func:`.heuristic.best_target`)."""


def _ranks(values: Any) -> Any:
    """Each of *values*' rank (0 the lowest) as the heuristic compares them: values within
    :data:`_NEAR` of each other share a rank, and a higher rank is worth more by more than
    the margin. ``None`` if the values do not fall into such groups (two groups closer than
    twice the margin, or a group wider than half of it)."""
    levels = np.unique(values)
    gaps = np.diff(levels)
    if np.any((gaps > _NEAR / 2) & (gaps <= 2 * _NEAR)):
        return None
    group = np.concatenate(([0], np.cumsum(gaps > _NEAR)))
    lowest = np.full(group[-1] + 1, np.inf)
    np.minimum.at(lowest, group, levels)
    highest = np.full(group[-1] + 1, -np.inf)
    np.maximum.at(highest, group, levels)
    if np.any(highest - lowest > _NEAR / 2):
        return None
    return group[np.searchsorted(levels, values)]


def rank_cubes(pack_cards: Any, vtab: Any) -> Any:
    """The turn choice's table (``int16``): at ``a * 2704 + b * 52 + c`` (:data:`_PLANE`),
    for the cards *a*, *b*, *c* of the pack in any order, the rank (:func:`_ranks`) of the
    hand's worth while more turns may follow (:func:`_values`), and :data:`_CUBE` further
    the rank of its strength; -1 elsewhere. A candidate beats the best so far
    (``v > best + 1e-9``) exactly when its rank is higher, so the choice compares small whole
    numbers, found without sorting the cards. ``None`` where the values do not rank (no
    ruleset's)."""
    import itertools

    combos = np.array(list(itertools.combinations(sorted(int(c) for c in pack_cards), 3)),
                      np.int64)
    a, b, c = combos[:, 0], combos[:, 1], combos[:, 2]
    slots = _CHOOSE3[c] + _CHOOSE2[b] + a
    out = np.full(2 * _CUBE, -1, np.int16)
    for at, values in enumerate((vtab[slots], vtab[_HANDS + slots])):
        rank = _ranks(values)
        if rank is None:
            return None
        for x, y, z in itertools.permutations((a, b, c)):
            out[at * _CUBE + x * _PLANE + y * 52 + z] = rank
    return out


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
def _pair_sums3(a0: Any, a1: Any, a2: Any, rest: Any, n_rest: Any, rank3: Any,
                strength: Any) -> Any:
    """The strengths of ``(a, x, y)`` summed over the pairs of *rest* (in
    ``combinations(rest, 2)``'s order, as :func:`_blind_value` sums them) for three cards
    *a* at once: three independent sums, each added in the same order as alone."""
    t0 = 0.0
    t1 = 0.0
    t2 = 0.0
    for i in range(n_rest):
        x = rest[i]
        for j in range(i + 1, n_rest):
            y = rest[j]
            t0 += strength[rank3[a0, x, y]]
            t1 += strength[rank3[a1, x, y]]
            t2 += strength[rank3[a2, x, y]]
    return t0, t1, t2


@uncounted()
def _blind_exact(st: Any, cfg: Any, hands: Any, widow: Any, moved: Any, pack_cards: Any,
                 rank3: Any, strength: Any, takes: Any, rest: Any, buf: Any) -> Any:
    """The heuristic's blind exchange (:func:`.heuristic._blind`), as an action code, every
    value added up as the heuristic adds it."""
    dealer = st[_DEALER]
    n_taken = st[_SWAPS]
    w = st[_WLEN]
    seen = 0  # the widow and the cards taken, as a bit mask
    for i in range(w):
        seen |= 1 << widow[i]
    for i in range(n_taken):
        seen |= 1 << hands[dealer * 4 + i]
    n_rest = 0
    for i in range(pack_cards.shape[0]):
        c = pack_cards[i]
        if (seen >> c) & 1 == 0:
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
    # one card taken to none held: a sum over the pairs of the rest each, three at a time
    pairs = n_rest * (n_rest - 1) / 2
    v0, v1, v2, v3, v4 = 0.0, 0.0, 0.0, 0.0, 0.0
    if n_taken == 0:
        last = takes[n_av - 1]
        t0, t1, t2 = _pair_sums3(takes[0], takes[1] if n_av > 1 else last,
                                 takes[2] if n_av > 2 else last, rest, n_rest, rank3, strength)
        v0, v1, v2 = t0 / pairs, t1 / pairs, t2 / pairs
        if n_av > 3:
            t0, t1, t2 = _pair_sums3(takes[3], takes[4] if n_av > 4 else last, last, rest,
                                     n_rest, rank3, strength)
            v3, v4 = t0 / pairs, t1 / pairs
    for j in range(1, min(room, n_av) + 1):
        # combinations(avail, j) in itertools' order
        for x in range(n_av):
            if j == 1:
                if n_taken == 0:
                    v = v0 if x == 0 else (v1 if x == 1 else (v2 if x == 2 else (
                        v3 if x == 3 else v4)))
                else:
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
def _blind_estimate(buf: Any, k: Any, seen: Any, n_seen: Any, n_rest: Any, rank3: Any,
                    strength: Any, sums: Any) -> Any:
    """``(value, error)``: :func:`_blind_value` of the *k* cards of *buf* (none of them in
    *rest*, the pack less the *n_seen* cards of *seen*), worked out from the blind sums of
    :func:`_values` (*sums*) less the sums over the cards seen, and how far the value
    :func:`_blind_value` adds up may lie from it (0 where it is the same number)."""
    if k == 0:
        return 0.5, 0.0
    a = buf[0]
    if k == 3:
        return sums[_HANDS + _slot(a, buf[1], buf[2])], 0.0
    if k == 2:
        b = buf[1]
        t = np.int64(sums[_SUMS + 52 * a + b])
        for i in range(n_seen):
            x = seen[i]
            if x != a and x != b:
                t -= _units(sums[_HANDS + _slot(a, b, x)])
        return t / _QSCALE / n_rest, _MODEL_ERR
    t = np.int64(sums[_SUMS + 53 * a])
    for i in range(n_seen):
        x = seen[i]
        if x == a:
            continue
        t -= np.int64(sums[_SUMS + 52 * a + x])
        for j in range(i + 1, n_seen):
            y = seen[j]
            if y != a:
                t += _units(sums[_HANDS + _slot(a, x, y)])
    return t / _QSCALE / (n_rest * (n_rest - 1) / 2), _MODEL_ERR


@uncounted(inline="always")
def _beats(v: Any, err: Any, best_value: Any, best_err: Any) -> Any:
    """1 if ``v > best_value + 1e-9`` holds of the values added up as the heuristic adds
    them, which lie within *err* and *best_err* of *v* and *best_value*; 0 if it fails; -1
    if too close to tell."""
    margin = v - (best_value + 1e-9)
    tolerance = err + best_err + 1e-15
    if margin > tolerance:
        return 1
    if margin < -tolerance:
        return 0
    return -1


@uncounted(inline="always")
def _blind_choice(st: Any, cfg: Any, hands: Any, widow: Any, moved: Any, pack_cards: Any,
                  rank3: Any, strength: Any, takes: Any, rest: Any, buf: Any,
                  sums: Any = None) -> Any:
    """The heuristic's blind exchange (:func:`.heuristic._blind`), as an action code.

    With *sums* (the table :func:`_values` makes) each value of a card or two taken comes
    from the pack's sums less the cards seen (:func:`_blind_estimate`, a handful of lookups
    instead of a sum over every pair of unseen cards); a comparison too close to call from
    those (within their error) is settled by adding every value up as the heuristic does
    (:func:`_blind_exact`), so the choice is the heuristic's either way."""
    if sums is None:
        return _blind_exact(st, cfg, hands, widow, moved, pack_cards, rank3, strength, takes,
                            rest, buf)
    if cfg[_BLINDX] == 1:  # the whole widow or nothing: one strength
        return _blind_exact(st, cfg, hands, widow, moved, pack_cards, rank3, strength, takes,
                            rest, buf)
    dealer = st[_DEALER]
    n_taken = st[_SWAPS]
    w = st[_WLEN]
    stop = _code(_K_PASS if n_taken == 0 else _K_DONE, 63, 63, 63)
    n_av = 0
    for i in range(w):
        if not _in(moved, 0, st[_NMOVED], widow[i]):
            takes[n_av] = widow[i]
            n_av += 1
    if n_av == 0:
        return stop
    # the cards seen (the widow and the cards taken) in rest
    for i in range(w):
        rest[i] = widow[i]
    for i in range(n_taken):
        buf[i] = hands[dealer * 4 + i]
        rest[w + i] = buf[i]
    n_seen = w + n_taken
    n_rest = pack_cards.shape[0] - n_seen
    best_value, best_err = _blind_estimate(buf, n_taken, rest, n_seen, n_rest, rank3,
                                           strength, sums)
    best = -1
    room = 3 - n_taken
    for j in range(1, min(room, n_av) + 1):
        # combinations(avail, j) in itertools' order
        for x in range(n_av):
            buf[n_taken] = takes[x]
            if j == 1:
                v, err = _blind_estimate(buf, n_taken + 1, rest, n_seen, n_rest, rank3,
                                         strength, sums)
                beats = _beats(v, err, best_value, best_err)
                if beats > 0:
                    best, best_value, best_err = takes[x], v, err
                elif beats < 0:
                    return _blind_exact(st, cfg, hands, widow, moved, pack_cards, rank3,
                                        strength, takes, rest, buf)
                continue
            for y in range(x + 1, n_av):
                buf[n_taken + 1] = takes[y]
                if j == 2:
                    v, err = _blind_estimate(buf, n_taken + 2, rest, n_seen, n_rest, rank3,
                                             strength, sums)
                    beats = _beats(v, err, best_value, best_err)
                    if beats > 0:
                        best, best_value, best_err = takes[x], v, err
                    elif beats < 0:
                        return _blind_exact(st, cfg, hands, widow, moved, pack_cards, rank3,
                                            strength, takes, rest, buf)
                    continue
                for z in range(y + 1, n_av):
                    buf[2] = takes[z]
                    v, err = _blind_estimate(buf, 3, rest, n_seen, n_rest, rank3, strength,
                                             sums)
                    beats = _beats(v, err, best_value, best_err)
                    if beats > 0:
                        best, best_value, best_err = takes[x], v, err
                    elif beats < 0:
                        return _blind_exact(st, cfg, hands, widow, moved, pack_cards, rank3,
                                            strength, takes, rest, buf)
    if best < 0:
        return stop
    return _code(_K_EXCH, best, 63, 63)


@uncounted(inline="always")
def _worth(a: Any, b: Any, c: Any, at: Any, vtab: Any) -> Any:
    """The worth of hand ``{a, b, c}`` from :func:`_values`' table: its worth while more
    turns may follow (*at* 0) or its strength (*at* 1)."""
    return vtab[np.uint64(at * _HANDS + _slot(a, b, c))]


@uncounted(inline="always")
def _best_target(phase: Any, swaps: Any, in_final: Any, max_exchange: Any, h0: Any, h1: Any,
                 h2: Any, rtab: Any, gives: Any, ng: Any, takes: Any, nt: Any,
                 free: Any) -> Any:
    """:func:`.heuristic.best_target` on the ranks of :func:`rank_cubes`: ``(t0, t1, t2,
    unique)``, the hand the seat holding *h0*, *h1*, *h2* should aim for by exchanging some
    of its *gives* for some of the widow's *takes* (the hand held where none is worth more by
    the heuristic's margin), and whether it is worth more than every other hand within reach
    (the cards that may go written into ``free[:3]``)."""
    limit = min(max_exchange, 3)
    if phase == _MORE:
        limit -= swaps
    limit = max(limit, 1)
    at = 0 if in_final == 0 and phase != _FINAL else 1  # worth, or strength
    # the hand as held, the cards that may go (free) in its order
    nf = 0
    fixed0, fixed1 = -1, -1
    n_fixed = 0
    may_go = np.int64(0)  # the gives as bits (cards below 52)
    for i in range(ng):
        may_go |= np.int64(1) << gives[i]
    for c in (h0, h1, h2):
        if (may_go >> c) & 1 != 0:
            free[nf] = c
            nf += 1
        else:
            if n_fixed == 0:
                fixed0 = c
            else:
                fixed1 = c
            n_fixed += 1
    t0, t1, t2 = h0, h1, h2
    off = np.uint64(at * _CUBE)
    best = rtab[off + np.uint64(h0 * _PLANE + h1 * 52 + h2)]
    second = -1  # the best rank of the others (a unique best: above it)
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
            if r >= 1:
                if n_fixed == 0:
                    base0 = k0
                else:
                    base1 = k0
            if r == 2:
                base1 = k1
            # a higher rank is worth more by more than the margin (rank_cubes)
            if j == 1:
                ab = off + np.uint64(base0 * _PLANE + base1 * 52)
                for x in range(nt):
                    tx = takes[x]
                    v = rtab[ab + np.uint64(tx)]
                    second = max(second, min(v, best))
                    if v > best:
                        t0, t1, t2 = base0, base1, tx
                        best = v
            elif j == 2:
                a0 = off + np.uint64(base0 * _PLANE)
                for x in range(nt):
                    tx = takes[x]
                    ax = a0 + np.uint64(tx * 52)
                    for y in range(x + 1, nt):
                        ty = takes[y]
                        v = rtab[ax + np.uint64(ty)]
                        second = max(second, min(v, best))
                        if v > best:
                            t0, t1, t2 = base0, tx, ty
                            best = v
            else:
                for x in range(nt):
                    tx = takes[x]
                    ax = off + np.uint64(tx * _PLANE)
                    for y in range(x + 1, nt):
                        ty = takes[y]
                        ay = ax + np.uint64(ty * 52)
                        for z in range(y + 1, nt):
                            tz = takes[z]
                            v = rtab[ay + np.uint64(tz)]
                            second = max(second, min(v, best))
                            if v > best:
                                t0, t1, t2 = tx, ty, tz
                                best = v
    return t0, t1, t2, best > second


@uncounted()
def _turn_choice(phase: Any, swaps: Any, in_final: Any, max_exchange: Any, n_held: Any,
                 h0: Any, h1: Any, h2: Any, vtab: Any, rtab: Any, boldness: Any, head1: Any,
                 gives: Any, ng: Any, takes: Any, nt: Any, free: Any, follow: Any) -> Any:
    """The heuristic's choice in a turn, a final turn or after an exchange
    (:func:`.heuristic.widow_action`), as an action code, for a seat holding *n_held* cards,
    *h0*, *h1*, *h2* as held (when three), *swaps* exchanges made this turn, *in_final* 1
    in the final round, *max_exchange* the rules' limit. *gives* and *takes* are the cards
    the seat may exchange (sorted), *head1* the knock or stand it may make (-1: none);
    *vtab* the strengths (:func:`_values`), *rtab* the ranks of the worths
    (:func:`rank_cubes`). *free* is scratch (:data:`FREE` long): its first three hold the
    cards that may go, and where the choice is an exchange towards a target that beat every
    other by a rank, ``free[_KEPT]`` is set to 1 and the target kept after it; *follow* 1
    says the call before was that (the seat's last decision, in the same turn), so a
    decision after the exchange takes the same target without the search (the caller
    clears ``free[_KEPT]`` at every other step).
    Scalars and four arrays: the call is made at every heuristic decision, and each array
    argument is passed as several words."""
    first = _code(_K_DONE if phase == _MORE else _K_PASS, 63, 63, 63)
    stop = _code(head1, 63, 63, 63) if head1 >= 0 else first
    if n_held != 3:
        return stop
    if head1 >= 0 and vtab[_HANDS + _slot(h0, h1, h2)] >= 1.0 - 0.04 * (1.0 - boldness):
        return stop
    if ng * nt > 0:
        if follow == 1 and phase == _MORE:
            # after an exchange towards a target that beat every other hand by a rank: the
            # hands within reach now are some of those, the target among them, so it is the
            # best again
            t0, t1, t2, unique = free[_KEPT + 1], free[_KEPT + 2], free[_KEPT + 3], True
        else:
            t0, t1, t2, unique = _best_target(phase, swaps, in_final, max_exchange, h0, h1,
                                              h2, rtab, gives, ng, takes, nt, free)
        give, take = -1, -1
        for c in (h0, h1, h2):
            if give < 0 and c != t0 and c != t1 and c != t2:
                give = c
        for c in (t0, t1, t2):
            if take < 0 and c != h0 and c != h1 and c != h2:
                take = c
        if give >= 0 and take >= 0:
            if unique:  # the follow-up decision need not search
                free[_KEPT], free[_KEPT + 1], free[_KEPT + 2], free[_KEPT + 3] = 1, t0, t1, t2
            return _code(_K_EXCH, give, take, 63)
    return stop


