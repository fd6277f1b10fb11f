"""The Cox heuristic bot, the Cox log lines, and a scripted Cox game in the terminal."""

from __future__ import annotations

import dataclasses
import functools
import io
import random
import re
import sys
from typing import Any

import pytest

from commerce import engine
from commerce.bots import make_bot
from commerce.cli import main
from commerce.core import Action, ActionKind, Decision, DecisionKind, Event
from commerce.driver import Driver
from commerce.families.cox.cards import (
    BANK,
    format_cox_card,
    is_wild,
    parse_cox_card,
    parse_cox_cards,
)
from commerce.families.cox.heuristic import choose_discard, choose_suit, cox_heuristic, wants_to_buy
from commerce.families.cox.scoring import score_holding
from commerce.families.cox.text import KINDS, SILENT_KINDS, describe_event, render_observation
from commerce.record import GameRecord, replay
from commerce.rules import find_ruleset

COX = find_ruleset("cox")


def heuristic_game(players: int, seed: int) -> tuple[Any, list[Any]]:
    """A whole game of heuristic seats through the engine, checking every choice is legal and
    that wild cards are kept while anything else may be discarded."""
    rng = random.Random(seed)
    s = engine.new_game(COX, players, dealer=seed % players)
    events = list(s.deal.log)
    while (d := engine.decision(s)) is not None:
        if d.seat is None:
            action = engine.sample_chance(s, rng)
        else:
            legal = engine.legal_actions(s)
            action = cox_heuristic(engine.observe(s, d.seat), legal, rng, 0.5)
            assert action in legal
            if action.kind is ActionKind.DISCARD and is_wild(action.cards[0]):
                assert all(is_wild(a.cards[0]) for a in legal if a.kind is ActionKind.DISCARD)
        t = engine.apply(s, action)
        s = t.state
        events.extend(t.events)
    return s, events


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
def test_heuristic_only_plays_legal_actions_and_keeps_wild_cards(players, seed):
    s, _ = heuristic_game(players, seed)
    assert engine.outcome(s) is not None


@functools.lru_cache(maxsize=1)
def finished_view() -> Any:
    s, _ = heuristic_game(2, 1)  # any finished game gives a valid ruleset and table
    return engine.observe(s, 0)


def discard_view(rack: str, laid: tuple[str, ...] = ()) -> Any:
    """A real observation at a discard decision, with the viewer's holding replaced."""
    obs = finished_view()
    groups = tuple(parse_cox_cards(g) for g in laid)
    cards = tuple(sorted(parse_cox_cards(rack)))
    return dataclasses.replace(
        obs, rack=cards, racks=(cards, *obs.racks[1:]),
        laid=(groups, *obs.laid[1:]), greenbacks=((), *obs.greenbacks[1:]),
        discards=(), live=None, discarder=None,
    )


def legal_discards(obs: Any) -> list[Action]:
    faces = sorted({c - c % 4 if c < 60 else c for c in obs.rack})
    return [Action(ActionKind.DISCARD, (f,)) for f in faces]


def test_heuristic_saves_the_bank_and_captains_and_drops_other_suits():
    obs = discard_view("A1 A1 A2 BK AC S3 G1 G2 F1")
    assert choose_suit(obs.rack, ()) == 0
    choice = choose_discard(obs, legal_discards(obs), random.Random(1))
    assert choice == Action(ActionKind.DISCARD, (parse_cox_card("S3"),))
    # With only the wild cards left to choose from, it must let one go.
    obs = discard_view("BK AC")
    choice = choose_discard(obs, legal_discards(obs), random.Random(1))
    assert choice.cards[0] in (BANK, parse_cox_card("AC"))


def test_heuristic_keeps_pairs_and_honour_pairs_over_single_cards():
    obs = discard_view("P1 P1 P3 G1 G2 F4 P5 P5")
    choice = choose_discard(obs, legal_discards(obs), random.Random(1))
    assert choice.cards[0] in (parse_cox_card("P3"), parse_cox_card("F4"))


def test_heuristic_buys_what_completes_a_three_or_the_hand():
    obs = discard_view("A1 A1 A3 G1 G2 F4 S2 S2")
    assert wants_to_buy(obs, parse_cox_card("A1"))
    assert wants_to_buy(obs, parse_cox_card("G3"))  # honour three
    assert not wants_to_buy(obs, parse_cox_card("A3"))  # only one like it
    assert not wants_to_buy(obs, parse_cox_card("S2"))  # a three of the wrong suit
    # The waiting hand: two threes out, a pair to be made, the other card to go.
    waiting = discard_view("A3 F4", laid=("A1 A1 A1", "A2 A2 A2"))
    assert wants_to_buy(waiting, parse_cox_card("A3"))


def test_heuristic_sells_out_with_the_best_score():
    obs = discard_view("A3 A3 S4", laid=("A1 A1 A1", "A2 A2 A2"))
    sell = Action(ActionKind.SELL_OUT, (parse_cox_card("S4"),))
    legal = [*legal_discards(obs), sell]
    assert cox_heuristic(obs, legal, random.Random(1), 0.5) == sell


def test_heuristic_plays_the_discard_offer_through_the_bot_interface():
    bot = make_bot("heuristic")
    obs = dataclasses.replace(discard_view("A1 A1 A3 G1 G2 F4 S2 S2"),
                              live=parse_cox_card("A1"), discarder=1,
                              decision=Decision(0, DecisionKind.BUY_OFFER))
    buy, decline = Action(ActionKind.BUY), Action(ActionKind.DECLINE)
    assert bot.act(obs, [buy, decline], random.Random(1)) == buy
    obs = dataclasses.replace(obs, live=parse_cox_card("P4"))
    assert bot.act(obs, [decline], random.Random(1)) == decline


