"""The server's messages: every REST body and reply, and every websocket message, as a typed
pydantic model (see ``docs/server.md`` for the contract with the page).

Client messages are validated here and nowhere else: anything that does not parse is refused
with one :class:`ErrorMessage` and changes nothing.

>>> parse_client('{"type": "act", "action": "stand", "version": 3}')
ActIntent(type='act', action='stand', version=3)
>>> try:
...     parse_client('{"type": "dance"}')
... except ProtocolError as exc:
...     print(exc)
unknown message type 'dance'; send hello, act, chat, hint or ping
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

__all__ = [
    "MAX_CHAT_CHARS", "MAX_MESSAGE_BYTES", "MAX_NAME_CHARS", "ActIntent", "ActionView",
    "ChatIntent", "ChatMessage", "ClientMessage", "CreatePlayer", "CreateTable", "ErrorMessage",
    "ErrorReply", "GameSummary", "HelloIntent", "HintIntent", "HintMessage", "JoinTable",
    "LobbyMessage", "NoticeMessage", "OptionInfo", "PingIntent", "PlayerReply", "PongMessage",
    "ProtocolError", "RenamePlayer", "RulesetInfo", "SeatChange", "SeatInfo", "TableCreated",
    "TableInfo", "TurnTimer", "ViewMessage",
    "parse_client",
]

MAX_MESSAGE_BYTES = 4096
"""The longest websocket message a client may send."""
MAX_CHAT_CHARS = 300
"""The longest chat line."""
MAX_NAME_CHARS = 40
"""The longest player name."""
MAX_NOTATION_CHARS = 100
"""The longest action in notation."""


class ProtocolError(ValueError):
    """A client message that cannot be read: one clear sentence."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- REST ------------------------------------------------------------------------------------

class ErrorReply(_Model):
    """Every refused REST call: ``{"error": "one clear sentence"}``."""

    error: str


class CreatePlayer(_Model):
    """``POST /api/players``: the name to play under."""

    name: Annotated[str, Field(min_length=1, max_length=MAX_NAME_CHARS)]


class RenamePlayer(_Model):
    """``PATCH /api/players/me``: a new name to play under (shown at the player's tables)."""

    name: Annotated[str, Field(min_length=1, max_length=MAX_NAME_CHARS)]


class PlayerReply(_Model):
    """A player; the token only in the reply that creates it."""

    player_id: str
    name: str
    token: str | None = None


class GameSummary(_Model):
    """A game in a player's history."""

    game_id: str
    table_id: str
    ruleset: str
    seat: int
    complete: bool
    payoffs: list[int] | None


class OptionInfo(_Model):
    """One option of a ruleset, with the preset's value as default."""

    name: str
    default: Any
    choices: list[Any] | None = None
    min: int | None = None
    max: int | None = None
    doc: str


class RulesetInfo(_Model):
    """A preset as the lobby offers it."""

    id: str
    title: str
    family: str
    version: int
    min_players: int
    max_players: int
    options: list[OptionInfo]
    unit: str


class CreateTable(_Model):
    """``POST /api/tables``: a new table, hosted by the caller (who takes seat 0)."""

    ruleset: Annotated[str, Field(min_length=1, max_length=60)]
    options: dict[str, Any] = Field(default_factory=dict)
    seats: Annotated[int, Field(ge=2, le=12)]
    bots: dict[int, str] = Field(default_factory=dict)
    public: bool = True
    hints: bool = True
    timeout_s: Annotated[float, Field(ge=1, le=3600)] = 120.0
    turn_timer_s: Annotated[float, Field(ge=5, le=3600)] | None = None
    offer_window_s: Annotated[float, Field(ge=0, le=10)] | None = None


class TableCreated(_Model):
    """The new table's id and invite code (the page's URL ``/t/<invite>``)."""

    table_id: str
    invite: str


class JoinTable(_Model):
    """``POST /api/tables/<id>/join``: a seat, or the first open one."""

    seat: Annotated[int, Field(ge=0, le=11)] | None = None


class SeatChange(_Model):
    """``POST /api/tables/<id>/seats/<k>``: a seat to a person or a bot (host only)."""

    kind: Literal["human", "bot"]
    level: str | None = None


class SeatInfo(_Model):
    """One seat of a table in the lobby."""

    seat: int
    kind: Literal["open", "human", "bot"]
    name: str | None = None
    level: str | None = None
    player_id: str | None = None
    away: bool = False
    connected: bool = False


