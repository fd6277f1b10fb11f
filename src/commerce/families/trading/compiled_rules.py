"""The trading family's compiled rules: the slots of the kernel's configuration (``cfg``) and
of a deal's scalars (``sc``), and the rule steps of :mod:`.deal`, :mod:`.turn` and
:mod:`.settle` over small integer arrays: the deal, the rest of a deal turn by turn, and the
showdown. The whole-game kernel (:mod:`.kernel`), the search bot's playouts
(:mod:`.compiled_playouts`), the stand analysis (:mod:`.compiled_stand`) and the vector
environment (:mod:`.kernel_env`) all play through them.
"""

from __future__ import annotations

from typing import Any, Final

import numba
import numpy as np

from commerce.families.trading.compiled_heuristic import (
    _DEAL,
    _DONE,
    _NONE,
    _STAND,
    _TRADE,
    AFTER_TRADE,
    BARTER_REPLY,
    TURN,
    heuristic_choice,
    random_reply,
    random_turn,
)
from commerce.kernelkit import (
    RANDOM,
    next_below,
    uncounted,
)

# Configuration slots.
(_P, _STEP, _BSTEP, _ANTE, _DANTE, _TCOST, _DMAYTRADE, _DTCOST, _MAYBARTER, _PMAYSTAND,
 _RETORIG, _ANYTIME, _AFTERSTAND, _PENALTY, _PAYEQ, _DPAYS, _TIE, _ROUNDS, _DEALS) = range(19)

# Slots of the deal's scalars (``sc``) that the steps below share.
(_NU, _BH, _BL, _POOL, _STANDER, _TAKEN, _POS, _COUNT, _SEAT, _PHASE, _OFFERED, _FAT, _FN,
 _LAST, _N_SC) = range(15)
# _NU: the unseen cards of the stock; _BH, _BL: the traded-in queue under them (head, length);
# _POOL; _STANDER; _TAKEN: the turns begun this deal; _POS: the actions recorded; _COUNT: the
# decisions taken; _SEAT: whose turn it is; _PHASE: the decision pending in it; _OFFERED: the
# card of a pending barter (-1: none); _FAT, _FN: the queue of cards chance is to deal next
# (the next's place in a ``forced`` row, their number; none: chance draws from its stream);
# _LAST: the code of the last decision taken.

PAUSED: Final = -2
"""``sc[_STANDER]`` of a deal :func:`_rest_of_deal` stopped before a turn (its *pause*), or
before a decision after the one it took (*once*)."""


@numba.njit(cache=True, nogil=True, inline="always")
def _turn(seat: Any, step: Any, p: Any) -> Any:
    """The seat *step* (1 or -1) places on from *seat* at a table of *p* (no division)."""
    seat += step
    if seat == p:
        return 0
    if seat < 0:
        return p - 1
    return seat


@numba.njit(cache=True, nogil=True, inline="always")
def _put(actions: Any, pos: Any, code: Any) -> Any:
    """*code* recorded at place *pos* of *actions* (past its end only counted): the next
    place."""
    if pos < actions.shape[0]:
        actions[pos] = code
    return pos + 1


@numba.njit(cache=True, nogil=True, inline="always")
def _draw(cs: Any, n_unseen: Any, unseen: Any, forced: Any, fat: Any, fn: Any) -> Any:
    """Where among the first *n_unseen* of the *unseen* cards chance's next card is: the next
    of the *fn* forced cards from place *fat* of *forced* (the caller gave one that is
    unseen), or one drawn from the stream *cs*. Returns ``(cs, place, fat, fn)``; the queue
    is emptied once spent."""
    if fat < fn:
        card = forced[fat]
        fat += 1
        for j in range(n_unseen):
            if unseen[j] == card:
                return cs, j, fat, fn
    cs, j = next_below(cs, n_unseen)
    return cs, j, 0, 0


