"""The search bot's playouts on the widow family's compiled kernel (:func:`playouts`, the
kernel's turn loop :func:`.compiled_turns._advance` from a drawn state to the deal's end):
a reference state turned into the kernel's arrays, and what each playout left at the deal's
end.

A reference :class:`~commerce.families.widow.state.WidowState` (a drawn state, at a seat's
decision) becomes the kernel's slots and arrays as :mod:`.compiled_rules` lays them out: the
turn's and the session's scalars in ``st``, each hand in a row of four (``hlen`` cards), the
widow in card order, the stock (in any order: chance draws from it uniformly), the seats'
flags from the deal's sets, the final turns, the cards moved this turn, the fresh cards still
to be offered for a pounce and the horse offers still to come each as a queue from its head.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numba
import numpy as np

from commerce.core import Action, Seat
from commerce.errors import RulesetError
from commerce.families.widow.compiled_heuristic import _worth
from commerce.families.widow.compiled_rules import (
    _ACTOR,
    _DEALER,
    _DEALNO,
    _FHEAD,
    _FLEN,
    _HOPEN,
    _HORSES,
    _INFINAL,
    _KNOCKER,
    _LOCKED,
    _M,
    _NMOVED,
    _NSTOOD,
    _OFFER,
    _OHEAD,
    _OLEN,
    _OVER,
    _P,
    _PASSED,
    _PCOUNT,
    _PHASE,
    _POOL,
    _POS,
    _POUNCED,
    _QHEAD,
    _QLEN,
    _RESUME,
    _ROUND,
    _SEAT,
    _SLEN,
    _STANDER,
    _STOOD,
    _SWAPS,
    _TURNS,
    _WLEN,
    encode_action_py,
)
from commerce.families.widow.compiled_turns import _advance, _scratch
from commerce.families.widow.state import Phase, WidowState
from commerce.kernelkit import HEURISTIC, RANDOM, stream_start, uncounted

DECISIONS = frozenset({Phase.BLIND, Phase.TURN, Phase.MORE, Phase.FINAL, Phase.POUNCE,
                       Phase.HORSE})
"""The phases a playout may start in: a seat's decision."""

RECORD_WIDTH = 4096
"""Actions a recorded playout holds (a deal plays far fewer)."""


class Ends(NamedTuple):
    """Where each playout left the session at the end of the deal (one row per action)."""

    tokens: Any
    """Each seat's tokens (``(actions, players)``)."""
    balances: Any
    """Each seat's balance (``(actions, players)``)."""
    pool: Any
    """The stakes in the pool."""
    horse_open: Any
    """1 where nobody has gone out yet (a horse may still be bought)."""
    over: Any
    """1 where the session ended with the deal."""
    wins: Any
    """1.0 where the searching seat won the deal's showdown, else 0.0."""
    actions: list[list[int]] | None
    """Each playout's action codes, its action first (with ``record``), else None."""


def arrays(kern: Any, state: WidowState) -> tuple[Any, ...]:
    """The kernel's arrays standing for the reference *state* (the arguments ``st0`` to
    ``offers0`` of :func:`playouts`).

    :raises RulesetError: where *state* is not at a seat's decision.
    """
    turn, deal, session = state.turn, state.deal, state.session
    if turn.phase not in DECISIONS:
        raise RulesetError(f"a playout starts at a decision, not in phase {turn.phase.name}")
    p = kern.players
    n_pack = kern.pack_cards.shape[0]
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
    offers = np.zeros(p, np.int64)
    _deal_in(state, hands, hlen, stock, st)
    widow[:len(deal.widow)] = sorted(deal.widow)
    order[:len(deal.order)] = deal.order
    for x in range(p):
        flags[x] = ((_LOCKED if x in deal.locked else 0) | (_PASSED if x in deal.passed else 0)
                    | (_STOOD if x in deal.stood else 0)
                    | (_POUNCED if x in deal.pounced else 0))
    final[:len(turn.final)] = turn.final
    moved[:len(turn.moved)] = turn.moved
    fresh[:len(turn.fresh)] = turn.fresh
    offers[:len(session.horse_offers)] = session.horse_offers
    st[_PHASE] = int(turn.phase)
    st[_ACTOR] = turn.actor
    st[_SEAT] = turn.seat
    st[_POS] = turn.pos
    st[_ROUND] = turn.round
    st[_INFINAL] = int(turn.in_final)
    st[_SWAPS] = turn.swaps
    st[_RESUME] = int(turn.resume)
    st[_OFFER] = -1 if turn.offer is None else turn.offer
    st[_KNOCKER] = -1 if deal.knocker is None else deal.knocker
    st[_FHEAD], st[_FLEN] = 0, len(turn.final)
    st[_QHEAD], st[_QLEN] = 0, len(turn.fresh)
    st[_WLEN] = len(deal.widow)
    st[_M] = len(deal.order)
    st[_DEALER] = session.dealer
    st[_DEALNO] = session.deal_number
    st[_POOL] = session.pool
    st[_PCOUNT] = session.pool_counters
    st[_HORSES] = session.horses
    st[_HOPEN] = int(session.horse_open)
    st[_OHEAD], st[_OLEN] = 0, len(session.horse_offers)
    st[_NMOVED] = len(turn.moved)
    st[_NSTOOD] = len(deal.stood)
    st[_TURNS] = 0  # counted for the kernel's per-deal results only
    st[_STANDER] = -1
    return (st, hands, hlen, widow, stock, order, flags, final, moved, fresh,
            np.array(session.tokens, np.int64), np.array(session.balances, np.int64),
            np.array(session.out_in, np.int64), offers)


