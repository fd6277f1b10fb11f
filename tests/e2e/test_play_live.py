"""Two people in two browsers at one table of the real server (``commerce serve`` on loopback),
with a bot in the third seat: they create and join through the lobby, play a whole deal of
Peel and of the widow game, one reloads mid-deal and goes on, and a spectator sees no hidden
card. Screenshots are left in the artifacts folder."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from .browser import artifacts
from .live import ACTIONS, take_turns


def person(browser: Any) -> Any:
    page = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
    page.set_default_timeout(15000)
    return page


YOUR_SEAT = "[...document.querySelectorAll('.seat')].findIndex((e) => e.matches('.you'))"


def your_seat_index(page: Any) -> int:
    """The position of the viewer's own seat among the seats drawn."""
    return int(page.evaluate(YOUR_SEAT))


def deal_number(page: Any) -> int:
    m = re.search(r"(?:deal|hand) (\d+)", page.inner_text("#progress"))
    return int(m.group(1)) if m else 0


@pytest.mark.parametrize("ruleset", ["peel", "widow"])
def test_two_browsers_and_a_bot_play_a_deal(browser: Any, server: str, ruleset: str) -> None:
    ann, bob, watcher = person(browser), person(browser), person(browser)
    try:
        ann.goto(server)
        ann.fill("#name", "Ann")
        ann.check(f'#rulesets input[value="{ruleset}"]')
        ann.fill("#seats", "3")
        ann.dispatch_event("#seats", "input")
        ann.select_option('[name="seat-1"]', "human")
        ann.select_option('[name="seat-2"]', "heuristic")
        ann.click("#create-button")
        ann.wait_for_url(re.compile(r"/t/"))
        invite = ann.url.split("/t/")[1]

        bob.goto(f"{server}/t/{invite}")
        bob.fill("#name", "Bob")
        bob.click("#name-form button")
        bob.locator("button.join, #sit").first.click()
        # the host starts once the waiting room shows Bob seated
        ann.wait_for_selector(".seats-list li:has-text('Bob')")
        ann.click("#start")
        for page in (ann, bob):
            # a hand, or (the widow game's dealer, who decides on the widow before looking at
            # his cards) the actions of his first decision
            page.wait_for_selector(f".hand .card, {ACTIONS}", timeout=30000)
        watcher.goto(f"{server}/t/{invite}?watch")
        watcher.wait_for_selector(".seat")

        rng = random.Random(5)
        reloaded = []

        def reload_once(clicks: int) -> None:
            if clicks == 2 and not reloaded:
                reloaded.append(bob.url)
                seat_before = your_seat_index(bob)
                bob.reload()
                bob.wait_for_selector(".seat.you")
                # the same seat as before the reload, and the game goes on from it
                assert your_seat_index(bob) == seat_before >= 0
                # the spectator, meanwhile, sees only backs around the table
                assert watcher.locator(".seats .card:not(.back)").count() == 0
                assert watcher.locator(".hand").count() == 0

        reload_deal: list[int] = []

        def deal_over() -> bool:
            # the deal in which Bob reloaded is played to its end
            if not reloaded:
                return False
            if not reload_deal:
                reload_deal.append(deal_number(ann))
            return deal_number(ann) != reload_deal[0] or ann.locator("#again").count() > 0

        clicks = take_turns([ann, bob], deal_over, rng, each=reload_once)
        assert clicks > 2 and reloaded
        ann.screenshot(path=str(artifacts() / f"live-{ruleset}-ann.png"), full_page=True)
        bob.screenshot(path=str(artifacts() / f"live-{ruleset}-bob.png"), full_page=True)
        assert ann.locator("#log li").count() > 0
    finally:
        for page in (ann, bob, watcher):
            page.context.close()
