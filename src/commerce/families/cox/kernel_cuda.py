"""Cox's kernel on a GPU: the games of :mod:`.kernel`, one CUDA thread each.

As the trading family's (:mod:`commerce.families.trading.kernel_cuda`): each thread runs the
kernel's own :func:`.kernel._play_rows` for its one row, compiled for CUDA from the same Python
source (:func:`commerce.kernelkit.cuda_twin`), the game's state and scratch arrays
(:data:`.compiled_rules.STATE_SIZE`, :data:`.compiled_rules.SCRATCH_SIZE`, zeroed as there)
in the thread's local memory. It plays the games the CPU kernel plays for the same seed
(``tests/test_kernel_cuda.py``, ``scripts/gpu_kernel.py``). Imported by that script and test
alone.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numba
from numba import cuda as _cuda

from commerce.families.cox.compiled_rules import _SEATS, SCRATCH_SIZE, STATE_SIZE
from commerce.families.cox.kernel import CoxKernel, _play_rows
from commerce.kernelkit import CudaBatch, cuda_kernel, cuda_twin, zeroed

cuda: Any = _cuda
"""numba's CUDA target (as a module global of this name, which the simulator swaps)."""


@lru_cache(maxsize=1)
def _games() -> Any:
    """The CUDA kernel (:meth:`CudaBatch.compiled`; made once a process)."""
    play = cuda_twin(_play_rows)
    zero = cuda_twin(zeroed)
    state, scratch, seats = STATE_SIZE, SCRATCH_SIZE, _SEATS
    i64, i8 = numba.int64, numba.int8

    @cuda_kernel
    def games(key: Any, index0: Any, n: Any, cfg: Any, policies: Any, boldness: Any,
              share: Any, payoffs: Any, deals_won: Any, decisions: Any, dealers: Any,
              standers: Any, categories: Any, deal_turns: Any, actions: Any,
              action_counts: Any, deal_payoffs: Any, session: Any, deal_decisions: Any,
              deal_winners: Any, deal_counts: Any, deal_dealers: Any) -> None:
        row = cuda.grid(1)
        if row < n:
            play(key, index0, row, row + 1, cfg, policies, share, payoffs, deals_won,
                 decisions, dealers, standers, categories, deal_turns, actions,
                 action_counts, deal_decisions, deal_winners, deal_payoffs, deal_dealers,
                 zero(cuda.local.array(state, i64)), zero(cuda.local.array(scratch, i64)),
                 zero(cuda.local.array(seats, i8)))

    return games


class CudaCoxKernel(CudaBatch):
    """A :class:`.kernel.CoxKernel`'s configuration on the device (:class:`CudaBatch`)."""

    def __init__(self, kernel: CoxKernel, block: int = 128) -> None:
        super().__init__((kernel.cfg,), block)

    def compiled(self) -> Any:
        """The CUDA kernel of Cox's game."""
        return _games()
