"""The analyses as people read them: the stand-threshold table by bands at 80 columns with
the full grid in --csv, "too few samples" only where it is so, --wide, and plots in each
ruleset's unit with 95% intervals and their legends beside the data."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from commerce.apps import analysis
from commerce.apps.threshold import stand_threshold
from commerce.cli import main
from commerce.cli.analyze import advantage_figure, threshold_figure, variants_figure
from commerce.rules import find_ruleset


def _run(capsys: Any, *argv: str) -> str:
    assert main(["analyze", *argv]) == 0
    out: str = capsys.readouterr().out
    return out


def test_stand_threshold_prints_bands_at_80_columns_and_the_grid_in_csv(
        tmp_path: Path, capsys: Any) -> None:
    args = ("stand-threshold", "--games", "80", "--players", "3", "--seed", "2")
    data = json.loads(_run(capsys, *args, "--json"))
    grid = tmp_path / "grid.csv"
    out = _run(capsys, *args, "--csv", str(grid))
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80, out
    classes = sum(len(p["classes"]) for p in data["positions"])
    with grid.open(encoding="utf-8") as f:
        assert len(list(csv.reader(f))) == 1 + classes  # the full grid, hand by hand
    table_rows = [line for line in lines if line.startswith("│")]
    assert 0 < len(table_rows) < classes, "the screen shows bands, not the grid"
    assert "pair of" in out and " to " in out
    for p in data["positions"]:
        line = next(x for x in lines if x.startswith(p["role"] + ":"))
        enough = any(c["samples"] >= data["min_samples"] for c in p["classes"])
        assert ("too few samples" in line) == (not enough), (line, p)


def test_wide_prints_a_table_whole(capsys: Any) -> None:
    args = ("variants", "--games", "1", "--players", "3")
    narrow = _run(capsys, *args)
    wide = _run(capsys, *args, "--wide")
    assert "(1 of " in narrow and max(len(x) for x in narrow.splitlines()) <= 80
    assert "(1 of " not in wide and max(len(x) for x in wide.splitlines()) > 80


def _legends_beside_the_data(fig: Any) -> list[Any]:
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legends = []
    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is None:
            continue
        box, frame = legend.get_window_extent(renderer), ax.get_window_extent(renderer)
        assert box.x0 >= frame.x1, "the legend covers the data"
        legends.append(legend)
    return legends


def _labels(fig: Any) -> str:
    return " ".join(ax.get_xlabel() + " " + ax.get_ylabel() + " " + ax.get_title()
                    for ax in fig.axes)


@pytest.mark.parametrize("rules_id,unit", [("cox", "points"), ("widow", "tokens"),
                                           ("peel", "stakes")])
def test_dealer_advantage_is_plotted_in_the_rulesets_unit(rules_id: str, unit: str) -> None:
    rules = find_ruleset(rules_id)
    result = analysis.dealer_advantage(rules, players=3, games=2, seed=1)
    fig = advantage_figure(result)
    assert f"({unit}), with its 95% interval" in _labels(fig)
    bars = [c for c in fig.axes[0].containers if type(c).__name__ == "ErrorbarContainer"]
    assert len(bars) == 3  # a 95% interval for each place


def test_stand_threshold_is_plotted_with_bands_and_the_legend_outside() -> None:
    result = stand_threshold(find_ruleset("pool"), players=3, games=6, seed=1)
    fig = threshold_figure(result)
    assert "stand minus play on (counters)" in _labels(fig)
    assert len(_legends_beside_the_data(fig)) == 2
    shaded = [c for c in fig.axes[1].collections if type(c).__name__ in
              ("PolyCollection", "FillBetweenPolyCollection")]
    assert len(shaded) == 3  # a 95% band for each place


def test_variants_are_plotted_with_intervals_legible_labels_and_the_legend_outside() -> None:
    result = analysis.variants(players=3, games=2, seed=1,
                               rules_list=[find_ruleset("peel"), find_ruleset("cox")])
    fig = variants_figure(result)
    assert len(_legends_beside_the_data(fig)) == 1
    left = fig.axes[0]
    notes = [t for t in left.texts if "deals/game" in t.get_text()]
    assert len(notes) == 2 and all(t.get_color() not in ("white", "w") for t in notes)
    assert "95% interval" in left.get_xlabel() and "95% margin" in fig.axes[1].get_xlabel()
