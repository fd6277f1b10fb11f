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
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from commerce import engine
from commerce.bots import make_bot
from commerce.core import Action, ActionKind, Bot, Decision, DecisionKind, Event
from commerce.driver import Driver
from commerce.errors import CommerceError
from commerce.families.widow.options import WidowOptions
from commerce.family import GameState, Observation, family_spec, payoff_unit
from commerce.presentation import Presentation, humanize
from commerce.record import GameRecord, replay_steps
from commerce.rules import Ruleset, resolve
from commerce.server.botpool import HintJob, estimate
from commerce.server.names import distinct
from commerce.server.protocol import (
    MAX_CHAT_CHARS,
    ActionView,
    ChatMessage,
    DealRow,
    HintRow,
    OptionValue,
    SeatInfo,
    ShowdownView,
    Standing,
    TableInfo,
    TableView,
    TurnTimer,
    ViewMessage,
)
from commerce.text import standing, times

if TYPE_CHECKING:
    from commerce.bots.search import Estimate

__all__ = ["AWAY_BOT", "BOT_LEVELS", "BOT_MS", "HIDDEN_OFFERS", "OFFERS", "Seat", "Table",
           "TableConfig", "TableError", "amount", "bot_spec", "check_level", "one_word_per_unit",
           "seat_view", "table_view"]

OFFERS = frozenset({DecisionKind.BARTER_REPLY, DecisionKind.POUNCE_OFFER,
                    DecisionKind.HORSE_OFFER, DecisionKind.BUY_OFFER})
"""Decisions offered out of the ordinary turn order."""
HIDDEN_OFFERS = frozenset({DecisionKind.POUNCE_OFFER, DecisionKind.BUY_OFFER})
"""Offers put to one seat alone, whose very existence the other seats may not learn (who
holds three of a kind, who could buy): while one is pending, every other seat is shown the
table as if none were (the families' observations already do), and the server's own
messages (the seat to act, its buttons, refusals, timers, the pace) must do the same."""
STALE = "stale version {sent}: the game is at version {now}; act on the table as it is now"
"""The refusal of an action sent at a version the game has left."""
HELD = "your move is made: it is played when the table moves on"
"""The refusal of a second action while the first waits for the table's pace."""
AWAY_BOT = "heuristic"
"""The level of the bot that plays for a player who is away."""
LOG_LINES = 120
"""The most log lines a view carries (the newest)."""
CHAT_LINES = 50
"""The chat lines a table keeps."""
BOT_LEVELS = ("random", "heuristic", "search")
"""The bot levels a seat may have: a fixed menu, without options (the server sets how long
the search bot may think: :attr:`Table.bot_ms`)."""
BOT_MS = 300.0
"""How many milliseconds the search bot thinks per decision where the server sets no cap."""

Status = Literal["lobby", "playing", "over"]


class TableError(CommerceError):
    """A refused request or intent: one sentence; nothing changed."""


_Chain: TypeAlias = tuple[list[tuple[int, GameState, tuple[Event, ...]]], GameState]
"""The hidden offers pending (each: the seat offered, the state it is offered in, the events
before it), and the state once all are declined (:meth:`Table._chain`)."""


@dataclass(frozen=True)
class TableConfig:
    """A table's settings, fixed at its creation."""

    ruleset: str
    options: dict[str, OptionValue]
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

    def to_dict(self) -> dict[str, object]:
        """The stored form."""
        return dataclasses.asdict(self)


def check_level(level: str, models: tuple[str, ...] = ()) -> None:
    """Refuse a bot level that is not on the menu (:data:`BOT_LEVELS`, and ``learned:NAME``
    for each model *NAME* of *models*, those the server's operator offers).

    >>> check_level("learned:peel-s1", ("peel-s1",))
    >>> check_level("learned:../x", ("peel-s1",))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    commerce.server.tables.TableError: unknown bot level 'learned:../x'; levels are: ...

    :raises TableError: naming the levels.
    """
    offered = (*BOT_LEVELS, *(f"learned:{m}" for m in models))
    if level not in offered:
        raise TableError(f"unknown bot level {level[:30]!r}; levels are: "
                         f"{', '.join(offered)}")


