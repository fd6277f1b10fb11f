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

from commerce.cli import int_in
from commerce.errors import CommerceError

ENV_URL = "COMMERCE_DATABASE_URL"
"""The environment variable that names the database."""
OFFER_WINDOW_S = 0.6
"""The window every bot's action waits on a networked table (see
:attr:`commerce.server.tables.TableConfig.offer_window_s`), unless the host sets another."""
MAX_WS_BYTES = 16384
"""The largest websocket frame the server reads (messages are far smaller)."""


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
        Path(url[len("sqlite:///"):]).parent.mkdir(parents=True, exist_ok=True)
    try:
        app = create_app(url, offer_window_s=OFFER_WINDOW_S)
    except Exception as exc:  # noqa: BLE001 - an unreachable or bad database: one line
        raise CommerceError(f"cannot open the database {url.split('@')[-1]}: "
                            f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
                            ) from None
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0") else args.host
    print(f"Commerce is served at http://{shown}:{args.port}/ (Ctrl-C stops it)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, ws_max_size=MAX_WS_BYTES,
                log_level="warning")
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
