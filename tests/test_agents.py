"""Outside agents at our tables (``--agent``, :mod:`commerce.cli.agents`): a process speaking
JSON lines (``examples/json_agent.py``) and a bot declared in the entry-point group
``commerce.agents`` by an installed package; bad replies stop the game with one message."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from commerce.cli import main


@pytest.fixture(autouse=True)
def _bots_as_they_were() -> Iterator[None]:
    """The bots registered by ``--agent`` in this process are forgotten after each test."""
    import commerce.bots

    before = dict(commerce.bots._FACTORIES)
    yield
    commerce.bots._FACTORIES.clear()
    commerce.bots._FACTORIES.update(before)


ROOT = Path(__file__).resolve().parent.parent
AGENT = f"cmd:{sys.executable} {ROOT / 'examples' / 'json_agent.py'}"
MINI = ["--rules", "trade-and-barter-mini", "--players", "2"]


def test_a_process_agent_plays_a_tournament(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tournament", *MINI, "--bots", "random", "--agent", AGENT, "--games", "6",
                 "--seed", "3", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["bots"] == ["agent", "random"] and out["games"] == 6
    # the agent stands at once: every game of it is decided by the deal, never in error
    assert set(out["payoff"]) == {"random", "agent"}


def _agent_script(tmp_path: Path, body: str) -> str:
    script = tmp_path / "agent.py"
    script.write_text("import json, sys, time\nfor line in sys.stdin:\n" + body)
    return f"cmd:{sys.executable} {script}"


@pytest.mark.parametrize("body,said", [
    ("    print(json.dumps({'action': 'fly away'}), flush=True)\n",
     'replied "fly away", which is not one of the legal actions ('),
    ("    print('stand please', flush=True)\n", "which is not JSON"),
    ("    time.sleep(5)\n", "no reply within 0.5 s"),
    ("    break\n", "the process ended without replying"),
])
def test_a_bad_reply_stops_the_game_with_one_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, said: str) -> None:
    code = main(["tournament", *MINI, "--bots", "random", "--games", "2",
                 "--agent", _agent_script(tmp_path, body), "--agent-timeout", "0.5"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("commerce tournament: error: agent agent (") and said in err
    assert len(err.strip().splitlines()) == 1


def test_a_bad_agent_spec_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", *MINI, "--bots", "random", "--agent", "python x.py"]) == 2
    assert "write cmd:'COMMAND' or entry:NAME" in capsys.readouterr().err
    assert main(["tournament", *MINI, "--bots", "random", "--agent", "entry:nobody"]) == 2
    assert "no installed package declares it" in capsys.readouterr().err


def test_an_installed_package_declares_an_agent(tmp_path: Path) -> None:
    (tmp_path / "my_agent.py").write_text(
        "class First:\n"
        "    def __init__(self, options):\n"
        "        self.name = 'first'\n"
        "    def act(self, obs, legal, rng):\n"
        "        return legal[0]\n")
    info = tmp_path / "my_agent-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: my-agent\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[commerce.agents]\nfirst = my_agent:First\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    done = subprocess.run(
        [sys.executable, "-m", "commerce", "tournament", *MINI, "--bots", "random",
         "--agent", "entry:first", "--games", "4", "--json"],
        capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["bots"] == ["first", "random"]


def test_a_process_agent_takes_a_seat_at_play(tmp_path: Path) -> None:
    from commerce.record import GameRecord

    saved = tmp_path / "g.json"
    done = subprocess.run(
        [sys.executable, "-m", "commerce", "play", "--plain", *MINI, "--seed", "1",
         "--agent", AGENT, "--save", str(saved)],
        input="stand\n" * 4, capture_output=True, text=True, check=False,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 0, done.stderr
    record = GameRecord.load(saved)
    assert record.complete and [s.agent for s in record.seats] == ["human", "agent"]
