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
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

__all__ = [
    "MAX_CHAT_CHARS", "MAX_MESSAGE_BYTES", "MAX_NAME_CHARS", "ActIntent", "ActionView", "BotLevel",
    "CardFaceView", "ChatIntent", "ChatMessage", "ClientMessage", "CreatePlayer", "CreateTable",
    "DealRow", "ErrorMessage", "ErrorReply", "FactInfo", "GameSummary", "HelloIntent",
    "HintIntent", "HintMessage", "HintRow", "JoinTable", "LobbyMessage", "MeReply",
    "MoveInfo", "NoticeMessage", "OptionInfo", "OptionValue", "PileView", "PingIntent",
    "PlayerReply", "PongMessage", "ProtocolError", "RenamePlayer", "ReplayGame", "ReplayReply",
    "ReplayStep", "RulesetInfo", "SeatChange", "SeatInfo", "SeatView", "ShowdownView",
    "Standing", "TableCreated", "TableInfo", "TableView", "TurnTimer", "ViewMessage",
    "json_schema", "parse_client",
]

OptionValue: TypeAlias = bool | int | float | str | None
"""The value of a ruleset's option: a switch, a number, a word, or none."""

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
    """A game in a player's history: the ruleset's title, when it was played, and the
    player's result in the ruleset's unit once it is over."""

    game_id: str
    table_id: str
    ruleset: str
    seat: int
    complete: bool
    payoffs: list[int] | None
    title: str = ""
    played: str = ""
    """When the game was last played: ISO 8601, UTC."""
    result: str = ""
    """The player's result in words, e.g. ``+3 tokens, first of 3``; empty while unfinished."""


class OptionInfo(_Model):
    """One option of a ruleset, with the preset's value as default: *label* and *doc* are
    words from the option's own documentation (its first clause, and the whole of it)."""

    name: str
    label: str = ""
    default: OptionValue
    choices: list[OptionValue] | None = None
    min: int | None = None
    max: int | None = None
    doc: str


class FactInfo(_Model):
    """A line of what a ruleset is (from its page): ``Players``: ``3–10``."""

    name: str
    text: str


class MoveInfo(_Model):
    """A move and what it means (the family's help on its moves)."""

    move: str
    meaning: str


class BotLevel(_Model):
    """A bot level the server offers for a seat (``GET /api/levels``)."""

    level: str
    """What a seat's ``level`` is set to: ``random``, ``heuristic``, ``search``, or
    ``learned:NAME`` for a model the server's operator listed."""
    label: str
    """The level in words, for the menu."""
    ruleset: str | None = None
    """The one ruleset the level plays (a learned model's); None: every ruleset."""
    players: int | None = None
    """The one number of seats the level plays at (a learned model's); None: any."""


class RulesetInfo(_Model):
    """A preset as the lobby offers it, with the same help the terminal's ``?`` shows: how a
    deal goes (*rules*, markdown in words for players), what beats what (*ranking*, each with
    an example), what each move means (*moves*) and how to read the cards (*legend*)."""

    id: str
    title: str
    family: str
    version: int
    min_players: int
    max_players: int
    options: list[OptionInfo]
    unit: str
    summary: str = ""
    """One line on what the ruleset is."""
    facts: list[FactInfo] = Field(default_factory=list)
    rules: str = ""
    ranking: list[str] = Field(default_factory=list)
    moves: list[MoveInfo] = Field(default_factory=list)
    legend: list[str] = Field(default_factory=list)


class CreateTable(_Model):
    """``POST /api/tables``: a new table, hosted by the caller (who takes seat 0)."""

    ruleset: Annotated[str, Field(min_length=1, max_length=60)]
    options: dict[str, OptionValue] = Field(default_factory=dict)
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
    options: dict[str, OptionValue]
    host: str
    host_name: str = ""
    """The host's name (the name of the seat the host holds, if any)."""
    seats_taken: int = 0
    """Seats held by a person or a bot."""
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
    """The heading the button is grouped under (the widow game's exchanges by the card given)."""
    short: str | None = None
    """The button's text under its heading (the rest of *label*)."""
    out_of_turn: bool = False


class CardFaceView(_Model):
    """A card as drawn: with suit symbols, in letters, its colour, and its name in words."""

    symbols: str
    letters: str
    colour: str = "black"
    name: str = ""
    """The card in words where its face is a code (Cox's ``A3``: ``Automobiles 3``)."""


class SeatView(_Model):
    """One seat as the viewer may see it (the family's ``SeatView``), and who plays it."""

    name: str
    score: str
    cards: list[CardFaceView] = Field(default_factory=list)
    hidden: int = 0
    dealer: bool = False
    to_act: bool = False
    note: str = ""
    you: bool = False
    out: bool = False
    bot: bool = False
    away: bool = False


