"""The compiled batch simulator: whole games on a family's kernel, many at a time.

A family offers a kernel through its ``kernel`` hook (:class:`commerce.family.FamilySpec`):
``kernel(rules, players)`` returns an object that plays rows of a batch into result arrays
(the trading family's is :class:`commerce.families.trading.kernel.TradingKernel`). This module
is the generic part: it checks that every seat's bot has a compiled policy
(:func:`kernel_reason`), allocates the arrays, cuts the batch into pieces that the threads
take as they come free (the kernels release the GIL) and returns a :class:`BatchResult`.
numpy and numba load only when a batch runs. Game *i* draws from its own random stream
derived from the master seed and *i* (:mod:`commerce.kernelkit`), so the results depend only
on the arguments, not on the number of threads or pieces.

The kernel's streams are not the reference engine's: a seed reproduces results within one
engine, and the two agree statistically (the differential test replays the kernel's games
through the reference engine, decision for decision).

>>> from commerce.rules import find_ruleset
>>> r = run_batch(find_ruleset("peel"), players=4, games=8, seed=1, bots=["random"])
>>> r.payoffs.shape, int(r.payoffs.sum())
((8, 4), 0)
>>> kernel_reason(find_ruleset("peel"), ["search"])
'bot search has no compiled policy'
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from commerce.errors import CommerceError
from commerce.family import family_spec
from commerce.rules import Ruleset

_POLICIES = {"random": 0, "heuristic": 1}  # commerce.kernelkit's codes (numba loads with it)


def policy_code(bot_spec: str) -> int | None:
    """The kernel policy code of the bot *bot_spec* (:func:`commerce.kernelkit.policy_code`),
    without loading numba."""
    return _POLICIES.get(bot_spec.strip().lower().partition(":")[0])

__all__ = ["BatchResult", "build_kernel", "kernel_reason", "policy_arrays", "policy_code",
           "policy_missing", "run_batch"]


@dataclass(frozen=True, slots=True, eq=False)
class BatchResult:
    """The results of a batch, one row per game (numpy arrays)."""

    payoffs: Any
    """``(games, players)``: each seat's net over the game (stakes, tokens ...)."""
    deals_won: Any
    """``(games, players)``: deals each seat won."""
    decisions: Any
    """``(games,)``: player decisions made (chance's draws not counted)."""
    dealers: Any
    """``(games,)``: the first dealer."""
    standers: Any
    """``(games, deals)``: who stood (knocked) in each deal, -1 for nobody."""
    categories: Any
    """``(games, deals, players)``: each seat's hand category at each showdown, as an index
    of :attr:`category_names`."""
    deal_turns: Any
    """``(games, deals)``: turns begun in each deal (its length)."""
    actions: Any
    """``(games, max_actions)``: each game's actions as codes (:mod:`commerce.kernelkit`),
    chance's included, or an empty second axis when not recorded."""
    action_counts: Any
    """``(games,)``: how many of each row of :attr:`actions` are used (0 unrecorded)."""
    deal_payoffs: Any
    """``(games, deals, players)``: what each deal paid each seat (antes, purchases and the
    settlement), where the kernel reports it (its ``deal_payoffs`` attribute; an empty second
    axis else)."""
    category_names: tuple[str, ...]
    """Category names by code."""
    session: Any = None
    """``(games, 2, players)``: each seat's tokens at the end of the session and the deal in
    which it went out (0: it did not), where the kernel's rules track tokens (its
    ``tracks_tokens`` attribute; an empty second axis else)."""
    deal_decisions: Any = None
    """``(games, deals)``: the player decisions made in each deal, where the kernel reports
    each deal's results (its ``deal_results`` attribute; an empty second axis else)."""
    deal_winners: Any = None
    """``(games, deals)``: the seats that took the pool in each deal, a bit mask (bit *s*:
    seat *s*; several where the pool is split), where the kernel reports each deal's results
    (as :attr:`deal_decisions`); 0 where nobody took it (a widow deal in which no hand
    qualified, under ``no_transfer``)."""
    deal_counts: Any = None
    """``(games,)``: the deals each game played, every one of them, where the kernel's
    sessions vary in length (its ``deal_counts`` attribute; the widow family's token
    sessions last until one player is left); empty else, every game playing the kernel's
    ``deals``. The per-deal arrays hold a game's first deals, as many as their deal axis has
    room for (:func:`run_batch`'s *deal_room*)."""

    deal_dealers: Any = None
    """``(games, deals)``: each deal's dealer, where the kernel's deal does not simply pass
    round the table (its ``deal_dealers`` attribute: in the widow family's token games it
    passes over a seat that has gone out); an empty second axis else (deal *d*'s dealer is
    then :attr:`dealers` moved *d* places in the rules' direction)."""

    def arrays(self) -> tuple[Any, ...]:
        """The arrays in the order a kernel's ``run`` fills them (a kernel that fills fewer
        takes the first ones: those added last come last)."""
        return (self.payoffs, self.deals_won, self.decisions, self.dealers, self.standers,
                self.categories, self.deal_turns, self.actions, self.action_counts,
                self.deal_payoffs, self.session, self.deal_decisions, self.deal_winners,
                self.deal_counts, self.deal_dealers)


