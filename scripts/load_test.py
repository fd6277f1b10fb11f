"""How far one ``commerce serve`` goes: many tables at once over real websockets on loopback.

    .venv/bin/python scripts/load_test.py --tables 40 --seconds 60 --kill-at 20

Starts ``commerce serve`` in a subprocess (SQLite in a temporary folder), opens ``--tables``
tables of Peel, each with one scripted player who acts through the websocket protocol (a random
legal action, sent with the version it saw) and two bots, and plays them game after game ("play
again") for ``--seconds``. At ``--kill-at`` seconds it kills the server (SIGKILL: no clean
shutdown) and starts it again on the same database; the players reconnect and go on.

It prints one JSON object: the tables held, the players' actions per second (and every action
the server made, the bots' and chance's included), the latency of a player's action (the intent
sent to the view that shows it applied: median, 95th and 99th percentile, slowest), and the
check: every finished game's record (from the database, through the API) replays through the
engine, and every action a player saw applied is in it once, at the version it was sent for.
``"lost"``, ``"twice"`` and ``"records_missing"`` (a game a player saw end whose record the
database does not hold as finished) must be 0. Exit status 1 when the check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from commerce import engine
from commerce.record import GameRecord, replay_steps

LIMITS = ["--limit-players", "1000/60", "--limit-address-share", "1000"]
"""The server's limits in this run: each scripted player keeps ``commerce serve``'s own limits
per player (tables, hints, messages), but they all come from one address (loopback), which
may make as many players, and as much of each, as a thousand people."""


def free_port() -> int:
    """A port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``commerce serve`` in a subprocess, which can be killed and started again."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        log = (self.folder / f"server-{self.starts}.log").open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "commerce", "serve", "--port", str(self.port),
             "--db", f"sqlite:///{self.folder / 'load.db'}", *LIMITS],
            stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.starts += 1
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise SystemExit(f"commerce serve did not start (see {log.name})")
            try:
                with urllib.request.urlopen(f"{self.url}/api/rulesets", timeout=2):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("commerce serve did not answer within 60 s") from None
                time.sleep(0.1)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def call(url: str, path: str, body: Any = None, token: str | None = None,
         method: str = "POST") -> Any:
    """One REST call; the JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read() or b"null")


@dataclass
class Seat:
    """One scripted player at one table, and what it saw."""

    token: str
    table: str
    rng: random.Random
    sent: dict[tuple[str, int], str] = field(default_factory=dict)
    """(game, version) -> the action sent at that version (the last one sent there)."""
    applied: dict[tuple[str, int], str] = field(default_factory=dict)
    """(game, version) -> the action the player saw applied (a view past that version)."""
    latencies: list[float] = field(default_factory=list)
    games: set[str] = field(default_factory=set)
    finished: set[str] = field(default_factory=set)
    reconnects: int = 0


async def play(server: Server, seat: Seat, until: float) -> None:
    """Play at the table until *until* (monotonic), reconnecting whenever the socket drops."""
    while time.monotonic() < until:
        try:
            await play_connected(server, seat, until)
        except (TimeoutError, OSError, WebSocketException):
            seat.reconnects += 1
            await asyncio.sleep(0.2)


async def play_connected(server: Server, seat: Seat, until: float) -> None:
    ws_url = server.url.replace("http", "ws") + f"/ws/tables/{seat.table}"
    async with connect(ws_url, open_timeout=10) as ws:
        await ws.send(json.dumps({"type": "hello", "token": seat.token}))
        pending: tuple[str, int, str, float] | None = None
        while (left := until - time.monotonic()) > 0:
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=min(30.0, left)))
            except TimeoutError:
                if time.monotonic() >= until:
                    return
                raise
            if msg["type"] != "view" or msg.get("game_id") is None:
                continue
            game, version = msg["game_id"], msg["version"]
            seat.games.add(game)
            if pending is not None and (pending[0] != game or version > pending[1]):
                seat.applied[(pending[0], pending[1])] = pending[2]
                seat.latencies.append(time.perf_counter() - pending[3])
                pending = None
            if msg["status"] == "over":
                seat.finished.add(game)
                await asyncio.to_thread(call, server.url, f"/api/tables/{seat.table}/again",
                                        None, seat.token)
                continue
            if msg["actions"] and pending is None:
                action = seat.rng.choice(msg["actions"])["notation"]
                seat.sent[(game, version)] = action
                pending = (game, version, action, time.perf_counter())
                await ws.send(json.dumps({"type": "act", "action": action, "version": version}))


def check(server: Server, seats: list[Seat]) -> dict[str, int]:
    """Every finished game's record (from the database, through the API) replays through the
    engine. *lost*: actions a player saw applied that are not in the record at the version
    they were sent for. *twice*: actions of the player's seat in the record that the player
    did not send at that version (an intent applied a second time, or at another version)."""
    lost = twice = replayed = 0
    missing: list[str] = []
    for seat in seats:
        for game in sorted(seat.finished):
            try:
                text = json.dumps(call(server.url, f"/api/games/{game}/record", method="GET"))
            except urllib.error.HTTPError as exc:
                missing.append(f"{game}: {exc.code} {exc.read()[:200]!r}")
                continue
            record = GameRecord.from_json(text)
            state = engine.new_game(record.rules, record.players, dealer=record.dealer)
            for version, (_, transition) in enumerate(replay_steps(record)):
                d = engine.decision(state)
                if d is not None and d.seat == 0:  # the scripted player's seat
                    if seat.sent.get((game, version)) != record.actions[version]:
                        twice += 1
                state = transition.state
            replayed += 1
            for (g, version), action in seat.applied.items():
                if g == game and (version >= len(record.actions)
                                  or record.actions[version] != action):
                    lost += 1
    if missing:
        print(f"{len(missing)} finished games without a record, e.g. {missing[:3]}",
              file=sys.stderr)
    return {"records_replayed": replayed, "records_missing": len(missing), "lost": lost,
            "twice": twice}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="commerce-load-"))
    server = Server(folder)
    server.start()
    rng = random.Random(args.seed)
    seats = []
    for k in range(args.tables):
        player = call(server.url, "/api/players", {"name": f"load{k}"})
        table = call(server.url, "/api/tables", {
            "ruleset": "peel", "seats": 3, "bots": {"1": "random", "2": "random"},
            "public": False, "offer_window_s": args.window}, player["token"])
        call(server.url, f"/api/tables/{table['table_id']}/start", None, player["token"])
        seats.append(Seat(player["token"], table["table_id"], random.Random(rng.random())))
    began = time.monotonic()
    until = began + args.seconds
    players = [asyncio.create_task(play(server, s, until)) for s in seats]
    killed_after = None
    if 0 < args.kill_at < args.seconds:
        await asyncio.sleep(args.kill_at)
        await asyncio.to_thread(server.kill)
        killed_after = round(time.monotonic() - began, 1)
        await asyncio.to_thread(server.start)
    await asyncio.gather(*players)
    elapsed = time.monotonic() - began
    try:
        result = check(server, seats)
    finally:
        server.stop()
    games_done = sum(len(s.finished) for s in seats)
    lat = sorted(x * 1000 for s in seats for x in s.latencies)

    def pct(q: float) -> float:
        return round(lat[min(len(lat) - 1, int(q * len(lat)))], 1) if lat else 0.0

    return {
        "tables": args.tables, "seconds": round(elapsed, 1), "offer_window_s": args.window,
        "player_actions": len(lat), "player_actions_per_s": round(len(lat) / elapsed, 1),
        "latency_ms": {"median": round(statistics.median(lat), 1) if lat else 0.0,
                       "p95": pct(0.95), "p99": pct(0.99), "max": pct(1.0)},
        "games_finished": games_done, "killed_after_s": killed_after,
        "reconnects": sum(s.reconnects for s in seats),
        "server_limits": " ".join(LIMITS) + " (the rest commerce serve's defaults)", **result,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--kill-at", type=float, default=10.0,
                   help="seconds into the run to kill and restart the server (0: never)")
    p.add_argument("--window", type=float, default=0.0,
                   help="each table's offer window: the wait before every bot action")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    result = asyncio.run(run(args))
    print(json.dumps(result, indent=1))
    ok = (result["lost"] == 0 and result["twice"] == 0 and result["records_missing"] == 0
          and result["records_replayed"] > 0)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
