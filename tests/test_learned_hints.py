"""Hints from a learned model: ``commerce play --hint learned:model=NAME`` (the plain ``hint``
command, the table's ``h``) and ``commerce serve --hint-model NAME``.

A tiny model is trained once for the module (PyTorch and sb3-contrib, ``commerce[learn]``):
the tests are skipped without them on a developer's machine, failed under ``CI``.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from commerce import engine
from commerce.bots import make_bot
from commerce.cli import main
from commerce.driver import Driver
from commerce.rules import find_ruleset
from tests.harness.rest import call
from tests.harness.rl_deps import need

ROOT = Path(__file__).resolve().parent.parent
ROW = re.compile(r"^\s+(\d+)\)\s+(.*?)\s+plays this\s+(<1|\d+)% of the time(  <- its choice)?$")
"""A row of a learned model's hint: menu number, label, percentage, its choice."""


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A models directory holding ``tiny``, trained for Peel with 4 players, set as
    ``$COMMERCE_MODELS``."""
    need("torch", "learn")
    need("sb3_contrib", "learn")
    out = tmp_path_factory.mktemp("models")
    assert main(["train", "--rules", "peel", "--steps", "32", "--seed", "7", "--out", str(out),
                 "--name", "tiny", "--envs", "4", "--rollout", "8", "--batch", "16",
                 "--epochs", "1", "--hidden", "16", "--eval-deals", "20", "--eval-every", "2",
                 "--snapshot-every", "1"]) == 0
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COMMERCE_MODELS", str(out))
        yield out


def _rows(text: str) -> list[tuple[int, str, float, bool]]:
    """The rows of a learned hint in *text*: (menu number, label, percent, its choice)."""
    out = []
    for line in text.splitlines():
        m = ROW.match(line)
        if m:
            share = 0.5 if m.group(3) == "<1" else float(m.group(3))
            out.append((int(m.group(1)), m.group(2), share, bool(m.group(4))))
    return out


def _at_a_decision(seed: int) -> Driver:
    """Peel with 4 seats, played by the heuristic bot until seat 0 has two moves or more."""
    driver = Driver(find_ruleset("peel"), [None, *(make_bot("heuristic") for _ in range(3))],
                    seed=seed)
    rng = random.Random(seed)
    for _ in range(400):
        driver.run()
        if driver.outcome() is not None:
            break
        legal = engine.legal_actions(driver.state)
        if len(legal) > 1:
            return driver
        driver.act(0, rng.choice(legal))
    pytest.fail("seat 0 never had a choice")


def test_the_hint_of_a_learned_model_is_its_choice_then_its_policy(models: Path) -> None:
    from commerce.cli.hint import hint_text, hinter

    bot = hinter("learned:model=tiny", "peel", 4)
    for seed in range(3):
        driver = _at_a_decision(seed)
        legal = engine.legal_actions(driver.state)
        labels = [engine.format_action(driver.rules, a) for a in legal]
        rows = _rows(hint_text(driver, 0, legal, labels, learned=bot))
        assert sorted(r[0] for r in rows) == list(range(1, len(legal) + 1))
        chosen = bot.act(engine.observe(driver.state, 0), legal, random.Random(0))
        assert rows[0][3] and rows[0][1] == labels[legal.index(chosen)][:22].rstrip()
        assert sum(r[3] for r in rows) == 1
        chances, best = bot.policy(engine.observe(driver.state, 0), legal)
        assert abs(sum(chances) - 1) < 1e-5 and legal[best] == chosen
        assert [r[2] for r in rows[1:]] == sorted((r[2] for r in rows[1:]), reverse=True)


def test_the_plain_hint_command_gives_the_models_hint(
        models: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("hint\nq\n"))
    assert main(["play", "--plain", "--hint", "learned:model=tiny", "--seed", "3", "--save",
                 str(tmp_path / "game.json")]) == 0
    out = capsys.readouterr().out
    assert "The learned player tiny's choice comes first" in out
    rows = _rows(out)
    assert len(rows) >= 2 and rows[0][3] and not any(r[3] for r in rows[1:])
    assert abs(sum(r[2] for r in rows) - 100) <= len(rows) / 2 + 0.5  # whole percents
    assert "search bot's estimates:" not in out


def test_the_tables_h_key_gives_the_models_hint(models: Path) -> None:
    from commerce.cli.hint import hinter
    from commerce.cli.table import TableApp
    from commerce.cli.table.screens import Note
    from tests.harness.table import drive

    driver = Driver(find_ruleset("peel"), [None, *(make_bot("heuristic") for _ in range(3))],
                    seed=3)
    app = TableApp(driver, 0, None, pace="instant", confirm=False,
                   learned=hinter("learned:model=tiny", "peel", 4))

    async def script(pilot: Any) -> str:
        for _ in range(600):  # the player's first decision with a choice
            await pilot.pause(0.05)
            if app.ready() and len(engine.legal_actions(app.driver.state)) > 1:
                break
        await pilot.press("h")
        for _ in range(600):
            await pilot.pause(0.05)
            note = app.screen
            if isinstance(note, Note) and note.name == "hint":
                return str(note.body)
        return ""

    body = drive(app, (100, 40), script)
    assert "The learned player tiny's choice comes first" in body, body
    rows = _rows(body)
    assert len(rows) >= 2 and rows[0][3] and sum(r[3] for r in rows) == 1, body


@pytest.mark.parametrize(("hint", "rules", "message"), [
    ("learned:model=nothere", "peel", "no model 'nothere'"),
    ("learned:model=../tiny", "peel", "model name '../tiny'"),
    ("learned", "peel", "needs a model"),
    ("heuristic", "peel", "--hint: search or learned:model=NAME"),
    ("learned:model=tiny", "trade-and-barter", "plays peel with 4 players, not "
                                               "trade-and-barter with 4"),
])
def test_a_hint_model_that_cannot_serve_is_refused_in_one_line(
        models: Path, tmp_path: Path, hint: str, rules: str, message: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--plain", "--rules", rules, "--hint", hint, "--save",
                 str(tmp_path / "game.json")]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "game.json").exists()  # refused before the game started


def _call(url: str, path: str, body: Any = None, token: str | None = None) -> Any:
    """``POST url+path`` as the player of *token* (a new table waits for the bot workers to
    compile their kernels: a long timeout)."""
    return call(url, path, body, token, timeout=300)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_serve_refuses_a_hint_model_not_among_its_models(
        models: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--models", "tiny", "--hint-model", "other"], ["--hint-model", "tiny"]):
        assert main(["serve", "--port", str(_free_port()), "--db", "sqlite://", *argv]) == 2
        err = capsys.readouterr().err
        assert "--hint-model" in err and "name a model of --models" in err, err
        assert len(err.strip().splitlines()) == 1


def _hint(url: str, token: str, table: str) -> dict[str, Any]:
    """The hint message the player of *token* gets at *table* once it is their turn."""
    from websockets.sync.client import connect

    ws_url = url.replace("http", "ws") + f"/ws/tables/{table}"
    with connect(ws_url, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        deadline = time.monotonic() + 120
        asked = False
        actions: list[Any] = []
        while time.monotonic() < deadline:
            msg = json.loads(ws.recv(timeout=60))
            if msg["type"] == "view" and msg.get("actions") and not asked:
                actions = msg["actions"]
                ws.send(json.dumps({"type": "hint"}))
                asked = True
            elif msg["type"] == "hint":
                msg["asked_at"] = actions
                return dict(msg)
            elif msg["type"] == "error":
                pytest.fail(msg["message"])
        pytest.fail("no hint came")


def test_a_server_with_a_hint_model_gives_its_hints_at_its_own_tables(
        models: Path, tmp_path: Path) -> None:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log = (tmp_path / "serve.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "commerce", "serve", "--port", str(port), "--db",
         f"sqlite:///{tmp_path / 's.db'}", "--models", "tiny", "--hint-model", "tiny",
         "--bot-workers", "1", "--offer-window", "0.05", "--bot-ms", "50"],
        stdout=log, stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src"), "COMMERCE_MODELS": str(models)})
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()[-2000:]
            try:
                with urllib.request.urlopen(f"{url}/api/rulesets", timeout=5):
                    break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.2)
        ann = _call(url, "/api/players", {"name": "Ann"})
        hints = {}
        for seats in (4, 3):  # the model plays Peel with 4: at 3 seats the search bot hints
            made = _call(url, "/api/tables", {"ruleset": "peel", "seats": seats, "bots": {
                str(k): "random" for k in range(1, seats)}}, ann["token"])
            _call(url, f"/api/tables/{made['table_id']}/start", None, ann["token"])
            hints[seats] = _hint(url, ann["token"], made["table_id"])
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()
    learned, search = hints[4], hints[3]
    assert learned["model"] == "tiny"
    rows = learned["rows"]
    assert sorted(r["notation"] for r in rows) == sorted(
        a["notation"] for a in learned["asked_at"])
    assert rows[0]["best"] and sum(r["best"] for r in rows) == 1
    assert abs(sum(r["chance"] for r in rows) - 1) < 0.01
    assert all(r["gain"] is None and r["win"] is None for r in rows)
    assert [r["chance"] for r in rows[1:]] == sorted((r["chance"] for r in rows[1:]),
                                                     reverse=True)
    assert search["model"] == ""
    assert all(r["chance"] is None and r["gain"] is not None for r in search["rows"])