class PileView(_Model):
    """Cards in the middle of the table (the widow, the stock, a Supply Base ...)."""

    name: str
    cards: list[CardFaceView] = Field(default_factory=list)
    count: str = ""
    card_ids: list[int] = Field(default_factory=list)


class TableView(_Model):
    """The table from one seat (the family's ``presentation.table``)."""

    title: str
    progress: str
    seats: list[SeatView]
    piles: list[PileView]
    hand: list[CardFaceView]
    hand_cards: list[int]
    hand_note: str = ""
    prompt: str = ""
    last: str = ""
    """The last thing that happened, in words (the log's newest line)."""


class ShowdownView(_Model):
    """The showdown of the deal just over: what the log says of it, who won, each seat's
    hand category."""

    lines: list[str]
    winners: list[int]
    categories: list[str]


class Standing(_Model):
    """A seat's place at the end of a game, its result in the ruleset's unit."""

    seat: int
    name: str
    payoff: int
    result: str
    """The payoff in words with its unit: ``+3 tokens``, ``-1 stake``."""
    deals_won: int = 0


class DealRow(_Model):
    """One deal (or hand) of a finished game: what it paid each seat, in words, and who won."""

    number: int
    results: list[str]
    winners: list[str]


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
    table: TableView | None
    actions: list[ActionView]
    log: list[str]
    status: Literal["lobby", "playing", "showdown", "over"]
    showdown: ShowdownView | None = None
    standings: list[Standing] | None = None
    deals: list[DealRow] | None = None
    """At the end of a game: every deal's results (the scoreboard)."""
    unit: str = ""
    """What the ruleset's results count: stakes, tokens, counters or points."""
    deal_word: str = "deal"
    """What one deal is called (``hand`` in Cox's game)."""
    reason: str = ""
    """At the end of a game: why it ended."""
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


class HintRow(_Model):
    """One legal action, *label* as on its button, rated by the search bot (the estimated
    gain, in the ruleset's unit, to the end of the deal, and the chance to win the deal) or
    by a learned model (*chance*: how often its policy plays the action)."""

    notation: str
    label: str
    gain: float | None = None
    """The search bot's estimated gain (None in a learned model's hint)."""
    win: float | None = None
    """The search bot's estimated chance to win the deal (None in a learned model's hint)."""
    best: bool = False
    chance: float | None = None
    """How often the learned model's policy plays the action, 0 to 1 (None in the search
    bot's hint)."""


class HintMessage(_Model):
    """The estimates of the viewer's legal actions, the recommended one first: the search
    bot's, whose *gain_words* say what the gain measures; or, where *model* names a learned
    model (``commerce serve --hint-model``), that model's policy."""

    type: Literal["hint"] = "hint"
    rows: list[HintRow]
    gain_words: str = ""
    deal_word: str = "deal"
    model: str = ""
    """The learned model whose policy gave the rows' *chance*; empty: the search bot's."""


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


# -- REST replies built from the messages above ---------------------------------------------

class MeReply(_Model):
    """``GET /api/players/me``: the player, their tables and their games, newest first."""

    player_id: str
    name: str
    tables: list[TableInfo]
    games: list[GameSummary]


class ReplayStep(_Model):
    """One step of a replay: the action in words, what the log says of it, and the table
    with every hand shown."""

    action: str
    log: list[str]
    table: TableView | None


class ReplayGame(_Model):
    """The game a replay shows."""

    ruleset: str
    title: str = ""
    players: int
    names: list[str]
    payoffs: list[int] | None
    unit: str = ""


class ReplayReply(_Model):
    """``GET /api/games/<id>/replay``: a finished game step by step."""

    game: ReplayGame
    steps: list[ReplayStep]


SERVER_MESSAGES = (ViewMessage, LobbyMessage, ChatMessage, HintMessage, ErrorMessage,
                   PongMessage, NoticeMessage)
"""Every websocket message the server sends."""
REST_REPLIES = (RulesetInfo, BotLevel, TableInfo, TableCreated, PlayerReply, MeReply, ReplayReply,
                ErrorReply)
"""Every REST reply the page reads."""


def json_schema() -> dict[str, Any]:
    """The server's messages and REST replies as one JSON Schema (draft 2020-12): a
    ``oneOf`` of the websocket messages, each model under ``$defs``.

    >>> schema = json_schema()
    >>> sorted(schema["$defs"]["HintRow"]["properties"])
    ['best', 'chance', 'gain', 'label', 'notation', 'win']
    """
    from pydantic.json_schema import models_json_schema

    models: list[tuple[type[BaseModel], Literal["serialization"]]] = [
        (m, "serialization") for m in (*SERVER_MESSAGES, *REST_REPLIES)]
    _, defs = models_json_schema(models, ref_template="#/$defs/{model}")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "Commerce server messages",
            "oneOf": [{"$ref": f"#/$defs/{m.__name__}"} for m in SERVER_MESSAGES],
            "$defs": defs.get("$defs", {})}
