"""The trading family's compiled kernel: whole games of Peel, Hoyle and Trade and Barter in numba.

The same rules as the reference (:mod:`.deal`, :mod:`.turn`, :mod:`.settle`), written over small
integer arrays: a hand is a row of three card numbers in the order held (a drawn card last, a
bartered card in the place of the card given), the unseen stock an array drawn from by swapping
out, the traded-in cards a queue under it. Hand strength comes from the reference evaluator's
tables (:mod:`commerce.hands`), copied once per ruleset into arrays.

The random policy picks uniformly among the legal actions; the heuristic policy is
:func:`heuristic_choice` (:mod:`.compiled_heuristic`), the compiled twin of
:func:`.heuristic.trading_action`: it reads only
what the seat's observation holds (its hand as held, the offered card, the number of players
and what the rules allow it now), and a test holds the two equal decision for decision. Every
game draws from its own stream (:mod:`commerce.kernelkit`).

Two habits of the hot code: an index read from the data (a card, a seat) is cast to
``np.uint64``, since numba adds a wrap-around for a signed index that might be negative; and a
store that depends on a random outcome (the bartered card's place in the partner's hand, a
beaten stander's payments) is made unconditionally with the value chosen, not under a branch
the processor cannot predict (together 14 to 20% faster in random Peel, alternated in one
process).

Every option of the family is played except an unlimited deal (``max_rounds_per_deal=0``),
which a kernel cannot bound: :data:`SUPPORTED` declares the values played, and :func:`build`
refuses any other, and any option it does not know, with a message naming it.
:mod:`commerce.compiled` drives the kernel in batches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any, Final

import numba
import numpy as np

from commerce.cards import pack
from commerce.core import Action
from commerce.errors import RulesetError
from commerce.families.trading.compiled_heuristic import (
    AFTER_TRADE,
    BARTER_REPLY,
    TURN,
    _after_wins,
    _give_values,
    heuristic_choice,
)
from commerce.families.trading.compiled_rules import (
    _BH,
    _BL,
    _COUNT,
    _DEALS,
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
    _STEP,
    _TAKEN,
    _TIE,
    _antes,
    _deal_cards,
    _lowest_combination,
    _rest_of_deal,
    _scratch,
    _showdown,
    _turn,
)
from commerce.families.trading.options import TradingOptions
from commerce.hands import evaluator_for
from commerce.kernelkit import (
    DEALS_PER_GROUP,
    HEURISTIC,
    RANDOM,
    SAMPLE_WIDTH,
    chance_start,
    encode_action_py,
    master_key,
    next_below,
    stream_start,
    uncounted,
)
from commerce.rules import OptionValues, Ruleset, refusal, values_from
from commerce.strength import strength_table

CATEGORY_NAMES: Final = ("none", "point", "pair", "flush", "sequence", "tricon", "four")
"""Category names by the code in the ``categories`` results (the evaluator's levels)."""

SUPPORTED: Final[Mapping[str, OptionValues]] = {
    # every option the family reads, the common ones first, with the values the kernel plays
    # (None: every value the ruleset allows); an option missing here is refused
    "pack": None, "min_players": None, "max_players": None, "direction": None,
    "ranking": None, "ace_low_sequence": None, "ace_low_sequence_rank": None,
    "allow_wraparound": None, "flush_compare": None, "pair_kicker": None, "void_rank": None,
    "four_of_a_kind": None, "best_tie_rule": ("eldest", "dealer_as_eldest", "split_pool"),
    "max_rounds_per_deal": values_from("max_rounds_per_deal", 1),  # not 0, an unlimited deal
    "deals_each": None, "ante": None, "dealer_ante": None,
    "trade_cost": None, "dealer_may_trade": None, "dealer_trade_cost": None,
    "may_barter": None, "barter_direction": None, "barter_partner_may_stand": None,
    "barter_return_from_original_hand": None, "stand_allowed": None,
    "stand_after_trade": None, "stander_pays_equal_hands": None, "stander_penalty": None,
    "dealer_pays_winner": None,
}
"""The options the kernel plays, each with the values it plays (:func:`commerce.rules.refusal`
refuses the others by name; ``tests/test_trading_kernel.py`` plays each declared option's
values, :func:`commerce.rules.cover_values`, against the reference)."""


@uncounted()
def _play_rows(key: Any, index0: Any, first: Any, stop: Any, cfg: Any, pack_cards: Any,
               rank3: Any, cat_code: Any, strength: Any, pwin: Any, give_value: Any,
               after_win: Any, policies: Any, boldness: Any, share: Any, payoffs: Any,
               deals_won: Any, decisions: Any, dealers: Any, standers: Any, categories: Any,
               deal_turns: Any, actions: Any, action_counts: Any, deal_payoffs: Any,
               deal_decisions: Any, deal_winners: Any, hands: Any, unseen: Any, bottom: Any,
               balances: Any, won: Any, ranks: Any, order: Any, streams: Any, sc: Any,
               at_start: Any, pol: Any, bold: Any) -> None:
    """The games of :func:`play_games`, one after another on its working arrays: the game's
    steps (:mod:`.deal`: antes and three cards each; the turns,
    :func:`.compiled_rules._rest_of_deal`; the showdown, :func:`.compiled_rules._showdown`) for
    every deal of the session. No reference counting, and one call for the whole range of
    rows: a counted call per game counted every array argument (atomic operations on arrays
    every thread shares), and even an uncounted one passed some forty arrays a game."""
    p = cfg[_P]
    step = cfg[_STEP]
    n_pack = pack_cards.shape[0]
    details = standers.shape[1] > 0  # the per-deal results are wanted
    record = actions.shape[1] > 0
    combo = _lowest_combination(cat_code)
    n_deals = p * cfg[_DEALS]
    for row in range(first, stop):
        line_up = row % policies.shape[0]
        for s in range(p):  # this row's line-up (copied: no array view per game)
            pol[s] = policies[line_up, s]
            bold[s] = boldness[line_up, s]
        state = stream_start(key, index0 + row)
        group = (index0 + row) // share
        moves = actions[row] if record else actions[0, :0]
        pos = 0
        for s in range(p):
            balances[s] = 0
            won[s] = 0
        count = 0
        cs, dealer = next_below(chance_start(key, group, DEALS_PER_GROUP - 1), p)
        dealers[row] = dealer
        for deal in range(n_deals):
            # -- the deal: antes, then three cards each, one at a time from the dealer's left
            pool = _antes(cfg, balances, at_start, dealer)
            cs = chance_start(key, group, deal)  # chance's cards: the group's stream of this deal
            seat = _turn(dealer, step, p)  # the eldest hand
            cs, pos, _, _ = _deal_cards(cs, seat, step, p, pack_cards, unseen, hands, moves,
                                        pos, unseen[:0], 0, 0)
            n_unseen = n_pack - 3 * p
            # -- the turns, from the eldest hand's
            streams[0], streams[1] = state, cs
            sc[_NU], sc[_BH], sc[_BL], sc[_POOL] = n_unseen, 0, 0, pool
            sc[_TAKEN], sc[_POS], sc[_COUNT] = 1, pos, count
            sc[_SEAT], sc[_PHASE], sc[_OFFERED] = seat, TURN, -1
            sc[_FAT], sc[_FN], sc[_LAST] = 0, 0, -1
            _rest_of_deal(row, streams, sc, cfg, rank3, strength, pwin, give_value, after_win,
                          combo, pol, bold, hands, unseen, bottom, balances, dealer, -1,
                          moves, -1, unseen[:0], False)
            state = streams[0]
            if details:  # the deal's decisions (read here: no value kept across the deal)
                deal_decisions[row, deal] = sc[_COUNT] - count
            pos, count, stander = sc[_POS], sc[_COUNT], sc[_STANDER]
            _showdown(cfg, hands, rank3, balances, won, dealer, stander, sc[_POOL], ranks, order)
            if details:
                best = -1
                for i in range(p):
                    categories[row, deal, i] = cat_code[ranks[i]]
                    best = max(best, ranks[i])
                standers[row, deal] = stander
                deal_turns[row, deal] = sc[_TAKEN]
                for s in range(p):
                    deal_payoffs[row, deal, s] = balances[s] - at_start[s]
                # who took the pool (as _showdown): the first best hand in priority order,
                # or every best hand where they split it (split_pool)
                split = cfg[_TIE] == 2
                mask = 0
                for i in range(p):
                    w = order[i]
                    if ranks[w] == best:
                        mask |= 1 << w
                        if not split:
                            break
                deal_winners[row, deal] = mask
            dealer = _turn(dealer, step, p)
        for i in range(p):
            payoffs[row, i] = balances[i]
            deals_won[row, i] = won[i]
        decisions[row] = count
        if record:
            action_counts[row] = pos


@numba.njit(cache=True, nogil=True)
def play_games(key: Any, index0: Any, first: Any, stop: Any, cfg: Any, pack_cards: Any,
               rank3: Any, cat_code: Any, strength: Any, pwin: Any, give_value: Any,
               after_win: Any, policies: Any, boldness: Any, share: Any, payoffs: Any,
               deals_won: Any, decisions: Any, dealers: Any, standers: Any, categories: Any,
               deal_turns: Any, actions: Any, action_counts: Any, deal_payoffs: Any,
               session: Any, deal_decisions: Any, deal_winners: Any) -> None:
    """Play the games of rows *first* to *stop* (game ``index0 + row`` of the run's streams,
    in the chance group ``(index0 + row) // share``), each seat played by the policy and
    boldness of line-up ``row % len(policies)`` (rows of *policies* and *boldness*), writing
    each row of the result arrays (not *session*: the trading games track no tokens)."""
    p = cfg[_P]
    hands, unseen, bottom, balances, won, ranks, order, streams, sc = _scratch(
        p, pack_cards.shape[0])
    _play_rows(key, index0, first, stop, cfg, pack_cards, rank3, cat_code, strength, pwin,
               give_value, after_win, policies, boldness, share, payoffs, deals_won,
               decisions, dealers, standers, categories, deal_turns, actions, action_counts,
               deal_payoffs, deal_decisions, deal_winners, hands, unseen, bottom, balances,
               won, ranks, order, streams, sc, np.empty(p, np.int64),
               np.empty(p, policies.dtype), np.empty(p, np.float64))


def check_supported(rules: Ruleset) -> None:
    """Refuse a ruleset the kernel would not play exactly.

    :raises RulesetError: naming the option and what the kernel plays.
    """
    if rules.family != "trading":
        raise RulesetError(f"the trading kernel plays the trading family, not {rules.family}")
    why = refusal(rules, SUPPORTED, "the compiled kernel")
    if why is not None:
        raise RulesetError(f"{why}; use --engine reference")
    opts = TradingOptions.of(rules)
    if not opts.may_barter and not opts.dealer_may_trade and opts.stand_allowed != "any_time":
        raise RulesetError("the compiled kernel does not play may_barter=False with "
                           "dealer_may_trade=False and stand_allowed='with_combination' (a "
                           "dealer without a combination has no action); use --engine reference")


@dataclass(frozen=True, slots=True, eq=False)
class TradingKernel:
    """The kernel of one trading ruleset at one table size: its tables, ready to play."""

    rules: Ruleset
    """The ruleset it plays."""
    players: int
    """Seats at the table."""
    deals: int
    """Deals in a game."""
    max_actions: int
    """The most actions one game can record (chance's deals and draws included)."""
    cfg: Any
    pack_cards: Any
    rank3: Any
    cat_code: Any
    strength: Any
    pwin: Any
    give_value: Any
    after_win: Any
    category_names: tuple[str, ...] = CATEGORY_NAMES
    deal_payoffs: bool = True
    """It fills :attr:`commerce.compiled.BatchResult.deal_payoffs`."""
    deal_results: bool = True
    """It fills :attr:`commerce.compiled.BatchResult.deal_decisions` and ``deal_winners`` (what
    :func:`commerce.apps.analysis.variants` reads)."""
    piece_games: int = 2_000
    """The fewest games of a piece of a batch shared by threads
    (:func:`commerce.compiled.run_batch`): a game is a few microseconds, so a piece shorter than
    this spends its time being handed out."""

    def run(self, seed: int, index0: int, first: int, stop: int, policies: Any,
            boldness: Any, share: int, out: tuple[Any, ...]) -> None:
        """Play rows *first* to *stop* into *out* (:class:`commerce.compiled.BatchResult`'s
        arrays, in its order), row *r*'s seats by line-up ``r % len(policies)`` (rows of
        *policies* and *boldness*: one for every game, or a rotation's period), in
        chance groups of *share* games; it releases the GIL, so threads may share a batch."""
        play_games(np.uint64(master_key(seed)), index0, first, stop, self.cfg,
                   self.pack_cards, self.rank3, self.cat_code, self.strength, self.pwin,
                   self.give_value, self.after_win, policies, boldness, share,
                   *out[:13])  # up to deal_winners: no deal_counts (every session is whole)

    stand_samples: bool = True
    """It plays the samples of ``analyze stand-threshold`` (:meth:`stand_run`)."""

    def _deal_width(self) -> int:
        """The most actions a deal records from a decision on: three a turn (a trade, the
        card drawn, standing after it) for every turn its rounds allow, and one more."""
        return 3 * int(TradingOptions.of(self.rules).max_rounds_per_deal) * self.players + 1

    def stand_run(self, seed: int, index0: int, games: int, policies: Any, boldness: Any,
                  record: bool = False) -> tuple[Any, Any, Any, Any]:
        """Games ``index0`` to ``index0 + games`` of the run of *seed* (the games
        :meth:`run` plays, seats by the line-up rows of *policies* and *boldness*), each
        seat's first decision of a deal where it may stand played both ways
        (:mod:`.compiled_stand`): the samples (``(games, room, SAMPLE_WIDTH)``, columns
        :data:`commerce.kernelkit.S_PLACE` ...), how many each game took, each game's
        payoffs and, with *record*, each sample's two ways as action codes (standing, then
        playing on: two ``(games, room, width)`` arrays; else None). It releases the GIL."""
        from commerce.families.trading.compiled_stand import stand_games

        room = self.deals * self.players
        samples = np.zeros((games, room, SAMPLE_WIDTH), np.int64)
        counts = np.zeros(games, np.int64)
        payoffs = np.zeros((games, self.players), np.int64)
        width = self._deal_width() if record else 0
        stands = np.zeros((games, room if record else 1, width), np.int64)
        plays = np.zeros((games, room if record else 1, width), np.int64)
        stand_games(np.uint64(master_key(seed)), index0, 0, games, self.cfg, self.pack_cards,
                    self.rank3, self.cat_code, self.strength, self.pwin, self.give_value,
                    self.after_win, policies, boldness, samples, counts, payoffs, stands, plays)
        return samples, counts, payoffs, (stands, plays) if record else None

    def heuristic(self, kind: int, hand: tuple[int, ...], offered: int | None,
                  may_stand: bool, may_trade: bool, may_barter: bool, boldness: float,
                  trade_cost: int = 0, pool: int = 0) -> int:
        """The compiled heuristic's action code (-1: a random legal action) for one seat
        (*trade_cost*: what ready money costs it; *pool*: the pool now)."""
        opts = TradingOptions.of(self.rules)
        return int(heuristic_choice(
            kind, np.array(hand, np.int64), -1 if offered is None else offered, may_stand,
            may_trade, may_barter, bool(opts.barter_partner_may_stand),
            bool(opts.barter_return_from_original_hand), self.rank3, self.strength,
            self.pwin, self.give_value, boldness, self.after_win, trade_cost, pool))


    def playouts(self, state: Any, actions: Sequence[Action], seat: int, key: int,
                 erratic: frozenset[int] = frozenset(),
                 record: bool = False) -> tuple[Any, Any, Any]:
        """The search bot's playouts from a drawn state (a reference
        :class:`~commerce.families.trading.state.TradingState` at a decision of *seat*):
        each of *actions*, then every seat by the compiled heuristic (the *erratic* seats at
        random) to the deal's showdown, all with the same random streams from *key*. Returns
        *seat*'s change in stakes after each action, whether it won the deal (1.0 or 0.0),
        and with *record* each playout's action codes (its action first), a list per
        action."""
        turn = state.current
        if turn.phase not in (TURN, AFTER_TRADE, BARTER_REPLY):
            raise RulesetError(f"a playout starts at a decision, not in phase {turn.phase!r}")
        n_pack = self.pack_cards.shape[0]
        unseen = np.zeros(n_pack, np.int64)
        unseen[:len(state.unseen)] = state.unseen
        bottom = np.zeros(n_pack, np.int64)
        bottom[:len(state.bottom)] = state.bottom
        policies = np.array([RANDOM if q in erratic else HEURISTIC
                             for q in range(self.players)], np.int64)
        roots = np.array([encode_action_py(a.kind.value, a.cards[0] if a.cards else None)
                          for a in actions], np.int64)
        gains = np.zeros(len(actions), np.float64)
        wins = np.zeros(len(actions), np.float64)
        width = self._deal_width() if record else 0
        moves = np.zeros((max(1, len(actions)), width), np.int64)
        lengths = np.zeros(max(1, len(actions)), np.int64)
        from commerce.families.trading.compiled_playouts import playouts

        playouts(self.cfg, self.rank3, self.strength, self.pwin, self.give_value,
                 self.after_win, self.cat_code, policies, np.full(self.players, 0.5),
                 np.array(state.hands, np.int64), unseen, len(state.unseen), bottom,
                 len(state.bottom), np.array(state.balances, np.int64), state.pool,
                 state.dealer, turn.seat, turn.taken, int(turn.phase),
                 -1 if turn.offered is None else turn.offered, roots, seat,
                 np.uint64(key & 0xFFFFFFFFFFFFFFFF), gains, wins, moves, lengths)
        recorded = ([moves[k, :lengths[k]].tolist() for k in range(len(actions))] if record
                    else None)
        return gains, wins, recorded


def build(rules: Ruleset, players: int) -> TradingKernel:
    """The kernel for *rules* at *players* seats (the family's ``kernel`` hook).

    :raises RulesetError: for an option it does not play, or a table size the ruleset refuses.
    """
    check_supported(rules)
    opts = TradingOptions.of(rules)
    if players not in rules.player_range():
        raise RulesetError(f"{rules.name} is for {rules.min_players} to {rules.max_players} "
                           f"players, not {players}")
    ev = evaluator_for(rules)
    rank3 = np.full((52, 52, 52), -1, np.int16)
    for hand, rank in ev.sorted_ranks.items():
        if len(hand) == 3:
            for a, b, c in permutations(hand):
                rank3[a, b, c] = rank
    cat_code = np.array([int(k[0]) for k in ev.keys], np.int64)  # the levels of CATEGORY_NAMES
    table = strength_table(rules)
    strength = np.array(table, np.float64)
    opponents = max(players - 1, 1)
    pwin = np.array([t ** opponents for t in table], np.float64)  # as win_chance computes it
    pack_cards = np.array(pack(rules.pack), np.int64)
    give_value = _give_values(pack_cards, rank3, strength)
    after_win = _after_wins(pack_cards, rank3, pwin)
    cfg = np.array([
        players, 1 if rules.direction == "left" else -1,
        1 if opts.barter_direction == "left" else -1, opts.ante, opts.dealer_ante,
        opts.trade_cost, int(opts.dealer_may_trade), opts.dealer_trade_cost,
        int(opts.may_barter), int(opts.barter_partner_may_stand),
        int(opts.barter_return_from_original_hand), int(opts.stand_allowed == "any_time"),
        int(opts.stand_after_trade),
        ("each_better_hand", "best_hand_only", "none").index(opts.stander_penalty),
        int(opts.stander_pays_equal_hands), opts.dealer_pays_winner,
        ("eldest", "dealer_as_eldest", "split_pool").index(opts.best_tie_rule),
        opts.max_rounds_per_deal, opts.deals_each,
    ], np.int64)
    deals = players * opts.deals_each
    max_actions = deals * (3 * players + 3 * opts.max_rounds_per_deal * players)
    return TradingKernel(rules=rules, players=players, deals=deals, max_actions=max_actions,
                         cfg=cfg, pack_cards=pack_cards, rank3=rank3, cat_code=cat_code,
                         strength=strength, pwin=pwin, give_value=give_value,
                         after_win=after_win)
