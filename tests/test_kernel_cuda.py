"""The kernels' GPU ports play the CPU kernels' games, checked in numba's CUDA simulator.

No GPU is needed: the simulator (``NUMBA_ENABLE_CUDASIM=1``, set before numba is imported, so
in a process of its own) runs the CUDA kernel of each family's ``kernel_cuda`` module thread by
thread in Python, each of its device functions the twin (:func:`commerce.kernelkit.cuda_twin`)
of a compiled function of the CPU kernel. On a GPU, ``scripts/gpu_kernel.py`` makes the same
check over 100,000 trading games and 10,000 of the others, for every preset and policy.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

CHILD = r"""
import json, sys, warnings
warnings.simplefilter("ignore")
import numba
from numba import cuda
from commerce.families.cox.kernel_cuda import CudaCoxKernel
from commerce.families.trading import kernel as K
from commerce.families.trading.kernel_cuda import CudaTradingKernel
from commerce.families.widow.kernel_cuda import CudaWidowKernel
from commerce.compiled import build_kernel, new_result, policy_arrays, run_batch
from commerce.kernelkit import cuda_twin
from commerce.rules import find_ruleset

twins = {}
cuda_twin(K._play_rows, twins)
# every compiled function the kernel's steps call has a twin, and each twin calls twins only
untwinned = sorted(
    name for twin in twins.values() for name in twin.fn.__code__.co_names
    if isinstance(twin.fn.__globals__.get(name), numba.core.registry.CPUDispatcher))
report = {"twins": sorted(d.py_func.__name__ for d in twins), "untwinned": untwinned,
          "games": []}
for rid, bots, players, games, gpu_of in (
        ("peel", ["random"], 4, 12, CudaTradingKernel),
        ("hoyle", ["heuristic", "random"], 3, 12, CudaTradingKernel),
        ("trade-and-barter", ["heuristic"], 5, 12, CudaTradingKernel),
        ("pounce", ["heuristic", "random"], 4, 3, CudaWidowKernel),
        ("peel-old", ["random"], 3, 2, CudaWidowKernel),
        ("cox", ["heuristic", "random"], 4, 2, CudaCoxKernel)):
    rules = find_ruleset(rid)
    kernel = build_kernel(rules, players)
    codes, bold = policy_arrays(bots, players)
    out = [cuda.to_device(a) for a in new_result(kernel, players, games).arrays()]
    gpu_of(kernel, block=8).run(11, 3, games, codes, bold, 1, out)
    cpu = run_batch(rules, players=players, games=games, seed=11, bots=bots, kernel=kernel,
                    first_game=3, threads=1)
    report["games"].append({
        "rules": rid,
        "gpu": [a.copy_to_host().tolist() for a in out[:4]],
        "cpu": [cpu.payoffs.tolist(), cpu.deals_won.tolist(), cpu.decisions.tolist(),
                cpu.dealers.tolist()]})
print(json.dumps(report))
"""


def test_the_gpu_kernels_play_the_cpu_kernels_games_in_the_simulator() -> None:
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", PYTHONPATH=str(SRC))
    done = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    # the steps of a game, each compiled from the CPU kernel's own source
    assert {"_play_rows", "_rest_of_deal", "_showdown", "_deal_cards", "heuristic_choice",
            "random_turn", "random_reply", "next_below"} <= set(report["twins"])
    assert report["untwinned"] == []
    for game in report["games"]:
        payoffs, won, decisions, dealers = game["gpu"]
        assert min(decisions) > 0, game["rules"]
        assert any(any(row) for row in payoffs), game["rules"]  # money changed hands
        assert game["gpu"] == game["cpu"], game["rules"]
