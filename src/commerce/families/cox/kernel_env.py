"""Cox's steppable kernel: many games at once, one learning seat against compiled bots, behind
the research API's vector environment (:class:`commerce.rl.vector.CommerceVectorEnv`); or one
game whose every seat is a learner, behind the research API's compiled table
(:class:`commerce.rl.table.CompiledTable`: :func:`table_reset`, :func:`table_step`,
:func:`table_observe`).

Where :mod:`.kernel` plays whole games, this module stops every game at the learning seat's
decisions. Each of *N* games (an *environment*) is one row of the whole-game kernel's own
state array (``g``, laid out by :mod:`.compiled_rules`) and scratch row (``w``), with a few
scalars of its own (:data:`SCALARS`), and each learner's history of visible acts and its
reward not yet paid (the ``seats`` array, :data:`SEAT_COLUMNS`). The rules
are the whole-game kernel's steps, in the order its turn loop (:func:`.compiled_game._advance`)
plays them, one decision at a time: a hand's cards by :func:`.compiled_game._start_hand` (chance's
Directors cards and supply, from the hand's chance stream of the game's group), each other
seat's decision by its compiled policy (random over :func:`.compiled_rules.legal`, or
:func:`.compiled_heuristic.heuristic_choice`), played by :func:`.compiled_rules.apply_code`
and, where the hand ends, :func:`.compiled_rules.end_hand`; the learner's action is played
where it is a learner's turn (the seats whose policy code is :data:`commerce.kernelkit.LEARNER`:
the vector environment's one learner, or every seat of the research API's table).

One compiled call (:func:`step_envs`) does that in every environment and writes into
preallocated arrays the learner's observation (the very vector of :func:`.encode.encode` of
``engine.observe(state, seat)``: its own rack, what is laid out, the discard pile and the
live discard, the rack and supply sizes, the scores, and the last acts it saw: its own draws
and declines with their card, the others' only as the table sees them; a buy offer put to
another seat shows as the turn as it stood), its legal actions' mask, its reward and whether
the episode ended. An ended episode is dealt anew in the same call (Gymnasium's same-step
autoreset, its final observation kept apart) or at the next call (next-step autoreset), as
the batch was made.

The state keeps a laid-out three of Fruit, Grain or Industries as its kind and its number of
cards; which of the kind's four cards it holds is what the table sees. Each of them is a
single card, and a seat's three of the kind is the only one at the table, so the cards laid
out are those of the kind found in no rack, the discard pile nor the supply; a three laid
out with its fourth at once (the rack held all four) showed its lowest three.

Rewards are :class:`commerce.rl.gym.CommerceGym`'s (and the reference table's,
:class:`commerce.rl.table.Table`): each hand's score for each seat (the deal reader's points),
credited when the hand is counted; a whole-game episode's rewards add up to each seat's total,
its payoff (what the reference's game end pays beyond the hands, the payoff less what was
paid, is 0). An episode is a hand (the first of a fresh game) or a
whole game; one that would end before the learner's first decision is not shown (a fresh
game is dealt), but what it paid the learner comes with the next reward and its hands are
counted in the batch's ``deals``. ``tests/test_cox_kernel_env.py`` replays every recorded
action through the reference engine and compares every observation, mask and reward. Every
option of the family is played (:func:`.kernel.check_supported`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from commerce.core import DecisionKind
from commerce.encoding import DECISION_KINDS, segment_offsets
from commerce.families.cox.compiled_game import _start_hand
from commerce.families.cox.compiled_heuristic import heuristic_choice
from commerce.families.cox.compiled_rules import (
    _ACTOR,
    _BOT,
    _CUR,
    _DEALER,
    _DISCARDER,
    _FACES,
    _GB,
    _GC,
    _GK,
    _GN,
    _HAND,
    _HANDS,
    _HSC,
    _K_BUY,
    _K_DECLINE,
    _K_DISCARD,
    _K_DRAW,
    _K_SELL,
    _LIVE,
    _MAXG,
    _NG,
    _NPILE,
    _OFFER,
    _OVER,
    _P,
    _PHASE,
    _PILE,
    _PLAYER,
    _RACK,
    _RETAILER,
    _RSIZE,
    _START,
    _STEP,
    _SUP,
    _TOP,
    _TOT,
    _TURN,
    _W_LEGAL,
    _WHOLESALER,
    SCRATCH_SIZE,
    STATE_SIZE,
    _code,
    _face,
    decode_action,
)
from commerce.families.cox.compiled_turn import apply_code, end_hand, legal
from commerce.families.cox.encode import FACES, HISTORY, KINDS, layout
from commerce.families.cox.kernel import CoxKernel, build
from commerce.kernelkit import (
    DEALS_PER_GROUP,
    GAMMA,
    HEURISTIC,
    LEARNER,
    EnvBatch,
    EnvKernel,
    chance_start,
    master_key,
    mix64,
    next_below,
    uncounted,
)
from commerce.rules import Ruleset

__all__ = ["SCALARS", "SEAT_COLUMNS", "CoxEnvBatch", "env_kernel", "reset_envs", "step_envs",
           "table_observe", "table_reset", "table_step"]

SCALARS: Final = ("group", "actor", "deal", "done", "waiting", "recorded", "deals")
"""The per-environment scalars beside the kernel's state, the columns of the batch's ``est``
array: the chance group of the game in progress (games begun since seeding, less one), the
learner to decide and the hand's number (from 1) when the steps stopped at a decision, whether
the episode is over, whether it waits for a next-step reset, the actions recorded, and the
hands the episode's rewards cover (those of the games its reset skipped included)."""
S_GROUP, S_ACTOR, S_DEAL, S_DONE, S_WAIT, S_REC, S_DEALS, S_N = range(len(SCALARS) + 1)

