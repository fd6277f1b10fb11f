"""The trading family's steppable kernel: many games at once, one learning seat against compiled
bots, behind the research API's vector environment (:class:`commerce.rl.vector.CommerceVectorEnv`).

Where :mod:`.kernel` plays whole games to their end, this module stops every game at the
learning seat's decisions. Each of *N* games (an *environment*) is held in rows of arrays: its
hands, the unseen stock and the traded-in cards under it, the balances, the learner's last
visible acts, and the scalars of where play stands (:data:`SCALARS`). One compiled call
(:func:`step_envs`) applies the learner's action in every environment, then plays the other
seats by their compiled policies (random, or the heuristic of :mod:`.compiled_heuristic`) and
chance by the environment's own streams until the learner must decide again or the episode
ends, and writes into preallocated arrays the learner's observation (the very vector of
:func:`.encode.encode` of ``engine.observe(state, seat)``, built only from what the seat may
know), its legal actions' mask, its reward and whether the episode ended. An ended episode is
dealt anew in the same call (Gymnasium's same-step autoreset, its final observation kept
apart) or at the next call (next-step autoreset), as the batch was made.

The rules are those of :mod:`.turn` and :mod:`.settle`, played by the steps every compiled
loop of the family calls (:mod:`.compiled_rules`: the deal, the turn loop
``_rest_of_deal`` stopping after one decision, the showdown); this module keeps only what an
environment adds: the learners' histories, the rewards, episodes, and the observation and
mask. ``tests/test_rl_vector.py`` replays every
recorded action through the reference engine and compares every observation, mask and reward.
An episode is a deal (the first of a fresh game) or a whole game; one that ends before the
learner's first decision is not shown (a fresh game is dealt), as :class:`commerce.rl.gym.
CommerceGym` does, but what it paid the learner comes with the next reward and its deals are
counted in the batch's ``deals``. The rulesets and options played are the whole-game kernel's
(:func:`.kernel.check_supported`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from commerce.encoding import DECISION_KINDS, segment_offsets
from commerce.families.trading.compiled_heuristic import (
    _BARTER,
    _DONE,
    _GIVE,
    _NONE,
    _STAND,
    _TRADE,
    AFTER_TRADE,
    BARTER_REPLY,
    TURN,
)
from commerce.families.trading.compiled_rules import (
    _ANYTIME,
    _BH,
    _BL,
    _BSTEP,
    _COUNT,
    _DEALS,
    _DMAYTRADE,
    _FAT,
    _FN,
    _LAST,
    _MAYBARTER,
    _N_SC,
    _NU,
    _OFFERED,
    _P,
    _PHASE,
    _PMAYSTAND,
    _POOL,
    _POS,
    _RETORIG,
    _SEAT,
    _STANDER,
    _STEP,
    _TAKEN,
    PAUSED,
    _antes,
    _deal_cards,
    _lowest_combination,
    _rest_of_deal,
    _showdown,
    _turn,
)
from commerce.families.trading.encode import HISTORY, KINDS, layout
from commerce.families.trading.kernel import TradingKernel, build
from commerce.kernelkit import (
    GAMMA,
    LEARNER,
    EnvBatch,
    EnvKernel,
    master_key,
    mix64,
    next_below,
    uncounted,
)
from commerce.rules import Ruleset

__all__ = ["SCALARS", "SEAT_COLUMNS", "TradingEnvBatch", "env_kernel", "reset_envs",
           "step_envs", "table_chance", "table_observe", "table_reset", "table_step",
           "table_unseen"]

# Where play stands (the reference's Phase values; DEALING: a deal's antes are paid, nothing
# dealt: the state a deal episode ends in).
_DEALING, _OVER = 0, 5

SCALARS: Final = ("unseen", "bottom_head", "bottom_len", "pool", "stander", "taken",
                  "recorded", "decisions", "seat", "phase", "offered", "forced_at", "forced",
                  "last", "dealer", "deal", "actor", "done", "waiting", "deals")
"""The per-environment scalars, the columns of the batch's ``st`` array. The first are the
deal's scalars of the compiled turn rules (:func:`.compiled_rules._rest_of_deal`, in its
``sc`` order): the unseen cards of the stock, the traded-in queue under them (head, length),
the pool, the stander, turns begun this deal, the actions recorded, the decisions taken,
whose turn it is, the phase, the card of a pending barter (-1: none), the queue of cards
chance is to deal next (the next's place in the ``forced`` array and their number: the
research API's explicit chance; none: chance draws from the game's stream) and the last
decision's code. Then: the dealer, the deal's number (from 1), who decides now, whether the
episode is over, whether it waits for a next-step reset, and the deals the episode's rewards
cover (those of the games its reset skipped included)."""
(S_NU, S_BH, S_BL, S_POOL, S_STANDER, S_TAKEN, S_REC, S_COUNT, S_SEAT, S_PHASE, S_OFFERED,
 S_FAT, S_FN, S_LAST) = (_NU, _BH, _BL, _POOL, _STANDER, _TAKEN, _POS, _COUNT, _SEAT, _PHASE,
                         _OFFERED, _FAT, _FN, _LAST)
(S_DEALER, S_DEALNO, S_ACTOR, S_DONE, S_WAIT, S_DEALS, S_N) = range(_N_SC, _N_SC + 7)
assert SCALARS.index("dealer") == S_DEALER and len(SCALARS) == S_N

SEAT_COLUMNS: Final = ("acts", "start", "reward")
"""Each seat's columns of the batch's ``seats`` array: the acts of this deal it has seen (its
history's length), its balance before this deal's ante, and its reward not yet paid."""
C_ACTS, C_START, C_REWARD = range(len(SEAT_COLUMNS))

# Slots of the environment's configuration (``ec``): the learner's seat, whole-game episodes,
# the pack's size and first card, then the offsets of the observation's segments, the size of
# one history row, the phase one-hot's index for each phase, same-step autoreset, and the first
# dealer (-1: drawn by chance).
(E_ME, E_GAME, E_NPACK, E_OFFSET, O_PHASE, O_TOACT, O_POS, O_HAND, O_OFFERED, O_STAKES,
 O_POOL, O_STOCK, O_DEAL, O_HIST, E_PER, K_CHANCE, K_TURN, K_AFTER, K_REPLY, K_OVER, E_COMBO,
 E_SAME, E_DEALER, E_N) = range(24)

# The history's act kinds (:data:`.encode.KINDS`).
(_STOOD, _TRADED, _TRADED_CARD, _DREW, _OFFERED_ACT, _BARTER_CARD, _BARTERED,
 _RETURNED) = range(8)
assert KINDS == ("stood", "traded", "traded_card", "drew", "barter_offered", "barter_card",
                 "bartered", "barter_returned")


@uncounted(inline="always")
def _record(st: Any, rec: Any, e: Any, code: Any) -> None:
    """Record *code* in environment *e*'s row (a count past the row's end tells of an
    overflow)."""
    if rec.shape[1] > 0:
        n = st[e, S_REC]
        if n < rec.shape[1]:
            rec[e, n] = code
        st[e, S_REC] = n + 1


@uncounted(inline="always")
def _push(seats: Any, hist: Any, e: Any, viewer: Any, kind: Any, seat: Any, card: Any) -> None:
    """An act *viewer* sees, appended to its history (a ring of the last K)."""
    j = seats[e, viewer, C_ACTS] % hist.shape[2]
    hist[e, viewer, j, 0] = kind
    hist[e, viewer, j, 1] = seat
    hist[e, viewer, j, 2] = card
    seats[e, viewer, C_ACTS] += 1


@uncounted(inline="always")
def _show(pol: Any, seats: Any, hist: Any, e: Any, viewer: Any, kind: Any, seat: Any,
          card: Any) -> None:
    """An act only *viewer* sees, kept if a learner sits there (bots keep no history)."""
    if pol[viewer] == LEARNER:
        _push(seats, hist, e, viewer, kind, seat, card)


@uncounted(inline="always")
def _show_all(pol: Any, seats: Any, hist: Any, e: Any, kind: Any, seat: Any,
              card: Any) -> None:
    """A public act, kept in every learner's history."""
    for viewer in range(pol.shape[0]):
        if pol[viewer] == LEARNER:
            _push(seats, hist, e, viewer, kind, seat, card)


