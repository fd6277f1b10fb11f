"""The search bot's playouts on Cox's compiled kernel (:func:`playouts`, the kernel's turn loop
:func:`.compiled_game._advance` from a drawn state to the end of its hand): a reference state turned
into the kernel's state array, and each playout's scores for the hand.

A reference :class:`~commerce.families.cox.state.CoxState` (a drawn state, at a seat's
decision) becomes one array as :mod:`.compiled_rules` lays it out: the turn's scalars, the
offer queue, each rack as a count per face, each laid-out combination as its kind, natural
cards, Captain and size, the Greenbacks, base numbers and totals, the discard pile and the
Supply Bases (each from its top card). The playouts ask only the seats that may buy a
discard, as the Python playouts do (:func:`.search.playout`): the others could only
decline, which changes nothing but the number of steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, NamedTuple

import numba
import numpy as np

from commerce.core import Action, Seat
from commerce.errors import RulesetError
from commerce.families.cox.cards import face_of, is_wild, kind_of
from commerce.families.cox.compiled_game import _advance
from commerce.families.cox.compiled_rules import (
    _ACTOR,
    _BN,
    _BOT,
    _BOUGHT,
    _CUR,
    _DEALER,
    _DISCARDER,
    _ELIGIBLE,
    _FACES,
    _GB,
    _GC,
    _GK,
    _GN,
    _GSZ,
    _HAND,
    _HSC,
    _LIVE,
    _MAXG,
    _MUST,
    _NG,
    _NPILE,
    _P,
    _PENDING,
    _PHASE,
    _PILE,
    _PLAYER,
    _Q,
    _QHEAD,
    _QLEN,
    _RACK,
    _RETAILER,
    _RSIZE,
    _SEATS,
    _SEEN,
    _SELLER,
    _SUP,
    _TOP,
    _TOT,
    _WHOLESALER,
    SCRATCH_SIZE,
    STATE_SIZE,
    encode_action_py,
    holdings,
)
from commerce.families.cox.state import CoxState, Phase
from commerce.kernelkit import HEURISTIC, RANDOM, stream_start, uncounted

DECISIONS = frozenset({Phase.TURN, Phase.OFFER, Phase.DISCARD})
"""The phases a playout may start in: a seat's decision."""

_FACE: Final = tuple(face_of(c) for c in range(80))
"""Each card's face."""

RECORD_WIDTH = 1024
"""Actions a recorded playout holds (a hand plays far fewer)."""


class Ends(NamedTuple):
    """What each playout scored in the hand (one row per action)."""

    scores: Any
    """Each seat's score for the hand (``(actions, players)``)."""
    actions: list[list[int]] | None
    """Each playout's action codes, its action first (with ``record``), else None."""


def _table(state: CoxState, g: Any) -> None:
    """Write everything of *state* but the racks and the supply into the state array *g*."""
    turn, deal, session = state.turn, state.deal, state.session
    g[_PHASE] = int(turn.phase)
    g[_PLAYER] = turn.player
    g[_ACTOR] = turn.actor
    g[_LIVE] = -1 if turn.live is None else face_of(turn.live)
    g[_DISCARDER] = -1 if turn.discarder is None else turn.discarder
    g[_PENDING] = int(turn.pending_draw)
    g[_BOUGHT] = -1 if turn.bought is None else face_of(turn.bought)
    g[_MUST] = int(turn.must_sell_out)
    g[_QHEAD] = 0
    g[_QLEN] = len(turn.offer_queue)
    g[_Q:_Q + len(turn.offer_queue)] = turn.offer_queue
    g[_CUR] = deal.current_base
    g[_HAND] = session.hand_number
    g[_DEALER] = session.director_dealer
    g[_RETAILER] = -1 if deal.retailer is None else deal.retailer
    g[_WHOLESALER] = -1 if deal.wholesaler is None else deal.wholesaler
    g[_SELLER] = -1
    g[_GC:_GC + _SEATS * _MAXG] = -1
    for q, groups in enumerate(deal.laid):
        g[_NG + q] = len(groups)
        for i, group in enumerate(groups):
            at = q * _MAXG + i
            naturals = [c for c in group if not is_wild(c)]
            g[_GK + at] = kind_of(naturals[0])
            g[_GN + at] = len(naturals)
            g[_GSZ + at] = len(group)
            wild = [c for c in group if is_wild(c)]
            if wild:
                g[_GC + at] = face_of(wild[0])
        for c in deal.greenbacks[q]:
            g[_GB + q * 4 + face_of(c) - 31] = 1
        g[_BN + q] = deal.base_numbers[q] or 0
        g[_TOT + q] = session.totals[q]
    g[_NPILE] = len(deal.discards)
    for i, c in enumerate(deal.discards):
        f = face_of(c)
        g[_PILE + i] = f
        k = kind_of(c)
        if k >= 0:
            g[_SEEN + k] += 1


def _cards(state: CoxState, g: Any) -> None:
    """Write the racks and the supply of *state* into the state array *g*."""
    face = _FACE
    racks = [0] * (_SEATS * _FACES)
    for q, rack in enumerate(state.deal.racks):
        at = q * _FACES
        for c in rack:
            racks[at + face[c]] += 1
    g[_RACK:_RACK + _SEATS * _FACES] = racks
    g[_RSIZE:_RSIZE + len(state.deal.racks)] = [len(rack) for rack in state.deal.racks]
    supply = [0] * 80
    ends = [0] * 4
    for b, cards in enumerate(state.deal.bases):
        at = b * 20
        for i, c in enumerate(cards):
            supply[at + i] = face[c]
        ends[b] = len(cards)
    g[_SUP:_SUP + 80] = supply
    g[_TOP:_TOP + 4] = 0
    g[_BOT:_BOT + 4] = ends


