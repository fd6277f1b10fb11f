"""The widow family's steppable kernel: many games at once, one learning seat against compiled
bots, behind the research API's vector environment (:class:`commerce.rl.vector.CommerceVectorEnv`).

Where :mod:`.kernel` plays whole sessions, this module stops every game at the learning seat's
decisions. Each of *N* games (an *environment*) is held in rows of the whole-game kernel's own
arrays (the slot array ``st`` of :mod:`.compiled_rules`, the hands, the widow, the stock, the
seats' flags ...), with a few scalars of its own (:data:`SCALARS`) and the learner's history
of visible acts. The rules are the whole-game kernel's game loop itself
(:func:`.compiled_turns._advance`), called one decision at a time (its ``pause``): chance's
cards and each other seat's decision by its compiled policy (random, or the heuristic of
:mod:`.compiled_heuristic`), until the learner must decide or the episode ends; the learner's
action is the loop's first action where it is the learner's turn.

One compiled call (:func:`step_envs`) does that in every environment and writes into
preallocated arrays the learner's observation (the very vector of :func:`.encode.encode` of
``engine.observe(state, seat)``, built only from what the seat may know: its own cards, the
blind dealer only those he took, a pounce offer only its own, the public acts of the deal),
its legal actions' mask, its reward and whether the episode ended. An ended episode is dealt
anew in the same call (Gymnasium's same-step autoreset, its final observation kept apart) or at
the next call (next-step autoreset), as the batch was made.

Rewards are :class:`commerce.rl.gym.CommerceGym`'s: what each deal paid the learner as the
family's deal reader counts it (stakes, tokens moved, counters to the pool and a prize),
credited when the deal ends (after any horse is offered); a whole-game episode's last reward
makes its sum the learner's final balance (the pool shared out, a horse's price). An episode
is a deal (the first of a fresh game) or a whole game; one that would end before the
learner's first decision is not shown (a fresh game is dealt), but what it paid the learner
comes with the next reward and its deals are counted in the batch's ``deals``.
``tests/test_rl_vector_widow.py`` replays every recorded action through the reference engine
and compares every observation, mask and reward. The rulesets and options played are the
whole-game kernel's (:func:`.kernel.check_supported`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from commerce.core import DecisionKind
from commerce.encoding import DECISION_KINDS, segment_offsets
from commerce.errors import RulesetError
from commerce.families.widow.compiled_heuristic import FREE
from commerce.families.widow.compiled_rules import (
    _ACTOR,
    _BLIND,
    _BLINDX,
    _CARD,
    _DEAL,
    _DEALER,
    _DEALNO,
    _END,
    _FINAL,
    _FLOW,
    _HORSE,
    _INFINAL,
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
    _MORE,
    _NMOVED,
    _OFFER,
    _OVER,
    _P,
    _PASSED,
    _PCOUNT,
    _PHASE,
    _POOL,
    _POUNCE,
    _POUNCED,
    _PRIZE,
    _ROUND,
    _SLEN,
    _STOOD,
    _SWAPS,
    _TURN,
    _WLEN,
    _code,
    _in,
    _new_session,
    _proceed,
    decode_action,
)
from commerce.families.widow.compiled_turns import _advance
from commerce.families.widow.encode import HISTORY, KINDS, layout
from commerce.families.widow.kernel import WidowKernel, build
from commerce.kernelkit import (
    GAMMA,
    LEARNER,
    EnvBatch,
    EnvKernel,
    master_key,
    mix64,
    uncounted,
)
from commerce.rules import Ruleset

__all__ = ["SCALARS", "SEAT_COLUMNS", "WidowEnvBatch", "env_kernel", "reset_envs",
           "step_envs", "table_observe", "table_reset", "table_step"]

SCALARS: Final = ("group", "acts", "done", "waiting", "recorded", "deals", "actor", "deal")
"""The per-environment scalars beside the kernel's slots, the first columns of the batch's
``est`` array: the chance group of the game in progress (games begun since seeding, less one),
the visible acts of this deal (the history's length), whether the episode is over, whether it
waits for a next-step reset, the actions recorded, the deals the episode's rewards cover (those
of the games its reset skipped included), and, as the last step left them, the seat to decide
and the deal's number. Then :data:`SEAT_COLUMNS` for each seat."""
S_GROUP, S_ACTS, S_DONE, S_WAIT, S_REC, S_DEALS, S_ACTOR, S_DEAL, S_N = range(
    len(SCALARS) + 1)

