"""The analyses' and listings' words agree with their own figures, in the ruleset's unit,
within 80 columns; help and errors say what a user needs (names in any case, the file at
fault, "for 2 players")."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from commerce.apps.threshold import stand_threshold
from commerce.cli import main
from commerce.rules import find_ruleset


def _pooled(classes: list[dict[str, Any]]) -> tuple[float, float]:
    """The pooled gain of disjoint classes and the low end of its 95% interval."""
    n = sum(c["samples"] for c in classes)
    gain = sum(c["gain"] * c["samples"] for c in classes) / n
    var = sum((c["samples"] * (c["gain_ci95"][1] - c["gain_ci95"][0]) / 3.92) ** 2
              for c in classes) / n ** 2
    return gain, gain - 1.96 * var ** 0.5


def test_a_stand_threshold_is_stated_only_where_its_interval_supports_it() -> None:
    """Peel at 4 players, 2,000 games, seed 0: one noisy class (seat 3's pairs of Qs, 18
    samples) used to decide "pair of Ks or better", whose own gain's interval was
    [-0.60, +0.88]. A stated threshold now has its class's gain (pooled with the classes
    fitted with it) above 0 with 95% confidence."""
    result = stand_threshold(find_ruleset("peel"), players=4, games=2000, seed=0,
                             engine="auto")
    stated = 0
    for p in result["positions"]:
        if p["threshold"] is None:
            continue
        stated += 1
        names = [c["class"] for c in p["classes"]]
        first = names.index(p["threshold"])
        last = names.index(p.get("verdict", {}).get("through", p["threshold"]))
        pool = [c for c in p["classes"][first:last + 1] if c["samples"] >= 8]
        gain, lo = _pooled(pool)
        assert gain > 0 and lo > 0, (p["role"], p["threshold"], gain, lo)
    assert stated >= 3


def test_one_noisy_class_does_not_decide_the_threshold() -> None:
    from commerce.apps.threshold import threshold_verdict

    gains = [("point 24-26", [-1.0, -0.5] * 20), ("pair of Js", [1.0, 2.0] * 15),
             ("pair of Qs", [-0.5, -0.3] * 9), ("pair of Ks", [1.0, 3.0] * 10),
             ("flush", [2.0, 4.0] * 20)]
    verdict = threshold_verdict(gains)
    assert verdict["from"] == "pair of Js" and verdict["supported"]
    weak = threshold_verdict([("pair of Js", [-1.0, 1.5] * 10), ("flush", [-2.0, 3.0] * 10)])
    assert weak["from"] == "pair of Js" and not weak["supported"]


def test_an_unsupported_threshold_is_said_to_be_unsettled(capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    from commerce.apps.threshold import threshold_verdict
    from commerce.cli.analyze import threshold_lines

    verdict = threshold_verdict([("pair of Js", [-1.0, 1.5] * 10), ("flush", [-2.0, 3.0] * 10)])
    line, = threshold_lines({"min_samples": 8, "positions": [
        {"role": "seat 3", "threshold": None, "verdict": verdict,
         "classes": [{"samples": 20, "gain": 0.25}, {"samples": 20, "gain": 0.5}]}]})
    assert line.startswith("seat 3: no clear threshold: standing gains on average from "
                           "pair of Js up, but the 95% interval of pair of Js, [")
    assert line.endswith("], includes 0")


def test_variants_show_a_dash_for_a_category_the_ruleset_does_not_have(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    table = tmp_path / "v.csv"
    assert main(["analyze", "variants", "--games", "2", "--rules", "peel,hoyle", "--engine",
                 "reference", "--csv", str(table)]) == 0
    out = capsys.readouterr().out
    with table.open() as f:
        rows = {r["rules"]: r for r in csv.DictReader(f)}
    assert rows["hoyle"]["won by pair"] == "" and rows["hoyle"]["won by flush"] == ""
    assert rows["peel"]["won by none"] == ""  # Peel ranks every hand
    assert float(rows["hoyle"]["won by tricon"]) >= 0.0  # it has tricons: a share, 0 or more
    assert "—" in out


def test_a_token_tournaments_plot_says_tokens(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    import commerce.cli.report

    labels: list[str] = []
    real = commerce.cli.report.save_figure

    def keep(fig: Any, path: str) -> None:  # the figure's words, then the real save
        labels.extend(ax.get_xlabel() for ax in fig.axes)
        real(fig, path)

    monkeypatch.setattr(commerce.cli.report, "save_figure", keep)
    assert main(["tournament", "--rules", "widow", "--players", "3", "--games", "2",
                 "--bots", "random,heuristic", "--engine", "reference",
                 "--plot", str(tmp_path / "t.png")]) == 0
    capsys.readouterr()
    assert labels and all("(tokens)" in label for label in labels), labels
    assert (tmp_path / "t.png").stat().st_size > 0


@pytest.mark.parametrize("argv", [["rules"], ["rules", "list"], ["rules", "show", "widow"],
                                  ["rules", "show", "cox"], ["rules", "diff", "peel", "pool"]])
def test_rules_fit_80_columns(monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    assert main(argv) == 0
    out = capsys.readouterr().out
    if len(argv) < 3:
        assert "trade-and-barter-mini" in out and "widow-mini" in out
    assert max(len(line) for line in out.splitlines()) <= 80, out


def test_tournament_text_fits_80_columns(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--games", "2", "--bots", "random,heuristic", "--engine",
                 "reference"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 80, out


@pytest.mark.parametrize("command", [["simulate"], ["analyze", "dealer-advantage"],
                                     ["tournament"], ["play"], ["hand"], ["analyze",
                                                                          "variants"]])
def test_help_says_names_ignore_case_and_underscores(capsys: pytest.CaptureFixture[str],
                                                     command: list[str]) -> None:
    assert main([*command, "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "in any case, '_' or '-' alike" in out
    if command[0] in ("simulate", "tournament", "play") or command[-1] == "dealer-advantage":
        assert "names in any case" in out


def test_names_in_any_case_work(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--rules", "Trade_And_Barter", "--bots", "RANDOM,Heuristic",
                 "--games", "2", "--engine", "reference", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == "trade-and-barter"


@pytest.mark.parametrize("argv", [
    ["simulate", "--rules", "widow-mini", "--players", "3"],
    ["analyze", "dealer-advantage", "--rules", "trade-and-barter-mini", "--players", "4"],
    ["tournament", "--rules", "widow-mini", "--players", "3"],
])
def test_one_number_of_players_reads_for_2_players(capsys: pytest.CaptureFixture[str],
                                                   argv: list[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert " is for 2 players, not " in err and "2 to 2" not in err, err


def test_play_with_one_number_of_players(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    assert main(["play", "--plain", "--rules", "widow-mini", "--players", "3",
                 "--save", str(tmp_path / "g.json")]) == 2
    assert "is for 2 players, not 3" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["{bad", "{}", "[1, 2]"])
def test_a_bad_record_is_named_by_its_file(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path, text: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    for argv in (["replay", str(bad)], ["play", "--plain", "--resume", str(bad)]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"commerce {argv[0]}: error: {bad}: "), err
        assert len(err.strip().splitlines()) == 1
