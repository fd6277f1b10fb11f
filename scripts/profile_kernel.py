"""Where a compiled kernel spends its time: Linux ``perf`` with numba's functions named.

    PYTHONPATH=src python scripts/profile_kernel.py --rules peel --bot random [--seconds 8]
    PYTHONPATH=src python scripts/profile_kernel.py --rules pounce --bot heuristic --annotate

``perf`` cannot name code that numba compiled at run time. This script plays the kernel's
batches in a child process that first writes ``/tmp/perf-PID.map`` (the address and size of
every compiled function of the family's kernel modules, which ``perf report`` reads) and
copies each function's machine code to a folder; it then runs ``perf record -e cpu-clock``
on the child for *seconds* and prints the share of samples by function. With ``--annotate``
it also prints, for the busiest functions, the busiest stretches of their code (windows of
30 instructions, disassembled by ``objdump``), which is how a hot load, a call that pushes
many arguments or an unpredictable branch shows itself.

The child compiles the kernel into a cache folder of its own (a function loaded from numba's
cache has no symbol to find). Needs ``perf`` and ``objdump`` (Debian's ``linux-perf`` and
``binutils``); it is a tool for whoever tunes the kernels, not part of the suite.
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def child(rules_id: str, bot: str, seconds: float, out: Path) -> None:
    """Build the kernel, write the perf map and the code, then play batches for *seconds*."""
    import numba

    from commerce.compiled import build_kernel, run_batch
    from commerce.families.cox import compiled_heuristic as cox_heuristic
    from commerce.families.cox import compiled_playouts as cox_playouts
    from commerce.families.cox import compiled_rules as cox_rules
    from commerce.families.cox import compiled_supply as cox_supply
    from commerce.families.cox import compiled_turn as cox_turn
    from commerce.families.cox import kernel as cox_kernel
    from commerce.families.trading import compiled_heuristic as trading_heuristic
    from commerce.families.trading import compiled_playouts as trading_playouts
    from commerce.families.trading import kernel as trading_kernel
    from commerce.families.widow import compiled_heuristic as widow_heuristic
    from commerce.families.widow import compiled_playouts as widow_playouts
    from commerce.families.widow import compiled_rules as widow_rules
    from commerce.families.widow import compiled_turns as widow_turns
    from commerce.families.widow import kernel as widow_kernel
    from commerce.rules import find_ruleset

    modules = {"trading": (trading_kernel, trading_heuristic, trading_playouts),
               "widow": (widow_kernel, widow_heuristic, widow_rules, widow_turns,
                         widow_playouts),
               "cox": (cox_kernel, cox_heuristic, cox_rules, cox_supply, cox_turn,
                       cox_playouts)}
    rules = find_ruleset(rules_id)
    kern = build_kernel(rules, 4)
    run_batch(rules, players=4, games=10, seed=0, bots=[bot], kernel=kern, threads=1)
    entries: list[tuple[int, str]] = []
    for mod in modules[rules.family]:
        name = mod.__name__
        for attr in dir(mod):
            fn = getattr(mod, attr)
            if not isinstance(fn, numba.core.registry.CPUDispatcher) or fn.__module__ != name:
                continue
            for compiled in fn.overloads.values():
                cres: Any = compiled  # numba's compile result (its library and descriptor)
                try:
                    addr = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
                except Exception:  # noqa: BLE001 - a function with no code of its own
                    continue
                if addr:
                    entries.append((addr, f"{name.rsplit('.', 1)[1]}.{attr}"))
    entries.sort()
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for i, (addr, label) in enumerate(entries):
            size = min(0x20000, entries[i + 1][0] - addr if i + 1 < len(entries) else 0x20000)
            f.write(f"{addr:x} {size:x} {label}\n")
            (out / f"{label}.{addr:x}.bin").write_bytes(ctypes.string_at(addr, size))
    (out / "ready").write_text(str(os.getpid()))
    games = 100_000 if rules.family == "trading" else 4_000
    start = time.time()
    while time.time() - start < seconds + 2:
        run_batch(rules, players=4, games=games, seed=1, bots=[bot], kernel=kern, threads=1)


def samples(data: Path) -> dict[str, collections.Counter[int]]:
    """Samples by function and address, from ``perf script``."""
    text = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip,sym"],
                          capture_output=True, text=True, check=True).stdout
    by: dict[str, collections.Counter[int]] = collections.defaultdict(collections.Counter)
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2:
            by[parts[1]][int(parts[0], 16)] += 1
    return by


def annotate(label: str, counts: collections.Counter[int], code: Path, top: int) -> None:
    """Print the busiest windows of 30 instructions of one function."""
    lowest = min(counts)
    found = None
    for f in glob.glob(str(code / f"{label}.*.bin")):
        addr = int(f.rsplit(".", 2)[1], 16)
        if addr <= lowest < addr + os.path.getsize(f):
            found = (addr, f)
    if found is None:
        return
    dis = subprocess.run(["objdump", "-D", "-b", "binary", "-mi386:x86-64",
                          f"--adjust-vma={found[0]:#x}", found[1]],
                         capture_output=True, text=True, check=True).stdout
    rows: list[tuple[int, str]] = []
    for line in dis.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s*(.*)", line)
        if m:
            rows.append((counts.get(int(m.group(1), 16), 0), line.strip()))
    total = sum(counts.values())
    width = 30
    sums = [sum(c for c, _ in rows[i:i + width]) for i in range(len(rows))]
    chosen: list[int] = []
    for i in sorted(range(len(sums)), key=lambda i: -sums[i]):
        if all(abs(i - j) > width for j in chosen):
            chosen.append(i)
        if len(chosen) == top:
            break
    for i in sorted(chosen):
        print(f"\n  {label}: {100 * sums[i] / total:.1f}% of its samples")
        for c, line in rows[i:i + width]:
            if c:
                print(f"    {c:6d}  {line}")


def main() -> int:
    """Run the child under perf and print the shares (and the annotations)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="peel")
    parser.add_argument("--bot", default="random")
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--annotate", action="store_true")
    parser.add_argument("--top", type=int, default=4, help="windows per function annotated")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.rules, args.bot, args.seconds, Path(args.child))
        return 0
    for tool in ("perf", "objdump"):
        if shutil.which(tool) is None:
            print(f"profile_kernel: {tool} is not installed", file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env: dict[str, Any] = dict(os.environ, NUMBA_CACHE_DIR=str(work / "numba"))
        proc = subprocess.Popen([sys.executable, __file__, "--rules", args.rules, "--bot",
                                 args.bot, "--seconds", str(args.seconds), "--child", tmp],
                                env=env)
        while not (work / "ready").exists():
            if proc.poll() is not None:
                print("profile_kernel: the kernel did not start", file=sys.stderr)
                return 1
            time.sleep(0.2)
        data = work / "perf.data"
        subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", "4000", "-p",
                        str(proc.pid), "-o", str(data), "--", "sleep", str(args.seconds)],
                       check=True, capture_output=True)
        proc.wait()
        by = samples(data)
        total = sum(sum(c.values()) for c in by.values())
        print(f"{args.rules}, {args.bot}: {total} samples")
        ranked = sorted(by.items(), key=lambda kv: -sum(kv[1].values()))
        for label, counts in ranked[:12]:
            print(f"  {100 * sum(counts.values()) / total:5.1f}%  {label}")
        if args.annotate:
            for label, counts in ranked[:3]:
                if label.startswith(("kernel.", "compiled_")):
                    annotate(label, counts, work, args.top)
        os.unlink(f"/tmp/perf-{proc.pid}.map")
    return 0


if __name__ == "__main__":
    sys.exit(main())
