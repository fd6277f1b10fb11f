"""``analyze stand-threshold`` on the widow kernel: whole sessions, each seat's first turn of a
deal where it may knock (or, in the Old Game, stand) played twice on copies of the session.

The sessions are the kernel's own (:func:`.kernel.play_games` plays the same ones from the
same seed: the samples are taken on copies and change nothing). At a seat's first decision
of a deal at which it may knock or stand (:func:`commerce.apps.threshold.stand_threshold` asks the
same of the reference engine), every array of the session is copied with its two streams and
the deal played to its end twice: knocking (standing) now, the others playing on as the
rules let them, and the seat's policy choosing among its other actions
(:data:`.compiled_turns.PLAY_ON`). What each way paid the seat is the deal's settlement as
the kernel reports it for the dealer-advantage analysis (``deal_payoffs``); the copies count
the deal as their first (``_DEALNO`` 1) so that one row of those arrays holds it: no rule of
a deal in progress reads its number. Each sample's columns are
:data:`commerce.kernelkit.S_PLACE` and the rest, the hand's evaluator rank as the showdown
ranks it.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from commerce.families.widow.compiled_rules import (
    _ACTOR,
    _DEAL,
    _DEALER,
    _DEALNO,
    _END,
    _K_KNOCK,
    _K_STAND,
    _KNOCKER,
    _OVER,
    _P,
    _PHASE,
    _STEP,
    _TURN,
    _code,
    _new_session,
    _rank,
)
from commerce.families.widow.compiled_turns import PLAY_ON, _advance, _scratch
from commerce.kernelkit import (
    S_DECISION,
    S_PLACE,
    S_PLAY,
    S_PLAYED,
    S_RANK,
    S_STAND,
    S_STOOD,
    S_WON,
    stream_start,
    uncounted,
)


@uncounted(inline="always")
def _copy(a: Any, b: Any) -> None:
    """Every array of session *a* into *b* (the same shapes)."""
    for k in range(len(a)):
        x, y = a[k], b[k]
        for i in range(x.shape[0]):
            y[i] = x[i]


@uncounted(inline="always")
def _one_way(root: Any, seat: Any, state: Any, cs: Any, key: Any, cfg: Any, pack_cards: Any,
             rank3: Any, rank4: Any, cat_code: Any, frank3: Any, strength: Any, vtab: Any,
             rtab: Any, pol: Any, bold: Any, b: Any, res: Any, at: Any, played: Any) -> Any:
    """The deal in the copy *b* played on from its decision with *root* to its end, its
    results in row *at* of *res* and its actions recorded into row *at* of *played* (where
    it has columns): ``(payoff, won, actions)``, what its settlement paid *seat*, 1 where
    *seat* took the pool, and how many actions it played. The turn loop is called as the
    search bot's playouts call it (:func:`.compiled_playouts.playouts`: the same types and
    constants, so the same compiled code; no chance group, since the next deal is not
    dealt)."""
    (st, hands, hlen, widow, stock, order, flags, final, moved, fresh, tokens, balances,
     out_in, won, offers, ranks, scoring, gives, takes, rest, buf, free) = b
    standers, categories, deal_turns, deal_decisions, deal_winners, deal_payoffs, \
        deal_dealers = res
    st[_DEALNO] = 1  # the deal's results in the first column of *res*
    _, _, pos, _ = _advance(
        at, state, cs, key, 0, cfg, pack_cards, rank3, rank4, cat_code, frank3, strength,
        vtab, rtab, pol, bold, standers, categories, deal_turns, deal_decisions, deal_winners,
        deal_payoffs, deal_dealers, played, st, hands, hlen, widow, stock, order, flags, final,
        moved, fresh, tokens, balances, out_in, won, offers, ranks, scoring, gives, takes,
        rest, buf, free, 0, 0, root, True, -1)
    return deal_payoffs[at, 0, seat], (deal_winners[at, 0] >> seat) & 1, pos


@uncounted()
def _stand_rows(key: Any, index0: Any, first: Any, stop: Any, cfg: Any, pack_cards: Any,
                rank3: Any, rank4: Any, cat_code: Any, frank3: Any, strength: Any,
                vtab: Any, rtab: Any, policies: Any, boldness: Any, samples: Any,
                counts: Any, payoffs: Any, stands: Any, plays: Any, a: Any, b: Any, res: Any,
                none: Any, unrecorded: Any, roots: Any, pol: Any, bold: Any) -> None:
    """The sessions of :func:`stand_games` on the working arrays *a* (the copies in *b*, a
    deal's results in *res*, *unrecorded* the actions of a way not recorded; *roots*: the
    stand's action code, :data:`.compiled_turns.PLAY_ON` and -1), without reference
    counting. The game's own steps call the turn loop as the vector environment does
    (:mod:`.kernel_env`: a decision at a time, to the deal's end at most, with the same
    types and constants: numba compiles a function again for each constant passed to it),
    so that its compiled code serves here too."""
    p = cfg[_P]
    step = cfg[_STEP]
    knock = cfg[_END] == 1
    (st, hands, hlen, widow, stock, order, flags, final, moved, fresh, tokens, balances,
     out_in, won, offers, ranks, scoring, gives, takes, rest, buf, free) = a
    no_deals, no_categories, actions = none
    room = samples.shape[1]
    for row in range(first, stop):
        line_up = row % policies.shape[0]
        for s in range(p):
            pol[s] = policies[line_up, s]
            bold[s] = boldness[line_up, s]
        group = index0 + row
        state = stream_start(key, group)
        cs, _ = _new_session(key, group, cfg, pack_cards, st, order, flags, hlen, stock,
                             tokens, balances, out_in, won)
        n = 0
        count = 0  # the decisions played
        deal_no = -1
        sampled = 0  # the seats sampled this deal, as bits
        moves = plays[row - first]  # the samples' other ways, a row each
        stood = stands[row - first]  # and their ways of standing
        while True:
            # chance to the next decision (dealing first where a deal is to deal), or the
            # decision there played and then chance to the next one, to the deal's end at most
            pause = np.int64(0 if st[_PHASE] == _DEAL else 1)
            state, cs, _, played = _advance(
                row, state, cs, key, group, cfg, pack_cards, rank3, rank4, cat_code, frank3,
                strength, vtab, rtab, pol, bold, no_deals, no_categories, no_deals, no_deals,
                no_deals, no_categories, no_deals, actions, st, hands, hlen, widow, stock,
                order, flags, final, moved, fresh, tokens, balances, out_in, won, offers,
                ranks, scoring, gives, takes, rest, buf, free, 0, 0, roots[2], True, pause)
            count += played
            phase = st[_PHASE]
            if phase == _OVER:
                break
            if phase == _DEAL:  # the deal ended: the next one to deal
                continue
            if st[_DEALNO] != deal_no:
                deal_no = st[_DEALNO]
                sampled = 0
            seat = st[_ACTOR]
            if (phase == _TURN and (not knock or st[_KNOCKER] < 0)
                    and (sampled >> seat) & 1 == 0):
                sampled |= 1 << seat
                at = min(n, room - 1)  # past the row's room the sample is counted, not kept
                _copy(a, b)
                stand, stand_won, stood_length = _one_way(
                    roots[0], seat, state, cs, key, cfg, pack_cards, rank3, rank4, cat_code,
                    frank3, strength, vtab, rtab, pol, bold, b, res, at,
                    stood if n < room else unrecorded)
                _copy(a, b)
                play, _, length = _one_way(
                    roots[1], seat, state, cs, key, cfg, pack_cards, rank3, rank4, cat_code,
                    frank3, strength, vtab, rtab, pol, bold, b, res, at,
                    moves if n < room else unrecorded)
                if n < room:
                    samples[row - first, n, S_PLACE] = ((seat - st[_DEALER]) * step) % p
                    samples[row - first, n, S_RANK] = _rank(hands, hlen, seat, rank3, rank4)
                    samples[row - first, n, S_STAND] = stand
                    samples[row - first, n, S_PLAY] = play
                    samples[row - first, n, S_WON] = stand_won
                    samples[row - first, n, S_DECISION] = count
                    samples[row - first, n, S_STOOD] = stood_length
                    samples[row - first, n, S_PLAYED] = length
                n += 1
        counts[row - first] = n
        for s in range(p):
            payoffs[row - first, s] = balances[s]


@numba.njit(cache=True, nogil=True)
def stand_games(key: Any, index0: Any, first: Any, stop: Any, cfg: Any, pack_cards: Any,
                rank3: Any, rank4: Any, cat_code: Any, frank3: Any, strength: Any, vtab: Any,
                rtab: Any, policies: Any, boldness: Any, samples: Any, counts: Any,
                payoffs: Any, stands: Any, plays: Any) -> None:
    """Play sessions *first* to *stop* (session ``index0 + row`` of the run's streams, each its
    own chance group, as :func:`.kernel.play_games` with no rotation) into rows ``row -
    first`` of the outputs, sampling knocking (standing) at each seat's first decision of a
    deal where it may: ``samples[i, j]`` session *i*'s *j*-th sample (as many as its row
    holds: ``counts`` says how many were taken), ``payoffs`` each session's payoffs, and
    ``stands[i, j]`` and ``plays[i, j]`` (``samples``' room, and room for a deal's actions
    or no columns) the actions of the sample's two ways, its first the seat's."""
    p = cfg[_P]
    n_pack = pack_cards.shape[0]
    a = _scratch(p, n_pack)
    b = _scratch(p, n_pack)
    # the turn loop's arguments in the types its other callers give them (a deal's results
    # and none: int64; the policies int64), so that its compiled code serves every caller
    room = samples.shape[1]
    res = (np.zeros((room, 1), np.int64), np.zeros((room, 1, p), np.int64),
           np.zeros((room, 1), np.int64), np.zeros((room, 1), np.int64),
           np.zeros((room, 1), np.int64), np.zeros((room, 1, p), np.int64),
           np.zeros((room, 1), np.int64))
    none = (np.zeros((1, 0), np.int64), np.zeros((1, 0, 1), np.int64),
            np.zeros((1, 0), np.int64))
    head = _K_KNOCK if cfg[_END] == 1 else _K_STAND
    roots = np.array([_code(head, 63, 63, 63), PLAY_ON, -1], np.int64)
    _stand_rows(key, index0, first, stop, cfg, pack_cards, rank3, rank4, cat_code, frank3,
                strength, vtab, rtab, policies, boldness, samples, counts, payoffs, stands,
                plays, a, b, res, none, np.zeros((room, 0), plays.dtype), roots,
                np.empty(p, np.int64), np.empty(p, np.float64))