SEAT_COLUMNS: Final = ("reward", "given", "deal_pay", "balance0", "tokens0", "won0", "carried")
"""Each seat's columns of ``est``, after the scalars (seat *s*'s at ``S_N + 7 * s``): its
reward not yet paid, what the episode's game has paid it so far, the deal's payoff not yet
credited (the deal ends after its horses), its balance, tokens and deals won before the game
loop's last call, and what the games a reset skipped paid it."""
C_REWARD, C_GIVEN, C_DEALPAY, C_BALANCE0, C_TOKENS0, C_WON0, C_CARRIED = range(
    len(SEAT_COLUMNS))
_W: Final = len(SEAT_COLUMNS)


@uncounted(inline="always")
def _col(seat: Any, column: Any) -> Any:
    """The column of ``est`` that holds *seat*'s *column*."""
    return S_N + _W * seat + column

# Slots of the environment's configuration (``ec``): the learner's seat, whole-game episodes,
# same-step autoreset, the pack's size and first card, the size of one history row, then the
# offsets of the observation's segments.
(E_ME, E_GAME, E_SAME, E_NPACK, E_OFFSET, E_PER, O_PHASE, O_TOACT, O_POS, O_HAND, O_WIDOW,
 O_OFFER, O_SIZES, O_TOKENS, O_BALANCES, O_POOL, O_STOCK, O_DEAL, O_INDEAL, O_OUT, O_LOCKED,
 O_PASSED, O_STOOD, O_POUNCED, O_KNOCKER, O_FINAL, O_HIST, E_N) = range(28)
_TURN_N: Final = 32  # the game loop's turn and deal slots (:mod:`.compiled_rules`)
_SEGMENTS: Final = ("phase", "to_act", "position", "hand", "widow", "pounce_offer",
                    "hand_sizes", "tokens", "balances", "pool", "stock", "deal", "in_deal",
                    "out", "locked", "passed", "stood", "pounced", "knocker", "final_turns",
                    "history")

# The history's act kinds (:data:`.encode.KINDS`); a history row holds the kind, the seat,
# up to three cards given to the widow and up to three taken (or pounced on), -1 where none.
(_PASSED_ACT, _DONE_ACT, _EXCHANGED, _BLIND_PASSED, _BLIND_EXCHANGED, _BLIND_DONE, _KNOCKED,
 _STOOD_ACT, _POUNCED_ACT) = range(9)
assert KINDS == ("passed", "done", "exchanged", "blind_passed", "blind_exchanged",
                 "blind_done", "knocked", "stood", "pounced")
_ROW: Final = 8

# The action space's integers without a card (:mod:`.encode`).
_A_PASS, _A_DONE, _A_KNOCK, _A_STAND, _A_DECLINE, _A_HORSE, _A_WHOLE, _A_CARDS = range(8)

_T_EC: Final = 11
"""Where the environment's constants (``ec``) stand in the batch's *tables* (the kernel's
tables, the line-up's policies and boldness, ``ec``, the phases' slots)."""
_T_PHASES: Final = 12
"""Where the phases' slots in the observation stand in the batch's *tables*."""

_SCRATCH: Final = 72
"""Codes one call of the game loop records at most: one decision, then chance's cards (fewer
than a pack)."""


@uncounted(inline="always")
def _record(est: Any, rec: Any, e: Any, code: Any) -> None:
    """Record *code* in environment *e*'s row (a count past the row's end tells of an
    overflow)."""
    if rec.shape[1] > 0:
        n = est[e, S_REC]
        if n < rec.shape[1]:
            rec[e, n] = code
        est[e, S_REC] = n + 1


