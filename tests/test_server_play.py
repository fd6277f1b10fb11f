"""The server under play and load: a connection that stops reading, bots' levels and limits,
offers out of turn that show nothing of who holds them."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from commerce import engine
from commerce.rules import Ruleset, find_ruleset
from commerce.server.app import create_app
from commerce.server.botpool import BotPool, Job
from commerce.server.hub import CLOSE_SLOW, Connection, Hub
from commerce.server.live import Hosting
from commerce.server.protocol import ChatMessage
from commerce.server.tables import Table, TableConfig, TableError
from tests.harness.noleak import check_offers, offer_rulesets
from tests.harness.server import Player, close_all


class _Peer:
    """A websocket's far end: reads everything, or (*stalled*) never reads again."""

    def __init__(self, stalled: bool = False) -> None:
        self.stalled = stalled
        self.got: list[str] = []
        self.closed: int | None = None

    async def send_text(self, data: str) -> None:
        if self.stalled:
            await asyncio.Event().wait()  # the peer's buffers are full: this never returns
        self.got.append(data)

    async def close(self, code: int = 1000) -> None:
        self.closed = code


def test_a_connection_that_stops_reading_is_dropped_and_holds_back_no_one() -> None:
    table = Table.new("t", "i", "host", TableConfig("peel", {}, 3),
                      bots={1: "random", 2: "random"})
    table.join("host", "Ann", 0)
    table.start("host", "g1", seed=3)

    async def run() -> tuple[_Peer, _Peer, Connection, Hub]:
        hub = Hub()
        fast, slow = _Peer(), _Peer(stalled=True)
        reader = Connection(fast, "t", 0, "host", capacity=8)
        stuck = Connection(slow, "t", None, None, capacity=8)
        hub.add(reader)
        hub.add(stuck)
        for k in range(40):
            await asyncio.wait_for(hub.send_all("t", ChatMessage(from_="Ann", text=f"{k}")),
                                   1.0)
            await asyncio.sleep(0)
        await asyncio.wait_for(hub.send_views(table), 1.0)
        for _ in range(5):
            await asyncio.sleep(0)
        return fast, slow, stuck, hub

    fast, slow, stuck, hub = asyncio.run(run())
    assert len(fast.got) == 41  # every chat line and the view: nothing held back
    assert stuck.dropped and slow.closed == CLOSE_SLOW
    assert [c.seat for c in hub.connections("t")] == [0]  # the stalled one is forgotten


def test_a_view_the_same_as_the_last_one_sent_is_not_sent_again() -> None:
    table = Table.new("t", "i", "host", TableConfig("peel", {}, 3),
                      bots={1: "random", 2: "random"})
    table.join("host", "Ann", 0)
    table.start("host", "g1", seed=3)

    async def run() -> _Peer:
        hub = Hub()
        peer = _Peer()
        hub.add(Connection(peer, "t", 0, "host"))
        for _ in range(3):
            await hub.send_views(table)
        await asyncio.sleep(0)
        return peer

    assert len(asyncio.run(run()).got) == 1


@pytest.mark.parametrize("rules", offer_rulesets(), ids=lambda r: r.id)
def test_what_a_seat_not_offered_is_sent_shows_no_pending_offer(rules: Ruleset) -> None:
    # Pounce offers are rare (a tricon, and its fourth card in the widow): more games
    games, sample = (8, 1.0) if rules.family == "widow" else (2, 0.5)
    report = check_offers(rules, games=games, sample=sample)
    assert report.offers > 2, f"no offer in {rules.id}: the check saw nothing"
    assert not report.leaks, f"{len(report.leaks)} of {report.checked}:\n" + \
        "\n".join(report.leaks[:5])


def test_bot_levels_come_from_a_fixed_menu_and_think_within_the_servers_cap() -> None:
    for level in ("search:ms=60000", "search:iterations=100000", "god"):
        with pytest.raises(TableError, match="levels are: random, heuristic, search"):
            Table.new("t", "i", "h", TableConfig("peel", {}, 3), bots={1: level})
    table = Table.new("t", "i", "h", TableConfig("peel", {}, 3),
                      bots={1: "search", 2: "heuristic"})
    table.join("h", "Ann", 0)
    table.bot_ms = 40.0
    table.start("h", "g", seed=1, advance=False)
    assert table.driver is not None
    assert [getattr(a, "spec", None) for a in table.driver.agents] == [
        None, "search:ms=40", "heuristic"]


