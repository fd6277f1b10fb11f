"""The compiled kernels on a GPU (numba's CUDA target): checked game for game, then timed.

    PYTHONPATH=src python scripts/gpu_kernel.py [--rules peel,widow,cox,...]
        [--sizes 10000,100000,1000000] [--repeats 3] [--json FILE]

For each ruleset (every preset with a kernel by default) and policy (random, heuristic; 4
players), it plays ``--check`` games on the GPU (the family's ``kernel_cuda`` module: one thread
a game, the CPU kernel's own source compiled for CUDA) and the same games on the CPU kernel
(:func:`commerce.compiled.run_batch`, every core), and counts the games whose payoffs, deals won,
decisions or first dealer differ (there should be none). It then times batches of each size
in ``--sizes`` on the GPU (the kernel alone, launched and waited for: the results stay on the
device), and batches on the CPU kernel on every core of the same machine (200,000 trading
games, 20,000 sessions or games of the others), each the median of ``--repeats``. Player
decisions per second, as ``commerce bench --fast`` counts them. The first call's time
(compiling for the device) is reported apart. Needs a GPU with numba-cuda.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import warnings
from typing import Any

PRESETS = ("peel,hoyle,trade-and-barter,peel-old,pool,widow,pounce,no-pair-or-point,cox")


def gpu_kernel(kernel: Any, family: str) -> Any:
    """The family's GPU kernel over *kernel*'s tables."""
    if family == "trading":
        from commerce.families.trading.kernel_cuda import CudaTradingKernel
        return CudaTradingKernel(kernel)
    if family == "widow":
        from commerce.families.widow.kernel_cuda import CudaWidowKernel
        return CudaWidowKernel(kernel)
    from commerce.families.cox.kernel_cuda import CudaCoxKernel
    return CudaCoxKernel(kernel)


def main() -> int:
    """Check, time and print (and with ``--json``, write the figures)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default=PRESETS)
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--check", type=int, default=0,
                        help="games checked (0: 100,000 trading games, 10,000 of the others)")
    parser.add_argument("--json", help="write the figures to this file")
    parser.add_argument("--markdown", action="store_true",
                        help="print the table of docs/performance.md (the progress lines go to "
                             "standard error)")
    parser.add_argument("--quick", action="store_true",
                        help="Peel alone, 1,000 games checked and timed once")
    args = parser.parse_args()
    if args.quick:
        args.rules, args.sizes, args.repeats, args.check = "peel", "1000", 1, 1000
    log = sys.stderr if args.markdown else sys.stdout
    warnings.simplefilter("ignore", category=Warning)  # numba's notes on occupancy
    from numba import cuda

    from commerce.compiled import build_kernel, new_result, policy_arrays, run_batch
    from commerce.rules import find_ruleset

    if cuda.is_available() and hasattr(cuda, "get_current_device"):
        device = cuda.get_current_device().name
        name = device.decode() if isinstance(device, bytes) else str(device)
    else:  # numba's simulator (NUMBA_ENABLE_CUDASIM=1): a check of the script, not a figure
        name = "CUDA simulator"
    cores = os.cpu_count() or 1
    print(f"device: {name}; CPU cores: {cores}", file=log, flush=True)
    rows = []
    for rid in args.rules.split(","):
        rules = find_ruleset(rid)
        kernel = build_kernel(rules, 4)
        gpu = gpu_kernel(kernel, rules.family)
        trading = rules.family == "trading"
        check = args.check or (100_000 if trading else 10_000)
        cpu_games = 200_000 if trading else 20_000

        def on_device(games: int, kernel: Any = kernel) -> list[Any]:
            return [cuda.to_device(a) for a in new_result(kernel, 4, games).arrays()]

        for bot in ("random", "heuristic"):
            codes, bold = policy_arrays([bot], 4)
            start = time.perf_counter()
            gpu.run(0, 0, 128, codes, bold, 1, on_device(128))
            cuda.synchronize()
            first = time.perf_counter() - start
            out = on_device(check)
            gpu.run(1, 0, check, codes, bold, 1, out)
            cpu = run_batch(rules, players=4, games=check, seed=1, bots=[bot],
                            kernel=kernel, threads=cores)
            mine = [a.copy_to_host() for a in out[:4]]
            differ = ((mine[0] != cpu.payoffs).any(axis=1)
                      | (mine[1] != cpu.deals_won).any(axis=1)
                      | (mine[2] != cpu.decisions) | (mine[3] != cpu.dealers))
            row: dict[str, Any] = {"rules": rid, "bot": bot, "device": name,
                                   "first_call_s": round(first, 2), "checked": check,
                                   "differ": int(differ.sum()), "gpu": {}}
            for size in (int(s) for s in args.sizes.split(",")):
                out = on_device(size)
                rates = []
                for seed in range(args.repeats):
                    start = time.perf_counter()
                    gpu.run(seed, 0, size, codes, bold, 1, out)
                    cuda.synchronize()
                    wall = time.perf_counter() - start
                    rates.append(int(out[2].copy_to_host().sum()) / wall)
                row["gpu"][size] = statistics.median(rates)
            rates = []
            for seed in range(args.repeats):
                start = time.perf_counter()
                result = run_batch(rules, players=4, games=cpu_games, seed=seed, bots=[bot],
                                   kernel=kernel, threads=cores)
                rates.append(int(result.decisions.sum()) / (time.perf_counter() - start))
            row["cpu"] = statistics.median(rates)
            row["cpu_games"] = cpu_games
            rows.append(row)
            sizes = ", ".join(f"{s:,}: {r / 1e6:,.0f}M" for s, r in row["gpu"].items())
            print(f"{rid} {bot}: first call {first:.1f} s; {row['differ']} of {check:,} "
                  f"games differ from the CPU kernel; GPU {sizes}; CPU ({cores} cores, "
                  f"{cpu_games:,} games) {row['cpu'] / 1e6:,.0f}M decisions/s", file=log,
                  flush=True)
            if args.json:
                with open(args.json, "w") as f:
                    json.dump(rows, f, indent=1)
    if args.markdown:
        print(markdown(rows, cores))
    return 0 if all(r["differ"] == 0 for r in rows) else 1


def markdown(rows: list[dict[str, Any]], cores: int) -> str:
    """The rows as the table of docs/performance.md: million decisions a second."""
    sizes = list(rows[0]["gpu"]) if rows else []
    largest = sizes[-1] if sizes else 0
    head = (["ruleset", "policy", *(f"GPU, {s:,} games" if i == 0 else f"{s:,}"
                                    for i, s in enumerate(sizes)),
             f"CPU kernel, {cores} cores", f"GPU at {largest:,} / CPU", "checked, differing"])
    lines = ["| " + " | ".join(head) + " |",
             "|---|---|" + "---:|" * (len(sizes) + 3)]
    for r in rows:
        cells = [r["rules"], r["bot"], *(f"{r['gpu'][s] / 1e6:,.0f}" for s in sizes),
                 f"{r['cpu'] / 1e6:,.0f}", f"{r['gpu'][largest] / r['cpu']:.1f}x",
                 f"{r['checked']:,}, {r['differ']}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
