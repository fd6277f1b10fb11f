"""The runner: play these games with these bots, and give back a table per game and per deal.

Every application that plays many games (``simulate``, ``tournament``, the analyses) asks the
engines the same thing. A :class:`Job` says what to play: the ruleset, the seats, the bots, how
many games and the master seed, and whether each deal is to be read. A :class:`Runner` plays it
and returns a :class:`Table`: one row per game (:class:`Games`: each seat's bot and payoff,
deals won, decisions, what the ruleset counts) and, where asked, one row per deal
(:class:`Deals`: its dealer, what it paid each seat, who took the pool with what, its
decisions). The applications only read tables.

Two runners play a job: :data:`REFERENCE` (the driver and the Python bots, in worker
processes with ``jobs``) and :data:`COMPILED` (the family's compiled kernel,
:mod:`commerce.compiled`, on threads, for the bots and options it plays). :func:`choose_engine`
chooses between them for ``--engine auto|reference|compiled`` (``fast``: ``compiled``, one
version more, with a ``DeprecationWarning``), and :func:`runner_for` gives the runner it chose.

Game *g* of a job without line-ups is played by the bots cycled over the seats, with the seed
``game_seed(seed, g)``. With :attr:`Job.lineups` (a tournament's blocks) the games come in
blocks of ``len(lineups)``: game *j* of block *b* seats line-up *j*, and the games of a block
share the seed ``game_seed(seed, b)``, so they are dealt the same cards. A seed reproduces a
table within one runner; the kernel's random streams are not the reference's, so the two
agree statistically and not game for game, but a game the kernel played, replayed through the
reference engine and read by :func:`read_deals`, gives the kernel's rows exactly (the tests
check it).

>>> from commerce.rules import find_ruleset
>>> job = Job(find_ruleset("peel"), players=3, bots=("random", "heuristic"), games=4, seed=1,
...           deals=True)
>>> table = REFERENCE.run(job)
>>> table.games.payoffs.shape, int(table.games.payoffs.sum()), table.engine
((4, 3), 0, 'reference')
>>> table.games.lineups[0].tolist(), len(table.deals.game) == int(table.games.deals.sum())
([0, 1, 0], True)
"""

from __future__ import annotations

import random
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeAlias

import numpy as np
import numpy.typing as npt

from commerce.apps.jobs import Interrupted, Spread, run_blocks
from commerce.core import Bot, Event, Outcome
from commerce.errors import CommerceError, RulesetError
from commerce.family import DealReader, DealSummary, family_spec
from commerce.rules import Ruleset

if TYPE_CHECKING:
    from commerce.compiled import BatchResult

ENGINES = ("auto", "reference", "compiled")
"""The engines a run may ask for: the compiled kernel when it can (auto), the reference
engine, or the compiled kernel (compiled). ``fast``, the former name of ``compiled``, is
still accepted for one version, with a ``DeprecationWarning`` (:func:`resolve_engine`)."""

CHUNK = 10
"""Games per unit of the reference runner's work without line-ups (fixed, so that results do
not depend on ``jobs``)."""

KERNEL_PIECE = 4_000
"""Games of a piece of the compiled runner's batch when it reads each deal (its per-deal
arrays a few MB)."""

KERNEL_ROOM = 256
"""Deals a row of the compiled runner's per-deal arrays holds where the kernel's sessions vary
in length (at least the kernel's ``deals``)."""

KERNEL_BLOCKS = 4_096
"""Blocks of a piece of the compiled runner's batch with line-ups (progress is told after each
piece)."""


def game_seed(master: int, index: int) -> int:
    """The seed of game *index* of a run with seed *master* (stable across versions)."""
    return random.Random(f"commerce/{master}/{index}").getrandbits(63)


def resolve_engine(name: str) -> str:
    """The engine *name* asks for: ``fast`` (deprecated, warning) is ``compiled``.

    >>> resolve_engine("auto")
    'auto'
    """
    if name == "fast":
        warnings.warn("the engine 'fast' is now called 'compiled' (--engine compiled)",
                      DeprecationWarning, stacklevel=2)
        return "compiled"
    return name


