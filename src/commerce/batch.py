"""Batched hand evaluation with numpy: dense ranks for arrays of millions of hands.

This is the one module of the rules library that needs numpy; nothing in the rules core
imports it. The ranks are exactly :attr:`commerce.hands.Evaluator.rank_of`'s (the tests
check every hand of both packs under several rulesets).

Layout. Each ruleset gets a flat ``int16`` table indexed by a hand's *code*
``a | b << 8 | c << 16`` (its three card numbers as the low three bytes of a little-endian
``uint32``, in any order); entries that are not a hand of the pack hold ``-1``. A
C-contiguous ``(N, 3)`` ``uint8`` array of hands already holds those bytes: read with a
stride of three bytes as ``uint32``, hand *i* is its code plus the first card of hand *i+1*
in the top byte, so one mask and one :func:`numpy.take` per chunk evaluate it without
copying the cards. The table has ``0x333334`` entries (6.7 MB), but only about 350 kB of it
is ever touched, so the lookups stay in cache.

>>> import numpy as np
>>> from commerce.rules import find_ruleset
>>> from commerce.cards import parse_cards
>>> from commerce.hands import evaluate
>>> peel = find_ruleset("peel")
>>> hands = np.array([parse_cards("AS 2S 3S"), parse_cards("KD 8C 8H")], dtype=np.uint8)
>>> ranks = evaluate_batch(hands, peel)
>>> ranks.tolist() == [evaluate(h, peel).rank for h in hands.tolist()]
True
>>> evaluate_packed(pack_hands(hands), peel).tolist() == ranks.tolist()
True
"""

from __future__ import annotations

from typing import Final, TypeAlias

import numpy as np
import numpy.typing as npt

from commerce.errors import NotationError
from commerce.hands import Evaluator, evaluator_for
from commerce.rules import Ruleset

TABLE_SIZE: Final = 0x333334
"""Entries of a rank table: one past the largest code of three cards below 52."""
MAX_CODE: Final = TABLE_SIZE - 1
"""The largest code of a hand: cards 51, 51, 51 (not itself a hand)."""
CHUNK: Final = 1 << 17
"""Hands per chunk (64K-256K measured fastest: the temporaries stay in cache)."""

_MASK: Final = np.uint32(0xFFFFFF)

Ranks: TypeAlias = npt.NDArray[np.int16]
"""Dense ranks of hands (``int16``; ``-1``: not a hand of the pack)."""
_TABLES: dict[int, tuple[Evaluator, Ranks]] = {}


def rank_table(rules: Ruleset) -> Ranks:
    """The ``int16`` rank table of *rules* (read-only, cached), indexed by hand code.

    ``rank_table(rules)[a | b << 8 | c << 16]`` is the dense rank of the hand of cards *a*,
    *b*, *c* in any order, or ``-1`` if they are not three different cards of the pack.
    Four-card hands (pounce) are not in it; use :meth:`commerce.hands.Evaluator.value`.
    """
    ev = evaluator_for(rules)
    hit = _TABLES.get(id(ev))
    if hit is not None and hit[0] is ev:
        return hit[1]
    hands = [h for h in ev.sorted_ranks if len(h) == 3]
    cards = np.array(hands, dtype=np.int64)
    ranks = np.array([ev.sorted_ranks[h] for h in hands], dtype=np.int16)
    table = np.full(TABLE_SIZE, -1, dtype=np.int16)
    for i, j, k in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        table[cards[:, i] | cards[:, j] << 8 | cards[:, k] << 16] = ranks
    table.setflags(write=False)
    if len(_TABLES) > 64:
        _TABLES.clear()
    _TABLES[id(ev)] = (ev, table)  # the entry keeps *ev* alive, so its id stays unique
    return table


def pack_hands(hands: npt.ArrayLike) -> npt.NDArray[np.uint32]:
    """Codes (``uint32``, ``a | b << 8 | c << 16``) of an ``(N, 3)`` array of card numbers.

    Packing once and evaluating with :func:`evaluate_packed` is the fastest layout when the
    same hands are evaluated under several rulesets.

    :raises NotationError: if *hands* is not ``(N, 3)`` or holds a number outside 0-51.
    """
    h = _as_hand_array(hands)
    h32 = h.astype(np.uint32)
    out: npt.NDArray[np.uint32] = (h32[:, 0] | h32[:, 1] << np.uint32(8)
                                   | h32[:, 2] << np.uint32(16))
    return out


