"""The FastAPI app: the lobby's REST API, the tables' websockets and the page.

:func:`create_app` builds one app on one database; everything it holds lives in the app (no
process-wide state), so a test may run several on one database, one after the other, as a
restarted server would. See ``docs/server.md`` for the API and the messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from commerce import engine
from commerce.errors import CommerceError
from commerce.family import family_spec
from commerce.record import replay_steps
from commerce.rules import (
    family_option_names,
    option_bounds,
    option_choices,
    option_doc,
    rulesets,
)
from commerce.server.botpool import BotPool
from commerce.server.cluster import Cluster
from commerce.server.db import Player, Store
from commerce.server.hub import Connection, RateLimit
from commerce.server.live import ApiError, Limits, Server
from commerce.server.protocol import (
    ActIntent,
    ChatIntent,
    CreatePlayer,
    CreateTable,
    ErrorMessage,
    GameSummary,
    HelloIntent,
    HintIntent,
    HintMessage,
    JoinTable,
    LobbyMessage,
    OptionInfo,
    PlayerReply,
    PongMessage,
    ProtocolError,
    RulesetInfo,
    SeatChange,
    TableCreated,
    TableInfo,
    parse_client,
)
from commerce.server.tables import Table, TableConfig, TableError

__all__ = ["create_app"]

HELLO_TIMEOUT_S = 30.0
"""How long a new websocket may take to say hello."""
DEFAULT_OFFER_WINDOW_S = 0.0
"""The out-of-turn offer window of a networked table when the host sets none."""


def _ruleset_infos() -> list[RulesetInfo]:
    out = []
    for rules in rulesets():
        options = []
        for name in family_option_names(rules):
            choices = option_choices(name)
            bounds = option_bounds(name)
            options.append(OptionInfo(
                name=name, default=getattr(rules, name),
                choices=None if choices is None else list(choices),
                min=None if bounds is None else bounds[0],
                max=None if bounds is None else bounds[1], doc=option_doc(name)))
        out.append(RulesetInfo(id=rules.id, title=rules.name, family=rules.family,
                               version=rules.version, min_players=rules.min_players,
                               max_players=rules.max_players, options=options,
                               unit=family_spec(rules.family).unit))
    return out


def _static_dir() -> Path | None:
    folder = Path(__file__).parent / "static"
    return folder if (folder / "index.html").is_file() else None


def create_app(db_url: str = "sqlite://", *,
               offer_window_s: float = DEFAULT_OFFER_WINDOW_S,
               rate: tuple[float, int] = (20.0, 40), limits: Limits | None = None,
               bot_workers: int = 0, warm: bool = False) -> FastAPI:
    """The app on the database at *db_url* (migrated at start; ``sqlite://`` keeps it in
    memory). *offer_window_s*: the default window of out-of-turn offers on new tables;
    *rate*: the messages a second and the burst one connection may send; *limits*: what one
    player may ask of the server (tables, bots, the search bot's time); *bot_workers*: the
    processes the bots think in (0: threads of this one); *warm*: compile every bot's kernels
    before serving."""
    store = Store.open(db_url)
    server = Server(store, rate, limits=limits, pool=BotPool(bot_workers))
    if store.engine.url.get_backend_name() == "postgresql":
        dsn = store.engine.url.set(drivername="postgresql").render_as_string(
            hide_password=False)
        server.cluster = Cluster(dsn, perform=server.perform_here, refresh=server.refresh,
                                 chat=server.chat_from_elsewhere, took_over=server.took_over)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await server.pool.start(server.warm_specs() if warm else ())
        if server.cluster is not None:
            await server.cluster.start()
        yield
        await server.stop()
        store.close()

    app = FastAPI(title="Commerce", lifespan=lifespan)
    app.state.server = server

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def bad_body(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "bad request"}
        where = ".".join(str(x) for x in first.get("loc", ())[1:]) or "body"
        return JSONResponse({"error": f"{where}: {first.get('msg', 'bad value')}"},
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    async def me(authorization: str | None) -> Player:
        token = None
        if authorization and authorization.startswith("Bearer "):
            token = authorization[len("Bearer "):].strip()
        player = await run_in_threadpool(store.player_by_token, token)
        if player is None:
            raise ApiError(401, "send a player's token: Authorization: Bearer <token>")
        return player

    # -- players -----------------------------------------------------------------------------
    @app.post("/api/players")
    async def create_player(body: CreatePlayer) -> PlayerReply:
        name = " ".join(body.name.split())
        if not name:
            raise ApiError(422, "name: write a name to play under")
        p = await run_in_threadpool(store.create_player, name)
        return PlayerReply(player_id=p.id, name=p.name, token=p.token)

    @app.get("/api/players/me")
    async def get_me(authorization: str | None = Header(default=None)) -> dict[str, Any]:
        p = await me(authorization)
        tables = await run_in_threadpool(store.tables_of, p.id)
        games = await run_in_threadpool(store.games_of, p.id)
        return {"player_id": p.id, "name": p.name, "tables": tables,
                "games": [GameSummary(**g).model_dump() for g in games]}

    # -- lobby -------------------------------------------------------------------------------
    @app.get("/api/rulesets")
    async def get_rulesets() -> list[RulesetInfo]:
        return _ruleset_infos()

    @app.post("/api/tables")
    async def create_table(body: CreateTable,
                           authorization: str | None = Header(default=None)) -> TableCreated:
        p = await me(authorization)
        await server.check_host(p.id, tables=1, bots=len(body.bots))
        await server.pool.ready()  # a new table waits for the bots' kernels
        window = body.offer_window_s if body.offer_window_s is not None else offer_window_s
        config = TableConfig(body.ruleset, dict(body.options), body.seats, body.public,
                             body.hints, body.timeout_s, body.turn_timer_s, window)
        table_id, invite = secrets.token_hex(8), secrets.token_urlsafe(6)
        try:
            table = Table.new(table_id, invite, p.id, config, bots=body.bots)
            if window <= 0 < offer_window_s and table.hides_offers():
                # offers to one seat alone are hidden only at the table's pace
                table.config = dataclasses.replace(config, offer_window_s=offer_window_s)
            if 0 not in body.bots:
                table.join(p.id, p.name, 0)
        except TableError as exc:
            raise ApiError(400, str(exc)) from None
        await run_in_threadpool(store.save_table, table)
        server.tables[table_id] = table
        if server.cluster is not None:
            await server.cluster.claim(table_id)  # a new table: this process owns it
        return TableCreated(table_id=table_id, invite=invite)

    @app.get("/api/tables")
    async def open_tables() -> list[TableInfo]:
        ids = await run_in_threadpool(store.public_tables)
        return [server.info(await server.table(i)) for i in ids]

    @app.get("/api/tables/{key}")
    async def get_table(key: str) -> TableInfo:
        return server.info(await server.table(key))

    @app.post("/api/tables/{key}/join")
    async def join(key: str, body: JoinTable | None = None,
                   authorization: str | None = Header(default=None)) -> TableInfo:
        p = await me(authorization)
        seat = None if body is None else body.seat
        await server.perform(key, {"op": "join", "player": p.id, "name": p.name, "seat": seat})
        return server.info(await server.table(key))

    @app.post("/api/tables/{key}/start")
    async def start(key: str, authorization: str | None = Header(default=None)) -> TableInfo:
        p = await me(authorization)
        await server.perform(key, {"op": "start", "player": p.id})
        return server.info(await server.table(key))

    @app.post("/api/tables/{key}/again")
    async def again(key: str, authorization: str | None = Header(default=None)) -> TableInfo:
        p = await me(authorization)
        await server.perform(key, {"op": "again", "player": p.id})
        return server.info(await server.table(key))

    @app.post("/api/tables/{key}/seats/{seat}")
    async def set_seat(key: str, seat: int, body: SeatChange,
                       authorization: str | None = Header(default=None)) -> TableInfo:
        p = await me(authorization)
        await server.perform(key, {"op": "seat", "player": p.id, "seat": seat,
                                   "kind": body.kind, "level": body.level})
        return server.info(await server.table(key))

    @app.delete("/api/tables/{key}/seats/{seat}")
    async def remove_seat(key: str, seat: int,
                          authorization: str | None = Header(default=None)) -> TableInfo:
        p = await me(authorization)
        await server.perform(key, {"op": "remove", "player": p.id, "seat": seat})
        return server.info(await server.table(key))

    # -- records -----------------------------------------------------------------------------
    async def finished(game_id: str) -> Any:
        found = await run_in_threadpool(store.game_record, game_id[:40])
        if found is None:
            raise ApiError(404, "no such game")
        record, complete = found
        if not complete:
            raise ApiError(403, "the game is not over: its record is served once it ends")
        return record

    @app.get("/api/games/{game_id}/record")
    async def game_record(game_id: str) -> Response:
        record = await finished(game_id)
        return Response(record.to_json(), media_type="application/json")

    @app.get("/api/games/{game_id}/replay")
    async def game_replay(game_id: str) -> dict[str, Any]:
        record = await finished(game_id)
        return await run_in_threadpool(_replay, record)

    # -- play --------------------------------------------------------------------------------
    @app.websocket("/ws/tables/{key}")
    async def play(ws: WebSocket, key: str) -> None:
        await ws.accept()
        await _session(server, ws, key)

    # -- the page ----------------------------------------------------------------------------
    static = _static_dir()
    if static is not None:
        app.mount("/static", StaticFiles(directory=static), name="static")

        @app.get("/", include_in_schema=False)
        async def index() -> FileResponse:
            return FileResponse(static / "index.html")

        @app.get("/t/{invite}", include_in_schema=False)
        async def invite_page(invite: str) -> FileResponse:
            return FileResponse(static / "index.html")

    return app


def _replay(record: Any) -> dict[str, Any]:
    """A finished game step by step, every hand shown."""
    spec = family_spec(record.rules.family)
    names = [s.name for s in record.seats] or [f"Seat {k + 1}" for k in range(record.players)]
    steps: list[dict[str, Any]] = []
    present = spec.presentation
    for action, transition in replay_steps(record):
        state = transition.state
        lines = [x for e in transition.events
                 if (x := spec.describe_event(e, names, None) or "")]
        table = None
        if present is not None and present.table is not None:
            table = dataclasses.asdict(present.table(engine.reveal_all(state), names))
        steps.append({"action": spec.format_action(action), "log": lines, "table": table})
    return {"game": {"ruleset": record.rules.id, "players": record.players, "names": names,
                     "payoffs": None if record.payoffs is None else list(record.payoffs)},
            "steps": steps}


async def _session(server: Server, ws: WebSocket, key: str) -> None:
    """One websocket: hello, then intents until it closes."""
    try:
        text = await asyncio.wait_for(_receive(ws), HELLO_TIMEOUT_S)
        hello = parse_client(text) if text is not None else None
    except (TimeoutError, ProtocolError) as exc:
        await ws.send_text(ErrorMessage(message=str(exc) or "say hello first")
                           .model_dump_json())
        await ws.close(code=4400)
        return
    if not isinstance(hello, HelloIntent):
        if hello is not None:
            await ws.send_text(ErrorMessage(message="say hello first").model_dump_json())
            await ws.close(code=4400)
        return
    try:
        table = await server.table(key)
    except ApiError as exc:
        await ws.send_text(ErrorMessage(message=exc.message).model_dump_json())
        await ws.close(code=4404)
        return
    player = await run_in_threadpool(server.store.player_by_token, hello.token)
    if hello.token is not None and player is None:
        await ws.send_text(ErrorMessage(message="unknown player token").model_dump_json())
        await ws.close(code=4401)
        return
    player_id = None if player is None or hello.spectate else player.id
    seat = table.seat_of(player_id)
    conn = Connection(ws, table.table_id, seat, player_id,
                      limit=RateLimit(rate=server.rate[0], burst=server.rate[1]))
    server.hub.add(conn)
    try:
        if seat is not None:
            task = server.away_tasks.pop((table.table_id, seat), None)
            if task is not None:
                task.cancel()
            if table.seats[seat].away:
                await server.perform(table.table_id, {"op": "away", "seat": seat, "away": False})
        await conn.send(LobbyMessage(table=server.info(table)))
        for line in list(table.chat):
            await conn.send(line)
        await conn.send(table.view(conn.seat))
        while True:
            text = await _receive(ws)
            if text is None:
                break
            if not conn.limit.allow():
                await conn.send(ErrorMessage(message="too many messages: slow down"))
                continue
            await _handle(server, table, conn, text)
    finally:
        server.hub.remove(conn)
        _maybe_away(server, table, conn.seat)


async def _receive(ws: WebSocket) -> str | None:
    """The next text message, or None once the socket closes."""
    try:
        message = await ws.receive()
    except (WebSocketDisconnect, RuntimeError):
        return None
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is None:
        data = message.get("bytes") or b""
        return data.decode("utf-8", "replace") if len(data) <= 8192 else "x" * 8192
    return str(text)


async def _handle(server: Server, table: Table, conn: Connection, text: str) -> None:
    """One client message: answered, or refused with one error that changes nothing."""
    table = await server.table(table.table_id)  # in a cluster, the latest read of it
    try:
        msg = parse_client(text)
    except ProtocolError as exc:
        await conn.send(ErrorMessage(message=str(exc)))
        return
    try:
        if isinstance(msg, ActIntent):
            await server.perform(table.table_id, {"op": "act", "player": conn.player_id,
                                                  "action": msg.action,
                                                  "version": msg.version})
        elif isinstance(msg, ChatIntent):
            table = await server.table(table.table_id)
            line = table.say(conn.player_id, msg.text)
            await server.hub.send_all(table.table_id, line)
            if server.cluster is not None:
                await server.cluster.say(table.table_id, line.from_, line.text)
        elif isinstance(msg, HintIntent):
            rows = await run_in_threadpool(table.hint, conn.player_id)
            await conn.send(HintMessage(rows=rows))
        elif isinstance(msg, HelloIntent):
            await conn.send(ErrorMessage(message="already said hello"))
        else:
            await conn.send(PongMessage())
    except ApiError as exc:
        await conn.send(ErrorMessage(message=exc.message))
    except TableError as exc:
        await conn.send(ErrorMessage(message=str(exc)))
    except CommerceError as exc:  # pragma: no cover - every refusal is a TableError
        await conn.send(ErrorMessage(message=str(exc)))


def _maybe_away(server: Server, table: Table, seat: int | None) -> None:
    """A seat with no connection left: a bot plays for it after the table's timeout."""
    if seat is None or seat in server.hub.connected_seats(table.table_id):
        return
    if table.seats[seat].kind != "human":
        return

    async def later() -> None:
        await asyncio.sleep(table.config.timeout_s)
        if seat not in server.hub.connected_seats(table.table_id):
            await server.perform(table.table_id, {"op": "away", "seat": seat, "away": True})
        server.away_tasks.pop((table.table_id, seat), None)

    key = (table.table_id, seat)
    old = server.away_tasks.pop(key, None)
    if old is not None:
        old.cancel()
    with contextlib.suppress(RuntimeError):
        server.away_tasks[key] = asyncio.get_running_loop().create_task(later())