@uncounted(inline="always")
def _rest_of_deal(row: Any, streams: Any, sc: Any, cfg: Any, rank3: Any, strength: Any,
                  pwin: Any, give_value: Any, after_win: Any, combo: Any, policies: Any,
                  boldness: Any, hands: Any, unseen: Any, bottom: Any, balances: Any,
                  dealer: Any, root: Any, actions: Any, pause: Any, forced: Any,
                  once: Any) -> None:
    """Play a deal on from a decision to its showdown: the decision of phase ``sc[_PHASE]``
    (:data:`TURN`, :data:`BARTER_REPLY` or :data:`AFTER_TRADE`) in the turn of seat
    ``sc[_SEAT]``, taken with action code *root* (or by the seat's policy when *root* is
    negative), then every later decision by the policies (the turn rules of :mod:`.turn`).
    ``streams`` holds the players' stream and chance's; ``sc`` the deal's scalars, updated
    (the stander in ``sc[_STANDER]``, -1 for none); *actions* (a row of codes, or empty)
    records the actions from ``sc[_POS]`` (those past its end only counted); chance's cards
    are *forced*'s queue (``sc[_FAT]``, ``sc[_FN]``) while it lasts. It stops before the turn
    numbered *pause* of the deal (``sc[_TAKEN]``; -1: never) begins, and with *once* before
    the decision after the first it takes, ``sc[_STANDER]`` then -2 (:data:`PAUSED`) and
    ``sc[_SEAT]``, ``sc[_PHASE]`` and ``sc[_OFFERED]`` the decision pending. The research
    API's steppable kernel (:mod:`.kernel_env`) plays one decision a call so."""
    p = cfg[_P]
    step = cfg[_STEP]
    n_pack = unseen.shape[0]
    record = actions.shape[0] > 0
    limit = cfg[_ROUNDS] * p
    anytime = cfg[_ANYTIME] == 1
    dealer_trades = cfg[_DMAYTRADE] == 1
    n_barter = 3 if cfg[_MAYBARTER] == 1 else 0
    bstep = cfg[_BSTEP]
    n_pstand = 1 if cfg[_PMAYSTAND] == 1 else 0
    n_ret = 3 if cfg[_RETORIG] == 1 else 4
    stand_after = cfg[_AFTERSTAND] == 1
    state, cs = streams[0], streams[1]
    n_unseen, b_head, b_len = sc[_NU], sc[_BH], sc[_BL]
    pool, taken, pos, count = sc[_POOL], sc[_TAKEN], sc[_POS], sc[_COUNT]
    seat, phase, card = sc[_SEAT], sc[_PHASE], sc[_OFFERED]
    fat, fn, last = sc[_FAT], sc[_FN], sc[_LAST]
    count0 = count
    stander = -1
    while True:
        # -- a turn begins (the hand read as three scalars: no array view in the loop)
        actor = seat
        ua = np.uint64(actor)
        a, b, c = hands[ua, 0], hands[ua, 1], hands[ua, 2]
        if phase == TURN:
            if once and count > count0:
                stander = PAUSED
                break
            stand_ok = anytime or rank3[a, b, c] >= combo
            trade_ok = actor != dealer or dealer_trades
            count += 1
            if root >= 0:
                code = root
                root = -1
            elif policies[ua] == RANDOM:
                state, code = random_turn(state, a, b, c, stand_ok, trade_ok, n_barter)
            else:
                cost_now = cfg[_DTCOST] if actor == dealer else cfg[_TCOST]
                code = heuristic_choice(TURN, hands[actor], -1, stand_ok, trade_ok,
                                        n_barter > 0, False, True, rank3, strength, pwin,
                                        give_value, boldness[actor], after_win, cost_now, pool)
            last = code
            if record:
                pos = _put(actions, pos, code)
            kind, card = code & ~63, code & 63
            if kind == _STAND:
                stander = actor
                break
            if kind == _TRADE:
                # the card goes under the stock; the trader pays; he takes the top card
                if actor == dealer:
                    cost = cfg[_DTCOST]
                    pool += cost
                else:
                    cost = cfg[_TCOST]
                    balances[np.uint64(dealer)] += cost
                balances[ua] -= cost
                tail = b_head + b_len
                bottom[np.uint64(tail - n_pack if tail >= n_pack else tail)] = card
                b_len += 1
                if n_unseen > 0:
                    cs, j, fat, fn = _draw(cs, n_unseen, unseen, forced, fat, fn)
                    uj = np.uint64(j)
                    got = unseen[uj]
                    n_unseen -= 1
                    unseen[uj] = unseen[np.uint64(n_unseen)]
                    if record:
                        pos = _put(actions, pos, _DEAL + got)
                else:
                    got = bottom[np.uint64(b_head)]
                    b_head = 0 if b_head + 1 == n_pack else b_head + 1
                    b_len -= 1
                # the others keep their order, the card drawn goes last
                first_out = a == card
                a = b if first_out else a
                b = c if first_out or b == card else b
                c = got
                phase = AFTER_TRADE
            else:
                phase = BARTER_REPLY
        if phase == BARTER_REPLY:
            # barter: the neighbour gives a card back for *card*, or stands where he may
            if once and count > count0:
                stander = PAUSED
                break
            partner = _turn(actor, bstep, p)
            up = np.uint64(partner)
            count += 1
            if root >= 0:
                reply = root
                root = -1
            elif policies[up] == RANDOM:
                state, reply = random_reply(state, hands[up, 0], hands[up, 1],
                                            hands[up, 2], card, n_ret, n_pstand)
            else:
                reply = heuristic_choice(BARTER_REPLY, hands[partner], card, False, False,
                                         False, n_pstand > 0, n_ret == 3, rank3, strength,
                                         pwin, give_value, boldness[partner], after_win,
                                         0, pool)
            last = reply
            if record:
                pos = _put(actions, pos, reply)
            if reply & ~63 == _STAND:
                stander = partner
                break
            back = reply & 63
            a = back if a == card else a
            b = back if b == card else b
            c = back if c == card else c
            for i in range(3):
                held = hands[up, i]
                hands[up, i] = card if held == back else held
            phase = AFTER_TRADE
        hands[ua, 0], hands[ua, 1], hands[ua, 2] = a, b, c
        # -- after his own trade or barter
        if stand_after:
            if once and count > count0:
                stander = PAUSED
                break
            stand_ok = anytime or rank3[a, b, c] >= combo
            count += 1
            if root >= 0:
                code = root
                root = -1
            elif policies[ua] == RANDOM:
                if stand_ok:
                    state, j = next_below(state, 2)
                    code = _STAND + _NONE if j == 0 else _DONE + _NONE
                else:
                    code = _DONE + _NONE
            else:
                code = heuristic_choice(AFTER_TRADE, hands[actor], -1, stand_ok, False,
                                        False, False, True, rank3, strength, pwin,
                                        give_value, boldness[actor], after_win, 0, pool)
            last = code
            if record:
                pos = _put(actions, pos, code)
            if code == _STAND + _NONE:
                stander = actor
                break
        # -- the turn passes, or the round limit shows the hands
        if taken >= limit:
            break
        seat = _turn(seat, step, p)
        taken += 1
        phase = TURN
        if taken == pause:
            stander = PAUSED
            break
    streams[0], streams[1] = state, cs
    sc[_NU], sc[_BH], sc[_BL] = n_unseen, b_head, b_len
    sc[_POOL], sc[_TAKEN], sc[_POS], sc[_COUNT] = pool, taken, pos, count
    sc[_SEAT], sc[_STANDER], sc[_PHASE] = seat, stander, phase
    sc[_OFFERED] = card if phase == BARTER_REPLY else -1
    sc[_FAT], sc[_FN], sc[_LAST] = fat, fn, last