def _deal_in(state: WidowState, hands: Any, hlen: Any, stock: Any, st: Any) -> None:
    """Write the hands and the stock of *state* into the kernel's arrays."""
    flat = [0] * hands.shape[0]
    for x, hand in enumerate(state.deal.hands):
        flat[4 * x:4 * x + len(hand)] = hand
        hlen[x] = len(hand)
    hands[:] = flat
    cards = state.deal.stock
    stock[:len(cards)] = cards
    st[_SLEN] = len(cards)


def _rest(state: WidowState) -> tuple[Any, ...]:
    """What the kernel's arrays read of *state* besides the hands and the stock."""
    deal, session = state.deal, state.session
    return (state.turn, session.tokens, session.balances, session.out_in, session.pool,
            session.pool_counters, session.horses, session.horse_open, session.horse_offers,
            session.dealer, session.deal_number, deal.order, deal.widow, deal.locked,
            deal.passed, deal.stood, deal.pounced, deal.knocker)


class Runner:
    """The playouts of one kernel from the drawn states of one decision (not shared between
    threads): the arrays of the last state are kept, and where the next differs from it only
    in its hands and its stock (as the states drawn from one observation do), only those are
    written again; the result arrays are reused from call to call."""

    def __init__(self, kern: Any, erratic: frozenset[Seat] = frozenset(),
                 record: bool = False) -> None:
        """Playouts on *kern*, the *erratic* seats at random, with *record* each playout's
        actions kept."""
        p = kern.players
        self.kern = kern
        self.record = record
        self.policies = np.array([RANDOM if q in erratic else HEURISTIC for q in range(p)],
                                 np.int64)
        self.boldness = np.full(p, 0.5)
        self._rest: tuple[Any, ...] | None = None
        self._arrays: tuple[Any, ...] = ()
        self._out: tuple[Any, ...] = ()

    def _outputs(self, rows: int) -> tuple[Any, ...]:
        if not self._out or self._out[1].shape[0] < rows:
            p = self.kern.players
            self._out = (np.zeros((rows, RECORD_WIDTH if self.record else 0), np.int32),
                         np.zeros(rows, np.int64), np.zeros((rows, p), np.int64),
                         np.zeros((rows, p), np.int64), np.zeros(rows, np.int64),
                         np.zeros(rows, np.int64), np.zeros(rows, np.int64),
                         np.zeros(rows, np.float64))
        return self._out

    def __call__(self, state: WidowState, actions: Sequence[Action], seat: Seat,
                 key: int) -> Ends:
        """Each of *actions* played from the reference *state* at a decision, then every
        seat by its policy to the end of the deal, all with the same random streams from the
        64-bit *key*: where each left the session (arrays valid until the next call)."""
        rest = _rest(state)
        if self._rest is not None and rest == self._rest:
            st, hands, hlen, _, stock = self._arrays[:5]
            _deal_in(state, hands, hlen, stock, st)
        else:
            self._arrays = arrays(self.kern, state)
            self._rest = rest
        k = len(actions)
        out = self._outputs(max(1, k))
        moves, lengths, tokens, balances, pool, horse_open, over, wins = out
        roots = np.array([encode_action_py(a.kind, a.cards) for a in actions], np.int64)
        kern = self.kern
        (st, hands, hlen, widow, stock, order, flags, final, moved, fresh, tokens0, balances0,
         out_in, offers) = self._arrays
        playouts(kern.cfg, kern.pack_cards, kern.rank3, kern.rank4, kern.cat_code,
                 kern.frank3, kern.strength, kern.vtab, kern.rtab, self.policies, self.boldness,
                 st, hands, hlen, widow, stock, order, flags, final, moved, fresh, tokens0,
                 balances0, out_in, offers, roots, seat, np.uint64(key & 0xFFFFFFFFFFFFFFFF),
                 moves, lengths, tokens, balances, pool, horse_open, over, wins)
        recorded = None
        if self.record:
            width = moves.shape[1]
            if k and int(lengths[:k].max()) > width:  # pragma: no cover - a deal is shorter
                raise RulesetError(f"a playout ran past {width} actions")
            recorded = [moves[i, :lengths[i]].tolist() for i in range(k)]
        return Ends(tokens[:k], balances[:k], pool[:k], horse_open[:k], over[:k], wins[:k],
                    recorded)


