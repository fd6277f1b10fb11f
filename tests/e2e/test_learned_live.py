"""A learned model in the browser: the server's operator lists it (``commerce serve --models``)
and the lobby's seat menu offers it for the ruleset and seats it plays, and only there; made
the hint model (``--hint-model``), it gives the hints at its tables."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from commerce.cli import main
from tests.harness.rest import call
from tests.harness.rl_deps import need

from .live import ACTIONS, check_messages, record, serve


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    need("torch", "learn")
    need("sb3_contrib", "learn")
    models = tmp_path_factory.mktemp("models")
    assert main(["train", "--rules", "peel", "--steps", "32", "--seed", "7", "--out",
                 str(models), "--name", "tiny", "--envs", "4", "--rollout", "8", "--batch",
                 "16", "--epochs", "1", "--hidden", "16", "--eval-deals", "4",
                 "--eval-every", "2", "--snapshot-every", "1"]) == 0
    with serve(tmp_path_factory.mktemp("server"), "--models", "tiny", "--hint-model", "tiny",
               env={"COMMERCE_MODELS": str(models)}) as url:
        yield url


def test_the_seat_menu_offers_a_listed_model_where_it_plays(browser: Any, served: str) -> None:
    ann = call(served, "/api/players", {"name": "Ann"})
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(f"localStorage.setItem('commerce.token', {json.dumps(ann['token'])});"
                            f"localStorage.setItem('commerce.name', 'Ann');")
    page = context.new_page()
    page.set_default_timeout(30000)
    try:
        page.goto(served)
        page.locator("label.ruleset-choice", has_text="Peel's new mode").first.click()
        page.fill("#seats", "4")
        page.dispatch_event("#seats", "input")

        def offered() -> list[str]:
            values: list[str] = page.eval_on_selector_all(
                'select[name="seat-1"] option', "os => os.map(o => o.value)")
            return values
        assert offered() == ["human", "random", "heuristic", "search", "learned:tiny"]
        page.select_option('select[name="seat-1"]', "learned:tiny")
        page.fill("#seats", "3")  # the model plays four seats: gone at three
        page.dispatch_event("#seats", "input")
        assert "learned:tiny" not in offered()
        assert page.eval_on_selector('select[name="seat-1"]', "s => s.value") == "human"
        page.fill("#seats", "4")
        page.dispatch_event("#seats", "input")
        page.select_option('select[name="seat-1"]', "learned:tiny")
        page.click("#create-button")
        page.wait_for_selector("#start")
        assert "learned" in page.inner_text("#lobby-room")
    finally:
        context.close()


def test_the_hint_model_gives_the_hint_at_its_tables(browser: Any, served: str) -> None:
    ann = call(served, "/api/players", {"name": "Ann"})
    made = call(served, "/api/tables", {"ruleset": "peel", "seats": 4, "bots": {
        "1": "random", "2": "random", "3": "random"}}, ann["token"])
    call(served, f"/api/tables/{made['table_id']}/start", None, ann["token"])
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(f"localStorage.setItem('commerce.token', {json.dumps(ann['token'])});"
                            f"localStorage.setItem('commerce.name', 'Ann');")
    page = context.new_page()
    page.set_default_timeout(30000)
    messages: list[dict[str, Any]] = []
    record(page, messages)
    try:
        page.goto(f"{served}/t/{made['invite']}")
        page.locator(ACTIONS).first.wait_for(timeout=90000)
        labels = page.eval_on_selector_all(ACTIONS, "bs => bs.map(b => b.getAttribute("
                                                    "'aria-label'))")
        page.click("#hint-button")
        page.wait_for_selector("#hints li.best, #notice:not(:empty)", timeout=120000)
        assert page.inner_text("#notice") == ""
        rows = page.locator("#hints li").all_inner_texts()
        assert rows[0].startswith("Its choice: "), rows
        assert rows[0].removeprefix("Its choice: ").split(": ")[0] in labels, (rows, labels)
        shares = [re.search(r": plays this (\d+|under 1)% of the time$", r) for r in rows[:-1]]
        assert all(shares), rows
        assert "The learned player tiny's choice comes first" in rows[-1]
    finally:
        context.close()
    check_messages(messages)
