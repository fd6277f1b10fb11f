"""The trading kernel's GPU port plays the CPU kernel's games, checked in numba's CUDA simulator.

No GPU is needed: the simulator (``NUMBA_ENABLE_CUDASIM=1``, set before numba is imported, so
in a process of its own) runs the CUDA kernel of :mod:`commerce.families.trading.kernel_cuda`
thread by thread in Python, each of its device functions the twin
(:func:`commerce.kernelkit.cuda_twin`) of a compiled function of the CPU kernel. On a GPU,
``scripts/gpu_kernel.py`` makes the same check over 100,000 games of each policy.
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
from commerce.families.trading import kernel as K
from commerce.families.trading.kernel_cuda import CudaTradingKernel
from commerce.fast import build_kernel, policy_arrays, run_batch
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
for rid, bots, players in (("peel", ["random"], 4), ("hoyle", ["heuristic", "random"], 3),
                           ("trade-and-barter", ["heuristic"], 5)):
    rules = find_ruleset(rid)
    kernel = build_kernel(rules, players)
    codes, bold = policy_arrays(bots, players)
    gpu = CudaTradingKernel(kernel, block=8).play(11, 12, codes, bold, first_game=3)
    cpu = run_batch(rules, players=players, games=12, seed=11, bots=bots, kernel=kernel,
                    first_game=3, threads=1)
    report["games"].append({
        "rules": rid,
        "gpu": [gpu.payoffs.copy_to_host().tolist(), gpu.deals_won.copy_to_host().tolist(),
                gpu.decisions.copy_to_host().tolist(), gpu.dealers.copy_to_host().tolist()],
        "cpu": [cpu.payoffs.tolist(), cpu.deals_won.tolist(), cpu.decisions.tolist(),
                cpu.dealers.tolist()]})
print(json.dumps(report))
"""


def test_the_gpu_kernel_plays_the_cpu_kernels_games_in_the_simulator() -> None:
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
        assert len(decisions) == 12 and min(decisions) > 0, game["rules"]
        assert any(any(row) for row in payoffs), game["rules"]  # money changed hands
        assert game["gpu"] == game["cpu"], game["rules"]
