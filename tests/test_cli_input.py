"""No input breaks ``commerce play``: odd numbers and characters at the prompt, odd names,
terminals that cannot draw the suits, out-of-range options; and analyses of a single game."""

from __future__ import annotations

import json

import pytest

from commerce.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("rules", ["peel", "cox"])
def test_dealer_advantage_of_a_single_game_says_it_has_no_interval(capsys, rules):
    code, out, err = run(capsys, "analyze", "dealer-advantage", "--rules", rules,
                         "--players", "3", "--games", "1")
    assert code == 0 and err == ""
    assert "no 95% interval from a single game" in out.splitlines()[-1]
    code, out, _ = run(capsys, "analyze", "dealer-advantage", "--rules", rules,
                       "--players", "3", "--games", "1", "--json")
    assert json.loads(out)["advantage"]["ci95"] == [None, None]
