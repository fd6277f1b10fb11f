"""The widow kernel on a GPU: the sessions of :mod:`.kernel`, one CUDA thread each.

As the trading family's (:mod:`commerce.families.trading.kernel_cuda`): each thread runs the
kernel's own :func:`.kernel._play_rows` for its one row, compiled for CUDA from the same Python
source (:func:`commerce.kernelkit.cuda_twin`), its working arrays (those of
:func:`.compiled_turns._scratch`, zeroed as there) in the thread's local memory, sized for the
most seats a widow preset has. It plays the sessions the CPU kernel plays for the same seed
(``tests/test_kernel_cuda.py``, ``scripts/gpu_kernel.py``). Imported by that script and test
alone.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final

import numba
from numba import cuda as _cuda

from commerce.errors import RulesetError
from commerce.families.widow.compiled_heuristic import FREE
from commerce.families.widow.kernel import WidowKernel, _play_rows
from commerce.kernelkit import CudaBatch, cuda_kernel, cuda_twin, zeroed

cuda: Any = _cuda
"""numba's CUDA target (as a module global of this name, which the simulator swaps)."""

SEATS: Final = 10
"""Seats a GPU thread's arrays hold (the most any widow preset seats)."""
PACK: Final = 52
"""Cards a GPU thread's stock holds."""


@lru_cache(maxsize=1)
def _games() -> Any:
    """The CUDA kernel (:meth:`CudaBatch.compiled`; made once a process)."""
    play = cuda_twin(_play_rows)
    zero = cuda_twin(zeroed)
    # sizes as constants of the closure (CUDA's local arrays take constant sizes only)
    s, s4, c, c1, c4, free = SEATS, 4 * SEATS, PACK, PACK + 1, 4 * PACK, FREE
    i64, i8, f64 = numba.int64, numba.int8, numba.float64

    @cuda_kernel
    def games(key: Any, index0: Any, n: Any, cfg: Any, pack_cards: Any, rank3: Any,
              rank4: Any, cat_code: Any, frank3: Any, strength: Any, vtab: Any, rtab: Any,
              policies: Any, boldness: Any, share: Any, payoffs: Any, deals_won: Any,
              decisions: Any, dealers: Any, standers: Any, categories: Any,
              deal_turns: Any, actions: Any, action_counts: Any, deal_payoffs: Any,
              session: Any, deal_decisions: Any, deal_winners: Any, deal_counts: Any,
              deal_dealers: Any) -> None:
        row = cuda.grid(1)
        if row < n:
            local = cuda.local.array
            play(key, index0, row, row + 1, cfg, pack_cards, rank3, rank4, cat_code, frank3,
                 strength, vtab, rtab, policies, boldness, share, payoffs, deals_won,
                 decisions, dealers, standers, categories, deal_turns, actions,
                 action_counts, zero(local(32, i64)), zero(local(s4, i64)),
                 zero(local(s, i64)), zero(local(c1, i64)), zero(local(c, i64)),
                 zero(local(s, i64)), zero(local(s, i64)), zero(local(s, i64)),
                 zero(local(8, i64)), zero(local(c4, i64)), zero(local(s, i64)),
                 zero(local(s, i64)), zero(local(s, i64)), zero(local(s, i64)),
                 zero(local(s, i64)), zero(local(s, i64)), zero(local(s, i64)),
                 zero(local(4, i64)), zero(local(c1, i64)), zero(local(c, i64)),
                 zero(local(4, i64)), zero(local(free, i64)), local(s, i8), local(s, f64),
                 session, deal_decisions, deal_winners, deal_counts, deal_payoffs,
                 deal_dealers)

    return games


class CudaWidowKernel(CudaBatch):
    """A :class:`.kernel.WidowKernel`'s tables on the device (:class:`CudaBatch`)."""

    def __init__(self, kernel: WidowKernel, block: int = 128) -> None:
        if kernel.players > SEATS or kernel.pack_cards.shape[0] > PACK:
            raise RulesetError(f"the GPU kernel holds {SEATS} seats and {PACK} cards")
        super().__init__((kernel.cfg, kernel.pack_cards, kernel.rank3, kernel.rank4,
                          kernel.cat_code, kernel.frank3, kernel.strength, kernel.vtab,
                          kernel.rtab), block)

    def compiled(self) -> Any:
        """The CUDA kernel of the widow family."""
        return _games()
