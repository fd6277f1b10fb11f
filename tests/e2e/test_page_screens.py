"""Every screen of the page read as a newcomer would, against the real server (``commerce
serve`` on loopback): the lobby, the table on a phone and a wide screen in several rulesets,
the hints, the rules, the end of a game, My games and a replay. Every message the server
sends the page in these tests is recorded and checked against the server's own message
models. Screenshots are left in the artifacts folder."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
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


@pytest.fixture(scope="module")
def lobby(browser: Any, server: str) -> Iterator[tuple[Any, list[str]]]:
    """The lobby on a phone, with a table waiting for players and a game in progress."""
    ann = call(server, "/api/players", {"name": "Ann"})
    table(server, ann, "pool", 3, bots={"2": "heuristic"}, start=False)
    table(server, ann, "widow", 3, bots={"1": "heuristic", "2": "heuristic"})
    errors: list[str] = []
    page = person(browser, ann, PHONE, errors)
    page.goto(server)
    page.wait_for_selector("#open-tables li")
    yield page, errors
    page.context.close()


def test_the_lobby_offers_rulesets_by_title_and_options_in_words(lobby: Any) -> None:
    page, _ = lobby
    titles = page.locator("#rulesets .ruleset-title").all_inner_texts()
    assert "Pool Commerce" in titles and len(titles) == len(set(titles)), titles
    assert "players, scored in" in page.inner_text("#rulesets")
    assert not page.locator("#more-options").evaluate("d => d.open")
    page.click("#more-options summary")
    text = page.inner_text("main")
    assert not re.findall(r"\b[a-z0-9]+_[a-z0-9_]+\b", text), "a raw option id is shown"
    assert "Cards in the pack" in text
    page.screenshot(path=str(artifacts() / "screen-lobby-phone.png"), full_page=True)
    page.click("#more-options summary")


def test_the_lobby_fits_a_phone(lobby: Any) -> None:
    page, _ = lobby
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_lobby_lists_tables_with_seats_and_host_and_games_to_watch(lobby: Any) -> None:
    page, _ = lobby
    line = page.inner_text("#open-tables li")
    assert "Pool Commerce · 2 of 3 seats taken · host Ann" in line, line
    assert "object" not in line and "?" not in line
    assert page.locator("#open-tables li:has-text('Pool') .open-table").count() == 1
    watch = page.inner_text("#playing-tables")
    assert "the widow game with tokens" in watch and "3 of 3 seats taken" in watch


def test_a_favicon_and_no_console_error(lobby: Any, server: str) -> None:
    page, errors = lobby
    favicon = page.request.get(f"{server}/favicon.ico")
    assert favicon.ok and favicon.headers["content-type"].startswith("image/")
    page.reload()
    page.wait_for_selector("#open-tables li")
    assert errors == []


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
        # and one's hand above the moves docked at the bottom, not under them
        dock = page.locator(".dock").bounding_box()
        hand = page.locator(".hand .cards").first.bounding_box()
        assert dock is not None and hand is not None
        assert 0 <= hand["y"] and hand["y"] + hand["height"] <= dock["y"] + 1, (hand, dock)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=str(artifacts() / f"screen-{ruleset}-phone.png"))
        body = page.inner_text("main")
        assert not re.search(r"\b1 (tokens|cards|stakes|counters|points)\b", body), body
        assert errors == []
    finally:
        page.context.close()
    check_messages(messages)


@pytest.fixture(scope="module")
def peel_turn(browser: Any, server: str) -> Iterator[tuple[Any, list[dict[str, Any]]]]:
    """Ann's turn at Peel with two bots, on a wide screen; the messages she received."""
    ann = call(server, "/api/players", {"name": "Ann"})
    made = table(server, ann, "peel", 3, bots={"1": "heuristic", "2": "heuristic"})
    messages: list[dict[str, Any]] = []
    page = person(browser, ann, WIDE)
    record(page, messages)
    page.goto(f"{server}/t/{made['invite']}")
    page.locator(ACTIONS).first.wait_for(timeout=90000)
    yield page, messages
    page.context.close()
    check_messages(messages)


def test_the_seats_sit_around_the_table_with_the_turn_and_last_move(peel_turn: Any) -> None:
    page, _ = peel_turn
    seats = page.locator(".felt .seat")
    assert seats.first.evaluate("s => getComputedStyle(s).position") == "absolute"
    assert page.locator(".seat.you.to-act").count() == 1
    # one's own seat at the bottom of the table, the others above it
    you = page.locator(".seat.you").bounding_box()
    others = [seats.nth(k).bounding_box() for k in range(seats.count())]
    assert you is not None and all(o is not None and o["y"] <= you["y"] for o in others)
    assert page.locator("#last-move").inner_text().startswith("Last: ")