def kernel_reason(rules: Ruleset, bots: Sequence[str]) -> str | None:
    """Why *rules* with *bots* cannot run on a kernel, or None when it can.

    >>> from commerce.rules import find_ruleset
    >>> kernel_reason(find_ruleset("peel"), ["random", "heuristic:boldness=0.7"]) is None
    True
    """
    if family_spec(rules.family).kernel is None:
        return f"the {rules.family} family has no compiled kernel"
    for spec in bots:
        if policy_code(spec) is None:
            return f"bot {spec.strip()} has no compiled policy"
    return None


def policy_missing(kernel: Any, bots: Sequence[str]) -> str | None:
    """Which bot of *bots* the built *kernel* has no compiled policy for, said in words, or
    None (a kernel lists the policy codes it plays in ``policies``)."""
    played = getattr(kernel, "policies", tuple(_POLICIES.values()))
    for spec in bots:
        if policy_code(spec) not in played:
            return (f"bot {spec.strip()} has no compiled policy in the "
                    f"{kernel.rules.family} family's kernel")
    return None


def build_kernel(rules: Ruleset, players: int) -> Any:
    """The family's kernel for *rules* at *players* seats.

    :raises CommerceError: when the family has none, or it refuses an option of *rules*.
    """
    hook = family_spec(rules.family).kernel
    if hook is None:
        raise CommerceError(f"the {rules.family} family has no compiled kernel")
    return hook(rules, players)


def _policies(bots: Sequence[str], players: int, rotate: bool,
              lineups: Sequence[Sequence[int]] | None = None) -> tuple[Any, Any]:
    """The line-ups of a batch, policy codes and boldness by seat: *bots* cycled over the
    seats; without *rotate* one line-up for every row, with it ``len(bots)`` of them, row *r*
    playing line-up ``r % len(bots)`` (seat *i* played by ``bots[(i + r) % len(bots)]``);
    *lineups*, where given, are the line-ups themselves (each a bot index by seat). A
    kernel plays row *r* with line-up ``r % len(policies)``."""
    import numpy as np

    from commerce.bots import make_bot

    k = len(bots)
    codes = np.empty(k, np.int8)
    bold = np.full(k, 0.5)
    for b, spec in enumerate(bots):
        code = policy_code(spec)
        if code is None:
            raise CommerceError(f"bot {spec.strip()} has no compiled policy; use --engine "
                                "reference")
        bot = make_bot(spec)  # validates the options
        codes[b] = code
        if code == _POLICIES["heuristic"]:
            bold[b] = float(getattr(bot, "boldness", 0.5))
    if lineups is not None:
        which = np.array([list(lineup) for lineup in lineups], np.int64).reshape(-1, players)
        if which.shape[0] == 0 or which.min() < 0 or which.max() >= k:
            raise CommerceError("each line-up names a bot of the batch at every seat")
        return codes[which], bold[which]
    period = k if rotate else 1
    which = (np.arange(players)[None, :] + np.arange(period)[:, None]) % k
    return codes[which], bold[which]


def policy_arrays(bots: Sequence[str], players: int) -> tuple[Any, Any]:
    """The one line-up of an unrotated batch: a row of policy codes and a row of boldness,
    *bots* cycled over the seats (as :func:`run_batch` passes them to a kernel).

    :raises CommerceError: for a bot without a compiled policy.
    """
    return _policies(bots, players, False)


def new_result(kern: Any, players: int, games: int, *, details: bool = False,
               record: bool = False, deal_room: int | None = None) -> BatchResult:
    """The zeroed arrays of a batch of *games* on the kernel *kern* at *players* seats, as
    :func:`run_batch` hands them to the kernel (*details*, *record* and *deal_room* as
    there): a GPU kernel (``scripts/gpu_kernel.py``) is handed copies of the same arrays."""
    import numpy as np

    deals = (kern.deals if deal_room is None else deal_room) if details or record else 0
    per_deal = deals if getattr(kern, "deal_results", False) else 0
    return BatchResult(
        payoffs=np.zeros((games, players), np.int64),
        deals_won=np.zeros((games, players), np.int32),
        decisions=np.zeros(games, np.int32),
        dealers=np.zeros(games, np.int8),
        standers=np.zeros((games, deals), np.int8),
        categories=np.zeros((games, deals, players), np.int8),
        deal_turns=np.zeros((games, deals), np.int32),
        actions=np.zeros((games, kern.max_actions if record else 0),
                         getattr(kern, "action_dtype", np.int16)),
        action_counts=np.zeros(games, np.int64),
        deal_payoffs=np.zeros((games, deals if getattr(kern, "deal_payoffs", False) else 0,
                                players), np.int32),
        category_names=tuple(kern.category_names),
        session=np.zeros((games, 2 if getattr(kern, "tracks_tokens", False) else 0, players),
                         np.int32),
        deal_decisions=np.zeros((games, per_deal), np.int32),
        deal_winners=np.zeros((games, per_deal), np.int16),  # at most 12 seats
        deal_counts=np.zeros(games if getattr(kern, "deal_counts", False) else 0, np.int32),
        deal_dealers=np.zeros((games, deals if getattr(kern, "deal_dealers", False) else 0),
                              np.int8),
    )