SEAT_COLUMNS: Final = ("acts", "reward")
"""Each seat's columns of the batch's ``seats`` array: the acts of this hand it has seen (its
history's length; a learner's only) and its reward not yet paid."""
C_ACTS, C_REWARD = range(len(SEAT_COLUMNS))

# Slots of the environment's configuration (``ec``): the learner's seat, whole-game episodes,
# same-step autoreset, the size of one history row, the ``phase`` segment's index for chance,
# a draw-or-buy, a buy offer, a discard and the game's end, then the offsets of the
# observation's segments, and the first dealer (-1: drawn by chance).
(E_ME, E_GAME, E_SAME, E_PER, P_CHANCE, P_DRAW, P_OFFER, P_DISCARD, P_OVER, O_PHASE, O_TOACT,
 O_POS, O_RETAILER, O_HAND, O_LAID, O_DISCARDS, O_LIVE, O_DISCARDER, O_SIZES, O_SUPPLY,
 O_CURRENT, O_STAKES, O_DEAL, O_HIST, E_DEALER, E_N) = range(26)
_SEGMENTS: Final = ("phase", "to_act", "position", "retailer", "hand", "laid", "discards",
                    "live", "discarder", "rack_sizes", "supply", "current_base", "stakes",
                    "deal", "history")

# The history's act kinds (:data:`.encode.KINDS`); a history row holds the kind, the seat and
# up to three faces the act showed (-1 where none).
_DREW, _DREW_CARD, _BOUGHT, _DECLINED, _DISCARDED, _LAID_OUT, _SOLD_OUT = range(7)
assert KINDS == ("drew", "drew_card", "bought", "declined", "discarded", "laid_out",
                 "sold_out")
_ROW: Final = 5

# The action space (:mod:`.encode`): draw, buy, decline, then a discard and a sell-out a face.
_A_DRAW, _A_BUY, _A_DECLINE, _A_DISCARD = range(4)
_A_SELL: Final = _A_DISCARD + FACES

_HONOUR0: Final = 19
"""The first face of Fruit, Grain and Industries (four single cards a kind, kinds 15-17)."""


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
def _rel(seat: Any, me: Any, p: Any) -> Any:
    """*seat*'s place counted from *me*."""
    r = seat - me
    return r + p if r < 0 else r


