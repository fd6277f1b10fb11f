"""Count the uses of ``typing.Any`` in the package, per file and in total.

A use is each ``Any`` written in the code, wherever it stands: an annotation (a parameter, a
return, a variable), inside a generic (``dict[str, Any]``), in ``cast(Any, x)`` or a type
alias; annotations written as strings are read too. The imports of ``Any`` are not uses.

The kernel and compiled files (``kernel*.py``, ``compiled*.py``, ``kernelkit.py``: numba code,
whose arrays are untyped to mypy) are counted apart from the rest.

    python scripts/count_any.py            # a table, largest first, and the totals
    python scripts/count_any.py --json     # the same as JSON
    python scripts/count_any.py --top 20   # only the 20 largest files of each part
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "commerce"
KERNEL_FILES = ("kernel*.py", "compiled*.py", "kernelkit.py")


def is_kernel_file(path: Path) -> bool:
    """Whether *path* is a kernel or compiled file (numba code)."""
    return any(fnmatch.fnmatch(path.name, pattern) for pattern in KERNEL_FILES)


def _anys(node: ast.AST) -> int:
    """The ``Any`` names under *node*, string annotations parsed."""
    count = 0
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id == "Any":
            count += 1
        elif isinstance(sub, ast.Attribute) and sub.attr == "Any":
            count += 1
    return count


def _string_annotation(node: ast.AST | None) -> int:
    """The ``Any`` names of an annotation written as a string."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return _anys(ast.parse(node.value, mode="eval"))
        except SyntaxError:
            return 0
    return 0


def count_file(path: Path) -> int:
    """The uses of ``Any`` in the file at *path*."""
    tree = ast.parse(path.read_text(), filename=str(path))
    count = _anys(tree)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            every = [*args.posonlyargs, *args.args, *args.kwonlyargs,
                     *([args.vararg] if args.vararg else []),
                     *([args.kwarg] if args.kwarg else [])]
            count += sum(_string_annotation(a.annotation) for a in every)
            count += _string_annotation(node.returns)
        elif isinstance(node, ast.AnnAssign):
            count += _string_annotation(node.annotation)
    return count


def counts(src: Path = SRC) -> dict[str, dict[str, int]]:
    """``{"kernel": {file: n}, "rest": {file: n}}`` for every file of *src* with a use."""
    out: dict[str, dict[str, int]] = {"kernel": {}, "rest": {}}
    for path in sorted(src.rglob("*.py")):
        n = count_file(path)
        if n:
            part = "kernel" if is_kernel_file(path) else "rest"
            out[part][str(path.relative_to(src.parent))] = n
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the table (or ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--top", type=int, default=0, metavar="N",
                        help="only the N largest files of each part (default: all)")
    args = parser.parse_args(argv)
    found = counts()
    totals = {part: sum(files.values()) for part, files in found.items()}
    if args.json:
        json.dump({"total": sum(totals.values()), "kernel": totals["kernel"],
                   "rest": totals["rest"], "files": found}, sys.stdout, indent=1)
        print()
        return 0
    for part, title in (("kernel", "kernel and compiled files"), ("rest", "the rest")):
        rows = sorted(found[part].items(), key=lambda kv: (-kv[1], kv[0]))
        if args.top:
            rows = rows[:args.top]
        print(f"{title}:")
        for name, n in rows:
            print(f"  {n:6d}  {name}")
        print(f"  {totals[part]:6d}  in {len(found[part])} files\n")
    print(f"kernel and compiled {totals['kernel']:6d}")
    print(f"the rest            {totals['rest']:6d}")
    print(f"total               {sum(totals.values()):6d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
