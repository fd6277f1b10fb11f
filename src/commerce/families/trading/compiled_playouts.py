"""The search bot's playouts on the trading kernel: from one drawn state, each root action
played at the decision, then every seat by its policy to the deal's showdown, all with the
same random streams (:meth:`.kernel.TradingKernel.playouts` calls it from a reference
state). The deal's turns are the kernel's own (:func:`.compiled_rules._rest_of_deal`)."""

from __future__ import annotations

from typing import Any

import numba

from commerce.families.trading.compiled_rules import (
    _BH,
    _BL,
    _COUNT,
    _FAT,
    _FN,
    _LAST,
    _NU,
    _OFFERED,
    _P,
    _PHASE,
    _POOL,
    _POS,
    _SEAT,
    _STANDER,
    _TAKEN,
    _lowest_combination,
    _rest_of_deal,
    _scratch,
    _showdown,
)
from commerce.kernelkit import stream_start, uncounted


@uncounted()
def _playout_rows(cfg: Any, rank3: Any, strength: Any, pwin: Any, give_value: Any,
                  after_win: Any, cat_code: Any, policies: Any, boldness: Any, hands0: Any,
                  unseen0: Any, n_unseen: Any, bottom0: Any, b_len: Any, balances0: Any,
                  pool: Any, dealer: Any, seat: Any, taken: Any, phase: Any, offered: Any,
                  roots: Any, who: Any, key: Any, gains: Any, wins: Any, actions: Any,
                  lengths: Any, hands: Any, unseen: Any, bottom: Any, balances: Any, won: Any,
                  ranks: Any, order: Any, streams: Any, sc: Any) -> None:
    """The playouts of :func:`playouts` on its working arrays, without reference counting (as
    :func:`_play_rows`: the heuristic's calls would count their array arguments)."""
    combo = _lowest_combination(cat_code)
    record = actions.shape[1] > 0
    for k in range(roots.shape[0]):
        for i in range(hands.shape[0]):
            hands[i, 0], hands[i, 1], hands[i, 2] = hands0[i, 0], hands0[i, 1], hands0[i, 2]
            balances[i] = balances0[i]
            won[i] = 0
        for i in range(unseen.shape[0]):
            unseen[i] = unseen0[i]
            bottom[i] = bottom0[i]
        streams[0] = stream_start(key, 0)
        streams[1] = stream_start(key, 1)
        sc[_NU], sc[_BH], sc[_BL], sc[_POOL] = n_unseen, 0, b_len, pool
        sc[_TAKEN], sc[_POS], sc[_COUNT] = taken, 0, 0
        sc[_SEAT], sc[_PHASE], sc[_OFFERED] = seat, phase, offered
        sc[_FAT], sc[_FN], sc[_LAST] = 0, 0, -1
        _rest_of_deal(k, streams, sc, cfg, rank3, strength, pwin, give_value, after_win,
                      combo, policies, boldness, hands, unseen, bottom, balances, dealer,
                      roots[k], actions[k] if record else actions[0, :0], -1, unseen[:0],
                      False)
        _showdown(cfg, hands, rank3, balances, won, dealer, sc[_STANDER], sc[_POOL], ranks,
                  order)
        gains[k] = balances[who] - balances0[who]
        wins[k] = 1.0 if won[who] > 0 else 0.0
        lengths[k] = sc[_POS]


@numba.njit(cache=True, nogil=True)
def playouts(cfg: Any, rank3: Any, strength: Any, pwin: Any, give_value: Any, after_win: Any,
             cat_code: Any, policies: Any, boldness: Any, hands0: Any, unseen0: Any,
             n_unseen: Any, bottom0: Any, b_len: Any, balances0: Any, pool: Any, dealer: Any,
             seat: Any, taken: Any, phase: Any, offered: Any, roots: Any, who: Any, key: Any,
             gains: Any, wins: Any, actions: Any, lengths: Any) -> None:
    """The search bot's playouts from one drawn state: for each action code of *roots*, play
    it at the decision (phase *phase* of seat *seat*'s turn, *offered* the card of a pending
    barter), then every seat by its policy to the showdown; *who*'s change in stakes into
    *gains*, 1.0 into *wins* where it won the deal. Every root is played with the same
    streams (from *key*: common random numbers). *actions* (``(len(roots), n)``, or with no
    columns) records each playout's actions, its root first, and *lengths* how many."""
    hands, unseen, bottom, balances, won, ranks, order, streams, sc = _scratch(
        cfg[_P], unseen0.shape[0])
    _playout_rows(cfg, rank3, strength, pwin, give_value, after_win, cat_code, policies,
                  boldness, hands0, unseen0, n_unseen, bottom0, b_len, balances0, pool, dealer,
                  seat, taken, phase, offered, roots, who, key, gains, wins, actions, lengths,
                  hands, unseen, bottom, balances, won, ranks, order, streams, sc)
