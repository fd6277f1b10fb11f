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

``--db postgres`` runs the server on a throwaway PostgreSQL server (the tests' own); ``--beside
spectator`` adds a spectator who never reads (a socket with a tiny receive buffer), ``--beside
search`` forty tables of search bots, ``--beside all`` a run of each kind, and ``--repeat N``
gives the median of N runs of each, with the players' 95th percentile beside the spectator or
the search tables against the run without them. Every run states the server's limits and the
machine's load at its start and end.

    nice -n 10 .venv/bin/python scripts/load_test.py --tables 100 --seconds 45 --kill-at 15 \\
        --window 0.6 --beside all --repeat 3 [--db postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import http.client
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

    def __init__(self, folder: Path, db: str | None = None,
                 options: tuple[str, ...] = ()) -> None:
        self.folder = folder
        self.db = db or f"sqlite:///{folder / 'load.db'}"
        self.options = options
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        log = (self.folder / f"server-{self.starts}.log").open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "commerce", "serve", "--port", str(self.port),
             "--db", self.db, *LIMITS, *self.options],
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
        except (TimeoutError, OSError, WebSocketException, http.client.HTTPException):
            # the server killed mid-answer (an "again" cut short included): connect again
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
            # a view's version counts the actions that changed the table as a spectator
            # sees it: the player's actions by the version they were made at
            public, last = 0, engine.observe(state, None)
            mine: dict[int, list[str]] = {}
            for index, (_, transition) in enumerate(replay_steps(record)):
                d = engine.decision(state)
                if d is not None and d.seat == 0:  # the scripted player's seat
                    mine.setdefault(public, []).append(record.actions[index])
                    if seat.sent.get((game, public)) != record.actions[index]:
                        twice += 1
                state = transition.state
                obs = engine.observe(state, None)
                public += obs != last
                last = obs
            twice += sum(len(x) - 1 for x in mine.values())
            replayed += 1
            for (g, version), action in seat.applied.items():
                if g == game and mine.get(version) != [action]:
                    lost += 1
    if missing:
        print(f"{len(missing)} finished games without a record, e.g. {missing[:3]}",
              file=sys.stderr)
    return {"records_replayed": replayed, "records_missing": len(missing), "lost": lost,
            "twice": twice}


SERVE_LIMITS = ("--max-tables", "10", "--max-bots", "20", "--bot-ms", "300")
"""The limits every run's server has (those of ``commerce serve`` by default), stated in the
output."""
SEARCH_PER_HOST = 5
"""Search tables per host (three search bots each: within a host's 20 bots)."""


def stalled_spectator(server: Server, table: str) -> socket.socket:
    """A spectator at *table* that never reads: a websocket opened by hand on a socket with
    a tiny receive buffer, which says hello and then reads nothing more."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws/tables/{table} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                  f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    reply = b""
    while b"\r\n\r\n" not in reply:
        reply += sock.recv(1)
    assert b" 101 " in reply.split(b"\r\n", 1)[0], reply
    payload = json.dumps({"type": "hello", "spectate": True}).encode()
    mask = os.urandom(4)
    sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask
                 + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
    return sock


def search_tables(server: Server, count: int, window: float) -> list[str]:
    """*count* tables of three search bots each, started (hosts of five each)."""
    ids: list[str] = []
    token = ""
    for k in range(count):
        if k % SEARCH_PER_HOST == 0:
            token = call(server.url, "/api/players", {"name": f"searcher{k}"})["token"]
        table = call(server.url, "/api/tables", {
            "ruleset": "widow", "seats": 3, "public": False, "offer_window_s": window,
            "bots": {"0": "search", "1": "search", "2": "search"}}, token)
        call(server.url, f"/api/tables/{table['table_id']}/start", None, token)
        ids.append(table["table_id"])
    return ids


def settle(below: float, longest: float = 240.0) -> float:
    """Wait until the machine's load (the one-minute average) is under *below*, at most
    *longest* seconds (0: do not wait); the seconds waited."""
    began = time.monotonic()
    while below > 0 and os.getloadavg()[0] >= below and time.monotonic() - began < longest:
        time.sleep(2.0)
    return round(time.monotonic() - began, 1)


async def run(args: argparse.Namespace, beside: str = "none",
              db: str | None = None) -> dict[str, Any]:
    """One run: the players' tables (and, *beside* them, a spectator who never reads or
    search tables), the server killed and started again, the check."""
    waited = settle(args.settle)
    load = os.getloadavg()[0]
    folder = Path(tempfile.mkdtemp(prefix="commerce-load-"))
    server = Server(folder, db, SERVE_LIMITS)
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
    stalled = stalled_spectator(server, seats[0].table) if beside == "spectator" else None
    searching = (search_tables(server, args.search_tables, args.window)
                 if beside == "search" else [])
    began = time.monotonic()
    until = began + args.seconds
    players = [asyncio.create_task(play(server, s, until)) for s in seats]
    killed_after = None
    if 0 < args.kill_at < args.seconds:
        await asyncio.sleep(args.kill_at)
        await asyncio.to_thread(server.kill)
        killed_after = round(time.monotonic() - began, 1)
        await asyncio.to_thread(server.start)
        if stalled is not None:  # it never notices: a new one takes its place
            stalled.close()
            stalled = stalled_spectator(server, seats[0].table)
    await asyncio.gather(*players)
    elapsed = time.monotonic() - began
    search_games = 0
    try:
        result = check(server, seats)
        for table in searching:
            info = call(server.url, f"/api/tables/{table}", method="GET")
            search_games += len(info.get("games", []))
    finally:
        if stalled is not None:
            stalled.close()
        server.stop()
    games_done = sum(len(s.finished) for s in seats)
    lat = sorted(x * 1000 for s in seats for x in s.latencies)

    def pct(q: float) -> float:
        return round(lat[min(len(lat) - 1, int(q * len(lat)))], 1) if lat else 0.0

    return {
        "beside": beside, "database": (db or "sqlite").split(":", 1)[0],
        "load_at_start": round(load, 2), "settled_s": waited,
        "load_at_end": round(os.getloadavg()[0], 2),
        "tables": args.tables, "seconds": round(elapsed, 1), "offer_window_s": args.window,
        "player_actions": len(lat), "player_actions_per_s": round(len(lat) / elapsed, 1),
        "latency_ms": {"median": round(statistics.median(lat), 1) if lat else 0.0,
                       "p95": pct(0.95), "p99": pct(0.99), "max": pct(1.0)},
        "games_finished": games_done, "killed_after_s": killed_after,
        "reconnects": sum(s.reconnects for s in seats),
        "search_tables": len(searching), "search_games": search_games,
        "limits": " ".join([*LIMITS, *SERVE_LIMITS]) + " (the rest commerce serve's defaults)",
        **result,
    }


def median_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The median of each figure over *runs* (and the check summed: it must stay 0)."""
    out: dict[str, Any] = {"runs": len(runs)}
    out["load_at_start"] = [r["load_at_start"] for r in runs]
    for key in ("player_actions_per_s", "games_finished"):
        out[key] = statistics.median(r[key] for r in runs)
    out["latency_ms"] = {q: statistics.median(r["latency_ms"][q] for r in runs)
                         for q in ("median", "p95", "p99", "max")}
    for key in ("lost", "twice", "records_missing"):
        out[key] = sum(r[key] for r in runs)
    out["records_replayed"] = sum(r["records_replayed"] for r in runs)
    return out