@uncounted()
def _spots(g: Any, cfg: Any, spot: Any) -> None:
    """How many of each honour face (19-30) are in a rack, the discard pile or the supply,
    into ``spot[19:31]``: 0 for a card laid out."""
    for f in range(_HONOUR0, _HONOUR0 + 12):
        spot[f] = 0
    for s in range(cfg[_P]):
        base = _RACK + s * _FACES
        for f in range(_HONOUR0, _HONOUR0 + 12):
            spot[f] += g[base + f]
    for i in range(g[_NPILE]):
        f = g[_PILE + i]
        if _HONOUR0 <= f < _HONOUR0 + 12:
            spot[f] += 1
    for b in range(4):
        for i in range(g[_TOP + b], g[_BOT + b]):
            f = g[_SUP + b * 20 + i]
            if _HONOUR0 <= f < _HONOUR0 + 12:
                spot[f] += 1


@uncounted()
def _push(e: Any, viewer: Any, act: Any, seat: Any, c0: Any, c1: Any, c2: Any, seats: Any,
          hist: Any) -> None:
    """Append an act to *viewer*'s history (a ring of the last K)."""
    j = seats[e, viewer, C_ACTS] % hist.shape[2]
    hist[e, viewer, j, 0] = act
    hist[e, viewer, j, 1] = seat
    hist[e, viewer, j, 2] = c0
    hist[e, viewer, j, 3] = c1
    hist[e, viewer, j, 4] = c2
    seats[e, viewer, C_ACTS] += 1


@uncounted(inline="always")
def _show(pol: Any, e: Any, viewer: Any, act: Any, seat: Any, c0: Any, seats: Any,
          hist: Any) -> None:
    """An act only *viewer* sees, kept if a learner sits there (bots keep no history)."""
    if pol[viewer] == LEARNER:
        _push(e, viewer, act, seat, c0, -1, -1, seats, hist)


@uncounted(inline="always")
def _show_all(learners: Any, e: Any, act: Any, seat: Any, c0: Any, c1: Any, c2: Any,
              seats: Any, hist: Any) -> None:
    """A public act, kept in every learner's history (*learners*: their seats)."""
    for i in range(learners.shape[0]):
        _push(e, learners[i], act, seat, c0, c1, c2, seats, hist)


@uncounted()
def _laid_acts(e: Any, seat: Any, first: Any, g: Any, cfg: Any, learners: Any, spot: Any,
               seats: Any, hist: Any) -> None:
    """The ``laid_out`` acts of *seat*'s combinations from the *first* on (laid out just now,
    in order): a transport kind's face with the Captain joined to it, or the honour cards of
    the kind that are laid out (their lowest three)."""
    n = g[_NG + seat]
    if first >= n:
        return
    spotted = False
    for i in range(first, n):
        at = seat * _MAXG + i
        k = g[_GK + at]
        if k < 15:
            _show_all(learners, e, _LAID_OUT, seat, k, g[_GC + at], -1, seats, hist)
            continue
        if not spotted:
            _spots(g, cfg, spot)
            spotted = True
        c0, c1, c2 = -1, -1, -1
        for f in range(_HONOUR0 + (k - 15) * 4, _HONOUR0 + (k - 15) * 4 + 4):
            if spot[f] == 0:
                if c0 < 0:
                    c0 = f
                elif c1 < 0:
                    c1 = f
                elif c2 < 0:
                    c2 = f
        _show_all(learners, e, _LAID_OUT, seat, c0, c1, c2, seats, hist)


@uncounted()
def _credit(e: Any, tables: Any, arrays: Any) -> None:
    """The hand just counted: its score paid to every seat, and the episode's end; a new
    hand's logs begin empty."""
    cfg, ec = tables[0], tables[2]
    est, gg, seats = arrays[0], arrays[1], arrays[7]
    g = gg[e]
    p = cfg[_P]
    for s in range(p):
        seats[e, s, C_REWARD] += g[_HSC + s]
    est[e, S_DEALS] += 1
    if g[_PHASE] == _OVER:
        est[e, S_DONE] = 1
        return
    for s in range(p):
        seats[e, s, C_ACTS] = 0
    if ec[E_GAME] == 0:
        est[e, S_DONE] = 1


