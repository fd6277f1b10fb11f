"""The command line: JSON contracts, errors, and a scripted game in the terminal."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from commerce.cards import format_cards
from commerce.cli import main
from commerce.record import GameRecord, replay


def run(capsys, *argv: str, stdin: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_hand_json_contract(capsys):
    code, out, _ = run(capsys, "hand", "AS", "2S", "3S", "--rules", "peel", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["category"] == "sequence" and data["points"] == 16
    assert isinstance(data["rank"], int)


def test_hand_rank_orders_and_ties_like_the_rules(capsys):
    ranks = {}
    codes = []
    for hand in ("AS KS QS", "AH KH QH", "2H 2D 2C", "9C 9D 4S", "9H 9S 4D", "2S 3S AS"):
        code, out, _ = run(capsys, "hand", *hand.split(), "--json")
        codes.append(code)
        ranks[hand] = json.loads(out)["rank"]
    assert codes == [0] * 6
    assert ranks["AS KS QS"] == ranks["AH KH QH"]  # suits never rank
    assert ranks["9C 9D 4S"] == ranks["9H 9S 4D"]
    assert ranks["2H 2D 2C"] > ranks["AS KS QS"] > ranks["2S 3S AS"] > ranks["9C 9D 4S"]


def test_hand_reads_standard_input_one_object_per_line(capsys, monkeypatch):
    code, out, _ = run(capsys, "hand", "--rules", "peel", "--json", "-",
                       stdin="AS 2S 3S\n10h 10d 2c\nKD QD JD\n", monkeypatch=monkeypatch)
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 0
    assert [d["category"] for d in lines] == ["sequence", "pair", "sequence"]


def test_compare_json_contract(capsys):
    code, out, _ = run(capsys, "compare", "AS KS QS", "2H 2D 2C", "--rules", "peel", "--json")
    data = json.loads(out)
    assert code == 0 and data["winner"] == "b"
    assert data["a"]["category"] == "sequence" and data["b"]["category"] == "tricon"
    assert "tricon" in data["reason"]


def test_compare_flush_options_change_the_winner(capsys):
    _, out, _ = run(capsys, "compare", "A♠ 5♠ 2♠", "KH QH 9H", "--json")
    assert json.loads(out)["winner"] == "b"
    _, out, _ = run(capsys, "compare", "A♠ 5♠ 2♠", "KH QH 9H", "--json",
                    "--set", "flush_compare=high_card")
    assert json.loads(out)["winner"] == "a"


@pytest.mark.parametrize("argv,needle", [
    (["hand", "AS", "2S", "3X"], "'3X'"),
    (["hand", "AS", "2S"], "three cards"),
    (["hand", "AS", "AS", "2S"], "same card"),
    (["hand", "AS", "2S", "3S", "--rules", "nope"], "unknown ruleset"),
    (["hand", "AS", "2S", "3S", "--set", "colour=red"], "unknown option"),
    (["hand", "AS", "2S", "3S", "--set", "flush_compare=best"], "points, high_card"),
    (["compare", "AS KS QS", "AS 2H 2D"], "share a card"),
    (["simulate", "--players", "13"], "players"),
    (["simulate", "--bots", "genius"], "unknown bot"),
    (["play", "--resume", "/nonexistent/game.json"], "no such file"),
    (["replay", "/nonexistent/game.json"], "no such file"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert needle in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_no_traceback_from_the_real_command():
    proc = subprocess.run([sys.executable, "-m", "commerce", "hand", "ZZ", "2S", "3S"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert proc.stderr.startswith("commerce hand: error:") and "Traceback" not in proc.stderr


def test_simulate_json_is_deterministic_and_zero_sum(capsys):
    argv = ["simulate", "--rules", "peel", "--players", "4", "--games", "20", "--seed", "3",
            "--bots", "random,heuristic", "--json"]
    _, first, _ = run(capsys, *argv)
    _, second, _ = run(capsys, *argv)
    assert first == second
    data = json.loads(first)
    assert data["games"] == 20 and data["players"] == 4 and data["seed"] == 3
    assert data["bots"] == ["random", "heuristic"] and data["decisions"] > 0
    assert [s["bot"] for s in data["seats"]] == ["random", "heuristic"] * 2
    assert sum(s["net"] for s in data["seats"]) == 0
    assert sum(s["wins"] for s in data["seats"]) == 20 * 4  # one winner a deal, 4 deals a game


def test_rules_list_json(capsys):
    _, out, _ = run(capsys, "rules", "--json")
    ids = [r["id"] for r in json.loads(out)["rulesets"]]
    assert "peel" in ids


def test_scripted_game_quit_resume_and_replay(capsys, monkeypatch, tmp_path):
    path = tmp_path / "g.json"
    # Trade a bad card name first (re-prompt), then quit at the next prompt.
    code, out, _ = run(capsys, "play", "--seed", "4", "--players", "3", "--save", str(path),
                       stdin="trade ZZ\nq\n", monkeypatch=monkeypatch)
    assert code == 0
    assert "Not possible" in out or "not a card" in out
    record = GameRecord.load(path)
    saved = len(record.actions)
    # Resume with stand at every prompt until the game ends.
    code, out, _ = run(capsys, "play", "--resume", str(path), stdin="1\n" * 200,
                       monkeypatch=monkeypatch)
    assert code == 0 and "Final result" in out
    done = GameRecord.load(path)
    assert done.complete and len(done.actions) > saved and sum(done.payoffs) == 0
    assert done.actions[:saved] == record.actions
    code, out, _ = run(capsys, "replay", str(path), "--all")
    assert code == 0 and "Showdown" in out and "Final result" in out
    code, _, err = run(capsys, "play", "--resume", str(path))
    assert code == 2 and "over" in err


def test_play_never_shows_other_players_cards_before_the_showdown(capsys, monkeypatch, tmp_path):
    path = tmp_path / "g.json"
    run(capsys, "play", "--seed", "9", "--players", "4", "--save", str(path),
        stdin="q\n", monkeypatch=monkeypatch)
    record = GameRecord.load(path)
    code, out, _ = run(capsys, "play", "--resume", str(path), stdin="q\n",
                       monkeypatch=monkeypatch)
    state = replay(record)
    for seat in (1, 2, 3):
        hidden = format_cards(state.hands[seat])
        assert hidden not in out


@pytest.mark.parametrize("content,needle", [
    ("not json", "not valid JSON"),
    ('{"format": "chess"}', "not a Commerce game record"),
    ('{"format": "commerce-record", "format_version": 99}', "format version"),
])
def test_damaged_or_foreign_records_are_refused(capsys, tmp_path, content, needle):
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and needle in err


def test_record_with_an_illegal_action_is_refused_not_half_loaded(capsys, monkeypatch, tmp_path):
    path = tmp_path / "g.json"
    run(capsys, "play", "--seed", "2", "--players", "3", "--save", str(path),
        stdin="q\n", monkeypatch=monkeypatch)
    data = GameRecord.load(path).to_dict()  # the hidden section in plain (format version 2)
    data["hidden"]["actions"].append("trade AS")
    data["hidden"]["actions"].append("trade AS")
    path.write_text(json.dumps(data))
    code, _, err = run(capsys, "play", "--resume", str(path))
    assert code == 2 and "does not replay" in err
    assert json.loads(Path(path).read_text()) == data  # the file is left as it was


def test_saved_records_follow_the_umask(tmp_path):
    import os
    path = tmp_path / "r.json"
    from commerce.bots import make_bot
    from commerce.driver import play_game
    from commerce.rules import find_ruleset
    play_game(find_ruleset("peel"), [make_bot("random")] * 3, seed=1).save(path)
    mask = os.umask(0)
    os.umask(mask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask


def test_simulate_reports_what_the_ruleset_tracks(capsys):
    _, out, _ = run(capsys, "simulate", "--rules", "pool", "--games", "6", "--seed", "2",
                    "--json")
    seats = json.loads(out)["seats"]
    assert sum(s["net"] for s in seats) == 0
    assert all("tokens" in s and "went_out_games" in s for s in seats)
    # in Pool Commerce all but one go out in every game
    assert sum(s["went_out_games"] for s in seats) >= 6 * 3


def test_simulate_cox_counts_hands_won(capsys):
    _, out, _ = run(capsys, "simulate", "--rules", "cox", "--players", "3", "--games", "2",
                    "--seed", "1", "--json")
    seats = json.loads(out)["seats"]
    # four hands a game, at least one best scorer each
    assert sum(s["wins"] for s in seats) >= 2 * 4


def test_bench_times_each_named_preset_in_playouts(capsys):
    code, out, _ = run(capsys, "bench", "--seconds", "0.01", "--rules", "widow,Pounce", "--json")
    data = json.loads(out)
    assert code == 0
    assert list(data["playouts"]) == ["widow", "pounce"]
    assert all(rate > 0 for rate in data["playouts"].values())
    assert data["playout_decisions_per_s"] == data["playouts"]["widow"]


@pytest.mark.parametrize(("argv", "needle"), [
    (("--rules", "widdow"), "unknown ruleset 'widdow'"),
    (("--rules", "peel,"), "unknown ruleset ''"),
    (("--seconds", "0"), "--seconds: must be a number from 0.01 to 60"),
])
def test_bench_bad_input_exits_2_with_one_line(capsys, argv, needle):
    code, _, err = run(capsys, "bench", *argv)
    assert code == 2
    assert needle in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
