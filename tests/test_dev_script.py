"""``./dev``: each requirements file keeps its own install stamp, so that switching between
``./dev commerce``/``./dev play`` and ``./dev test`` runs pip only when the pins change.

The script runs in a copy of the project's files with a stand-in virtual environment whose
``python`` (and ``commerce``, ``ruff``, ``mypy``) only log how they were called.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(
    shutil.which("bash") is None or shutil.which("sha256sum") is None,
    reason="needs bash and sha256sum")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for name in ("dev", "requirements.txt", "requirements-dev.txt", "pyproject.toml"):
        shutil.copy2(ROOT / name, tmp_path / name)
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for tool in ("python", "commerce", "ruff", "mypy"):
        script = bin_dir / tool
        script.write_text(f'#!/bin/sh\necho "{tool} $*" >>"$(dirname "$0")/../calls.log"\n')
        script.chmod(0o755)
    return tmp_path


def _dev(project: Path, *args: str) -> list[str]:
    """Run ``./dev ARGS``; the stand-in tools' calls it made."""
    log = project / ".venv" / "calls.log"
    log.write_text("")
    proc = subprocess.run(["bash", str(project / "dev"), *args], capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # e.g. no 'req: unbound variable'
    return log.read_text().splitlines()


def _pip(calls: list[str]) -> list[str]:
    return [c for c in calls if c.startswith("python -m pip")]


def test_switching_between_commands_installs_each_requirements_file_once(project):
    first = _dev(project, "commerce", "--help")
    assert _pip(first) == [
        "python -m pip install -q --disable-pip-version-check -r requirements.txt",
        "python -m pip install -q --disable-pip-version-check --no-deps -e .",
    ]
    assert first[-1] == "commerce --help"
    assert _pip(_dev(project, "commerce", "--help")) == []
    test = _dev(project, "test", "--co", "-q")
    assert _pip(test) == [
        "python -m pip install -q --disable-pip-version-check -r requirements-dev.txt",
        "python -m pip install -q --disable-pip-version-check --no-deps -e .",
    ]
    assert test[-1] == "python -m pytest --co -q"
    for args in (("commerce", "--help"), ("test", "--co", "-q"), ("play", "--seed", "1")):
        assert _pip(_dev(project, *args)) == [], args


def test_the_dev_requirements_cover_the_runtime_ones(project):
    # after './dev test' (whose file includes requirements.txt), './dev play' installs nothing
    _dev(project, "test")
    calls = _dev(project, "play", "--players", "3")
    assert _pip(calls) == [] and calls == ["commerce play --players 3"]


def test_a_changed_pin_reinstalls_that_file(project):
    _dev(project, "commerce", "--help")
    _dev(project, "test")
    with (project / "requirements-dev.txt").open("a") as fh:
        fh.write("# a changed pin\n")
    assert _pip(_dev(project, "commerce", "--help")) == []
    assert len(_pip(_dev(project, "test"))) == 2
    with (project / "requirements.txt").open("a") as fh:
        fh.write("# a changed pin\n")
    assert len(_pip(_dev(project, "commerce", "--help"))) == 2
    assert len(_pip(_dev(project, "test"))) == 2