@uncounted()
def _deal(e: Any, tables: Any, arrays: Any) -> None:
    """Chance deals a hand (the Directors cards, then the supply), the Retailer deals eight
    cards each and the seats lay out what they must; the laid-out combinations are the
    learners' first acts of the hand."""
    cfg, learners = tables[0], tables[3]
    est, gg, ww, _, keys, hist, rec, seats, spots = arrays
    g, spot = gg[e], spots[e]
    cs = chance_start(keys[e], est[e, S_GROUP], (g[_HAND] - 1) % (DEALS_PER_GROUP - 1))
    _, pos = _start_hand(g, cfg, ww[e], cs, e, rec, est[e, S_REC])
    if rec.shape[1] > 0:
        est[e, S_REC] = pos
    p = cfg[_P]
    for s in range(p):
        seats[e, s, C_ACTS] = 0
    for i in range(p):
        seat = (g[_RETAILER] + cfg[_STEP] * i + 2 * p) % p
        _laid_acts(e, seat, 0, g, cfg, learners, spot, seats, hist)


@uncounted()
def _decide(e: Any, root: Any, tables: Any, arrays: Any) -> None:
    """The seat to decide plays (*root*, or its policy's choice where *root* is negative);
    the acts each learner sees are appended to its history; a hand that ends is counted."""
    cfg, pol, learners = tables[0], tables[1], tables[3]
    est, gg, ww, streams, _, hist, rec, seats, spots = arrays
    g, w, spot = gg[e], ww[e], spots[e]
    actor, player, live = g[_ACTOR], g[_PLAYER], g[_LIVE]
    ng_actor, ng_player = g[_NG + actor], g[_NG + player]
    drawn = g[_TOP] + g[_TOP + 1] + g[_TOP + 2] + g[_TOP + 3]
    if root >= 0:
        code = root
    elif pol[actor] == HEURISTIC:
        state, code = heuristic_choice(g, cfg, w, streams[e, 0])
        streams[e, 0] = state
    else:
        n = legal(g, cfg, w)
        state, j = next_below(streams[e, 0], n)
        streams[e, 0] = state
        code = w[_W_LEGAL + j]
    _record(est, rec, e, code)
    ended = apply_code(g, cfg, w, code)
    kind = code >> 7
    if kind == _K_BUY:
        _show_all(learners, e, _BOUGHT, actor, live, -1, -1, seats, hist)
        _laid_acts(e, actor, ng_actor, g, cfg, learners, spot, seats, hist)
    elif kind == _K_DRAW or kind == _K_DECLINE:
        if live >= 0:  # a declined offer only the decliner knows of
            _show(pol, e, actor, _DECLINED, actor, live, seats, hist)
        if g[_TOP] + g[_TOP + 1] + g[_TOP + 2] + g[_TOP + 3] > drawn:  # the turn player drew
            _show_all(learners, e, _DREW, player, -1, -1, -1, seats, hist)
            if pol[player] == LEARNER:
                cur = g[_CUR]
                _push(e, player, _DREW_CARD, player, g[_SUP + cur * 20 + g[_TOP + cur] - 1],
                      -1, -1, seats, hist)
            _laid_acts(e, player, ng_player, g, cfg, learners, spot, seats, hist)
    elif kind == _K_DISCARD:
        _show_all(learners, e, _DISCARDED, actor, _face(code & 127), -1, -1, seats, hist)
    else:
        _show_all(learners, e, _SOLD_OUT, actor, _face(code & 127), -1, -1, seats, hist)
    if ended:
        end_hand(g, cfg, w)
        _credit(e, tables, arrays)