def evaluate_packed(codes: npt.ArrayLike, rules: Ruleset, *, out: Ranks | None = None,
                    check: bool = True) -> Ranks:
    """Dense ranks (``int16``) of hands given by their codes (see :func:`pack_hands`).

    :param out: optional ``int16`` array of the same length to write the ranks into.
    :param check: verify that every code is a hand of the pack (one more pass over the codes
        and one over the ranks). Unchecked, a code that is not a hand gives ``-1`` or, outside
        0..:data:`MAX_CODE`, an arbitrary rank.
    :raises NotationError: (when checking) for a code that is not a hand of the pack.
    """
    table = rank_table(rules)
    c = np.asarray(codes)
    if c.ndim != 1 or (c.size and c.dtype.kind not in "ui"):
        raise NotationError("hand codes must be a one-dimensional integer array")
    n = c.shape[0]
    out = _out_array(out, n)
    tmp = np.empty(min(CHUNK, n), dtype=np.intp)
    for start in range(0, n, CHUNK):
        stop = min(start + CHUNK, n)
        part = c[start:stop]
        if check and (int(part.max()) > MAX_CODE or int(part.min()) < 0):
            raise NotationError("a hand code is outside 0..0x333333")
        idx = tmp[: stop - start]
        np.copyto(idx, part, casting="unsafe")
        np.take(table, idx, out=out[start:stop], mode="wrap")
        if check:
            _check_ranks(out[start:stop], start, rules)
    return out


def evaluate_batch(hands: npt.ArrayLike, rules: Ruleset, *, out: Ranks | None = None,
                   check: bool = True) -> Ranks:
    """Dense ranks (``int16``, shape ``(N,)``) of an ``(N, 3)`` array of hands.

    Each row holds three card numbers (0-51) in any order. A C-contiguous ``uint8`` array is
    evaluated in place, chunk by chunk, with no copy; any other integer array is converted
    first. The ranks equal :attr:`commerce.hands.Evaluator.rank_of` of each row.

    :param out: optional ``int16`` array of shape ``(N,)`` to write the ranks into.
    :param check: verify that every row is three different cards of the ruleset's pack (one
        more pass over the cards and one over the ranks); unchecked, a row that is not a hand
        gives ``-1``, or an arbitrary rank if it holds a number above 51.
    :raises NotationError: for an array that is not ``(N, 3)``, or (when checking) a row that
        is not a hand of the pack.
    """
    table = rank_table(rules)
    h = _as_hand_array(hands)
    n = h.shape[0]
    out = _out_array(out, n)
    if n == 0:
        return out
    flat = h.reshape(-1)
    tmp = np.empty(min(CHUNK, n), dtype=np.intp)
    # Every hand but the last is read as a uint32 whose top byte is the next hand's first card.
    for start in range(0, n - 1, CHUNK):
        stop = min(start + CHUNK, n - 1)
        if check and int(h[start:stop].max()) > 51:
            raise NotationError("a card number is outside 0-51")
        idx = tmp[: stop - start]
        words = np.ndarray(idx.shape, dtype="<u4", buffer=flat, offset=3 * start, strides=(3,))
        np.bitwise_and(words, _MASK, out=idx, casting="unsafe")
        np.take(table, idx, out=out[start:stop], mode="wrap")
        if check:
            _check_ranks(out[start:stop], start, rules)
    a, b, c = (int(x) for x in h[n - 1])
    if max(a, b, c) > 51:
        raise NotationError("a card number is outside 0-51")
    out[n - 1] = table[a | b << 8 | c << 16]
    if check:
        _check_ranks(out[n - 1:], n - 1, rules)
    return out


def _out_array(out: Ranks | None, n: int) -> Ranks:
    if out is None:
        return np.empty(n, dtype=np.int16)
    if out.shape != (n,) or out.dtype != np.int16:
        raise ValueError("out must be an int16 array of shape (N,)")
    return out


def _as_hand_array(hands: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """*hands* as a C-contiguous ``(N, 3)`` ``uint8`` array (no copy when it already is)."""
    h = np.asarray(hands)
    if h.ndim != 2 or h.shape[1] != 3 or (h.size and h.dtype.kind not in "ui"):
        raise NotationError(f"hands must be an (N, 3) integer array, not shape {h.shape}")
    if h.dtype != np.uint8:
        if h.size and (int(h.min()) < 0 or int(h.max()) > 51):
            raise NotationError("a card number is outside 0-51")
        h = h.astype(np.uint8)
    return np.ascontiguousarray(h)


def _check_ranks(ranks: Ranks, offset: int, rules: Ruleset) -> None:
    if ranks.size and int(ranks.min()) < 0:
        bad = offset + int(np.flatnonzero(ranks < 0)[0])
        raise NotationError(
            f"row {bad} is not three different cards of the {rules.pack}-card pack"
        )
