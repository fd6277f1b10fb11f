"""Every preset is registered with its id, version, name and sources; widow options validate."""

from __future__ import annotations

from pathlib import Path

import pytest

from commerce import engine
from commerce.errors import RulesetError
from commerce.rules import find_ruleset, option_doc, option_names, rulesets

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rulesets"
NEW = ["hoyle", "peel-old", "pool", "widow", "pounce", "no-pair-or-point", "trade-and-barter"]


def test_the_issue_presets_are_registered_with_their_ids() -> None:
    ids = [r.id for r in rulesets()]
    for rid in NEW:
        assert rid in ids


@pytest.mark.parametrize("rid", NEW)
def test_each_preset_is_versioned_named_and_cited(rid: str) -> None:
    r = find_ruleset(rid)
    assert r.version == 1 and r.name and r.sources
    names = set(option_names())
    for option, source in r.option_sources:
        assert option in names, option
        assert source
    assert len({o for o, _ in r.option_sources}) == len(r.option_sources)
    assert (DOCS / f"{rid}.md").is_file()


@pytest.mark.parametrize("rid", NEW)
def test_each_preset_plays_with_its_player_range(rid: str) -> None:
    r = find_ruleset(rid)
    for players in (r.min_players, r.max_players):
        s = engine.new_game(r, players)
        assert engine.decision(s) is not None


def test_aliases() -> None:
    assert find_ruleset("pool_commerce").id == "pool"
    assert find_ruleset("PEEL_OLD").id == "peel-old"
    assert find_ruleset("trade_and_barter").id == "trade-and-barter"


def test_every_option_is_documented() -> None:
    for name in option_names():
        assert option_doc(name)


def test_peel_is_unchanged() -> None:
    peel = find_ruleset("peel")
    assert peel.version == 2 and peel.family == "trading"
    assert peel.changed_options() == {}


@pytest.mark.parametrize(
    ("rid", "changes"),
    [
        ("widow", {"pounce": True}),  # needs four_of_a_kind
        ("peel", {"pounce": True, "four_of_a_kind": True}),  # no widow in the trading family
        ("widow", {"best_tie_rule": "all_paid"}),  # needs stakes from each
        ("widow", {"best_tie_rule": "split_pool"}),
        ("peel", {"best_tie_rule": "all_paid"}),
        ("widow", {"buy_a_horse": True}),  # needs the pool
        ("widow", {"widow_size": 2, "dealer_blind_exchange": "all_or_nothing"}),
        ("widow", {"max_exchange_per_turn": 4}),
        ("widow", {"widow_size": 0}),
        ("widow", {"starting_tokens": 0}),
        ("widow", {"deals": -1}),
        ("widow", {"end_condition": "sometime"}),
        ("pool", {"token_flow": "lowest_discards"}),
    ],
)
def test_bad_widow_options_are_refused(rid: str, changes: dict[str, object]) -> None:
    with pytest.raises(RulesetError):
        find_ruleset(rid).with_options(**changes)
