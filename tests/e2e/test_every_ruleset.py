"""Every ruleset's table through the page: one seat played by clicks in Chromium (a card, then
the verb), the others by a bot, through one deal; the page offers exactly the legal actions
each time, draws the seat's cards and the others' backs, and Cox's controls are buttons."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from commerce import engine
from commerce.rules import rulesets

from .browser import artifacts, chromium
from .fixture import Game
from .pagefix import BASE, FakeServer

NAMES = ["Ann", "Bob", "Cy", "Di"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def deal_of(view: dict[str, Any]) -> int:
    m = re.search(r"(?:deal|hand) (\d+)", view["table"]["progress"])
    return int(m.group(1)) if m else 0


@pytest.mark.parametrize("ruleset", list(rulesets()), ids=lambda r: r.id)
def test_one_deal_through_the_page(browser: Any, ruleset: Any) -> None:
    players = min(max(ruleset.min_players, 3), ruleset.max_players)
    game = Game(ruleset, NAMES[:players], seed=7)
    game.bots_until(0)

    def on_message(msg: dict[str, Any]) -> list[dict[str, Any]]:
        if msg["type"] == "act":
            game.act(msg["action"])
            game.bots_until(0)
        return [game.view(0)]

    context = browser.new_context(viewport={"width": 900, "height": 1000})
    context.add_init_script("localStorage.setItem('commerce.token', 'tok-ann')")
    page = context.new_page()
    page.set_default_timeout(10000)
    server = FakeServer(page, on_message, on_act=on_message)
    page.goto(f"{BASE}/t/abc123")
    rng = random.Random(3)
    first_deal = deal_of(game.view(0))
    labels: set[str] = set()
    try:
        for _ in range(150):
            view = game.view(0)
            page.wait_for_selector(f'#board[data-version="{view["version"]}"]', state="attached")
            shown = page.eval_on_selector_all(
                "#offers button, #actions button", "bs => bs.map(b => b.dataset.notation)")
            assert sorted(shown) == sorted(a["notation"] for a in view["actions"])
            hand = view["table"]["hand"]
            assert page.locator(".hand .card").count() == len(hand)
            backs = sum(s["hidden"] for s in view["table"]["seats"])
            assert page.locator(".seats .card.back").count() == backs
            if engine.is_terminal(game.state) or deal_of(view) != first_deal:
                break
            labels.update(a["label"] for a in view["actions"])
            action = rng.choice(view["actions"])
            mine = [c for c in action["cards"] if c in view["table"]["hand_cards"]]
            if mine and not action["out_of_turn"]:
                page.click(f'.hand button[data-card="{mine[0]}"]')
                assert page.locator("#actions button").count() == len(
                    [a for a in view["actions"] if mine[0] in a["cards"]
                     and not a["out_of_turn"]])
            page.click(f'button[data-notation="{action["notation"]}"]')
            page.wait_for_selector(f'#board:not([data-version="{view["version"]}"])',
                                   state="attached")
        assert server.sent("act"), "the page's seat never acted"
        assert engine.is_terminal(game.state) or deal_of(game.view(0)) != first_deal, \
            "the deal did not end"
        if ruleset.family == "cox":
            assert any(label.startswith("draw") for label in labels)
            assert any(label.startswith("discard") for label in labels)
        page.screenshot(path=str(artifacts() / f"page-{ruleset.id}.png"), full_page=True)
    finally:
        context.close()