@uncounted(inline="always")
def _showdown(cfg: Any, hands: Any, rank3: Any, balances: Any, won: Any, dealer: Any,
              stander: Any, pool: Any, ranks: Any, order: Any) -> None:
    """The showdown (:mod:`.settle`): each seat's rank into *ranks*, the pool to the best
    hand, the first in priority order (:func:`.settle.priority`: the eldest first, the dealer
    last, or first where he counts as eldest) among equals, or split among them; the dealer's
    payment to a winner; and a beaten stander's penalty. No sort: the settlement needs only
    the best rank, and for the stander the hands that rank above him (*order* gets the
    priority order)."""
    p = cfg[_P]
    step = cfg[_STEP]
    tie = cfg[_TIE]
    s = dealer if tie == 1 else _turn(dealer, step, p)
    best, first = -1, -1  # the best rank, and its first holder in priority order
    for i in range(p):
        us = np.uint64(s)
        r = rank3[np.uint64(hands[us, 0]), np.uint64(hands[us, 1]), np.uint64(hands[us, 2])]
        ranks[us] = r
        order[i] = s
        first = s if r > best else first
        best = max(best, r)
        s = _turn(s, step, p)
    # a stander, or seat 0 standing in for none (every payment below then 0)
    st = np.uint64(max(stander, 0))
    r_st = ranks[st]
    if tie == 2:  # split_pool: every hand equal to the best shares, the first takes the odd
        n_won = 0
        for i in range(p):
            n_won += ranks[order[i]] == best
        share, rest = pool // n_won, pool % n_won
        for i in range(p):
            w = order[i]
            uw = np.uint64(w)
            shares = ranks[uw] == best
            paid = cfg[_DPAYS] * (shares and w != dealer)
            balances[uw] += shares * share + (rest if w == first else 0) + paid
            balances[np.uint64(dealer)] -= paid
            won[uw] += shares
        beaten = stander >= 0 and r_st < best
    else:
        uf = np.uint64(first)
        paid = cfg[_DPAYS] * (first != dealer)
        balances[uf] += pool + paid
        balances[np.uint64(dealer)] -= paid
        won[uf] += 1
        beaten = stander >= 0 and stander != first
    # a beaten stander's penalty: stores made whatever the outcome, the amounts 0 where none
    # is due (the outcome is as random as the cards: a branch would be mispredicted)
    equal_too = cfg[_PAYEQ] == 1
    if cfg[_PENALTY] == 1:  # best_hand_only
        d = beaten and (equal_too or best > r_st)
        balances[np.uint64(first)] += d
        balances[st] -= d
    elif cfg[_PENALTY] == 0:  # each_better_hand: every seat ranked ahead of him (equal:
        ahead = True  # before him in priority)
        total = 0
        for i in range(p):
            w = order[i]
            ahead = ahead and w != stander
            rw = ranks[np.uint64(w)]
            d = beaten and (rw > r_st or (equal_too and ahead and rw == r_st))
            balances[np.uint64(w)] += d
            total += d
        balances[st] -= total


