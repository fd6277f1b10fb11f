"""The FastAPI app: the lobby's REST API, the tables' websockets and the page.

:func:`create_app` builds one app on one database; everything it holds lives in the app (no
process-wide state), so a test may run several on one database, one after the other, as a
restarted server would. See ``docs/server.md`` for the API and the messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import re
import secrets
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from commerce import engine
from commerce.errors import CommerceError
from commerce.family import family_spec, payoff_unit
from commerce.presentation import (
    for_players,
    humanize,
    move_meanings,
    rules_section,
    ruleset_facts,
    ruleset_page,
)
from commerce.record import GameRecord, replay_steps
from commerce.rules import (
    family_option_names,
    find_ruleset,
    option_bounds,
    option_choices,
    option_doc,
    rulesets,
)
from commerce.server.botpool import BotPool, PolicyJob
from commerce.server.cluster import Cluster
from commerce.server.db import Player, Store
from commerce.server.hub import Connection, Limiter, Limits
from commerce.server.live import ApiError, Hosting, Server
from commerce.server.names import TextRefused, clean_text, player_name, shown
from commerce.server.protocol import (
    ActIntent,
    BotLevel,
    ChatIntent,
    CreatePlayer,
    CreateTable,
    ErrorMessage,
    FactInfo,
    GameSummary,
    HelloIntent,
    HintIntent,
    HintMessage,
    JoinTable,
    LobbyMessage,
    MeReply,
    MoveInfo,
    NoticeMessage,
    OptionInfo,
    PlayerReply,
    PongMessage,
    ProtocolError,
    RenamePlayer,
    ReplayGame,
    ReplayReply,
    ReplayStep,
    RulesetInfo,
    SeatChange,
    TableCreated,
    TableInfo,
    json_schema,
    parse_client,
)
from commerce.server.tables import (
    BOT_LEVELS,
    Table,
    TableConfig,
    TableError,
    amount,
    one_word_per_unit,
    table_view,
)

__all__ = ["create_app"]

HELLO_TIMEOUT_S = 30.0
"""How long a new websocket may take to say hello."""
DEFAULT_OFFER_WINDOW_S = 0.0
"""The out-of-turn offer window of a networked table when the host sets none."""
MAX_BODY_BYTES = 65536
"""The largest request body the server reads."""
KEY = re.compile(r"[A-Za-z0-9_-]{1,40}")
"""What a table's id or invite code, or a game's id, is made of."""
SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
     b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]
"""Headers on every reply: no script or style but the page's own files, never in a frame, no
guessing of content types, and no address (an invite's) sent to other sites."""


_LABEL_PREFIXES = ("House rule: ", "Pool Commerce: ", "Cox: ", "Widow-family ")
"""Tags at the head of an option's documentation that are not its label."""
_PARENS = re.compile(r"\s*\([^()]*\)")
_IDENTIFIER = re.compile(r"'([a-z0-9_]+)'|\b([a-z0-9]+_[a-z0-9_]+)\b")
_CLAUSE_END = re.compile(r"; |(?<!No)\. | = ")
MY_TABLES = 20
"""The most tables "My games" lists (the newest)."""
WATCH_TABLES = 30
"""The most games in progress the lobby lists to watch."""


def option_label(doc: str) -> str:
    """An option's label: the first clause of its documentation.

    >>> option_label("Cards in the pack: 52, or the 32-card piquet pack.")
    'Cards in the pack'
    >>> option_label("House rule: a deal that reaches this many rounds ends.")
    'A deal that reaches this many rounds ends'
    >>> option_label("Ranking 'no_pair_or_point': when no hand holds a tricon, no token moves.")
    'Ranking no pair or point'
    >>> option_label("Pool feed: counters each player puts in the pool.")
    'Pool feed: counters each player puts in the pool'
    """
    for prefix in _LABEL_PREFIXES:
        doc = doc.removeprefix(prefix)
    doc = _IDENTIFIER.sub(lambda m: (m.group(1) or m.group(2)).replace("_", " "),
                          _PARENS.sub("", doc))
    head, colon, rest = doc.partition(": ")
    if colon and len(head.split()) <= 2:  # a short tag: the clause after it says what
        head, rest = f"{head}: {rest}", ""
    label = _CLAUSE_END.split(head if colon else doc, maxsplit=1)[0].rstrip(".")
    return label[:1].upper() + label[1:]


def _summary_line(facts: list[tuple[str, str]], most: int = 240) -> str:
    """A ruleset in a line: its facts but the players (said apart), whole, to about *most*
    characters.

    >>> _summary_line([("Players", "3"), ("Hand", "three cards"), ("Score", "**one** token")])
    'Hand: three cards. Score: one token.'
    """
    out: list[str] = []
    for name, text in facts:
        line = f"{name}: {text.replace('**', '')}"
        if name == "Players" or (out and len(". ".join([*out, line])) > most):
            continue
        out.append(line)
    return ". ".join(out) + "." if out else ""


LEVEL_WORDS = {"random": "bot: random", "heuristic": "bot: heuristic",
               "search": "bot: search (strongest)"}
"""The fixed bot levels in words (short: the menu fits a phone)."""


def bot_levels(models: Sequence[str]) -> list[BotLevel]:
    """The fixed bot levels, then a level for each learned model of *models* (read from its
    configuration: the ruleset and seats it plays)."""
    from commerce.bots.learned import read_config

    out = [BotLevel(level=level, label=LEVEL_WORDS.get(level, f"bot: {level}"))
           for level in BOT_LEVELS]
    for name in models:
        config = read_config(name)
        out.append(BotLevel(level=f"learned:{name}",
                            label=f"bot: learned {name}",
                            ruleset=config.rules, players=config.players))
    return out


def _ruleset_infos() -> list[RulesetInfo]:
    out = []
    for rules in rulesets():
        options = []
        for name in family_option_names(rules):
            choices = option_choices(name)
            bounds = option_bounds(name)
            doc = option_doc(name)
            options.append(OptionInfo(
                name=name, label=option_label(doc), default=getattr(rules, name),
                choices=None if choices is None else list(choices),
                min=None if bounds is None else bounds[0],
                max=None if bounds is None else bounds[1], doc=doc))
        spec = family_spec(rules.family)
        present = spec.presentation
        page = ruleset_page(rules.id) or ""
        facts = ruleset_facts(page)
        moves, legend = move_meanings(present.commands if present is not None else "")
        ranking = present.rules_help(rules) if present is not None and present.rules_help \
            else []
        out.append(RulesetInfo(
            id=rules.id, title=rules.name, family=rules.family, version=rules.version,
            min_players=rules.min_players, max_players=rules.max_players, options=options,
            unit=payoff_unit(rules),
            summary=_summary_line(facts),
            facts=[FactInfo(name=name, text=text) for name, text in facts],
            rules=for_players(rules_section(page)) if page else "", ranking=ranking,
            moves=[MoveInfo(move=m, meaning=w) for m, w in moves], legend=legend))
    return out


def _static_dir() -> Path | None:
    folder = Path(__file__).parent / "static"
    return folder if (folder / "index.html").is_file() else None


def create_app(db_url: str = "sqlite://", *,
               offer_window_s: float = DEFAULT_OFFER_WINDOW_S,
               rate: tuple[float, int] | None = None, limits: Limits | None = None,
               hosting: Hosting | None = None, bot_workers: int = 0, warm: bool = False,
               api_docs: bool = False) -> FastAPI:
    """The app on the database at *db_url* (migrated at start; ``sqlite://`` keeps it in
    memory). *offer_window_s*: the default window of out-of-turn offers on new tables;
    *limits*: what one player and one address may ask at what rate (:class:`.limits.Limits`);
    *rate*, where given, the messages a second and the burst one player may send (in place of
    *limits*' ``messages``); *hosting*: what one player may host (tables, bots, the search
    bot's time: :class:`.live.Hosting`); *bot_workers*: the processes the bots think in (0:
    threads of this one); *warm*: compile every bot's kernels before serving; *api_docs*:
    serve the OpenAPI schema and its pages (``/docs``, ``/redoc``, ``/openapi.json``)."""
    limits = limits or Limits()
    if rate is not None:
        limits = dataclasses.replace(limits, messages=(rate[1], rate[1] / rate[0]))
    store = Store.open(db_url)
    server = Server(store, (limits.messages[0] / limits.messages[1], limits.messages[0]),
                    limits=hosting, pool=BotPool(bot_workers))
    limiter = Limiter(limits)
    notices: dict[tuple[str, str], str] = {}
    """What a player not connected is told on their return (their seat was given away)."""
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

    app = FastAPI(title="Commerce", lifespan=lifespan,
                  docs_url="/docs" if api_docs else None,
                  redoc_url="/redoc" if api_docs else None,
                  openapi_url="/openapi.json" if api_docs else None)
    app.state.server = server
    app.state.limiter = limiter
    app.add_middleware(Guard, loose=("/docs", "/redoc") if api_docs else ())

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        headers = None
        if isinstance(exc, Throttled):
            headers = {"Retry-After": str(max(1, round(exc.retry_after_s)))}
        return JSONResponse({"error": shown(exc.message)}, status_code=exc.status,
                            headers=headers)

    @app.exception_handler(RequestValidationError)
    async def bad_body(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "bad request"}
        loc = [str(x) for x in first.get("loc", ())]
        where = ".".join(loc[1:]) or "body"
        if loc and loc[0] == "path":
            where = f"the address's {where}"
        return JSONResponse({"error": shown(f"{where}: {first.get('msg', 'bad value')}")},
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": shown(str(exc.detail))}, status_code=exc.status_code)

    def address(request: Request | WebSocket) -> str | None:
        return request.client.host if request.client is not None else None

    def limit(kind: str, what: str, player: str | None, request: Request | WebSocket) -> None:
        if not limiter.allow(kind, player, address(request)):
            raise Throttled(what, limiter.wait_s(kind))

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
    async def create_player(body: CreatePlayer, request: Request) -> PlayerReply:
        name = _name(body.name)
        limit("players", "new players from this address", None, request)
        p = await run_in_threadpool(store.create_player, name)
        return PlayerReply(player_id=p.id, name=p.name, token=p.token)

    @app.patch("/api/players/me")
    async def rename(body: RenamePlayer, request: Request,
                     authorization: str | None = Header(default=None)) -> PlayerReply:
        p = await me(authorization)
        name = _name(body.name)
        limit("players", "new names from this address", None, request)
        await run_in_threadpool(store.rename_player, p.id, name)
        for table_id in await run_in_threadpool(
                lambda: store.tables_of(p.id, 50, unfinished=True)):
            await server.perform(table_id, {"op": "rename", "player": p.id, "name": name})
        return PlayerReply(player_id=p.id, name=name)

    @app.get("/api/players/me")
    async def get_me(authorization: str | None = Header(default=None)) -> MeReply:
        p = await me(authorization)
        ids = await run_in_threadpool(store.tables_of, p.id)
        games = await run_in_threadpool(store.games_of, p.id)
        tables = []
        for i in ids[:MY_TABLES]:
            with contextlib.suppress(ApiError):
                tables.append(server.info(await server.table(i)))
        return MeReply(player_id=p.id, name=p.name, tables=tables,
                       games=[_summary(g) for g in games])

    @app.get("/api/schema", include_in_schema=False)
    async def get_schema() -> dict[str, Any]:
        return json_schema()

    # -- lobby -------------------------------------------------------------------------------
    infos: list[RulesetInfo] = []  # built on first use (the hand rankings take a moment)
    building = asyncio.Lock()  # once: the requests that come meanwhile wait for it

    @app.get("/api/rulesets")
    async def get_rulesets() -> list[RulesetInfo]:
        if not infos:
            async with building:
                if not infos:
                    infos.extend(await run_in_threadpool(_ruleset_infos))
        return infos

    @app.get("/api/levels")
    async def get_levels() -> list[BotLevel]:
        """The bot levels a seat may have here: the fixed menu, then each learned model the
        operator listed (``--models``), with the ruleset and seats it plays."""
        return await run_in_threadpool(bot_levels, server.limits.models)

    @app.post("/api/tables")
    async def create_table(body: CreateTable, request: Request,
                           authorization: str | None = Header(default=None)) -> TableCreated:
        p = await me(authorization)
        limit("tables", "new tables", p.id, request)
        await server.check_host(p.id, tables=1, bots=len(body.bots))
        await server.pool.ready()  # a new table waits for the bots' kernels
        window = body.offer_window_s if body.offer_window_s is not None else offer_window_s
        config = TableConfig(body.ruleset, dict(body.options), body.seats, body.public,
                             body.hints, body.timeout_s, body.turn_timer_s, window)
        table_id, invite = secrets.token_hex(8), secrets.token_urlsafe(6)
        try:
            table = Table.new(table_id, invite, p.id, config, bots=body.bots,
                              models=server.limits.models)
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
        """The public tables waiting for players, then the public games in progress on this
        server (to watch), newest first."""
        ids = await run_in_threadpool(store.public_tables)
        waiting = [server.info(await server.table(i)) for i in ids]
        # from the database, so that a restarted server (or another process of a cluster)
        # lists every game in progress; the live copy where this process holds one
        stored = await run_in_threadpool(store.public_games, WATCH_TABLES)
        playing = [server.info(server.tables.get(t.table_id, t)) for t in stored]
        return waiting + [t for t in playing if t.status == "playing"]

    @app.get("/api/tables/{key}")
    async def get_table(key: str) -> TableInfo:
        return server.info(await server.table(_key(key)))

    @app.post("/api/tables/{key}/join")
    async def join(key: str, body: JoinTable | None = None,
                   authorization: str | None = Header(default=None)) -> TableInfo:
        key = _key(key)
        p = await me(authorization)
        seat = None if body is None else body.seat
        await server.perform(key, {"op": "join", "player": p.id, "name": p.name, "seat": seat})
        return server.info(await server.table(key))

    @app.post("/api/tables/{key}/start")
    async def start(key: str, authorization: str | None = Header(default=None)) -> TableInfo:
        key = _key(key)
        p = await me(authorization)
        await server.perform(key, {"op": "start", "player": p.id})
        return server.info(await server.table(key))

    @app.post("/api/tables/{key}/again")
    async def again(key: str, authorization: str | None = Header(default=None)) -> TableInfo:
        key = _key(key)
        p = await me(authorization)
        await server.perform(key, {"op": "again", "player": p.id})
        return server.info(await server.table(key))

    @app.post("/api/tables/{key}/seats/{seat}")
    async def set_seat(key: str, seat: int, body: SeatChange,
                       authorization: str | None = Header(default=None)) -> TableInfo:
        key = _key(key)
        p = await me(authorization)
        before = await server.table(key)
        held = _held(before, seat)
        await server.perform(key, {"op": "seat", "player": p.id, "seat": seat,
                                   "kind": body.kind, "level": body.level})
        table = await server.table(key)
        await tell(table, held, "the host gave your seat to a bot: watch, or join another "
                                "table")
        return server.info(table)

    @app.delete("/api/tables/{key}/seats/{seat}")
    async def remove_seat(key: str, seat: int,
                          authorization: str | None = Header(default=None)) -> TableInfo:
        key = _key(key)
        p = await me(authorization)
        held = _held(await server.table(key), seat)
        await server.perform(key, {"op": "remove", "player": p.id, "seat": seat})
        table = await server.table(key)
        await tell(table, held, "the host removed you from your seat" + (
            ": a bot plays it now" if table.status == "playing" else ""))
        return server.info(table)

    async def tell(table: Table, player_id: str | None, message: str) -> None:
        """Tell a player who lost their seat: now where connected, else on their return."""
        if player_id is None or table.seat_of(player_id) is not None:
            return
        sent = False
        for conn in server.hub.connections(table.table_id):
            if conn.player_id == player_id:
                await conn.send(NoticeMessage(message=message))
                sent = True
        if not sent:
            if len(notices) > 10_000:
                notices.pop(next(iter(notices)))
            notices[(table.table_id, player_id)] = message

    # -- records -----------------------------------------------------------------------------
    async def finished(game_id: str) -> GameRecord:
        if not KEY.fullmatch(game_id):
            raise ApiError(404, "no such game")
        found = await run_in_threadpool(store.game_record, game_id)
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
    async def game_replay(game_id: str) -> ReplayReply:
        record = await finished(game_id)
        return await run_in_threadpool(_replay, record)

    # -- play --------------------------------------------------------------------------------
    @app.websocket("/ws/tables/{key}")
    async def play(ws: WebSocket, key: str) -> None:
        await ws.accept()
        await _session(server, ws, key, limiter, notices)

    # -- the page ----------------------------------------------------------------------------
    static = _static_dir()
    if static is not None:
        app.mount("/static", StaticFiles(directory=static), name="static")

        @app.get("/", include_in_schema=False)
        async def index() -> FileResponse:
            return FileResponse(static / "index.html")

        @app.get("/t/{invite}", include_in_schema=False)
        async def invite_page(invite: str) -> FileResponse:
            _key(invite)
            return FileResponse(static / "index.html")

        @app.get("/history", include_in_schema=False)
        async def history_page() -> FileResponse:
            return FileResponse(static / "index.html")

        @app.get("/replay/{game_id}", include_in_schema=False)
        async def replay_page(game_id: str) -> FileResponse:
            await finished(game_id)  # 404 for a game there is no replay of
            return FileResponse(static / "index.html")

        @app.get("/favicon.ico", include_in_schema=False)
        async def favicon() -> FileResponse:
            return FileResponse(static / "favicon.svg", media_type="image/svg+xml")

    return app


class Throttled(ApiError):
    """A call over its rate limit (:class:`.limits.Limits`): 429, and when to try again."""

    def __init__(self, what: str, retry_after_s: float) -> None:
        super().__init__(429, f"too many {what}: wait {max(1, round(retry_after_s))} "
                              "seconds and try again")
        self.retry_after_s = retry_after_s


def _key(key: str) -> str:
    """*key* where it could be a table's id or invite code.

    :raises ApiError: 404, where it could not.
    """
    if not KEY.fullmatch(key):
        raise ApiError(404, "no such table")
    return key


def _name(text: str) -> str:
    """*text* as a player's name (:func:`.names.player_name`).

    :raises ApiError: 422 with the reason.
    """
    try:
        return player_name(text)
    except TextRefused as exc:
        raise ApiError(422, str(exc)) from None


def _held(table: Table, seat: int) -> str | None:
    """The player seated at *seat*, if a person is."""
    if 0 <= seat < len(table.seats) and table.seats[seat].kind == "human":
        return table.seats[seat].player_id
    return None


class Guard:
    """Every request checked before the app reads it, and every reply given the security
    headers (:data:`SECURITY_HEADERS`): an address holding a control character, a body over
    :data:`MAX_BODY_BYTES`, one that is not UTF-8, JSON nested too deep, or a JSON string
    holding a NUL or a lone surrogate (which no database stores) is refused with one sentence
    and a 4xx status."""

    def __init__(self, app: ASGIApp, *,
                 loose: tuple[str, ...] = ()) -> None:
        self.app = app
        self.loose = loose
        """Paths served without the Content-Security-Policy (the API's pages, which load
        their script from a CDN), where asked for."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # a websocket's table is checked by its session
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        bad = _refused_in(path)

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = SECURITY_HEADERS
                if self.loose and path.startswith(self.loose):
                    extra = [h for h in extra if h[0] != b"content-security-policy"]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        if bad is not None or len(path) > 2000:
            why = "is too long" if bad is None else f"holds U+{ord(bad):04X}"
            await _refuse(secured, 404, f"no such page: its address {why}")
            return
        body = b""
        reads = scope["method"] not in ("GET", "HEAD", "OPTIONS", "DELETE")
        more = reads
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = bool(message.get("more_body"))
            if len(body) > MAX_BODY_BYTES:
                await _refuse(secured, 413, f"the request's body is too large: at most "
                                            f"{MAX_BODY_BYTES:,} bytes")
                return
        if body:
            fault = _body_fault(body)
            if fault is not None:
                await _refuse(secured, *fault)
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay if reads else receive, secured)


def _refused_in(text: str) -> str | None:
    """The first NUL, other control character, or lone surrogate of *text*, or None."""
    for ch in text:
        if ord(ch) < 32 or ord(ch) == 127 or 0xD800 <= ord(ch) <= 0xDFFF:
            return ch
    return None


def _body_fault(body: bytes) -> tuple[int, str] | None:
    """The status and the reason a request's body is refused, or None."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return 400, "the request's body is not UTF-8 text"
    try:
        data = json.loads(text)
    except RecursionError:
        return 400, "the request's JSON is nested too deeply"
    except ValueError:
        return None  # the app says what is wrong with it
    stack: list[tuple[str, object]] = [("body", data)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                inner = str(key) if where == "body" else f"{where}.{key}"
                stack += [(inner, key), (inner, value)]
        elif isinstance(item, list):
            stack += [(f"{where}.{k}", x) for k, x in enumerate(item)]
        elif isinstance(item, str):
            for ch in item:
                if ch == "\x00" or 0xD800 <= ord(ch) <= 0xDFFF:
                    return 422, (f"{shown(where, 60)}: U+{ord(ch):04X} is not a character a "
                                 "text may hold")
    return None


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def _summary(game: dict[str, Any]) -> GameSummary:
    """A game of a player's history in words: the ruleset's title, and the player's result
    in its unit with their place."""
    summary = GameSummary(**{k: game[k] for k in ("game_id", "table_id", "ruleset", "seat",
                                                   "complete", "payoffs")})
    try:
        rules = find_ruleset(summary.ruleset)
        summary.title, unit = rules.name, payoff_unit(rules)
    except CommerceError:
        summary.title, unit = summary.ruleset, "stakes"
    played = game.get("played")
    if isinstance(played, datetime):
        summary.played = (played if played.tzinfo else played.replace(tzinfo=UTC)).isoformat()
    pay = summary.payoffs
    if summary.complete and pay and 0 <= summary.seat < len(pay):
        place = 1 + sum(v > pay[summary.seat] for v in pay)
        summary.result = f"{amount(pay[summary.seat], unit)}, place {place} of {len(pay)}"
    return summary


def _replay(record: GameRecord) -> ReplayReply:
    """A finished game step by step, every hand shown, the log in words as at the table."""
    spec = family_spec(record.rules.family)
    names = [s.name for s in record.seats] or [f"Seat {k + 1}" for k in range(record.players)]
    steps: list[ReplayStep] = []
    present = spec.presentation
    symbols = present.card_symbols if present is not None else None

    def words(text: str) -> str:
        text = one_word_per_unit(humanize(text))
        return symbols(text) if symbols is not None else text

    for action, transition in replay_steps(record):
        state = transition.state
        lines = [words(x) for e in transition.events
                 for x in (spec.describe_event(e, names, None) or "").splitlines() if x]
        steps.append(ReplayStep(action=words(spec.format_action(action)), log=lines,
                                table=table_view(present, engine.reveal_all(state), names,
                                                 None)))
    return ReplayReply(
        game=ReplayGame(ruleset=record.rules.id, title=record.rules.name,
                        players=record.players, names=names,
                        payoffs=None if record.payoffs is None else list(record.payoffs),
                        unit=payoff_unit(record.rules)),
        steps=steps)


async def _session(server: Server, ws: WebSocket, key: str, limiter: Limiter,
                   notices: dict[tuple[str, str], str]) -> None:
    """One websocket: hello, then intents until it closes (each counted against the
    player's and the address's limits)."""
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
        table = await server.table(_key(key))
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
    conn = Connection(ws, table.table_id, seat, player_id)
    server.hub.add(conn)
    address = ws.client.host if ws.client is not None else None
    who = player.id if player is not None else f"spectator {conn.id}"
    told = notices.pop((table.table_id, player.id), None) if player is not None else None
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
        if told is not None and seat is None:
            await conn.send(NoticeMessage(message=told))
        while True:
            text = await _receive(ws)
            if text is None:
                break
            if not limiter.allow("messages", who, address):
                await conn.send(ErrorMessage(message="too many messages: slow down"))
                continue
            await _handle(server, table, conn, text, lambda: limiter.allow("hints", who,
                                                                          address))
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


async def _handle(server: Server, table: Table, conn: Connection, text: str,
                  hint_allowed: Callable[[], bool] = lambda: True) -> None:
    """One client message: answered, or refused with one error that changes nothing."""
    table = await server.table(table.table_id)  # in a cluster, the latest read of it
    try:
        msg = parse_client(text)
    except ProtocolError as exc:
        await conn.send(ErrorMessage(message=shown(str(exc))))
        return
    try:
        if isinstance(msg, ActIntent):
            await server.perform(table.table_id, {"op": "act", "player": conn.player_id,
                                                  "action": msg.action,
                                                  "version": msg.version})
        elif isinstance(msg, ChatIntent):
            table = await server.table(table.table_id)
            line = table.say(conn.player_id, clean_text(msg.text, "chat line"))
            await server.hub.send_all(table.table_id, line)
            if server.cluster is not None:
                server.cluster.say(table.table_id, line.from_, line.text)
        elif isinstance(msg, HintIntent):
            if not hint_allowed():
                raise TableError("too many hints: wait a little and ask again")
            async with server.lock(table.table_id):
                job = table.hint_job(conn.player_id)
                model = server.hint_model(table)
            try:  # the bot workers think, off the request path, in the asker's turn
                if model:  # the operator's learned model: its policy, at its own tables
                    chances, best = await server.pool.policy(
                        conn.player_id or "", PolicyJob(model, job.obs, job.legal))
                    rows = table.policy_rows(job, chances, best)
                else:
                    estimates = await server.pool.estimate(conn.player_id or "", job)
                    rows = table.hint_rows(job, estimates)
            except CommerceError as exc:
                raise TableError(f"hints are not available here: {exc}") from None
            present = family_spec(table.rules.family).presentation
            await conn.send(HintMessage(
                rows=rows, gain_words=present.gain_words if present is not None else "",
                deal_word=present.deal_word if present is not None else "deal", model=model))
        elif isinstance(msg, HelloIntent):
            await conn.send(ErrorMessage(message="already said hello"))
        else:
            await conn.send(PongMessage())
    except ApiError as exc:
        await conn.send(ErrorMessage(message=shown(exc.message)))
    except (TableError, TextRefused) as exc:
        await conn.send(ErrorMessage(message=shown(str(exc))))
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