@uncounted()
def _to_learner(e: Any, tables: Any, arrays: Any) -> None:
    """Chance and the bots' seats play until a learner must decide (noted in ``est``) or the
    episode ends."""
    pol = tables[1]
    est, gg = arrays[0], arrays[1]
    while est[e, S_DONE] == 0:
        phase = gg[e, _PHASE]
        if phase == _START:
            _deal(e, tables, arrays)
        elif pol[gg[e, _ACTOR]] == LEARNER:
            est[e, S_ACTOR], est[e, S_DEAL] = gg[e, _ACTOR], gg[e, _HAND]
            return
        else:
            _decide(e, -1, tables, arrays)


@uncounted()
def _new_game(e: Any, tables: Any, arrays: Any) -> None:
    """A fresh game (as :func:`.kernel._play_game` begins one): the Directors' dealer drawn
    by chance (unless the batch fixes him), the first hand about to be dealt. A recording
    notes it as ``-1 - dealer``."""
    cfg, ec = tables[0], tables[2]
    est, gg, keys, rec, seats = arrays[0], arrays[1], arrays[4], arrays[6], arrays[7]
    g = gg[e]
    for i in range(g.shape[0]):
        g[i] = 0
    group = est[e, S_GROUP] + 1
    est[e, S_GROUP] = group
    dealer = ec[E_DEALER]
    if dealer < 0:
        _, dealer = next_below(chance_start(keys[e], group, DEALS_PER_GROUP - 1), cfg[_P])
    _record(est, rec, e, -1 - dealer)
    g[_DEALER] = dealer
    g[_HAND] = 1
    g[_PHASE] = _START
    for s in range(cfg[_P]):
        seats[e, s, C_ACTS] = 0
    est[e, S_DONE], est[e, S_DEALS] = 0, 0


@uncounted()
def _reset_one(e: Any, tables: Any, arrays: Any) -> None:
    """A fresh game, dealt again until a learner has a decision before the episode ends. A
    game that ended first is not lost: what its deals paid each seat comes with the next
    reward, and its deals are counted in the episode's (``deals``)."""
    est, seats = arrays[0], arrays[7]
    est[e, S_WAIT] = 0
    for s in range(seats.shape[1]):
        seats[e, s, C_REWARD] = 0  # the games skipped add theirs
    skipped = 0
    while True:
        _new_game(e, tables, arrays)
        _to_learner(e, tables, arrays)
        if est[e, S_DONE] == 0:
            est[e, S_DEALS] += skipped
            return
        skipped += est[e, S_DEALS]


