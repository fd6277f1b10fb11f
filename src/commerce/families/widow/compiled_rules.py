"""The widow family's compiled rules: the state's slots and the rule steps of
:mod:`.turn`, :mod:`.deal` and :mod:`.settle` over small integer arrays, for the kernel
(:mod:`.kernel`).

Every scalar of the state (phase, actor, round, pool ...) lives in one slot array ``st``
(the ``_PHASE`` ... slots), the options in ``cfg`` (the ``_P`` ... slots); the hands are rows
of four cards (``hands[seat * 4 + i]``, ``hlen[seat]`` of them), the widow is kept in card
order, and per-seat ``flags`` say who is locked out, has passed, stood or pounced.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import numpy as np

from commerce.core import Action, ActionKind
from commerce.kernelkit import DEALS_PER_GROUP, NO_CARD, chance_start, next_below, uncounted
from commerce.rules import OptionValues, values_from

KINDS: Final[tuple[ActionKind, ...]] = (
    ActionKind.DEAL, ActionKind.PASS, ActionKind.DONE, ActionKind.KNOCK, ActionKind.STAND,
    ActionKind.EXCHANGE, ActionKind.POUNCE, ActionKind.DECLINE, ActionKind.BUY_HORSE,
)
"""Action kinds by the code in the high bits of a recorded action."""
_K_DEAL, _K_PASS, _K_DONE, _K_KNOCK, _K_STAND, _K_EXCH, _K_POUNCE, _K_DECLINE, _K_HORSE = (
    range(9))

DEAL_CAP: Final = 64
"""Deals whose results a row keeps when the options set no number of deals."""

# Phases (:class:`.state.Phase`) and resumes (:class:`.state.Resume`).
_DEAL, _BLIND, _TURN, _MORE, _FINAL, _CARD, _POUNCE, _HORSE, _OVER = range(9)
_R_MORE, _R_NEXT, _R_FIRST = 0, 1, 2
# Seat flags.
_LOCKED, _PASSED, _STOOD, _POUNCED = 1, 2, 4, 8

# Configuration slots.
(_P, _STEP, _WSIZE, _MAXEX, _PASSLOCK, _ALL3, _END, _ADDCARD, _BLINDX, _FLOW, _TOKENS,
 _DEALS, _DEALS_EACH, _ENTRY, _PRIZE, _HORSEOK, _HPRICE, _BEST, _WORST, _NPP, _NOQUAL,
 _POUNCEOK, _PINIT, _PAFTER, _ROUNDS, _NONECAT) = range(26)
# State slots.
(_PHASE, _ACTOR, _SEAT, _POS, _ROUND, _INFINAL, _SWAPS, _RESUME, _OFFER, _KNOCKER, _FHEAD,
 _FLEN, _QHEAD, _QLEN, _WLEN, _SLEN, _M, _DEALER, _DEALNO, _POOL, _PCOUNT, _HORSES, _HOPEN,
 _OHEAD, _OLEN, _NMOVED, _NSTOOD, _TURNS, _STANDER) = range(29)

SUPPORTED: Final[Mapping[str, OptionValues]] = {
    # every option the family reads, the common ones first, with the values the kernel plays
    # (None: every value the ruleset allows); an option missing here is refused
    "pack": None, "min_players": None, "max_players": None, "direction": None,
    "ranking": None, "ace_low_sequence": None, "ace_low_sequence_rank": None,
    "allow_wraparound": None, "flush_compare": None, "pair_kicker": None, "void_rank": None,
    "four_of_a_kind": None, "best_tie_rule": ("eldest", "dealer_as_eldest", "all_paid"),
    "max_rounds_per_deal": values_from("max_rounds_per_deal", 1),  # not 0, an unlimited deal
    "deals_each": None, "widow_size": None, "max_exchange_per_turn": None,
    "pass_locks_out": None, "exchange_all_three_locks": None, "end_condition": None,
    "add_widow_card_each_round": None, "dealer_blind_exchange": None, "token_flow": None,
    "starting_tokens": None, "deals": None, "pool_entry": None, "deal_prize": None,
    "buy_a_horse": None, "horse_price": None, "worst_tie_rule": None,
    "no_qualifier_rule": None, "pounce": None, "pounce_on_initial_widow": None,
    "pounce_after_pass": None,
}
"""The options the kernel plays, each with the values it plays (:func:`commerce.rules.refusal`
refuses the others by name; ``tests/test_widow_kernel.py`` plays each declared option's
values, :func:`commerce.rules.cover_values`, against the reference)."""


def encode_action_py(kind: ActionKind, cards: tuple[int, ...] = ()) -> int:
    """The code of an action of *kind* naming up to three *cards*."""
    c = [*cards, NO_CARD, NO_CARD, NO_CARD]
    return KINDS.index(kind) * 2 ** 18 + c[0] * 2 ** 12 + c[1] * 2 ** 6 + c[2]


def decode_action(code: int) -> Action:
    """The action a recorded code stands for.

    >>> decode_action(encode_action_py(ActionKind.EXCHANGE, (5, 40)))
    Action(kind=<ActionKind.EXCHANGE: 'exchange'>, cards=(5, 40))
    """
    code = int(code)
    cards = tuple(c for c in ((code >> 12) & 63, (code >> 6) & 63, code & 63) if c != NO_CARD)
    return Action(KINDS[code >> 18], cards)


@uncounted(inline="always")
def _code(kind: Any, c1: Any, c2: Any, c3: Any) -> Any:
    return kind * 262144 + c1 * 4096 + c2 * 64 + c3


@uncounted(inline="always")
def _insort(widow: Any, st: Any, card: Any) -> None:
    """Put *card* into the widow, kept in card order."""
    i = st[_WLEN]
    while i > 0 and widow[i - 1] > card:
        widow[i] = widow[i - 1]
        i -= 1
    widow[i] = card
    st[_WLEN] += 1


@uncounted(inline="always")
def _sort(arr: Any, n: Any) -> None:
    """Sort the first *n* entries of *arr* (a few cards) in place, by insertion."""
    for i in range(1, n):
        x = arr[i]
        k = i - 1
        while k >= 0 and arr[k] > x:
            arr[k + 1] = arr[k]
            k -= 1
        arr[k + 1] = x


@uncounted(inline="always")
def _take(widow: Any, st: Any, card: Any) -> None:
    """Take *card* out of the widow."""
    n = st[_WLEN]
    i = 0
    while widow[i] != card:
        i += 1
    for j in range(i, n - 1):
        widow[j] = widow[j + 1]
    st[_WLEN] = n - 1


@uncounted(inline="always")
def _in(arr: Any, head: Any, n: Any, card: Any) -> Any:
    """Whether *card* is among ``arr[head:head + n]`` (every entry compared: no branch on
    where it is)."""
    found = False
    for i in range(head, head + n):
        found |= arr[np.uint64(i)] == card
    return found


@uncounted()
def _holder(st: Any, cfg: Any, hands: Any, hlen: Any, order: Any, flags: Any, moved: Any,
            card: Any, exclude: Any) -> Any:
    """The seat that may pounce on *card* (:func:`.turn.pounce_holder`), or -1."""
    rank = card >> 2
    for i in range(st[_M]):
        seat = order[i]
        b = seat * 4
        if hlen[seat] == 3 and hands[b] >> 2 == rank and hands[b + 1] >> 2 == rank \
                and hands[b + 2] >> 2 == rank:
            if seat == exclude or (seat == st[_SEAT] and _in(moved, 0, st[_NMOVED], card)):
                return -1
            if cfg[_PAFTER] == 0 and flags[seat] & (_PASSED | _STOOD) != 0:
                return -1
            return seat
    return -1


@uncounted()
def _next_turn(st: Any, cfg: Any, order: Any, flags: Any, final: Any) -> Any:
    """:func:`.turn.next_turn`: True when the deal ends (the showdown is due)."""
    if st[_INFINAL] == 1:
        while st[_FLEN] > 0:
            seat = final[st[_FHEAD]]
            st[_FHEAD] += 1
            st[_FLEN] -= 1
            if flags[seat] & _LOCKED == 0:
                st[_PHASE] = _FINAL
                st[_ACTOR] = seat
                st[_SEAT] = seat
                st[_SWAPS] = 0
                st[_NMOVED] = 0
                st[_TURNS] += 1
                return False
        return True
    m = st[_M]
    every = True
    for i in range(m):  # stopping at the first seat not locked out (the compiler would
        if flags[np.uint64(order[i])] & _LOCKED == 0:  # otherwise gather every seat's flags)
            every = False
            break
    if every:
        return True
    pos = st[_POS] + 1
    rnd = st[_ROUND]
    while True:
        if pos >= m:
            rnd += 1
            pos = 0
            if cfg[_END] == 0 and rnd > m:
                return True
            if cfg[_ROUNDS] > 0 and rnd > cfg[_ROUNDS]:
                return True
            if cfg[_ADDCARD] == 1 and st[_SLEN] > 0:
                st[_PHASE] = _CARD
                st[_ROUND] = rnd
                st[_POS] = -1
                st[_RESUME] = _R_FIRST
                st[_SWAPS] = 0
                st[_NMOVED] = 0
                return False
        seat = order[pos]
        if flags[seat] & _LOCKED == 0:
            st[_PHASE] = _TURN
            st[_ACTOR] = seat
            st[_SEAT] = seat
            st[_POS] = pos
            st[_ROUND] = rnd
            st[_SWAPS] = 0
            st[_NMOVED] = 0
            st[_TURNS] += 1
            return False
        pos += 1


@uncounted()
def _proceed(st: Any, cfg: Any, hands: Any, hlen: Any, order: Any, flags: Any, moved: Any,
             fresh: Any, widow: Any, final: Any) -> Any:
    """:func:`.turn.proceed`: offer the fresh widow cards for a pounce, then go on; True when
    the deal ends."""
    while st[_QLEN] > 0:
        card = fresh[st[_QHEAD]]
        st[_QHEAD] += 1
        st[_QLEN] -= 1
        if not _in(widow, 0, st[_WLEN], card):
            continue
        holder = _holder(st, cfg, hands, hlen, order, flags, moved, card, -1)
        if holder >= 0:
            st[_PHASE] = _POUNCE
            st[_ACTOR] = holder
            st[_OFFER] = card
            return False
    st[_QHEAD] = 0
    st[_QLEN] = 0
    if st[_RESUME] == _R_MORE:
        st[_PHASE] = _MORE
        st[_ACTOR] = st[_SEAT]
        return False
    if st[_RESUME] == _R_FIRST:
        st[_POS] = -1
    return _next_turn(st, cfg, order, flags, final)


@uncounted(inline="always")
def _fresh_add(st: Any, fresh: Any, card: Any) -> None:
    fresh[st[_QHEAD] + st[_QLEN]] = card
    st[_QLEN] += 1


@uncounted()
def _start_deal(st: Any, cfg: Any, dealer: Any, order: Any, flags: Any, hlen: Any,
                out_in: Any, stock: Any, pack_cards: Any) -> None:
    """:func:`.start.start_deal`."""
    p = cfg[_P]
    m = 0
    s = dealer
    for _ in range(p):
        s = (s + cfg[_STEP]) % p
        if out_in[s] == 0:
            order[m] = s
            m += 1
    for s in range(p):
        flags[s] = 0
        hlen[s] = 0
    n_pack = pack_cards.shape[0]
    for i in range(n_pack):
        stock[i] = pack_cards[i]
    st[_M] = m
    st[_DEALER] = dealer
    st[_DEALNO] += 1
    st[_WLEN] = 0
    st[_SLEN] = n_pack
    st[_KNOCKER] = -1
    st[_NSTOOD] = 0
    st[_PHASE] = _DEAL
    st[_ACTOR] = dealer
    st[_SEAT] = dealer
    st[_POS] = -1
    st[_ROUND] = 0
    st[_FHEAD] = 0
    st[_FLEN] = 0
    st[_INFINAL] = 0
    st[_SWAPS] = 0
    st[_NMOVED] = 0
    st[_RESUME] = _R_FIRST
    st[_QHEAD] = 0
    st[_QLEN] = 0
    st[_OFFER] = -1
    st[_TURNS] = 0
    st[_STANDER] = -1


@uncounted(inline="always")
def _rank(hands: Any, hlen: Any, seat: Any, rank3: Any, rank4: Any) -> Any:
    b = seat * 4
    if hlen[seat] == 4:
        return rank4[hands[b] >> 2]
    return rank3[hands[b], hands[b + 1], hands[b + 2]]


@uncounted()
def _final_turns(st: Any, order: Any, flags: Any, final: Any, seat: Any) -> None:
    """:func:`.turn.final_turns` (the flags as they are now) into *final*."""
    m = st[_M]
    i = 0
    while order[i] != seat:
        i += 1
    n = 0
    for k in range(1, m):
        x = order[(i + k) % m]
        if flags[x] & _LOCKED == 0:
            final[n] = x
            n += 1
    st[_FHEAD] = 0
    st[_FLEN] = n
    st[_INFINAL] = 1


@uncounted()
def _showdown(row: Any, st: Any, cfg: Any, rank3: Any, rank4: Any, cat_code: Any,
              frank3: Any, hands: Any, hlen: Any, order: Any, tokens: Any, balances: Any,
              out_in: Any, won: Any, offers: Any, ranks: Any, scoring: Any, standers: Any,
              categories: Any, deal_turns: Any, deal_winners: Any, deal_payoffs: Any,
              deal_dealers: Any, n_caps: Any) -> None:
    """:func:`.settle.showdown`: the hands shown, the deal settled, who goes out; where the
    row has room, the deal's stander, turns and categories (the first *n_caps* deals), who
    took its pool (``deal_winners``, as the ``showdown`` event's winners: a bit mask of
    seats, 0 where nobody qualified), its dealer (``deal_dealers``) and what its settlement
    paid each seat (``deal_payoffs``: the money and tokens that changed hands, a counter put
    into the pool counting -1, as :func:`.deals.read_widow_deals` reads the settlement's
    events; a horse and the pool shared out at the session's end belong to no deal)."""
    m = st[_M]
    d = st[_DEALNO] - 1
    keep = d < n_caps
    pays = d < deal_payoffs.shape[1]
    if d < deal_dealers.shape[1]:
        deal_dealers[row, d] = st[_DEALER]
    if pays:  # less the balances before the settlement; plus those after, below
        for s in range(cfg[_P]):
            deal_payoffs[row, d, s] = -balances[s]
    if keep:
        standers[row, d] = st[_STANDER]
        deal_turns[row, d] = st[_TURNS]
        for s in range(cfg[_P]):
            categories[row, d, s] = -1
    qualified = False
    for i in range(m):
        x = order[i]
        r = _rank(hands, hlen, x, rank3, rank4)
        ranks[i] = r
        scoring[i] = r
        if cat_code[r] != cfg[_NONECAT]:
            qualified = True
        if keep:
            categories[row, d, x] = cat_code[r]
    nobody = False
    if cfg[_NPP] == 1 and not qualified:
        if cfg[_NOQUAL] == 0:
            nobody = True
        else:
            for i in range(m):
                b = order[i] * 4
                scoring[i] = frank3[hands[b], hands[b + 1], hands[b + 2]]
    # the winners (positions in the order), as settle.winners
    best = scoring[0]
    for i in range(m):
        best = max(best, scoring[i])
    n_top = 0
    top0, top_last = -1, -1
    for i in range(m):
        if scoring[i] == best:
            if top0 < 0:
                top0 = i
            top_last = i
            n_top += 1
    first = top0
    if cfg[_BEST] == 1 and top_last == m - 1:
        first = m - 1
    if d < deal_winners.shape[1]:  # as settle.winners
        mask = 0
        if not nobody:
            if cfg[_BEST] == 2:
                for i in range(m):
                    if scoring[i] == best:
                        mask |= 1 << order[i]
            else:
                mask = 1 << order[first]
        deal_winners[row, d] = mask
    flow = cfg[_FLOW]
    if not nobody:
        if cfg[_BEST] == 2:  # all_paid: every tied best hand is paid by every other hand
            for i in range(m):
                if scoring[i] == best:
                    w = order[i]
                    won[w] += 1
                    for k in range(m):
                        if scoring[k] != best:
                            balances[order[k]] -= 1
                            balances[w] += 1
        else:
            w = order[first]
            won[w] += 1
            if flow == 2:
                for k in range(m):
                    if k != first:
                        balances[order[k]] -= 1
                        balances[w] += 1
            else:
                low = scoring[0]
                for i in range(m):
                    low = min(low, scoring[i])
                if low != best:
                    n_low, last_low = 0, -1
                    for i in range(m):
                        if scoring[i] == low:
                            n_low += 1
                            last_low = i
                    for i in range(m):
                        if scoring[i] != low:
                            continue
                        if n_low > 1 and cfg[_WORST] != 0 and (cfg[_WORST] == 2
                                                                or i != last_low):
                            continue
                        loser = order[i]
                        tokens[loser] -= 1
                        if flow == 0:
                            tokens[w] += 1
                            balances[loser] -= 1
                            balances[w] += 1
                        else:
                            st[_PCOUNT] += 1
                            if pays:  # a counter put into the pool
                                deal_payoffs[row, d, loser] -= 1
                if flow == 1:
                    prize = min(cfg[_PRIZE], st[_POOL])
                    st[_POOL] -= prize
                    balances[w] += prize
    if pays:
        for s in range(cfg[_P]):
            deal_payoffs[row, d, s] += balances[s]
    if flow != 2:
        n_new = 0
        for i in range(m):
            x = order[i]
            if tokens[x] == 0:
                out_in[x] = st[_DEALNO]
                offers[n_new] = x
                n_new += 1
        was_open = st[_HOPEN] == 1
        if n_new > 0:
            st[_HOPEN] = 0
            if was_open and cfg[_HORSEOK] == 1:
                st[_PHASE] = _HORSE
                st[_ACTOR] = offers[0]
                st[_OHEAD] = 1
                st[_OLEN] = n_new - 1
                st[_SWAPS] = 0
                st[_NMOVED] = 0


@uncounted()
def _end_of_deal(st: Any, cfg: Any, order: Any, flags: Any, hlen: Any, out_in: Any,
                 stock: Any, pack_cards: Any, tokens: Any, balances: Any) -> None:
    """:func:`.settle.end_of_deal`: the next deal, or the end of the session."""
    p = cfg[_P]
    flow = cfg[_FLOW]
    number = st[_DEALNO]
    length = cfg[_DEALS]
    if length == 0 and flow == 2:
        length = p * cfg[_DEALS_EACH]
    alive = 0
    for s in range(p):
        if out_in[s] == 0:
            alive += 1
    ended = (flow != 2 and alive <= 1) or (length > 0 and number >= length)
    if not ended:
        dealer = st[_DEALER]
        for i in range(1, p + 1):
            dealer = (st[_DEALER] + cfg[_STEP] * i) % p
            if out_in[dealer] == 0:
                break
        _start_deal(st, cfg, dealer, order, flags, hlen, out_in, stock, pack_cards)
        return
    if flow == 1 and st[_POOL] > 0:
        most = -1
        for s in range(p):
            if out_in[s] == 0:
                most = max(most, tokens[s])
        n_take = 0
        s = st[_DEALER]
        for _ in range(p):
            s = (s + cfg[_STEP]) % p
            if out_in[s] == 0 and tokens[s] == most:
                n_take += 1
        share, rest = st[_POOL] // n_take, st[_POOL] % n_take
        s = st[_DEALER]
        first = True
        for _ in range(p):
            s = (s + cfg[_STEP]) % p
            if out_in[s] == 0 and tokens[s] == most:
                balances[s] += share + (rest if first else 0)
                first = False
        st[_POOL] = 0
    st[_PHASE] = _OVER


@uncounted(inline="always")
def _new_session(key: Any, group: Any, cfg: Any, pack_cards: Any, st: Any, order: Any,
                 flags: Any, hlen: Any, stock: Any, tokens: Any, balances: Any, out_in: Any,
                 won: Any) -> Any:
    """A session begun (:mod:`.start`): each seat's tokens and entry, the pool, the first
    dealer drawn from the group's stream, and the first deal to deal: ``(cs, dealer)``."""
    p = cfg[_P]
    flow = cfg[_FLOW]
    tracked = flow != 2
    entry = cfg[_ENTRY] if flow == 1 else 0
    for s in range(p):
        tokens[s] = cfg[_TOKENS] if tracked else 0
        balances[s] = -entry
        out_in[s] = 0
        won[s] = 0
    st[_DEALNO] = 0
    st[_POOL] = entry * p
    st[_PCOUNT] = 0
    st[_HORSES] = 0
    st[_HOPEN] = 1
    st[_OLEN] = 0
    st[_OHEAD] = 0
    cs, dealer = next_below(chance_start(key, group, DEALS_PER_GROUP - 1), p)
    _start_deal(st, cfg, dealer, order, flags, hlen, out_in, stock, pack_cards)
    return cs, dealer