def test_one_player_may_host_only_so_many_tables_and_bots() -> None:
    with TestClient(create_app("sqlite://", hosting=Hosting(tables=2, bots=3))) as client:
        try:
            ann, bob = Player(client, "Ann"), Player(client, "Bob")
            made = [ann.post("/api/tables", {"ruleset": "peel", "seats": 3,
                                             "bots": {"1": "random"}}) for _ in range(3)]
            assert [r.status_code for r in made] == [200, 200, 429]
            assert "may host 2 tables" in made[2].json()["error"]
            table = made[1].json()["table_id"]
            assert ann.post(f"/api/tables/{table}/seats/2", {"kind": "bot"}).status_code == 200
            again = ann.post(f"/api/tables/{made[0].json()['table_id']}/seats/2",
                             {"kind": "bot"})
            assert again.status_code == 429 and "3 bots" in again.json()["error"]
            # another player is not held back by Ann's tables
            assert bob.post("/api/tables", {"ruleset": "peel", "seats": 3, "bots": {
                "1": "random", "2": "random"}}).status_code == 200
        finally:
            close_all()


def test_the_bots_workers_take_each_host_in_turn() -> None:
    pool = BotPool(0)  # one job at a time (threads), so the order is the queue's
    rules = find_ruleset("peel")
    state = engine.new_game(rules, 3)
    while (d := engine.decision(state)) is not None and d.seat is None:
        state = engine.apply(state, engine.sample_chance(state, random.Random(1))).state
    assert d is not None and d.seat is not None
    job = Job("random", engine.observe(state, d.seat), engine.legal_actions(state), 1)
    finished: list[str] = []

    async def run() -> None:
        async def ask(host: str) -> None:
            await pool.decide(host, job)
            finished.append(host)

        tasks = [asyncio.ensure_future(ask(h)) for h in ["many"] * 5 + ["one"]]
        await asyncio.gather(*tasks)

    asyncio.run(run())
    assert finished.index("one") <= 2, finished  # not behind all of the other host's five


def test_the_bots_workers_think_only_on_cores_nothing_else_wants() -> None:
    """The workers run in Linux's idle scheduling class, so that forty tables of search bots
    take no core from the server's threads answering people."""
    pool = BotPool(1)

    async def policy() -> int:
        await pool.start()
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(pool._executor, os.sched_getscheduler, 0)
        finally:
            pool.stop()

    assert asyncio.run(policy()) == os.SCHED_IDLE
    assert os.sched_getscheduler(0) != os.SCHED_IDLE  # the server's own process is not


def test_sigterm_stops_a_busy_server_within_seconds_with_every_game_stored(
        tmp_path: Path) -> None:
    import json
    import os
    import signal
    import socket
    import subprocess
    import sys
    import threading
    import time
    import urllib.request

    from websockets.sync.client import connect

    from commerce.server.db import Store
    from tests.harness.server import public_version

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    url = f"http://127.0.0.1:{port}"
    db = f"sqlite:///{tmp_path / 's.db'}"
    err = (tmp_path / "err").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "commerce", "serve", "--port", str(port), "--db", db,
         "--offer-window", "0.05", "--bot-ms", "50", "--bot-workers", "1"],
        stdout=subprocess.DEVNULL, stderr=err,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})

    def call(path: str, body: object = None, token: str | None = None) -> object:
        request = urllib.request.Request(url + path, data=json.dumps(body).encode(),
                                         method="POST",
                                         headers={"Content-Type": "application/json"})
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=300) as reply:
            return json.loads(reply.read())

    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                host = call("/api/players", {"name": "Host"})
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.2)
        assert isinstance(host, dict)
        tables = []
        for _ in range(3):
            made = call("/api/tables", {"ruleset": "widow", "seats": 3, "offer_window_s": 0.05,
                                        "bots": {"0": "search", "1": "search", "2": "search"}},
                        host["token"])
            assert isinstance(made, dict)
            call(f"/api/tables/{made['table_id']}/start", None, host["token"])
            tables.append(made["table_id"])
        seen = [0]

        def watch() -> None:
            with connect(f"ws://127.0.0.1:{port}/ws/tables/{tables[0]}") as ws:
                ws.send(json.dumps({"type": "hello", "spectate": True}))
                try:
                    while True:
                        msg = json.loads(ws.recv(timeout=10))
                        if msg["type"] == "view":
                            seen[0] = max(seen[0], msg["version"])
                except Exception:  # noqa: BLE001 - the server went away
                    return

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        time.sleep(3)
        assert seen[0] > 0
        began = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=30)
        took = time.monotonic() - began
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        err.close()
    assert took < 5, f"stopped after {took:.1f} s"
    assert code in (0, -signal.SIGTERM), (tmp_path / "err").read_text()[-2000:]
    store = Store.open(db)
    try:
        for table_id in tables:
            table = store.load_table(table_id)
            assert table is not None and table.status == "playing"
        stored = store.load_table(tables[0])
        assert stored is not None
        assert public_version(stored.record()) >= seen[0]  # nothing shown was lost
    finally:
        store.close()