def test_heuristic_beats_random_in_a_small_seeded_match():
    heuristic = random_total = 0
    for g in range(8):
        seat = g % 4
        agents = [make_bot("heuristic" if i == seat else "random") for i in range(4)]
        driver = Driver(COX, agents, seed=1000 + g)
        driver.run()
        pay = driver.outcome().payoffs
        heuristic += pay[seat]
        random_total += sum(pay) - pay[seat]
    # per seat: the heuristic's mean against the random seats' mean
    assert heuristic / 8 > random_total / 24 + 10


# -- log lines ---------------------------------------------------------------------------

CARD = re.compile(r"\b(?:[ASP][1-5C]|BK|[FGIM][1-4])\b")


def card_names(value: Any) -> set[str]:
    """Card names anywhere in an event's data (cards are ints, breakdowns hold names)."""
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {format_cox_card(value)} if 0 <= value < 80 else set()
    if isinstance(value, str):
        return set(CARD.findall(value))
    if isinstance(value, dict):
        return set().union(*(card_names(v) for v in value.values())) if value else set()
    if isinstance(value, (tuple, list)):
        return set().union(*(card_names(v) for v in value)) if value else set()
    return set()


CARD_KEYS = {"card", "cards", "racks", "breakdowns"}


@pytest.mark.parametrize("players,seed", [(3, 4), (4, 5)])
def test_every_event_gets_a_line_or_an_explicit_none(players, seed):
    _, events = heuristic_game(players, seed)
    kinds = {e.kind for e in events}
    assert kinds <= KINDS, f"kinds without a line: {kinds - KINDS}"
    assert {"drew", "discarded", "hand_scored", "game_over", "laid_out"} <= kinds
    names = ["Ann", "Bob", "Cy", "Di"][:players]
    for viewer in (None, *range(players)):
        for e in events:
            if not e.visible(viewer):
                continue
            line = describe_event(e, names, viewer)
            if e.kind in SILENT_KINDS:
                assert line is None
                continue
            assert isinstance(line, str) and line.strip()
            # A line names no card the event does not carry: nothing hidden can leak.
            allowed = set().union(*(card_names(v) for k, v in e.data if k in CARD_KEYS)) \
                if e.data else set()
            assert set(CARD.findall(line)) <= allowed, (e, line)
            if e.seat == viewer and viewer is not None:
                assert "You" in line or "you" in line or line.startswith("  (") \
                    or e.kind in ("hand_scored", "supply_exhausted", "game_over")


def test_public_lines_name_no_drawn_card():
    names = ["Alice", "Bob", "Carol", "Dan"]
    drew = Event("drew", 2, (("base", 2),))
    assert describe_event(drew, names, 0) == "Carol draws from base 2."
    assert describe_event(drew, names, 2) == "You draw from base 2."
    bought = Event("bought", 1, (("card", parse_cox_card("S2")), ("from", 3),
                                     ("lost_turns", (2,))))
    assert describe_event(bought, names, 0) == "Bob buys S2 from Dan — Carol's turn is skipped."
    laid = Event("laid_out", 2, (("cards", parse_cox_cards("A1 A1 A1")),))
    assert describe_event(laid, names, None) == "Carol lays out three A1."
    sold = Event("sold_out", 0, (("card", parse_cox_card("F2")),))
    assert describe_event(sold, names, 0) == "You discard F2 and sell out!"


# -- the terminal --------------------------------------------------------------------------


def test_render_groups_the_rack_and_says_i_buy():
    obs = dataclasses.replace(discard_view("A1 A1 S3 AC G1 F2 BK"),
                              live=parse_cox_card("A1"), discarder=1,
                              decision=Decision(0, DecisionKind.BUY_OFFER))
    text = render_observation(obs, ["Ann", "Bob"])
    assert "Automobiles: A1 A1 AC | Ships: S3 | Honours: F2 G1 | Bank" in text
    assert "I buy" in text and "Bob discarded A1" in text
    assert "Supply left" in text and "Your holding would count" in text


def test_scripted_cox_game_in_the_terminal_plays_to_the_end(capsys, monkeypatch, tmp_path):
    path = tmp_path / "cox.json"
    # The phrases first (refused where not allowed), then the first choice at every prompt.
    monkeypatch.setattr(sys, "stdin", io.StringIO("I buy\ni sell out\n" + "1\n" * 3000))
    code = main(["play", "--rules", "cox", "--players", "3", "--seed", "7",
                 "--save", str(path)])
    out = capsys.readouterr().out
    assert code == 0 and "Final result" in out and "Game over" in out
    record = GameRecord.load(path)
    assert record.complete
    state = replay(record)
    result = engine.outcome(state)
    assert result is not None and tuple(result.payoffs) == record.payoffs
    hands = result.details["hand_scores"]
    assert len(hands) == COX.hands_per_game
    assert tuple(sum(h[i] for h in hands) for i in range(3)) == record.payoffs
    # the last hand's count is what the scoring says of each holding
    scored = [e for e in state.deal.log if e.kind == "hand_scored"][-1]
    for seat, bd in enumerate(scored.get("breakdowns")):
        assert sum(item["points"] for item in bd["breakdown"]) == bd["score"] == hands[-1][seat]
    deal = state.deal
    held = [(*deal.racks[i], *(c for g in deal.laid[i] for c in g), *deal.greenbacks[i])
            for i in range(3)]
    assert tuple(score_holding(h, state.deal.base_numbers[i]).score
                 for i, h in enumerate(held)) == hands[-1]
    assert "declined" not in out and "Hand 4 is over" in out
