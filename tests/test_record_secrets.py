"""Saved games keep the secrets of a game in progress.

The record keeps the seed and the actions in its ``hidden`` section, sealed with a key kept
outside the file while the game is unfinished (version 1 and 2 files still load); ``commerce
replay`` of an unfinished game shows only what its player saw (the oracle: every card it
prints was printed to that player during the game), every hand once the game is over or with
``--reveal``; a damaged unfinished record is refused without naming a card.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from commerce.bots import make_bot
from commerce.cards import format_cards
from commerce.cli import main
from commerce.driver import Driver
from commerce.record import FORMAT_VERSION, SEALED_VERSION, GameRecord, replay
from commerce.rules import find_ruleset

V1_UNFINISHED = Path(__file__).parent / "records" / "peel-v1-unfinished.json"
"""A record of an unfinished game written by the version 1 layout (seed and actions at the
top level): the player in seat 0 quit during the third deal."""

_SUITS = str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C"})
_CARD = {
    "peel": re.compile(r"\b(?:10|[2-9TJQKA])[SHDC]\b"),
    "widow": re.compile(r"\b(?:10|[2-9TJQKA])[SHDC]\b"),
    "cox": re.compile(r"\b(?:[ASP][1-5C]|BK|[FGIM][1-4])\b"),
}
# Moves of seat 0 before it quits: peel trades a card; the widow game passes; Cox draws.
_MOVES = {"peel": "2\n1\n2\n", "widow": "1\n1\n", "cox": "1\n1\n1\n1\n"}


def run(capsys, monkeypatch, *argv: str, stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def cards_in(text: str, rules: str) -> set[str]:
    """Every card named in *text* (suit symbols read as letters)."""
    return set(_CARD[rules].findall(text.translate(_SUITS)))


def test_the_record_keeps_the_seed_and_the_actions_in_its_hidden_section(capsys, monkeypatch,
                                                                         tmp_path):
    path = tmp_path / "g.json"
    run(capsys, monkeypatch, "play", "--players", "4", "--seed", "5", "--save", str(path),
        stdin="q\n")
    text = path.read_text()
    data = json.loads(text)
    # an unfinished game: the hidden section sealed with the record key (commerce.seal)
    assert data["format_version"] == SEALED_VERSION == 3
    assert list(data["hidden"]) == ["sealed"]
    record = GameRecord.load(path)
    assert record.seed == 5 and record.actions
    assert not cards_in(text, "peel") and "seed" not in text and "actions" not in text
    plain = record.to_dict()
    assert plain["format_version"] == FORMAT_VERSION == 2
    assert plain["hidden"] == {"seed": 5, "actions": list(record.actions)}
    public = {key: value for key, value in plain.items() if key != "hidden"}
    assert "seed" not in public and "actions" not in public
    assert not cards_in(json.dumps(public), "peel")
    assert GameRecord.from_json(record.to_json()) == record


def test_an_unfinished_games_hidden_section_is_sealed_with_a_key_kept_elsewhere(tmp_path,
                                                                             monkeypatch):
    import os
    import stat

    from commerce.errors import RecordError
    from commerce.seal import KEY_ENV

    key = tmp_path / "config" / "record.key"
    monkeypatch.setenv(KEY_ENV, str(key))
    driver = Driver(find_ruleset("peel"), [None, make_bot("random"), make_bot("random")],
                    seed=11)
    driver.run()
    path = driver.record().save(tmp_path / "g.json")
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and key.stat().st_size == 32
    assert stat.S_IMODE(key.parent.stat().st_mode) == 0o700
    text = path.read_text()
    assert driver.actions[0] not in text and not cards_in(text, "peel")
    assert GameRecord.load(path) == driver.record()
    # another account (another key) cannot resume it; an altered seal is refused
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "elsewhere.key"))
    with pytest.raises(RecordError, match="sealed with a record key this account does not"):
        GameRecord.load(path)
    (tmp_path / "elsewhere.key").write_bytes(os.urandom(32))
    with pytest.raises(RecordError, match="sealed with another record key, or altered"):
        GameRecord.load(path)
    monkeypatch.setenv(KEY_ENV, str(key))
    data = json.loads(text)
    sealed = data["hidden"]["sealed"]
    middle = len(sealed) // 2
    data["hidden"]["sealed"] = (sealed[:middle] + ("B" if sealed[middle] == "A" else "A")
                                + sealed[middle + 1:])
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match="sealed with another record key, or altered"):
        GameRecord.load(path)


def test_a_finished_game_and_version_2_files_stay_plain(tmp_path):
    driver = Driver(find_ruleset("peel"), [make_bot("random")] * 3, seed=4)
    driver.run()
    path = driver.record().save(tmp_path / "done.json")
    data = json.loads(path.read_text())
    assert data["format_version"] == 2 and data["hidden"]["actions"] == driver.actions
    unfinished = Driver(find_ruleset("peel"), [None, make_bot("random"), make_bot("random")],
                        seed=4)
    unfinished.run()
    plain = tmp_path / "v2.json"
    plain.write_text(unfinished.record().to_json())
    assert GameRecord.load(plain) == unfinished.record()


def test_version_1_records_still_load_replay_and_resume(capsys, monkeypatch, tmp_path):
    data = json.loads(V1_UNFINISHED.read_text())
    assert data["format_version"] == 1 and "actions" in data and "hidden" not in data
    record = GameRecord.load(V1_UNFINISHED)
    assert record.seed == data["seed"] and list(record.actions) == data["actions"]
    assert not record.complete
    state = replay(record)
    code, out, _ = run(capsys, monkeypatch, "replay", str(V1_UNFINISHED), "--all")
    assert code == 0
    for seat in (1, 2, 3):  # the other players' hands of the deal in progress
        assert format_cards(state.hands[seat]) not in out
    assert not any(text in out for text in record.actions if text.startswith("deal"))
    path = tmp_path / "old.json"
    shutil.copy(V1_UNFINISHED, path)
    code, _, _ = run(capsys, monkeypatch, "play", "--resume", str(path), stdin="q\n")
    assert code == 0
    again = json.loads(path.read_text())
    assert again["format_version"] == SEALED_VERSION and list(again["hidden"]) == ["sealed"]
    resumed = GameRecord.load(path)
    assert resumed.seed == data["seed"]
    assert list(resumed.actions[:len(data["actions"])]) == data["actions"]


def _unfinished(capsys, monkeypatch, tmp_path, rules: str) -> tuple[Path, str]:
    """A game of *rules* that seat 0 played a few moves of and quit, and all it was shown."""
    path = tmp_path / f"{rules}.json"
    players = "3" if rules == "cox" else "4"
    code, out, _ = run(capsys, monkeypatch, "play", "--rules", rules, "--players", players,
                       "--seed", "3", "--save", str(path), stdin=_MOVES[rules] + "q\n")
    assert code == 0 and not GameRecord.load(path).complete
    return path, out


@pytest.mark.parametrize("rules", ["peel", "widow", "cox"])
def test_replay_of_an_unfinished_game_shows_only_what_its_player_saw(capsys, monkeypatch,
                                                                     tmp_path, rules):
    path, seen = _unfinished(capsys, monkeypatch, tmp_path, rules)
    code, out, _ = run(capsys, monkeypatch, "replay", str(path), "--all")
    assert code == 0 and "unfinished" in out
    assert cards_in(out, rules) <= cards_in(seen, rules)
    assert cards_in(out, rules)  # it does show the player's own cards
    # --reveal shows what the player did not see: the comparison can tell the two apart
    code, out, _ = run(capsys, monkeypatch, "replay", str(path), "--all", "--reveal")
    assert code == 0 and not cards_in(out, rules) <= cards_in(seen, rules)
    assert GameRecord.load(path).actions[0] in letters(out)


def test_reveal_says_what_it_does(capsys):
    assert main(["replay", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--reveal" in text
    assert "show every hand of an unfinished game: spoils it for the player who saved it" in text


def test_a_finished_game_replays_with_every_hand_and_its_seed(capsys, monkeypatch, tmp_path):
    path = tmp_path / "done.json"
    driver = Driver(find_ruleset("peel"), [make_bot("random")] * 3, seed=77,
                    names=["A", "B", "C"])
    driver.run()
    driver.record().save(path)
    code, out, _ = run(capsys, monkeypatch, "replay", str(path), "--all")
    assert code == 0 and "seed 77" in out and "Final result" in out
    assert all(text in letters(out) for text in driver.actions)


def letters(text: str) -> str:
    """*text* with the replay's suit symbols written as the notation's letters."""
    return text.translate(str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C"}))


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
        assert not set(cards) & cards_in(out + err, "peel")
