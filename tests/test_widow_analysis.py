"""The analyses on widow-family games: the deal reader, dealer advantage, knock thresholds."""

from __future__ import annotations

import pytest

from commerce.apps.analysis import dealer_advantage, variants
from commerce.apps.runner import play_and_read
from commerce.apps.threshold import stand_action, stand_threshold
from commerce.bots import make_bot
from commerce.core import ActionKind
from commerce.families.widow.deals import read_widow_deals
from commerce.rules import find_ruleset
from helpers import Table, start

PRESETS = ["peel-old", "pool", "widow", "pounce", "no-pair-or-point"]


def test_reader_follows_a_token_deal():
    t = Table(start("widow", 3, {1: "9S 9H 2D", 2: "5S 6H JD", 0: "3C 4C 7H"}, "9C KC QD"))
    t.act("pass", "exchange 2D for 9C", "done", "knock", "pass", "pass")
    deals = read_widow_deals(t.state.ruleset, 3, t.events)
    assert len(deals) == 1
    deal = deals[0]
    assert deal.winners == (1,) and deal.stander == 2 and deal.dealer == 0
    assert deal.payoffs == (-1.0, 1.0, 0.0) and deal.categories[1] == "tricon"


@pytest.mark.parametrize("rules", PRESETS)
def test_reader_payoffs_match_the_game(rules):
    r = find_ruleset(rules)
    game = play_and_read(r, [make_bot("heuristic"), make_bot("random"), make_bot("heuristic")],
                         seed=2)
    assert game.deals and game.deals[-1].end == max(
        i for i, e in enumerate(game.events) if e.kind == "deal_ended")
    totals = [sum(d.payoffs[x] for d in game.deals) for x in range(3)]
    if r.token_flow == "lowest_to_pool":
        assert all(p <= 0 for p in totals)  # counters into the pool
    else:
        assert abs(sum(totals)) < 1e-9  # stakes or tokens change hands


def test_the_first_deal_is_read_with_its_dealer():
    # a new game's state holds its first deal's deal_started, which the driver's events
    # begin with: the first deal is read with its dealer (not seat 0 for want of the event)
    r = find_ruleset("pounce")
    dealers = []
    for seed in range(8):
        game = play_and_read(r, [make_bot("random")] * 4, seed)
        assert game.events[0].kind == "deal_started"
        assert game.deals[0].dealer == game.events[0].seat
        dealers.append(game.deals[0].dealer)
    assert set(dealers) != {0}


def test_dealer_advantage_reads_widow_games():
    r = dealer_advantage(find_ruleset("peel-old"), players=3, games=4, seed=1)
    assert r["deals"] > 0 and [s["role"] for s in r["seats"]][0] == "dealer"


@pytest.mark.parametrize("rules,kind", [("widow", ActionKind.KNOCK),
                                        ("peel-old", ActionKind.STAND)])
def test_knock_threshold(rules, kind):
    r = find_ruleset(rules)
    assert stand_action(r).kind is kind
    out = stand_threshold(r, players=3, games=2, seed=1, min_samples=1)
    classes = [c for p in out["positions"] for c in p["classes"]]
    assert classes and all(0 <= c["win"] <= 1 for c in classes)


def test_variants_include_the_widow_presets():
    chosen = [find_ruleset(x) for x in ("peel-old", "pool")]
    out = variants(players=3, games=2, seed=0, rules_list=chosen)
    assert [row["rules"] for row in out["rulesets"]] == ["peel-old", "pool"]
    assert not out["skipped"]
