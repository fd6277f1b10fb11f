"""Every number option of a ruleset has a documented range, enforced on every path in."""

from __future__ import annotations

import json

import pytest

from commerce.bots import make_bot
from commerce.driver import play_game
from commerce.errors import RecordError, RulesetError
from commerce.record import GameRecord
from commerce.rules import (
    Ruleset,
    family_option_names,
    find_ruleset,
    option_bounds,
    option_doc,
    rulesets,
)


def _numbers(rules: Ruleset) -> list[str]:
    """The number options *rules*' family reads (each family has its own)."""
    return [n for n in family_option_names(rules)
            if isinstance(getattr(rules, n), int) and not isinstance(getattr(rules, n), bool)
            and n != "pack"]


NUMBER_OPTIONS = sorted({n for rules in rulesets() for n in _numbers(rules)})


def test_every_number_option_but_the_pack_has_a_documented_range():
    assert NUMBER_OPTIONS  # the list is built from the ruleset's fields
    for name in NUMBER_OPTIONS:
        bounds = option_bounds(name)
        assert bounds is not None, name
        lo, hi = bounds
        assert lo <= hi
        assert option_doc(name).endswith(f"From {lo} to {hi}.")
    assert option_bounds("pack") is None  # a choice of three packs instead


def test_every_preset_lies_inside_the_ranges():
    for rules in rulesets():
        for name in _numbers(rules):
            lo, hi = option_bounds(name) or (0, 0)
            assert lo <= getattr(rules, name) <= hi, (rules.id, name)


@pytest.mark.parametrize("name", NUMBER_OPTIONS)
def test_values_outside_the_range_are_refused_and_its_ends_accepted(name):
    lo, hi = option_bounds(name) or (0, 0)
    accepted = {lo: False, hi: False}
    for rules in rulesets():
        if name not in _numbers(rules):
            continue
        for value in (lo - 1, hi + 1, 10**12, -(10**12)):
            with pytest.raises(RulesetError, match=f"option {name}: .* is not from {lo} to {hi}"):
                rules.with_options(**{name: value})
        for value in accepted:
            try:
                accepted[value] |= getattr(rules.with_options(**{name: value}), name) == value
            except RulesetError:
                pass  # this end combines badly with another option of this preset
    assert all(accepted.values()), accepted


@pytest.mark.parametrize("text", ["1e12", "nan", "inf", "abc", "", "1.5", "9" * 5000])
def test_text_that_is_no_whole_number_is_refused_in_one_short_line(text):
    with pytest.raises(RulesetError, match="option deals_each: .* is not an integer") as info:
        find_ruleset("peel").with_options(deals_each=text)
    assert len(str(info.value)) < 120


def test_a_record_with_an_option_out_of_range_is_refused():
    rec = play_game(find_ruleset("peel"), [make_bot("random")] * 3, seed=1)
    data = json.loads(rec.to_json())
    data["rules"]["options"] = {"deals_each": 10**12}
    with pytest.raises(RecordError, match="option deals_each: 1000000000000 is not from 1 to"):
        GameRecord.from_dict(data)