class TableInfo(_Model):
    """A table: its settings, its seats and where it stands."""

    table_id: str
    invite: str
    ruleset: str
    title: str
    options: dict[str, Any]
    host: str
    public: bool
    hints: bool
    timeout_s: float
    turn_timer_s: float | None
    offer_window_s: float
    status: Literal["lobby", "playing", "over"]
    seats: list[SeatInfo]
    game_id: str | None = None
    games: list[str] = Field(default_factory=list)


# -- websocket: client to server -------------------------------------------------------------

class HelloIntent(_Model):
    """The first message: who connects (a player's token), or a spectator."""

    type: Literal["hello"]
    token: str | None = None
    spectate: bool = False


class ActIntent(_Model):
    """An action in the family's notation, at the version the client saw."""

    type: Literal["act"]
    action: Annotated[str, Field(min_length=1, max_length=MAX_NOTATION_CHARS)]
    version: int


class ChatIntent(_Model):
    """A chat line."""

    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT_CHARS)]


class HintIntent(_Model):
    """A request for the search bot's estimates (where the table allows hints)."""

    type: Literal["hint"]


class PingIntent(_Model):
    """Keeps the connection alive; answered with a pong."""

    type: Literal["ping"]


ClientMessage = Annotated[HelloIntent | ActIntent | ChatIntent | HintIntent | PingIntent,
                          Field(discriminator="type")]
_CLIENT: TypeAdapter[Any] = TypeAdapter(ClientMessage)
_TYPES = ("hello", "act", "chat", "hint", "ping")


def parse_client(text: str | bytes) -> HelloIntent | ActIntent | ChatIntent | HintIntent | \
        PingIntent:
    """A client message, validated.

    :raises ProtocolError: one sentence on what is wrong (too long, not JSON, unknown type,
        a bad field).
    """
    if len(text) > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message too long: at most {MAX_MESSAGE_BYTES} bytes")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("malformed message: not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed message: send a JSON object with a type")
    kind = data.get("type")
    if kind not in _TYPES:
        shown = repr(kind)[:30]
        raise ProtocolError(f"unknown message type {shown}; send hello, act, chat, hint or "
                            "ping")
    try:
        message: Any = _CLIENT.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"][1:]) or "message"
        raise ProtocolError(f"malformed {kind} message: {where}: {first['msg']}") from None
    return message  # type: ignore[no-any-return]


# -- websocket: server to client -------------------------------------------------------------

class ActionView(_Model):
    """A legal action for the viewer's seat."""

    notation: str
    label: str
    cards: list[int]
    group: str | None = None
    out_of_turn: bool = False


class TurnTimer(_Model):
    """A turn timer running: whose turn, and when it runs out (seconds of the epoch); then the
    table's bot plays that turn for the player."""

    seat: int
    name: str
    ends_at: float
    seconds: float


class ViewMessage(_Model):
    """The table as one seat (or a spectator, ``seat`` null) may see it."""

    type: Literal["view"] = "view"
    version: int
    seat: int | None
    table: dict[str, Any] | None
    actions: list[ActionView]
    log: list[str]
    status: Literal["lobby", "playing", "showdown", "over"]
    showdown: dict[str, Any] | None = None
    standings: list[dict[str, Any]] | None = None
    game_id: str | None = None
    timer: TurnTimer | None = None


class ErrorMessage(_Model):
    """A refused message: nothing changed."""

    type: Literal["error"] = "error"
    message: str


class ChatMessage(_Model):
    """A chat line (the page escapes it)."""

    type: Literal["chat"] = "chat"
    from_: str = Field(serialization_alias="from")
    text: str


class HintMessage(_Model):
    """The search bot's estimates for the viewer's legal actions."""

    type: Literal["hint"] = "hint"
    rows: list[dict[str, Any]]


class LobbyMessage(_Model):
    """The table's seats and status (sent on every change of the lobby)."""

    type: Literal["lobby"] = "lobby"
    table: TableInfo


class PongMessage(_Model):
    """The answer to a ping."""

    type: Literal["pong"] = "pong"


class NoticeMessage(_Model):
    """Something the server tells one connection (e.g. that the host gave its seat away)."""

    type: Literal["notice"] = "notice"
    message: str