@uncounted()
def _start_deal(e: Any, tables: Any, arrays: Any) -> None:
    """A deal begins: antes into the pool (:func:`.compiled_rules._antes`), the whole pack
    unseen, nothing dealt."""
    cfg, pack_cards = tables[0], tables[2]
    st, unseen, balances, seats = arrays[0], arrays[2], arrays[4], arrays[8]
    dealer = st[e, S_DEALER]
    for s in range(cfg[_P]):
        seats[e, s, C_ACTS] = 0
    st[e, S_POOL] = _antes(cfg, balances[e], seats[e, :, C_START], dealer)
    n = pack_cards.shape[0]
    for i in range(n):
        unseen[e, i] = pack_cards[i]
    st[e, S_NU], st[e, S_BH], st[e, S_BL] = n, 0, 0
    st[e, S_OFFERED], st[e, S_PHASE], st[e, S_TAKEN] = -1, _DEALING, 0
    st[e, S_SEAT], st[e, S_ACTOR] = dealer, dealer


@uncounted()
def _deal(e: Any, tables: Any, arrays: Any) -> None:
    """Chance deals three cards each (:func:`.compiled_rules._deal_cards`); the eldest hand's
    turn begins."""
    cfg, pack_cards = tables[0], tables[2]
    st, hands, unseen, streams, rec, forced = (arrays[0], arrays[1], arrays[2], arrays[6],
                                               arrays[7], arrays[9])
    p, step = cfg[_P], cfg[_STEP]
    eldest = _turn(st[e, S_DEALER], step, p)
    cs, pos, fat, fn = _deal_cards(streams[e, 1], eldest, step, p, pack_cards, unseen[e],
                                   hands[e], rec[e], st[e, S_REC], forced[e], st[e, S_FAT],
                                   st[e, S_FN])
    streams[e, 1] = cs
    st[e, S_REC], st[e, S_FAT], st[e, S_FN] = pos, fat, fn
    st[e, S_NU] = pack_cards.shape[0] - 3 * p
    st[e, S_SEAT], st[e, S_ACTOR], st[e, S_TAKEN], st[e, S_PHASE] = eldest, eldest, 1, TURN