@uncounted()
def _observe(e: Any, me: Any, row: Any, tables: Any, arrays: Any) -> None:
    """The observation vector (:func:`.encode.encode`) of the learner at seat *me* into
    *row*."""
    cfg, ec = tables[0], tables[2]
    hist, seats = arrays[5], arrays[7]
    spot = arrays[8][e]
    g = arrays[1][e]
    p = cfg[_P]
    for i in range(row.shape[0]):
        row[i] = 0.0
    phase = g[_PHASE]
    for i in range(p):
        x = me + i
        x = x - p if x >= p else x
        row[ec[O_STAKES] + i] = g[_TOT + x]
    row[ec[O_DEAL]] = g[_HAND]
    row[ec[O_DEAL] + 1] = cfg[_HANDS]
    if phase == _START:  # a hand to deal: nothing dealt yet, nobody to act
        row[ec[O_PHASE] + ec[P_CHANCE]] = 1.0
        row[ec[O_TOACT] + p] = 1.0
        row[ec[O_CURRENT] + 4] = 1.0
        return
    if phase == _OVER:
        row[ec[O_PHASE] + ec[P_OVER]] = 1.0
        row[ec[O_TOACT] + p] = 1.0
    elif phase == _OFFER and g[_ACTOR] != me:  # another seat's offer: the turn as it stood
        row[ec[O_PHASE] + ec[P_DRAW]] = 1.0
        row[ec[O_TOACT] + _rel(g[_PLAYER], me, p)] = 1.0
    else:
        slot = ec[P_DRAW] if phase == _TURN else ec[P_OFFER] if phase == _OFFER else \
            ec[P_DISCARD]
        row[ec[O_PHASE] + slot] = 1.0
        row[ec[O_TOACT] + _rel(g[_ACTOR], me, p)] = 1.0
    row[ec[O_POS] + _rel(me, g[_WHOLESALER], p)] = 1.0
    row[ec[O_RETAILER] + _rel(g[_RETAILER], me, p)] = 1.0
    base = _RACK + me * _FACES
    for f in range(_FACES):
        row[ec[O_HAND] + f] = g[base + f]
    spotted = False
    for i in range(p):
        x = me + i
        x = x - p if x >= p else x
        at = ec[O_LAID] + i * _FACES
        for j in range(g[_NG + x]):
            gi = x * _MAXG + j
            k = g[_GK + gi]
            if k < 15:
                row[at + k] += g[_GN + gi]
                if g[_GC + gi] >= 0:
                    row[at + g[_GC + gi]] += 1.0
            else:
                if not spotted:
                    _spots(g, cfg, spot)
                    spotted = True
                for f in range(_HONOUR0 + (k - 15) * 4, _HONOUR0 + (k - 15) * 4 + 4):
                    if spot[f] == 0:
                        row[at + f] += 1.0
        for j in range(4):
            if g[_GB + x * 4 + j] == 1:
                row[at + 31 + j] += 1.0
        row[ec[O_SIZES] + i] = g[_RSIZE + x]
    for i in range(g[_NPILE]):
        row[ec[O_DISCARDS] + g[_PILE + i]] += 1.0
    if phase != _OVER and g[_LIVE] >= 0:
        row[ec[O_LIVE] + g[_LIVE]] = 1.0
        row[ec[O_DISCARDER] + _rel(g[_DISCARDER], me, p)] = 1.0
    for b in range(4):
        row[ec[O_SUPPLY] + b] = g[_BOT + b] - g[_TOP + b]
    cur = g[_CUR]
    while cur < 4 and g[_TOP + cur] >= g[_BOT + cur]:
        cur += 1
    row[ec[O_CURRENT] + cur] = 1.0
    k_max = hist.shape[2]
    acts = seats[e, me, C_ACTS]
    per = ec[E_PER]
    n_kinds = len(KINDS)
    for slot in range(min(acts, k_max)):  # newest first
        j = (acts - 1 - slot) % k_max
        at = ec[O_HIST] + slot * per
        row[at + hist[e, me, j, 0]] = 1.0
        row[at + n_kinds + _rel(hist[e, me, j, 1], me, p)] = 1.0
        for i in range(2, _ROW):
            if hist[e, me, j, i] >= 0:
                row[at + n_kinds + p + hist[e, me, j, i]] = 1.0


@uncounted()
def _mask(e: Any, row: Any, tables: Any, arrays: Any) -> None:
    """The legal actions (:func:`.encode.action_to_int`) of the seat to decide into *row*
    (0/1)."""
    cfg = tables[0]
    est, gg, ww = arrays[0], arrays[1], arrays[2]
    for i in range(row.shape[0]):
        row[i] = 0
    if est[e, S_DONE] == 1:
        return
    w = ww[e]
    for i in range(legal(gg[e], cfg, w)):
        code = w[_W_LEGAL + i]
        kind = code >> 7
        if kind == _K_DRAW:
            row[_A_DRAW] = 1
        elif kind == _K_BUY:
            row[_A_BUY] = 1
        elif kind == _K_DECLINE:
            row[_A_DECLINE] = 1
        elif kind == _K_DISCARD:
            row[_A_DISCARD + _face(code & 127)] = 1
        else:
            row[_A_SELL + _face(code & 127)] = 1


@uncounted(inline="always")
def _code_of(index: Any) -> Any:
    """The kernel's action code of the action space's integer *index*."""
    if index == _A_DRAW:
        return _code(_K_DRAW, -1)
    if index == _A_BUY:
        return _code(_K_BUY, -1)
    if index == _A_DECLINE:
        return _code(_K_DECLINE, -1)
    if index < _A_SELL:
        return _code(_K_DISCARD, index - _A_DISCARD)
    return _code(_K_SELL, index - _A_SELL)


