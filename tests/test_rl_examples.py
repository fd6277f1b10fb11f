"""The research API's examples (``examples/``) run, each a few episodes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.harness.rl_deps import need

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _run(script: str, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True,
                         text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.parametrize("rules", ["peel", "widow", "cox"])
def test_the_pettingzoo_random_loop_runs(rules: str) -> None:
    need("pettingzoo")
    out = _run("random_pettingzoo.py", "--rules", rules, "--episodes", "2")
    assert out.count("per episode") == 4 and "seat_3:" in out


def test_the_gymnasium_random_loop_runs() -> None:
    need("gymnasium")
    out = _run("random_gymnasium.py", "--env", "commerce/Widow-v0", "--episodes", "3",
               "--opponents", "random")
    assert out.startswith("commerce/Widow-v0: ") and "against random" in out


def test_the_openspiel_random_loop_runs() -> None:
    need("pyspiel")
    out = _run("random_openspiel.py", "--rules", "trade-and-barter", "--players", "3",
               "--games", "2")
    assert out.count("per game") == 3 and "seat 2:" in out


def test_the_policy_gradient_example_runs_one_iteration() -> None:
    need("gymnasium")
    out = _run("train_reinforce.py", "--iterations", "1", "--episodes", "4", "--evaluate", "4")
    assert "iteration 1: mean reward" in out
    assert "learned policy:" in out and "random agent:" in out
