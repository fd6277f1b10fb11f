"""The page's basics against the real server (``commerce serve`` on loopback): names, chat and
log are text and never markup, a spectator sees no hidden card, the keyboard plays, a
newcomer from an invite link gives a name and sits down, the claim link, the four-colour
deck. Every message the server sends the page is checked against its message models."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.harness.rest import call

from .live import ACTIONS, check_messages, record

EVIL = '<img src=x onerror="window.pwned=1">'


def person(browser: Any, who: dict[str, Any] | None, messages: list[dict[str, Any]]) -> Any:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    if who is not None:
        context.add_init_script(
            f"localStorage.setItem('commerce.token', {json.dumps(who['token'])});"
            f"localStorage.setItem('commerce.name', {json.dumps(who['name'])});")
    page = context.new_page()
    page.set_default_timeout(30000)
    record(page, messages)
    return page


def test_names_and_chat_are_text_and_a_spectator_sees_no_hidden_card(browser: Any,
                                                                      server: str) -> None:
    evil = call(server, "/api/players", {"name": EVIL})
    made = call(server, "/api/tables", {"ruleset": "peel", "seats": 3, "bots": {
        "1": "heuristic", "2": "heuristic"}}, evil["token"])
    call(server, f"/api/tables/{made['table_id']}/start", None, evil["token"])
    messages: list[dict[str, Any]] = []
    host, watcher = person(browser, evil, messages), person(browser, None, messages)
    try:
        host.goto(f"{server}/t/{made['invite']}")
        host.locator(ACTIONS).first.wait_for(timeout=90000)
        said = "<b>bold</b><script>window.pwned=2</script>"
        host.fill("#chat-text", said)
        host.press("#chat-text", "Enter")
        host.wait_for_selector("#chat li")
        assert host.locator("#chat li").inner_text() == f"{EVIL}: {said}"
        assert host.locator("main img, main script, #chat li b b").count() == 0
        assert host.evaluate("() => window.pwned") is None
        watcher.goto(f"{server}/t/{made['invite']}?watch")
        watcher.wait_for_selector(".seat")
        assert watcher.locator(".hand .card").count() == 0
        assert watcher.locator(".seats .card:not(.back)").count() == 0
        assert watcher.locator(".seats .card.back").count() == 9
        assert EVIL in watcher.inner_text(".seats")
        assert watcher.evaluate("() => window.pwned") is None
    finally:
        for page in (host, watcher):
            page.context.close()
    check_messages(messages)


def test_the_keyboard_picks_a_card_and_acts(browser: Any, server: str) -> None:
    ann = call(server, "/api/players", {"name": "Ann"})
    made = call(server, "/api/tables", {"ruleset": "peel", "seats": 3, "bots": {
        "1": "heuristic", "2": "heuristic"}}, ann["token"])
    call(server, f"/api/tables/{made['table_id']}/start", None, ann["token"])
    messages: list[dict[str, Any]] = []
    page = person(browser, ann, messages)
    try:
        page.goto(f"{server}/t/{made['invite']}")
        page.locator(ACTIONS).first.wait_for(timeout=90000)
        # the buttons (the turn's actions, or the answers to an offer such as a neighbour's
        # barter) narrow to those naming the card picked; a view that arrives
        # meanwhile may draw the table afresh: compare with the latest view, pick again if the
        # card was let go (a busy machine is slow to draw)
        shown: list[str] = []
        naming: list[str] = []
        for _ in range(100):
            version = page.get_attribute("#board", "data-version")
            second = page.locator(".hand button.card").nth(1)
            if second.get_attribute("aria-pressed") != "true":
                page.keyboard.press("2")
                page.wait_for_timeout(200)
                continue
            card = int(second.get_attribute("data-card") or -1)
            view = [m for m in messages if m["type"] == "view" and m["actions"]][-1]
            naming = [a["notation"] for a in view["actions"] if card in a["cards"]]
            shown = page.eval_on_selector_all(".dock button.act",
                                              "bs => bs.map(b => b.dataset.notation)")
            if naming and sorted(shown) == sorted(naming):
                break
            page.wait_for_timeout(200)
        assert naming and sorted(shown) == sorted(naming), (shown, naming)
        page.keyboard.press("a")
        page.keyboard.press("Enter")
        page.wait_for_selector(f'#board:not([data-version="{version}"])', state="attached")
    finally:
        page.context.close()
    check_messages(messages)


def test_a_newcomer_from_an_invite_link_gives_a_name_and_sits(browser: Any,
                                                               server: str) -> None:
    ann = call(server, "/api/players", {"name": "Ann"})
    made = call(server, "/api/tables", {"ruleset": "widow", "seats": 3,
                                        "bots": {"2": "heuristic"}}, ann["token"])
    messages: list[dict[str, Any]] = []
    bo = person(browser, None, messages)
    try:
        bo.goto(f"{server}/t/{made['invite']}")
        bo.fill("#name", "Bo")
        bo.click("#name-form button")
        bo.click("button.join")
        bo.wait_for_selector(".seats-list li:has-text('Bo (you)')")
        assert "Ann (the host) starts the game" in bo.inner_text("#lobby-room")
        token = bo.evaluate("() => localStorage.getItem('commerce.token')")
        bo.goto(server)
        bo.wait_for_selector("#claim-link", state="attached")
        assert bo.text_content("#claim-link").endswith(f"/#claim={token}")
        bo.check("#four-colour")
        bo.reload()
        bo.wait_for_selector("#rulesets label")
        assert bo.is_checked("#four-colour")
        assert re.search("Playing as Bo", bo.inner_text("#me"))
    finally:
        bo.context.close()
    check_messages(messages)
