"""``analyze variants`` on the compiled kernels: the engine chosen per ruleset and why, the
kernel's per-deal results read as the reference reads its deals, and the two engines agreeing
statistically."""

from __future__ import annotations

import json

import pytest

from commerce import kernelkit
from commerce.apps.analysis import variant_samples, variants
from commerce.apps.runner import CompiledRunner, Job
from commerce.cli import main
from commerce.compiled import build_kernel, run_batch
from commerce.errors import CommerceError
from commerce.family import family_spec
from commerce.rules import find_ruleset
from tests.harness.replay import replay_batch_game

TRADING = ("peel", "hoyle", "trade-and-barter")
NO_KERNEL = "the vingtun family has no compiled kernel"


@pytest.mark.parametrize("rid,options,room", [
    ("peel", {}, None),
    ("trade-and-barter", {"best_tie_rule": "split_pool", "direction": "right"}, None),
    ("peel-old", {}, None), ("pool", {}, None), ("pounce", {}, None),
    ("no-pair-or-point", {}, 5),  # most sessions longer than 5 deals: played again
    ("cox", {"hands_per_game": 2, "direction": "left"}, None)],
    ids=["peel", "split-pool", "peel-old", "pool", "pounce", "no-pair-or-point-room-5", "cox"])
def test_the_kernel_samples_are_the_reference_reading_of_its_games(
        rid: str, options: dict[str, str], room: int | None) -> None:
    rules = find_ruleset(rid).with_options(**options)
    specs = ["random", "heuristic"]
    games = 40 if rules.family != "cox" else 12
    samples = variant_samples(
        CompiledRunner(room).run(Job(rules, 4, tuple(specs), games, 5, deals=True)))
    result = run_batch(rules, players=4, games=games, seed=5, bots=specs, record=True)
    decode_action = getattr(build_kernel(rules, 4), "decode_action", kernelkit.decode_action)
    wins: dict[str, float] = {}
    shared = 0  # deals whose pool was split
    for g in range(games):
        state, events, at, decisions = replay_batch_game(rules, 4, result, g, decode_action)
        deals = family_spec(rules.family).deal_reader(rules, 4, events)
        assert samples.deals[g] == len(deals)
        assert samples.decisions[g] == decisions
        assert samples.per_deal[g] == at[deals[-1].end] / len(deals)
        for deal in deals:
            shared += len(deal.winners) > 1
            for w in deal.winners:
                cat = deal.categories[w]
                wins[cat] = wins.get(cat, 0.0) + 1 / len(deal.winners)
    assert samples.wins.keys() == wins.keys()
    assert samples.wins == pytest.approx(wins)
    # Cox's hands are shared by every best score
    assert (shared > 0) == (rules.family == "cox" or rules.best_tie_rule == "split_pool")
    if room is not None:
        assert max(samples.deals) > room  # some games were played again


def test_the_kernel_and_the_reference_agree_statistically() -> None:
    chosen = [find_ruleset(r) for r in TRADING]
    bots = ["random", "heuristic"]
    fast = variants(players=4, games=4000, seed=2, bots=bots, rules_list=chosen, engine="compiled")
    reference = variants(players=4, games=400, seed=2, bots=bots, rules_list=chosen)
    for f, r in zip(fast["rulesets"], reference["rulesets"], strict=True):
        assert (f["engine"], f["engine_reason"]) == ("compiled", "asked for")
        assert (r["engine"], r["engine_reason"]) == ("reference", "asked for")
        assert f["deals_per_game"]["mean"] == r["deals_per_game"]["mean"] == 4
        for key in ("decisions_per_game", "decisions_per_deal"):
            (flo, fhi), (lo, hi) = f[key]["ci95"], r[key]["ci95"]
            assert fhi - flo < hi - lo  # ten times the games: a narrower interval
            assert flo <= hi and lo <= fhi, f"{f['rules']}: the {key} intervals do not overlap"
        assert f["wins_by_category"].keys() == r["wins_by_category"].keys()
        for cat, share in f["wins_by_category"].items():
            assert abs(share - r["wins_by_category"][cat]) < 0.05, (f["rules"], cat)


WIDOW = ("peel-old", "pool", "widow", "pounce", "no-pair-or-point")