@numba.njit(cache=True, nogil=True, inline="always")
def _scratch(p: Any, n_pack: Any) -> Any:
    """The working arrays of one game at a time at *p* seats: hands, unseen stock, bottom
    queue, balances, deals won, ranks, showdown order, the two streams and the deal's
    scalars (``sc``)."""
    return (np.empty((p, 3), np.int64), np.empty(n_pack, np.int64),
            np.empty(n_pack, np.int64), np.zeros(p, np.int64), np.zeros(p, np.int64),
            np.empty(p, np.int64), np.empty(p, np.int64), np.zeros(2, np.uint64),
            np.zeros(_N_SC, np.int64))


@numba.njit(cache=True, nogil=True, inline="always")
def _lowest_combination(cat_code: Any) -> Any:
    """The lowest rank with a combination (the ranks grow with the category)."""
    combo = 0
    while combo < cat_code.shape[0] and cat_code[combo] == 0:
        combo += 1
    return combo


@uncounted(inline="always")
def _antes(cfg: Any, balances: Any, at_start: Any, dealer: Any) -> Any:
    """:func:`.deal.start_deal`'s antes: each seat's balance before them kept in *at_start*,
    every seat's ante paid (the dealer's own stake, where the ruleset sets one); returns the
    pool."""
    p = cfg[_P]
    for s in range(p):
        at_start[s] = balances[s]
        balances[s] -= cfg[_ANTE]
    balances[dealer] -= cfg[_DANTE] - cfg[_ANTE]
    return cfg[_ANTE] * (p - 1) + cfg[_DANTE]


@uncounted(inline="always")
def _deal_cards(cs: Any, eldest: Any, step: Any, p: Any, pack_cards: Any, unseen: Any,
                hands: Any, moves: Any, pos: Any, forced: Any, fat: Any, fn: Any) -> Any:
    """Three cards each, one at a time from the *eldest* hand round, drawn from chance's
    stream *cs* (or *forced*'s queue, :func:`_draw`) out of the whole pack (``unseen``
    refilled, the rest left in its first ``len(pack) - 3 * p``), each recorded into *moves*
    (unless empty; past its end only counted) from *pos*: ``(cs, pos, fat, fn)``."""
    n_unseen = pack_cards.shape[0]
    record = moves.shape[0] > 0
    for i in range(n_unseen):
        unseen[i] = pack_cards[i]
    for col in range(3):
        to = eldest
        for _ in range(p):
            cs, j, fat, fn = _draw(cs, n_unseen, unseen, forced, fat, fn)
            uj = np.uint64(j)
            card = unseen[uj]
            n_unseen -= 1
            unseen[uj] = unseen[np.uint64(n_unseen)]
            hands[np.uint64(to), col] = card
            to = _turn(to, step, p)
            if record:
                pos = _put(moves, pos, _DEAL + card)
    return cs, pos, fat, fn