@uncounted()
def reset_envs(first: Any, stop: Any, which: Any, tables: Any, arrays: Any, out: Any,
               work: Any) -> None:
    """Deal a fresh episode in the environments *first* to *stop* marked in *which*, and write
    their observations and masks (*tables*, *arrays* and *out*: the batch's tables, state
    arrays and outputs, in :class:`CoxEnvBatch`'s order; *work* is not read)."""
    est = arrays[0]
    obs, mask, deals = out[0], out[1], out[6]
    me = tables[2][E_ME]
    for e in range(first, stop):
        if which[e]:
            _reset_one(e, tables, arrays)
            deals[e] = est[e, S_DEALS]
            _observe(e, me, obs[e], tables, arrays)
            _mask(e, mask[e], tables, arrays)


@uncounted()
def step_envs(first: Any, stop: Any, actions: Any, tables: Any, arrays: Any, out: Any,
              work: Any) -> None:
    """Environments *first* to *stop*: the learner plays its (legal) action of the action
    space, the other seats and chance play on; rewards, terminations, observations and masks
    written (an environment waiting for a next-step reset is dealt anew instead, its action
    ignored)."""
    ec = tables[2]
    est, seats = arrays[0], arrays[7]
    obs, mask, rewards, terminated, final_obs, final, deals = out
    me = ec[E_ME]
    for e in range(first, stop):
        terminated[e] = False
        final[e] = False
        if est[e, S_WAIT] == 1:
            _reset_one(e, tables, arrays)
            rewards[e] = 0.0
            deals[e] = est[e, S_DEALS]
        else:
            _decide(e, _code_of(actions[e]), tables, arrays)
            _to_learner(e, tables, arrays)
            rewards[e] = seats[e, me, C_REWARD]
            deals[e] = est[e, S_DEALS]
            seats[e, me, C_REWARD] = 0
            if est[e, S_DONE] == 1:
                terminated[e] = True
                if ec[E_SAME] == 1:
                    final[e] = True
                    _observe(e, me, final_obs[e], tables, arrays)
                    _reset_one(e, tables, arrays)
                else:
                    est[e, S_WAIT] = 1
        _observe(e, me, obs[e], tables, arrays)
        _mask(e, mask[e], tables, arrays)


@uncounted()
def table_reset(e: Any, obs: Any, mask: Any, tables: Any, arrays: Any, work: Any) -> None:
    """A fresh episode in environment *e* of a batch whose every seat may be a learner (the
    research API's table, one decision at a time): the seat to decide's observation and mask
    into the rows *obs* and *mask*."""
    _reset_one(e, tables, arrays)
    actor = arrays[0][e, S_ACTOR]
    _observe(e, actor, obs, tables, arrays)
    _mask(e, mask, tables, arrays)


@uncounted()
def table_step(e: Any, index: Any, obs: Any, mask: Any, tables: Any, arrays: Any,
               work: Any) -> None:
    """The seat to decide in environment *e* plays the legal action *index* of the action
    space, chance (and any bot's seat) plays on until a learner must decide or the episode is
    over; then that seat's observation and mask into *obs* and *mask* (the mask all 0 once
    the episode is over). What each seat was paid meanwhile adds up in the ``seats`` array's
    reward column."""
    est = arrays[0]
    _decide(e, _code_of(index), tables, arrays)
    _to_learner(e, tables, arrays)
    _observe(e, est[e, S_ACTOR], obs, tables, arrays)
    _mask(e, mask, tables, arrays)


@uncounted()
def table_observe(e: Any, seat: Any, row: Any, tables: Any, arrays: Any) -> None:
    """The observation vector of the learner at *seat* in environment *e* into *row*."""
    _observe(e, seat, row, tables, arrays)


