"""The page in real Chromium against the contract's messages built from real games: the table
from one's seat, click a card then the verb, offers out of turn, escaping, the log for screen
readers, reconnecting, the lobby's form and keyboard play."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from commerce import engine
from commerce.rules import find_ruleset

from .browser import artifacts, chromium
from .fixture import Game
from .pagefix import BASE, FakeServer


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.add_init_script("localStorage.setItem('commerce.token', 'tok-ann');"
                            "localStorage.setItem('commerce.name', 'Ann');")
    page = context.new_page()
    page.set_default_timeout(10000)
    yield page
    context.close()


def peel_to_act() -> tuple[Game, int]:
    game = Game(find_ruleset("peel"), ["Ann", "Bob", "Cy"])
    d = engine.decision(game.state)
    assert d is not None and d.seat is not None
    return game, d.seat


def test_table_from_own_seat_shows_own_cards_and_only_backs(page: Any) -> None:
    game, seat = peel_to_act()
    view = game.view(seat)
    server = FakeServer(page, lambda hello: [view])
    page.goto(f"{BASE}/t/abc123")
    page.wait_for_selector(".hand button.card")
    hand = page.locator(".hand button.card")
    assert hand.count() == len(view["table"]["hand"])
    labels = [hand.nth(i).get_attribute("aria-label") for i in range(hand.count())]
    assert all(" of " in label for label in labels)
    hidden = sum(s["hidden"] for s in view["table"]["seats"])
    assert page.locator(".seats .card.back").count() == hidden > 0
    assert page.locator(".seat .dealer").count() == 1
    assert page.locator(".seat.to-act").count() == 1
    # the only faces drawn are the seat's own cards (Peel shows nothing else face up)
    faces = page.eval_on_selector_all("main .card:not(.back)",
                                      "ns => ns.map(n => n.getAttribute('aria-label'))")
    assert sorted(set(faces)) == sorted(labels)
    assert server.sent("hello")[0]["token"] == "tok-ann"
    assert "Your hand" in page.inner_text("body")
    page.screenshot(path=str(artifacts() / "page-peel-table.png"), full_page=True)


def test_click_a_card_then_the_verb_sends_the_intent(page: Any) -> None:
    game, seat = peel_to_act()
    view = game.view(seat)
    server = FakeServer(page, lambda hello: [view])
    page.goto(f"{BASE}/t/abc123")
    page.wait_for_selector(".hand button.card")
    first = view["table"]["hand_cards"][0]
    page.click(f'.hand button[data-card="{first}"]')
    buttons = page.locator("#actions button.act")
    named = [a for a in view["actions"] if first in a["cards"]]
    assert named and buttons.count() == len(named)
    assert page.get_attribute(f'.hand button[data-card="{first}"]', "aria-pressed") == "true"
    buttons.first.click()
    page.wait_for_function("() => document.querySelector('#actions button.act').disabled")
    acts = server.sent("act")
    assert acts == [{"type": "act", "action": named[0]["notation"], "version": view["version"]}]


def test_out_of_turn_offer_shown_the_moment_it_arrives(page: Any) -> None:
    game, seat = peel_to_act()
    other = (seat + 1) % 3
    server = FakeServer(page, lambda hello: [game.view(other)])
    page.goto(f"{BASE}/t/abc123")
    page.wait_for_selector(".hand .card")
    assert page.locator("#offers button").count() == 0
    offer = dict(game.view(other), version=game.version + 1)
    offer["actions"] = [{"notation": "pounce 2S 3S 4S", "label": "pounce on 2♠ 3♠ 4♠",
                         "cards": [0, 4, 8], "group": None, "out_of_turn": True}]
    server.push(offer)
    page.wait_for_selector("#offers button.offer")
    assert page.get_attribute("#offers", "role") == "alert"
    page.click("#offers button.offer")
    page.wait_for_function("() => document.querySelector('#offers button').disabled")
    assert server.sent("act")[-1]["action"] == "pounce 2S 3S 4S"


def test_names_chat_and_log_are_text_never_markup(page: Any) -> None:
    evil = '<img src=x onerror="window.pwned=1">'
    game = Game(find_ruleset("peel"), [evil, "Bob", "Cy"])
    view = game.view(1)
    server = FakeServer(page, lambda hello: [view])
    page.goto(f"{BASE}/t/abc123")
    page.wait_for_selector(".seat .name")
    said = "<b>bold</b><script>window.pwned=2</script>"
    server.push({"type": "chat", "from": evil, "text": said})
    page.wait_for_selector("#chat li")
    assert page.locator("#chat li").inner_text() == f"{evil}: {said}"
    assert page.locator(".seat .name").first.inner_text() == evil
    assert page.locator("main img, main b:not(#chat b)").count() == 0
    assert page.evaluate("() => window.pwned") is None


def test_log_is_a_live_region_and_grows_by_new_lines(page: Any) -> None:
    game, seat = peel_to_act()
    server = FakeServer(page, lambda hello: [game.view(seat)])
    page.goto(f"{BASE}/t/abc123")
    page.wait_for_selector("#log li")
    assert page.get_attribute("#log", "aria-live") == "polite"
    before = page.locator("#log li").count()
    first = page.locator("#log li").first.element_handle()
    game.act(game.view(seat)["actions"][0]["notation"])
    view = game.view(seat)
    assert len(view["log"]) > before
    server.push(view)
    lines = len(view["log"])
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length === {lines}")
    # the old lines stay the same nodes (a screen reader does not read them again)
    assert page.evaluate("n => n.isConnected", first)


def test_reconnects_after_a_close_and_resumes_after_a_reload(page: Any) -> None:
    game, seat = peel_to_act()
    server = FakeServer(page, lambda hello: [game.view(seat)])
    page.goto(f"{BASE}/t/abc123")
    page.wait_for_selector(".hand .card")
    server.sockets[-1].close()
    page.wait_for_function("() => document.getElementById('conn').textContent !== ''")
    page.wait_for_function("() => document.getElementById('conn').textContent === ''",
                           timeout=10000)
    assert len(server.sent("hello")) == 2
    page.reload()
    page.wait_for_selector(".hand .card")
    hellos = server.sent("hello")
    assert len(hellos) == 3 and all(h["token"] == "tok-ann" for h in hellos)


def test_spectator_says_so_and_sees_no_hand(page: Any) -> None:
    game, _ = peel_to_act()
    server = FakeServer(page, lambda hello: [game.view(None)])
    page.goto(f"{BASE}/t/abc123?watch")
    page.wait_for_selector(".seat")
    assert server.sent("hello")[0] == {"type": "hello", "spectate": True}
    assert page.locator(".hand").count() == 0
    assert page.locator(".seats .card:not(.back)").count() == 0


def test_keyboard_picks_a_card_and_acts(page: Any) -> None:
    game, seat = peel_to_act()
    view = game.view(seat)
    server = FakeServer(page, lambda hello: [view])
    page.goto(f"{BASE}/t/abc123")
    page.wait_for_selector(".hand button.card")
    page.keyboard.press("2")
    second = view["table"]["hand_cards"][1]
    assert page.get_attribute(f'.hand button[data-card="{second}"]', "aria-pressed") == "true"
    page.keyboard.press("a")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#actions button.act').disabled")
    act = server.sent("act")[-1]["action"]
    assert act in [a["notation"] for a in view["actions"] if second in a["cards"]]


def test_four_colour_deck_draws_diamonds_blue(page: Any) -> None:
    game, seat = peel_to_act()
    view = game.view(seat)
    view["table"]["hand"][0] = {"symbols": "7♦", "letters": "7D", "colour": "red"}
    FakeServer(page, lambda hello: [view])
    page.goto(f"{BASE}/t/abc123")
    page.wait_for_selector(".hand .suit-d")
    colour = "() => getComputedStyle(document.querySelector('.hand .suit-d')).color"
    red = page.evaluate(colour)
    page.check("#four-colour")
    assert page.evaluate(colour) != red
    page.reload()
    page.wait_for_selector(".hand .suit-d")
    assert page.is_checked("#four-colour")


def test_lobby_offers_every_preset_with_defaults_and_creates_a_table(page: Any) -> None:
    server = FakeServer(page, lambda hello: [], rest={
        "/api/tables": [{"table_id": "t9", "invite": "zz9", "title": "Pool Commerce",
                         "seated": 1, "seats": 4, "host_name": "<i>Bo</i>"}]})
    page.goto(f"{BASE}/")
    page.wait_for_selector("#ruleset option", state="attached")
    from .fixture import ruleset_entries
    entries = ruleset_entries()
    assert page.locator("#ruleset option").count() == len(entries)
    page.select_option("#ruleset", "widow")
    widow = next(e for e in entries if e["id"] == "widow")
    assert page.locator("#options [data-option]").count() == len(widow["options"])
    assert page.input_value("#seats") == str(max(widow["min_players"], 3))
    assert "<i>Bo</i>" in page.inner_text("#open-tables")
    page.fill("#seats", "4")
    page.dispatch_event("#seats", "input")
    page.select_option('[name="seat-3"]', "search")
    page.select_option('[name="seat-1"]', "random")
    page.select_option('[name="seat-2"]', "human")
    page.uncheck("#public")
    server.rest["/api/tables"] = {"table_id": "t1", "invite": "abc123"}
    page.click("#create-button")
    page.wait_for_url(f"{BASE}/t/abc123")
    method, path, body = [p for p in server.posts if p[1] == "/api/tables"][0]
    assert body["ruleset"] == "widow" and body["seats"] == 4 and body["public"] is False
    assert body["bots"] == {"1": "random", "3": "search"} and body["options"] == {}


@pytest.mark.parametrize("ruleset", ["widow", "cox"])
def test_table_fits_a_phone_without_scrolling_sideways(browser: Any, ruleset: str) -> None:
    game = Game(find_ruleset(ruleset), ["Ann", "Bob", "Cy"][:2 if ruleset == "cox" else 3])
    game.bots_until(0)
    while not game.view(0)["table"]["hand"]:  # the widow's dealer may first look at the widow
        game.act(game.view(0)["actions"][0]["notation"])
        game.bots_until(0)
    context = browser.new_context(viewport={"width": 360, "height": 740})
    context.add_init_script("localStorage.setItem('commerce.token', 'tok-ann')")
    page = context.new_page()
    page.set_default_timeout(10000)
    FakeServer(page, lambda hello: [game.view(0)])
    page.goto(f"{BASE}/t/abc123")
    page.wait_for_selector(".hand .card")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    small = page.evaluate("() => Math.min(...[...document.querySelectorAll('.hand .card')]"
                          ".map(c => c.getBoundingClientRect().width))")
    assert small >= 40  # the player's own cards stay big enough to read and to tap
    page.screenshot(path=str(artifacts() / f"page-phone-{ruleset}.png"), full_page=True)
    context.close()


def test_grouped_buttons_show_their_short_word_and_speak_the_whole_label(page: Any) -> None:
    game = Game(find_ruleset("widow"), ["Ann", "Bob", "Cy"])
    game.bots_until(0)
    while not any(a["group"] for a in game.view(0)["actions"]):
        game.act(game.view(0)["actions"][0]["notation"])
        game.bots_until(0)
    view = game.view(0)
    FakeServer(page, lambda hello: [view])
    page.goto(f"{BASE}/t/abc123")
    page.wait_for_selector(".group-name")
    grouped = [a for a in view["actions"] if a["group"]]
    for a in grouped:
        button = page.locator(f'button[data-notation="{a["notation"]}"]')
        assert button.inner_text() == a["short"] != a["label"]
        assert button.get_attribute("aria-label") == a["label"]
    headings = page.locator(".group-name").all_inner_texts()
    assert sorted(headings) == sorted({a["group"] for a in grouped})


def test_a_turn_timer_counts_down_the_seconds_left(page: Any) -> None:
    import time

    game, seat = peel_to_act()
    view = dict(game.view(seat))
    view["timer"] = {"seat": seat, "name": "Ann", "ends_at": time.time() + 30, "seconds": 30}
    FakeServer(page, lambda hello: [view])
    page.goto(f"{BASE}/t/abc123")
    page.wait_for_selector("#timer:not([hidden])")
    text = page.locator("#timer").inner_text()
    assert text.startswith("Your turn: ") and "s left" in text, text
    left = int(text.split(": ")[1].split(" ")[0])
    assert 25 <= left <= 30
