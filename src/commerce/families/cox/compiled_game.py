"""Cox's compiled game loop: a hand's cards dealt from its chance stream, the turns played by
each seat's policy until the game ends (or the hand in progress is counted), every action
recorded, and each hand's results as the deal reader reads them. The whole-game kernel
(:mod:`.kernel`), the search bot's playouts (:mod:`.compiled_playouts`) and the vector
environment (:mod:`.kernel_env`) all play through it.
"""

from __future__ import annotations

from typing import Any

from commerce.families.cox.compiled_heuristic import heuristic_choice
from commerce.families.cox.compiled_rules import (
    _ACTOR,
    _CAP4,
    _DEALER,
    _HAND,
    _HSC,
    _OVER,
    _P,
    _PHASE,
    _RETAILER,
    _SELLER,
    _START,
    _STEP,
    _SUP,
    _TURNS,
    _W_CNT,
    _W_FACES,
    _W_LEGAL,
    _W_WON,
    _WHOLESALER,
    _card,
    _clear,
    _complete,
    _face,
    _hold_copy,
)
from commerce.families.cox.compiled_turn import (
    apply_code,
    base_numbers,
    clear_hand,
    deal_hands,
    end_hand,
    legal,
)
from commerce.kernelkit import (
    DEALS_PER_GROUP,
    HEURISTIC,
    chance_start,
    next_below,
    uncounted,
)


@uncounted()
def _record(actions: Any, row: Any, pos: Any, code: Any) -> Any:
    if pos < actions.shape[1]:
        actions[row, pos] = code
    return pos + 1


@uncounted()
def _start_hand(g: Any, cfg: Any, w: Any, cs: Any, row: Any, actions: Any, pos: Any) -> Any:
    """Chance deals the Directors cards and the supply (:func:`.deal.deal_directors`,
    :func:`.deal.place`, drawn from the hand's stream *cs*), then the Retailer deals and
    plays first: ``(cs, pos)``."""
    p = cfg[_P]
    step = cfg[_STEP]
    clear_hand(g)
    n = 2 * p
    for i in range(n):
        w[_W_FACES + i] = 82
    w[_W_FACES] = 80
    w[_W_FACES + 1] = 81
    dealer = g[_DEALER]
    for i in range(n):
        cs, j = next_below(cs, n - i)
        d = w[_W_FACES + j]
        w[_W_FACES + j] = w[_W_FACES + n - i - 1]
        seat = (dealer + step * (i + 1) + 3 * p) % p
        if d == 80:
            g[_WHOLESALER] = seat
        elif d == 81:
            g[_RETAILER] = seat
        pos = _record(actions, row, pos, d)
    base_numbers(g, cfg)
    for c in range(80):
        w[_W_FACES + c] = c
    for i in range(80):
        cs, j = next_below(cs, 80 - i)
        c = w[_W_FACES + j]
        w[_W_FACES + j] = w[_W_FACES + 79 - i]
        f = _face(c)
        g[_SUP + i] = f
        pos = _record(actions, row, pos, _card(f))
    deal_hands(g, cfg, w)
    return cs, pos


@uncounted()
def _hand_results(g: Any, cfg: Any, w: Any, row: Any, h: Any, count: Any, standers: Any,
                  categories: Any, deal_turns: Any, deal_decisions: Any,
                  deal_winners: Any, deal_payoffs: Any, deal_dealers: Any) -> None:
    """The per-hand results of hand *h* (from 0) just counted, *count* decisions into the
    game (``deal_decisions`` keeps that count; :func:`_play_game` takes the differences), and
    the hands won; each seat's points for the hand (``deal_payoffs``) and its Retailer
    (``deal_dealers``: the analyses' dealer of a hand), as the deal reader reads them."""
    p = cfg[_P]
    if h < deal_payoffs.shape[1]:
        for s in range(p):
            deal_payoffs[row, h, s] = g[_HSC + s]
    if h < deal_dealers.shape[1]:
        deal_dealers[row, h] = g[_RETAILER]
    top = g[_HSC]
    for s in range(1, p):
        top = max(top, g[_HSC + s])
    for s in range(p):
        if g[_HSC + s] == top:
            w[_W_WON + s] += 1
    if h >= standers.shape[1]:
        return
    seller = g[_SELLER]
    standers[row, h] = seller
    deal_turns[row, h] = g[_TURNS]
    cap4 = cfg[_CAP4] == 1
    mask = 0
    for s in range(p):
        if g[_HSC + s] == top:
            mask |= 1 << s
        if s == seller:
            code = 3
        else:
            _hold_copy(g, s, w, _W_CNT)
            code = 2 if _complete(w, _W_CNT, cap4) else 1 if _clear(w, _W_CNT, cfg) else 0
        categories[row, h, s] = code
    if h < deal_decisions.shape[1]:
        deal_decisions[row, h] = count
        deal_winners[row, h] = mask


@uncounted()
def _advance(row: Any, g: Any, cfg: Any, w: Any, policies: Any, key: Any, group: Any,
             state: Any, actions: Any, pos: Any, count: Any, standers: Any, categories: Any,
             deal_turns: Any, deal_decisions: Any, deal_winners: Any, deal_payoffs: Any,
             deal_dealers: Any, root: Any, one_hand: Any) -> Any:
    """Play on from the state *g* until the game ends (with *one_hand*, until the hand in
    progress is counted): a new hand's cards from the group's stream of that hand, the seats
    by their *policies* (drawing from *state*), the first decision by the action code *root*
    where it is not negative. Each action is recorded into ``actions[row]`` while it has room,
    *pos* counting them and *count* the decisions. Returns ``(state, pos, count)``."""
    while g[_PHASE] != _OVER:
        if g[_PHASE] == _START:
            cs = chance_start(key, group, (g[_HAND] - 1) % (DEALS_PER_GROUP - 1))
            cs, pos = _start_hand(g, cfg, w, cs, row, actions, pos)
            continue
        count += 1
        if root >= 0:
            code = root
            root = -1
        elif policies[g[_ACTOR]] == HEURISTIC:
            state, code = heuristic_choice(g, cfg, w, state)
        else:
            n = legal(g, cfg, w)
            state, j = next_below(state, n)
            code = w[_W_LEGAL + j]
        pos = _record(actions, row, pos, code)
        if apply_code(g, cfg, w, code):
            h = g[_HAND] - 1
            end_hand(g, cfg, w)
            _hand_results(g, cfg, w, row, h, count, standers, categories, deal_turns,
                          deal_decisions, deal_winners, deal_payoffs, deal_dealers)
            if one_hand:
                break
    return state, pos, count
