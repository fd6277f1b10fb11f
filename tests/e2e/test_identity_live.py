"""Who plays on a browser, in real Chromium against ``commerce serve``: a claim link asks
before it replaces the player already there and shows the new name, renaming through the lobby
works, the host's own seat has no "Remove", and no page breaks the server's Content Security
Policy."""

from __future__ import annotations

import json
import urllib.request
from typing import Any


def person(browser: Any) -> tuple[Any, list[str]]:
    """A page in its own browser context, and the console's errors it collects."""
    page = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, errors


def named(page: Any, server: str, name: str) -> str:
    """Choose *name* in the lobby; the player's token."""
    page.goto(server)
    page.fill("#name", name)
    page.click("#name-form button")
    page.wait_for_selector(f"#me:has-text('Playing as {name}')")
    return str(page.evaluate("localStorage.getItem('commerce.token')"))


def me(server: str, token: str) -> dict[str, Any]:
    request = urllib.request.Request(f"{server}/api/players/me",
                                     headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return dict(json.loads(reply.read()))


def test_a_claim_link_asks_before_replacing_the_player_and_shows_the_new_name(
        browser: Any, server: str) -> None:
    ann, _ = person(browser)
    bob, errors = person(browser)
    try:
        ann_token = named(ann, server, "Ann")
        bob_token = named(bob, server, "Bob")
        link = ann.text_content("#claim-link")
        asked: list[str] = []

        def refuse(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.dismiss()
        bob.once("dialog", refuse)
        bob.goto(link)
        bob.wait_for_selector("#me")
        for _ in range(100):  # the page asks the server whose the link is, then asks
            if asked:
                break
            bob.wait_for_timeout(100)
        assert asked and "Ann" in asked[0] and "Bob" in asked[0], asked
        assert "Playing as Bob" in bob.inner_text("#me")
        assert bob.evaluate("localStorage.getItem('commerce.token')") == bob_token

        bob.once("dialog", lambda dialog: dialog.accept())
        bob.goto(link)
        bob.wait_for_selector("#me:has-text('Playing as Ann')")
        assert bob.evaluate("localStorage.getItem('commerce.token')") == ann_token
        assert bob.input_value("#name") == "Ann"
        assert not [e for e in errors if "Content Security Policy" in e], errors
    finally:
        ann.context.close()
        bob.context.close()


def test_renaming_in_the_lobby_renames_the_player(browser: Any, server: str) -> None:
    page, errors = person(browser)
    try:
        token = named(page, server, "Cat")
        page.fill("#name", "  Catherine  ")
        page.click("#name-form button")
        page.wait_for_selector("#me:has-text('Playing as Catherine')")
        assert me(server, token)["name"] == "Catherine"
        page.fill("#name", "You")
        page.click("#name-form button")
        page.wait_for_selector("#notice:has-text('name:')")
        assert me(server, token)["name"] == "Catherine"
        assert not [e for e in errors if "Content Security Policy" in e], errors
    finally:
        page.context.close()


def test_the_hosts_own_seat_has_no_remove(browser: Any, server: str) -> None:
    ann, errors = person(browser)
    bob, _ = person(browser)
    try:
        token = named(ann, server, "Ann")
        request = urllib.request.Request(
            f"{server}/api/tables", method="POST",
            data=json.dumps({"ruleset": "peel", "seats": 3,
                             "bots": {"2": "heuristic"}}).encode(),
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        # a new table waits until the server's bots are compiled (a cold start: a minute)
        with urllib.request.urlopen(request, timeout=300) as reply:
            invite = json.loads(reply.read())["invite"]
        ann.goto(f"{server}/t/{invite}")
        named(bob, server, "Bob")
        bob.goto(f"{server}/t/{invite}")
        bob.locator("button.join, #sit").first.click()
        ann.wait_for_selector(".seats-list li:has-text('Bob')")
        rows = ann.locator(".seats-list li")
        own = rows.nth(0)
        assert "Ann" in own.inner_text() and "(you)" in own.inner_text()
        assert own.locator("button").count() == 0, own.inner_text()
        assert rows.nth(1).locator("button:has-text('Remove')").count() == 1
        assert not [e for e in errors if "Content Security Policy" in e], errors
    finally:
        ann.context.close()
        bob.context.close()
