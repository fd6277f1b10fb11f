"""Analyses: deal reading, dealer advantage, stand thresholds, variants, the CLI contract."""

from __future__ import annotations

import json

import pytest

from commerce.apps.analysis import dealer_advantage, variants
from commerce.apps.runner import play_and_read
from commerce.apps.threshold import hand_class, stand_threshold
from commerce.bots import make_bot
from commerce.cards import parse_cards
from commerce.cli import main
from commerce.errors import CommerceError
from commerce.rules import find_ruleset

PEEL = find_ruleset("peel")


def test_deals_read_from_events_add_up_to_the_outcome():
    bots = [make_bot("heuristic"), make_bot("random"), make_bot("heuristic")]
    for seed in range(5):
        game = play_and_read(PEEL, bots, seed)
        assert len(game.deals) == 3
        for deal in game.deals:
            assert abs(sum(deal.payoffs)) < 1e-9 and deal.winners
        totals = [sum(d.payoffs[s] for d in game.deals) for s in range(3)]
        from commerce.driver import play_game

        assert tuple(int(t) for t in totals) == play_game(PEEL, bots, seed=seed).payoffs
        assert game.decisions_at[game.deals[-1].end] == game.decisions


def test_dealer_advantage_rows_and_intervals():
    r = dealer_advantage(PEEL, players=4, games=30, seed=3)
    assert [s["role"] for s in r["seats"]] == ["dealer", "eldest", "seat 2", "seat 3"]
    assert r["deals"] == 120
    assert r["advantage"]["payoff"] == r["seats"][0]["payoff"]
    assert abs(sum(s["payoff"] for s in r["seats"])) < 1e-3  # zero-sum per deal
    for s in r["seats"]:
        lo, hi = s["ci95"]
        assert lo <= s["payoff"] <= hi


def test_stand_threshold_classes_and_family_check():
    r = stand_threshold(PEEL, players=3, games=20, seed=1, min_samples=1)
    assert [p["role"] for p in r["positions"]] == ["dealer", "eldest", "seat 2"]
    eldest = r["positions"][1]["classes"]
    assert eldest and all(0 <= c["win"] <= 1 for c in eldest)
    assert [c["order"] for c in eldest] == sorted(c["order"] for c in eldest)
    with pytest.raises(CommerceError, match="no meaning in Cox's game"):
        stand_threshold(find_ruleset("cox"), players=3, games=2, seed=0)


def test_hand_classes():
    assert hand_class(PEEL, parse_cards("AS AH AD"))[1] == "tricon"
    assert hand_class(PEEL, parse_cards("2S 3S 4S"))[1] == "sequence"
    assert hand_class(PEEL, parse_cards("2S 9S 4S"))[1] == "flush 15-17"
    assert hand_class(PEEL, parse_cards("2S 9S 4S"))[0] > hand_class(PEEL,
                                                                   parse_cards("AS AH 4D"))[0]


def test_variants_covers_every_preset():
    r = variants(players=4, games=5, seed=0)
    assert [row["rules"] for row in r["rulesets"]] + [s["rules"] for s in r["skipped"]]
    peel = next(row for row in r["rulesets"] if row["rules"] == "peel")
    assert peel["deals_per_game"]["mean"] == 4.0
    assert abs(sum(peel["wins_by_category"].values()) - 1) < 1e-3


def test_results_are_identical_for_any_number_of_jobs(capsys):
    outs = []
    for jobs in ("1", "2"):
        assert main(["analyze", "dealer-advantage", "--games", "25", "--players", "3",
                     "--seed", "4", "--json", "--jobs", jobs]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1]
    data = json.loads(outs[0])
    assert set(data["advantage"]) == {"payoff", "ci95"} and len(data["seats"]) == 3


@pytest.mark.parametrize("kind", ["dealer-advantage", "stand-threshold", "variants"])
def test_each_analysis_prints_a_table_csv_and_plot(tmp_path, capsys, kind):
    csv_path, svg = tmp_path / "a.csv", tmp_path / "a.svg"
    code = main(["analyze", kind, "--games", "6", "--players", "3", "--csv", str(csv_path),
                 "--plot", str(svg)])
    out = capsys.readouterr().out
    assert code == 0 and out.strip()
    assert csv_path.read_text().count("\n") >= 2
    assert svg.read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize("argv", [
    ["dealer-advantage", "--players", "2"],
    ["dealer-advantage", "--bots", "nobody"],
    ["stand-threshold", "--games", "0"],
    ["variants", "--jobs", "0"],
    ["dealer-advantage", "--plot", "out.jpg"],
    ["dealer-advantage", "--csv", "/no/such/dir/x.csv"],
    ["dealer-advantage", "--rules", "nosuch"],
])
def test_bad_input_exits_2_with_one_line(capsys, argv):
    code = main(["analyze", *argv])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("commerce analyze: error:") and err.count("\n") == 1