@uncounted()
def _new_game(e: Any, tables: Any, arrays: Any) -> None:
    """A fresh game: even balances, the first dealer drawn by chance (unless the batch fixes
    him), the first deal dealt. A recording notes it as ``-1 - dealer``."""
    cfg, ec = tables[0], tables[1]
    st, balances, streams, rec = arrays[0], arrays[4], arrays[6], arrays[7]
    p = cfg[_P]
    for s in range(p):
        balances[e, s] = 0
    dealer = ec[E_DEALER]
    if dealer < 0:
        cs, dealer = next_below(streams[e, 1], p)
        streams[e, 1] = cs
    _record(st, rec, e, -1 - dealer)
    st[e, S_DEALER], st[e, S_DEALNO], st[e, S_DONE] = dealer, 1, 0
    st[e, S_DEALS] = 0
    _start_deal(e, tables, arrays)
    _deal(e, tables, arrays)


@uncounted()
def _settle(e: Any, stander: Any, tables: Any, arrays: Any, work: Any) -> None:
    """The showdown (:func:`.compiled_rules._showdown`); each seat's reward is what the deal
    paid it. Then the game is over, or the next deal begins (dealt at once in a whole-game
    episode; a deal episode ends with its antes paid)."""
    cfg, ec, rank3 = tables[0], tables[1], tables[3]
    st, hands, balances, seats = arrays[0], arrays[1], arrays[4], arrays[8]
    ranks, order, won = work
    p = cfg[_P]
    _showdown(cfg, hands[e], rank3, balances[e], won[e], st[e, S_DEALER], stander,
              st[e, S_POOL], ranks[e], order[e])
    for s in range(p):
        seats[e, s, C_REWARD] += balances[e, s] - seats[e, s, C_START]
    st[e, S_DEALS] += 1
    if st[e, S_DEALNO] >= p * cfg[_DEALS]:
        st[e, S_PHASE], st[e, S_POOL], st[e, S_DONE] = _OVER, 0, 1
        return
    st[e, S_DEALER] = _turn(st[e, S_DEALER], cfg[_STEP], p)
    st[e, S_DEALNO] += 1
    _start_deal(e, tables, arrays)
    if ec[E_GAME] == 1:
        _deal(e, tables, arrays)
    else:
        st[e, S_DONE] = 1


