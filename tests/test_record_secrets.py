"""Saved games keep the secrets of a game in progress.

The record keeps the seed and the actions in its ``hidden`` section (version 1 files still
load); a damaged unfinished record is refused without naming a card.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import sys
from pathlib import Path

from commerce.cli import main
from commerce.record import FORMAT_VERSION, GameRecord, replay

V1_UNFINISHED = Path(__file__).parent / "records" / "peel-v1-unfinished.json"
"""A record of an unfinished game written by the version 1 layout (seed and actions at the
top level): the player in seat 0 quit during the third deal."""

_SUITS = str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C"})
_CARD = re.compile(r"\b(?:10|[2-9TJQKA])[SHDC]\b")


def run(capsys, monkeypatch, *argv: str, stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def cards_in(text: str) -> set[str]:
    """Every card named in *text* (suit symbols read as letters)."""
    return set(_CARD.findall(text.translate(_SUITS)))


def test_the_record_keeps_the_seed_and_the_actions_in_its_hidden_section(capsys, monkeypatch,
                                                                         tmp_path):
    path = tmp_path / "g.json"
    run(capsys, monkeypatch, "play", "--players", "4", "--seed", "5", "--save", str(path),
        stdin="q\n")
    data = json.loads(path.read_text())
    assert data["format_version"] == FORMAT_VERSION == 2
    assert data["hidden"]["seed"] == 5
    record = GameRecord.load(path)
    assert data["hidden"]["actions"] == list(record.actions) and record.actions
    public = {key: value for key, value in data.items() if key != "hidden"}
    assert "seed" not in public and "actions" not in public
    assert not cards_in(json.dumps(public))
    assert GameRecord.from_json(record.to_json()) == record


def test_version_1_records_still_load_replay_and_resume(capsys, monkeypatch, tmp_path):
    data = json.loads(V1_UNFINISHED.read_text())
    assert data["format_version"] == 1 and "actions" in data and "hidden" not in data
    record = GameRecord.load(V1_UNFINISHED)
    assert record.seed == data["seed"] and list(record.actions) == data["actions"]
    assert not record.complete
    assert replay(record).deal_number == 3
    path = tmp_path / "old.json"
    shutil.copy(V1_UNFINISHED, path)
    code, _, _ = run(capsys, monkeypatch, "play", "--resume", str(path), stdin="q\n")
    assert code == 0
    again = json.loads(path.read_text())
    assert again["format_version"] == 2 and again["hidden"]["seed"] == data["seed"]
    assert again["hidden"]["actions"][:len(data["actions"])] == data["actions"]


def test_a_damaged_unfinished_record_names_no_hidden_card(capsys, monkeypatch, tmp_path):
    data = json.loads(V1_UNFINISHED.read_text())
    last = data["actions"][-1]  # the deal of the third deal: other players' cards
    assert last.startswith("deal ")
    cards = last.split()[1:]
    data["actions"][-1] = " ".join(["deal", cards[0], *cards])  # a card dealt twice
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(data))
    for command in ("replay", "play"):
        argv = [command, str(path)] if command == "replay" else [command, "--resume", str(path)]
        code, out, err = run(capsys, monkeypatch, *argv)
        assert code == 2 and "does not replay" in err and len(err.splitlines()) == 1
        assert not set(cards) & cards_in(out + err)