def run_batch(rules: Ruleset, *, players: int, games: int, seed: int, bots: Sequence[str],
              record: bool = False, threads: int | None = None, kernel: Any = None,
              first_game: int = 0, rotate: bool = False, details: bool = False,
              deal_room: int | None = None,
              lineups: Sequence[Sequence[int]] | None = None) -> BatchResult:
    """Play *games* games of *rules* on the family's kernel, bots cycled over the seats.

    With *rotate*, the games come in blocks of ``len(bots)`` (game *g* in block
    ``g // len(bots)``): in game *j* of a block seat *i* is played by bot
    ``(i + j) % len(bots)``, and the games of a block share their first dealer and the cards
    chance deals at every deal (:func:`commerce.kernelkit.chance_start`), as a tournament's
    replayed deals; *first_game* must then start a block.

    :param record: keep each game's actions (for replays and the differential test).
    :param threads: threads sharing the batch (default: the cores, at most 8); the results
        do not depend on it.
    :param kernel: a kernel already built for *rules* and *players* (reused across batches).
    :param first_game: the index of the first game in the run's streams (a batch may be the
        continuation of another).
    :param rotate: rotate the bots over the seats by blocks (see above).
    :param lineups: instead of *rotate*'s, the games' line-ups themselves (each a bot index
        by seat): the games come in blocks of ``len(lineups)``, game *j* of a block played by
        line-up *j*, the games of a block sharing their deals as with *rotate*
        (:func:`commerce.apps.tournament.block_lineups` gives a tournament's).
    :param details: keep the per-deal results (:attr:`BatchResult.standers`, ``categories``,
        ``deal_turns``, ``deal_payoffs``, ``deal_decisions``, ``deal_winners``; always with
        *record*); without it their deal axis is
        empty and the kernel skips them (writing them costs more than a random game's play).
    :param deal_room: the deal axis of the per-deal arrays with *details* or *record* (default
        the kernel's ``deals``), for a kernel whose sessions vary in length (its
        ``deal_counts``): a game that plays more deals keeps the first this many
        (:attr:`BatchResult.deal_counts` counts them all).
    :raises CommerceError: for a bot without a compiled policy or an option the kernel does not
        play, or *deal_room* for a kernel whose sessions have a fixed length.
    """
    if games < 1:
        raise CommerceError("a batch has at least one game")
    kern = kernel if kernel is not None else build_kernel(rules, players)
    share = len(lineups) if lineups is not None else len(bots) if rotate else 1
    if first_game % share:
        raise CommerceError("a rotated batch starts at the first game of a block")
    codes, boldness = _policies(bots, players, rotate, lineups)
    missing = policy_missing(kern, bots)
    if missing is not None:
        raise CommerceError(f"{missing}; use --engine reference")
    if deal_room is not None and not getattr(kern, "deal_counts", False):
        raise CommerceError(f"{rules.id}'s sessions all play {kern.deals} deals: no deal_room")
    result = new_result(kern, players, games, details=details, record=record,
                        deal_room=deal_room)
    out = result.arrays()
    n_threads = max(1, min(threads or min(os.cpu_count() or 1, 8), games))
    if n_threads == 1:
        kern.run(seed, first_game, 0, games, codes, boldness, share, out)
        return result
    # more pieces than threads, taken as threads come free: a core slowed by other work
    # takes fewer (each game has its own streams, so the pieces change no result); a piece
    # is at least the kernel's piece_games games (2,000 of the trading family's short games)
    pieces = max(n_threads, min(n_threads * 16, games // getattr(kern, "piece_games", 2_000)))
    bounds = [games * t // pieces for t in range(pieces + 1)]
    with ThreadPoolExecutor(n_threads) as pool:
        jobs = [pool.submit(kern.run, seed, first_game, bounds[t], bounds[t + 1], codes,
                            boldness, share, out) for t in range(pieces)]
        for job in jobs:
            job.result()
    return result
