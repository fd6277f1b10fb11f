"""The page's other rooms in real Chromium: the waiting room's host controls, the end of a game
(standings, play again), hints, the rules one key away, the history with its step-by-step
replay, and the link that brings a player to another device."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

import pytest

from commerce import engine
from commerce.rules import find_ruleset

from .browser import chromium
from .fixture import Game
from .pagefix import BASE, FakeServer, until


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    context.add_init_script("if (!localStorage.getItem('commerce.token')) {"
                            "localStorage.setItem('commerce.token', 'tok-ann');"
                            "localStorage.setItem('commerce.name', 'Ann'); }")
    page = context.new_page()
    page.set_default_timeout(10000)
    yield page
    context.close()


def test_host_moves_seats_removes_a_player_and_starts(page: Any) -> None:
    lobby = {"type": "lobby", "status": "lobby", "invite": "abc123", "you_host": True,
             "seats": [{"seat": 0, "kind": "human", "name": "Ann", "you": True},
                       {"seat": 1, "kind": "human", "name": "Bob"},
                       {"seat": 2, "kind": "human", "name": None}]}
    server = FakeServer(page, lambda hello: [lobby])
    page.goto(f"{BASE}/t/abc123")
    page.wait_for_selector("#start")
    assert page.inner_text("#invite-link").endswith("/t/abc123")
    page.click("#lobby-room li:nth-child(3) >> text=Give it to a bot")
    page.click("#lobby-room li:nth-child(2) >> text=Remove")
    page.click("#start")
    until(page, lambda: len(server.posts) == 3)
    assert [(m, p, b) for m, p, b in server.posts] == [
        ("POST", "/api/tables/t1/seats/2", {"kind": "bot", "level": "heuristic"}),
        ("DELETE", "/api/tables/t1/seats/1", None),
        ("POST", "/api/tables/t1/start", None)]


def test_a_guest_sits_at_an_open_seat(page: Any) -> None:
    lobby = {"type": "lobby", "status": "lobby", "you_host": False,
             "seats": [{"seat": 0, "kind": "human", "name": "Bob"},
                       {"seat": 1, "kind": "human", "name": None},
                       {"seat": 2, "kind": "bot", "level": "search"}]}
    server = FakeServer(page, lambda hello: [lobby])
    page.goto(f"{BASE}/t/abc123")
    page.wait_for_selector("button.join")
    assert page.locator("button.join").count() == 1 and page.locator("#start").count() == 0
    page.click("button.join")
    until(page, lambda: bool(server.posts))
    assert server.posts == [("POST", "/api/tables/t1/join", {"seat": 1})]


def test_game_over_shows_showdown_standings_and_plays_again(page: Any) -> None:
    game = Game(find_ruleset("peel"), ["Ann", "Bob", "Cy"])
    view = dict(game.view(0), status="over",
                showdown={"hands": [{"name": "Bob", "cards": [
                    {"symbols": "A♠", "letters": "AS", "colour": "black"}] * 3,
                    "category": "tricon"}], "why": "Bob wins with a tricon."},
                standings=[{"name": "Bob", "score": "+6 stakes"}, {"name": "Ann", "score": "-3"}])
    server = FakeServer(page, lambda hello: [view])
    page.goto(f"{BASE}/t/abc123")
    page.wait_for_selector("#again")
    assert "Bob wins with a tricon." in page.inner_text("#end")
    assert page.locator(".showdown .card").count() == 3
    assert page.locator(".standings li").all_inner_texts() == ["Bob: +6 stakes", "Ann: -3"]
    page.click("#again")
    until(page, lambda: bool(server.posts))
    assert ("POST", "/api/tables/t1/again", None) in server.posts


def test_hint_on_request_and_rules_one_key_away(page: Any) -> None:
    game = Game(find_ruleset("peel"), ["Ann", "Bob", "Cy"])
    d = engine.decision(game.state)
    assert d is not None and d.seat is not None
    server = FakeServer(page, lambda hello: [game.view(d.seat)])
    page.goto(f"{BASE}/t/abc123")
    page.wait_for_selector(".hand .card")
    page.keyboard.press("h")
    until(page, lambda: bool(server.sent("hint")))
    assert server.sent("hint") == [{"type": "hint"}]
    server.push({"type": "hint", "rows": [{"label": "stand", "value": 0.4567}, "trade 3♠: -0.1"]})
    page.wait_for_selector("#hints li >> text=stand: 0.46")
    page.keyboard.press("r")
    page.wait_for_selector("#rules-dialog[open] dt")
    assert page.inner_text("#rules-title") == "Commerce, Peel's new mode"
    assert "pack: 52" in page.inner_text("#rules-dialog")
    ranking = page.locator("#rules-dialog .ranking li").all_inner_texts()
    assert ranking[0] == "tricon, e.g. A♠ A♥ A♦" and len(ranking) >= 5


def replay_steps(ruleset: str, moves: int) -> list[dict[str, Any]]:
    game = Game(find_ruleset(ruleset), ["Ann", "Bob", "Cy"])
    spec = engine.family_of(game.state)
    assert spec.presentation is not None and spec.presentation.table is not None
    steps = []
    for _ in range(moves):
        table = spec.presentation.table(engine.reveal_all(game.state), game.names)
        steps.append({"line": f"step after {game.version} actions",
                      "table": json.loads(json.dumps(dataclasses.asdict(table)))})
        d = engine.decision(game.state)
        assert d is not None and d.seat is not None
        game.act(game.view(d.seat)["actions"][0]["notation"])
    return steps


def test_history_lists_games_and_replays_one_step_by_step(page: Any) -> None:
    steps = replay_steps("peel", 3)
    FakeServer(page, lambda hello: [], rest={
        "/api/players/me": {"player_id": "p1", "name": "Ann",
                            "tables": [{"table_id": "t1", "invite": "abc123", "ruleset": "peel",
                                        "status": "over"}],
                            "games": [{"game_id": "g7", "title": "Peel", "result": "won"}]},
        "/api/games/g7/replay": {"steps": steps}})
    page.goto(f"{BASE}/history")
    page.wait_for_selector("#my-games a")
    assert page.get_attribute("#my-games a >> nth=1", "href") == "/api/games/g7/record"
    page.click("#my-games a >> nth=0")
    page.wait_for_url(f"{BASE}/replay/g7")
    page.wait_for_selector("#step-count")
    assert page.inner_text("#step-count") == "step 1 of 3"
    every = sum(len(s["cards"]) for s in steps[0]["table"]["seats"])
    assert every > 0 and page.locator("#board .seats .card:not(.back)").count() == every
    page.click("#step-next")
    assert page.inner_text("#step-count") == "step 2 of 3"
    assert page.inner_text("#step-line") == steps[1]["line"]
    page.click("#step-last")
    assert page.inner_text("#step-count") == "step 3 of 3"


def test_claim_link_brings_the_player_to_another_device(page: Any) -> None:
    FakeServer(page, lambda hello: [])
    page.once("dialog", lambda dialog: dialog.accept())  # replace the player here: yes
    page.goto(f"{BASE}/#claim=tok-bob")
    page.wait_for_selector("#ruleset option", state="attached")
    assert page.evaluate("() => localStorage.getItem('commerce.token')") == "tok-bob"
    assert page.url == f"{BASE}/"
    assert page.text_content("#claim-link").endswith("/#claim=tok-bob")


def test_invite_link_asks_a_newcomer_for_a_name_then_sits(browser: Any) -> None:
    game = Game(find_ruleset("peel"), ["Ann", "Bob", "Cy"])
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(10000)
    server = FakeServer(page, lambda hello: [game.view(1)],
                        rest={"/api/players": {"player_id": "p2", "token": "tok-bo",
                                               "name": "Bo"}})
    page.goto(f"{BASE}/t/abc123")
    page.wait_for_selector("#name-form")
    assert not server.sent("hello")
    page.fill("#name", "Bo")
    page.click("#name-form button")
    page.wait_for_selector(".hand .card")
    assert ("POST", "/api/players", {"name": "Bo"}) in server.posts
    assert server.sent("hello") == [{"type": "hello", "token": "tok-bo"}]
    context.close()


def test_refused_hello_offers_a_seat_then_reconnects(page: Any) -> None:
    game = Game(find_ruleset("peel"), ["Ann", "Bob", "Cy"])
    seated: list[bool] = []

    def hello(msg: dict[str, Any]) -> list[dict[str, Any]]:
        if not seated:
            return [{"type": "error", "message": "You hold no seat at this table."}]
        return [game.view(1)]

    server = FakeServer(page, hello)
    page.goto(f"{BASE}/t/abc123")
    page.wait_for_selector("#sit")
    assert "no seat" in page.inner_text("#notice")
    seated.append(True)
    page.click("#sit")
    page.wait_for_selector(".hand .card")
    assert ("POST", "/api/tables/t1/join", {}) in server.posts
    assert len(server.sent("hello")) == 2