def test_a_hint_recommends_a_move_as_its_button_says(peel_turn: Any) -> None:
    page, _ = peel_turn
    labels = page.eval_on_selector_all(ACTIONS, "bs => bs.map(b => b.getAttribute("
                                                "'aria-label'))")
    page.click("#hint-button")
    page.wait_for_selector("#hints li.best, #notice:not(:empty)", timeout=180000)
    assert page.inner_text("#notice") == ""
    text = page.locator("#hints li").first.inner_text()
    assert text.startswith("Recommended: "), text
    move = text.removeprefix("Recommended: ").split(": ")[0]
    assert move in labels, (move, labels)
    assert re.search(r"[+-]?\d+\.\d\d stakes, \d+% chance to win the deal", text), text


def test_the_rules_show_the_terminals_help_from_the_top(peel_turn: Any) -> None:
    page, _ = peel_turn
    page.keyboard.press("r")
    page.wait_for_selector("#rules-dialog[open]")
    dialog = page.inner_text("#rules-dialog")
    assert "tricon, e.g. A♠ A♥ A♦" in dialog and "ready money" in dialog
    assert "The moves" in dialog and "How a deal goes" in dialog
    assert "Cards in the pack: 52" in dialog
    assert not re.findall(r"\b[a-z0-9]+_[a-z0-9_]+\b", dialog)
    assert page.locator("#rules-dialog .dialog-body").evaluate("b => b.scrollTop") == 0
    page.screenshot(path=str(artifacts() / "screen-peel-rules.png"))
    page.keyboard.press("Escape")


def test_coxs_cards_and_supply_bases_are_named(browser: Any, server: str) -> None:
    ann = call(server, "/api/players", {"name": "Ann"})
    made = table(server, ann, "cox", 2, bots={"1": "heuristic"})
    page = person(browser, ann, WIDE)
    try:
        page.goto(f"{server}/t/{made['invite']}")
        page.wait_for_selector(".hand .card")
        names = page.eval_on_selector_all(".hand .card",
                                          "cs => cs.map(c => c.getAttribute('aria-label'))")
        assert names and not any(re.fullmatch(r"[A-Z][0-9A-Z]", n) for n in names), names
        assert all(re.search(r"Automobiles|Ships|Aeroplanes|Captain|Bank|Fruit|Grain|"
                             r"Industries|Greenbacks", n) for n in names), names
        body = page.inner_text("main")
        assert "Supply Bases" in body and not re.search(r"\b\d:\d", body)
        assert page.locator(".card-names").count() == 1
        page.screenshot(path=str(artifacts() / "screen-cox-wide.png"))
    finally:
        page.context.close()


@pytest.fixture(scope="module")
def finished(browser: Any, server: str) -> Iterator[tuple[Any, Any]]:
    """A short game of the widow game played to its end by Ann (the host, on a wide screen)
    and Bob (on a phone) with a bot; their pages, the messages checked at the end."""
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
    for page in (a, b):
        page.goto(f"{server}/t/{made['invite']}")
        page.wait_for_selector(".seat")
    take_turns([a, b], lambda: a.locator("#again").count() > 0, random.Random(3), limit=800)
    yield a, b
    for page in (a, b):
        page.context.close()
    check_messages(messages)


def test_the_end_shows_results_deal_by_deal_and_who_decides(finished: Any) -> None:
    a, b = finished
    # each player's result in the ruleset's unit, deal by deal; only the host decides
    standings = a.inner_text("ol.standings")
    assert re.search(r"Ann [+-]?\d+ tokens?", standings), standings
    assert re.search(r"Bob [+-]?\d+ tokens?", standings), standings
    assert a.locator("#deals tbody tr").count() == 2
    for page in (a, b):  # no empty "Your hand" under the results
        assert page.locator(".hand").count() == 0 or page.locator(".hand .cards > *").count()
    b.wait_for_selector("#again-wait")
    assert b.locator("#again").count() == 0 and "Ann (the host)" in b.inner_text("#end")
    a.screenshot(path=str(artifacts() / "screen-widow-end.png"), full_page=True)
    b.screenshot(path=str(artifacts() / "screen-widow-end-phone.png"), full_page=True)


