"""``commerce bench NAME``: each benchmark's output has its shape and positive figures (the
small ``--quick`` size; never a timed assertion)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from commerce.bench.named import NAMES
from commerce.cli import main
from commerce.cli.bench import BENCHES

SRC = str(Path(__file__).resolve().parent.parent / "src")
EXTRA = {"kernel-ab": ("--against", SRC)}  # this checkout against itself


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["bench", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_every_benchmark_has_its_options() -> None:
    assert tuple(BENCHES) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_quick_json_has_the_columns_and_positive_figures(capsys: pytest.CaptureFixture[str],
                                                         name: str) -> None:
    code, out, err = _run(capsys, name, "--quick", "--json", *EXTRA.get(name, ()))
    assert code == 0, err
    data = json.loads(out)
    assert data["bench"] == name and data["title"] and data["rows"]
    assert {"date", "machine", "cpus", "python"} <= set(data["environment"])
    numbers = 0
    for row in data["rows"]:
        for value in row.values():
            assert value is not None, row
            if isinstance(value, int | float) and not isinstance(value, bool):
                assert value > 0, row
                numbers += 1
    assert numbers >= 2


def test_markdown_is_one_line_then_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "jobs", "--quick", "--markdown")
    lines = out.strip("\n").splitlines()
    assert code == 0 and lines[0].startswith("Measured ") and lines[1] == ""
    assert lines[2] == ("| ruleset | games | bots | --jobs 1, s | --jobs 2, s | speed-up "
                        "| same results |")
    assert lines[3] == "|---|---:|---|---:|---:|---:|---|"
    assert len(lines) == 5 and lines[4].startswith("| peel | ") and lines[4].endswith("| yes |")


def test_a_missing_optional_package_is_one_clear_line(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # as if open_spiel were not installed
    for name in ("peers", "research"):
        code, out, err = _run(capsys, name, "--quick")
        assert code == 2 and not out
        assert err.strip() == (f"commerce bench: error: commerce bench {name} needs pyspiel, "
                               "which is not installed (pip install 'commerce[openspiel]')")


@pytest.mark.parametrize(("argv", "needle"), [
    (("kernel", "--rules", "peel,widdow", "--quick"), "unknown ruleset 'widdow'"),
    (("kernel", "--rules", "vingt-un", "--quick"), "commerce bench kernel: vingt-un:"),
    (("search", "--games", "0"), "--games: must be a whole number from 1 to 100,000"),
    (("vector-env", "--envs", "-1"), "--envs: must be a whole number from 1 to 65,536"),
    (("nope",), "invalid choice: 'nope'"),
    (("kernel-ab", "--quick"), "give the other checkout's src folder with --against SRC"),
    (("kernel-ab", "--against", "/nonexistent", "--quick"),
     "/nonexistent is not a src folder with the commerce package in it"),
])
def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                               needle: str) -> None:
    code, _, err = _run(capsys, *argv)
    assert code == 2 and needle in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_vector_env_step_only_times_env_step_on_its_own(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "vector-env", "--quick", "--step-only", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert "actions drawn beforehand" in data["title"]
    assert [(row["rules"], row["opponents"]) for row in data["rows"]] == [
        ("peel", "heuristic"), ("peel", "random")]
    for row in data["rows"]:
        assert row["step_only_per_s"] > 0 and row["step_alone_per_s"] > 0
        assert row["share"] == round(row["steps_per_s"] / row["step_only_per_s"], 2)
    code, out, _ = _run(capsys, "vector-env", "--quick", "--json")
    assert code == 0 and "step_only_per_s" not in json.loads(out)["rows"][0]
