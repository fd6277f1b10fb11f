"""Two versions of a family's compiled kernel in one process, timed batch for batch in turn.

    PYTHONPATH=src python scripts/bench_kernel_inproc.py --old OLD_SRC --only peel:random
    PYTHONPATH=src python scripts/bench_kernel_inproc.py --old OLD_SRC \\
        --only peel-old:heuristic,pounce:heuristic --rounds 30 --threads 2

``OLD_SRC`` is the ``src`` folder of another checkout (``git archive COMMIT src | tar -x -C
DIR``). The other version's kernel modules (the family's ``kernel.py`` and ``compiled*.py``)
are copied into a package of their own in a temporary folder, their imports of one another
pointed at the copies (everything else, such as :mod:`commerce.kernelkit`, is this
checkout's), and both versions' kernels are built in this process. Each round plays one
batch on each, in alternating order (the old first in even rounds), with the same seed; a
round's ratio is new over old, decisions per CPU second with one thread
(``time.process_time``) or per second of the clock with more. The medians of the rates and
of the ratios, and the ratios' quartiles, are printed. Two versions timed side by side in one
process see the same load on a shared machine, which runs in turn a minute apart do not:
this finds changes of a few per cent that :mod:`bench_kernel_ab` (a process per run) cannot
tell from the machine's wandering. The copies compile afresh (their cache is in the
temporary folder): allow a minute for the widow games and Cox's.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TRADING = ("peel", "hoyle", "trade-and-barter")


def load_old(old_src: Path, family: str, folder: Path) -> Any:
    """The other version's kernel module of *family*, from copies in *folder*."""
    package = f"old_{family}_kernel"
    target = folder / package
    target.mkdir()
    (target / "__init__.py").write_text("")
    source = old_src / "commerce" / "families" / family
    names = [p.stem for p in sorted(source.glob("*.py"))
             if p.stem == "kernel" or p.stem.startswith("compiled")]
    pattern = re.compile(rf"\bcommerce\.families\.{family}\.({'|'.join(names)})\b")
    for name in names:
        text = (source / f"{name}.py").read_text()
        (target / f"{name}.py").write_text(pattern.sub(rf"{package}.\1", text))
    sys.path.insert(0, str(folder))
    return importlib.import_module(f"{package}.kernel")


class Fitted:
    """The other version's kernel, handed as many of the result arrays as its compiled
    ``play_games`` takes (arrays added to :class:`commerce.compiled.BatchResult` since then come
    last and are left out)."""

    def __init__(self, kernel: Any, module: Any) -> None:
        self._kernel = kernel
        params = list(inspect.signature(module.play_games.py_func).parameters)
        self._arrays = len(params) - params.index("payoffs")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._kernel, name)

    def run(self, seed: int, index0: int, first: int, stop: int, policies: Any,
            boldness: Any, share: int, out: tuple[Any, ...]) -> None:
        """The kernel's ``run`` with the arrays it knows."""
        self._kernel.run(seed, index0, first, stop, policies, boldness, share,
                         out[:self._arrays])


def compare(rid: str, bot: str, old_kernel: Any, games: int, rounds: int,
            threads: int) -> str:
    """One line: both versions' median rates and the median ratio of *rounds* rounds."""
    from commerce.compiled import build_kernel, run_batch
    from commerce.rules import find_ruleset

    rules = find_ruleset(rid)
    kernels = {"old": Fitted(old_kernel.build(rules, 4), old_kernel),
               "new": build_kernel(rules, 4)}
    for kern in kernels.values():  # compile or load, apart from the timing
        run_batch(rules, players=4, games=10, seed=0, bots=[bot], kernel=kern, threads=1)
    clock = time.process_time if threads == 1 else time.perf_counter
    rates: dict[str, list[float]] = {"old": [], "new": []}
    ratios = []
    for i in range(rounds):
        pair = {}
        for name in (("old", "new") if i % 2 == 0 else ("new", "old")):
            start = clock()
            result = run_batch(rules, players=4, games=games, seed=i, bots=[bot],
                               kernel=kernels[name], threads=threads)
            pair[name] = float(result.decisions.sum()) / (clock() - start)
            rates[name].append(pair[name])
        ratios.append(pair["new"] / pair["old"])
    q1, _, q3 = statistics.quantiles(ratios, n=4)
    return (f"| {rid} | {bot} | {statistics.median(rates['old']) / 1e6:.2f} | "
            f"{statistics.median(rates['new']) / 1e6:.2f} | {statistics.median(ratios):.3f} "
            f"[{q1:.3f}, {q3:.3f}] |")


def main() -> None:
    """Parse the arguments and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", required=True, help="the other version's src folder")
    parser.add_argument("--only", required=True, help="line-ups, a comma list of PRESET:BOT")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--games", type=int, default=0,
                        help="per batch (0: 100,000 trading games, 400 widow sessions or "
                             "Cox games)")
    args = parser.parse_args()
    from commerce.rules import find_ruleset

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        olds: dict[str, Any] = {}
        for item in args.only.split(","):
            rid, bot = item.split(":")
            family = find_ruleset(rid).family
            if family not in olds:
                folder = Path(tmp) / family
                folder.mkdir()
                olds[family] = load_old(Path(args.old), family, folder)
            games = args.games or (100_000 if rid in TRADING else 400)
            rows.append(compare(rid, bot, olds[family], games, args.rounds, args.threads))
            print(rows[-1], flush=True)
    unit = ("per CPU second, 1 thread" if args.threads == 1
            else f"by the clock, {args.threads} threads")
    print(f"| ruleset | policy | before (million a second, {unit}) | now | ratio [quartiles] |")
    print("|---|---|---:|---:|---:|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