def choose_engine(rules: Ruleset, players: int, bots: Sequence[str], engine_name: str,
                  reports: str | None = None, what: str = "") -> tuple[str, str]:
    """``(engine, why)``: the engine a run of *bots* under *rules* uses, and why.

    ``auto`` takes the compiled kernel when the family has one, it plays every option of
    *rules*, every bot in the line-up has a compiled policy, and (where *reports* names one)
    the kernel's attribute *reports* is true: it reports what the application reads (*what*,
    in words); otherwise the reference.

    >>> from commerce.rules import find_ruleset
    >>> choose_engine(find_ruleset("peel"), 4, ["search"], "auto")
    ('reference', 'bot search has no compiled policy')

    :raises CommerceError: for ``compiled`` when the kernel cannot play the run or does not
        report *what*, saying why; for an engine not in :data:`ENGINES`.
    """
    from commerce.compiled import build_kernel, kernel_reason, policy_missing

    engine_name = resolve_engine(engine_name)
    if engine_name not in ENGINES:
        raise CommerceError(f"--engine must be one of {', '.join(ENGINES)}, not {engine_name!r}")
    if engine_name == "reference":
        return "reference", "asked for"
    reason = kernel_reason(rules, bots)
    kernel: Any = None
    if reason is None:
        try:
            kernel = build_kernel(rules, players)
            reason = policy_missing(kernel, bots)
        except RulesetError as exc:
            reason = str(exc)
    if reason is None and reports is not None and not getattr(kernel, reports, False):
        reason = f"the {rules.family} family's kernel does not report {what}"
    if reason is None:
        return ("compiled",
                "every bot has a compiled policy" if engine_name == "auto" else "asked for")
    if engine_name == "compiled":
        raise CommerceError(f"--engine compiled: {reason}")
    return "reference", reason


