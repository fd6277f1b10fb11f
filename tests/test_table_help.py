"""The rules at hand: the table's help screen (the ruleset's page in words, what beats what,
the decision at hand explained), the pages shipped with the package, and hints worth asking
for (the search bot's margin and spread, rows grouped where equal)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from commerce import engine
from commerce.bots import make_bot
from commerce.bots.search import Estimate
from commerce.cli.hint import hint_lines
from commerce.cli.table.help import help_body, ruleset_page
from commerce.cli.table.screens import Note
from commerce.core import ActionKind, DecisionKind
from commerce.driver import Driver
from commerce.family import family_spec
from commerce.rules import find_ruleset
from tests.harness import all_rulesets
from tests.harness.table import drive, new_app

ROOT = Path(__file__).resolve().parent.parent
IDENTIFIER = re.compile(r"`|\b\w+_\w+\b|commerce\.|\bengine\b")
"""What must not reach a player's screen: code spans, identifiers, module paths."""


def _plain(renderable: Any, width: int = 80) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


@pytest.mark.parametrize("rules_id", [r.id for r in all_rulesets()])
def test_the_help_renders_the_rulesets_page_in_words(rules_id: str) -> None:
    rules = find_ruleset(rules_id)
    page = ruleset_page(rules_id)
    assert page is not None, f"no page for {rules_id}"
    present = family_spec(rules.family).presentation
    assert present is not None
    ranking = present.rules_help(rules) if present.rules_help is not None else []
    text = _plain(help_body(rules.name, rules_id, ranking, "", "", "keys"))
    assert "The rules" in text and len(text.splitlines()) > 10, text
    found = IDENTIFIER.search(text)
    assert found is None, f"{found.group(0)!r} on the screen:\n{text}"
    assert max(len(line) for line in text.splitlines()) <= 80
    if rules.family != "cox":
        assert "Hands, best first:" in text and "e.g." in text


def _decision(rules_id: str, kind: DecisionKind, *, legal: ActionKind | None = None,
              seeds: int = 20) -> Any:
    """The observation of a seat facing *kind* (with *legal* among its moves) in a game of
    heuristic players."""
    rules = find_ruleset(rules_id)
    for seed in range(seeds):
        driver = Driver(rules, [make_bot("heuristic") for _ in range(4)], seed=seed)
        while driver.outcome() is None:
            d = driver.decision()
            if d is not None and d.seat is not None and d.kind is kind and (
                    legal is None or any(a.kind is legal
                                         for a in engine.legal_actions(driver.state))):
                return engine.observe(driver.state, d.seat)
            driver.step()
    raise AssertionError(f"no {kind} in {seeds} games of {rules_id}")


@pytest.mark.parametrize("rules_id,kind,legal,words", [
    ("widow", DecisionKind.BLIND_EXCHANGE, None, "before you look at your cards"),
    ("pool", DecisionKind.HORSE_OFFER, None, "buy one more counter"),
    ("pounce", DecisionKind.POUNCE_OFFER, None, "four of a kind beats"),
    ("cox", DecisionKind.DISCARD, ActionKind.SELL_OUT, 'say "I sell out"'),
    ("cox", DecisionKind.BUY_OFFER, ActionKind.BUY, "the players between lose their turn"),
    ("peel", DecisionKind.BARTER_REPLY, None, "give one of yours back"),
])
def test_the_decision_at_hand_is_explained_in_words(
        rules_id: str, kind: DecisionKind, legal: ActionKind | None, words: str) -> None:
    obs = _decision(rules_id, kind, legal=legal)
    present = family_spec(find_ruleset(rules_id).family).presentation
    assert present is not None and present.explain is not None
    text = present.explain(obs)
    assert words in text and IDENTIFIER.search(text) is None, text


def test_question_mark_opens_the_help_over_the_table() -> None:
    app = new_app("peel", 7)

    async def script(pilot: Any) -> tuple[str, bool]:
        await pilot.press("question_mark")
        await pilot.pause()
        note = app.screen
        assert isinstance(note, Note) and note.name == "help"
        text = _plain(note.body)
        await pilot.press("space")
        await pilot.pause()
        return text, not isinstance(app.screen, Note)

    text, closed = drive(app, (80, 24), script)
    assert "Now: On your turn you do one thing. Stand if" in " ".join(text.split())
    assert "1. tricon, e.g. A♠ A♥ A♦" in text and "The rules" in text
    assert "ready money" in text and closed


def test_the_pages_are_shipped_with_the_package(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": ""}
    subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(tmp_path)],
                   cwd=ROOT, check=True, capture_output=True, env=env)
    pages = sorted(p.name for p in (tmp_path / "commerce" / "pages").glob("*.md"))
    assert pages == sorted(p.name for p in (ROOT / "docs" / "rulesets").glob("*.md"))
    # the built package reads its own copy
    probe = ("import commerce, sys; from commerce.cli.table.help import ruleset_page; "
             "print(commerce.__file__); sys.stdout.write(ruleset_page('peel') or '')")
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, check=True,
                         capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(tmp_path)}).stdout
    where, text = out.split("\n", 1)
    assert where.startswith(str(tmp_path))
    assert text == (ROOT / "docs" / "rulesets" / "peel.md").read_text(encoding="utf-8")


def test_a_hint_groups_equal_rows_and_gives_its_margin_and_spread() -> None:
    labels = [f"give {c} for 3♥" for c in ("2♠", "4♦", "5♣")] + ["pass", "knock"]
    same = Estimate(1.0, 1.0, 0.0, 200)
    estimates = [same, same, same, Estimate(-0.5, 0.2, 0.1, 200), same]
    text = hint_lines(labels, estimates, 0, "expected change", "deal")
    rows = text.splitlines()
    assert "end of the deal" in text
    assert any(r.startswith("  1-3, 5) 4 moves") and "<- best" in r for r in rows), text
    assert "give 2♠ for 3♥; give 4♦ for 3♥; give 5♣ for 3♥; knock" in " ".join(text.split())
    four = next(r for r in rows if r.startswith("  4)"))
    assert "-0.50 ±0.20  sd 1.41  win  20%  200 runs" in four, four
    intro = len(text.split("  1-3, 5)")[0].splitlines())
    assert len(rows) == intro + 3 and max(len(r) for r in rows) <= 80