def state_array(state: CoxState) -> Any:
    """The kernel's state array standing for the reference *state* (at a seat's decision).

    :raises RulesetError: where *state* is not at a seat's decision.
    """
    if state.turn.phase not in DECISIONS:
        raise RulesetError(f"a playout starts at a decision, not in phase {state.turn.phase.name}")
    g = np.zeros(STATE_SIZE, np.int64)
    _table(state, g)
    _cards(state, g)
    holdings(g, len(state.deal.racks), np.zeros(SCRATCH_SIZE, np.int64))
    return g


def _rest(state: CoxState) -> tuple[Any, ...]:
    """What the state array reads of *state* besides the racks and the supply."""
    deal, session = state.deal, state.session
    return (state.turn, deal.current_base, session.hand_number, session.director_dealer,
            deal.retailer, deal.wholesaler, deal.laid, deal.greenbacks, deal.base_numbers,
            session.totals, deal.discards)


class Runner:
    """The playouts of one kernel from the drawn states of one decision (not shared between
    threads): the array of the last state is kept, and where the next differs from it only
    in its racks and its supply (as the states drawn from one observation do), only those are
    written again."""

    def __init__(self, kern: Any, erratic: frozenset[Seat] = frozenset(),
                 record: bool = False) -> None:
        """Playouts on *kern*, the *erratic* seats at random, with *record* each playout's
        actions kept."""
        p = kern.players
        self.record = record
        self.cfg = kern.cfg.copy()
        self.cfg[_ELIGIBLE] = 1
        self.policies = np.array([RANDOM if q in erratic else HEURISTIC for q in range(p)],
                                 np.int64)
        self._rest: tuple[Any, ...] | None = None
        self._g = np.zeros(STATE_SIZE, np.int64)
        self._out: tuple[Any, ...] = ()

    def _outputs(self, rows: int) -> tuple[Any, ...]:
        if not self._out or self._out[1].shape[0] < rows:
            self._out = (np.zeros((rows, RECORD_WIDTH if self.record else 0), np.int16),
                         np.zeros(rows, np.int64),
                         np.zeros((rows, int(self.cfg[_P])), np.int64))
        return self._out

    def __call__(self, state: CoxState, actions: Sequence[Action], seat: Seat,
                 key: int) -> Ends:
        """Each of *actions* played from the reference *state* at a seat's decision, then
        every seat by its policy to the end of the hand, all with the same random stream from
        the 64-bit *key*: each playout's scores for the hand (valid until the next call)."""
        if state.turn.phase not in DECISIONS:
            raise RulesetError("a playout starts at a decision, not in phase "
                               f"{state.turn.phase.name}")
        rest = _rest(state)
        if self._rest is None or rest != self._rest:
            self._g[:] = 0
            _table(state, self._g)
            self._rest = rest
        _cards(state, self._g)
        k = len(actions)
        moves, lengths, scores = self._outputs(max(1, k))
        roots = np.array([encode_action_py(a.kind, a.cards[0] if a.cards else None)
                          for a in actions], np.int64)
        playouts(self.cfg, self.policies, self._g, roots, np.uint64(key & 0xFFFFFFFFFFFFFFFF),
                 moves, lengths, scores)
        recorded = None
        if self.record:
            width = moves.shape[1]
            if k and int(lengths[:k].max()) > width:  # pragma: no cover - a hand is shorter
                raise RulesetError(f"a playout ran past {width} actions")
            recorded = [moves[i, :lengths[i]].tolist() for i in range(k)]
        return Ends(scores[:k], recorded)


def play(kern: Any, state: CoxState, actions: Sequence[Action], seat: Seat, key: int,
         erratic: frozenset[Seat] = frozenset(), record: bool = False) -> Ends:
    """Each of *actions* played from the reference *state* at a decision, then every seat by
    the compiled heuristic (the *erratic* seats at random) to the end of the hand, all with
    the same random stream from the 64-bit *key*: each playout's scores for the hand, and with
    *record* its action codes."""
    return Runner(kern, erratic, record)(state, actions, seat, key)


@uncounted()
def _playout_rows(cfg: Any, policies: Any, g0: Any, roots: Any, key: Any, actions: Any,
                  lengths: Any, scores: Any, g: Any, w: Any, no_hands: Any,
                  no_categories: Any) -> None:
    """The playouts of :func:`playouts` on its working arrays, without reference counting."""
    holdings(g0, cfg[_P], w)
    for k in range(roots.shape[0]):
        for i in range(g0.shape[0]):
            g[i] = g0[i]
        _, pos, _ = _advance(k, g, cfg, w, policies, key, 0, stream_start(key, 0), actions, 0,
                             0, no_hands, no_categories, no_hands, no_hands, no_hands,
                             no_categories, no_hands, roots[k], True)
        lengths[k] = pos
        for s in range(cfg[_P]):
            scores[k, s] = g[_HSC + s]


@numba.njit(cache=True, nogil=True)
def playouts(cfg: Any, policies: Any, g0: Any, roots: Any, key: Any, actions: Any,
             lengths: Any, scores: Any) -> None:
    """The search bot's playouts from one drawn state (its array *g0*): for each action code
    of *roots*, play it at the state's decision, then every seat by its policy to the end of
    the hand, each seat's score for the hand into *scores*. Every root is played with the same
    stream (from *key*: common random numbers). *actions* (``(len(roots), n)``, or with no
    columns) records each playout's actions, its root first, and *lengths* how many it
    played."""
    _playout_rows(cfg, policies, g0, roots, key, actions, lengths, scores,
                  np.zeros(STATE_SIZE, np.int64), np.zeros(SCRATCH_SIZE, np.int64),
                  np.zeros((1, 0), np.int64), np.zeros((1, 0, 1), np.int64))