@uncounted(inline="always")
def _act_seen(e: Any, phase: Any, actor: Any, swaps: Any, code: Any, tables: Any,
              arrays: Any, work: Any) -> None:
    """The act of the decision just played (*code*, by *actor* in *phase*), appended to the
    learner's history (a ring of the last K) where the deal's log shows it to every seat: a
    pounce declined and a horse are not among its kinds."""
    cfg = tables[0]
    est, hist = arrays[0], arrays[18]
    saved = work[9]
    kind = code >> 18
    c1, c2 = (code >> 12) & 63, (code >> 6) & 63
    act = -1
    if phase == _BLIND:
        if kind == _K_PASS:
            act = _BLIND_PASSED
        elif kind == _K_DONE:
            act = _BLIND_DONE
        elif kind == _K_EXCH:
            act = _BLIND_EXCHANGED
    elif phase == _POUNCE:
        if kind == _K_POUNCE:
            act = _POUNCED_ACT
    elif phase != _HORSE:
        if kind == _K_PASS:
            act = _PASSED_ACT
        elif kind == _K_DONE:
            act = _DONE_ACT
        elif kind == _K_EXCH:
            act = _EXCHANGED
        elif kind == _K_KNOCK:
            act = _KNOCKED
        elif kind == _K_STAND:
            act = _STOOD_ACT
    if act < 0:
        return
    j = est[e, S_ACTS] % hist.shape[1]
    hist[e, j, 0] = act
    hist[e, j, 1] = actor
    for i in range(2, _ROW):
        hist[e, j, i] = -1
    if act == _EXCHANGED:
        hist[e, j, 2] = c1
        hist[e, j, 5] = c2
    elif act == _BLIND_EXCHANGED:
        if cfg[_BLINDX] == 1:  # the whole hand for the whole widow
            for i in range(3):
                hist[e, j, 2 + i] = saved[e, i]
                hist[e, j, 5 + i] = saved[e, 3 + i]
        else:  # the next unseen card of the hand for one widow card
            hist[e, j, 2] = saved[e, swaps]
            hist[e, j, 5] = c1
    elif act == _POUNCED_ACT:
        hist[e, j, 5] = c1
    est[e, S_ACTS] += 1


@uncounted(inline="always")
def _call(e: Any, root: Any, pause: Any, tables: Any, arrays: Any, work: Any) -> None:
    """One call of the whole-game kernel's game loop (:func:`.compiled_turns._advance`) in
    environment *e*: with *pause* 0, chance plays until a seat must decide; with *pause* 1,
    the seat to decide plays (*root*, or its policy's choice where *root* is negative), then
    chance until the next decision. The loop stops where the deal ends. Then the history,
    each seat's deal payoff and the episode's end are brought up to date."""
    (cfg, pack_cards, rank3, rank4, cat_code, frank3, strength, vtab, rtab, pol, bold, ec,
     _) = tables
    (est, st, hands, hlen, widow, stock, order, flags, final, moved, fresh, tokens, balances,
     out_in, won, offers, streams, keys, _, rec, codes) = arrays
    ranks, scoring, gives, takes, rest, buf, free, no_deals, no_categories, saved = work
    p = cfg[_P]
    s = st[e]
    phase0, actor0, deal0, pool0, swaps0 = s[_PHASE], s[_ACTOR], s[_DEALNO], s[_POOL], \
        s[_SWAPS]
    for x in range(p):
        est[e, _col(x, C_BALANCE0)] = balances[e, x]
        est[e, _col(x, C_TOKENS0)] = tokens[e, x]
        est[e, _col(x, C_WON0)] = won[e, x]
    if phase0 == _BLIND:  # what the blind exchange's event shows
        b = s[_DEALER] * 4
        for i in range(3):
            saved[e, i] = hands[e, b + i]
            saved[e, 3 + i] = widow[e, i]
    state, cs, pos, _ = _advance(
        e, streams[e, 0], streams[e, 1], keys[e], est[e, S_GROUP], cfg, pack_cards, rank3,
        rank4, cat_code, frank3, strength, vtab, rtab, pol, bold, no_deals, no_categories,
        no_deals, no_deals, no_deals, no_categories, no_deals, codes, s, hands[e], hlen[e],
        widow[e], stock[e], order[e], flags[e], final[e], moved[e], fresh[e], tokens[e],
        balances[e], out_in[e], won[e], offers[e], ranks[e], scoring[e], gives[e], takes[e],
        rest[e], buf[e], free[e], 0, 0, np.int64(root), True, np.int64(pause))
    streams[e, 0] = state
    streams[e, 1] = cs
    if rec.shape[1] > 0:
        for i in range(min(pos, codes.shape[1])):
            _record(est, rec, e, codes[e, i])
    if pause > 0 and pos > 0:
        _act_seen(e, phase0, actor0, swaps0, codes[e, 0], tables, arrays, work)
    ended = s[_PHASE] == _OVER or s[_DEALNO] != deal0
    if phase0 != _HORSE and (s[_PHASE] == _HORSE or ended):  # the showdown was played
        for x in range(p):
            if cfg[_FLOW] == 1:  # counters into the pool, and the deal's prize
                pay = tokens[e, x] - est[e, _col(x, C_TOKENS0)]
                if won[e, x] > est[e, _col(x, C_WON0)]:
                    pay += min(cfg[_PRIZE], pool0)
            else:
                pay = balances[e, x] - est[e, _col(x, C_BALANCE0)]
            est[e, _col(x, C_DEALPAY)] += pay
    if not ended:
        return
    for x in range(p):
        est[e, _col(x, C_REWARD)] += est[e, _col(x, C_DEALPAY)]
        est[e, _col(x, C_DEALPAY)] = 0
    est[e, S_DEALS] += 1
    if s[_DEALNO] != deal0:
        est[e, S_ACTS] = 0  # a new deal's log
    if s[_PHASE] == _OVER:
        if ec[E_GAME] == 1:  # the game's total: the final balance
            for x in range(p):  # (and what the games a reset skipped paid, if one did)
                est[e, _col(x, C_REWARD)] = est[e, _col(x, C_CARRIED)] + balances[e, x] \
                    - est[e, _col(x, C_GIVEN)]
        est[e, S_DONE] = 1
    elif ec[E_GAME] == 0:
        est[e, S_DONE] = 1


