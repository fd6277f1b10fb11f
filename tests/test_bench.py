"""The benchmark's baseline classifier and the shape of its report (no timing assertions)."""

from __future__ import annotations

import json
from itertools import combinations, permutations

from commerce.bench import bench_environment, naive_strength, run_bench
from commerce.cards import pack
from commerce.hands import hand_key
from commerce.rules import find_ruleset

PEEL = find_ruleset("peel")


def test_naive_strength_orders_like_hand_key() -> None:
    hands = list(combinations(pack(52), 3))
    by_key = sorted(hands, key=lambda h: hand_key(h, PEEL))
    keys = [hand_key(h, PEEL) for h in by_key]
    strengths = [naive_strength(h) for h in by_key]
    for i in range(1, len(by_key)):
        assert (keys[i] == keys[i - 1]) == (strengths[i] == strengths[i - 1])
        assert strengths[i] >= strengths[i - 1]
    for h in hands[::97]:
        assert len({naive_strength(p) for p in permutations(h)}) == 1


def test_run_bench_report_shape() -> None:
    calls: list[int] = []

    def playout() -> float:
        calls.append(1)
        return 1234.0

    report = run_bench(0.0, repeats=2, per_call_hands=500, batch_hands=1000, playout=playout)
    for key in ("hand_eval_per_call_per_s", "hand_eval_per_call_map_per_s",
                "hand_eval_inline_table_per_s", "naive_eval_per_s", "hand_eval_batch_per_s",
                "hand_eval_packed_per_s"):
        assert isinstance(report[key], float) and report[key] > 0, key
    assert report["playout_decisions_per_s"] == 1234.0
    assert len(calls) == 2
    assert all(isinstance(v, int | float) for v in report.values())
    assert "{:,.0f}".format(report["batch_hands"]) == "1,000"
    json.dumps(report)


def test_run_bench_without_batch_or_playout() -> None:
    short = PEEL.with_options(pack=32, max_players=7)
    report = run_bench(0.0, rules=short, repeats=1, per_call_hands=100, batch=False)
    assert report["hand_eval_batch_per_s"] is None
    assert report["playout_decisions_per_s"] is None
    assert report["naive_eval_per_s"] > 0
    assert all(v is None or isinstance(v, int | float) for v in report.values())
    env = bench_environment(short)
    assert env["rules"] == "peel@2+"
    assert {"python", "machine", "numpy"} <= set(env)
