"""Loading a record is bounded and validated: a hostile or damaged file gets one clear error.

Each limit (file size, JSON depth, action count) and each field's type and range is checked
before anything is used; a record that passes still has to replay through the checked engine.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from commerce.bots import make_bot
from commerce.cli import main
from commerce.driver import Driver, play_game
from commerce.errors import RecordError
from commerce.record import (
    MAX_ACTION_CHARS,
    MAX_ACTIONS,
    MAX_JSON_DEPTH,
    MAX_RECORD_BYTES,
    GameRecord,
    replay,
)
from commerce.rules import find_ruleset


def _flat(data: dict[str, Any]) -> dict[str, Any]:
    """A record in layout 1 (the seed and the actions at the top level, still read), so that
    every field is one key of one object here; layout 2 keeps those two in ``hidden`` and is
    validated by the same code."""
    data = dict(data)
    data.update(data.pop("hidden", {}))
    data["format_version"] = 1
    return data


def _record(rid: str = "peel", players: int = 4, seed: int = 3) -> dict[str, Any]:
    rec = play_game(find_ruleset(rid), [make_bot("random")] * players, seed=seed)
    return _flat(json.loads(rec.to_json()))


@pytest.fixture(scope="module")
def peel() -> dict[str, Any]:
    return _record()


def _write(tmp_path: Path, data: Any, name: str = "r.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    _, err = capsys.readouterr()
    return code, err


def _one_line_error(capsys: pytest.CaptureFixture[str], path: Path | str, needle: str) -> None:
    """``commerce replay`` and ``commerce play --resume`` both refuse *path* in one line."""
    for argv in (("replay", "--all", str(path)), ("play", "--resume", str(path))):
        code, err = _cli(capsys, *argv)
        assert code == 2, (argv, err)
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
        assert err.startswith(f"commerce {argv[0]}: error: ")
        assert needle in err, err


# -- the audit's findings -----------------------------------------------------------------


def test_deeply_nested_json_is_refused_without_recursion(capsys, tmp_path, peel):
    text = json.dumps(peel).replace('"extra": {}', '"extra": ' + "[" * 100_000 + "]" * 100_000)
    path = _write(tmp_path, text)
    with pytest.raises(RecordError, match="nested 100,001 deep"):
        GameRecord.load(path)
    _one_line_error(capsys, path, "nested")


def test_nesting_just_inside_the_limit_loads(peel):
    extra: Any = 1
    for _ in range(MAX_JSON_DEPTH - 2):  # the record's object and "extra" itself are two
        extra = [extra]
    data = dict(peel, extra={"x": extra})
    assert GameRecord.from_json(json.dumps(data)).extra == {"x": extra}
    data = dict(peel, extra={"x": [extra]})
    with pytest.raises(RecordError, match="nested"):
        GameRecord.from_json(json.dumps(data))


def test_a_seats_list_shorter_than_the_table_is_refused(capsys, tmp_path, peel):
    path = _write(tmp_path, dict(peel, seats=peel["seats"][:2]))
    with pytest.raises(RecordError, match="'seats' must be a list of 4 seats"):
        GameRecord.load(path)
    _one_line_error(capsys, path, "'seats'")


@pytest.mark.parametrize("rid", ["peel", "widow"])  # Cox deals faces: copies repeat
def test_a_deal_naming_a_card_twice_is_refused(rid):
    data = _record(rid, 3)
    # the first deal of named cards (Cox's game first deals its directors, which repeat)
    i = next(k for k, a in enumerate(data["actions"])
             if a.startswith("deal ") and len(set(a.split()[1:])) == len(a.split()) - 1 > 2)
    words = data["actions"][i].split()
    twice = [words[0], *words[1:-1], words[1]]  # the last card replaced by the first
    data["actions"][i] = " ".join(twice)
    with pytest.raises(RecordError, match=f"action {i + 1} .* does not replay"):
        replay(GameRecord.from_dict(data))


@pytest.mark.parametrize("rid", ["peel", "widow"])
def test_a_later_deal_of_a_card_already_dealt_is_refused(rid):
    rules = find_ruleset(rid)
    driver = Driver(rules, [make_bot("random")] * 3, seed=5)
    driver.run()
    actions = list(driver.record().actions)
    # The first single-card deal (a trade or a widow card) names a card held since the deal
    # it is part of (the last deal of many cards before it).
    i = next(k for k, a in enumerate(actions) if a.startswith("deal ") and len(a.split()) == 2)
    dealt = max(k for k in range(i) if actions[k].startswith("deal ")
                and len(actions[k].split()) > 2)
    actions[i] = "deal " + actions[dealt].split()[1]
    record = GameRecord.from_dict(dict(_flat(json.loads(driver.record().to_json())),
                                       actions=actions, complete=False, payoffs=None))
    # an unfinished game's error names no card (the actions are its hidden part)
    with pytest.raises(RecordError, match=f"action {i + 1} does not replay"):
        replay(record)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_device_is_refused_without_reading_it(capsys):
    with pytest.raises(RecordError, match="not a regular file"):
        GameRecord.load("/dev/zero")
    _one_line_error(capsys, "/dev/zero", "not a regular file")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_pipe_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(RecordError, match="not a regular file"):
        GameRecord.load(fifo)


def test_a_directory_is_refused(capsys, tmp_path):
    with pytest.raises(RecordError, match="is a directory"):
        GameRecord.load(tmp_path)
    _one_line_error(capsys, tmp_path, "is a directory")


def test_a_file_larger_than_the_limit_is_refused_unread(capsys, tmp_path):
    path = tmp_path / "big.json"
    with open(path, "wb") as f:
        f.truncate(MAX_RECORD_BYTES + 1)  # sparse: costs no disk
    with pytest.raises(RecordError, match="too large for a record"):
        GameRecord.load(path)
    _one_line_error(capsys, path, "too large")
    with pytest.raises(RecordError, match="at most"):
        GameRecord.from_json(" " * (MAX_RECORD_BYTES + 1))


def test_more_actions_than_the_limit_are_refused_before_replay(capsys, tmp_path, peel):
    data = dict(peel, actions=["stand"] * (MAX_ACTIONS + 1), complete=False, payoffs=None)
    path = _write(tmp_path, data)
    with pytest.raises(RecordError, match="100,001 actions"):
        GameRecord.load(path)
    _one_line_error(capsys, path, f"at most {MAX_ACTIONS:,}")


# -- every field, type and range ----------------------------------------------------------


def _without(data: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != key}


BAD_FIELDS: list[tuple[str, Any, str]] = [
    ("format_version", True, "format version"),
    ("format_version", 1.0, "format version"),
    ("rules", "peel", "'rules' must be an object"),
    ("rules", {"id": 7, "version": 1}, "'rules.id' must be a string"),
    ("rules", {"id": "peel", "version": "1"}, "'rules.version' must be an integer"),
    ("rules", {"id": "peel", "version": 1, "options": []}, "'rules.options' must be an object"),
    ("rules", {"id": "peel", "version": 1, "options": {"deals_each": [2]}}, "deals_each"),
    ("rules", {"id": "peel", "version": 1, "options": {"deals_each": 2.5}}, "deals_each"),
    ("rules", {"id": "peel", "version": 1, "options": {"colour": "red"}}, "unknown option"),
    ("players", "4", "'players' must be an integer"),
    ("players", True, "'players' must be an integer"),
    ("players", 10**20, "players, not 100000000000000000000"),
    ("players", 1, "players, not 1"),
    ("dealer", 4, "'dealer' must be a seat from 0 to 3"),
    ("dealer", -1, "'dealer' must be a seat from 0 to 3"),
    ("dealer", None, "'dealer' must be an integer"),
    ("seed", 2**70, "'seed' must be an integer"),
    ("seed", "7", "'seed' must be an integer"),
    ("seats", {"name": "x"}, "'seats' must be a list"),
    ("seats", [{"name": "a"}] * 5, "'seats' must be a list of 4"),
    ("seats", ["a", "b", "c", "d"], "seat 0 must be an object"),
    ("seats", [{"name": 5}] * 4, "the name of seat 0 must be a string"),
    ("seats", [{"name": "x" * 201}] * 4, "longer than 200"),
    ("seats", [{"name": "\x1b[2J"}] * 4, "control character"),
    ("seats", [{"name": "a\nb"}] * 4, "control character"),
    ("seats", [{"name": "a", "agent": ["random"]}] * 4, "the agent of seat 0 must be a string"),
    ("actions", "stand", "'actions' must be a list"),
    ("actions", [1, 2], "action 1 must be a string"),
    ("actions", ["stand " * 100], f"longer than {MAX_ACTION_CHARS}"),
    ("complete", "yes", "'complete' must be true or false"),
    ("payoffs", [1, 2], "'payoffs' must be a list of 4 integers"),
    ("payoffs", [1.0, 2.0, -1.0, -2.0], "'payoffs' must be a list of 4 integers"),
    ("extra", [1], "'extra' must be an object"),
]


@pytest.mark.parametrize(("key", "value", "needle"), BAD_FIELDS)
def test_a_field_of_the_wrong_type_or_range_is_refused(peel, key, value, needle):
    data = dict(peel, **{key: value})
    with pytest.raises(RecordError) as info:
        GameRecord.from_dict(data)
    assert needle in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("key", ["rules", "players", "dealer", "seats", "actions"])
def test_a_missing_field_is_refused(peel, key):
    with pytest.raises(RecordError, match=repr(key)):
        GameRecord.from_dict(_without(peel, key))


def test_payoffs_of_an_unfinished_game_are_refused(peel):
    with pytest.raises(RecordError, match="not complete"):
        GameRecord.from_dict(dict(peel, complete=False))


@pytest.mark.parametrize(("text", "needle"), [
    ('{"players": NaN}', "NaN is not a number"),
    ('{"players": Infinity}', "Infinity is not a number"),
    ('{"players": 1e999}', "too large"),
    ('{"players": ' + "9" * 5000 + "}", "5,000 digits"),
    ('{"format": "commerce-record", "x": "\\ud800"}', "surrogate"),
    ("\ufeff{}", "not valid JSON"),
], ids=["nan", "infinity", "1e999", "5000-digits", "surrogate", "bom"])
def test_numbers_and_text_no_record_holds_are_refused(text, needle):
    with pytest.raises(RecordError, match=needle):
        GameRecord.from_json(text)


def test_bytes_that_are_not_utf8_are_refused(tmp_path):
    path = tmp_path / "r.json"
    path.write_bytes(b'{"format": "commerce-record\xff"}')
    with pytest.raises(RecordError, match="not UTF-8 text at byte 27"):
        GameRecord.load(path)


def test_an_unprintable_path_is_shown_escaped_on_one_line(capsys, tmp_path):
    path = tmp_path / "a\nb.json"
    _one_line_error(capsys, path, "no such file")
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load("bad\x00name")


def test_a_valid_record_still_loads_and_round_trips(tmp_path):
    for rid, players in (("peel", 4), ("pounce", 3), ("cox", 3)):
        rec = play_game(find_ruleset(rid), [make_bot("random")] * players, seed=1)
        path = rec.save(tmp_path / f"{rid}.json")
        loaded = GameRecord.load(path)
        assert loaded == rec and loaded.complete
        assert GameRecord.from_json(loaded.to_json()) == loaded


def test_a_record_without_seats_loads(peel):
    rec = GameRecord.from_dict(dict(peel, seats=[]))
    assert rec.seats == () and replay(rec) is not None


def test_the_real_command_prints_no_traceback_for_a_deep_file(tmp_path, peel):
    import subprocess

    text = json.dumps(peel).replace('"extra": {}', '"extra": ' + "[" * 50_000 + "]" * 50_000)
    path = _write(tmp_path, text)
    proc = subprocess.run([sys.executable, "-m", "commerce", "replay", "--all", str(path)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert proc.stderr.startswith("commerce replay: error:") and "Traceback" not in proc.stderr