def bot_spec(level: str, ms: float = BOT_MS) -> str:
    """The bot a seat's *level* plays with: the search bot at the server's time cap *ms*, a
    learned model by its name (a level stored with options counts as its menu name)."""
    name, _, model = level.partition(":")
    if name == "learned":
        return f"learned:model={model}"
    return f"search:ms={ms:g}" if name == "search" else name


def _fits(level: str, rules: Ruleset, players: int) -> None:
    """Refuse a learned model at a table of rules or seats other than those it was trained
    for."""
    if not level.startswith("learned:"):
        return
    bot = _bot(level, models=(level.partition(":")[2],))
    config = getattr(bot, "config", None)
    if config is not None and (config.rules != rules.id or config.players != players):
        raise TableError(f"bot {level} plays {config.rules} with {config.players} players, "
                         f"not {rules.id} with {players}")


def _bot(level: str, ms: float = BOT_MS, models: tuple[str, ...] = ()) -> Bot:
    check_level(level if level.startswith("learned:") else level.split(":", 1)[0], models)
    try:
        return make_bot(bot_spec(level, ms))
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
    held: dict[int, tuple[str, int, int]] = field(default_factory=dict)
    """Actions made and not yet played, by seat: (notation, the public version it was made at,
    the game's version it is to be played at). At a paced table with hidden offers every
    action waits for the table's pace (:meth:`tick`); not stored."""
    last_public_at: float = 0.0
    """When (monotonic seconds) the table last changed for everyone (not stored)."""
    last_seat_at: float = 0.0
    """When a seat last made a public move (not stored)."""
    offers_at: float | None = None
    """When the offers pending now were put (they lapse one offer window later)."""
    bot_ms: float = BOT_MS
    """How long the search bot thinks per decision (the server's cap; not stored)."""
    models: tuple[str, ...] = ()
    """The learned models the server offers as levels ``learned:NAME`` (not stored)."""
    answers: dict[tuple[int, int], Action] = field(default_factory=dict)
    """Bots' decisions made ahead (in the server's bot workers), by (seat, the game's version
    they are for); played when due instead of thinking then (not stored)."""
    _chain_cache: tuple[tuple[int, int], _Chain] | None = None
    _people_in: tuple[int, bool] | None = None
    _public: int = 0
    _public_obs: Observation | None = None
    _tracked: Driver | None = None

    @classmethod
    def new(cls, table_id: str, invite: str, host_id: str, config: TableConfig, *,
            bots: dict[int, str] | None = None, models: tuple[str, ...] = ()) -> Table:
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
            check_level(level, models)
            _fits(level, rules, config.players)
            seats[k] = Seat("bot", level=level)
        _name_bots(seats)
        table = cls(table_id, invite, host_id, config, seats)
        table.models = models
        return table

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
            check_level(lvl, self.models)
            _fits(lvl, self.rules, self.config.players)
            bot = _bot(lvl, self.bot_ms, self.models)
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

    def remove(self, by: str, seat: int, *, advance: bool = True) -> None:
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
            self._set_agent(k, _bot(AWAY_BOT, self.bot_ms))
            self.held.pop(k, None)
            if advance:
                self.advance()
        else:
            self.seats[k] = Seat()
            _name_bots(self.seats)

    def _seat_index(self, seat: int) -> int:
        if not 0 <= seat < len(self.seats):
            raise TableError(f"seat {seat} is not a seat from 0 to {len(self.seats) - 1}")
        return seat

    def set_away(self, seat: int, away: bool, *, advance: bool = True) -> None:
        """A player away (a bot plays for them, shown as such) or back; *advance*: the bots
        play on at once (else at the table's pace)."""
        s = self.seats[seat]
        if s.kind != "human" or s.away == away:
            return
        s.away = away
        if self.driver is not None:
            self._set_agent(seat, _bot(AWAY_BOT, self.bot_ms) if away else None)
            self.held.pop(seat, None)
            if away and advance:
                self.advance()

    def _set_agent(self, seat: int, bot: Bot | None) -> None:
        driver = self.driver
        assert driver is not None
        for key in [k for k in self.answers if k[0] == seat]:
            del self.answers[key]
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
        self._track(None)
        self.turn_clock = None
        self.timed_out.clear()
        self.held.clear()
        self.answers.clear()
        self.offers_at = None
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
            return _bot(s.level or AWAY_BOT, self.bot_ms, self.models)
        return _bot(AWAY_BOT, self.bot_ms) if s.away else None

    def resume(self, record: GameRecord) -> None:
        """Continue the stored game of *record* (a restarted server).

        :raises CommerceError: if the record does not replay.
        """
        agents = [self._agent(s) for s in self.seats]
        self.driver = Driver.resume(record, agents, names=self.names())
        self._track(record)
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
        return 0 if self.driver is None else len(self.driver._actions)

    @property
    def public_version(self) -> int:
        """How many of the game's actions changed the table as a spectator sees it: the
        version every view shows and every action is sent with. An answer to a hidden offer
        (a declined pounce, a seat that does not buy) changes nothing public, so it leaves
        this alone, and sends the other seats nothing."""
        if self.driver is None:
            return 0
        if self._tracked is not self.driver:
            self._track(None)
        return self._public

    def _track(self, record: GameRecord | None) -> None:
        """Count the public changes of the current game (from *record*'s start, where it was
        resumed) and follow each new action."""
        driver = self.driver
        assert driver is not None
        count = 0
        if record is None and driver.actions:
            record = driver.record()
        if record is not None:
            last = engine.observe(engine.new_game(record.rules, record.players,
                                                  dealer=record.dealer), None)
            for _, transition in replay_steps(record):
                obs = engine.observe(transition.state, None)
                if obs != last:
                    count += 1
                last = obs
        else:
            last = engine.observe(driver.state, None)
        self._public, self._public_obs, self._tracked = count, last, driver
        driver.on_events = self._stepped

    def _stepped(self, _events: tuple[Event, ...]) -> None:
        driver = self.driver
        if driver is None or self._tracked is not driver:
            return
        obs = engine.observe(driver.state, None)
        if obs != self._public_obs:
            self._public += 1
            self._public_obs = obs

    # -- hidden offers ---------------------------------------------------------------------------
    def hides_offers(self) -> bool:
        """Whether the game can put an offer to one seat alone (Pounce, Cox's "I buy")."""
        options = self.rules.options
        return (isinstance(options, WidowOptions) and options.pounce) or self.rules.family == "cox"

    def holds(self) -> bool:
        """Whether every action waits for the table's pace: a paced table whose game hides
        offers (so that nothing shows whether an offer is pending)."""
        return self.config.offer_window_s > 0 and self.hides_offers()

    def offer_pending(self) -> bool:
        """Whether a hidden offer waits for its answer now."""
        d = None if self.driver is None else self.driver.decision()
        return d is not None and d.kind in HIDDEN_OFFERS

    def _chain(self) -> _Chain:
        """The hidden offers pending, each as (the seat offered, the state it is offered in,
        the events before it since now) should every earlier one be declined; and the state
        once all are declined (the table as the others are shown it)."""
        driver = self.driver
        assert driver is not None
        cached = self._chain_cache
        key = (id(driver), self.version)
        if cached is not None and cached[0] == key:
            return cached[1]
        state = driver.state
        chain: list[tuple[int, GameState, tuple[Event, ...]]] = []
        extra: tuple[Event, ...] = ()
        while (d := engine.decision(state)) is not None and d.kind in HIDDEN_OFFERS:
            assert d.seat is not None
            chain.append((d.seat, state, extra))
            t = engine.apply(state, _decline(state))
            state, extra = t.state, extra + t.events
        result = (chain, state)
        self._chain_cache = (key, result)
        return result

    def public_decision(self, seat: int | None) -> Decision | None:
        """Who must decide what, as *seat* is shown it (a hidden offer to another seat shows
        as the turn it interrupts)."""
        driver = self.driver
        if driver is None:
            return None
        obs = engine.observe(driver.state, seat)
        shown: Decision | None = getattr(obs, "decision", None)
        return shown if hasattr(obs, "decision") else driver.decision()

    def _settled_for(self, seat: int) -> GameState | None:
        """The state in which *seat* acts as the table shows it: the state once every hidden
        offer is declined, if there the seat has the decision it is shown (else None)."""
        chain, settled = self._chain()
        shown = self.public_decision(seat)
        d = engine.decision(settled)
        if shown is None or d is None or shown.seat != seat or d.seat != seat \
                or d.kind != shown.kind:
            return None
        return settled

    def _state_for(self, seat: int) -> tuple[GameState, int]:
        """The state whose legal actions *seat* may choose from now, and the game's version
        its action is to be played at: its own offer's, or the settled turn's.

        :raises TableError: with the words of the table the seat is shown, where it may not
            act now.
        """
        driver = self.driver
        assert driver is not None
        chain, settled = self._chain()
        for i, (holder, state, _) in enumerate(chain):
            if holder == seat:
                return state, self.version + i
        shown = self.public_decision(seat)
        if shown is None:
            raise TableError("the game is over")
        if shown.seat != seat:
            who = "chance" if shown.seat is None else f"seat {shown.seat}"
            raise TableError(f"it is not your turn: {who} acts")
        return settled, self.version + len(chain)

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
            advance: bool = True, now: float = 0.0) -> None:
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
        if version != self.public_version:
            raise TableError(STALE.format(sent=version, now=self.public_version))
        if not self.holds():
            try:
                action = engine.parse_action(driver.state, notation)
                driver.act(seat, action)
            except CommerceError as exc:
                raise TableError(str(exc)) from None
            self.last_public_at = self.last_seat_at = now
            if advance:
                self.advance()
            else:
                while (d := driver.decision()) is not None and d.seat is None:
                    driver.step()
                if driver.outcome() is not None:
                    self.status = "over"
            return
        # a table that hides offers: the action is checked against the table as the seat is
        # shown it, then played at once only where nothing could be pending, else held
        if seat in self.held:
            raise TableError(HELD)
        state, at = self._state_for(seat)
        try:
            action = engine.parse_action(state, notation)
            engine.check(state, action, seat=seat)
        except CommerceError as exc:
            raise TableError(str(exc)) from None
        if at == self.version and not self.offer_pending() \
                and now >= self.last_public_at + self.config.offer_window_s:
            self._play(seat, action, now)
        else:
            self.held[seat] = (notation, self.public_version, at)

    def _play(self, seat: int, action: Action, now: float) -> None:
        """Play a checked action of *seat* now, and note the time of a public change."""
        driver = self.driver
        assert driver is not None
        before = self.public_version
        driver.act(seat, action)
        self._moved(before, now, seat=True)

    def _moved(self, before: int, now: float, *, seat: bool) -> None:
        if self.public_version != before:
            self.last_public_at = now
            if seat:
                self.last_seat_at = now
        if self.offer_pending():
            if self.offers_at is None:
                self.offers_at = now
        else:
            self.offers_at = None
        driver = self.driver
        if driver is not None and driver.outcome() is not None:
            self.status = "over"

    def next_due(self, now: float) -> float | None:
        """When (monotonic seconds) the table's next step is due at its pace: a pending
        offer's lapse, chance, a bot's move or a held action; None when it waits for a
        person (or the game is over)."""
        driver = self.driver
        if driver is None or self.status != "playing":
            return None
        window = self.pace_window()
        d = driver.decision()
        if d is None:
            return now  # over: the next step says so
        if d.kind in HIDDEN_OFFERS:
            if self.offers_at is None:
                self.offers_at = now
            return self.offers_at + window
        if d.seat is None:
            return self.last_seat_at + window if self.holds() else now
        if d.seat in self.held or driver.agents[d.seat] is not None:
            return self.last_public_at + window
        return None

    def pace_window(self) -> float:
        """The wait before each step at the table's pace: its offer window while a person at
        the table still plays; once every person is out of the game (the token games), a
        tenth of it, so that they need not watch the bots' long end at a person's pace. The
        wait is the same for every step either way, so it still shows nothing of who holds
        an offer."""
        window = self.config.offer_window_s
        driver = self.driver
        if driver is None:
            return window
        version = self.public_version
        if self._people_in is None or self._people_in[0] != version:
            self._people_in = (version, self._someone_plays())
        return window if self._people_in[1] else window / 10

    def _someone_plays(self) -> bool:
        assert self.driver is not None
        present = family_spec(self.driver.rules.family).presentation
        people = [k for k, s in enumerate(self.seats) if s.kind == "human"]
        if not people or present is None or present.table is None:
            return True
        seats = present.table(engine.observe(self.driver.state, None), self.names()).seats
        return any(not seats[k].out for k in people)

    def bot_jobs(self) -> list[tuple[tuple[int, int], str, Observation, tuple[Action, ...], int]]:
        """The search bots' decisions the table's pace will ask for next, not yet made (the
        other levels answer at once): its next move where a bot is to act, and each pending
        offer put to a bot (in the state it is put in, should the earlier ones be declined).
        Each as ((seat, the game's version it is for), the bot's spec, its observation, the
        legal actions, a seed for its generator drawn from the seat's own)."""
        driver = self.driver
        if driver is None or self.status != "playing":
            return []
        wanted: list[tuple[int, int, GameState]] = []
        if self.offer_pending():
            chain, _ = self._chain()
            wanted = [(h, self.version + i, st) for i, (h, st, _) in enumerate(chain)]
        else:
            d = driver.decision()
            if d is not None and d.seat is not None and d.seat not in self.held:
                wanted = [(d.seat, self.version, driver.state)]
        out = []
        for seat, at, state in wanted:
            bot = driver.agents[seat]
            if bot is None or (seat, at) in self.answers:
                continue
            spec = str(getattr(bot, "spec", "") or bot.name)
            if not spec.startswith("search"):
                continue  # the other levels answer at once, in the table's own process
            out.append(((seat, at), spec, engine.observe(state, seat),
                        engine.legal_actions(state), driver.seat_rngs[seat].getrandbits(63)))
        return out

    def _bot_move(self, seat: int) -> None:
        """The bot of *seat* acts now: its decision made ahead, else it thinks now."""
        driver = self.driver
        assert driver is not None
        answer = self.answers.pop((seat, self.version), None)
        if answer is not None and engine.is_legal(driver.state, answer, seat=seat):
            driver.act(seat, answer)
        else:
            driver.step()
        for key in [k for k in self.answers if k[1] < self.version]:
            del self.answers[key]

    def tick(self, now: float) -> list[tuple[int, str]]:
        """The table's next step, where it is due (:meth:`next_due`): the pending offers
        answered (each by its held answer, its bot, or let lapse: declined), chance, and one
        seat's move (its held action, or its bot's). Returns the refusals to send: (seat,
        the words), each of a held action the table moved past."""
        driver = self.driver
        due = self.next_due(now)
        if driver is None or due is None or now < due:
            return []
        refusals: list[tuple[int, str]] = []
        before = self.public_version
        if self.offer_pending():
            while (d := driver.decision()) is not None and d.kind in HIDDEN_OFFERS:
                assert d.seat is not None
                held = self.held.pop(d.seat, None)
                if held is not None and held[2] == self.version:
                    driver.act(d.seat, engine.parse_action(driver.state, held[0]))
                elif driver.agents[d.seat] is not None:
                    self._bot_move(d.seat)
                else:
                    driver.act(d.seat, _decline(driver.state))  # the offer lapses
            self.offers_at = None
            if self.public_version != before:  # taken: every other held action is stale
                for seat, (_, sent, _) in sorted(self.held.items()):
                    refusals.append((seat, STALE.format(sent=sent, now=self.public_version)))
                self.held.clear()
                self._moved(before, now, seat=True)
                return refusals
        d = driver.decision()
        if d is None:
            self._moved(before, now, seat=False)
            return refusals
        if d.seat is None:
            if self.holds() and now < self.last_seat_at + self.config.offer_window_s:
                return refusals
            while (d := driver.decision()) is not None and d.seat is None:
                driver.step()
            self._moved(before, now, seat=False)
            if self.holds() or d is None or d.kind in HIDDEN_OFFERS:
                return refusals
            before = self.public_version
        if d.seat is None or now < self.last_public_at + self.config.offer_window_s:
            return refusals
        seat = d.seat
        held = self.held.pop(seat, None)
        if held is not None:
            if held[2] != self.version:
                refusals.append((seat, STALE.format(sent=held[1], now=self.public_version)))
                return refusals
            try:
                self._play(seat, engine.parse_action(driver.state, held[0]), now)
            except CommerceError as exc:
                refusals.append((seat, str(exc)))
            return refusals
        if driver.agents[seat] is not None:
            self._bot_move(seat)
            if not self.holds():  # chance follows at once (it can open no hidden offer)
                while (d := driver.decision()) is not None and d.seat is None:
                    driver.step()
            self._moved(before, now, seat=True)
        return refusals

    def timer_for(self) -> tuple[int, int] | None:
        """(version, seat) of the person whose turn a turn timer should run for now: the
        table has timers, the game is playing and a seated person (not away) is to act."""
        driver = self.driver
        if self.config.turn_timer_s is None or driver is None or self.status != "playing":
            return None
        seat = self._person_to_act()
        return None if seat is None else (self.public_version, seat)

    def _person_to_act(self) -> int | None:
        """The seated person (not away) to act as every seat is shown it: a hidden offer
        pending shows as the turn it interrupts."""
        driver = self.driver
        if driver is None:
            return None
        d = self.public_decision(None)
        if d is None or d.seat is None or driver.agents[d.seat] is not None:
            return None
        return d.seat

    def time_out(self, seat: int, version: int, *, advance: bool = True) -> bool:
        """The turn timer of *seat* ran out at *version*: the table's bot
        (:data:`AWAY_BOT`) plays that one turn for the player, from the player's own
        observation, and the log says so. Nothing happens (False) if the game has moved on
        or it is no longer that seat's turn."""
        driver = self.driver
        if (driver is None or self.status != "playing" or version != self.public_version
                or self._person_to_act() != seat or seat in self.held):
            return False
        state = self._settled_for(seat)
        if state is None:
            return False
        bot = _bot(AWAY_BOT, self.bot_ms)
        # the seat's own generator (seeded from the game's secret seed), not one anyone
        # could make from the table's id
        action = bot.act(engine.observe(state, seat), engine.legal_actions(state),
                         driver.seat_rngs[seat])
        text = engine.format_action(state, action)
        self.turn_clock = None
        line = f"{self.names()[seat]}'s time ran out: the table's bot played {text}"
        if self.holds():
            self.held[seat] = (engine.format_action(state, action), version,
                               self.version + len(self._chain()[0]))
            self.timed_out.append((version + 1, line))
            del self.timed_out[:-LOG_LINES]
            return True
        driver.act(seat, action)
        self.timed_out.append((self.public_version, line))
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
        """The table as *seat* may see it (None: a spectator): :func:`seat_view` of the game.

        While a hidden offer is pending, the seat offered sees it (and a seat offered further
        on sees its own, should the earlier ones be declined); every other seat sees what it
        would with no offer pending: the seat to act, with its buttons, the same version."""
        driver = self.driver
        if driver is None:
            return ViewMessage(version=0, seat=seat, table=None, actions=[], log=[],
                               status="lobby", game_id=self.game_id)
        state, events = driver.state, driver.events
        settled = None
        if self.offer_pending() and seat is not None:
            chain, _ = self._chain()
            mine = next(((st, ev) for holder, st, ev in chain if holder == seat), None)
            if mine is not None:
                state, events = mine[0], [*events, *mine[1]]
            else:
                settled = self._settled_for(seat)
        view = seat_view(state, events, seat, self.names(), self.seats,
                         version=self.public_version, over=self.status == "over",
                         game_id=self.game_id)
        if settled is not None:
            spec = family_spec(driver.rules.family)
            view.actions = _actions(settled, engine.observe(settled, seat), seat, self.seats,
                                    spec, _words(spec))
        if self.timed_out and self.game_id is not None:
            view.log = [*view.log, *(text for v, text in self.timed_out
                                     if v <= self.public_version)][-LOG_LINES:]
        clock = self.turn_clock
        if clock is not None and clock[0] == self.public_version and self.config.turn_timer_s:
            view.timer = TurnTimer(seat=clock[1], name=self.names()[clock[1]], ends_at=clock[2],
                                   seconds=self.config.turn_timer_s)
        return view

    def hint(self, player_id: str | None) -> list[HintRow]:
        """The search bot's estimate of each legal action of the player's seat, from their
        observation only: the recommended action first, each worded as on its button (worked
        out here; the server has its bot workers do it: :meth:`hint_job`, :meth:`hint_rows`).

        :raises TableError: if the table allows no hints or the player is not to act.
        """
        job = self.hint_job(player_id)
        try:
            estimates = estimate(job)
        except CommerceError as exc:
            raise TableError(f"hints are not available here: {exc}") from None
        return self.hint_rows(job, estimates)

    def hint_job(self, player_id: str | None) -> HintJob:
        """What a hint for the player asks of the search bot: their observation, legal
        actions, a seed and a budget.

        :raises TableError: if the table allows no hints or the player is not to act.
        """
        from commerce.bots.search import default_iterations

        if not self.config.hints:
            raise TableError("this table allows no hints")
        seat = self.seat_of(player_id)
        driver = self.driver
        if seat is None or driver is None or self.status != "playing":
            raise TableError("hints are for the player to act")
        try:
            state, _ = self._state_for(seat)
        except TableError:
            raise TableError("hints are for the player to act") from None
        d = engine.decision(state)
        if d is None or d.seat != seat:
            raise TableError("hints are for the player to act")
        legal = engine.legal_actions(state)
        budget = default_iterations(driver.rules.family, driver.rules) * 4 * len(legal) // 5
        seed = random.Random(f"hint/{self.table_id}/{self.public_version}").getrandbits(63)
        return HintJob(engine.observe(state, seat), legal, seed, max(budget, len(legal)))

    def hint_rows(self, job: HintJob, estimates: Sequence[Estimate]) -> list[HintRow]:
        """A hint's rows from the search bot's *estimates* of the job's actions: the
        recommended action first, then by gain."""
        from commerce.bots.search import best_index

        best = best_index(estimates)
        rows = [self._hint_row(job, a, gain=round(e.value, 3), win=round(e.win, 3),
                               best=i == best)
                for i, (a, e) in enumerate(zip(job.legal, estimates, strict=True))]
        return sorted(rows, key=lambda r: (not r.best, -(r.gain or 0.0), -(r.win or 0.0)))

    def policy_rows(self, job: HintJob, chances: Sequence[float], best: int) -> list[HintRow]:
        """A hint's rows from a learned model's policy (:func:`.botpool.policy`): how often it
        plays each of the job's actions (*chances*), its choice (*best*, an index of the
        actions) first, then the likeliest."""
        rows = [self._hint_row(job, a, chance=round(c, 4), best=i == best)
                for i, (a, c) in enumerate(zip(job.legal, chances, strict=True))]
        return sorted(rows, key=lambda r: (not r.best, -(r.chance or 0.0)))

    def _hint_row(self, job: HintJob, action: Action, **figures: Any) -> HintRow:
        """A hint's row of *action*, worded as on its button, with its *figures*."""
        assert self.driver is not None
        spec = family_spec(self.driver.rules.family)
        label = spec.action_label(action, job.obs) if spec.action_label is not None \
            else spec.format_action(action)
        return HintRow(notation=spec.format_action(action), label=_words(spec)(label),
                       **figures)

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


def table_view(present: Presentation | None, obs: Observation, names: Sequence[str],
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


def seat_view(state: GameState, events: Sequence[Event], seat: int | None, names: Sequence[str],
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
        order = standing(result, len(names))  # the terminal's order, ties included
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


def _deals(spec: Any, state: GameState, events: Sequence[Event], names: Sequence[str],
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


def _decline(state: GameState) -> Action:
    """The answer that lets a hidden offer go (what a lapsed offer is taken as)."""
    legal = engine.legal_actions(state)
    return next((a for a in legal if a.kind is ActionKind.DECLINE), legal[-1])


def _words(spec: Any) -> Callable[[str], str]:
    symbols = spec.presentation.card_symbols if spec.presentation is not None else None

    def words(text: str) -> str:
        text = one_word_per_unit(times(humanize(text)))
        return symbols(text) if symbols is not None else text
    return words


def _actions(state: GameState, obs: Observation, seat: int | None, seats: Sequence[Seat], spec: Any,
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