@uncounted()
def _play(e: Any, root: Any, tables: Any, arrays: Any, work: Any) -> None:
    """The seat to decide in environment *e* plays the legal action *root* (its policy's
    choice where negative: random, from the environment's players' stream, or the heuristic)
    by the turn rules every compiled loop shares (:func:`.compiled_rules._rest_of_deal`, one
    decision); each learner's history gets the acts it may see; a deal that ends is
    settled."""
    cfg, ec, _, rank3, strength, pwin, give_value, after_win, pol, bold = tables
    st, hands, unseen, bottom, balances, hist, streams, rec, seats, forced = arrays
    sc = st[e]  # its first columns are the turn rules' scalars
    phase, seat, actor = sc[S_PHASE], sc[S_SEAT], sc[S_ACTOR]
    _rest_of_deal(e, streams[e], sc, cfg, rank3, strength, pwin, give_value, after_win,
                  ec[E_COMBO], pol, bold, hands[e], unseen[e], bottom[e], balances[e],
                  sc[S_DEALER], root, rec[e], -1, forced[e], True)
    _seen(e, phase, seat, actor, sc[S_LAST], tables, arrays)
    if sc[S_STANDER] != PAUSED:
        _settle(e, sc[S_STANDER], tables, arrays, work)
    elif sc[S_PHASE] == BARTER_REPLY:
        sc[S_ACTOR] = _turn(sc[S_SEAT], cfg[_BSTEP], cfg[_P])
    else:
        sc[S_ACTOR] = sc[S_SEAT]


@uncounted(inline="always")
def _seen(e: Any, phase: Any, seat: Any, actor: Any, code: Any, tables: Any,
          arrays: Any) -> None:
    """The acts of the decision *code* that *actor* took in the turn of *seat* at *phase*,
    appended to the history of each learner who may see them (the reference's events and
    their ``visible_to``, :mod:`.turn`)."""
    cfg, pol = tables[0], tables[8]
    hands, hist, seats = arrays[1], arrays[5], arrays[8]
    kind, card = code & ~63, code & 63
    if kind == _STAND:
        _show_all(pol, seats, hist, e, _STOOD, actor, -1)
    elif phase == TURN and kind == _TRADE:  # the card drawn goes last
        _show_all(pol, seats, hist, e, _TRADED, actor, -1)
        _show(pol, seats, hist, e, actor, _TRADED_CARD, actor, card)
        _show(pol, seats, hist, e, actor, _DREW, actor, hands[e, actor, 2])
    elif phase == TURN:  # a barter offered to the neighbour
        partner = _turn(actor, cfg[_BSTEP], cfg[_P])
        _show_all(pol, seats, hist, e, _OFFERED_ACT, actor, -1)
        _show(pol, seats, hist, e, actor, _BARTER_CARD, actor, card)
        if partner != actor:
            _show(pol, seats, hist, e, partner, _BARTER_CARD, actor, card)
    elif phase == BARTER_REPLY:  # the partner gave *card* back for the offered card
        _show_all(pol, seats, hist, e, _BARTERED, seat, -1)
        _show(pol, seats, hist, e, seat, _RETURNED, actor, card)
        if actor != seat:
            _show(pol, seats, hist, e, actor, _RETURNED, actor, card)