def test_my_games_lists_tables_and_games_with_date_and_result(finished: Any,
                                                             server: str) -> None:
    a, _ = finished
    a.click("#again")  # the next game: not finished, so not among the finished
    a.wait_for_function("() => !document.querySelector('#again')"
                        " || document.getElementById('notice').textContent")
    assert a.inner_text("#notice") == ""
    a.goto(f"{server}/history")
    a.reload()  # the address itself serves the page
    a.wait_for_selector("#my-games li")
    mine = a.inner_text("main")
    assert "undefined" not in mine and "null" not in mine and "Tables: " not in mine
    a.screenshot(path=str(artifacts() / "screen-my-games.png"), full_page=True)
    assert "the widow game with tokens · being played" in a.inner_text("#my-tables")
    assert a.locator("#my-games li").count() == 1
    assert a.locator("#my-unfinished li").count() == 1
    game = a.inner_text("#my-games li")
    assert re.search(r"\d{4}", game) and re.search(r"tokens?, place \d of 3", game), game


def test_a_replay_reloads_and_shows_the_log_in_words(finished: Any, server: str) -> None:
    a, _ = finished
    a.goto(f"{server}/history")
    a.wait_for_selector("#my-games li")
    a.click("#my-games a >> nth=0")
    a.wait_for_url(re.compile("/replay/"))
    a.reload()  # the address itself serves the page
    a.wait_for_selector("#step-count")
    assert "error" not in a.inner_text("body").lower()
    a.click("#step-next")
    assert a.locator("#step-log li").count() > 0
    assert a.locator("#board .seat").count() == 3
    a.screenshot(path=str(artifacts() / "screen-widow-replay.png"), full_page=True)


def test_a_player_out_of_the_game_is_told_so_and_may_watch(browser: Any, server: str) -> None:
    ann = call(server, "/api/players", {"name": "Ann"})
    # a short window, so that the bots' long end takes seconds on a slow machine
    made = call(server, "/api/tables", {
        "ruleset": "pounce", "seats": 3, "bots": {"1": "heuristic", "2": "heuristic"},
        "options": {"starting_tokens": 2, "max_rounds_per_deal": 1}, "offer_window_s": 0.02},
        ann["token"])
    call(server, f"/api/tables/{made['table_id']}/start", None, ann["token"])
    messages: list[dict[str, Any]] = []
    page = person(browser, ann, WIDE)
    record(page, messages)
    try:
        page.goto(f"{server}/t/{made['invite']}")
        page.wait_for_selector(".seat")

        def out() -> bool:
            return page.locator(".seat.you.out").count() > 0 or page.locator(
                "#again").count() > 0
        take_turns([page], out, random.Random(2), limit=5000)
        # each look one snapshot of the page: the end, and the note, as they are together
        look = ("() => [document.querySelector('#again') !== null, "
                "document.querySelector('.seat.you.out') !== null, "
                "(document.querySelector('.out-note') || {}).textContent || null]")
        over, out_before_end, notes = False, False, set()
        for _ in range(6000):
            over, is_out, note = page.evaluate(look)
            if over:
                assert note is None  # no "play on" once the game is over
                break
            out_before_end = out_before_end or is_out
            if note is not None:
                notes.add(note)
            page.wait_for_timeout(50)
        assert over
        if out_before_end:  # the others played on while Ann watched
            assert notes == {"You are out of the game: the others play on to the end, "
                             "and you may watch."}
    finally:
        page.context.close()
    check_messages(messages)


def test_a_newcomers_table_says_what_an_open_seat_needs_before_the_start(
        browser: Any, server: str) -> None:
    """The lobby's form leaves a seat for a friend by default: the waiting room says so, the
    start waits for it, and giving the seat to a bot lets the game begin (no refused start, no
    console error on the way)."""
    errors: list[str] = []
    page = person(browser, None, WIDE, errors)
    try:
        page.goto(server)
        page.fill("#name", "Newcomer")
        page.check('#rulesets input[value="widow"]')
        page.click("#create-button")
        page.wait_for_selector("#open-seats")
        assert page.inner_text("#open-seats") == (
            "Seat 2 is open: send the invite link to a friend, or give it to a bot, and then "
            "start.")
        assert page.locator("#start").is_disabled()
        page.click("button:has-text('Give it to a bot')")
        page.wait_for_selector("#start:enabled")
        assert page.locator("#open-seats").count() == 0
        page.click("#start")
        page.wait_for_selector(f".seat, {ACTIONS}")
        assert errors == [], errors
    finally:
        page.context.close()
