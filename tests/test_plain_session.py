"""The plain interface's screen: one card notation, errors that list what may be typed now,
and a token game summarised once the player is out of it."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from commerce.cli import main

LETTER_CARD = re.compile(r"\b(?:[2-9TJQKA]|10)[SHDC]\b")
"""A card of the 52-card pack in letters (``TC``), as the events used to write it."""


def _session(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
             tmp_path: Path, argv: list[str], lines: list[str]) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(s + "\n" for s in lines)))
    code = main(["play", "--plain", "--save", str(tmp_path / "g.json"), *argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


@pytest.mark.parametrize("rules_id", ["peel", "widow", "vingt-un"])
def test_one_card_notation_on_the_screen(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         rules_id: str) -> None:
    """The events and the table wrote ``TC`` where the menus, the hand and the hints wrote
    ``T♣``: on an output that draws suits, every card is drawn with its symbol."""
    out = _session(monkeypatch, capsys, tmp_path, ["--rules", rules_id, "--seed", "1"],
                   ["1"] * 12 + ["q"])
    assert re.search(r"[♠♥♦♣]", out)
    assert not LETTER_CARD.search(out), LETTER_CARD.findall(out)[:5]
    for how in (["--all"], ["--all", "--reveal"]):  # and its replay, as its player saw it
        assert main(["replay", *how, str(tmp_path / "g.json")]) == 0
        shown = capsys.readouterr().out
        assert re.search(r"[♠♥♦♣]", shown)
        assert not LETTER_CARD.search(shown), LETTER_CARD.findall(shown)[:5]


def test_an_unknown_word_lists_the_moves_possible_now(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    """Peel, seed 1: the player is offered a barter first, and may stand or give a card
    back; the error named every move of the family (barter, deal, done, trade ...)."""
    out = _session(monkeypatch, capsys, tmp_path, ["--seed", "1"], ["foo", "q"])
    said = " ".join(out.split())
    assert ("Not possible: 'foo' is not a move now. Possible now: stand; give 4♥, 8♣ or "
            "J♣; or type a number from 1 to 4.") in said, said
    assert "actions are" not in said and "trade" not in said.split("Not possible")[1]


def test_the_widow_games_moves_are_listed_by_the_card_given(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    out = _session(monkeypatch, capsys, tmp_path, ["--rules", "widow", "--seed", "2"],
                   ["hello", "q"])
    said = " ".join(out.split())
    assert "Possible now: pass; knock; give 7♣ for 4♣, 8♦ or J♣; give K♥ for" in said, said


def test_a_token_game_is_summarised_once_the_player_is_out(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    """The widow game, seed 2, always the first entry: the player is out at the third deal
    and the others play on for 88 deals, which took some 1,550 lines."""
    out = _session(monkeypatch, capsys, tmp_path, ["--rules", "widow", "--seed", "2"],
                   ["1"] * 300)
    lines = out.splitlines()
    assert len(lines) < 200, len(lines)
    assert "You are out of the game. The others play on" in out
    assert "You went out in deal 3; the others played 88 more deals." in out
    assert "Carol went out in deal 12." in out and "Bob went out in deal 91." in out
    assert "Final result:" in out and "Record saved to" in out