@uncounted(inline="always")
def _to_learner(e: Any, tables: Any, arrays: Any, work: Any) -> None:
    """Chance and the bots' seats play until a learner must decide or the episode ends."""
    pol = tables[9]
    est, st = arrays[0], arrays[1]
    while est[e, S_DONE] == 0:
        phase = st[e, _PHASE]
        if phase == _DEAL or phase == _CARD:
            _call(e, -1, 0, tables, arrays, work)
        elif pol[st[e, _ACTOR]] == LEARNER:
            break
        else:
            _call(e, -1, 1, tables, arrays, work)
    est[e, S_ACTOR], est[e, S_DEAL] = st[e, _ACTOR], st[e, _DEALNO]


@uncounted()
def _new_game(e: Any, tables: Any, arrays: Any) -> None:
    """A fresh session (as :func:`.kernel._play_game` begins one): even tokens and balances,
    the first dealer drawn by chance, the first deal about to be dealt. A recording notes it
    as ``-1 - dealer``."""
    cfg, pack_cards = tables[0], tables[1]
    (est, st, _, hlen, _, stock, order, flags, _, _, _, tokens, balances, out_in, won, _,
     streams, keys, _, rec, _) = arrays
    group = est[e, S_GROUP] + 1
    est[e, S_GROUP] = group
    cs, dealer = _new_session(keys[e], group, cfg, pack_cards, st[e], order[e], flags[e],
                              hlen[e], stock[e], tokens[e], balances[e], out_in[e], won[e])
    streams[e, 1] = cs
    _record(est, rec, e, -1 - dealer)
    est[e, S_ACTS], est[e, S_DONE], est[e, S_DEALS] = 0, 0, 0
    for x in range(cfg[_P]):
        est[e, _col(x, C_GIVEN)], est[e, _col(x, C_DEALPAY)] = 0, 0


@uncounted()
def _reset_one(e: Any, tables: Any, arrays: Any, work: Any) -> None:
    """A fresh game, dealt again until the learner has a decision before the episode ends. A
    game that ended first is not lost: what its deals paid the learner comes with the next
    reward, and its deals are counted in the episode's (``deals``)."""
    est = arrays[0]
    p = tables[0][_P]
    est[e, S_WAIT] = 0
    for x in range(p):  # what the games skipped paid each seat adds up in its reward
        est[e, _col(x, C_REWARD)] = 0
    skipped = 0
    while True:
        for x in range(p):
            est[e, _col(x, C_CARRIED)] = est[e, _col(x, C_REWARD)]
        _new_game(e, tables, arrays)
        _to_learner(e, tables, arrays, work)
        if est[e, S_DONE] == 0:
            for x in range(p):  # the game's total stays its own balance
                est[e, _col(x, C_GIVEN)] = -est[e, _col(x, C_CARRIED)]
                est[e, _col(x, C_CARRIED)] = 0
            est[e, S_DEALS] += skipped
            return
        skipped += est[e, S_DEALS]


@uncounted(inline="always")
def _rel(seat: Any, me: Any, p: Any) -> Any:
    """*seat*'s place counted from *me*."""
    r = seat - me
    return r + p if r < 0 else r


