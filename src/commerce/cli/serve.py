"""``commerce serve``: the multiplayer server (the page, the lobby's API and the tables'
websockets) on one port.

The database is SQLite in the user's data folder unless ``--db`` or the environment variable
``COMMERCE_DATABASE_URL`` names another (``postgresql://user@host/db``).
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from pathlib import Path

from commerce.cli import float_in, int_in
from commerce.errors import CommerceError
from commerce.server.limits import Limits

ENV_URL = "COMMERCE_DATABASE_URL"
"""The environment variable that names the database."""
OFFER_WINDOW_S = 0.6
"""The window every bot's action waits on a networked table (see
:attr:`commerce.server.tables.TableConfig.offer_window_s`), unless the host sets another."""
MAX_WS_BYTES = 16384
"""The largest websocket frame the server reads (messages are far smaller)."""
BOT_WORKERS = max(1, (os.cpu_count() or 2) - 1)
"""The bot worker processes of ``commerce serve`` by default."""
STOP_S = 2
"""How long a stopping server (SIGTERM, Ctrl-C) waits for open connections before it closes
them; every change is stored as it is made, so nothing is lost."""


def data_folder() -> Path:
    """The user's data folder for Commerce (``$XDG_DATA_HOME/commerce``, or
    ``~/.local/share/commerce``; ``%APPDATA%\\commerce`` on Windows)."""
    if sys.platform == "win32" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "commerce"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "commerce"


def default_url() -> str:
    """The database of ``commerce serve`` with no ``--db``: the environment's, else SQLite in
    the data folder."""
    url = os.environ.get(ENV_URL, "").strip()
    if url:
        return url
    return f"sqlite:///{data_folder() / 'server.sqlite3'}"


def configure_serve(p: argparse.ArgumentParser) -> None:
    """``commerce serve``'s options."""
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default: 127.0.0.1, this machine only)")
    p.add_argument("--port", type=int_in(1, 65535), default=8000,
                   help="port to listen on, from 1 to 65,535 (default: 8000)")
    p.add_argument("--db", default=None, metavar="URL",
                   help=f"database URL, e.g. postgresql://user@host/db (default: ${ENV_URL}, "
                        "else SQLite in the user's data folder)")
    d = Limits()
    for name, what in (("tables", "new tables each player may make"),
                       ("hints", "hints each player may ask for"),
                       ("messages", "websocket messages each player may send"),
                       ("players", "new players and renames from one address")):
        count, seconds = getattr(d, name)
        p.add_argument(f"--limit-{name}", type=_limit, default=None, metavar="COUNT/SECONDS",
                       help=f"{what}: COUNT at once, then COUNT every SECONDS (default: "
                            f"{count}/{seconds:g})")
    p.add_argument("--limit-address-share", type=int_in(1, 1000), default=d.address_share,
                   metavar="N", help="one address (all its players together) may make N "
                                     "players' worth of tables, hints and messages, from 1 "
                                     f"to 1,000 (default: {d.address_share})")
    p.add_argument("--api-docs", action="store_true",
                   help="serve the API's OpenAPI schema and pages (/openapi.json, /docs, "
                        "/redoc); off by default")

    p.add_argument("--bot-ms", type=int_in(1, 10_000), default=300, metavar="MS",
                   help="how long the search bot thinks per decision, at every table, in "
                        "milliseconds from 1 to 10,000 (default: 300)")
    p.add_argument("--max-tables", type=int_in(1, 10_000), default=10, metavar="N",
                   help="how many tables not yet over one player may host (default: 10)")
    p.add_argument("--max-bots", type=int_in(0, 100_000), default=20, metavar="N",
                   help="how many bots may sit at the tables one player hosts, all together "
                        "(default: 20)")
    p.add_argument("--models", default="", metavar="NAME,...",
                   help="learned models to offer as bot levels learned:NAME, from the models "
                        "directory ($COMMERCE_MODELS, else ~/.local/share/commerce/models); "
                        "none by default")
    p.add_argument("--hint-model", default="", metavar="NAME",
                   help="a model of --models whose policy gives the hints (its choice, and how "
                        "often it plays each move) at the tables of its ruleset and seat "
                        "count; other tables get the search bot's (default: the search bot's "
                        "everywhere)")
    p.add_argument("--bot-workers", type=int_in(0, 256), default=BOT_WORKERS, metavar="N",
                   help="processes the bots think in, at a lower priority than the server "
                        f"(default: {BOT_WORKERS}, the cores less one; 0: in the server's own "
                        "process)")
    p.add_argument("--offer-window", type=float_in(0.05, 5.0), default=OFFER_WINDOW_S,
                   metavar="S",
                   help="the pace of a table, in seconds from 0.05 to 5: every bot's move "
                        "waits it, and where a game has hidden offers every move and every "
                        f"offer (default: {OFFER_WINDOW_S})")


