"""Every screen of the page read as a newcomer would, against the real server (``commerce
serve`` on loopback): the lobby, the table on a phone and a wide screen in several rulesets,
the hints, the rules, the end of a game, My games and a replay. Every message the server
sends the page in these tests is recorded and checked against the server's own message
models. Screenshots are left in the artifacts folder."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from commerce.rules import find_ruleset, rulesets
from tests.harness.rest import call

from .browser import artifacts
from .live import ACTIONS, check_messages, record, take_turns

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1280, "height": 800}


def person(browser: Any, who: dict[str, Any] | None, viewport: dict[str, int],
           errors: list[str] | None = None) -> Any:
    context = browser.new_context(viewport=viewport)
    if who is not None:
        context.add_init_script(
            f"localStorage.setItem('commerce.token', {json.dumps(who['token'])});"
            f"localStorage.setItem('commerce.name', {json.dumps(who['name'])});")
    page = context.new_page()
    page.set_default_timeout(30000)
    if errors is not None:
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def table(server: str, host: dict[str, Any], ruleset: str, seats: int, *,
          bots: dict[str, str], options: dict[str, Any] | None = None,
          start: bool = True) -> dict[str, Any]:
    created = call(server, "/api/tables", {"ruleset": ruleset, "seats": seats, "bots": bots,
                                           "options": options or {}}, host["token"])
    if start:
        call(server, f"/api/tables/{created['table_id']}/start", None, host["token"])
    return dict(created)


def test_the_lobby_reads_right_on_a_phone(browser: Any, server: str) -> None:
    ann = call(server, "/api/players", {"name": "Ann"})
    waiting = table(server, ann, "pool", 3, bots={"2": "heuristic"}, start=False)
    playing = table(server, ann, "widow", 3, bots={"1": "heuristic", "2": "heuristic"})
    errors: list[str] = []
    page = person(browser, ann, PHONE, errors)
    try:
        page.goto(server)
        page.wait_for_selector("#open-tables li")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # rulesets by title with a line on each; options folded away, in words
        titles = page.locator("#rulesets .ruleset-title").all_inner_texts()
        assert "Pool Commerce" in titles and len(titles) == len(set(titles)), titles
        assert "players, scored in" in page.inner_text("#rulesets")
        assert not page.locator("#more-options").evaluate("d => d.open")
        page.click("#more-options summary")
        text = page.inner_text("main")
        assert not re.findall(r"\b[a-z0-9]+_[a-z0-9_]+\b", text), "a raw option id is shown"
        assert "Cards in the pack" in text
        # tables waiting: title, seats taken of seats, the host's name; games to watch
        line = page.inner_text("#open-tables li")
        assert "Pool Commerce · 2 of 3 seats taken · host Ann" in line, line
        assert "object" not in line and "?" not in line
        watch = page.inner_text("#playing-tables")
        assert "the widow game with tokens" in watch and "3 of 3 seats taken" in watch
        assert page.locator("#open-tables li:has-text('Pool') .open-table").count() == 1
        assert waiting["invite"] and playing["invite"]
        page.screenshot(path=str(artifacts() / "screen-lobby-phone.png"), full_page=True)
        favicon = page.request.get(f"{server}/favicon.ico")
        assert favicon.ok and favicon.headers["content-type"].startswith("image/")
        assert errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("ruleset", [r.id for r in rulesets()])
def test_your_moves_are_on_screen_on_a_phone(browser: Any, server: str, ruleset: str) -> None:
    rules = find_ruleset(ruleset)
    seats = 2 if ruleset == "cox" else min(max(rules.min_players, 3), rules.max_players)
    ann = call(server, "/api/players", {"name": "Ann"})
    made = table(server, ann, ruleset, seats,
                 bots={str(k): "heuristic" for k in range(1, seats)})
    messages: list[dict[str, Any]] = []
    errors: list[str] = []
    page = person(browser, ann, PHONE, errors)
    record(page, messages)
    try:
        page.goto(f"{server}/t/{made['invite']}")
        first = page.locator(ACTIONS).first
        first.wait_for(timeout=90000)
        box = first.bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"]
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=str(artifacts() / f"screen-{ruleset}-phone.png"))
        body = page.inner_text("main")
        assert not re.search(r"\b1 (tokens|cards|stakes|counters|points)\b", body), body
        if ruleset == "cox":
            # the cards and the Supply Bases named so that a newcomer can read them
            names = page.eval_on_selector_all(".hand .card",
                                              "cs => cs.map(c => c.getAttribute('aria-label'))")
            assert names and all(re.search(r"[A-Z][a-z]+", n) for n in names), names
            assert not any(re.fullmatch(r"[A-Z][0-9A-Z]", n) for n in names), names
            assert "Supply Bases" in body and not re.search(r"\b\d:\d", body)
            assert page.locator(".card-names").count() == 1
        assert errors == []
    finally:
        page.context.close()
    check_messages(messages)


def test_hint_recommends_a_move_and_the_rules_show_the_help(browser: Any, server: str) -> None:
    ann = call(server, "/api/players", {"name": "Ann"})
    made = table(server, ann, "peel", 3, bots={"1": "heuristic", "2": "heuristic"})
    messages: list[dict[str, Any]] = []
    page = person(browser, ann, WIDE)
    record(page, messages)
    try:
        page.goto(f"{server}/t/{made['invite']}")
        page.locator(ACTIONS).first.wait_for(timeout=90000)
        # the seats around the table, whose turn and the last move easy to see
        assert page.locator(".felt .seat").first.evaluate(
            "s => getComputedStyle(s).position") == "absolute"
        assert page.locator(".seat.you.to-act").count() == 1
        labels = page.eval_on_selector_all(ACTIONS, "bs => bs.map(b => b.getAttribute("
                                                    "'aria-label'))")
        page.click("#hint-button")
        page.wait_for_selector("#hints li.best, #notice:not(:empty)", timeout=180000)
        assert page.inner_text("#notice") == ""
        text = page.locator("#hints li.best").inner_text()
        assert text.startswith("Recommended: "), text
        move = text.removeprefix("Recommended: ").split(": ")[0]
        assert move in labels, (move, labels)
        assert re.search(r"[+-]?\d+\.\d\d stakes, \d+% chance to win the deal", text), text
        page.keyboard.press("r")
        page.wait_for_selector("#rules-dialog[open]")
        dialog = page.inner_text("#rules-dialog")
        assert "tricon, e.g. A♠ A♥ A♦" in dialog and "ready money" in dialog
        assert "The moves" in dialog and "How a deal goes" in dialog
        assert "Cards in the pack: 52" in dialog
        assert not re.findall(r"\b[a-z0-9]+_[a-z0-9_]+\b", dialog)
        assert page.locator("#rules-dialog .dialog-body").evaluate("b => b.scrollTop") == 0
        page.screenshot(path=str(artifacts() / "screen-peel-rules.png"))
    finally:
        page.context.close()
    check_messages(messages)


def test_the_end_of_a_game_my_games_and_the_replay(browser: Any, server: str) -> None:
    ann = call(server, "/api/players", {"name": "Ann"})
    bob = call(server, "/api/players", {"name": "Bob"})
    made = table(server, ann, "widow", 3, bots={"2": "heuristic"},
                 options={"deals": 2, "max_rounds_per_deal": 1}, start=False)
    call(server, f"/api/tables/{made['table_id']}/join", {}, bob["token"])
    call(server, f"/api/tables/{made['table_id']}/start", None, ann["token"])
    messages: list[dict[str, Any]] = []
    a, b = person(browser, ann, WIDE), person(browser, bob, PHONE)
    record(a, messages)
    record(b, messages)
    try:
        for page in (a, b):
            page.goto(f"{server}/t/{made['invite']}")
            page.wait_for_selector(".seat")
        take_turns([a, b], lambda: a.locator("#again").count() > 0, random.Random(3),
                   limit=800)
        # each player's result in the ruleset's unit, deal by deal; only the host decides
        standings = a.inner_text("ol.standings")
        assert re.search(r"Ann [+-]?\d+ tokens?", standings), standings
        assert re.search(r"Bob [+-]?\d+ tokens?", standings), standings
        assert a.locator("#deals tbody tr").count() == 2
        b.wait_for_selector("#again-wait")
        assert b.locator("#again").count() == 0 and "Ann (the host)" in b.inner_text("#end")
        a.screenshot(path=str(artifacts() / "screen-widow-end.png"), full_page=True)
        b.screenshot(path=str(artifacts() / "screen-widow-end-phone.png"), full_page=True)
        a.click("#again")  # the next game: not finished, so not among the finished
        a.wait_for_selector("#again", state="detached")
        # My games, reloaded: the table, the game with its date and result
        a.goto(f"{server}/history")
        a.reload()
        a.wait_for_selector("#my-games li")
        mine = a.inner_text("main")
        assert "undefined" not in mine and "null" not in mine and "Tables: " not in mine
        assert "the widow game with tokens · waiting" not in mine
        a.screenshot(path=str(artifacts() / "screen-my-games.png"), full_page=True)
        assert a.locator("#my-games li").count() == 1
        assert a.locator("#my-unfinished li").count() == 1
        game = a.inner_text("#my-games li")
        assert re.search(r"\d{4}", game) and re.search(r"tokens?, place \d of 3", game), game
        a.click("#my-games a >> nth=0")
        a.wait_for_url(re.compile("/replay/"))
        a.reload()  # the address itself serves the page
        a.wait_for_selector("#step-count")
        assert "error" not in a.inner_text("body").lower()
        a.click("#step-next")
        assert a.locator("#step-log li").count() > 0
        assert a.locator("#board .seat").count() == 3
        a.screenshot(path=str(artifacts() / "screen-widow-replay.png"), full_page=True)
    finally:
        for page in (a, b):
            page.context.close()
    check_messages(messages)
