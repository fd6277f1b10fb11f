"""The widow family's compiled kernel: whole sessions of the five widow presets in numba.

The same rules as the reference (:mod:`.start`, :mod:`.deal`, :mod:`.turn`, :mod:`.settle`),
step for step, over small integer arrays: every scalar of the state (phase, actor, round,
pool ...) in one slot array, the hands as rows of four card numbers (a pounced four sorted),
the widow kept in card order, the stock an array drawn from by swapping out, and per-seat
flags (locked, passed, stood, pounced). Hand strength comes from the reference evaluator's
tables (:mod:`commerce.hands`), copied once per ruleset.

Policies: ``random`` (uniform over the legal actions, enumerated as
:func:`.rules.legal_actions` does) and ``heuristic`` (:mod:`.compiled_heuristic`). Every game
draws from its own stream (:mod:`commerce.kernelkit`). :func:`.compiled_playouts.playouts`
plays the search bot's playouts, from a drawn state to the end of its deal. The turn loop
itself is :func:`.compiled_turns._advance`, which this module's rows, the playouts and the
steppable kernel (:mod:`.kernel_env`) share.

Every option of the family is played except: an unlimited deal with no round limit
(``max_rounds_per_deal=0``), and ``pounce`` with ``no_qualifier_rule='fallback_full_ranking'``
(the reference's fallback ranking has no four of a kind): :data:`SUPPORTED` declares the
values of each option played, and :func:`build` refuses any other, and the pair, with a
message naming them. A session the options leave uncapped (tokens, ``deals=0``) records the
results of its first :data:`DEAL_CAP` deals per row (or as many as the deal axis of the
result arrays holds: ``run_batch``'s *deal_room*: each deal's stander, turns, categories,
winners, decisions, dealer and what its settlement paid each seat); its payoffs, decisions
and count of deals (``deal_counts``) are always whole.

Actions are recorded as ``kind * 2**18 + c1 * 2**12 + c2 * 2**6 + c3`` (:data:`KINDS`,
:data:`NO_CARD` for an unused card), decoded by :func:`decode_action`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any

import numba
import numpy as np

from commerce.cards import pack
from commerce.core import Action, Seat
from commerce.errors import RulesetError
from commerce.families.widow.compiled_heuristic import (
    _values,
    rank_cubes,
)
from commerce.families.widow.compiled_rules import (
    _DEALNO,
    _P,
    DEAL_CAP,
    KINDS,
    SUPPORTED,
    _new_session,
    decode_action,
    encode_action_py,
)
from commerce.families.widow.compiled_turns import _advance, _scratch
from commerce.families.widow.options import WidowOptions
from commerce.hands import Category, evaluator_for
from commerce.kernelkit import (
    HEURISTIC,
    RANDOM,
    S_PLAYED,
    S_STOOD,
    SAMPLE_WIDTH,
    master_key,
    stream_start,
    uncounted,
)
from commerce.rules import Ruleset, refusal
from commerce.strength import strength_table

__all__ = ["DEAL_CAP", "KINDS", "SUPPORTED", "WidowKernel", "build", "decode_action",
           "encode_action_py", "play_games"]


@uncounted()
def _play_game(row: Any, rng: Any, key: Any, group: Any, cfg: Any, pack_cards: Any,
               rank3: Any, rank4: Any, cat_code: Any, frank3: Any, strength: Any,
               vtab: Any, rtab: Any, policies: Any,
               boldness: Any, payoffs: Any, deals_won: Any,
               decisions: Any, dealers: Any, standers: Any, categories: Any, deal_turns: Any,
               actions: Any, action_counts: Any, st: Any, hands: Any, hlen: Any,
               widow: Any, stock: Any, order: Any, flags: Any, final: Any, moved: Any,
               fresh: Any, tokens: Any, balances: Any, out_in: Any, won: Any,
               offers: Any, ranks: Any, scoring: Any, gives: Any, takes: Any, rest: Any,
               buf: Any, free: Any, session: Any, deal_decisions: Any, deal_winners: Any,
               deal_counts: Any, deal_payoffs: Any, deal_dealers: Any) -> None:
    p = cfg[_P]
    cap = actions.shape[1]
    record = cap > 0
    pos = 0
    count = 0
    state = rng
    cs, dealer = _new_session(key, group, cfg, pack_cards, st, order, flags, hlen, stock,
                              tokens, balances, out_in, won)
    dealers[row] = dealer
    state, cs, pos, count = _advance(
        row, state, cs, key, group, cfg, pack_cards, rank3, rank4, cat_code, frank3, strength,
        vtab, rtab, policies, boldness, standers, categories, deal_turns, deal_decisions,
        deal_winners, deal_payoffs, deal_dealers, actions, st, hands, hlen, widow, stock,
        order, flags, final, moved, fresh, tokens, balances, out_in, won, offers, ranks,
        scoring, gives, takes, rest, buf, free, pos, count, -1, False, -1)
    played = st[_DEALNO]
    deal_counts[row] = played
    for d in range(min(played, deal_decisions.shape[1]) - 1, 0, -1):  # each deal's own
        deal_decisions[row, d] -= deal_decisions[row, d - 1]
    for i in range(p):
        payoffs[row, i] = balances[i]
        deals_won[row, i] = won[i]
    if session.shape[1] > 0:  # the rules track tokens: each seat's, and when it went out
        for i in range(p):
            session[row, 0, i] = tokens[i]
            session[row, 1, i] = out_in[i]
    decisions[row] = count
    if record:
        action_counts[row] = pos if pos <= cap else -1


@uncounted()
def _play_rows(key: Any, index0: Any, first: Any, stop: Any, cfg: Any, pack_cards: Any,
               rank3: Any, rank4: Any, cat_code: Any, frank3: Any, strength: Any, vtab: Any,
               rtab: Any, policies: Any, boldness: Any, share: Any, payoffs: Any, deals_won: Any,
               decisions: Any, dealers: Any, standers: Any, categories: Any, deal_turns: Any,
               actions: Any, action_counts: Any, st: Any, hands: Any, hlen: Any, widow: Any,
               stock: Any, order: Any, flags: Any, final: Any, moved: Any, fresh: Any,
               tokens: Any, balances: Any, out_in: Any, won: Any, offers: Any, ranks: Any,
               scoring: Any, gives: Any, takes: Any, rest: Any, buf: Any, free: Any,
               pol: Any, bold: Any, session: Any, deal_decisions: Any, deal_winners: Any,
               deal_counts: Any, deal_payoffs: Any, deal_dealers: Any) -> None:
    """The rows of :func:`play_games` on its working arrays, without reference counting (a
    counted call per game counts every array argument: atomic operations on arrays that every
    thread of a batch shares)."""
    p = cfg[_P]
    for row in range(first, stop):
        line_up = row % policies.shape[0]
        for s in range(p):  # this row's line-up (copied: no array view per game)
            pol[s] = policies[line_up, s]
            bold[s] = boldness[line_up, s]
        _play_game(row, stream_start(key, index0 + row), key, (index0 + row) // share, cfg,
                   pack_cards, rank3, rank4, cat_code, frank3, strength, vtab, rtab, pol, bold,
                   payoffs, deals_won, decisions, dealers, standers, categories, deal_turns,
                   actions, action_counts, st, hands, hlen, widow, stock, order, flags, final,
                   moved, fresh, tokens, balances, out_in, won, offers, ranks, scoring, gives,
                   takes, rest, buf, free, session, deal_decisions, deal_winners, deal_counts,
                   deal_payoffs, deal_dealers)


@numba.njit(cache=True, nogil=True)
def play_games(key: Any, index0: Any, first: Any, stop: Any, cfg: Any, pack_cards: Any,
               rank3: Any, rank4: Any, cat_code: Any, frank3: Any, strength: Any, vtab: Any,
               rtab: Any, policies: Any, boldness: Any, share: Any, payoffs: Any, deals_won: Any,
               decisions: Any, dealers: Any, standers: Any, categories: Any, deal_turns: Any,
               actions: Any, action_counts: Any, deal_payoffs: Any, session: Any,
               deal_decisions: Any, deal_winners: Any, deal_counts: Any,
               deal_dealers: Any) -> None:
    """Play the games of rows *first* to *stop* (game ``index0 + row`` of the run's streams),
    each seat played by the policy and boldness of line-up ``row % len(policies)``, writing
    each row of the result arrays (*session*: each seat's tokens at the end and the deal it
    went out in, where it has room; the per-deal arrays: the first deals, as many as their
    deal axis holds; *deal_counts*: the deals each session played, all of them)."""
    p = cfg[_P]
    (st, hands, hlen, widow, stock, order, flags, final, moved, fresh, tokens, balances, out_in,
     won, offers, ranks, scoring, gives, takes, rest, buf, free) = _scratch(
        p, pack_cards.shape[0])
    _play_rows(key, index0, first, stop, cfg, pack_cards, rank3, rank4, cat_code, frank3,
               strength, vtab, rtab, policies, boldness, share, payoffs, deals_won, decisions,
               dealers, standers, categories, deal_turns, actions, action_counts, st, hands,
               hlen, widow, stock, order, flags, final, moved, fresh, tokens, balances, out_in,
               won, offers, ranks, scoring, gives, takes, rest, buf, free,
               np.empty(p, policies.dtype), np.empty(p, boldness.dtype), session,
               deal_decisions, deal_winners, deal_counts, deal_payoffs, deal_dealers)


def check_supported(rules: Ruleset) -> None:
    """Refuse a ruleset the kernel would not play exactly.

    :raises RulesetError: naming the option.
    """
    if rules.family != "widow":
        raise RulesetError(f"the widow kernel plays the widow family, not {rules.family}")
    why = refusal(rules, SUPPORTED, "the compiled kernel")
    if why is not None:
        raise RulesetError(f"{why}; use --engine reference")
    opts = WidowOptions.of(rules)
    if opts.pounce and opts.ranking == "no_pair_or_point" \
            and opts.no_qualifier_rule == "fallback_full_ranking":
        raise RulesetError("the compiled kernel does not play pounce with no_qualifier_rule="
                           "'fallback_full_ranking'; use --engine reference")


_PLAY_WIDTH = 2048
"""Actions a recorded deal of :meth:`WidowKernel.stand_run` holds."""


def _widened(out: tuple[Any, Any, Any, Any], g: int,
             alone: tuple[Any, Any, Any, Any]) -> tuple[Any, Any, Any, Any]:
    """*out* with row *g* replaced by the single row of *alone*, the sample axis widened to
    hold it."""
    samples, counts, payoffs, ways = out
    arrays = [samples, *(ways or ())]
    width = max(samples.shape[1], alone[0].shape[1])
    for i, (x, y) in enumerate(zip(arrays, [alone[0], *(alone[3] or ())], strict=True)):
        if width > x.shape[1]:
            x = np.concatenate([x, np.zeros((x.shape[0], width - x.shape[1], x.shape[2]),
                                            x.dtype)], axis=1)
        x[g] = 0
        x[g, :y.shape[1]] = y[0]
        arrays[i] = x
    counts[g] = alone[1][0]
    payoffs[g] = alone[2][0]
    return arrays[0], counts, payoffs, (arrays[1], arrays[2]) if ways else None


def _rank3(ev: Any) -> Any:
    table = np.full((52, 52, 52), -1, np.int16 if len(ev.keys) < 2 ** 15 else np.int64)
    for hand, rank in ev.sorted_ranks.items():
        if len(hand) == 3:
            for a, b, c in permutations(hand):
                table[a, b, c] = rank
    return table


@dataclass(frozen=True, slots=True, eq=False)
class WidowKernel:
    """The kernel of one widow ruleset at one table size: its tables, ready to play."""

    rules: Ruleset
    """The ruleset it plays."""
    players: int
    """Seats at the table."""
    deals: int
    """Deals whose results each row keeps by default: the session's length, or
    :data:`DEAL_CAP` where it has none (a token session, until one player is left)."""
    max_actions: int
    """Actions a recorded row holds (a longer game records -1 as its count)."""
    cfg: Any
    pack_cards: Any
    rank3: Any
    rank4: Any
    cat_code: Any
    frank3: Any
    strength: Any
    vtab: Any
    rtab: Any
    category_names: tuple[str, ...]
    policies: tuple[int, ...] = (RANDOM, HEURISTIC)
    """The policy codes it plays."""
    tracks_tokens: bool = False
    """Whether its rules track tokens (every preset but the Old Game): it then reports each
    seat's tokens at the end and the deal it went out in
    (:attr:`commerce.compiled.BatchResult.session`)."""
    deal_results: bool = True
    """It fills :attr:`commerce.compiled.BatchResult.deal_decisions` and ``deal_winners`` (what
    :func:`commerce.apps.analysis.variants` reads), for the first deals of each session, as many
    as their deal axis holds (:attr:`deals`, or ``run_batch``'s *deal_room*)."""
    deal_counts: bool = True
    """Its sessions vary in length: it fills :attr:`commerce.compiled.BatchResult.deal_counts`
    with the deals each session played (all of them, past the deal axis too)."""
    deal_payoffs: bool = True
    """It fills :attr:`commerce.compiled.BatchResult.deal_payoffs` (what a deal's settlement
    paid each seat, as the analyses' deal reader reads it: a horse and the pool shared out at
    the session's end belong to no deal) for the first deals of each session, as many as the
    deal axis holds."""
    deal_dealers: bool = True
    """It fills :attr:`commerce.compiled.BatchResult.deal_dealers`: in the token games the deal
    passes over a seat that has gone out, so a deal's dealer is not the first dealer's
    turn round the table."""
    action_dtype: Any = np.int32
    """The dtype of the recorded actions."""
    piece_games: int = 100
    """The fewest games of a piece of a batch shared by threads
    (:func:`commerce.compiled.run_batch`): a session makes tens to hundreds of decisions, so a
    hundred is already milliseconds."""

    def run(self, seed: int, index0: int, first: int, stop: int, policies: Any,
            boldness: Any, share: int, out: tuple[Any, ...]) -> None:
        """Play rows *first* to *stop* into *out* (:class:`commerce.compiled.BatchResult`'s
        arrays, in its order), row *r*'s seats by line-up ``r % len(policies)`` (rows of
        *policies* and *boldness*: one for every game, or a rotation's period), in
        chance groups of *share* games; it releases the GIL, so threads may share a batch."""
        play_games(np.uint64(master_key(seed)), index0, first, stop, self.cfg,
                   self.pack_cards, self.rank3, self.rank4, self.cat_code, self.frank3,
                   self.strength, self.vtab, self.rtab, policies, boldness, share, *out)

    @property
    def stand_samples(self) -> bool:
        """It plays the samples of ``analyze stand-threshold`` (:meth:`stand_run`): where
        its rules end a deal on a knock, or on stands (the Old Game)."""
        return WidowOptions.of(self.rules).end_condition in ("knock_final_round", "two_stand")

    def stand_run(self, seed: int, index0: int, games: int, policies: Any, boldness: Any,
                  record: bool = False, room: int | None = None) -> tuple[Any, Any, Any, Any]:
        """Sessions ``index0`` to ``index0 + games`` of the run of *seed* (the sessions
        :meth:`run` plays, seats by the line-up rows of *policies* and *boldness*), each
        seat's first decision of a deal where it may knock (stand) played both ways
        (:mod:`.compiled_stand`): the samples (``(games, room, SAMPLE_WIDTH)``, columns
        :data:`commerce.kernelkit.S_PLACE` ...; *room* by default a sample per seat for each
        of :attr:`deals` deals), how many each session took (a session may take more than
        its row holds: it is then played again alone with room for all), each session's
        payoffs and, with *record*, each kept sample's two ways as action codes (standing,
        then playing on: two ``(games, room, width)`` arrays; else None). It releases the
        GIL.

        :raises RulesetError: where the rules have neither a knock nor a stand that ends
            the deal.
        """
        if not self.stand_samples:
            raise RulesetError(f"{self.rules.id} ends a deal on neither a knock nor stands")
        room = self.deals * self.players if room is None else room
        out = self._stand(seed, index0, games, policies, boldness, record, room)
        for g in np.flatnonzero(out[1] > room).tolist():  # a long session, again alone
            alone = self._stand(seed, index0 + g, 1, policies, boldness, record,
                                int(out[1][g]))
            out = _widened(out, g, alone)
        return out

    def _stand(self, seed: int, index0: int, games: int, policies: Any, boldness: Any,
               record: bool, room: int) -> tuple[Any, Any, Any, Any]:
        from commerce.families.widow.compiled_stand import stand_games

        samples = np.zeros((games, room, SAMPLE_WIDTH), np.int64)
        counts = np.zeros(games, np.int64)
        payoffs = np.zeros((games, self.players), np.int64)
        stands = np.zeros((games, room, _PLAY_WIDTH if record else 0), self.action_dtype)
        plays = np.zeros((games, room, _PLAY_WIDTH if record else 0), self.action_dtype)
        stand_games(np.uint64(master_key(seed)), index0, 0, games, self.cfg, self.pack_cards,
                    self.rank3, self.rank4, self.cat_code, self.frank3, self.strength,
                    self.vtab, self.rtab, policies, boldness, samples, counts, payoffs, stands,
                    plays)
        longest = int(samples[:, :, [S_STOOD, S_PLAYED]].max(initial=0))
        if record and longest > _PLAY_WIDTH:  # pragma: no cover - a deal is shorter
            raise RulesetError(f"a deal ran past {_PLAY_WIDTH} actions")
        return samples, counts, payoffs, (stands, plays) if record else None

    @staticmethod
    def decode_action(code: int) -> Action:
        """The action a recorded code stands for (:func:`decode_action`)."""
        return decode_action(code)

    def playouts(self, state: Any, actions: Sequence[Action], seat: Seat, key: int,
                 erratic: frozenset[Seat] = frozenset(), record: bool = False) -> Any:
        """The search bot's playouts from a drawn reference state at a decision, to the end
        of the deal (:func:`.compiled_playouts.play`: where each left the session)."""
        from commerce.families.widow.compiled_playouts import play

        return play(self, state, actions, seat, key, erratic, record)


def build(rules: Ruleset, players: int) -> WidowKernel:
    """The kernel for *rules* at *players* seats (the family's ``kernel`` hook).

    :raises RulesetError: for an option it does not play, or a table size the ruleset refuses.
    """
    check_supported(rules)
    opts = WidowOptions.of(rules)
    if players not in rules.player_range():
        raise RulesetError(f"{rules.name} is for {rules.min_players} to {rules.max_players} "
                           f"players, not {players}")
    from commerce.families.widow.settle import fallback_evaluator

    ev = evaluator_for(rules)
    rank3 = _rank3(ev)
    rank4 = np.zeros(13, np.int64)
    if opts.four_of_a_kind:
        for r in range(13):
            four = tuple(4 * r + s for s in range(4))
            if all(c in pack(rules.pack) for c in four):
                rank4[r] = ev.rank_of(four)
    every = list(Category)
    names = tuple(c.value for c in every)  # the categories results index this
    cat_code = np.array([every.index(c) for c in ev.categories], np.int64)
    frank3 = _rank3(fallback_evaluator(rules)) if (
        opts.ranking == "no_pair_or_point"
        and opts.no_qualifier_rule == "fallback_full_ranking") else rank3
    pack_cards = np.array(pack(rules.pack), np.int64)
    strength = np.array(strength_table(rules), np.float64)
    flow = ("lowest_to_best", "lowest_to_pool", "stake_from_each").index(opts.token_flow)
    cfg = np.array([
        players, 1 if rules.direction == "left" else -1, opts.widow_size,
        opts.max_exchange_per_turn, int(opts.pass_locks_out),
        int(opts.exchange_all_three_locks),
        ("rounds_eq_players", "knock_final_round", "two_stand").index(opts.end_condition),
        int(opts.add_widow_card_each_round),
        ("1_to_3", "all_or_nothing", "none").index(opts.dealer_blind_exchange), flow,
        opts.starting_tokens, opts.deals, opts.deals_each, opts.pool_entry,
        opts.deal_prize, int(opts.buy_a_horse), opts.horse_price,
        ("eldest", "dealer_as_eldest", "all_paid").index(opts.best_tie_rule),
        ("all_lose", "latest_in_rotation_loses", "none").index(opts.worst_tie_rule),
        int(opts.ranking == "no_pair_or_point"),
        ("no_transfer", "fallback_full_ranking").index(opts.no_qualifier_rule),
        int(opts.pounce), int(opts.pounce_on_initial_widow), int(opts.pounce_after_pass),
        opts.max_rounds_per_deal, every.index(Category.NONE),
    ], np.int64)
    deals = opts.deals or (players * opts.deals_each if flow == 2 else DEAL_CAP)
    vtab = _values(pack_cards, rank3, strength)
    rtab = rank_cubes(pack_cards, vtab)
    if rtab is None:
        raise RulesetError(f"the widow kernel does not play {rules.name}: its hands' worths "
                           "do not fall into ranks the heuristic's margin keeps apart")
    return WidowKernel(rules=rules, players=players, deals=deals, max_actions=200_000,
                       cfg=cfg, pack_cards=pack_cards, rank3=rank3,
                       rank4=rank4, cat_code=cat_code, frank3=frank3, strength=strength,
                       vtab=vtab, rtab=rtab, category_names=names,
                       tracks_tokens=flow != 2)
