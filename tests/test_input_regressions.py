"""Inputs the fuzzers found to end in a traceback, each now one clear error (or a result)."""

from __future__ import annotations

import pytest

from commerce import engine
from commerce.cli import main
from commerce.errors import NotationError
from commerce.rules import find_ruleset


@pytest.mark.parametrize("text", ["sell ,", "discard ,", "sell_out , ,", "deal ,", "deal , ,",
                                  "discard A1,A2", "sell A1,BK"])
def test_cox_notation_with_no_card_or_two_is_a_notation_error(text):
    with pytest.raises(NotationError):
        engine.parse_action(find_ruleset("cox"), text)


def test_cox_notation_with_one_card_still_parses():
    rules = find_ruleset("cox")
    assert engine.format_action(rules, engine.parse_action(rules, "discard a1,")) == "discard A1"
    assert engine.format_action(rules, engine.parse_action(rules, "deal A1, BK")) == "deal A1 BK"


def test_dealer_advantage_of_one_game_prints_an_interval_it_cannot_estimate(capsys):
    assert main(["analyze", "dealer-advantage", "--games", "1", "--bots", "random"]) == 0
    out = capsys.readouterr().out
    assert "Dealer's advantage:" in out and "no 95% interval from a single game" in out


def _one_line_error(capsys, argv: list[str], needle: str) -> None:
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith(f"commerce {argv[0]}: error: ") and needle in err, err


@pytest.mark.parametrize("flag", ["--csv", "--plot"])
def test_an_output_file_name_with_a_nul_is_refused(capsys, flag):
    _one_line_error(capsys, ["tournament", "--bots", "random,heuristic", "--games", "1",
                             flag, "a\x00b"], "not a file name")


@pytest.mark.parametrize(("argv", "needle"), [
    (["play", "--save", ""], "not a file name"),
    (["play", "--save", "a\x00b"], "not a file name"),
    (["play", "--resume", "a\x00b"], "not a file name"),
    (["replay", "a\x00b"], "not a file name"),
])
def test_a_record_file_name_that_is_no_name_is_refused(capsys, argv, needle):
    _one_line_error(capsys, argv, needle)


def test_play_refuses_a_save_path_it_cannot_write_before_the_game(capsys, tmp_path,
                                                                   monkeypatch):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 50))
    for target, needle in ((tmp_path, "is a directory"),  # a directory; a name too long
                           (tmp_path / ("x" * 300), "cannot save there")):
        _one_line_error(capsys, ["play", "--bot", "random", "--save", str(target)], needle)
    assert list(tmp_path.iterdir()) == []  # nothing half-written


@pytest.mark.parametrize("name", ["x" * 201, "a\x1b[2Jb", "a\nb"])
def test_a_name_the_record_could_not_keep_is_refused_before_the_game(capsys, tmp_path, name):
    _one_line_error(capsys, ["play", "--name", name, "--save", str(tmp_path / "g.json")],
                    "--name: use 1 to 40 printable characters")
    assert not (tmp_path / "g.json").exists()


def test_a_name_the_record_keeps_is_saved_and_resumed(capsys, tmp_path, monkeypatch):
    import io
    import sys

    from commerce.record import GameRecord

    path = tmp_path / "g.json"
    name = "Ann Marie 漢" + "x" * 29  # 40 characters, the most a name may have
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["play", "--name", name, "--bot", "random", "--save", str(path)]) == 0
    assert GameRecord.load(path).seats[0].name == name
    capsys.readouterr()
