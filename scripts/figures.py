"""Regenerate every table of figures in the docs from the command that makes it.

    PYTHONPATH=src python scripts/figures.py                # every block but the long ones
    PYTHONPATH=src python scripts/figures.py --only kernel  # the blocks named kernel
    PYTHONPATH=src python scripts/figures.py --long         # the long ones too (ladder runs)
    PYTHONPATH=src python scripts/figures.py --check --quick  # run small, compare the shapes

A table of measured figures in ``docs/*.md`` stands between two markers, the command that
prints it named in the first::

    <!-- figures kernel: commerce bench kernel --markdown -->
    (the command's output: a line saying where and when, then the table)
    <!-- /figures -->

The command runs from the repository's root with ``src`` first on ``PYTHONPATH``;
``commerce`` and ``python`` name this interpreter's. A block marked ``(long)`` after its name
(``<!-- figures ladder (long): ... -->``) takes too long for a routine run (a ladder takes a
quarter of an hour) and runs with ``--long`` or ``--only`` alone. A block marked ``(by hand)``
names the command whose output its figures were copied from, where that command does not
print the table itself (a walk of a whole game tree, a load test against a database): it is
listed, never run. ``--quick`` adds ``--quick``
to every command (each benchmark has a small size); ``--check`` writes nothing and fails
where a command's table has not the columns of the table in the docs (with ``--quick``,
whose tables have fewer rows, the columns only). A table that holds reference data, not
measurements, carries ``<!-- not-figures: why -->`` on the line before it instead;
``tests/test_figures.py`` fails on a table of the pages in :data:`PAGES` that has neither.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("docs/performance.md", "docs/research.md", "docs/ladder.md", "docs/deployment.md")
"""The pages whose every table is figures made by a command or marked as reference data."""
OPEN = re.compile(r"^<!-- figures ([\w-]+)(?: \((long|by hand)\))?: (.+?) -->$")
CLOSE = "<!-- /figures -->"
NOT_FIGURES = re.compile(r"^<!-- not-figures: .+ -->$")


@dataclass
class Block:
    """One marked table: its page, name, kind (``""``, ``"long"`` or ``"by hand"``),
    command, the lines between its markers, and where they are (the index of the opening
    marker's line and of the closing one's)."""

    page: Path
    name: str
    kind: str
    command: str
    body: list[str]
    start: int
    end: int


def blocks(page: Path) -> list[Block]:
    """The figures blocks of *page*, in order; a marker left open or a stray closing one
    raises ValueError."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    opened: tuple[int, re.Match[str]] | None = None
    for n, line in enumerate(lines):
        m = OPEN.match(line)
        if m:
            if opened:
                raise ValueError(f"{page}:{n + 1}: a figures block inside another")
            opened = (n, m)
        elif line == CLOSE:
            if not opened:
                raise ValueError(f"{page}:{n + 1}: {CLOSE} without its opening marker")
            start, om = opened
            found.append(Block(page, om.group(1), om.group(2) or "", om.group(3),
                               lines[start + 1:n], start, n))
            opened = None
    if opened:
        raise ValueError(f"{page}:{opened[0] + 1}: a figures block that is never closed")
    return found


def unmarked_tables(page: Path) -> list[int]:
    """The line numbers (from 1) of the tables of *page* that stand in no figures block and
    have no ``not-figures`` marker on the line before them."""
    lines = page.read_text(encoding="utf-8").splitlines()
    inside = {n for b in blocks(page) for n in range(b.start, b.end + 1)}
    return [n + 1 for n, line in enumerate(lines)
            if line.startswith("|") and not (n and lines[n - 1].startswith("|"))
            and n not in inside and not (n and NOT_FIGURES.match(lines[n - 1]))]


def table_shape(lines: list[str], *, rows: bool) -> tuple[object, ...]:
    """The header of the first table in *lines*, with its number of rows if *rows*."""
    table = [line for line in lines if line.startswith("|")]
    if not table:
        return ()
    return (table[0], len(table)) if rows else (table[0],)


def argv(command: str, *, quick: bool) -> list[str]:
    """The command as a process runs it: ``commerce`` and ``python`` this interpreter's.

    >>> argv("commerce bench hands --markdown", quick=True)[1:]
    ['-m', 'commerce', 'bench', 'hands', '--markdown', '--quick']
    """
    words = shlex.split(command)
    if words[0] == "commerce":
        words = [sys.executable, "-m", "commerce", *words[1:]]
    elif words[0] == "python":
        words = [sys.executable, *words[1:]]
    return [*words, "--quick"] if quick else words


def run(block: Block, *, quick: bool, root: Path = ROOT) -> list[str]:
    """The lines the block's command prints (it fails with its standard error)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(root / "src"), *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run(argv(block.command, quick=quick), cwd=root, env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"{block.page.name} {block.name}: `{block.command}` failed "
                           f"({done.returncode}): {done.stderr.strip()[-2000:]}")
    return done.stdout.strip("\n").splitlines()


def rewrite(page: Path, index: int, output: list[str]) -> None:
    """Put *output* between the markers of the page's block number *index* (from 0; the
    page read again: earlier blocks may have changed its length)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    block = blocks(page)[index]
    lines[block.start + 1:block.end] = output
    page.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(args: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", help="comma list of block names")
    p.add_argument("--long", action="store_true", help="the long blocks too")
    p.add_argument("--quick", action="store_true", help="add --quick to every command")
    p.add_argument("--check", action="store_true",
                   help="write nothing; fail where a table's shape differs from the docs'")
    p.add_argument("--list", action="store_true", help="list the blocks and stop")
    p.add_argument("pages", nargs="*", help="pages (default: docs/*.md)")
    ns = p.parse_args(args)
    pages = [Path(x).resolve() for x in ns.pages] or sorted((ROOT / "docs").glob("*.md"))
    only = {x.strip() for x in ns.only.split(",")} if ns.only else None
    failed = 0
    for page in pages:
        for index, block in enumerate(blocks(page)):
            if ns.list:
                kind = f" ({block.kind})" if block.kind else ""
                print(f"{page.relative_to(ROOT)} {block.name}{kind}: {block.command}")
                continue
            if block.kind == "by hand":
                if not only or block.name in only:
                    print(f"{page.name} {block.name}: by hand, from `{block.command}`",
                          file=sys.stderr)
                continue
            if (only and block.name not in only) or (block.kind == "long" and not ns.long
                                                     and not only):
                continue
            print(f"{page.name} {block.name}: {block.command}", file=sys.stderr, flush=True)
            try:
                output = run(block, quick=ns.quick)
            except RuntimeError as exc:
                print(exc, file=sys.stderr)
                failed += 1
                continue
            if ns.check:
                got = table_shape(output, rows=not ns.quick)
                want = table_shape(block.body, rows=not ns.quick)
                if got != want:
                    print(f"  differs: {want} in the docs, {got} from the command",
                          file=sys.stderr)
                    failed += 1
            else:
                rewrite(page, index, output)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