@uncounted()
def _without_offer(e: Any, tables: Any, arrays: Any) -> tuple[Any, Any]:
    """The decision and its seat as the seats not offered a pounce see them
    (:func:`.observe.without_offer`): every pending offer declined on a copy of the turn, and
    chance shown to act where declining would end the deal."""
    st, hands, hlen, widow = arrays[1], arrays[2], arrays[3], arrays[4]
    order, flags, final, moved, fresh = arrays[6], arrays[7], arrays[8], arrays[9], arrays[10]
    s = st[e]
    t = st[e, _TURN_N:]
    for i in range(_TURN_N):
        t[i] = s[i]
    while t[_PHASE] == _POUNCE:
        t[_OFFER] = -1
        if _proceed(t, tables[0], hands[e], hlen[e], order[e], flags[e], moved[e], fresh[e],
                    widow[e], final[e]):
            return _CARD, s[_ACTOR]
    if t[_PHASE] == _OVER or t[_PHASE] == _HORSE:
        return _CARD, s[_ACTOR]
    return t[_PHASE], t[_ACTOR]


@uncounted(inline="always")
def _observe(e: Any, me: Any, row: Any, tables: Any, arrays: Any) -> None:
    """The observation vector (:func:`.encode.encode`) of the seat *me* into *row*."""
    cfg, ec, phase_slot = tables[0], tables[_T_EC], tables[_T_PHASES]
    (est, st, hands, hlen, widow, _, order, flags, _, _, _, tokens, balances, out_in, _, _,
     _, _, hist, _, _) = arrays
    p = cfg[_P]
    n, offset = ec[E_NPACK], ec[E_OFFSET]
    s = st[e]
    for i in range(row.shape[0]):
        row[i] = 0.0
    phase, actor = s[_PHASE], s[_ACTOR]
    if phase == _POUNCE and actor != me:  # another seat's offer is not shown
        phase, actor = _without_offer(e, tables, arrays)
    row[ec[O_PHASE] + phase_slot[phase]] = 1.0
    if phase == _DEAL or phase == _CARD or phase == _OVER:
        row[ec[O_TOACT] + p] = 1.0
    else:
        row[ec[O_TOACT] + _rel(actor, me, p)] = 1.0
    row[ec[O_POS] + _rel(me, s[_DEALER], p)] = 1.0
    shown = hlen[e, me]
    if phase == _BLIND and me == s[_DEALER]:  # he has seen only the cards he took
        shown = s[_SWAPS]
    for i in range(shown):
        row[ec[O_HAND] + hands[e, me * 4 + i] - offset] = 1.0
    for i in range(s[_WLEN]):
        row[ec[O_WIDOW] + widow[e, i] - offset] = 1.0
    if phase == _POUNCE and s[_ACTOR] == me:
        row[ec[O_OFFER] + s[_OFFER] - offset] = 1.0
    for i in range(p):
        x = me + i
        x = x - p if x >= p else x
        row[ec[O_SIZES] + i] = hlen[e, x]
        row[ec[O_TOKENS] + i] = tokens[e, x]
        row[ec[O_BALANCES] + i] = balances[e, x]
        r = _rel(x, me, p)
        if out_in[e, x] != 0:
            row[ec[O_OUT] + r] = 1.0
        f = flags[e, x]
        if f & _LOCKED:
            row[ec[O_LOCKED] + r] = 1.0
        if f & _PASSED:
            row[ec[O_PASSED] + r] = 1.0
        if f & _STOOD:
            row[ec[O_STOOD] + r] = 1.0
        if f & _POUNCED:
            row[ec[O_POUNCED] + r] = 1.0
    row[ec[O_POOL]] = s[_POOL]
    row[ec[O_POOL] + 1] = s[_PCOUNT]
    row[ec[O_STOCK]] = s[_SLEN]
    row[ec[O_DEAL]] = s[_DEALNO]
    row[ec[O_DEAL] + 1] = s[_ROUND]
    for i in range(s[_M]):
        row[ec[O_INDEAL] + _rel(order[e, i], me, p)] = 1.0
    if s[_KNOCKER] >= 0:
        row[ec[O_KNOCKER] + _rel(s[_KNOCKER], me, p)] = 1.0
    if s[_INFINAL] == 1:
        row[ec[O_FINAL]] = 1.0
    k_max = hist.shape[1]
    acts = est[e, S_ACTS]
    per = ec[E_PER]
    n_kinds = len(KINDS)
    for slot in range(min(acts, k_max)):  # newest first
        j = (acts - 1 - slot) % k_max
        base = ec[O_HIST] + slot * per
        row[base + hist[e, j, 0]] = 1.0
        row[base + n_kinds + _rel(hist[e, j, 1], me, p)] = 1.0
        cards = base + n_kinds + p - offset
        for i in range(3):
            if hist[e, j, 2 + i] >= 0:
                row[cards + hist[e, j, 2 + i]] = 1.0
            if hist[e, j, 5 + i] >= 0:
                row[cards + n + hist[e, j, 5 + i]] = 1.0


