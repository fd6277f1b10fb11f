"""Cox's compiled kernel: whole games of Cox's Commerce in numba.

The same rules as the reference (:mod:`.deal`, :mod:`.layout`, :mod:`.turn`, :mod:`.settle`,
:mod:`.scoring`), step for step, on one integer array a game (:mod:`.compiled_rules`: cards
kept by face, racks as counts per face, the four Supply Bases drawn from their tops and their
bottoms). Each hand, chance deals the Directors cards and then the whole pack into the bases
one card at a time (recorded as the reference's one-card ``deal`` actions), from the hand's
stream of the game's group (:func:`commerce.kernelkit.chance_start`), so that a tournament's
block replays the same cards in every game.

Policies: ``random`` (uniform over the legal actions, enumerated as
:func:`.choices.legal_actions` does) and ``heuristic`` (:mod:`.compiled_heuristic`). Every
game draws its players' choices from its own stream (:mod:`commerce.kernelkit`).
:func:`.compiled_playouts.playouts` plays the search bot's playouts, from a drawn state to
the end of its hand.

Every option of the family is played. Per hand, a row keeps who sold out (``standers``, -1
when the supply ran out), each seat's category at the count (``categories``: sold out,
complete, clear or not clear, as :func:`.deals.read_cox_deals` names them;
:data:`CATEGORIES`), the turns begun (``deal_turns``), the player decisions made
(``deal_decisions``) and the seats with the hand's best score (``deal_winners``, a bit mask).
Actions are recorded as ``kind * 128 + card`` (:func:`.compiled_rules.decode_action`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, Final

import numba
import numpy as np

from commerce.core import Action, Seat
from commerce.errors import RulesetError
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
    _TOT,
    _TURNS,
    _W_CNT,
    _W_FACES,
    _W_LEGAL,
    _W_WON,
    _WHOLESALER,
    CFG_SIZE,
    KINDS,
    SCRATCH_SIZE,
    STATE_SIZE,
    SUPPORTED,
    _card,
    _clear,
    _complete,
    _face,
    _hold_copy,
    decode_action,
    encode_action_py,
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
    RANDOM,
    chance_start,
    master_key,
    next_below,
    stream_start,
    uncounted,
)
from commerce.rules import Ruleset

__all__ = ["CATEGORIES", "KINDS", "SUPPORTED", "CoxKernel", "build", "check_supported",
           "decode_action", "encode_action_py", "play_games"]

CATEGORIES: Final = ("not clear", "clear", "complete", "sold out")
"""A seat's category at the count, by code, as :func:`.deals.read_cox_deals` names it: the
seat that sold out, else a complete holding, else a clear one, else not clear (the -5)."""

ACTIONS_PER_HAND: Final = 1024
"""Recorded actions a row holds per hand (a hand plays well under 400, chance's included)."""


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


@uncounted()
def _play_game(row: Any, rng: Any, key: Any, group: Any, cfg: Any, policies: Any,
               payoffs: Any, deals_won: Any, decisions: Any, dealers: Any, standers: Any,
               categories: Any, deal_turns: Any, actions: Any, action_counts: Any,
               deal_decisions: Any, deal_winners: Any, deal_payoffs: Any,
               deal_dealers: Any, g: Any, w: Any) -> None:
    p = cfg[_P]
    for i in range(g.shape[0]):
        g[i] = 0
    for s in range(p):
        w[_W_WON + s] = 0
    _, dealer = next_below(chance_start(key, group, DEALS_PER_GROUP - 1), p)
    dealers[row] = dealer
    g[_DEALER] = dealer
    g[_HAND] = 1
    g[_PHASE] = _START
    _, pos, count = _advance(row, g, cfg, w, policies, key, group, rng, actions, 0, 0,
                             standers, categories, deal_turns, deal_decisions, deal_winners,
                             deal_payoffs, deal_dealers, -1, False)
    for h in range(deal_decisions.shape[1] - 1, 0, -1):  # each hand's own decisions
        deal_decisions[row, h] -= deal_decisions[row, h - 1]
    for s in range(p):
        payoffs[row, s] = g[_TOT + s]
        deals_won[row, s] = w[_W_WON + s]
    decisions[row] = count
    if actions.shape[1] > 0:
        action_counts[row] = pos if pos <= actions.shape[1] else -1


@uncounted()
def _play_rows(key: Any, index0: Any, first: Any, stop: Any, cfg: Any, policies: Any,
               share: Any, payoffs: Any, deals_won: Any, decisions: Any, dealers: Any,
               standers: Any, categories: Any, deal_turns: Any, actions: Any,
               action_counts: Any, deal_decisions: Any, deal_winners: Any,
               deal_payoffs: Any, deal_dealers: Any, g: Any, w: Any, pol: Any) -> None:
    """The rows of :func:`play_games` on its working arrays, without reference counting (a
    counted call per game counts every array argument)."""
    p = cfg[_P]
    for row in range(first, stop):
        line_up = row % policies.shape[0]
        for s in range(p):
            pol[s] = policies[line_up, s]
        _play_game(row, stream_start(key, index0 + row), key, (index0 + row) // share, cfg,
                   pol, payoffs, deals_won, decisions, dealers, standers, categories,
                   deal_turns, actions, action_counts, deal_decisions, deal_winners,
                   deal_payoffs, deal_dealers, g, w)


@numba.njit(cache=True, nogil=True)
def play_games(key: Any, index0: Any, first: Any, stop: Any, cfg: Any, policies: Any,
               boldness: Any, share: Any, payoffs: Any, deals_won: Any, decisions: Any,
               dealers: Any, standers: Any, categories: Any, deal_turns: Any, actions: Any,
               action_counts: Any, deal_payoffs: Any, session: Any, deal_decisions: Any,
               deal_winners: Any, deal_counts: Any, deal_dealers: Any) -> None:
    """Play the games of rows *first* to *stop* (game ``index0 + row`` of the run's streams),
    each seat played by the policy of line-up ``row % len(policies)`` (the heuristic has no
    boldness), writing each row of the result arrays (not *session*: Cox's game tracks no
    tokens; nor *deal_counts*: every game plays each hand)."""
    _play_rows(key, index0, first, stop, cfg, policies, share, payoffs, deals_won, decisions,
               dealers, standers, categories, deal_turns, actions, action_counts,
               deal_decisions, deal_winners, deal_payoffs, deal_dealers,
               np.zeros(STATE_SIZE, np.int64),
               np.zeros(SCRATCH_SIZE, np.int64), np.zeros(cfg[_P], policies.dtype))


def check_supported(rules: Ruleset) -> None:
    """Refuse a ruleset the kernel would not play exactly.

    :raises RulesetError: naming the option.
    """
    if rules.family != "cox":
        raise RulesetError(f"the cox kernel plays the cox family, not {rules.family}")
    for f in fields(rules.options):
        if f.name not in SUPPORTED:
            raise RulesetError(f"the compiled kernel does not play option {f.name}="
                               f"{getattr(rules.options, f.name)!r}; use --engine reference")


def config(rules: Ruleset, players: int) -> Any:
    """The kernel's option slots (``cfg``) for *rules* at *players* seats."""
    cfg = np.array([
        players, 1 if rules.direction == "left" else -1, rules.hands_per_game,
        int(rules.buy_offers == "eligible_only"), int(rules.captain_can_be_fourth),
        int(rules.bank_double_order == "before_penalty"), int(rules.bank_counts_for_clear_hand),
        ("sell_out_only", "yes", "no").index(rules.last_discard_buyable),
        int(rules.replacement_fallback == "skip"),
    ], np.int64)
    assert cfg.shape[0] == CFG_SIZE
    return cfg


@dataclass(frozen=True, slots=True, eq=False)
class CoxKernel:
    """The kernel of one Cox ruleset at one table size: its options, ready to play."""

    rules: Ruleset
    """The ruleset it plays."""
    players: int
    """Seats at the table."""
    deals: int
    """Hands whose results each row keeps (every hand of a game)."""
    max_actions: int
    """Actions a recorded row holds (a longer game records -1 as its count)."""
    cfg: Any
    """The option slots (:func:`config`)."""
    category_names: tuple[str, ...] = CATEGORIES
    """Category names by code (:data:`CATEGORIES`)."""
    policies: tuple[int, ...] = (RANDOM, HEURISTIC)
    """The policy codes it plays."""
    deal_payoffs: bool = True
    """It fills :attr:`commerce.compiled.BatchResult.deal_payoffs` with each seat's points for
    each hand (the ``hand_scored`` event's scores, which the deal reader reads)."""
    deal_dealers: bool = True
    """It fills :attr:`commerce.compiled.BatchResult.deal_dealers` with each hand's Retailer: the
    Directors drawn at each hand decide the places, so they do not pass round the table."""
    deal_results: bool = True
    """It fills :attr:`commerce.compiled.BatchResult.deal_decisions` and ``deal_winners`` (what
    :func:`commerce.analysis.variants` reads): every game plays all its hands."""
    action_dtype: Any = np.int16
    """The dtype of the recorded actions."""
    piece_games: int = 100
    """The fewest games of a piece of a batch shared by threads
    (:func:`commerce.compiled.run_batch`): a game is a few hundred decisions, so a hundred is
    already milliseconds."""

    def run(self, seed: int, index0: int, first: int, stop: int, policies: Any,
            boldness: Any, share: int, out: tuple[Any, ...]) -> None:
        """Play rows *first* to *stop* into *out* (:class:`commerce.compiled.BatchResult`'s
        arrays, in its order), row *r*'s seats by line-up ``r % len(policies)``, in chance
        groups of *share* games; it releases the GIL, so threads may share a batch."""
        play_games(np.uint64(master_key(seed)), index0, first, stop, self.cfg, policies,
                   boldness, share, *out)

    @staticmethod
    def decode_action(code: int) -> Action:
        """The action a recorded code stands for (:func:`decode_action`)."""
        return decode_action(code)

    def playouts(self, state: Any, actions: Sequence[Action], seat: Seat, key: int,
                 erratic: frozenset[Seat] = frozenset(), record: bool = False) -> Any:
        """The search bot's playouts from a drawn reference state at a decision, to the end
        of the hand (:func:`.compiled_playouts.play`: each playout's scores for the hand)."""
        from commerce.families.cox.compiled_playouts import play

        return play(self, state, actions, seat, key, erratic, record)


def build(rules: Ruleset, players: int) -> CoxKernel:
    """The kernel for *rules* at *players* seats (the family's ``kernel`` hook).

    :raises RulesetError: for an option it does not play, or a table size the ruleset refuses.
    """
    check_supported(rules)
    if players not in rules.player_range():
        raise RulesetError(f"{rules.name} is for {rules.min_players} to {rules.max_players} "
                           f"players, not {players}")
    return CoxKernel(rules=rules, players=players, deals=rules.hands_per_game,
                     max_actions=ACTIONS_PER_HAND * rules.hands_per_game,
                     cfg=config(rules, players))