@dataclass(frozen=True, slots=True)
class Job:
    """What to play: *games* games of *rules* at *players* seats, the master seed *seed*.

    Without *lineups* the bots (specs, as :func:`commerce.bots.make_bot` reads them) are cycled
    over the seats in every game; with them the games come in blocks of ``len(lineups)``, game
    *j* of a block seating ``lineups[j]`` (a bot index by seat), the games of a block sharing
    their seed (see the module's text), and *games* is a whole number of blocks. With *deals*
    every deal is read (:attr:`Table.deals`).
    """

    rules: Ruleset
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int
    lineups: tuple[tuple[int, ...], ...] = ()
    deals: bool = False

    def __post_init__(self) -> None:
        if self.games < 1:
            raise CommerceError("--games must be at least 1")
        if not self.bots:
            raise CommerceError("give at least one bot, e.g. --bots heuristic")
        if self.lineups:
            if self.games % len(self.lineups):
                raise CommerceError("a job with line-ups plays whole blocks of games")
            for lineup in self.lineups:
                if len(lineup) != self.players or not all(
                        0 <= b < len(self.bots) for b in lineup):
                    raise CommerceError("each line-up names a bot of the job at every seat")

    @property
    def block(self) -> int:
        """Games sharing one seed: ``len(lineups)``, or 1 without line-ups."""
        return len(self.lineups) or 1

    def lineup(self, game: int) -> tuple[int, ...]:
        """The bot index (into :attr:`bots`) of each seat in game *game*."""
        if self.lineups:
            return self.lineups[game % len(self.lineups)]
        return tuple(i % len(self.bots) for i in range(self.players))

    def seed_of(self, game: int) -> int:
        """The seed the reference engine plays game *game* with."""
        return game_seed(self.seed, game // self.block)


Ints: TypeAlias = npt.NDArray[np.int64]
"""A numpy array of whole numbers (seats, counts, stakes)."""
Floats: TypeAlias = npt.NDArray[np.float64]
"""A numpy array of real numbers."""


@dataclass(frozen=True, slots=True, eq=False)
class Games:
    """One row per game (numpy arrays, the first axis the game's index in the job)."""

    lineups: Ints
    """``(games, players)``: the bot index (into :attr:`Job.bots`) of each seat."""
    payoffs: Ints
    """``(games, players)``: each seat's net over the game (stakes, tokens, points ...)."""
    wins: Ints
    """``(games, players)``: the deals (or Cox's hands) each seat won."""
    decisions: Ints
    """``(games,)``: player decisions made (chance's draws not counted)."""
    deals: Ints
    """``(games,)``: the deals each game played where they were read (:attr:`Job.deals`),
    else zeros."""
    out_in: Ints
    """``(games, players)``: the deal (counted from 1) in which each seat went out, 0 where
    it did not (all zeros where nobody goes out)."""
    counts: dict[str, Ints]
    """What else the ruleset counts for each seat over a game, by name, each
    ``(games, players)``: on the reference engine every whole-number figure by seat of the
    game's outcome (``tokens`` left, ...), in the order the games first gave them; on the
    kernel ``tokens`` where its rules track them."""


@dataclass(frozen=True, slots=True, eq=False)
class Deals:
    """One row per deal, in the order of the games and of the deals in each game."""

    game: Ints
    """``(rows,)``: the game's index in the job."""
    deal: Ints
    """``(rows,)``: the deal's place in its game, from 0."""
    dealer: Ints
    """``(rows,)``: the deal's dealer (Cox's Retailer)."""
    payoffs: Floats
    """``(rows, players)``: what the deal paid each seat (antes and purchases included); in
    Cox's game the points each seat scored in the hand."""
    winners: Ints
    """``(rows,)``: the seats that took the pool, a bit mask (bit *s*: seat *s*), 0 where
    nobody did."""
    categories: Ints
    """``(rows, players)``: each seat's hand category at the showdown, an index of
    :attr:`category_names` (-1: none)."""
    decisions: Ints
    """``(rows,)``: the player decisions made in the deal."""
    category_names: tuple[str, ...]
    """The categories' names by index."""


@dataclass(frozen=True, slots=True, eq=False)
class Table:
    """What a :class:`Runner` played."""

    games: Games
    """One row per game."""
    deals: Deals | None
    """One row per deal, where the job asked (:attr:`Job.deals`)."""
    engine: str
    """``reference`` or ``compiled``."""
    first_call_s: float | None = None
    """On the kernel: building it and loading (or the first time compiling) its code."""
    seconds: float = 0.0
    """Playing the games."""


class Runner(Protocol):
    """Plays a :class:`Job` (:data:`REFERENCE`, :data:`COMPILED`)."""

    name: str
    """``reference`` or ``compiled``."""

    def run(self, job: Job, *, jobs: int | Spread = 1,
            progress: Callable[[int], None] | None = None) -> Table:
        """The job's table. *progress* is told the games finished; *jobs* processes (or a
        :class:`commerce.apps.jobs.Spread`) share the reference engine's games.

        :raises Interrupted: on Ctrl-C, saying how many games were finished.
        """
        ...


def runner_for(engine: str) -> Runner:
    """The runner of *engine* (``reference`` or ``compiled``, as :func:`choose_engine`
    says)."""
    if engine == "compiled":
        return COMPILED
    if engine == "reference":
        return REFERENCE
    raise CommerceError(f"no runner for the engine {engine!r}")


def deal_reader(rules: Ruleset) -> DealReader:
    """The deal reader of *rules*' family (the family's ``deal_reader`` hook).

    :raises CommerceError: for a family without one yet.
    """
    reader = family_spec(rules.family).deal_reader
    if reader is None:
        raise CommerceError(f"the analyses do not read {rules.family}-family games yet "
                            f"({rules.id}); give the family a deal_reader hook")
    return reader


class DealRow(NamedTuple):
    """One deal read from a game's events (:func:`read_deals`): the columns of a
    :class:`Deals` row, the categories by name."""

    dealer: int
    payoffs: tuple[float, ...]
    winners: int
    categories: tuple[str, ...]
    decisions: int


def read_deals(rules: Ruleset, players: int, events: Sequence[Event],
               decisions_at: Sequence[int]) -> list[DealRow]:
    """The deals of a finished game from its public events, *decisions_at* the player
    decisions made before each event (the reference runner's reading, also of a game the
    kernel played, replayed)."""
    return deal_rows(deal_reader(rules)(rules, players, events), decisions_at, players)


def deal_rows(deals: Sequence[DealSummary], decisions_at: Sequence[int],
              players: int) -> list[DealRow]:
    """The rows of a game's *deals* (its deal reader's), *decisions_at* the player decisions
    made before each of its events."""
    rows = []
    previous = 0
    for deal in deals:
        at = decisions_at[deal.end]
        rows.append(DealRow(int(deal.dealer), tuple(deal.payoffs),
                            sum(1 << w for w in deal.winners),
                            tuple(deal.categories) or ("",) * players, at - previous))
        previous = at
    return rows


class PlayedGame(NamedTuple):
    """A game's events, the player decisions made before each, its deals and its outcome."""

    events: list[Event]
    decisions_at: list[int]
    deals: list[DealSummary]
    decisions: int
    outcome: Outcome


def play_and_read(rules: Ruleset, bots: Sequence[Bot], seed: int) -> PlayedGame:
    """Play one game with *bots* (by seat) and read its deals."""
    from commerce.driver import Driver

    driver = Driver(rules, bots, seed=seed)
    events: list[Event] = list(driver.events)
    at = [0] * len(events)

    def hook(evs: tuple[Event, ...]) -> None:
        events.extend(evs)
        at.extend([driver.decisions] * len(evs))

    driver.on_events = hook
    driver.run()
    outcome = driver.outcome()
    assert outcome is not None
    deals = deal_reader(rules)(rules, driver.players, events)
    return PlayedGame(events, at, deals, driver.decisions, outcome)


# -- the reference runner -------------------------------------------------------------------


class _GameRow(NamedTuple):
    """A game the reference engine played, as the worker sends it back."""

    payoffs: tuple[int, ...]
    wins: tuple[int, ...]
    decisions: int
    out_in: tuple[int, ...]
    counts: dict[str, tuple[int, ...]]
    deals: list[DealRow]


_WORKER: dict[str, Any] = {}


def _start(job: Job) -> None:
    """A worker's set-up: the job, and its bots (one for each seat, or with line-ups one for
    each bot of the job)."""
    from commerce.bots import make_bot

    bots = ([make_bot(spec) for spec in job.bots] if job.lineups else
            [make_bot(job.bots[i % len(job.bots)]) for i in range(job.players)])
    _WORKER.update(job=job, bots=bots)


def _unit_games(job: Job, unit: int) -> range:
    size = job.block if job.lineups else CHUNK
    return range(unit * size, min((unit + 1) * size, job.games))


def _play(job: Job, bots: Sequence[Bot], game: int) -> tuple[Outcome, int, list[DealRow]]:
    """Game *game* of *job* played by the driver with *bots* by seat: its outcome, its
    player decisions, and its deals where the job reads them."""
    from commerce.driver import Driver

    if job.deals:
        played = play_and_read(job.rules, bots, job.seed_of(game))
        return (played.outcome, played.decisions,
                deal_rows(played.deals, played.decisions_at, job.players))
    driver = Driver(job.rules, bots, seed=job.seed_of(game))
    driver.run()
    outcome = driver.outcome()
    assert outcome is not None
    return outcome, driver.decisions, []


def _play_unit(unit: int) -> list[_GameRow]:
    """The games of unit *unit* of the worker's job, played by the driver."""
    job: Job = _WORKER["job"]
    bots = _WORKER["bots"]
    out = []
    for g in _unit_games(job, unit):
        result, decisions, deals = _play(
            job, [bots[b] for b in job.lineup(g)] if job.lineups else bots, g)
        details = result.details
        won = details.get("deals_won") or details.get("hands_won")
        out_in = details.get("out_in")
        counts = {}
        for key, values in details.items():
            if key in ("deals_won", "hands_won") or not isinstance(values, tuple):
                continue
            if len(values) == job.players and all(isinstance(v, int) for v in values):
                counts[key] = tuple(values)
        out.append(_GameRow(
            tuple(result.payoffs),
            tuple(int(w) for w in won) if won is not None else (0,) * job.players,
            decisions,
            (tuple(0 if d is None else int(d) for d in out_in)
             if isinstance(out_in, tuple) and len(out_in) == job.players
             else (0,) * job.players),
            counts, deals))
    return out


class ReferenceRunner:
    """Plays a job through :class:`commerce.driver.Driver` with the Python bots, in units of
    :data:`CHUNK` games (a block with line-ups) shared among *jobs* processes."""

    name = "reference"

    def run(self, job: Job, *, jobs: int | Spread = 1,
            progress: Callable[[int], None] | None = None) -> Table:
        """The job's table (see :class:`Runner`)."""
        if job.deals:
            deal_reader(job.rules)
        size = job.block if job.lineups else CHUNK
        units = -(-job.games // size)
        start = time.perf_counter()
        try:
            played = run_blocks((job,), units, jobs, _play_unit, _start,
                                None if progress is None else
                                (lambda done: progress(min(done * size, job.games))))
        except Interrupted as exc:
            raise Interrupted(min(exc.done * size, job.games), job.games, "games") from None
        rows = [row for unit in played for row in unit]
        seconds = time.perf_counter() - start
        return Table(_games_of(job, rows), _deals_of(job, rows) if job.deals else None,
                     self.name, None, seconds)


def _games_of(job: Job, rows: Sequence[_GameRow]) -> Games:
    n, players = len(rows), job.players
    counts: dict[str, Ints] = {}
    for g, row in enumerate(rows):
        for key, values in row.counts.items():
            if key not in counts:
                counts[key] = np.zeros((n, players), np.int64)
            counts[key][g] = values
    return Games(
        lineups=np.array([job.lineup(g) for g in range(n)], np.int64).reshape(n, players),
        payoffs=np.array([r.payoffs for r in rows], np.int64).reshape(n, players),
        wins=np.array([r.wins for r in rows], np.int64).reshape(n, players),
        decisions=np.array([r.decisions for r in rows], np.int64),
        deals=np.array([len(r.deals) for r in rows], np.int64),
        out_in=np.array([r.out_in for r in rows], np.int64).reshape(n, players),
        counts=counts)


def _deals_of(job: Job, rows: Sequence[_GameRow]) -> Deals:
    players = job.players
    names: dict[str, int] = {}
    flat = [(g, d, deal) for g, row in enumerate(rows) for d, deal in enumerate(row.deals)]
    codes = []
    for _, _, deal in flat:
        codes.append([names.setdefault(c, len(names)) if c else -1 for c in deal.categories])
    n = len(flat)
    return Deals(
        game=np.array([g for g, _, _ in flat], np.int64),
        deal=np.array([d for _, d, _ in flat], np.int64),
        dealer=np.array([deal.dealer for _, _, deal in flat], np.int64),
        payoffs=np.array([deal.payoffs for _, _, deal in flat], np.float64).reshape(n, players),
        winners=np.array([deal.winners for _, _, deal in flat], np.int64),
        categories=np.array(codes, np.int64).reshape(n, players),
        decisions=np.array([deal.decisions for _, _, deal in flat], np.int64),
        category_names=tuple(names))


REFERENCE: Runner = ReferenceRunner()
"""The reference runner."""


# -- the compiled runner --------------------------------------------------------------------


class CompiledRunner:
    """Plays a job on the family's compiled kernel (:func:`commerce.compiled.run_batch`), on
    threads (*jobs* is not used), for the bots and options the kernel plays; with
    :attr:`Job.deals`, in pieces of :data:`KERNEL_PIECE` games, where the kernel's sessions
    vary in length, a game that played more deals than the per-deal arrays hold
    (:data:`KERNEL_ROOM`) is played again alone with room for all of them: its own random
    streams make it the same game, so every deal of every game is read.

    :param room: the deals a row of the per-deal arrays holds where the sessions vary in
        length (default :data:`KERNEL_ROOM`, or the kernel's ``deals`` if more); the table
        does not depend on it.
    """

    name = "compiled"

    def __init__(self, room: int | None = None) -> None:
        self.room = room

    def run(self, job: Job, *, jobs: int | Spread = 1,
            progress: Callable[[int], None] | None = None) -> Table:
        """The job's table (see :class:`Runner`).

        :raises CommerceError: for a bot without a compiled policy or an option the kernel
            does not play.
        """
        from commerce.compiled import build_kernel, run_batch

        start = time.perf_counter()
        kern = build_kernel(job.rules, job.players)
        run_batch(job.rules, players=job.players, games=1, seed=job.seed, bots=job.bots,
                  kernel=kern)
        first_call = time.perf_counter() - start
        start = time.perf_counter()
        k = job.block
        if job.deals:
            piece = max(k, KERNEL_PIECE // k * k)
        elif job.lineups:
            piece = KERNEL_BLOCKS * k
        else:
            piece = job.games
        room = None
        if getattr(kern, "deal_counts", False):
            room = self.room if self.room is not None else max(kern.deals, KERNEL_ROOM)
        batches: list[BatchResult] = []
        deals: list[Deals] = []
        done = 0
        try:
            for first in range(0, job.games, piece):
                n = min(piece, job.games - first)
                batch = run_batch(job.rules, players=job.players, games=n, seed=job.seed,
                                  bots=job.bots, kernel=kern, first_game=first,
                                  lineups=job.lineups or None, details=job.deals,
                                  deal_room=room if job.deals else None)
                batches.append(batch)
                if job.deals:
                    deals.append(self._deals(job, kern, batch, first))
                done = first + n
                if progress is not None:
                    progress(done)
        except KeyboardInterrupt:
            raise Interrupted(done, job.games, "games") from None
        return Table(self._games(job, batches), _concat(deals) if job.deals else None,
                     self.name, round(first_call, 3), time.perf_counter() - start)

    @staticmethod
    def _games(job: Job, batches: Sequence[BatchResult]) -> Games:
        def cat(name: str) -> Any:
            return np.concatenate([getattr(b, name) for b in batches])

        session = cat("session")
        n = session.shape[0]
        counts = {}
        out_in = np.zeros((n, job.players), np.int64)
        if session.shape[1] == 2:  # tokens, and in which deal each seat went out
            counts["tokens"] = session[:, 0, :].astype(np.int64)
            out_in = session[:, 1, :].astype(np.int64)
        deals = np.zeros(n, np.int64)
        if job.deals:
            deal_counts = cat("deal_counts")
            deals = (deal_counts.astype(np.int64) if deal_counts.shape[0] else
                     np.full(n, batches[0].deal_turns.shape[1], np.int64))
        return Games(
            lineups=np.array([job.lineup(g) for g in range(n)], np.int64).reshape(
                n, job.players),
            payoffs=cat("payoffs").astype(np.int64), wins=cat("deals_won").astype(np.int64),
            decisions=cat("decisions").astype(np.int64), deals=deals, out_in=out_in,
            counts=counts)

    @staticmethod
    def _deals(job: Job, kern: Any, batch: BatchResult, first: int) -> Deals:
        """The deals of a piece's *batch* (its games from *first*), each longer game
        played again alone with room for every deal."""
        from commerce.compiled import run_batch

        parts: list[Deals] = []
        games = batch.decisions.shape[0]
        room = batch.deal_turns.shape[1]
        long = [g for g in range(games)
                if batch.deal_counts.shape[0] and batch.deal_counts[g] > room]
        begin = 0
        for g in [*long, games]:
            if g > begin:
                parts.append(_batch_deals(job, batch, np.arange(begin, g), first))
            if g < games:  # played again with its block (a block shares its deals)
                block = (first + g) // job.block * job.block
                alone = run_batch(job.rules, players=job.players, games=job.block,
                                  seed=job.seed, bots=job.bots, details=True, kernel=kern,
                                  first_game=block, threads=1, lineups=job.lineups or None,
                                  deal_room=int(batch.deal_counts[g]))
                row = first + g - block
                if alone.deal_counts[row] != batch.deal_counts[g]:  # the same game, or a bug
                    raise AssertionError(f"game {first + g} played again is another game")
                parts.append(_batch_deals(job, alone, np.array([row]), block))
            begin = g + 1
        return _concat(parts)


def _batch_deals(job: Job, batch: BatchResult, rows: Ints, first: int) -> Deals:
    """The deals of the games *rows* of a kernel's *batch* (game *r* of it the job's game
    ``first + r``), those its per-deal arrays hold."""
    players = job.players
    room = batch.deal_turns.shape[1]
    n = rows.shape[0]
    counts = (batch.deal_counts[rows].astype(np.int64) if batch.deal_counts.shape[0]
              else np.full(n, room, np.int64))
    played = np.arange(room)[None, :] < counts[:, None]  # (games, deals)
    step = 1 if job.rules.direction == "left" else -1
    if batch.deal_dealers.shape[1]:
        dealer = batch.deal_dealers[rows, :room].astype(np.int64)
    else:
        dealer = (batch.dealers[rows, None].astype(np.int64)
                  + step * np.arange(room)[None, :]) % players

    def per_deal(array: Any, *shape: int) -> Any:
        if array.shape[1] == 0:  # the kernel does not report it
            return np.zeros((n, room, *shape))[played]
        return array[rows][played]

    return Deals(
        game=(first + np.broadcast_to(rows[:, None], (n, room)))[played].astype(np.int64),
        deal=np.broadcast_to(np.arange(room)[None, :], (n, room))[played].astype(np.int64),
        dealer=dealer[played],
        payoffs=per_deal(batch.deal_payoffs, players).astype(np.float64),
        winners=per_deal(batch.deal_winners).astype(np.int64),
        categories=batch.categories[rows][played].astype(np.int64),
        decisions=per_deal(batch.deal_decisions).astype(np.int64),
        category_names=tuple(batch.category_names))


def _concat(parts: Sequence[Deals]) -> Deals:
    """Deals of several parts, in order (the same category names)."""
    names = parts[0].category_names
    def cat(name: str) -> Any:
        return np.concatenate([getattr(p, name) for p in parts])

    return Deals(game=cat("game"), deal=cat("deal"), dealer=cat("dealer"),
                 payoffs=cat("payoffs"), winners=cat("winners"),
                 categories=cat("categories"), decisions=cat("decisions"),
                 category_names=names)


COMPILED: Runner = CompiledRunner()
"""The compiled runner."""
