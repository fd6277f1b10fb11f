"""``analyze stand-threshold`` on the trading kernel: whole games, each seat's first turn of a
deal where it may stand played twice on copies of the deal.

The games are the kernel's own (:func:`.kernel.play_games` plays the same ones from the same
seed: the samples are taken on copies and change nothing). At a seat's first decision of a
deal at which it may stand (:func:`commerce.apps.threshold.stand_threshold` asks the same of the
reference engine), the deal is copied with its two streams and played to its showdown twice:
standing now, and the seat's policy choosing among its other actions (the random policy
uniformly, the heuristic as it would with standing not allowed) with every later decision by
the policies. Each sample is the seat's place from the dealer, its hand's rank, what each
way paid it in the deal, whether standing won the deal, and how many decisions the game had
made before it (so a test can find the decision in a recorded game); where asked, the
actions of both ways are recorded, so a test can play them on the reference.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from commerce.families.trading.compiled_heuristic import (
    _NONE,
    _STAND,
    TURN,
    heuristic_choice,
    random_turn,
)
from commerce.families.trading.compiled_rules import (
    _ANYTIME,
    _BH,
    _BL,
    _COUNT,
    _DEALS,
    _DMAYTRADE,
    _DTCOST,
    _FAT,
    _FN,
    _LAST,
    _MAYBARTER,
    _NU,
    _OFFERED,
    _P,
    _PHASE,
    _POOL,
    _POS,
    _SEAT,
    _STANDER,
    _STEP,
    _TAKEN,
    _TCOST,
    PAUSED,
    _antes,
    _deal_cards,
    _lowest_combination,
    _rest_of_deal,
    _scratch,
    _showdown,
    _turn,
)
from commerce.kernelkit import (
    DEALS_PER_GROUP,
    RANDOM,
    S_DECISION,
    S_PLACE,
    S_PLAY,
    S_PLAYED,
    S_RANK,
    S_STAND,
    S_STOOD,
    S_WON,
    chance_start,
    next_below,
    stream_start,
    uncounted,
)


@uncounted(inline="always")
def _copy_deal(hands: Any, unseen: Any, bottom: Any, balances: Any, won: Any, streams: Any,
               sc: Any, hands2: Any, unseen2: Any, bottom2: Any, balances2: Any, won2: Any,
               streams2: Any, sc2: Any) -> None:
    """The deal in progress copied into the second set of arrays."""
    for i in range(hands.shape[0]):
        hands2[i, 0], hands2[i, 1], hands2[i, 2] = hands[i, 0], hands[i, 1], hands[i, 2]
        balances2[i] = balances[i]
        won2[i] = won[i]
    for i in range(unseen.shape[0]):
        unseen2[i] = unseen[i]
        bottom2[i] = bottom[i]
    streams2[0], streams2[1] = streams[0], streams[1]
    for i in range(sc.shape[0]):
        sc2[i] = sc[i]


@uncounted(inline="always")
def _one_way(row: Any, code: Any, recorded: Any, cfg: Any, rank3: Any, strength: Any,
             pwin: Any, give_value: Any, after_win: Any, combo: Any, pol: Any, bold: Any,
             dealer: Any, hands2: Any, unseen2: Any, bottom2: Any, balances2: Any, won2: Any,
             streams2: Any, sc2: Any, ranks: Any, order: Any) -> Any:
    """The copied deal played on from its decision with action *code* to its showdown, its
    actions recorded into *recorded* (unless empty): how many it played."""
    sc2[_POS] = 0
    _rest_of_deal(row, streams2, sc2, cfg, rank3, strength, pwin, give_value, after_win,
                  combo, pol, bold, hands2, unseen2, bottom2, balances2, dealer, code, recorded,
                  -1, unseen2[:0], False)
    _showdown(cfg, hands2, rank3, balances2, won2, dealer, sc2[_STANDER], sc2[_POOL], ranks,
              order)
    return sc2[_POS]


@uncounted()
def _stand_rows(key: Any, index0: Any, first: Any, stop: Any, cfg: Any, pack_cards: Any,
                rank3: Any, cat_code: Any, strength: Any, pwin: Any, give_value: Any,
                after_win: Any, policies: Any, boldness: Any, samples: Any, counts: Any,
                payoffs: Any, stands: Any, plays: Any, hands: Any, unseen: Any, bottom: Any,
                balances: Any, won: Any, ranks: Any, order: Any, streams: Any, sc: Any,
                hands2: Any, unseen2: Any, bottom2: Any, balances2: Any, won2: Any,
                streams2: Any, sc2: Any, at_start: Any, pol: Any, bold: Any) -> None:
    """The games of :func:`stand_games` on its working arrays (the second set holds the
    copies the samples are played on), without reference counting."""
    p = cfg[_P]
    step = cfg[_STEP]
    n_pack = pack_cards.shape[0]
    combo = _lowest_combination(cat_code)
    anytime = cfg[_ANYTIME] == 1
    dealer_trades = cfg[_DMAYTRADE] == 1
    n_barter = 3 if cfg[_MAYBARTER] == 1 else 0
    none = samples[0, :0, 0]  # no actions recorded
    for row in range(first, stop):
        line_up = row % policies.shape[0]
        for s in range(p):
            pol[s] = policies[line_up, s]
            bold[s] = boldness[line_up, s]
        state = stream_start(key, index0 + row)
        group = index0 + row
        for s in range(p):
            balances[s] = 0
            won[s] = 0
        n = 0
        count = 0
        _, dealer = next_below(chance_start(key, group, DEALS_PER_GROUP - 1), p)
        for deal in range(p * cfg[_DEALS]):
            pool = _antes(cfg, balances, at_start, dealer)
            cs = chance_start(key, group, deal)
            seat = _turn(dealer, step, p)
            cs, _, _, _ = _deal_cards(cs, seat, step, p, pack_cards, unseen, hands, none, 0,
                                      none, 0, 0)
            streams[0], streams[1] = state, cs
            sc[_NU], sc[_BH], sc[_BL] = n_pack - 3 * p, 0, 0
            sc[_POOL] = pool
            sc[_TAKEN], sc[_POS], sc[_COUNT] = 1, 0, count
            sc[_SEAT], sc[_PHASE], sc[_OFFERED] = seat, TURN, -1
            sc[_FAT], sc[_FN], sc[_LAST] = 0, 0, -1
            sampled = 0  # the seats sampled this deal, as bits
            while True:
                seat = sc[_SEAT]
                us = np.uint64(seat)
                a, b, c = hands[us, 0], hands[us, 1], hands[us, 2]
                r = rank3[np.uint64(a), np.uint64(b), np.uint64(c)]
                may_trade = seat != dealer or dealer_trades
                if ((anytime or r >= combo) and (sampled >> seat) & 1 == 0
                        and (may_trade or n_barter > 0)):
                    sampled |= 1 << seat
                    # standing now, on a copy of the deal
                    _copy_deal(hands, unseen, bottom, balances, won, streams, sc, hands2,
                               unseen2, bottom2, balances2, won2, streams2, sc2)
                    stood_length = _one_way(
                        row, _STAND + _NONE,
                        stands[row, n] if n < stands.shape[1] else stands[0, 0, :0], cfg,
                        rank3, strength, pwin, give_value, after_win, combo, pol, bold, dealer,
                        hands2, unseen2, bottom2, balances2, won2, streams2, sc2, ranks, order)
                    stand_pay = balances2[us] - at_start[us]
                    stand_won = won2[us] - won[us]
                    # playing on: the policy's choice among the other actions, on a new copy
                    _copy_deal(hands, unseen, bottom, balances, won, streams, sc, hands2,
                               unseen2, bottom2, balances2, won2, streams2, sc2)
                    code = -1
                    if pol[us] != RANDOM:
                        cost = cfg[_DTCOST] if seat == dealer else cfg[_TCOST]
                        code = heuristic_choice(TURN, hands2[us], -1, False, may_trade,
                                                n_barter > 0, False, True, rank3, strength,
                                                pwin, give_value, bold[us], after_win, cost,
                                                sc[_POOL])
                    if code < 0:  # the random policy, or the heuristic's random legal action
                        streams2[0], code = random_turn(streams2[0], a, b, c, False, may_trade,
                                                        n_barter)
                    played_length = _one_way(
                        row, code, plays[row, n] if n < plays.shape[1] else plays[0, 0, :0],
                        cfg, rank3, strength, pwin, give_value, after_win, combo, pol, bold,
                        dealer, hands2, unseen2, bottom2, balances2, won2, streams2, sc2, ranks,
                        order)
                    if n < samples.shape[1]:
                        samples[row, n, S_PLACE] = ((seat - dealer) * step) % p
                        samples[row, n, S_RANK] = r
                        samples[row, n, S_STAND] = stand_pay
                        samples[row, n, S_PLAY] = balances2[us] - at_start[us]
                        samples[row, n, S_WON] = stand_won
                        samples[row, n, S_DECISION] = sc[_COUNT]
                        samples[row, n, S_STOOD] = stood_length
                        samples[row, n, S_PLAYED] = played_length
                    n += 1
                # the game's own turn, stopping before the next one
                _rest_of_deal(row, streams, sc, cfg, rank3, strength, pwin, give_value,
                              after_win, combo, pol, bold, hands, unseen, bottom, balances,
                              dealer, -1, none, sc[_TAKEN] + 1, none, False)
                if sc[_STANDER] != PAUSED:
                    break
                sc[_PHASE] = TURN
            state = streams[0]
            count = sc[_COUNT]
            _showdown(cfg, hands, rank3, balances, won, dealer, sc[_STANDER], sc[_POOL], ranks,
                      order)
            dealer = _turn(dealer, step, p)
        counts[row] = n
        for s in range(p):
            payoffs[row, s] = balances[s]


@numba.njit(cache=True, nogil=True)
def stand_games(key: Any, index0: Any, first: Any, stop: Any, cfg: Any, pack_cards: Any,
                rank3: Any, cat_code: Any, strength: Any, pwin: Any, give_value: Any,
                after_win: Any, policies: Any, boldness: Any, samples: Any, counts: Any,
                payoffs: Any, stands: Any, plays: Any) -> None:
    """Play rows *first* to *stop* (game ``index0 + row`` of the run's streams, each its own
    chance group, as :func:`.kernel.play_games` with no rotation), sampling standing at each
    seat's first decision of a deal where it may stand: ``samples[row, i]`` the *i*-th sample
    (columns ``S_PLACE`` ...; as many as the row holds), ``counts[row]`` how many were taken,
    ``payoffs[row]`` the game's payoffs; ``stands[row, i]`` and ``plays[row, i]`` (with room
    for a deal's actions, or no columns) the actions of sample *i*'s two ways, its first the
    seat's, chance's draws among them (``S_STOOD`` and ``S_PLAYED`` of them)."""
    p = cfg[_P]
    n_pack = pack_cards.shape[0]
    hands, unseen, bottom, balances, won, ranks, order, streams, sc = _scratch(p, n_pack)
    hands2, unseen2, bottom2, balances2, won2, _, _, streams2, sc2 = _scratch(p, n_pack)
    _stand_rows(key, index0, first, stop, cfg, pack_cards, rank3, cat_code, strength, pwin,
                give_value, after_win, policies, boldness, samples, counts, payoffs, stands,
                plays, hands, unseen, bottom, balances, won, ranks, order, streams, sc, hands2,
                unseen2, bottom2, balances2, won2, streams2, sc2, np.empty(p, np.int64),
                np.empty(p, policies.dtype), np.empty(p, np.float64))