def _limit(text: str) -> tuple[int, float]:
    """``COUNT/SECONDS`` for argparse."""
    try:
        return Limits.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def limits_of(args: argparse.Namespace) -> Limits:
    """The :class:`commerce.server.limits.Limits` of ``commerce serve``'s options."""
    d = Limits()
    return Limits(tables=args.limit_tables or d.tables, hints=args.limit_hints or d.hints,
                  messages=args.limit_messages or d.messages,
                  players=args.limit_players or d.players,
                  address_share=args.limit_address_share)


def run_serve(args: argparse.Namespace) -> int:
    """Start the server and serve until interrupted."""
    try:
        import uvicorn

        from commerce.server.app import create_app
    except ImportError as exc:
        raise CommerceError(f"the server needs its packages: pip install -e '.[server]' "
                            f"({exc})") from None
    check_listen(args.host, args.port)
    url = args.db or default_url()
    if url.startswith("sqlite:///"):
        Path(url[len("sqlite:///"):]).parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    from commerce.server.live import Hosting

    limits = limits_of(args)
    models = _models(args.models)
    hosting = Hosting(bot_ms=float(args.bot_ms), tables=args.max_tables, bots=args.max_bots,
                      models=models, hint_model=_hint_model(args.hint_model, models))
    try:
        app = create_app(url, offer_window_s=args.offer_window, limits=limits, hosting=hosting,
                         bot_workers=args.bot_workers, warm=True, api_docs=args.api_docs)
    except Exception as exc:  # noqa: BLE001 - an unreachable or bad database: one line
        raise CommerceError(f"cannot open the database {url.split('@')[-1]}: "
                            f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
                            ) from None
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0") else args.host
    print("Compiling the bots' kernels before the tables open ...", flush=True)
    print(f"Commerce is served at http://{shown}:{args.port}/ (Ctrl-C stops it)", flush=True)
    print(f"Limits: {limits.describe()}", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, ws_max_size=MAX_WS_BYTES,
                log_level="warning", timeout_graceful_shutdown=STOP_S)
    return 0


def check_listen(host: str, port: int) -> None:
    """Refuse, in one line, an address the server could not listen on (a port in use, a host
    that is not this machine's), before the server starts.

    :raises CommerceError: saying why.
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except (OSError, UnicodeError, ValueError) as exc:
        why = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        raise CommerceError(f"cannot listen on {host}:{port}: {why}") from None


def _models(text: str) -> tuple[str, ...]:
    """The models of ``--models``, each loaded once here so that a missing one stops the
    server before it starts."""
    from commerce.bots import make_bot
    from commerce.bots.learned import check_model_name

    names = tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))
    for name in names:
        make_bot(f"learned:model={check_model_name(name)}")
    return names


def _hint_model(name: str, models: tuple[str, ...]) -> str:
    """``--hint-model``: empty, or one of the models of ``--models``.

    >>> _hint_model("peel-s1", ("peel-s1",))
    'peel-s1'
    >>> _hint_model("other", ("peel-s1",))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    commerce.errors.CommerceError: --hint-model 'other': name a model of --models (peel-s1)

    :raises CommerceError: in one sentence, for a model not listed in ``--models``.
    """
    name = name.strip()
    if name and name not in models:
        raise CommerceError(f"--hint-model {name[:70]!r}: name a model of --models "
                            f"({', '.join(models) or 'none listed'})")
    return name
