"""The widow family's compiled kernel: whole sessions of the five widow presets in numba.

The same rules as the reference (:mod:`.start`, :mod:`.deal`, :mod:`.turn`, :mod:`.settle`),
step for step, over small integer arrays: every scalar of the state (phase, actor, round,
pool ...) in one slot array, the hands as rows of four card numbers (a pounced four sorted),
the widow kept in card order, the stock an array drawn from by swapping out, and per-seat
flags (locked, passed, stood, pounced). Hand strength comes from the reference evaluator's
tables (:mod:`commerce.hands`), copied once per ruleset.

Policies: ``random`` (uniform over the legal actions, enumerated as
:func:`.rules.legal_actions` does). The widow heuristic has no compiled twin yet: a line-up
with a heuristic or search bot runs on the reference engine. Every game draws from its own
stream (:mod:`commerce.kernelkit`).

Every option of the family is played except: an unlimited deal with no round limit
(``max_rounds_per_deal=0``), and ``pounce`` with ``no_qualifier_rule='fallback_full_ranking'``
(the reference's fallback ranking has no four of a kind); :func:`build` refuses those with a
message naming them. A session the options leave uncapped (tokens, ``deals=0``) records the
results of its first :data:`DEAL_CAP` deals per row; its payoffs are always whole.

Actions are recorded as ``kind * 2**18 + c1 * 2**12 + c2 * 2**6 + c3`` (:data:`KINDS`,
:data:`NO_CARD` for an unused card), decoded by :func:`decode_action`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from itertools import permutations
from typing import Any, Final

import numba
import numpy as np

from commerce.cards import pack
from commerce.core import Action, ActionKind
from commerce.errors import RulesetError
from commerce.hands import Category, evaluator_for
from commerce.kernelkit import NO_CARD, RANDOM, master_key, next_below, stream_start
from commerce.rules import Ruleset

KINDS: Final[tuple[ActionKind, ...]] = (
    ActionKind.DEAL, ActionKind.PASS, ActionKind.DONE, ActionKind.KNOCK, ActionKind.STAND,
    ActionKind.EXCHANGE, ActionKind.POUNCE, ActionKind.DECLINE, ActionKind.BUY_HORSE,
)
"""Action kinds by the code in the high bits of a recorded action."""
_K_DEAL, _K_PASS, _K_DONE, _K_KNOCK, _K_STAND, _K_EXCH, _K_POUNCE, _K_DECLINE, _K_HORSE = (
    range(9))

DEAL_CAP: Final = 64
"""Deals whose results a row keeps when the options set no number of deals."""

# Phases (:class:`.state.Phase`) and resumes (:class:`.state.Resume`).
_DEAL, _BLIND, _TURN, _MORE, _FINAL, _CARD, _POUNCE, _HORSE, _OVER = range(9)
_R_MORE, _R_NEXT, _R_FIRST = 0, 1, 2
# Seat flags.
_LOCKED, _PASSED, _STOOD, _POUNCED = 1, 2, 4, 8

# Configuration slots.
(_P, _STEP, _WSIZE, _MAXEX, _PASSLOCK, _ALL3, _END, _ADDCARD, _BLINDX, _FLOW, _TOKENS,
 _DEALS, _DEALS_EACH, _ENTRY, _PRIZE, _HORSEOK, _HPRICE, _BEST, _WORST, _NPP, _NOQUAL,
 _POUNCEOK, _PINIT, _PAFTER, _ROUNDS, _NONECAT) = range(26)
# State slots.
(_PHASE, _ACTOR, _SEAT, _POS, _ROUND, _INFINAL, _SWAPS, _RESUME, _OFFER, _KNOCKER, _FHEAD,
 _FLEN, _QHEAD, _QLEN, _WLEN, _SLEN, _M, _DEALER, _DEALNO, _POOL, _PCOUNT, _HORSES, _HOPEN,
 _OHEAD, _OLEN, _NMOVED, _NSTOOD, _TURNS, _STANDER) = range(29)

SUPPORTED: Final[frozenset[str]] = frozenset({
    "ranking", "ace_low_sequence", "ace_low_sequence_rank", "allow_wraparound",
    "flush_compare", "pair_kicker", "void_rank", "four_of_a_kind", "best_tie_rule",
    "max_rounds_per_deal", "deals_each", "widow_size", "max_exchange_per_turn",
    "pass_locks_out", "exchange_all_three_locks", "end_condition", "add_widow_card_each_round",
    "dealer_blind_exchange", "token_flow", "starting_tokens", "deals", "pool_entry",
    "deal_prize", "buy_a_horse", "horse_price", "worst_tie_rule", "no_qualifier_rule",
    "pounce", "pounce_on_initial_widow", "pounce_after_pass",
})
"""The family options the kernel plays (every value of each)."""


def encode_action_py(kind: ActionKind, cards: tuple[int, ...] = ()) -> int:
    """The code of an action of *kind* naming up to three *cards*."""
    c = [*cards, NO_CARD, NO_CARD, NO_CARD]
    return KINDS.index(kind) * 2 ** 18 + c[0] * 2 ** 12 + c[1] * 2 ** 6 + c[2]


def decode_action(code: int) -> Action:
    """The action a recorded code stands for.

    >>> decode_action(encode_action_py(ActionKind.EXCHANGE, (5, 40)))
    Action(kind=<ActionKind.EXCHANGE: 'exchange'>, cards=(5, 40))
    """
    code = int(code)
    cards = tuple(c for c in ((code >> 12) & 63, (code >> 6) & 63, code & 63) if c != NO_CARD)
    return Action(KINDS[code >> 18], cards)


@numba.njit(cache=True, nogil=True, inline="always")
def _code(kind: Any, c1: Any, c2: Any, c3: Any) -> Any:
    return kind * 262144 + c1 * 4096 + c2 * 64 + c3


@numba.njit(cache=True, nogil=True)
def _insort(widow: Any, st: Any, card: Any) -> None:
    """Put *card* into the widow, kept in card order."""
    i = st[_WLEN]
    while i > 0 and widow[i - 1] > card:
        widow[i] = widow[i - 1]
        i -= 1
    widow[i] = card
    st[_WLEN] += 1


@numba.njit(cache=True, nogil=True)
def _take(widow: Any, st: Any, card: Any) -> None:
    """Take *card* out of the widow."""
    n = st[_WLEN]
    i = 0
    while widow[i] != card:
        i += 1
    for j in range(i, n - 1):
        widow[j] = widow[j + 1]
    st[_WLEN] = n - 1


@numba.njit(cache=True, nogil=True)
def _in(arr: Any, head: Any, n: Any, card: Any) -> Any:
    for i in range(head, head + n):
        if arr[i] == card:
            return True
    return False


@numba.njit(cache=True, nogil=True)
def _holder(st: Any, cfg: Any, hands: Any, hlen: Any, order: Any, flags: Any, moved: Any,
            card: Any, exclude: Any) -> Any:
    """The seat that may pounce on *card* (:func:`.turn.pounce_holder`), or -1."""
    rank = card >> 2
    for i in range(st[_M]):
        seat = order[i]
        b = seat * 4
        if hlen[seat] == 3 and hands[b] >> 2 == rank and hands[b + 1] >> 2 == rank \
                and hands[b + 2] >> 2 == rank:
            if seat == exclude or (seat == st[_SEAT] and _in(moved, 0, st[_NMOVED], card)):
                return -1
            if cfg[_PAFTER] == 0 and flags[seat] & (_PASSED | _STOOD) != 0:
                return -1
            return seat
    return -1


@numba.njit(cache=True, nogil=True)
def _next_turn(st: Any, cfg: Any, order: Any, flags: Any, final: Any) -> Any:
    """:func:`.turn.next_turn`: True when the deal ends (the showdown is due)."""
    if st[_INFINAL] == 1:
        while st[_FLEN] > 0:
            seat = final[st[_FHEAD]]
            st[_FHEAD] += 1
            st[_FLEN] -= 1
            if flags[seat] & _LOCKED == 0:
                st[_PHASE] = _FINAL
                st[_ACTOR] = seat
                st[_SEAT] = seat
                st[_SWAPS] = 0
                st[_NMOVED] = 0
                st[_TURNS] += 1
                return False
        return True
    m = st[_M]
    every = True
    for i in range(m):
        if flags[order[i]] & _LOCKED == 0:
            every = False
    if every:
        return True
    pos = st[_POS] + 1
    rnd = st[_ROUND]
    while True:
        if pos >= m:
            rnd += 1
            pos = 0
            if cfg[_END] == 0 and rnd > m:
                return True
            if cfg[_ROUNDS] > 0 and rnd > cfg[_ROUNDS]:
                return True
            if cfg[_ADDCARD] == 1 and st[_SLEN] > 0:
                st[_PHASE] = _CARD
                st[_ROUND] = rnd
                st[_POS] = -1
                st[_RESUME] = _R_FIRST
                st[_SWAPS] = 0
                st[_NMOVED] = 0
                return False
        seat = order[pos]
        if flags[seat] & _LOCKED == 0:
            st[_PHASE] = _TURN
            st[_ACTOR] = seat
            st[_SEAT] = seat
            st[_POS] = pos
            st[_ROUND] = rnd
            st[_SWAPS] = 0
            st[_NMOVED] = 0
            st[_TURNS] += 1
            return False
        pos += 1


@numba.njit(cache=True, nogil=True)
def _proceed(st: Any, cfg: Any, hands: Any, hlen: Any, order: Any, flags: Any, moved: Any,
             fresh: Any, widow: Any, final: Any) -> Any:
    """:func:`.turn.proceed`: offer the fresh widow cards for a pounce, then go on; True when
    the deal ends."""
    while st[_QLEN] > 0:
        card = fresh[st[_QHEAD]]
        st[_QHEAD] += 1
        st[_QLEN] -= 1
        if not _in(widow, 0, st[_WLEN], card):
            continue
        holder = _holder(st, cfg, hands, hlen, order, flags, moved, card, -1)
        if holder >= 0:
            st[_PHASE] = _POUNCE
            st[_ACTOR] = holder
            st[_OFFER] = card
            return False
    st[_QHEAD] = 0
    st[_QLEN] = 0
    if st[_RESUME] == _R_MORE:
        st[_PHASE] = _MORE
        st[_ACTOR] = st[_SEAT]
        return False
    if st[_RESUME] == _R_FIRST:
        st[_POS] = -1
    return _next_turn(st, cfg, order, flags, final)


@numba.njit(cache=True, nogil=True)
def _fresh_add(st: Any, fresh: Any, card: Any) -> None:
    fresh[st[_QHEAD] + st[_QLEN]] = card
    st[_QLEN] += 1


@numba.njit(cache=True, nogil=True)
def _start_deal(st: Any, cfg: Any, dealer: Any, order: Any, flags: Any, hlen: Any,
                out_in: Any, stock: Any, pack_cards: Any) -> None:
    """:func:`.start.start_deal`."""
    p = cfg[_P]
    m = 0
    s = dealer
    for _ in range(p):
        s = (s + cfg[_STEP]) % p
        if out_in[s] == 0:
            order[m] = s
            m += 1
    for s in range(p):
        flags[s] = 0
        hlen[s] = 0
    n_pack = pack_cards.shape[0]
    for i in range(n_pack):
        stock[i] = pack_cards[i]
    st[_M] = m
    st[_DEALER] = dealer
    st[_DEALNO] += 1
    st[_WLEN] = 0
    st[_SLEN] = n_pack
    st[_KNOCKER] = -1
    st[_NSTOOD] = 0
    st[_PHASE] = _DEAL
    st[_ACTOR] = dealer
    st[_SEAT] = dealer
    st[_POS] = -1
    st[_ROUND] = 0
    st[_FHEAD] = 0
    st[_FLEN] = 0
    st[_INFINAL] = 0
    st[_SWAPS] = 0
    st[_NMOVED] = 0
    st[_RESUME] = _R_FIRST
    st[_QHEAD] = 0
    st[_QLEN] = 0
    st[_OFFER] = -1
    st[_TURNS] = 0
    st[_STANDER] = -1


@numba.njit(cache=True, nogil=True, inline="always")
def _rank(hands: Any, hlen: Any, seat: Any, rank3: Any, rank4: Any) -> Any:
    b = seat * 4
    if hlen[seat] == 4:
        return rank4[hands[b] >> 2]
    return rank3[hands[b], hands[b + 1], hands[b + 2]]


@numba.njit(cache=True, nogil=True)
def _final_turns(st: Any, order: Any, flags: Any, final: Any, seat: Any) -> None:
    """:func:`.turn.final_turns` (the flags as they are now) into *final*."""
    m = st[_M]
    i = 0
    while order[i] != seat:
        i += 1
    n = 0
    for k in range(1, m):
        x = order[(i + k) % m]
        if flags[x] & _LOCKED == 0:
            final[n] = x
            n += 1
    st[_FHEAD] = 0
    st[_FLEN] = n
    st[_INFINAL] = 1


@numba.njit(cache=True, nogil=True)
def _play_game(row: Any, rng: Any, cfg: Any, pack_cards: Any, rank3: Any, rank4: Any,
               cat_code: Any, frank3: Any, policies: Any, payoffs: Any, deals_won: Any,
               decisions: Any, dealers: Any, standers: Any, categories: Any, deal_turns: Any,
               actions: Any, action_counts: Any, st: Any, hands: Any, hlen: Any,
               widow: Any, stock: Any, order: Any, flags: Any, final: Any, moved: Any,
               fresh: Any, tokens: Any, balances: Any, out_in: Any, won: Any,
               offers: Any, ranks: Any, scoring: Any, gives: Any, takes: Any) -> None:
    p = cfg[_P]
    cap = actions.shape[1]
    record = cap > 0
    n_caps = standers.shape[1]
    pos = 0
    count = 0
    state = rng
    flow = cfg[_FLOW]
    tracked = flow != 2
    entry = cfg[_ENTRY] if flow == 1 else 0
    for s in range(p):
        tokens[s] = cfg[_TOKENS] if tracked else 0
        balances[s] = -entry
        out_in[s] = 0
        won[s] = 0
    st[_DEALNO] = 0
    st[_POOL] = entry * p
    st[_PCOUNT] = 0
    st[_HORSES] = 0
    st[_HOPEN] = 1
    st[_OLEN] = 0
    st[_OHEAD] = 0
    state, dealer = next_below(state, p)
    dealers[row] = dealer
    _start_deal(st, cfg, dealer, order, flags, hlen, out_in, stock, pack_cards)
    while st[_PHASE] != _OVER:
        phase = st[_PHASE]
        showdown = False
        if phase == _DEAL:
            m = st[_M]
            cut = 3 * m
            for k in range(cut + cfg[_WSIZE]):
                state, j = next_below(state, st[_SLEN])
                card = stock[j]
                st[_SLEN] -= 1
                stock[j] = stock[st[_SLEN]]
                if k < cut:
                    seat = order[k % m]
                    hands[seat * 4 + hlen[seat]] = card
                    hlen[seat] += 1
                else:
                    _insort(widow, st, card)
                if record and pos < cap:
                    actions[row, pos] = _code(_K_DEAL, card, 63, 63)
                pos += 1
            if cfg[_POUNCEOK] == 1 and cfg[_PINIT] == 1:
                for i in range(st[_WLEN]):
                    _fresh_add(st, fresh, widow[i])
            st[_ROUND] = 1
            st[_POS] = -1
            st[_RESUME] = _R_FIRST
            if cfg[_BLINDX] != 2:
                st[_PHASE] = _BLIND
                st[_ACTOR] = st[_DEALER]
                st[_SEAT] = st[_DEALER]
            else:
                showdown = _proceed(st, cfg, hands, hlen, order, flags, moved, fresh, widow,
                                    final)
        elif phase == _CARD:
            state, j = next_below(state, st[_SLEN])
            card = stock[j]
            st[_SLEN] -= 1
            stock[j] = stock[st[_SLEN]]
            _insort(widow, st, card)
            if record and pos < cap:
                actions[row, pos] = _code(_K_DEAL, card, 63, 63)
            pos += 1
            if cfg[_POUNCEOK] == 1:
                _fresh_add(st, fresh, card)
            showdown = _proceed(st, cfg, hands, hlen, order, flags, moved, fresh, widow, final)
        else:
            count += 1
            actor = st[_ACTOR]
            code = -1
            if phase == _POUNCE or phase == _HORSE:
                state, j = next_below(state, 2)
                if phase == _POUNCE:
                    code = _code(_K_POUNCE, st[_OFFER], 63, 63) if j == 0 else \
                        _code(_K_DECLINE, 63, 63, 63)
                else:
                    code = _code(_K_HORSE if j == 0 else _K_DECLINE, 63, 63, 63)
            elif phase == _BLIND:
                if cfg[_BLINDX] == 1:
                    state, j = next_below(state, 2)
                    code = _code(_K_PASS, 63, 63, 63) if j == 0 else \
                        _code(_K_EXCH, widow[0], widow[1], widow[2])
                else:
                    nt = 0
                    for i in range(st[_WLEN]):
                        if not _in(moved, 0, st[_NMOVED], widow[i]):
                            takes[nt] = widow[i]
                            nt += 1
                    state, j = next_below(state, 1 + nt)
                    if j == 0:
                        code = _code(_K_PASS if st[_SWAPS] == 0 else _K_DONE, 63, 63, 63)
                    else:
                        code = _code(_K_EXCH, takes[j - 1], 63, 63)
            else:
                head0 = _K_DONE if phase == _MORE else _K_PASS
                head1 = -1
                if phase == _TURN:
                    if cfg[_END] == 1 and st[_KNOCKER] < 0:
                        head1 = _K_KNOCK
                    elif cfg[_END] == 2:
                        head1 = _K_STAND
                nh = 1 if head1 < 0 else 2
                ng, nt = 0, 0
                if flags[actor] & _POUNCED == 0:
                    for i in range(hlen[actor]):
                        c = hands[actor * 4 + i]
                        if not _in(moved, 0, st[_NMOVED], c):
                            gives[ng] = c
                            ng += 1
                    for i in range(st[_WLEN]):
                        if not _in(moved, 0, st[_NMOVED], widow[i]):
                            takes[nt] = widow[i]
                            nt += 1
                state, j = next_below(state, nh + ng * nt)
                if j == 0:
                    code = _code(head0, 63, 63, 63)
                elif j < nh:
                    code = _code(head1, 63, 63, 63)
                else:
                    j -= nh
                    code = _code(_K_EXCH, gives[j // nt], takes[j % nt], 63)
            if record and pos < cap:
                actions[row, pos] = code
            pos += 1
            kind = code >> 18
            c1 = (code >> 12) & 63
            c2 = (code >> 6) & 63
            if phase == _BLIND:
                dealer = st[_DEALER]
                b = dealer * 4
                end = True
                if kind == _K_EXCH and cfg[_BLINDX] == 1:
                    # the whole widow for the whole hand, unseen
                    for i in range(3):
                        gives[i] = hands[b + i]
                        hands[b + i] = widow[i]
                    st[_WLEN] = 0
                    for i in range(3):
                        _insort(widow, st, gives[i])
                    flags[dealer] |= _LOCKED
                    if cfg[_POUNCEOK] == 1:
                        for i in range(3):
                            _fresh_add(st, fresh, widow[i])
                    st[_SWAPS] = 3
                elif kind == _K_EXCH:
                    i = st[_SWAPS]
                    give = hands[b + i]
                    hands[b + i] = c1
                    _take(widow, st, c1)
                    _insort(widow, st, give)
                    swaps = i + 1
                    st[_SWAPS] = swaps
                    moved[st[_NMOVED]] = give
                    st[_NMOVED] += 1
                    if cfg[_POUNCEOK] == 1:
                        _fresh_add(st, fresh, give)
                    end = swaps >= 3 or st[_WLEN] <= swaps
                    if swaps >= 3 and cfg[_ALL3] == 1:
                        flags[dealer] |= _LOCKED
                if end:
                    st[_SWAPS] = 0
                    st[_POS] = -1
                    st[_RESUME] = _R_FIRST
                    showdown = _proceed(st, cfg, hands, hlen, order, flags, moved, fresh,
                                        widow, final)
            elif kind == _K_EXCH:
                b = actor * 4
                i = 0
                while hands[b + i] != c1:
                    i += 1
                hands[b + i] = c2
                _take(widow, st, c2)
                _insort(widow, st, c1)
                swaps = st[_SWAPS] + 1
                st[_SWAPS] = swaps
                if swaps >= 3 and cfg[_ALL3] == 1:
                    flags[actor] |= _LOCKED
                # the holder is looked for before the cards just moved are marked moved
                holder = -1
                if cfg[_POUNCEOK] == 1:
                    holder = _holder(st, cfg, hands, hlen, order, flags, moved, c1, actor)
                moved[st[_NMOVED]] = c1
                moved[st[_NMOVED] + 1] = c2
                st[_NMOVED] += 2
                more = swaps < cfg[_MAXEX] and swaps < 3 and st[_WLEN] > swaps
                if holder >= 0:
                    st[_PHASE] = _POUNCE
                    st[_ACTOR] = holder
                    st[_OFFER] = c1
                    st[_RESUME] = _R_MORE if more else _R_NEXT
                elif more:
                    st[_PHASE] = _MORE
                else:
                    showdown = _next_turn(st, cfg, order, flags, final)
            elif kind == _K_PASS:
                if phase == _TURN and cfg[_PASSLOCK] == 1:
                    flags[actor] |= _LOCKED | _PASSED
                showdown = _next_turn(st, cfg, order, flags, final)
            elif kind == _K_DONE:
                showdown = _next_turn(st, cfg, order, flags, final)
            elif kind == _K_KNOCK:
                _final_turns(st, order, flags, final, actor)
                flags[actor] |= _LOCKED | _STOOD
                st[_KNOCKER] = actor
                st[_STANDER] = actor
                showdown = _next_turn(st, cfg, order, flags, final)
            elif kind == _K_STAND:
                flags[actor] |= _LOCKED | _STOOD
                st[_NSTOOD] += 1
                if st[_STANDER] < 0:
                    st[_STANDER] = actor
                if st[_NSTOOD] >= 2:
                    _final_turns(st, order, flags, final, actor)
                showdown = _next_turn(st, cfg, order, flags, final)
            elif kind == _K_POUNCE:
                b = actor * 4
                # the four sorted: the three held are of the card's rank
                for i in range(3):
                    gives[i] = hands[b + i]
                gives[3] = c1
                for i in range(1, 4):
                    x = gives[i]
                    k = i - 1
                    while k >= 0 and gives[k] > x:
                        gives[k + 1] = gives[k]
                        k -= 1
                    gives[k + 1] = x
                for i in range(4):
                    hands[b + i] = gives[i]
                hlen[actor] = 4
                _take(widow, st, c1)
                flags[actor] |= _POUNCED
                st[_OFFER] = -1
                if st[_SLEN] > 0:
                    st[_PHASE] = _CARD
                else:
                    showdown = _proceed(st, cfg, hands, hlen, order, flags, moved, fresh,
                                        widow, final)
            elif kind == _K_DECLINE and phase == _POUNCE:
                st[_OFFER] = -1
                showdown = _proceed(st, cfg, hands, hlen, order, flags, moved, fresh, widow,
                                    final)
            else:  # a horse bought or declined
                if kind == _K_HORSE:
                    tokens[actor] += 1
                    balances[actor] -= cfg[_HPRICE]
                    out_in[actor] = 0
                    st[_POOL] += cfg[_HPRICE]
                    st[_HORSES] += 1
                if st[_OLEN] > 0:
                    st[_ACTOR] = offers[st[_OHEAD]]
                    st[_OHEAD] += 1
                    st[_OLEN] -= 1
                else:
                    _end_of_deal(st, cfg, order, flags, hlen, out_in, stock, pack_cards,
                                 tokens, balances)
        if showdown:
            _showdown(row, st, cfg, rank3, rank4, cat_code, frank3, hands, hlen, order,
                      tokens, balances, out_in, won, offers, ranks, scoring, standers,
                      categories, deal_turns, n_caps)
            if st[_PHASE] != _HORSE:
                _end_of_deal(st, cfg, order, flags, hlen, out_in, stock, pack_cards, tokens,
                             balances)
    for i in range(p):
        payoffs[row, i] = balances[i]
        deals_won[row, i] = won[i]
    decisions[row] = count
    if record:
        action_counts[row] = pos if pos <= cap else -1


@numba.njit(cache=True, nogil=True)
def _showdown(row: Any, st: Any, cfg: Any, rank3: Any, rank4: Any, cat_code: Any,
              frank3: Any, hands: Any, hlen: Any, order: Any, tokens: Any, balances: Any,
              out_in: Any, won: Any, offers: Any, ranks: Any, scoring: Any, standers: Any,
              categories: Any, deal_turns: Any, n_caps: Any) -> None:
    """:func:`.settle.showdown`: the hands shown, the deal settled, who goes out."""
    m = st[_M]
    d = st[_DEALNO] - 1
    keep = d < n_caps
    if keep:
        standers[row, d] = st[_STANDER]
        deal_turns[row, d] = st[_TURNS]
        for s in range(cfg[_P]):
            categories[row, d, s] = -1
    qualified = False
    for i in range(m):
        x = order[i]
        r = _rank(hands, hlen, x, rank3, rank4)
        ranks[i] = r
        scoring[i] = r
        if cat_code[r] != cfg[_NONECAT]:
            qualified = True
        if keep:
            categories[row, d, x] = cat_code[r]
    nobody = False
    if cfg[_NPP] == 1 and not qualified:
        if cfg[_NOQUAL] == 0:
            nobody = True
        else:
            for i in range(m):
                b = order[i] * 4
                scoring[i] = frank3[hands[b], hands[b + 1], hands[b + 2]]
    # the winners (positions in the order), as settle.winners
    best = scoring[0]
    for i in range(m):
        best = max(best, scoring[i])
    n_top = 0
    top0, top_last = -1, -1
    for i in range(m):
        if scoring[i] == best:
            if top0 < 0:
                top0 = i
            top_last = i
            n_top += 1
    first = top0
    if cfg[_BEST] == 1 and top_last == m - 1:
        first = m - 1
    flow = cfg[_FLOW]
    if not nobody:
        if cfg[_BEST] == 2:  # all_paid: every tied best hand is paid by every other hand
            for i in range(m):
                if scoring[i] == best:
                    w = order[i]
                    won[w] += 1
                    for k in range(m):
                        if scoring[k] != best:
                            balances[order[k]] -= 1
                            balances[w] += 1
        else:
            w = order[first]
            won[w] += 1
            if flow == 2:
                for k in range(m):
                    if k != first:
                        balances[order[k]] -= 1
                        balances[w] += 1
            else:
                low = scoring[0]
                for i in range(m):
                    low = min(low, scoring[i])
                if low != best:
                    n_low, last_low = 0, -1
                    for i in range(m):
                        if scoring[i] == low:
                            n_low += 1
                            last_low = i
                    for i in range(m):
                        if scoring[i] != low:
                            continue
                        if n_low > 1 and cfg[_WORST] != 0 and (cfg[_WORST] == 2
                                                                or i != last_low):
                            continue
                        loser = order[i]
                        tokens[loser] -= 1
                        if flow == 0:
                            tokens[w] += 1
                            balances[loser] -= 1
                            balances[w] += 1
                        else:
                            st[_PCOUNT] += 1
                if flow == 1:
                    prize = min(cfg[_PRIZE], st[_POOL])
                    st[_POOL] -= prize
                    balances[w] += prize
    if flow != 2:
        n_new = 0
        for i in range(m):
            x = order[i]
            if tokens[x] == 0:
                out_in[x] = st[_DEALNO]
                offers[n_new] = x
                n_new += 1
        was_open = st[_HOPEN] == 1
        if n_new > 0:
            st[_HOPEN] = 0
            if was_open and cfg[_HORSEOK] == 1:
                st[_PHASE] = _HORSE
                st[_ACTOR] = offers[0]
                st[_OHEAD] = 1
                st[_OLEN] = n_new - 1
                st[_SWAPS] = 0
                st[_NMOVED] = 0


@numba.njit(cache=True, nogil=True)
def _end_of_deal(st: Any, cfg: Any, order: Any, flags: Any, hlen: Any, out_in: Any,
                 stock: Any, pack_cards: Any, tokens: Any, balances: Any) -> None:
    """:func:`.settle.end_of_deal`: the next deal, or the end of the session."""
    p = cfg[_P]
    flow = cfg[_FLOW]
    number = st[_DEALNO]
    length = cfg[_DEALS]
    if length == 0 and flow == 2:
        length = p * cfg[_DEALS_EACH]
    alive = 0
    for s in range(p):
        if out_in[s] == 0:
            alive += 1
    ended = (flow != 2 and alive <= 1) or (length > 0 and number >= length)
    if not ended:
        dealer = st[_DEALER]
        for i in range(1, p + 1):
            dealer = (st[_DEALER] + cfg[_STEP] * i) % p
            if out_in[dealer] == 0:
                break
        _start_deal(st, cfg, dealer, order, flags, hlen, out_in, stock, pack_cards)
        return
    if flow == 1 and st[_POOL] > 0:
        most = -1
        for s in range(p):
            if out_in[s] == 0:
                most = max(most, tokens[s])
        n_take = 0
        s = st[_DEALER]
        for _ in range(p):
            s = (s + cfg[_STEP]) % p
            if out_in[s] == 0 and tokens[s] == most:
                n_take += 1
        share, rest = st[_POOL] // n_take, st[_POOL] % n_take
        s = st[_DEALER]
        first = True
        for _ in range(p):
            s = (s + cfg[_STEP]) % p
            if out_in[s] == 0 and tokens[s] == most:
                balances[s] += share + (rest if first else 0)
                first = False
        st[_POOL] = 0
    st[_PHASE] = _OVER


@numba.njit(cache=True, nogil=True)
def play_games(key: Any, index0: Any, first: Any, stop: Any, cfg: Any, pack_cards: Any,
               rank3: Any, rank4: Any, cat_code: Any, frank3: Any, policies: Any,
               payoffs: Any, deals_won: Any, decisions: Any, dealers: Any, standers: Any,
               categories: Any, deal_turns: Any, actions: Any, action_counts: Any) -> None:
    """Play the games of rows *first* to *stop* (game ``index0 + row`` of the run's streams),
    writing each row of the result arrays."""
    p = cfg[_P]
    n_pack = pack_cards.shape[0]
    st = np.zeros(32, np.int64)
    hands = np.zeros(4 * p, np.int64)
    hlen = np.zeros(p, np.int64)
    widow = np.zeros(n_pack + 1, np.int64)
    stock = np.zeros(n_pack, np.int64)
    order = np.zeros(p, np.int64)
    flags = np.zeros(p, np.int64)
    final = np.zeros(p, np.int64)
    moved = np.zeros(8, np.int64)
    fresh = np.zeros(4 * n_pack, np.int64)
    tokens = np.zeros(p, np.int64)
    balances = np.zeros(p, np.int64)
    out_in = np.zeros(p, np.int64)
    won = np.zeros(p, np.int64)
    offers = np.zeros(p, np.int64)
    ranks = np.zeros(p, np.int64)
    scoring = np.zeros(p, np.int64)
    gives = np.zeros(4, np.int64)
    takes = np.zeros(n_pack + 1, np.int64)
    for row in range(first, stop):
        _play_game(row, stream_start(key, index0 + row), cfg, pack_cards, rank3, rank4,
                   cat_code, frank3, policies, payoffs, deals_won, decisions, dealers,
                   standers, categories, deal_turns, actions, action_counts, st, hands, hlen,
                   widow, stock, order, flags, final, moved, fresh, tokens, balances, out_in,
                   won, offers, ranks, scoring, gives, takes)


def check_supported(rules: Ruleset) -> None:
    """Refuse a ruleset the kernel would not play exactly.

    :raises RulesetError: naming the option.
    """
    if rules.family != "widow":
        raise RulesetError(f"the widow kernel plays the widow family, not {rules.family}")
    for f in fields(rules.options):
        if f.name not in SUPPORTED:
            raise RulesetError(f"the compiled kernel does not play option {f.name}="
                               f"{getattr(rules.options, f.name)!r}; use --engine reference")
    if rules.max_rounds_per_deal < 1:
        raise RulesetError("the compiled kernel does not play option max_rounds_per_deal=0 "
                           "(an unlimited deal); use --engine reference")
    if rules.pounce and rules.ranking == "no_pair_or_point" \
            and rules.no_qualifier_rule == "fallback_full_ranking":
        raise RulesetError("the compiled kernel does not play pounce with no_qualifier_rule="
                           "'fallback_full_ranking'; use --engine reference")


def _rank3(ev: Any) -> Any:
    table = np.full((52, 52, 52), -1, np.int16 if len(ev.keys) < 2 ** 15 else np.int64)
    for hand, rank in ev.sorted_ranks.items():
        if len(hand) == 3:
            for a, b, c in permutations(hand):
                table[a, b, c] = rank
    return table


@dataclass(frozen=True, slots=True, eq=False)
class WidowKernel:
    """The kernel of one widow ruleset at one table size: its tables, ready to play."""

    rules: Ruleset
    """The ruleset it plays."""
    players: int
    """Seats at the table."""
    deals: int
    """Deals whose results each row keeps."""
    max_actions: int
    """Actions a recorded row holds (a longer game records -1 as its count)."""
    cfg: Any
    pack_cards: Any
    rank3: Any
    rank4: Any
    cat_code: Any
    frank3: Any
    category_names: tuple[str, ...]
    policies: tuple[int, ...] = (RANDOM,)
    """The policy codes it plays."""
    action_dtype: Any = np.int32
    """The dtype of the recorded actions."""

    def run(self, seed: int, index0: int, first: int, stop: int, policies: Any,
            boldness: Any, out: tuple[Any, ...]) -> None:
        """Play rows *first* to *stop* into *out* (:class:`commerce.fast.BatchResult`'s
        arrays, in its order); it releases the GIL, so threads may share a batch."""
        del boldness  # no compiled heuristic yet
        play_games(np.uint64(master_key(seed)), index0, first, stop, self.cfg,
                   self.pack_cards, self.rank3, self.rank4, self.cat_code, self.frank3,
                   policies, *out)

    @staticmethod
    def decode_action(code: int) -> Action:
        """The action a recorded code stands for (:func:`decode_action`)."""
        return decode_action(code)


def build(rules: Ruleset, players: int) -> WidowKernel:
    """The kernel for *rules* at *players* seats (the family's ``kernel`` hook).

    :raises RulesetError: for an option it does not play, or a table size the ruleset refuses.
    """
    check_supported(rules)
    if players not in rules.player_range():
        raise RulesetError(f"{rules.name} is for {rules.min_players} to {rules.max_players} "
                           f"players, not {players}")
    from commerce.families.widow.settle import fallback_evaluator

    ev = evaluator_for(rules)
    rank3 = _rank3(ev)
    rank4 = np.zeros(13, np.int64)
    if rules.four_of_a_kind:
        for r in range(13):
            four = tuple(4 * r + s for s in range(4))
            if all(c in pack(rules.pack) for c in four):
                rank4[r] = ev.rank_of(four)
    every = list(Category)
    names = tuple(c.value for c in every)  # the categories results index this
    cat_code = np.array([every.index(c) for c in ev.categories], np.int64)
    frank3 = _rank3(fallback_evaluator(rules)) if (
        rules.ranking == "no_pair_or_point"
        and rules.no_qualifier_rule == "fallback_full_ranking") else rank3
    flow = ("lowest_to_best", "lowest_to_pool", "stake_from_each").index(rules.token_flow)
    cfg = np.array([
        players, 1 if rules.direction == "left" else -1, rules.widow_size,
        rules.max_exchange_per_turn, int(rules.pass_locks_out),
        int(rules.exchange_all_three_locks),
        ("rounds_eq_players", "knock_final_round", "two_stand").index(rules.end_condition),
        int(rules.add_widow_card_each_round),
        ("1_to_3", "all_or_nothing", "none").index(rules.dealer_blind_exchange), flow,
        rules.starting_tokens, rules.deals, rules.deals_each, rules.pool_entry,
        rules.deal_prize, int(rules.buy_a_horse), rules.horse_price,
        ("eldest", "dealer_as_eldest", "all_paid").index(rules.best_tie_rule),
        ("all_lose", "latest_in_rotation_loses", "none").index(rules.worst_tie_rule),
        int(rules.ranking == "no_pair_or_point"),
        ("no_transfer", "fallback_full_ranking").index(rules.no_qualifier_rule),
        int(rules.pounce), int(rules.pounce_on_initial_widow), int(rules.pounce_after_pass),
        rules.max_rounds_per_deal, every.index(Category.NONE),
    ], np.int64)
    deals = rules.deals or (players * rules.deals_each if flow == 2 else DEAL_CAP)
    return WidowKernel(rules=rules, players=players, deals=deals, max_actions=200_000,
                       cfg=cfg, pack_cards=np.array(pack(rules.pack), np.int64), rank3=rank3,
                       rank4=rank4, cat_code=cat_code, frank3=frank3,
                       category_names=names)