@uncounted(inline="always")
def _mask(e: Any, me: Any, row: Any, tables: Any, arrays: Any) -> None:
    """The legal actions (:func:`.encode.action_to_int`) of the seat *me*, the seat to
    decide, into *row* (0/1)."""
    cfg, ec = tables[0], tables[_T_EC]
    est, st, hands, hlen, widow, flags, moved = (arrays[0], arrays[1], arrays[2], arrays[3],
                                                 arrays[4], arrays[7], arrays[9])
    for i in range(row.shape[0]):
        row[i] = 0
    if est[e, S_DONE] == 1:
        return
    n, offset = ec[E_NPACK], ec[E_OFFSET]
    s = st[e]
    phase = s[_PHASE]
    n_moved = s[_NMOVED]
    if phase == _TURN or phase == _FINAL or phase == _MORE:
        row[_A_DONE if phase == _MORE else _A_PASS] = 1
        if phase == _TURN:
            if cfg[_END] == 1 and s[_KNOCKER] < 0:
                row[_A_KNOCK] = 1
            elif cfg[_END] == 2:
                row[_A_STAND] = 1
        if flags[e, me] & _POUNCED == 0:
            base = _A_CARDS + 2 * n - offset * (n + 1)
            for i in range(hlen[e, me]):
                give = hands[e, me * 4 + i]
                if _in(moved[e], 0, n_moved, give):
                    continue
                for k in range(s[_WLEN]):
                    take = widow[e, k]
                    if not _in(moved[e], 0, n_moved, take):
                        row[base + give * n + take] = 1
    elif phase == _BLIND:
        if cfg[_BLINDX] == 1:
            row[_A_PASS] = 1
            row[_A_WHOLE] = 1
        else:
            row[_A_PASS if s[_SWAPS] == 0 else _A_DONE] = 1
            for k in range(s[_WLEN]):
                take = widow[e, k]
                if not _in(moved[e], 0, n_moved, take):
                    row[_A_CARDS + take - offset] = 1
    elif phase == _POUNCE:
        row[_A_CARDS + n + s[_OFFER] - offset] = 1
        row[_A_DECLINE] = 1
    elif phase == _HORSE:
        row[_A_HORSE] = 1
        row[_A_DECLINE] = 1