@uncounted()
def _advance(e: Any, tables: Any, arrays: Any, work: Any) -> None:
    """The bots' seats play until a learner must decide or the episode is over."""
    st = arrays[0]
    pol = tables[8]
    while st[e, S_DONE] == 0 and pol[st[e, S_ACTOR]] != LEARNER:
        _play(e, -1, tables, arrays, work)


@uncounted()
def _reset_one(e: Any, tables: Any, arrays: Any, work: Any) -> None:
    """A fresh game, dealt again until the learner has a decision before the episode ends. A
    game that ended first is not lost: what its deals paid the learner comes with the next
    reward, and its deals are counted in the episode's (``deals``)."""
    st, seats = arrays[0], arrays[8]
    st[e, S_WAIT] = 0
    for s in range(seats.shape[1]):
        seats[e, s, C_REWARD] = 0  # the games skipped add theirs
    skipped = 0
    while True:
        _new_game(e, tables, arrays)
        _advance(e, tables, arrays, work)
        if st[e, S_DONE] == 0:
            st[e, S_DEALS] += skipped
            return
        skipped += st[e, S_DEALS]


@uncounted()
def _observe(e: Any, me: Any, row: Any, tables: Any, arrays: Any) -> None:
    """The observation vector (:func:`.encode.encode`) of the learner at seat *me* into
    *row*."""
    cfg, ec = tables[0], tables[1]
    st, hands, balances, hist, seats = arrays[0], arrays[1], arrays[4], arrays[5], arrays[8]
    p = cfg[_P]
    offset = ec[E_OFFSET]
    for i in range(row.shape[0]):
        row[i] = 0.0
    phase = st[e, S_PHASE]
    if phase == _OVER:
        row[ec[O_PHASE] + ec[K_OVER]] = 1.0
        row[ec[O_TOACT] + p] = 1.0
    elif phase == _DEALING:
        row[ec[O_PHASE] + ec[K_CHANCE]] = 1.0
        row[ec[O_TOACT] + p] = 1.0
    else:
        k = ec[K_TURN] if phase == TURN else ec[K_AFTER] if phase == AFTER_TRADE \
            else ec[K_REPLY]
        row[ec[O_PHASE] + k] = 1.0
        who = st[e, S_ACTOR] - me
        row[ec[O_TOACT] + (who + p if who < 0 else who)] = 1.0
    pos = me - st[e, S_DEALER]
    row[ec[O_POS] + (pos + p if pos < 0 else pos)] = 1.0
    if phase != _DEALING:
        for i in range(3):
            row[ec[O_HAND] + hands[e, me, i] - offset] = 1.0
    offered = st[e, S_OFFERED]
    if offered >= 0 and (me == st[e, S_SEAT] or me == st[e, S_ACTOR]):
        row[ec[O_OFFERED] + offered - offset] = 1.0
    for i in range(p):
        s = me + i
        row[ec[O_STAKES] + i] = balances[e, s - p if s >= p else s]
    row[ec[O_POOL]] = st[e, S_POOL]
    row[ec[O_STOCK]] = st[e, S_NU] + st[e, S_BL]
    row[ec[O_DEAL]] = st[e, S_DEALNO]
    row[ec[O_DEAL] + 1] = p * cfg[_DEALS]
    k_max = hist.shape[2]
    acts = seats[e, me, C_ACTS]
    per = ec[E_PER]
    n_kinds = len(KINDS)
    for slot in range(min(acts, k_max)):  # newest first
        j = (acts - 1 - slot) % k_max
        base = ec[O_HIST] + slot * per
        row[base + hist[e, me, j, 0]] = 1.0
        who = hist[e, me, j, 1] - me
        row[base + n_kinds + (who + p if who < 0 else who)] = 1.0
        if hist[e, me, j, 2] >= 0:
            row[base + n_kinds + p + hist[e, me, j, 2] - offset] = 1.0


