"""The trading kernel on a GPU: the games of :mod:`.kernel`, one CUDA thread each.

Nothing here restates a rule. Each game's thread runs the kernel's own
:func:`.kernel._play_rows` for its one row, compiled by numba's CUDA target from the same
Python source as the CPU kernel (:func:`commerce.kernelkit.cuda_twin`); its working arrays
(hands, stock, bottom queue, balances, streams) are made in the thread's local memory, the
tables (ranks, strengths) are read from the device's memory. Game *i* of a run draws from the
same streams as on the CPU, so the GPU plays the very games :func:`commerce.compiled.run_batch`
plays for the same seed: ``tests/test_kernel_cuda.py`` holds the two equal game for game (in
numba's CUDA simulator, where no GPU is at hand), and ``scripts/gpu_kernel.py`` measures and
checks it on a GPU.

Needs numba's CUDA target (the ``numba-cuda`` package and a GPU, or the simulator with
``NUMBA_ENABLE_CUDASIM=1``, which must see ``numba.cuda`` as a global of this module): it is
imported by that script and test alone, never by ``import commerce``; the project builds and
tests without a GPU.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final

import numba
from numba import cuda as _cuda

from commerce.errors import RulesetError
from commerce.families.trading.compiled_rules import (
    _N_SC,
)
from commerce.families.trading.kernel import TradingKernel, _play_rows
from commerce.kernelkit import CudaBatch, cuda_kernel, cuda_twin

cuda: Any = _cuda
"""numba's CUDA target (as a module global of this name, which the simulator swaps)."""

SEATS: Final = 12
"""Seats a GPU thread's arrays hold (the most any trading preset seats)."""
PACK: Final = 52
"""Cards a GPU thread's stock and bottom queue hold (the trading packs have 52 at most)."""


@lru_cache(maxsize=1)
def _games() -> Any:
    """The CUDA kernel (:meth:`CudaBatch.compiled`; made once a process)."""
    play = cuda_twin(_play_rows)
    seats, cards, n_sc = SEATS, PACK, _N_SC
    i64, u64, i8, f64 = numba.int64, numba.uint64, numba.int8, numba.float64

    @cuda_kernel
    def games(key: Any, index0: Any, n: Any, cfg: Any, pack_cards: Any, rank3: Any,
              cat_code: Any, strength: Any, pwin: Any, give_value: Any, after_win: Any,
              policies: Any, boldness: Any, share: Any, payoffs: Any, deals_won: Any,
              decisions: Any, dealers: Any, standers: Any, categories: Any,
              deal_turns: Any, actions: Any, action_counts: Any, deal_payoffs: Any,
              session: Any, deal_decisions: Any, deal_winners: Any) -> None:
        row = cuda.grid(1)
        if row < n:
            play(key, index0, row, row + 1, cfg, pack_cards, rank3, cat_code, strength,
                 pwin, give_value, after_win, policies, boldness, share, payoffs,
                 deals_won, decisions, dealers, standers, categories, deal_turns, actions,
                 action_counts, deal_payoffs, deal_decisions, deal_winners,
                 cuda.local.array((seats, 3), i64), cuda.local.array(cards, i64),
                 cuda.local.array(cards, i64), cuda.local.array(seats, i64),
                 cuda.local.array(seats, i64), cuda.local.array(seats, i64),
                 cuda.local.array(seats, i64), cuda.local.array(2, u64),
                 cuda.local.array(n_sc, i64), cuda.local.array(seats, i64),
                 cuda.local.array(seats, i8), cuda.local.array(seats, f64))

    return games


class CudaTradingKernel(CudaBatch):
    """A :class:`.kernel.TradingKernel`'s tables on the device (:class:`CudaBatch`)."""

    outputs = 13  # up to deal_winners, as the CPU kernel's run

    def __init__(self, kernel: TradingKernel, block: int = 128) -> None:
        if kernel.players > SEATS or kernel.pack_cards.shape[0] > PACK:
            raise RulesetError(f"the GPU kernel holds {SEATS} seats and {PACK} cards")
        super().__init__((kernel.cfg, kernel.pack_cards, kernel.rank3, kernel.cat_code,
                          kernel.strength, kernel.pwin, kernel.give_value, kernel.after_win),
                         block)

    def compiled(self) -> Any:
        """The CUDA kernel of the trading family."""
        return _games()