@uncounted(inline="always")
def _code_of(e: Any, index: Any, tables: Any, arrays: Any) -> Any:
    """The kernel's action code of the action space's integer *index* in environment *e*."""
    ec = tables[_T_EC]
    widow = arrays[4]
    n, offset = ec[E_NPACK], ec[E_OFFSET]
    if index == _A_PASS:
        return _code(_K_PASS, 63, 63, 63)
    if index == _A_DONE:
        return _code(_K_DONE, 63, 63, 63)
    if index == _A_KNOCK:
        return _code(_K_KNOCK, 63, 63, 63)
    if index == _A_STAND:
        return _code(_K_STAND, 63, 63, 63)
    if index == _A_DECLINE:
        return _code(_K_DECLINE, 63, 63, 63)
    if index == _A_HORSE:
        return _code(_K_HORSE, 63, 63, 63)
    if index == _A_WHOLE:
        return _code(_K_EXCH, widow[e, 0], widow[e, 1], widow[e, 2])
    i = index - _A_CARDS
    if i < n:
        return _code(_K_EXCH, offset + i, 63, 63)
    i -= n
    if i < n:
        return _code(_K_POUNCE, offset + i, 63, 63)
    i -= n
    return _code(_K_EXCH, offset + i // n, offset + i % n, 63)


@uncounted()
def reset_envs(first: Any, stop: Any, which: Any, tables: Any, arrays: Any, out: Any,
               work: Any) -> None:
    """Deal a fresh episode in the environments *first* to *stop* marked in *which*, and write
    their observations and masks (*tables*, *arrays*, *out* and *work*: the batch's tables,
    state arrays, outputs and working rows, in :class:`WidowEnvBatch`'s order)."""
    est = arrays[0]
    obs, mask, deals = out[0], out[1], out[6]
    me = tables[_T_EC][E_ME]
    for e in range(first, stop):
        if which[e]:
            _reset_one(e, tables, arrays, work)
            deals[e] = est[e, S_DEALS]
            _observe(e, me, obs[e], tables, arrays)
            _mask(e, me, mask[e], tables, arrays)


@uncounted()
def step_envs(first: Any, stop: Any, actions: Any, tables: Any, arrays: Any, out: Any,
              work: Any) -> None:
    """Environments *first* to *stop*: the learner plays its (legal) action of the action
    space, the other seats and chance play on; rewards, terminations, observations and masks
    written (an environment waiting for a next-step reset is dealt anew instead, its action
    ignored)."""
    ec = tables[_T_EC]
    est = arrays[0]
    obs, mask, rewards, terminated, final_obs, final, deals = out
    me = ec[E_ME]
    for e in range(first, stop):
        terminated[e] = False
        final[e] = False
        if est[e, S_WAIT] == 1:
            _reset_one(e, tables, arrays, work)
            rewards[e] = 0.0
            deals[e] = est[e, S_DEALS]
        else:
            _call(e, _code_of(e, actions[e], tables, arrays), 1, tables, arrays, work)
            _to_learner(e, tables, arrays, work)
            paid = est[e, _col(me, C_REWARD)]
            rewards[e] = paid
            deals[e] = est[e, S_DEALS]
            est[e, _col(me, C_GIVEN)] += paid
            est[e, _col(me, C_REWARD)] = 0
            if est[e, S_DONE] == 1:
                terminated[e] = True
                if ec[E_SAME] == 1:
                    final[e] = True
                    _observe(e, me, final_obs[e], tables, arrays)
                    _reset_one(e, tables, arrays, work)
                else:
                    est[e, S_WAIT] = 1
        _observe(e, me, obs[e], tables, arrays)
        _mask(e, me, mask[e], tables, arrays)


@uncounted()
def _given(e: Any, tables: Any, arrays: Any) -> None:
    """Each seat's reward not yet paid counted as given (the table's caller reads and clears
    it after the call)."""
    est = arrays[0]
    for x in range(tables[0][_P]):
        est[e, _col(x, C_GIVEN)] += est[e, _col(x, C_REWARD)]


@uncounted()
def table_reset(e: Any, obs: Any, mask: Any, tables: Any, arrays: Any, work: Any) -> None:
    """A fresh episode in environment *e* of a batch whose seats are learners or bots (the
    research API's table, one decision at a time): the seat to decide's observation and mask
    into the rows *obs* and *mask*."""
    _reset_one(e, tables, arrays, work)
    _given(e, tables, arrays)
    actor = arrays[1][e, _ACTOR]
    _observe(e, actor, obs, tables, arrays)
    _mask(e, actor, mask, tables, arrays)


@uncounted()
def table_step(e: Any, index: Any, obs: Any, mask: Any, tables: Any, arrays: Any,
               work: Any) -> None:
    """The seat to decide in environment *e* plays the legal action *index* of the action
    space; chance and the bots' seats play on until a learner must decide or the episode is
    over; then that seat's observation and mask into *obs* and *mask* (the mask all 0 once
    over). What each seat was paid meanwhile adds up in its reward column."""
    _call(e, _code_of(e, index, tables, arrays), 1, tables, arrays, work)
    _to_learner(e, tables, arrays, work)
    _given(e, tables, arrays)
    actor = arrays[1][e, _ACTOR]
    _observe(e, actor, obs, tables, arrays)
    _mask(e, actor, mask, tables, arrays)


@uncounted()
def table_observe(e: Any, seat: Any, row: Any, tables: Any, arrays: Any) -> None:
    """The observation vector of the seat *seat* in environment *e* into *row*."""
    _observe(e, seat, row, tables, arrays)


def _phase_slots() -> Any:
    """The ``phase`` segment's index for each of the kernel's phases."""
    kinds = list(DECISION_KINDS)
    by_phase = {_DEAL: DecisionKind.CHANCE, _BLIND: DecisionKind.BLIND_EXCHANGE,
                _TURN: DecisionKind.TURN, _MORE: DecisionKind.MORE_EXCHANGE,
                _FINAL: DecisionKind.FINAL_TURN, _CARD: DecisionKind.CHANCE,
                _POUNCE: DecisionKind.POUNCE_OFFER, _HORSE: DecisionKind.HORSE_OFFER}
    slots = np.full(_OVER + 1, len(kinds), np.int64)
    for phase, kind in by_phase.items():
        slots[phase] = kinds.index(kind)
    return slots


class WidowEnvBatch(EnvBatch):
    """*num_envs* games of one widow ruleset, the learner at *seat*, stepped together.

    The arrays a step writes (read them, copy what you keep): :attr:`obs`, :attr:`mask`,
    :attr:`rewards`, :attr:`terminated`, and with same-step autoreset :attr:`final_obs` and
    :attr:`final` (the ended episodes' last observation, and which ended).
    """

    reset_envs = reset_envs
    step_envs = step_envs
    decode_action = staticmethod(decode_action)
    table_reset = table_reset
    table_step = table_step
    table_observe = table_observe

    def __init__(self, kernel: WidowKernel, num_envs: int, seat: int,
                 policies: Sequence[int], boldness: Sequence[float], *, episode: str,
                 same_step: bool, record: int, dealer: int | None = None) -> None:
        rules, p = kernel.rules, kernel.players
        if dealer is not None:
            raise RulesetError("the widow family's compiled engine draws the first dealer; "
                               "use the reference engine to fix him")
        offsets, self.observation_size = segment_offsets(layout(rules, p))
        assert set(offsets) == set(_SEGMENTS)  # in the layout's order, whatever it is
        n = rules.pack
        self.num_actions = 7 + 2 * n + n * n
        ec = np.zeros(E_N, np.int64)
        ec[E_ME], ec[E_GAME], ec[E_SAME] = seat, episode == "game", int(same_step)
        ec[E_NPACK], ec[E_OFFSET], ec[E_PER] = n, 52 - n, len(KINDS) + p + 2 * n
        for i, name in enumerate(_SEGMENTS):
            ec[O_PHASE + i] = offsets[name]
        self.num_envs, self.seat, self.players = num_envs, seat, p
        self.tables = (kernel.cfg, kernel.pack_cards, kernel.rank3, kernel.rank4,
                       kernel.cat_code, kernel.frank3, kernel.strength, kernel.vtab,
                       kernel.rtab, _policies(policies, seat),
                       np.array(boldness, np.float64), ec, _phase_slots())
        assert self.tables[_T_EC] is ec

        def rows(*shape: int) -> Any:
            return np.zeros((num_envs, *shape), np.int64)

        self.est = rows(S_N + _W * p)
        self.st = rows(2 * _TURN_N)  # the second half: :func:`_without_offer`'s scratch turn
        self.keys = np.zeros(num_envs, np.uint64)
        # in this order: (est, st, hands, hlen, widow, stock, order, flags, final, moved,
        # fresh, tokens, balances, out_in, won, offers, streams, keys, hist, rec, codes)
        self.state = (self.est, self.st, rows(4 * p), rows(p), rows(n + 1), rows(n), rows(p),
                      rows(p), rows(p), rows(8), rows(4 * n), rows(p), rows(p), rows(p),
                      rows(p), rows(p), np.zeros((num_envs, 2), np.uint64), self.keys,
                      rows(HISTORY, _ROW), rows(record), rows(_SCRATCH))
        # the game loop's working rows (ranks, scoring, gives, takes, rest, buf, free), the
        # empty per-deal results, and what a blind exchange showed
        self.work = (rows(p), rows(p), rows(4), rows(n + 1), rows(n), rows(4), rows(FREE),
                     np.zeros((1, 0), np.int64), np.zeros((1, 0, 1), np.int64), rows(6))
        self.status, self.wait_slot, self.record_slot, self.record_at = self.est, S_WAIT, \
            S_REC, 19
        self.scalars = SCALARS
        self._outputs()

    paid_at = (0, C_REWARD)

    def paid_of(self, state: tuple[Any, ...]) -> Any:
        """``(num_envs, players)``: each seat's reward not yet paid, in *state*'s ``est``."""
        return state[0][:, S_N + C_REWARD:S_N + _W * self.players:_W]

    def seed(self, seeds: Sequence[int]) -> None:
        """Restart each environment's random streams from its own seed (one per
        environment): its players' stream and the key of its deals' chance streams."""
        streams = self.state[16]
        mask = (1 << 64) - 1
        for e, s in enumerate(seeds):
            key = master_key(int(s))
            self.keys[e] = key
            streams[e, 0] = mix64((key + GAMMA) & mask)
        self.est[:, S_GROUP] = -1


def env_kernel(rules: Ruleset, players: int) -> EnvKernel:
    """The steppable kernel of *rules* at *players* seats (the family's ``env_kernel`` hook).

    :raises RulesetError: for an option the compiled kernel does not play.
    """
    return EnvKernel(rules, players, build(rules, players), WidowEnvBatch, every_seat=True)


def _policies(policies: Sequence[int], seat: int) -> Any:
    """Each seat's policy code, the learner's seat (if any) :data:`LEARNER`."""
    pol = np.array(policies, np.int64)
    if 0 <= seat < pol.shape[0]:
        pol[seat] = LEARNER
    return pol