@uncounted()
def _mask(e: Any, me: Any, row: Any, tables: Any, arrays: Any) -> None:
    """The legal actions (:func:`.encode.action_to_int`) of the learner at seat *me*, the seat
    to decide, into *row* (0/1)."""
    cfg, ec, rank3 = tables[0], tables[1], tables[3]
    st, hands = arrays[0], arrays[1]
    for i in range(row.shape[0]):
        row[i] = 0
    if st[e, S_DONE] == 1:
        return
    n, offset = ec[E_NPACK], ec[E_OFFSET]
    phase = st[e, S_PHASE]
    a, b, c = hands[e, me, 0], hands[e, me, 1], hands[e, me, 2]
    stand_ok = cfg[_ANYTIME] == 1 or rank3[a, b, c] >= ec[E_COMBO]
    if phase == TURN:
        if stand_ok:
            row[0] = 1
        if me != st[e, S_DEALER] or cfg[_DMAYTRADE] == 1:
            for i in range(3):
                row[2 + hands[e, me, i] - offset] = 1
        if cfg[_MAYBARTER] == 1:
            for i in range(3):
                row[2 + n + hands[e, me, i] - offset] = 1
    elif phase == AFTER_TRADE:
        if stand_ok:
            row[0] = 1
        row[1] = 1
    else:
        if cfg[_PMAYSTAND] == 1:
            row[0] = 1
        for i in range(3):
            row[2 + 2 * n + hands[e, me, i] - offset] = 1
        if cfg[_RETORIG] == 0:
            row[2 + 2 * n + st[e, S_OFFERED] - offset] = 1


@uncounted(inline="always")
def _code_of(index: Any, n: Any, offset: Any) -> Any:
    """The action code of the action space's integer *index*."""
    if index == 0:
        return _STAND + _NONE
    if index == 1:
        return _DONE + _NONE
    group, card = (index - 2) // n, offset + (index - 2) % n
    return (_TRADE if group == 0 else _BARTER if group == 1 else _GIVE) + card


@uncounted()
def reset_envs(first: Any, stop: Any, which: Any, tables: Any, arrays: Any, out: Any,
               work: Any) -> None:
    """Deal a fresh episode in the environments *first* to *stop* marked in *which*, and write
    their observations and masks (*tables*, *arrays* and *out*: the batch's tables, state
    arrays and outputs, in :class:`TradingEnvBatch`'s order)."""
    st = arrays[0]
    obs, mask, deals = out[0], out[1], out[6]
    me = tables[1][E_ME]
    for e in range(first, stop):
        if which[e]:
            _reset_one(e, tables, arrays, work)
            deals[e] = st[e, S_DEALS]
            _observe(e, me, obs[e], tables, arrays)
            _mask(e, me, mask[e], tables, arrays)


