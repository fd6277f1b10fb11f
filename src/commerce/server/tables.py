"""A table's state machine: seats, bots, the game and its version; pure of input and output.

A :class:`Table` holds who sits where (a person, a bot at a level, or nobody yet), and once
started the :class:`~commerce.driver.Driver` of its game, whose seeded generators deal the
cards (the seed never leaves the server while the game runs). Every intent is checked by the
engine with the seat it comes from; a refused one raises :class:`TableError` and changes
nothing. Every view for a seat is built from ``engine.observe`` and ``engine.visible_events``
only (:meth:`Table.view`).

>>> t = Table.new("t1", "inv", "p1", TableConfig("peel", {}, 3), bots={1: "random",
...                                                                     2: "random"})
>>> t.join("p1", "Ann")
0
>>> t.start("p1", "g1", seed=7)
>>> t.status, t.view(0).seat, t.view(None).actions
('playing', 0, [])
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from commerce import engine
from commerce.bots import make_bot
from commerce.core import Action, Bot, DecisionKind, Event
from commerce.driver import Driver
from commerce.errors import CommerceError
from commerce.family import family_spec, payoff_unit
from commerce.presentation import humanize
from commerce.record import GameRecord
from commerce.rules import Ruleset, resolve
from commerce.server.names import distinct
from commerce.server.protocol import (
    MAX_CHAT_CHARS,
    ActionView,
    ChatMessage,
    DealRow,
    HintRow,
    SeatInfo,
    ShowdownView,
    Standing,
    TableInfo,
    TableView,
    TurnTimer,
    ViewMessage,
)

__all__ = ["AWAY_BOT", "OFFERS", "Seat", "Table", "TableConfig", "TableError", "amount",
           "one_word_per_unit", "seat_view", "table_view"]

OFFERS = frozenset({DecisionKind.BARTER_REPLY, DecisionKind.POUNCE_OFFER,
                    DecisionKind.HORSE_OFFER, DecisionKind.BUY_OFFER})
"""Decisions offered out of the ordinary turn order."""
AWAY_BOT = "heuristic"
"""The level of the bot that plays for a player who is away."""
LOG_LINES = 120
"""The most log lines a view carries (the newest)."""
CHAT_LINES = 50
"""The chat lines a table keeps."""
BOT_LEVELS = ("random", "heuristic", "search")
"""The bot levels a seat may have (with options, e.g. ``search:iterations=200``)."""

Status = Literal["lobby", "playing", "over"]


class TableError(CommerceError):
    """A refused request or intent: one sentence; nothing changed."""


@dataclass(frozen=True)
class TableConfig:
    """A table's settings, fixed at its creation."""

    ruleset: str
    options: dict[str, Any]
    players: int
    public: bool = True
    hints: bool = True
    timeout_s: float = 120.0
    turn_timer_s: float | None = None
    offer_window_s: float = 0.0
    """Seconds every bot's action waits, whether or not anyone holds an out-of-turn offer,
    so that the time a table takes shows nothing of the cards (0: bots act at once)."""

    def rules(self) -> Ruleset:
        """The ruleset in force (the preset with the table's options).

        :raises CommerceError: for an unknown ruleset or a bad option.
        """
        return resolve(self.ruleset, self.options)