def play(kern: Any, state: WidowState, actions: Sequence[Action], seat: Seat, key: int,
         erratic: frozenset[Seat] = frozenset(), record: bool = False) -> Ends:
    """Each of *actions* played from the reference *state* at a decision, then every seat by
    the compiled heuristic (the *erratic* seats at random) to the end of the deal, all with
    the same random streams from the 64-bit *key*; where each left the session, *seat*'s
    wins, and with *record* each playout's action codes."""
    return Runner(kern, erratic, record)(state, actions, seat, key)


@uncounted()
def improvable(a: Any, b: Any, c: Any, takes: Any, nt: Any, limit: Any, threshold: Any,
               rank3: Any, strength: Any, vtab: Any) -> Any:
    """Whether a seat holding *a*, *b*, *c* would have exchanged with a widow of the *nt*
    cards *takes*, as the search's belief (:func:`.search.plausible`) judges it: its hand's
    strength is below *threshold* and a hand reachable by up to *limit* exchanges is worth
    more to the heuristic while more turns may follow (``vtab``, as
    :func:`.heuristic.best_target` finds a better hand than the one held)."""
    if strength[rank3[a, b, c]] >= threshold:
        return False
    best = _worth(a, b, c, 0, vtab) + 1e-9
    if limit >= 1:
        for x in range(nt):
            t = takes[x]
            if (_worth(b, c, t, 0, vtab) > best or _worth(a, c, t, 0, vtab) > best
                    or _worth(a, b, t, 0, vtab) > best):
                return True
    if limit >= 2:
        for x in range(nt):
            for y in range(x + 1, nt):
                t, u = takes[x], takes[y]
                if (_worth(a, t, u, 0, vtab) > best or _worth(b, t, u, 0, vtab) > best
                        or _worth(c, t, u, 0, vtab) > best):
                    return True
    if limit >= 3:
        for x in range(nt):
            for y in range(x + 1, nt):
                for z in range(y + 1, nt):
                    if _worth(takes[x], takes[y], takes[z], 0, vtab) > best:
                        return True
    return False