class CoxEnvBatch(EnvBatch):
    """*num_envs* games of one Cox ruleset, the learner at *seat* (or every seat whose policy
    code is :data:`commerce.kernelkit.LEARNER`), stepped together.

    The arrays a step writes (read them, copy what you keep): :attr:`obs`, :attr:`mask`,
    :attr:`rewards`, :attr:`terminated`, and with same-step autoreset :attr:`final_obs` and
    :attr:`final` (the ended episodes' last observation, and which ended).
    """

    reset_envs = reset_envs
    step_envs = step_envs
    table_reset = table_reset
    table_step = table_step
    table_observe = table_observe
    paid_at = (7, C_REWARD)
    decode_action = staticmethod(decode_action)

    def __init__(self, kernel: CoxKernel, num_envs: int, seat: int,
                 policies: Sequence[int], boldness: Sequence[float], *, episode: str,
                 same_step: bool, record: int, dealer: int | None = None) -> None:
        rules, p = kernel.rules, kernel.players
        offsets, self.observation_size = segment_offsets(layout(rules, p))
        assert set(offsets) == set(_SEGMENTS)  # in the layout's order, whatever it is
        self.num_actions = _A_SELL + FACES
        kinds = list(DECISION_KINDS)
        ec = np.zeros(E_N, np.int64)
        ec[E_ME], ec[E_GAME], ec[E_SAME] = seat, episode == "game", int(same_step)
        ec[E_PER] = len(KINDS) + p + FACES
        ec[P_CHANCE] = kinds.index(DecisionKind.CHANCE)
        ec[P_DRAW] = kinds.index(DecisionKind.DRAW_OR_BUY)
        ec[P_OFFER] = kinds.index(DecisionKind.BUY_OFFER)
        ec[P_DISCARD] = kinds.index(DecisionKind.DISCARD)
        ec[P_OVER] = len(kinds)
        for i, name in enumerate(_SEGMENTS):
            ec[O_PHASE + i] = offsets[name]
        ec[E_DEALER] = -1 if dealer is None else dealer
        self.num_envs, self.seat, self.players = num_envs, seat, p
        pol = np.array(policies, np.int64)
        if 0 <= seat < p:
            pol[seat] = LEARNER
        # the Cox heuristic has no boldness; the learners' seats last
        self.tables = (kernel.cfg, pol, ec, np.flatnonzero(pol == LEARNER).astype(np.int64))

        def rows(*shape: int) -> Any:
            return np.zeros((num_envs, *shape), np.int64)

        self.est = rows(S_N)
        self.keys = np.zeros(num_envs, np.uint64)
        # in this order: (est, g, w, streams, keys, hist, rec, seats, spot); spot: where the
        # honour cards are (:func:`_spots`), a working row kept with the state so that any
        # seat's observation can be written from the state alone
        self.state = (self.est, rows(STATE_SIZE), rows(SCRATCH_SIZE),
                      np.zeros((num_envs, 1), np.uint64), self.keys, rows(p, HISTORY, _ROW),
                      rows(record), rows(p, len(SEAT_COLUMNS)), rows(_FACES))
        self.work = (self.state[8],)
        self.status, self.wait_slot, self.record_slot, self.record_at = self.est, S_WAIT, \
            S_REC, 6
        self.scalars = SCALARS
        self._outputs()

    def seed(self, seeds: Sequence[int]) -> None:
        """Restart each environment's random streams from its own seed (one per
        environment): its players' stream and the key of its hands' chance streams."""
        streams = self.state[3]
        mask = (1 << 64) - 1
        for e, s in enumerate(seeds):
            key = master_key(int(s))
            self.keys[e] = key
            streams[e, 0] = mix64((key + GAMMA) & mask)
        self.est[:, S_GROUP] = -1


def env_kernel(rules: Ruleset, players: int) -> EnvKernel:
    """The steppable kernel of *rules* at *players* seats (the family's ``env_kernel`` hook).

    :raises RulesetError: for an option the compiled kernel does not play, or a table size the
        ruleset refuses.
    """
    return EnvKernel(rules, players, build(rules, players), CoxEnvBatch, every_seat=True)