@uncounted()
def step_envs(first: Any, stop: Any, actions: Any, tables: Any, arrays: Any, out: Any,
              work: Any) -> None:
    """Environments *first* to *stop*: the learner plays its (legal) action of the action
    space, the other seats and chance play on; rewards, terminations, observations and masks
    written (an environment waiting for a next-step reset is dealt anew instead, its action
    ignored)."""
    ec = tables[1]
    st, seats = arrays[0], arrays[8]
    obs, mask, rewards, terminated, final_obs, final, deals = out
    n, offset, me = ec[E_NPACK], ec[E_OFFSET], ec[E_ME]
    for e in range(first, stop):
        terminated[e] = False
        final[e] = False
        if st[e, S_WAIT] == 1:
            _reset_one(e, tables, arrays, work)
            rewards[e] = 0.0
            deals[e] = st[e, S_DEALS]
        else:
            _play(e, _code_of(actions[e], n, offset), tables, arrays, work)
            _advance(e, tables, arrays, work)
            rewards[e] = seats[e, me, C_REWARD]
            deals[e] = st[e, S_DEALS]
            seats[e, me, C_REWARD] = 0
            if st[e, S_DONE] == 1:
                terminated[e] = True
                if ec[E_SAME] == 1:
                    final[e] = True
                    _observe(e, me, final_obs[e], tables, arrays)
                    _reset_one(e, tables, arrays, work)
                else:
                    st[e, S_WAIT] = 1
        _observe(e, me, obs[e], tables, arrays)
        _mask(e, me, mask[e], tables, arrays)


@uncounted()
def table_reset(e: Any, obs: Any, mask: Any, tables: Any, arrays: Any, work: Any) -> None:
    """A fresh episode in environment *e* of a batch whose every seat is a learner (the
    research API's table, one decision at a time): the seat to decide's observation and mask
    into the rows *obs* and *mask*."""
    _reset_one(e, tables, arrays, work)
    actor = arrays[0][e, S_ACTOR]
    _observe(e, actor, obs, tables, arrays)
    _mask(e, actor, mask, tables, arrays)


@uncounted()
def table_step(e: Any, index: Any, obs: Any, mask: Any, tables: Any, arrays: Any,
               work: Any) -> None:
    """The seat to decide in environment *e* plays the legal action *index* of the action
    space, chance (and any bot's seat) plays on until a seat must decide or the episode is
    over; then that seat's observation and mask into *obs* and *mask* (the mask all 0 once
    the episode is over). What each seat was paid meanwhile adds up in the ``seats`` array's
    reward column."""
    ec = tables[1]
    st = arrays[0]
    _play(e, _code_of(index, ec[E_NPACK], ec[E_OFFSET]), tables, arrays, work)
    _advance(e, tables, arrays, work)
    actor = st[e, S_ACTOR]
    _observe(e, actor, obs, tables, arrays)
    _mask(e, actor, mask, tables, arrays)


@uncounted()
def table_observe(e: Any, seat: Any, row: Any, tables: Any, arrays: Any) -> None:
    """The observation vector of the learner at *seat* in environment *e* into *row*."""
    _observe(e, seat, row, tables, arrays)


@uncounted()
def table_chance(e: Any, index: Any, tables: Any, arrays: Any) -> Any:
    """Whether the legal action *index* of the seat to decide in environment *e* is followed by
    chance's card (a trade while the stock has unseen cards; from the traded-in cards under
    them, the next comes back without chance)."""
    n, st = tables[1][E_NPACK], arrays[0]
    return 2 <= index < 2 + n and st[e, S_PHASE] == TURN and st[e, S_NU] > 0


@uncounted()
def table_unseen(e: Any, out: Any, arrays: Any) -> Any:
    """The cards chance may deal next in environment *e* (the stock's unseen cards) into
    *out*; returns their number."""
    n = arrays[0][e, S_NU]
    for i in range(n):
        out[i] = arrays[2][e, i]
    return n


def _stream_pair(seed: int) -> tuple[int, int]:
    """An environment's two streams (its players', chance's) from its own 64-bit *seed*."""
    key = master_key(seed)
    mask = (1 << 64) - 1
    return mix64((key + GAMMA) & mask), mix64((key + 2 * GAMMA) & mask)


