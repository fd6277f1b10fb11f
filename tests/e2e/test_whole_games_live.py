"""A whole game of every ruleset, played by two people in two browsers at one table of the real
server (``commerce serve`` on loopback) with a bot in the third seat (the two-player research
presets: the two people alone): the host starts it from the waiting room, both click their
turns (a card, then the verb) to the standings, both find the game in their history, and
"Play again" starts the next game at the same table. Options make each game short (one round
a deal, one deal or one hand a game); the whole game is still every step of the rules."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from commerce.rules import Ruleset, rulesets
from tests.harness.rest import call

from .browser import artifacts
from .live import ACTIONS, take_turns

SHORT: dict[str, dict[str, object]] = {
    "trading": {"max_rounds_per_deal": 1},
    "widow": {"deals": 1, "max_rounds_per_deal": 1},
    "cox": {"hands_per_game": 1},
    "vingtun": {"deal_limit": "hands", "deal_hands": 1},
}
"""Per family, the options that make a game short."""


def person(browser: Any, token: str, name: str) -> Any:
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    context.add_init_script(f"localStorage.setItem('commerce.token', {json.dumps(token)});"
                            f"localStorage.setItem('commerce.name', {json.dumps(name)});")
    page = context.new_page()
    page.set_default_timeout(15000)
    return page


@pytest.mark.parametrize("ruleset", list(rulesets()), ids=lambda r: r.id)
def test_two_browsers_play_a_whole_game_and_play_again(browser: Any, server: str,
                                                       ruleset: Ruleset) -> None:
    players = 3 if ruleset.max_players >= 3 else 2
    ann_id = call(server, "/api/players", {"name": "Ann"})
    bob_id = call(server, "/api/players", {"name": "Bob"})
    created = call(server, "/api/tables", {
        "ruleset": ruleset.id, "seats": players, "options": SHORT[ruleset.family],
        "bots": {"2": "heuristic"} if players == 3 else {}, "public": False,
        "offer_window_s": 0.02}, ann_id["token"])
    call(server, f"/api/tables/{created['table_id']}/join", {}, bob_id["token"])
    ann = person(browser, ann_id["token"], "Ann")
    bob = person(browser, bob_id["token"], "Bob")
    try:
        for page in (ann, bob):
            page.goto(f"{server}/t/{created['invite']}")
        ann.click("#start")
        for page in (ann, bob):
            page.wait_for_selector(f".seat, {ACTIONS}", timeout=30000)
        clicks = take_turns([ann, bob], lambda: ann.locator("#again").count() > 0,
                            random.Random(7), limit=1500)
        assert clicks > 0
        # only the host decides on the next game; the others are told who does
        bob.wait_for_selector("#again-wait")
        assert bob.locator("#again").count() == 0
        for page in (ann, bob):
            standings = page.inner_text("ol.standings")
            assert "Ann" in standings and "Bob" in standings, standings
        ann.screenshot(path=str(artifacts() / f"game-{ruleset.id}-ann.png"), full_page=True)
        # the finished game is in both players' history
        for who in (ann_id, bob_id):
            games = call(server, "/api/players/me", token=who["token"], method="GET")["games"]
            assert [g["complete"] for g in games[:1]] == [True], games
        mine = call(server, "/api/players/me", token=ann_id["token"], method="GET")
        first = mine["games"][0]["game_id"]
        # play again: the next game at the same table
        ann.click("#again")
        ann.wait_for_selector("#again", state="detached", timeout=30000)
        ann.wait_for_selector(f".seat, {ACTIONS}")
        table = call(server, f"/api/tables/{created['table_id']}", method="GET")
        assert table["status"] == "playing" and table["game_id"] != first
        assert table["games"][-2:] == [first, table["game_id"]]
    finally:
        for page in (ann, bob):
            page.context.close()
