"""``scripts/count_any.py``: each ``Any`` written in the code counted once, imports not."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "count_any.py"

SAMPLE = '''
from typing import Any, cast
import typing

Alias = dict[str, Any]

def f(x: Any, *rest: "list[Any]", **kw: typing.Any) -> tuple[Any, int]:
    y: "Any" = cast(Any, x)
    return y, 1
'''


def _run(*args: str) -> str:
    return subprocess.run([sys.executable, str(SCRIPT), *args], check=True,
                          capture_output=True, text=True).stdout


def test_each_any_is_counted_once_and_imports_are_not(tmp_path: Path):
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import count_any
    finally:
        sys.path.remove(str(SCRIPT.parent))
    (tmp_path / "pkg").mkdir()
    sample = tmp_path / "pkg" / "mod.py"
    sample.write_text(SAMPLE)
    (tmp_path / "pkg" / "kernel_x.py").write_text("from typing import Any\nA: Any = 1\n")
    (tmp_path / "pkg" / "plain.py").write_text("x = 1  # Any in a comment\n")
    assert count_any.count_file(sample) == 7
    assert count_any.counts(tmp_path / "pkg") == {"kernel": {"pkg/kernel_x.py": 1},
                                                 "rest": {"pkg/mod.py": 7}}


def test_the_script_prints_the_totals_of_the_package():
    found = json.loads(_run("--json"))
    assert found["total"] == found["kernel"] + found["rest"] > 0
    assert found["kernel"] == sum(found["files"]["kernel"].values())
    assert all("kernel" in name or "compiled" in name for name in found["files"]["kernel"])
    table = _run("--top", "3")
    assert f"total               {found['total']:6d}" in table
