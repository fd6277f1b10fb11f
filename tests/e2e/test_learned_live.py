"""A learned model in the browser: the server's operator lists it (``commerce serve --models``)
and the lobby's seat menu offers it for the ruleset and seats it plays, and only there."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from commerce.cli import main
from tests.harness.rest import call
from tests.harness.rl_deps import need

from .live import serve


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    need("torch", "learn")
    need("sb3_contrib", "learn")
    models = tmp_path_factory.mktemp("models")
    assert main(["train", "--rules", "peel", "--steps", "32", "--seed", "7", "--out",
                 str(models), "--name", "tiny", "--envs", "4", "--rollout", "8", "--batch",
                 "16", "--epochs", "1", "--hidden", "16", "--eval-deals", "4",
                 "--eval-every", "2", "--snapshot-every", "1"]) == 0
    with serve(tmp_path_factory.mktemp("server"), "--models", "tiny",
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