def postgres() -> tuple[str, Any]:
    """A throwaway PostgreSQL server (the tests' own, ``tests/harness/postgres.py``): its URL
    and the context to leave when done."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.harness.postgres import postgres_server

    context = postgres_server()
    return context.__enter__(), context


def besides(text: str) -> list[str]:
    """``--beside``'s kinds of run, in order, 'none' first where it is one of them."""
    kinds = ["none", "spectator", "search"] if text == "all" else text.split(",")
    for kind in kinds:
        if kind not in ("none", "spectator", "search"):
            raise argparse.ArgumentTypeError(f"no such kind of run: {kind!r}")
    return sorted(dict.fromkeys(kinds), key=("none", "spectator", "search").index)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--kill-at", type=float, default=10.0,
                   help="seconds into the run to kill and restart the server (0: never)")
    p.add_argument("--window", type=float, default=0.0,
                   help="each table's offer window: the wait before every bot action")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--db", default=None, metavar="URL",
                   help="the server's database (default: SQLite in a temporary folder); "
                        "'postgres' starts a throwaway PostgreSQL server")
    p.add_argument("--beside", type=besides, default="none",
                   help="what else the server holds beside the players' tables: 'none', "
                        "'spectator' (one who never reads), 'search' (search tables), a list "
                        "such as 'none,search', or 'all' (none,spectator,search): a run of "
                        "each, and the players' 95th percentile beside each against 'none'")
    p.add_argument("--search-tables", type=int, default=40,
                   help="all-bot tables of the search bot, for --beside search")
    p.add_argument("--settle", type=float, default=0.0, metavar="LOAD",
                   help="before each run, wait (up to 4 minutes) until the machine's load is "
                        "under LOAD (0: start at once)")
    p.add_argument("--repeat", type=int, default=1,
                   help="runs of each kind; the figures are their median")
    args = p.parse_args()
    context = None
    db = args.db
    if db == "postgres":
        db, context = postgres()
    try:
        kinds = args.beside
        runs: dict[str, list[dict[str, Any]]] = {k: [] for k in kinds}
        for _ in range(args.repeat):
            for kind in kinds:
                runs[kind].append(asyncio.run(run(args, kind, db)))
                print(json.dumps(runs[kind][-1]), file=sys.stderr, flush=True)
    finally:
        if context is not None:
            context.__exit__(None, None, None)
    if args.repeat == 1 and len(kinds) == 1:
        result = runs[kinds[0]][0]
    else:
        result = {kind: median_of(r) for kind, r in runs.items()}
        base = result.get("none")
        if base is not None:
            for kind in kinds[1:]:
                result[kind]["p95_vs_none"] = round(
                    result[kind]["latency_ms"]["p95"] / max(base["latency_ms"]["p95"], 1e-9), 2)
        result["check"] = {k: sum(r[k] for rs in runs.values() for r in rs)
                           for k in ("lost", "twice", "records_missing", "records_replayed")}
    print(json.dumps(result, indent=1))
    check = result["check"] if "check" in result else result
    ok = (check["lost"] == 0 and check["twice"] == 0 and check["records_missing"] == 0
          and check["records_replayed"] > 0)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
