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
from dataclasses import dataclass
from typing import Any, Final

import numba
import numpy as np

from commerce.core import Action, Seat
from commerce.errors import RulesetError
from commerce.families.cox.compiled_game import _advance
from commerce.families.cox.compiled_rules import (
    _DEALER,
    _HAND,
    _P,
    _PHASE,
    _START,
    _TOT,
    _W_WON,
    CFG_SIZE,
    KINDS,
    SCRATCH_SIZE,
    STATE_SIZE,
    SUPPORTED,
    decode_action,
    encode_action_py,
)
from commerce.families.cox.options import CoxOptions
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
from commerce.rules import Ruleset, refusal

__all__ = ["CATEGORIES", "KINDS", "SUPPORTED", "CoxKernel", "build", "check_supported",
           "decode_action", "encode_action_py", "play_games"]

CATEGORIES: Final = ("not clear", "clear", "complete", "sold out")
"""A seat's category at the count, by code, as :func:`.deals.read_cox_deals` names it: the
seat that sold out, else a complete holding, else a clear one, else not clear (the -5)."""

ACTIONS_PER_HAND: Final = 1024
"""Recorded actions a row holds per hand (a hand plays well under 400, chance's included)."""


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
    why = refusal(rules, SUPPORTED, "the compiled kernel")
    if why is not None:
        raise RulesetError(f"{why}; use --engine reference")


def config(rules: Ruleset, players: int) -> Any:
    """The kernel's option slots (``cfg``) for *rules* at *players* seats."""
    opts = CoxOptions.of(rules)
    cfg = np.array([
        players, 1 if rules.direction == "left" else -1, opts.hands_per_game,
        int(opts.buy_offers == "eligible_only"), int(opts.captain_can_be_fourth),
        int(opts.bank_double_order == "before_penalty"), int(opts.bank_counts_for_clear_hand),
        ("sell_out_only", "yes", "no").index(opts.last_discard_buyable),
        int(opts.replacement_fallback == "skip"),
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
    :func:`commerce.apps.analysis.variants` reads): every game plays all its hands."""
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
    opts = CoxOptions.of(rules)
    if players not in rules.player_range():
        raise RulesetError(f"{rules.name} is for {rules.min_players} to {rules.max_players} "
                           f"players, not {players}")
    return CoxKernel(rules=rules, players=players, deals=opts.hands_per_game,
                     max_actions=ACTIONS_PER_HAND * opts.hands_per_game,
                     cfg=config(rules, players))
