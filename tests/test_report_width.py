"""Tables of the analyses and tournaments fit 80 columns: a wide one is printed as several,
each with the rows' keys, and no cell is cut short."""

from __future__ import annotations

from typing import Any

from commerce.cli.report import print_table


def test_a_wide_table_is_split_to_fit_80_columns_with_nothing_cut(capsys: Any) -> None:
    header = ["ruleset", "players", *(f"won by category {i}" for i in range(10))]
    rows = [[f"ruleset-{r}", 4, *(f"{0.1 * i:.2f}" for i in range(10))] for r in range(5)]
    print_table("Every preset", header, rows, left=2, width=80)
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    assert "…" not in out
    for name in header:
        assert name in out, name
    assert out.count("ruleset-3") > 1  # the keys open every part
    assert "(1 of " in out


def test_a_narrow_table_stays_whole(capsys: Any) -> None:
    print_table("Small", ["bot", "payoff"], [["random", "-1.00"], ["heuristic", "+1.00"]],
                width=80)
    out = capsys.readouterr().out
    assert out.count("heuristic") == 1 and "of " not in out