class TradingEnvBatch(EnvBatch):
    """*num_envs* games of one trading ruleset, the learner at *seat*, stepped together.

    The arrays a step writes (read them, copy what you keep): :attr:`obs`, :attr:`mask`,
    :attr:`rewards`, :attr:`terminated`, and with same-step autoreset :attr:`final_obs` and
    :attr:`final` (the ended episodes' last observation, and which ended).
    """

    reset_envs = reset_envs
    step_envs = step_envs
    table_reset = table_reset
    table_step = table_step
    table_observe = table_observe
    table_chance = table_chance
    table_unseen = table_unseen
    forced_index = 9
    paid_at = (8, C_REWARD)

    def __init__(self, kernel: TradingKernel, num_envs: int, seat: int,
                 policies: Sequence[int], boldness: Sequence[float], *, episode: str,
                 same_step: bool, record: int, dealer: int | None = None) -> None:
        rules, p = kernel.rules, kernel.players
        segments = layout(rules, p)
        offsets, self.observation_size = segment_offsets(segments)
        n_pack = rules.pack
        self.num_actions = 2 + 3 * n_pack
        kinds = DECISION_KINDS
        names = [k.value for k in kinds]
        ec = np.zeros(E_N, np.int64)
        ec[E_ME], ec[E_GAME], ec[E_NPACK], ec[E_OFFSET] = seat, episode == "game", n_pack, \
            52 - n_pack
        for slot, name in ((O_PHASE, "phase"), (O_TOACT, "to_act"), (O_POS, "position"),
                           (O_HAND, "hand"), (O_OFFERED, "offered"), (O_STAKES, "stakes"),
                           (O_POOL, "pool"), (O_STOCK, "stock"), (O_DEAL, "deal"),
                           (O_HIST, "history")):
            ec[slot] = offsets[name]
        ec[E_PER] = len(KINDS) + p + n_pack
        ec[K_CHANCE], ec[K_TURN] = names.index("chance"), names.index("turn")
        ec[K_AFTER], ec[K_REPLY] = names.index("after_trade"), names.index("barter_reply")
        ec[K_OVER] = len(kinds)
        ec[E_COMBO] = _lowest_combination(kernel.cat_code)
        ec[E_SAME] = int(same_step)
        ec[E_DEALER] = -1 if dealer is None else dealer
        self.num_envs, self.seat, self.players = num_envs, seat, p
        pol = np.array(policies, np.int64)
        if 0 <= seat < p:
            pol[seat] = LEARNER
        self.tables = (kernel.cfg, ec, kernel.pack_cards, kernel.rank3, kernel.strength,
                       kernel.pwin, kernel.give_value, kernel.after_win, pol,
                       np.array(boldness, np.float64))
        self.st = np.zeros((num_envs, S_N), np.int64)
        self.state = (self.st, np.zeros((num_envs, p, 3), np.int64),
                      np.zeros((num_envs, n_pack), np.int64),
                      np.zeros((num_envs, n_pack), np.int64), np.zeros((num_envs, p), np.int64),
                      np.zeros((num_envs, p, HISTORY, 3), np.int64),
                      np.zeros((num_envs, 2), np.uint64),
                      np.zeros((num_envs, record), np.int64),
                      np.zeros((num_envs, p, len(SEAT_COLUMNS)), np.int64),
                      np.zeros((num_envs, 3 * p), np.int64))
        self.status, self.wait_slot, self.record_slot, self.record_at = self.st, S_WAIT, \
            S_REC, 7
        self.scalars = SCALARS
        self.pack = kernel.pack_cards
        self._outputs()
        # the showdown's working rows (ranks, order, deals won), one per game
        self.work = tuple(np.zeros((num_envs, p), np.int64) for _ in range(3))

    def seed(self, seeds: Sequence[int]) -> None:
        """Restart each environment's random streams from its own seed (one per
        environment)."""
        streams = self.state[6]
        for e, s in enumerate(seeds):
            streams[e] = _stream_pair(int(s))


def env_kernel(rules: Ruleset, players: int) -> EnvKernel:
    """The steppable kernel of *rules* at *players* seats (the family's ``env_kernel`` hook).

    :raises RulesetError: for an option the compiled kernel does not play.
    """
    return EnvKernel(rules, players, build(rules, players), TradingEnvBatch, every_seat=True)