@dataclass
class Seat:
    """One seat: open, a person (by player id), or a bot at a level."""

    kind: Literal["open", "human", "bot"] = "open"
    player_id: str | None = None
    name: str | None = None
    level: str | None = None
    away: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The stored form."""
        return dataclasses.asdict(self)


def _bot(level: str) -> Bot:
    if level.split(":", 1)[0] not in BOT_LEVELS:
        raise TableError(f"unknown bot level {level[:30]!r}; levels are: "
                         f"{', '.join(BOT_LEVELS)}")
    try:
        return make_bot(level)
    except CommerceError as exc:
        raise TableError(str(exc)) from None


def _name_bots(seats: list[Seat]) -> None:
    """Name each bot by its level ("heuristic bot"), numbered in seat order where a level has
    more than one ("heuristic bot 1", "heuristic bot 2"), so that no two seats show one name.

    >>> seats = [Seat("human", "p", "Ann"), Seat("bot", level="heuristic"),
    ...          Seat("bot", level="search:ms=50"), Seat("bot", level="heuristic")]
    >>> _name_bots(seats)
    >>> [s.name for s in seats]
    ['Ann', 'heuristic bot 1', 'search bot', 'heuristic bot 2']
    """
    kinds = [s.level.split(":")[0] if s.kind == "bot" and s.level else None for s in seats]
    seen: dict[str, int] = {}
    for s, kind in zip(seats, kinds, strict=True):
        if kind is None:
            continue
        seen[kind] = seen.get(kind, 0) + 1
        s.name = f"{kind} bot {seen[kind]}" if kinds.count(kind) > 1 else f"{kind} bot"


@dataclass
class Table:
    """One table and its current game (see the module's docstring)."""

    table_id: str
    invite: str
    host_id: str
    config: TableConfig
    seats: list[Seat]
    status: Status = "lobby"
    game_id: str | None = None
    games: list[str] = field(default_factory=list)
    driver: Driver | None = None
    chat: deque[ChatMessage] = field(default_factory=lambda: deque(maxlen=CHAT_LINES))
    turn_clock: tuple[int, int, float] | None = None
    """The turn timer running now: (the game's version, the seat to act, when its time runs
    out, in seconds of the epoch); None when none runs. Set by the server, which owns the
    clock; not stored (after a restart the seat to act gets the whole time again)."""
    timed_out: list[tuple[int, str]] = field(default_factory=list)
    """Each turn the table's bot played because the time ran out: (the game's version just
    after it, what the log says)."""

    @classmethod
    def new(cls, table_id: str, invite: str, host_id: str, config: TableConfig, *,
            bots: dict[int, str] | None = None) -> Table:
        """A new table in the lobby, *bots* seated at their levels.

        :raises TableError: for a bad ruleset, option, seat count or bot.
        """
        try:
            rules = config.rules()
        except CommerceError as exc:
            raise TableError(str(exc)) from None
        if config.players not in rules.player_range():
            raise TableError(f"{rules.name} is for {rules.min_players} to {rules.max_players} "
                             f"players, not {config.players}")
        seats = [Seat() for _ in range(config.players)]
        for k, level in (bots or {}).items():
            if not 0 <= k < config.players:
                raise TableError(f"bot seat {k} is not a seat from 0 to {config.players - 1}")
            _bot(level)
            seats[k] = Seat("bot", level=level)
        _name_bots(seats)
        return cls(table_id, invite, host_id, config, seats)

    # -- seats ---------------------------------------------------------------------------------
    @property
    def rules(self) -> Ruleset:
        """The ruleset in force."""
        return self.config.rules()

    def seat_of(self, player_id: str | None) -> int | None:
        """The seat *player_id* holds, if any."""
        if player_id is None:
            return None
        for k, s in enumerate(self.seats):
            if s.kind == "human" and s.player_id == player_id:
                return k
        return None

    def join(self, player_id: str, name: str, seat: int | None = None) -> int:
        """Seat a player (in *seat*, or the first open one); a player already seated keeps
        their seat.

        :raises TableError: if the seat is taken or the table is full.
        """
        held = self.seat_of(player_id)
        if held is not None:
            return held
        if seat is None:
            seat = next((k for k, s in enumerate(self.seats) if s.kind == "open"), None)
            if seat is None:
                raise TableError("the table is full")
        if not 0 <= seat < len(self.seats):
            raise TableError(f"seat {seat} is not a seat from 0 to {len(self.seats) - 1}")
        if self.seats[seat].kind != "open":
            raise TableError(f"seat {seat} is taken")
        self.seats[seat] = Seat("human", player_id, distinct(name, self.names()))
        return seat

    def rename(self, player_id: str, name: str) -> None:
        """The seat of *player_id* shows *name* from now on (numbered where another seat
        shows it already)."""
        k = self.seat_of(player_id)
        if k is not None:
            others = [n for j, n in enumerate(self.names()) if j != k]
            self.seats[k].name = distinct(name, others)

    def _handed(self, k: int, what: str) -> None:
        """Refuse to take a seat from a person who is playing at it now, or from the host."""
        s = self.seats[k]
        if s.kind != "human":
            return
        if s.player_id == self.host_id:
            raise TableError(f"you host this table: your own seat cannot be {what}")
        if self.status == "playing" and not s.away:
            raise TableError(f"{s.name or 'that player'} is at the table: only an away "
                             f"player's seat can be {what}")

    def _host(self, player_id: str) -> None:
        if player_id != self.host_id:
            raise TableError("only the host may do that")

    def set_seat(self, by: str, seat: int, kind: str, level: str | None) -> None:
        """The host makes *seat* a bot at *level*, or opens it for a person.

        :raises TableError: if *by* is not the host, or for a bad seat or level.
        """
        self._host(by)
        k = self._seat_index(seat)
        if kind == "bot":
            lvl = level or "heuristic"
            bot = _bot(lvl)
            self._handed(k, "given to a bot")
            self.seats[k] = Seat("bot", level=lvl)
            if self.driver is not None:
                self._set_agent(k, bot)
        else:
            if self.driver is not None and self.status == "playing":
                raise TableError("a seat becomes a person's again only between games")
            self._handed(k, "opened")
            self.seats[k] = Seat()
        _name_bots(self.seats)

    def remove(self, by: str, seat: int) -> None:
        """The host removes the player of *seat* (one who never arrived): the seat opens, or
        during a game a bot plays it.

        :raises TableError: if *by* is not the host or the seat holds no person.
        """
        self._host(by)
        k = self._seat_index(seat)
        if self.seats[k].kind != "human":
            raise TableError(f"seat {k} holds no player")
        self._handed(k, "removed")
        if self.status == "playing":
            self.seats[k] = Seat("bot", level=AWAY_BOT)
            _name_bots(self.seats)
            self._set_agent(k, _bot(AWAY_BOT))
            self.advance()
        else:
            self.seats[k] = Seat()
            _name_bots(self.seats)

    def _seat_index(self, seat: int) -> int:
        if not 0 <= seat < len(self.seats):
            raise TableError(f"seat {seat} is not a seat from 0 to {len(self.seats) - 1}")
        return seat

    def set_away(self, seat: int, away: bool) -> None:
        """A player away (a bot plays for them, shown as such) or back."""
        s = self.seats[seat]
        if s.kind != "human" or s.away == away:
            return
        s.away = away
        if self.driver is not None:
            self._set_agent(seat, _bot(AWAY_BOT) if away else None)
            if away:
                self.advance()

    def _set_agent(self, seat: int, bot: Bot | None) -> None:
        driver = self.driver
        assert driver is not None
        driver.agents[seat] = bot
        driver._reads[seat] = bot is not None and getattr(bot, "reads_observation", True)

    # -- the game --------------------------------------------------------------------------------
    def start(self, by: str, game_id: str, *, seed: int | None = None,
              advance: bool = True) -> None:
        """The host starts a game (the first, or the next once one is over).

        :raises TableError: if *by* is not the host, a seat is open, or a game is on.
        """
        self._host(by)
        if self.status == "playing":
            raise TableError("the game has already started")
        if any(s.kind == "open" for s in self.seats):
            raise TableError("every seat needs a player or a bot before the start")
        agents = [self._agent(s) for s in self.seats]
        self.driver = Driver(self.rules, agents, seed=seed, names=self.names())
        self.turn_clock = None
        self.timed_out.clear()
        self.status = "playing"
        self.game_id = game_id
        self.games.append(game_id)
        if advance:
            self.advance()
        else:
            while (d := self.driver.decision()) is not None and d.seat is None:
                self.driver.step()

    def _agent(self, s: Seat) -> Bot | None:
        if s.kind == "bot":
            return _bot(s.level or AWAY_BOT)
        return _bot(AWAY_BOT) if s.away else None

    def resume(self, record: GameRecord) -> None:
        """Continue the stored game of *record* (a restarted server).

        :raises CommerceError: if the record does not replay.
        """
        agents = [self._agent(s) for s in self.seats]
        self.driver = Driver.resume(record, agents, names=self.names())
        self.status = "over" if self.driver.outcome() is not None else "playing"
        if self.config.offer_window_s > 0:  # the bots go on at the table's pace
            while (d := self.driver.decision()) is not None and d.seat is None:
                self.driver.step()
        else:
            self.advance()

    def names(self) -> list[str]:
        """Each seat's name as the table shows it."""
        return [s.name or f"Seat {k + 1}" for k, s in enumerate(self.seats)]

    @property
    def version(self) -> int:
        """How many actions the game has had (0 before it starts)."""
        return 0 if self.driver is None else len(self.driver.actions)

    def advance(self, on_step: Callable[[], None] | None = None) -> None:
        """Chance and bots play until a person must act or the game is over."""
        driver = self.driver
        if driver is None:
            return
        while driver.step():
            if on_step is not None:
                on_step()
        if driver.outcome() is not None:
            self.status = "over"

    def step_bot(self) -> bool:
        """Chance acts until a seat must decide; then one bot's action, if a bot is to act.
        False when a person must act or the game is over (the paced play of
        :attr:`TableConfig.offer_window_s`)."""
        driver = self.driver
        if driver is None:
            return False
        while (d := driver.decision()) is not None and d.seat is None:
            driver.step()
        stepped = d is not None and driver.step()
        if driver.outcome() is not None:
            self.status = "over"
        return stepped

    def act(self, player_id: str | None, notation: str, version: int, *,
            advance: bool = True) -> None:
        """A player's intent: the action in notation, at the version they saw.

        :raises TableError: not seated, no game, a stale version, an unknown action, out of
            turn or illegal (the engine's reason); nothing changes then.
        """
        seat = self.seat_of(player_id)
        if seat is None:
            raise TableError("you hold no seat at this table")
        driver = self.driver
        if driver is None or self.status == "lobby":
            raise TableError("the game has not started")
        if self.status == "over":
            raise TableError("the game is over")
        if version != self.version:
            raise TableError(f"stale version {version}: the game is at version "
                             f"{self.version}; act on the table as it is now")
        try:
            action = engine.parse_action(driver.state, notation)
            driver.act(seat, action)
        except CommerceError as exc:
            raise TableError(str(exc)) from None
        if advance:
            self.advance()
        else:
            while (d := driver.decision()) is not None and d.seat is None:
                driver.step()

    def timer_for(self) -> tuple[int, int] | None:
        """(version, seat) of the person whose turn a turn timer should run for now: the
        table has timers, the game is playing and a seated person (not away) is to act."""
        driver = self.driver
        if self.config.turn_timer_s is None or driver is None or self.status != "playing":
            return None
        seat = driver.waiting_for_human()
        return None if seat is None else (self.version, seat)

    def time_out(self, seat: int, version: int, *, advance: bool = True) -> bool:
        """The turn timer of *seat* ran out at *version*: the table's bot
        (:data:`AWAY_BOT`) plays that one turn for the player, from the player's own
        observation, and the log says so. Nothing happens (False) if the game has moved on
        or it is no longer that seat's turn."""
        driver = self.driver
        if (driver is None or self.status != "playing" or version != self.version
                or driver.waiting_for_human() != seat):
            return False
        bot = _bot(AWAY_BOT)
        action = bot.act(engine.observe(driver.state, seat), engine.legal_actions(driver.state),
                         random.Random(f"timer/{self.table_id}/{version}"))
        text = engine.format_action(driver.state, action)
        driver.act(seat, action)
        self.turn_clock = None
        self.timed_out.append((self.version, f"{self.names()[seat]}'s time ran out: the "
                                             f"table's bot played {text}"))
        del self.timed_out[:-LOG_LINES]
        if advance:
            self.advance()
        else:
            while (d := driver.decision()) is not None and d.seat is None:
                driver.step()
        return True

    def record(self) -> GameRecord:
        """The current game's record (its seed included: keep it on the server)."""
        assert self.driver is not None
        seats = self.driver.record()
        return seats

    # -- views -------------------------------------------------------------------------------------
    def info(self, connected: Sequence[int] = ()) -> TableInfo:
        """The table for the lobby: settings, seats, status."""
        c = self.config
        try:
            title = self.rules.name
        except CommerceError:
            title = c.ruleset
        return TableInfo(
            table_id=self.table_id, invite=self.invite, ruleset=c.ruleset, title=title,
            options=dict(c.options), host=self.host_id, public=c.public, hints=c.hints,
            timeout_s=c.timeout_s, turn_timer_s=c.turn_timer_s,
            offer_window_s=c.offer_window_s, status=self.status,
            host_name=next((s.name or "" for s in self.seats
                            if s.kind == "human" and s.player_id == self.host_id), ""),
            seats_taken=sum(s.kind != "open" for s in self.seats),
            seats=[SeatInfo(seat=k, kind=s.kind, name=s.name, level=s.level,
                            player_id=s.player_id, away=s.away, connected=k in connected)
                   for k, s in enumerate(self.seats)],
            game_id=self.game_id, games=list(self.games))

    def view(self, seat: int | None) -> ViewMessage:
        """The table as *seat* may see it (None: a spectator): :func:`seat_view` of the game."""
        driver = self.driver
        if driver is None:
            return ViewMessage(version=0, seat=seat, table=None, actions=[], log=[],
                               status="lobby", game_id=self.game_id)
        view = seat_view(driver.state, driver.events, seat, self.names(), self.seats,
                         version=self.version, over=self.status == "over",
                         game_id=self.game_id)
        if self.timed_out and self.game_id is not None:
            view.log = [*view.log, *(text for v, text in self.timed_out if v <= self.version)
                        ][-LOG_LINES:]
        clock = self.turn_clock
        if clock is not None and clock[0] == self.version and self.config.turn_timer_s:
            view.timer = TurnTimer(seat=clock[1], name=self.names()[clock[1]], ends_at=clock[2],
                                   seconds=self.config.turn_timer_s)
        return view

    def hint(self, player_id: str | None) -> list[HintRow]:
        """The search bot's estimate of each legal action of the player's seat, from their
        observation only: the recommended action first, each worded as on its button.

        :raises TableError: if the table allows no hints or the player is not to act.
        """
        from commerce.bots.search import best_index, default_iterations, search_hint

        if not self.config.hints:
            raise TableError("this table allows no hints")
        seat = self.seat_of(player_id)
        driver = self.driver
        if seat is None or driver is None or driver.waiting_for_human() != seat:
            raise TableError("hints are for the player to act")
        obs = engine.observe(driver.state, seat)
        legal = engine.legal_actions(driver.state)
        rng = random.Random(f"hint/{self.table_id}/{self.version}")
        budget = default_iterations(driver.rules.family, driver.rules) * 4 * len(legal) // 5
        try:
            hints = search_hint(obs, legal, rng, iterations=max(budget, len(legal)))
        except CommerceError as exc:
            raise TableError(f"hints are not available here: {exc}") from None
        spec = family_spec(driver.rules.family)
        words = _words(spec)
        estimates = [e for _, e in hints]
        best = best_index(estimates)
        rows = [HintRow(notation=spec.format_action(a),
                        label=words(spec.action_label(a, obs) if spec.action_label is not None
                                    else spec.format_action(a)),
                        gain=round(e.value, 3), win=round(e.win, 3), best=i == best)
                for i, (a, e) in enumerate(zip(legal, estimates, strict=True))]
        return sorted(rows, key=lambda r: (not r.best, -r.gain, -r.win))

    def say(self, player_id: str | None, text: str) -> ChatMessage:
        """A chat line from a seated player or a named spectator (kept bounded).

        :raises TableError: for an empty or too long line, or a speaker with no seat.
        """
        seat = self.seat_of(player_id)
        if seat is None:
            raise TableError("only seated players may chat")
        text = " ".join(text.split())
        if not text or len(text) > MAX_CHAT_CHARS:
            raise TableError(f"a chat line has 1 to {MAX_CHAT_CHARS} characters")
        msg = ChatMessage(from_=self.names()[seat], text=text)
        self.chat.append(msg)
        return msg


def amount(value: float, unit: str, *, signed: bool = True) -> str:
    """An amount in the ruleset's unit, one word per unit: ``+1 token``, ``-3 stakes``.

    >>> amount(1, "tokens"), amount(-3, "stakes"), amount(0, "points"), amount(2.5, "stakes")
    ('+1 token', '-3 stakes', '0 points', '+2.5 stakes')
    """
    number = f"{value:+g}" if signed and value else f"{value:g}"
    word = unit[:-1] if abs(value) == 1 and unit.endswith("s") else unit
    return f"{number} {word}"


_ONE_UNITS = re.compile(r"(?<![\d.,])([+-]?1) (token|stake|counter|card|point|horse|deal|"
                        r"hand|round|player|time|turn|game)s\b")


def one_word_per_unit(text: str) -> str:
    """*text* with one of a unit written in the singular.

    >>> one_word_per_unit("-1 stakes, 1 tokens, 11 cards, 2 tokens")
    '-1 stake, 1 token, 11 cards, 2 tokens'
    """
    return _ONE_UNITS.sub(r"\1 \2", text) if "1 " in text else text


_WORDED = ("score", "note", "count", "name")
"""The fields of a table's seats and piles that say amounts in words."""


def table_view(present: Any, obs: Any, names: Sequence[str],
               seats: Sequence[Seat] | None) -> TableView | None:
    """The family's table of *obs* as the protocol's :class:`TableView`, with who plays each
    seat (a bot, or a bot for a player away) where *seats* are given."""
    if present is None or present.table is None:
        return None
    data = dataclasses.asdict(present.table(obs, names))
    for key in ("progress", "hand_note", "prompt"):
        data[key] = one_word_per_unit(data[key])
    for part in (*data["seats"], *data["piles"]):
        for key in _WORDED:
            if key in part:
                part[key] = one_word_per_unit(part[key])
    for k, sv in enumerate(data["seats"]):
        if seats is not None and k < len(seats):
            sv["bot"] = seats[k].kind == "bot" or seats[k].away
            sv["away"] = seats[k].away
    return TableView.model_validate(data)


def seat_view(state: Any, events: Sequence[Event], seat: int | None, names: Sequence[str],
              seats: Sequence[Seat], *, version: int, over: bool,
              game_id: str | None = None) -> ViewMessage:
    """The view message of *seat* (None: a spectator), built only from
    ``engine.observe(state, seat)`` and ``engine.visible_events(events, seat)``, the seats'
    names and who plays them."""
    spec = family_spec(state.ruleset.family)
    obs = engine.observe(state, seat)
    present = spec.presentation
    table = table_view(present, obs, names, seats)
    shown = engine.visible_events(events, seat)
    words = _words(spec)
    log: list[str] = []
    for e in shown[-3 * LOG_LINES:]:
        line = spec.describe_event(e, names, seat)
        if line:
            log.extend(words(x) for x in line.splitlines())
    if table is not None and log:
        table.last = log[-1]
    result = engine.outcome(state)
    unit = payoff_unit(state.ruleset)
    deal_word = present.deal_word if present is not None else "deal"
    standings = deals = None
    reason = ""
    if result is not None:
        rows, won = _deals(spec, state, shown, names, unit)
        order = sorted(range(len(names)), key=lambda s: -result.payoffs[s])
        standings = [Standing(seat=s, name=names[s], payoff=result.payoffs[s],
                              result=amount(result.payoffs[s], unit), deals_won=won[s])
                     for s in order]
        deals = rows
        reason = words(result.reason)
    return ViewMessage(
        version=version, seat=seat, table=table,
        actions=_actions(state, obs, seat, seats, spec, words), log=log[-LOG_LINES:],
        status="over" if over or result is not None else _status(shown),
        showdown=_showdown(shown, names, seat, spec, words), standings=standings,
        deals=deals, unit=unit, deal_word=deal_word, reason=reason, game_id=game_id)


def _deals(spec: Any, state: Any, events: Sequence[Event], names: Sequence[str],
           unit: str) -> tuple[list[DealRow], list[int]]:
    """Every deal of a finished game read from its public events (the family's
    ``deal_reader``): what it paid each seat and who won it; and how many each seat won."""
    won = [0] * len(names)
    if spec.deal_reader is None:
        return [], won
    public = [e for e in events if e.visible_to is None]
    try:
        read = list(spec.deal_reader(state.ruleset, len(names), public))
    except (CommerceError, KeyError, IndexError, ValueError):
        return [], won
    for d in read:
        for w in d.winners:
            won[w] += 1
    return [DealRow(number=n, results=[amount(v, unit) for v in d.payoffs],
                    winners=[names[w] for w in d.winners])
            for n, d in enumerate(read, 1)], won


def _words(spec: Any) -> Callable[[str], str]:
    symbols = spec.presentation.card_symbols if spec.presentation is not None else None

    def words(text: str) -> str:
        text = one_word_per_unit(humanize(text))
        return symbols(text) if symbols is not None else text
    return words


def _actions(state: Any, obs: Any, seat: int | None, seats: Sequence[Seat], spec: Any,
             words: Callable[[str], str]) -> list[ActionView]:
    d = engine.decision(state)
    if seat is None or d is None or d.seat != seat or seats[seat].kind != "human" \
            or seats[seat].away:
        return []
    legal: tuple[Action, ...] = engine.legal_actions(state)
    group = spec.presentation.menu_group if spec.presentation is not None else None
    out: list[ActionView] = []
    for a in legal:
        notation = spec.format_action(a)
        label = spec.action_label(a, obs) if spec.action_label is not None else notation
        g = group(a, obs) if group is not None else None
        out.append(ActionView(notation=notation, label=words(label), cards=list(a.cards),
                              group=None if g is None else words(g.heading),
                              short=None if g is None else words(g.short),
                              out_of_turn=d.kind in OFFERS))
    return out


def _status(events: Sequence[Event]) -> Literal["playing", "showdown"]:
    for e in reversed(events):
        if e.kind == "showdown":
            return "showdown"
        if e.kind in ("deal_started", "hand_started"):
            break
    return "playing"


def _showdown(events: Sequence[Event], names: Sequence[str], seat: int | None, spec: Any,
              words: Callable[[str], str]) -> ShowdownView | None:
    for e in reversed(events):
        if e.kind == "showdown":
            text = spec.describe_event(e, names, seat) or ""
            return ShowdownView(lines=[words(x) for x in text.splitlines()],
                                winners=list(e.get("winners") or ()),
                                categories=[str(c) for c in (e.get("categories") or ())])
        if e.kind in ("deal_started", "hand_started"):
            return None
    return None