def test_a_person_plays_cox_with_bots_through_offers_at_the_tables_pace() -> None:
    """Over the websocket: every action of the person is held to the table's pace and
    played, or refused as stale (an offer that lapsed, a move the table moved past), through
    the bots' hidden offers; no view repeats the one before."""
    with TestClient(create_app("sqlite://", rate=(1000.0, 1000))) as client:
        try:
            ann = Player(client, "Ann")
            reply = ann.post("/api/tables", {"ruleset": "cox", "seats": 3,
                                             "offer_window_s": 0.02,
                                             "bots": {"1": "random", "2": "heuristic"}})
            table = reply.json()["table_id"]
            ann.connect(table)
            assert ann.post(f"/api/tables/{table}/start").status_code == 200
            rng = random.Random(4)
            made = 0
            while made < 30 and ann.view["status"] != "over":
                msg = ann.until_any("view", "error")
                # the only refusal: an offer that lapsed, or a move the table moved past
                assert msg["type"] == "view" or msg["message"].startswith("stale version"), msg
                if msg["type"] == "view" and ann.view["actions"]:
                    pick = rng.choice(ann.view["actions"])["notation"]
                    ann.send(type="act", action=pick, version=ann.view["version"])
                    made += 1
            views = [json.dumps(m, sort_keys=True) for m in ann.messages if m["type"] == "view"]
            assert all(a != b for a, b in zip(views, views[1:], strict=False))
            assert made == 30 or ann.view["status"] == "over"
        finally:
            close_all()


def test_a_paced_game_ended_by_a_persons_move_is_over() -> None:
    table = Table.new("t", "i", "p0", TableConfig("peel", {}, 3, offer_window_s=0.6))
    for k in range(3):
        table.join(f"p{k}", f"P{k}", k)
    table.start("p0", "g", seed=2, advance=False)
    rng = random.Random(2)
    now = 0.0
    while table.driver is not None and table.driver.outcome() is None:
        now += 1.0
        d = table.driver.decision()
        assert d is not None and d.seat is not None
        pick = rng.choice(table.view(d.seat).actions).notation
        table.act(f"p{d.seat}", pick, table.public_version, advance=False, now=now)
    assert table.status == "over"


def test_a_hint_is_worked_out_by_the_bots_workers_off_the_request_path() -> None:
    with TestClient(create_app(offer_window_s=0.0)) as client:
        server = client.app.state.server  # type: ignore[attr-defined]
        try:
            ann = Player(client, "Ann")
            table = ann.post("/api/tables", {"ruleset": "peel", "seats": 3, "bots": {
                "1": "heuristic", "2": "heuristic"}}).json()["table_id"]
            ann.connect(table)
            assert ann.post(f"/api/tables/{table}/start").status_code == 200
            while not ann.view["actions"]:
                ann.until("view")
            before = server.pool.done
            ann.send(type="hint")
            hint = ann.until("hint")
            assert server.pool.done == before + 1  # one job of the workers' queue
            rows = hint["rows"]
            assert sorted(r["notation"] for r in rows) == sorted(
                a["notation"] for a in ann.view["actions"])
            assert rows[0]["best"] and sum(r["best"] for r in rows) == 1
        finally:
            close_all()