def test_the_widow_kernel_and_the_reference_agree_statistically() -> None:
    bots = ["random", "heuristic"]
    for rid in WIDOW:  # the sessions of tokens are long on the reference: a few games
        chosen = [find_ruleset(rid)]
        few = 30 if rid in ("peel-old", "pool") else 10
        fast = variants(players=3, games=2000, seed=2, bots=bots, rules_list=chosen,
                        engine="compiled")["rulesets"][0]
        reference = variants(players=3, games=few, seed=2, bots=bots,
                             rules_list=chosen)["rulesets"][0]
        assert (fast["engine"], reference["engine"]) == ("compiled", "reference")
        for key in ("deals_per_game", "decisions_per_game", "decisions_per_deal"):
            (flo, fhi), (lo, hi) = fast[key]["ci95"], reference[key]["ci95"]
            assert flo <= hi and lo <= fhi, f"{rid}: the {key} intervals do not overlap"
        assert fast["wins_by_category"].keys() >= reference["wins_by_category"].keys()


def test_cox_on_the_kernel_and_the_reference_agree_statistically() -> None:
    chosen = [find_ruleset("cox")]
    bots = ["random", "heuristic"]
    fast = variants(players=4, games=1000, seed=2, bots=bots, rules_list=chosen, engine="auto")
    reference = variants(players=4, games=60, seed=2, bots=bots, rules_list=chosen,
                         engine="reference")
    (f,), (r,) = fast["rulesets"], reference["rulesets"]
    assert (f["engine"], f["engine_reason"]) == ("compiled", "every bot has a compiled policy")
    assert f["deals_per_game"]["mean"] == r["deals_per_game"]["mean"] == 4  # every hand played
    for key in ("decisions_per_game", "decisions_per_deal"):
        (flo, fhi), (lo, hi) = f[key]["ci95"], r[key]["ci95"]
        assert fhi - flo < hi - lo
        assert flo <= hi and lo <= fhi, f"cox: the {key} intervals do not overlap"
    assert r["wins_by_category"].keys() <= f["wins_by_category"].keys()  # complete is rare
    for cat, share in f["wins_by_category"].items():
        assert abs(share - r["wins_by_category"].get(cat, 0.0)) < 0.1, cat


def test_auto_plays_the_kernel_families_on_the_kernel_and_the_others_on_the_reference(
) -> None:
    chosen = [find_ruleset(r) for r in ("trade-and-barter-mini", "peel-old", "cox", "vingt-un")]
    out = variants(players=3, games=2, seed=0, bots=["random"], rules_list=chosen,
                   engine="auto")
    assert [(r["rules"], r["engine"], r["engine_reason"]) for r in out["rulesets"]] == [
        ("trade-and-barter-mini", "compiled", "every bot has a compiled policy"),
        ("peel-old", "compiled", "every bot has a compiled policy"),
        ("cox", "compiled", "every bot has a compiled policy"),
        ("vingt-un", "reference", "the vingtun family has no compiled kernel"),
    ]


def test_fast_refuses_a_family_without_a_kernel() -> None:
    with pytest.raises(CommerceError) as info:
        variants(players=4, games=2, seed=0, bots=["random"], engine="compiled",
                 rules_list=[find_ruleset("widow"), find_ruleset("vingt-un")])
    assert str(info.value) == f"--engine compiled: {NO_KERNEL}"


def test_the_cli_chooses_and_prints_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["analyze", "variants", "--games", "50", "--bots", "random,heuristic"]
    assert main([*argv, "--rules", "peel,hoyle", "--engine", "compiled"]) == 0
    out = capsys.readouterr().out
    assert "engine: compiled (asked for): peel, hoyle" in out
    assert main([*argv, "--rules", "hoyle,pool,cox,vingt-un", "--json", "--games", "10"]) == 0
    rows = json.loads(capsys.readouterr().out)["rulesets"]
    assert [(r["rules"], r["engine"]) for r in rows] == [
        ("hoyle", "compiled"), ("pool", "compiled"), ("cox", "compiled"), ("vingt-un", "reference")]
    assert rows[3]["engine_reason"] == NO_KERNEL
    assert main(["analyze", "variants", "--rules", "vingt-un", "--games", "2",
                 "--engine", "compiled"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"commerce analyze: error: --engine compiled: {NO_KERNEL}")
    assert main(["analyze", "variants", "--rules", "pel", "--games", "2"]) == 2
    assert capsys.readouterr().err.startswith("commerce analyze: error:")