@uncounted(inline="always")
def _copy(dst: Any, src: Any) -> None:
    """Copy the 1-d array *src* into *dst* (of its length), element by element."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@uncounted()
def _playout_rows(cfg: Any, pack_cards: Any, rank3: Any, rank4: Any, cat_code: Any, frank3: Any,
                  strength: Any, vtab: Any, rtab: Any, policies: Any, boldness: Any, st0: Any,
                  hands0: Any, hlen0: Any, widow0: Any, stock0: Any, order0: Any, flags0: Any,
                  final0: Any, moved0: Any, fresh0: Any, tokens0: Any, balances0: Any, out_in0: Any,
                  offers0: Any, roots: Any, who: Any, key: Any, actions: Any, lengths: Any,
                  end_tokens: Any, end_balances: Any, end_pool: Any, end_open: Any, end_over: Any,
                  wins: Any, st: Any, hands: Any, hlen: Any, widow: Any, stock: Any, order: Any,
                  flags: Any, final: Any, moved: Any, fresh: Any, tokens: Any, balances: Any,
                  out_in: Any, won: Any, offers: Any, ranks: Any, scoring: Any, gives: Any,
                  takes: Any, rest: Any, buf: Any, free: Any, no_deals: Any,
                  no_categories: Any) -> None:
    """The playouts of :func:`playouts` on its working arrays, without reference counting
    (as :func:`_play_rows`)."""
    for k in range(roots.shape[0]):
        _copy(st, st0)
        _copy(hands, hands0)
        _copy(hlen, hlen0)
        _copy(widow, widow0)
        _copy(stock, stock0)
        _copy(order, order0)
        _copy(flags, flags0)
        _copy(final, final0)
        _copy(moved, moved0)
        _copy(fresh, fresh0)
        _copy(tokens, tokens0)
        _copy(balances, balances0)
        _copy(out_in, out_in0)
        _copy(offers, offers0)
        for i in range(won.shape[0]):
            won[i] = 0
        _, _, pos, _ = _advance(
            k, stream_start(key, 0), stream_start(key, 1), key, 0, cfg, pack_cards, rank3,
            rank4, cat_code, frank3, strength, vtab, rtab, policies, boldness, no_deals,
            no_categories, no_deals, no_deals, no_deals, no_categories, no_deals, actions, st,
            hands, hlen, widow, stock, order, flags, final, moved, fresh, tokens, balances,
            out_in, won, offers, ranks, scoring, gives, takes, rest, buf, free, 0, 0, roots[k],
            True, -1)
        lengths[k] = pos
        for i in range(tokens.shape[0]):
            end_tokens[k, i] = tokens[i]
            end_balances[k, i] = balances[i]
        end_pool[k] = st[_POOL]
        end_open[k] = st[_HOPEN]
        end_over[k] = 1 if st[_PHASE] == _OVER else 0
        wins[k] = 1.0 if won[who] > 0 else 0.0


@numba.njit(cache=True, nogil=True)
def playouts(cfg: Any, pack_cards: Any, rank3: Any, rank4: Any, cat_code: Any, frank3: Any,
             strength: Any, vtab: Any, rtab: Any, policies: Any, boldness: Any, st0: Any,
             hands0: Any, hlen0: Any, widow0: Any, stock0: Any, order0: Any, flags0: Any,
             final0: Any, moved0: Any, fresh0: Any, tokens0: Any, balances0: Any, out_in0: Any,
             offers0: Any, roots: Any, who: Any, key: Any, actions: Any, lengths: Any,
             end_tokens: Any, end_balances: Any, end_pool: Any, end_open: Any, end_over: Any,
             wins: Any) -> None:
    """The search bot's playouts from one drawn state (its arrays, as :func:`_scratch` holds
    them, with a ``0`` suffix): for each action code of *roots*, play it at the state's
    decision, then every seat by its policy to the end of the deal. Each playout's tokens,
    balances, pool, whether a horse may still be bought and whether the session is over at
    the deal's end go into the ``end_`` arrays, 1.0 into *wins* where *who* won the deal's
    showdown. Every root is played with the same streams (from *key*: common random numbers).
    *actions* (``(len(roots), n)``, or with no columns) records each playout's actions, its
    root first, and *lengths* how many it played."""
    (st, hands, hlen, widow, stock, order, flags, final, moved, fresh, tokens, balances, out_in,
     won, offers, ranks, scoring, gives, takes, rest, buf, free) = _scratch(
        cfg[_P], pack_cards.shape[0])
    _playout_rows(cfg, pack_cards, rank3, rank4, cat_code, frank3, strength, vtab, rtab,
                  policies, boldness, st0, hands0, hlen0, widow0, stock0, order0, flags0,
                  final0, moved0, fresh0, tokens0, balances0, out_in0, offers0, roots, who,
                  key, actions, lengths, end_tokens, end_balances, end_pool, end_open,
                  end_over, wins, st, hands, hlen, widow, stock, order, flags, final, moved,
                  fresh, tokens, balances, out_in, won, offers, ranks, scoring, gives, takes,
                  rest, buf, free, np.zeros((1, 0), np.int64),
                  np.zeros((1, 0, 1), np.int64))
