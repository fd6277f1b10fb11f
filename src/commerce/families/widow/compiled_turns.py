"""The widow kernel's turn loop: :func:`_advance` plays on from a state held in small integer
arrays (as :mod:`.kernel` describes them) until the session or the deal in progress ends, or
a given decision is reached; :func:`_scratch` makes those arrays for one game at a time.

Three callers share it: the whole-session kernel (:func:`.kernel.play_games`), the search
bot's playouts (:mod:`.compiled_playouts`) and the stepped environment (:mod:`.kernel_env`).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from commerce.families.widow.compiled_heuristic import (
    _KEPT,
    FREE,
    _blind_choice,
    _turn_choice,
)
from commerce.families.widow.compiled_rules import (
    _ACTOR,
    _ALL3,
    _BLIND,
    _BLINDX,
    _CARD,
    _DEAL,
    _DEALER,
    _DEALNO,
    _END,
    _HORSE,
    _HORSES,
    _HPRICE,
    _INFINAL,
    _K_DEAL,
    _K_DECLINE,
    _K_DONE,
    _K_EXCH,
    _K_HORSE,
    _K_KNOCK,
    _K_PASS,
    _K_POUNCE,
    _K_STAND,
    _KNOCKER,
    _LOCKED,
    _M,
    _MAXEX,
    _MORE,
    _NMOVED,
    _NSTOOD,
    _OFFER,
    _OHEAD,
    _OLEN,
    _OVER,
    _PASSED,
    _PASSLOCK,
    _PHASE,
    _PINIT,
    _POOL,
    _POS,
    _POUNCE,
    _POUNCED,
    _POUNCEOK,
    _R_FIRST,
    _R_MORE,
    _R_NEXT,
    _RESUME,
    _ROUND,
    _SEAT,
    _SLEN,
    _STANDER,
    _STOOD,
    _SWAPS,
    _TURN,
    _WLEN,
    _WSIZE,
    _code,
    _end_of_deal,
    _final_turns,
    _fresh_add,
    _holder,
    _in,
    _insort,
    _next_turn,
    _proceed,
    _showdown,
    _sort,
    _take,
)
from commerce.kernelkit import (
    DEALS_PER_GROUP,
    HEURISTIC,
    chance_start,
    next_below,
    uncounted,
)

__all__ = ["PLAY_ON", "_advance", "_scratch"]

PLAY_ON = -2
"""The *root* of :func:`_advance` that has the first decision's seat choose by its policy
among its actions other than knocking or standing (``analyze stand-threshold``'s other
way)."""


@uncounted()
def _advance(row: Any, state: Any, cs: Any, key: Any, group: Any, cfg: Any, pack_cards: Any,
             rank3: Any, rank4: Any, cat_code: Any, frank3: Any, strength: Any, vtab: Any,
             rtab: Any, policies: Any, boldness: Any, standers: Any, categories: Any,
             deal_turns: Any, deal_decisions: Any, deal_winners: Any, deal_payoffs: Any,
             deal_dealers: Any, actions: Any, st: Any, hands: Any, hlen: Any, widow: Any,
             stock: Any, order: Any, flags: Any, final: Any, moved: Any, fresh: Any, tokens: Any,
             balances: Any, out_in: Any, won: Any, offers: Any, ranks: Any, scoring: Any,
             gives: Any, takes: Any, rest: Any, buf: Any, free: Any, pos: Any, count: Any,
             root: Any, one_deal: Any, pause: Any) -> Any:
    """Play on from the state in the arrays until the session ends (with *one_deal*, until
    the deal in progress ends: the next one started, or the session over): chance from the
    stream *cs* (a new deal's cards from the group's stream of that deal), the seats by their
    *policies* (the random ones drawing from *state*), the first decision by the action code
    *root* where it is not negative (:data:`PLAY_ON`: by the policy, without the knock or
    stand). Each action is recorded into ``actions[row]`` (while it
    has room), *pos* counting them and *count* the decisions, stopping at a decision once
    *count* is *pause* (-1: never). Each deal that ends writes, where its row has room, who
    took its pool (``deal_winners``), its dealer and what it paid each seat (``deal_dealers``,
    ``deal_payoffs``: :func:`.compiled_rules._showdown`) and *count* as the deal ends
    (``deal_decisions``: a running total, which :func:`_play_game` turns into each deal's
    own). Returns the two streams, *pos* and *count*."""
    cap = actions.shape[1]
    record = cap > 0
    n_caps = standers.shape[1]
    n_results = deal_decisions.shape[1]
    deal_no = st[_DEALNO]
    free[_KEPT] = 0  # no target kept from another call (see _turn_choice)
    while st[_PHASE] != _OVER:
        phase = st[_PHASE]
        follow = free[_KEPT]  # the step before kept a target for this one
        free[_KEPT] = 0
        showdown = False
        if phase == _DEAL:
            m = st[_M]
            cut = 3 * m
            cs = chance_start(key, group, (st[_DEALNO] - 1) % (DEALS_PER_GROUP - 1))
            n_stock = st[_SLEN]
            to = 0  # the place in the order of the seat dealt to (no division per card)
            for k in range(cut + cfg[_WSIZE]):
                cs, j = next_below(cs, n_stock)
                uj = np.uint64(j)
                card = stock[uj]
                n_stock -= 1
                stock[uj] = stock[np.uint64(n_stock)]
                st[_SLEN] = n_stock
                if k < cut:
                    us = np.uint64(order[np.uint64(to)])
                    to = 0 if to + 1 == m else to + 1
                    hands[np.uint64(us * np.uint64(4) + np.uint64(hlen[us]))] = card
                    hlen[us] += 1
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
            cs, j = next_below(cs, st[_SLEN])
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
            if count == pause:
                break
            count += 1
            actor = st[_ACTOR]
            code = -1
            heuristic = policies[actor] == HEURISTIC
            plain = root == PLAY_ON  # the policy's choice, the knock or stand left out
            if plain:
                root = -1
            if root >= 0:  # the action a playout starts with
                code = root
                root = -1
            elif heuristic and (phase == _POUNCE or phase == _HORSE):
                code = _code(_K_POUNCE, st[_OFFER], 63, 63) if phase == _POUNCE else \
                    _code(_K_HORSE, 63, 63, 63)
            elif heuristic and phase == _BLIND:
                code = _blind_choice(st, cfg, hands, widow, moved, pack_cards, rank3, strength,
                                     takes, rest, buf, vtab)
            elif phase == _POUNCE or phase == _HORSE:
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
                if phase == _TURN and not plain:
                    if cfg[_END] == 1 and st[_KNOCKER] < 0:
                        head1 = _K_KNOCK
                    elif cfg[_END] == 2:
                        head1 = _K_STAND
                nh = 1 if head1 < 0 else 2
                ng, nt = 0, 0
                if flags[actor] & _POUNCED == 0:
                    n_moved = st[_NMOVED]
                    ub = np.uint64(actor * 4)
                    if n_moved == 0:  # the turn's first decision: every card may move
                        ng = hlen[actor]
                        for i in range(ng):
                            gives[i] = hands[ub + np.uint64(i)]
                        nt = st[_WLEN]
                        for i in range(nt):
                            takes[i] = widow[i]
                    else:  # the cards moved this turn as bits (cards below 52)
                        gone = np.int64(0)
                        for i in range(n_moved):
                            gone |= np.int64(1) << moved[i]
                        for i in range(hlen[actor]):
                            c = hands[ub + np.uint64(i)]
                            if (gone >> c) & 1 == 0:
                                gives[ng] = c
                                ng += 1
                        for i in range(st[_WLEN]):
                            c = widow[i]
                            if (gone >> c) & 1 == 0:
                                takes[nt] = c
                                nt += 1
                if heuristic:
                    # the gives sorted, as the heuristic reads them from the legal actions
                    if ng == 3:  # by min and max: no branch on the cards
                        g0, g1, g2 = gives[0], gives[1], gives[2]
                        lo = min(g0, min(g1, g2))
                        hi = max(g0, max(g1, g2))
                        gives[0], gives[1], gives[2] = lo, g0 + g1 + g2 - lo - hi, hi
                    else:
                        _sort(gives, ng)
                    b0 = actor * 4
                    code = _turn_choice(phase, st[_SWAPS], st[_INFINAL], cfg[_MAXEX],
                                        hlen[actor], hands[b0], hands[b0 + 1], hands[b0 + 2],
                                        vtab, rtab, boldness[actor], head1, gives, ng, takes,
                                        nt, free, follow)
                else:
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
                _sort(gives, 4)
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
                    d = st[_DEALNO] - 1
                    if d < n_results:  # the decisions made up to the deal's end
                        deal_decisions[row, d] = count
                    _end_of_deal(st, cfg, order, flags, hlen, out_in, stock, pack_cards,
                                 tokens, balances)
        if showdown:
            _showdown(row, st, cfg, rank3, rank4, cat_code, frank3, hands, hlen, order,
                      tokens, balances, out_in, won, offers, ranks, scoring, standers,
                      categories, deal_turns, deal_winners, deal_payoffs, deal_dealers,
                      n_caps)
            if st[_PHASE] != _HORSE:
                d = st[_DEALNO] - 1
                if d < n_results:
                    deal_decisions[row, d] = count
                _end_of_deal(st, cfg, order, flags, hlen, out_in, stock, pack_cards, tokens,
                             balances)
        if one_deal and st[_DEALNO] != deal_no:
            break
    return state, cs, pos, count


@numba.njit(cache=True, nogil=True, inline="always")
def _scratch(p: Any, n_pack: Any) -> Any:
    """The working arrays of one game at a time at *p* seats (as
    :func:`.compiled_playouts.playouts` names them), the steps' buffers last (gives, takes,
    rest, buf, free)."""
    return (np.zeros(32, np.int64), np.zeros(4 * p, np.int64), np.zeros(p, np.int64),
            np.zeros(n_pack + 1, np.int64), np.zeros(n_pack, np.int64),
            np.zeros(p, np.int64), np.zeros(p, np.int64), np.zeros(p, np.int64),
            np.zeros(8, np.int64), np.zeros(4 * n_pack, np.int64), np.zeros(p, np.int64),
            np.zeros(p, np.int64), np.zeros(p, np.int64), np.zeros(p, np.int64),
            np.zeros(p, np.int64), np.zeros(p, np.int64), np.zeros(p, np.int64),
            np.zeros(4, np.int64), np.zeros(n_pack + 1, np.int64), np.zeros(n_pack, np.int64),
            np.zeros(4, np.int64), np.zeros(FREE, np.int64))
