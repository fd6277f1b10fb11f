"""What an outside agent process (``--agent cmd:``) can reach of the game it plays: it runs in
a fresh empty folder, without the saved games, without the record key's location in its
environment, and the file of the unfinished game it plays keeps its hidden section sealed
(docs/research.md, "What an agent process can and cannot reach")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SPY = '''
import glob, json, os, sys
report, save = sys.argv[1], sys.argv[2]
for line in sys.stdin:
    message = json.loads(line)
    if not os.path.exists(report):
        found = {"cwd": os.getcwd(), "listing": sorted(os.listdir(".")),
                 "key_env": os.environ.get("COMMERCE_KEY_FILE"),
                 "games": [open(p).read() for p in glob.glob("games/*.json")],
                 "save": open(save).read()}
        with open(report, "w") as out:
            json.dump(found, out)
    print(json.dumps({"action": message["legal"][0]}), flush=True)
'''


def test_an_agent_process_finds_neither_the_saves_nor_the_cards(tmp_path: Path) -> None:
    from commerce.record import GameRecord

    spy = tmp_path / "spy.py"
    spy.write_text(SPY)
    report = tmp_path / "report.json"
    save = tmp_path / "games" / "g.json"
    save.parent.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "commerce", "play", "--plain", "--rules", "peel", "--players",
         "3", "--seed", "2", "--agent", f"cmd:{sys.executable} {spy} {report} {save}",
         "--save", str(save)],
        input="stand\nq\n", capture_output=True, text=True, check=False, cwd=tmp_path,
        timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 0, done.stderr
    found = json.loads(report.read_text())
    assert Path(found["cwd"]).resolve() != tmp_path.resolve()
    assert found["listing"] == [] and found["games"] == []
    assert found["key_env"] is None
    # the file it was told of by name (the game unfinished then) shows the table, not the
    # cards: the deal, the first action, is nowhere in it
    text = found["save"]
    assert json.loads(text)["complete"] is False
    record = GameRecord.load(save)
    assert record.actions[0].startswith("deal ")
    assert '"actions"' not in text and '"seed"' not in text and record.actions[0] not in text
    assert not Path(found["cwd"]).exists()  # its folder is gone with it


def test_an_agent_named_by_a_path_of_the_folder_it_was_started_from_still_runs(
        tmp_path: Path) -> None:
    agent = Path(__file__).resolve().parent.parent / "examples" / "json_agent.py"
    (tmp_path / "my_agent.py").write_text(agent.read_text())
    done = subprocess.run(
        [sys.executable, "-m", "commerce", "tournament", "--rules", "trade-and-barter-mini",
         "--players", "2", "--bots", "random", "--agent", f"cmd:{sys.executable} my_agent.py",
         "--games", "2", "--json"],
        capture_output=True, text=True, check=False, cwd=tmp_path, timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["bots"] == ["agent", "random"]
