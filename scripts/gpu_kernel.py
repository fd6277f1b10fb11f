"""The trading kernel on a GPU (numba's CUDA target): checked game for game, then timed.

    PYTHONPATH=src python scripts/gpu_kernel.py [--rules peel,hoyle,trade-and-barter]
        [--sizes 10000,100000,1000000] [--repeats 5] [--check 100000] [--json FILE]

For each ruleset and policy (random, heuristic; 4 players), it plays ``--check`` games on the
GPU (:mod:`commerce.families.trading.kernel_cuda`: one thread a game, the CPU kernel's own
source compiled for CUDA) and the same games on the CPU kernel (:func:`commerce.fast.run_batch`,
every core), and counts the games whose payoffs, deals won, decisions or first dealer differ
(there should be none). It then times batches of each size in ``--sizes`` on the GPU (the
kernel alone, launched and waited for: the results stay on the device), and batches of
200,000 games on the CPU kernel on every core of the same machine, each the median of
``--repeats``. Player decisions per second, as ``commerce bench --fast`` counts them. The first
call's time (compiling for the device) is reported apart. Needs a GPU with numba-cuda.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import warnings


def main() -> int:
    """Check, time and print (and with ``--json``, write the figures)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="peel,hoyle,trade-and-barter")
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--check", type=int, default=100_000)
    parser.add_argument("--block", type=int, default=128)
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    warnings.simplefilter("ignore", category=Warning)  # numba's notes on occupancy
    from numba import cuda

    from commerce.families.trading.kernel_cuda import CudaTradingKernel
    from commerce.fast import build_kernel, policy_arrays, run_batch
    from commerce.rules import find_ruleset

    if cuda.is_available() and hasattr(cuda, "get_current_device"):
        device = cuda.get_current_device().name
        name = device.decode() if isinstance(device, bytes) else str(device)
    else:  # numba's simulator (NUMBA_ENABLE_CUDASIM=1): a check of the script, not a figure
        name = "CUDA simulator"
    cores = os.cpu_count() or 1
    print(f"device: {name}; CPU cores: {cores}", flush=True)
    rows = []
    for rid in args.rules.split(","):
        rules = find_ruleset(rid)
        kernel = build_kernel(rules, 4)
        gpu = CudaTradingKernel(kernel, block=args.block)
        for bot in ("random", "heuristic"):
            codes, bold = policy_arrays([bot], 4)
            start = time.perf_counter()
            gpu.play(0, args.block, codes, bold)
            cuda.synchronize()
            first = time.perf_counter() - start
            out = gpu.play(1, args.check, codes, bold)
            cpu = run_batch(rules, players=4, games=args.check, seed=1, bots=[bot],
                            kernel=kernel, threads=cores)
            differ = ((out.payoffs.copy_to_host() != cpu.payoffs).any(axis=1)
                      | (out.deals_won.copy_to_host() != cpu.deals_won).any(axis=1)
                      | (out.decisions.copy_to_host() != cpu.decisions)
                      | (out.dealers.copy_to_host() != cpu.dealers))
            row = {"rules": rid, "bot": bot, "device": name, "first_call_s": round(first, 2),
                   "checked": args.check, "differ": int(differ.sum()), "gpu": {}}
            for size in (int(s) for s in args.sizes.split(",")):
                rates = []
                for seed in range(args.repeats):
                    start = time.perf_counter()
                    out = gpu.play(seed, size, codes, bold)
                    cuda.synchronize()
                    wall = time.perf_counter() - start
                    rates.append(int(out.decisions.copy_to_host().sum()) / wall)
                row["gpu"][size] = statistics.median(rates)
            rates = []
            for seed in range(args.repeats):
                start = time.perf_counter()
                result = run_batch(rules, players=4, games=200_000, seed=seed, bots=[bot],
                                   kernel=kernel, threads=cores)
                rates.append(int(result.decisions.sum()) / (time.perf_counter() - start))
            row["cpu"] = statistics.median(rates)
            rows.append(row)
            sizes = ", ".join(f"{s:,}: {r / 1e6:,.0f}M" for s, r in row["gpu"].items())
            print(f"{rid} {bot}: first call {first:.1f} s; {row['differ']} of {args.check:,} "
                  f"games differ from the CPU kernel; GPU {sizes}; CPU ({cores} cores, "
                  f"200,000 games) {row['cpu'] / 1e6:,.0f}M decisions/s", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0 if all(r["differ"] == 0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