def _children(pid: int) -> set[int]:
    """The processes whose parent is *pid* (read from /proc)."""
    import os

    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry))
    return found


def test_the_bots_workers_end_with_a_server_killed_outright(tmp_path: Path) -> None:
    import os
    import signal
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    proc = subprocess.Popen(
        [sys.executable, "-m", "commerce", "serve", "--port", str(port),
         "--db", f"sqlite:///{tmp_path / 's.db'}", "--bot-workers", "2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 300
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rulesets", timeout=2):
                    break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.2)
        while len(workers) < 2 and time.monotonic() < deadline:
            # the workers, and the pool's own helper process where multiprocessing starts one
            workers = {p for p in _children(proc.pid)
                       if "spawn_main" in Path(f"/proc/{p}/cmdline").read_text()}
            time.sleep(0.2)
        assert len(workers) >= 2
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        while workers and time.monotonic() < deadline:
            workers = {p for p in workers if os.path.exists(f"/proc/{p}") and Path(
                f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"}
            time.sleep(0.2)
        assert not workers, "a worker outlived its server"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for p in workers:
            with contextlib.suppress(OSError):
                os.kill(p, signal.SIGKILL)


@pytest.mark.parametrize("ruleset", ["peel", "vingt-un", "cox"])
def test_every_line_a_spectator_reads_says_one_word_per_count(ruleset: str) -> None:
    short = {"peel": {"deals_each": 1}, "vingt-un": {"deal_limit": "hands", "deal_hands": 2},
             "cox": {"hands_per_game": 1}}[ruleset]
    table = Table.new("t1", "inv", "p1", TableConfig(ruleset, short, 3),
                      bots={0: "random", 1: "random", 2: "random"})
    table.start("p1", "g1", seed=3)
    lines: set[str] = set()
    while True:
        view = table.view(None)
        lines.update(view.log)
        if view.reason:
            lines.add(view.reason)
        if not table.step_bot():
            break
    view = table.view(None)
    lines.update([*view.log, view.reason or ""])
    assert view.status == "over" and view.reason
    assert not [x for x in lines if "(s)" in x], sorted(x for x in lines if "(s)" in x)


def test_once_every_person_is_out_the_bots_play_on_at_a_tenth_of_the_window() -> None:
    table = Table.new("t1", "inv", "p1", TableConfig("pounce", {}, 3, offer_window_s=0.6),
                      bots={1: "heuristic", 2: "heuristic"})
    table.join("p1", "Ann")
    table.start("p1", "g1", seed=4)
    rng = random.Random(4)
    windows = set()
    now, acted = 0.0, -1
    for _ in range(50_000):
        view = table.view(0)
        assert view.table is not None
        if view.status == "over" or view.table.seats[0].out:
            break
        windows.add(table.pace_window())
        if view.actions and acted != view.version:  # a person who plays at random
            table.act("p1", rng.choice(view.actions).notation, view.version,
                      advance=False, now=now)
            acted = view.version
        due = table.next_due(now)
        now = max(now, due if due is not None else now)
        table.tick(now)
    assert windows == {0.6}
    assert view.table.seats[0].out and table.status == "playing"
    assert table.pace_window() == pytest.approx(0.06)


def test_the_standing_puts_who_went_out_later_first_as_the_terminal_does() -> None:
    from commerce.text import standing

    table = Table.new("t1", "inv", "p1", TableConfig("pounce", {"starting_tokens": 2}, 3),
                      bots={0: "random", 1: "random", 2: "random"})
    table.start("p1", "g1", seed=0)
    while table.step_bot():
        pass
    view = table.view(None)
    outcome = engine.outcome(table.driver.state)  # type: ignore[union-attr]
    assert view.standings is not None and outcome is not None
    out_in = outcome.details["out_in"]
    tied = [s.seat for s in view.standings if s.payoff == -2]
    assert len(tied) == 2 and out_in[tied[0]] > out_in[tied[1]]  # the later one first
    assert [s.seat for s in view.standings] == standing(outcome, 3)
