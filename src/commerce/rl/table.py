"""One game for the research environments: chance inside, rewards deal by deal, vectors out.

:class:`Table` is what :mod:`commerce.rl.aec` and :mod:`commerce.rl.gym` share: it plays the
chance actions itself (a generator seeded by ``reset``), stops at every seat's decision,
encodes what that seat may know (:mod:`commerce.encoding`) and pays each deal's result in the
ruleset's unit (stakes, tokens, or Cox's points) the moment the deal ends, read from the public
events by the family's deal reader.

>>> import commerce
>>> from commerce.rules import find_ruleset
>>> table = Table(find_ruleset("peel"), 4)
>>> table.reset(seed=1)
>>> table.seat is not None and not table.done
True
>>> table.observation(table.seat).shape, table.mask().dtype
((646,), dtype('int8'))
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from commerce import engine
from commerce.core import Action, Decision, Event, Outcome
from commerce.encoding import Encoding, int_to_action, legal_mask, observation_size
from commerce.errors import IllegalActionError, IllegalReason, RulesetError
from commerce.family import DealReader, GameState, Observation, family_spec
from commerce.rules import Ruleset

if TYPE_CHECKING:
    from commerce.kernelkit import EnvBatch

__all__ = ["ENGINES", "EPISODES", "OBSERVATION_BOUND", "CompiledTable", "Engine", "Episode",
           "Table", "check_table", "compiled_table", "make_table"]

Episode = Literal["deal", "game"]
EPISODES: tuple[Episode, ...] = ("deal", "game")
"""What an episode is: one deal (the default: the natural unit of reward) or a whole game."""

OBSERVATION_BOUND = 1e6
"""Every number of an observation vector lies within plus or minus this (the spaces' bounds)."""


def warn_fast(fast: bool | None) -> None:
    """Warn (``DeprecationWarning``) where an environment was given ``fast=``, which chose
    the Python fast path, now gone: the keyword is read for one more version and changes
    nothing. The environments step the reference engine (:class:`Table`); where a family's
    compiled engine steps them, they use it whatever *fast* says."""
    if fast is not None:
        warnings.warn("fast= is deprecated and changes nothing: the environment steps the "
                      "reference engine (the compiled one where the family has it)",
                      DeprecationWarning, stacklevel=3)


def check_table(rules: Ruleset, players: int, episode: str, dealer: int | None) -> None:
    """Refuse, in one line, a table the research API cannot make.

    :raises RulesetError: for a number of seats the ruleset refuses, an episode that is not
        ``deal`` or ``game``, or a first dealer who is not a seat.
    """
    if players not in rules.player_range():
        raise RulesetError(f"{rules.name} is for {rules.min_players} to "
                           f"{rules.max_players} players, not {players}")
    if episode not in EPISODES:
        raise RulesetError(f"episode must be 'deal' or 'game', not {episode!r}")
    if dealer is not None and not 0 <= dealer < players:
        raise RulesetError(f"dealer must be a seat from 0 to {players - 1}")


def _new_game(rules: Ruleset, players: int, dealer: int) -> Any:
    """A new game with *dealer* dealing first (a module function, so that environments
    pickle)."""
    return engine.new_game(rules, players, dealer=dealer)


class Table:
    """A game stepped seat decision by seat decision (see the module's docstring).

    :param rules: the ruleset.
    :param players: the number of seats.
    :param episode: ``"deal"`` (an episode ends with the first deal) or ``"game"``.
    :param dealer: the first dealer; None draws it from the seed at each reset.
    :param chance: where chance's actions come from (default: drawn by
        :func:`commerce.engine.sample_chance` from the seeded generator); a replay gives the
        recorded ones.

    The game is stepped on the reference engine (:mod:`commerce.engine`).
    """

    def __init__(self, rules: Ruleset, players: int, *, episode: Episode = "deal",
                 dealer: int | None = None,
                 chance: Callable[[Any, random.Random], Action] | None = None) -> None:
        check_table(rules, players, episode, dealer)
        spec = family_spec(rules.family)
        if spec.encoding is None or spec.deal_reader is None:
            raise RulesetError(f"the {rules.family} family has no encoding for the research API")
        self.rules, self.players, self.episode = rules, players, episode
        self.encoding: Encoding = spec.encoding
        self._reader: DealReader = spec.deal_reader
        self._dealer = dealer
        self.num_actions = self.encoding.num_actions(rules, players)
        self.observation_size = observation_size(self.encoding, rules, players)
        self._new: Callable[[Ruleset, int, int], Any] = _new_game
        self._decision: Callable[[Any], Decision | None] = engine.decision
        self._legal: Callable[[Any], tuple[Action, ...]] = engine.legal_actions
        self._observe: Callable[[Any, int | None], Any] = engine.observe
        self._sample: Callable[[Any, random.Random], Action] = \
            engine.sample_chance if chance is None else chance
        self._step: Callable[[Any, Action], tuple[Any, tuple[Event, ...]]] = engine.apply
        self._outcome: Callable[[Any], Outcome | None] = engine.outcome
        self.state: Any = None
        self.rng = random.Random(0)
        self.seat: int | None = None
        """The seat to decide now (None once the episode is over)."""
        self.done = True
        """Whether the episode is over."""
        self.deals = 0
        """Deals finished in this episode."""
        self._public: list[Event] = []
        self._paid = [0.0] * players
        self._legal_now: tuple[Action, ...] = ()

    # -- playing --------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """A new game: the chance generator seeded with *seed* (None: unpredictable), the
        dealer drawn from it unless fixed, then chance plays until a seat must decide."""
        self.rng = random.Random(seed)
        dealer = self.rng.randrange(self.players) if self._dealer is None else self._dealer
        self.state = self._new(self.rules, self.players, dealer)
        self.done, self.deals = False, 0
        self._paid = [0.0] * self.players
        # what the new game's state already holds (the first deal's antes ...)
        self._public = list(getattr(self._observe(self.state, None), "events", ()))
        self._advance([0.0] * self.players)

    def legal(self) -> tuple[Action, ...]:
        """The legal actions of the seat to decide (empty once the episode is over)."""
        return self._legal_now

    def mask(self) -> npt.NDArray[np.int8]:
        """The legal actions as a 0/1 mask over the action space (all 0 once over)."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if not self.done:
            mask[legal_mask(self.encoding, self.rules, self.players, self._legal_now)] = 1
        return mask

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """What *seat* may know now, as a vector (:mod:`commerce.encoding`)."""
        return np.asarray(self.encoding.encode(self._observe(self.state, seat)),
                          dtype=np.float32)

    def action(self, index: int) -> Action:
        """The legal action of integer *index*.

        :raises IllegalActionError: if no legal action has it.
        """
        if self.done:
            raise IllegalActionError(IllegalReason.GAME_OVER, "the episode is over")
        found = int_to_action(self.encoding, self.rules, self.players, int(index),
                              self._legal_now)
        if found is None:
            raise IllegalActionError(IllegalReason.WRONG_KIND,
                                     f"action {index} is not legal now (seat {self.seat})")
        return found

    def step(self, index: int) -> list[float]:
        """The seat to decide plays the legal action *index*; then chance plays on until a
        seat must decide. Returns what each seat was paid meanwhile (deals that ended).

        :raises IllegalActionError: if *index* is not legal now (nothing changes).
        """
        return self.play(self.action(index))

    def raw_observation(self, seat: int) -> Any:
        """*seat*'s observation itself (what a bot reads)."""
        return self._observe(self.state, seat)

    def play(self, action: Action) -> list[float]:
        """:meth:`step` with one of :meth:`legal` itself (a bot's choice).

        :raises IllegalActionError: if *action* is not one of them.
        """
        if not any(a is action for a in self._legal_now) and action not in self._legal_now:
            raise IllegalActionError(IllegalReason.WRONG_KIND, f"{action} is not legal now")
        rewards = [0.0] * self.players
        self._apply(action, rewards)
        if not self.done:
            self._advance(rewards)
        self._pay(rewards)
        return rewards

    def text(self) -> str:
        """The table as a spectator sees it (no hidden card), for ``render``."""
        spec = family_spec(self.rules.family)
        names = [f"seat_{i}" for i in range(self.players)]
        return spec.render(self._observe(self.state, None), names)

    # -- inside ---------------------------------------------------------------------------
    def _apply(self, action: Action, rewards: list[float]) -> None:
        self.state, events = self._step(self.state, action)
        self._public.extend(e for e in events if e.visible_to is None)
        finished = self._reader(self.rules, self.players, self._public)
        if finished:
            for deal in finished:
                for i, paid in enumerate(deal.payoffs):
                    rewards[i] += paid
            self.deals += len(finished)
            self._public = self._public[finished[-1].end + 1:]
            if self.episode == "deal":
                self._finish()
        if self._decision(self.state) is None:
            result = self._outcome(self.state)
            if result is not None and self.episode == "game":
                # what the end of the game settles beyond the deals (Pool Commerce's pool)
                for i, total in enumerate(result.payoffs):
                    rewards[i] = total - self._paid[i]
            self._finish()

    def _pay(self, rewards: list[float]) -> None:
        for i, paid in enumerate(rewards):
            self._paid[i] += paid

    def _advance(self, rewards: list[float]) -> None:
        while not self.done:
            d = self._decision(self.state)
            if d is None:
                self._finish()
            elif d.seat is None:
                self._apply(self._sample(self.state, self.rng), rewards)
            else:
                self.seat = d.seat
                self._legal_now = self._legal(self.state)
                return

    def _finish(self) -> None:
        self.done, self.seat, self._legal_now = True, None, ()


Engine = Literal["reference", "compiled", "auto"]
"""Which engine steps a research environment: the reference (:class:`Table`), the family's
compiled one (:class:`CompiledTable`; refused where it has none for the ruleset), or the
compiled one where there is one (``auto``, the default)."""
ENGINES: tuple[Engine, ...] = ("reference", "compiled", "auto")

_ROOM = 1 << 14
"""Action codes a compiled table's recording holds before they are moved to Python."""


class CompiledTable:
    """A game stepped seat decision by seat decision on the family's compiled engine: what
    :class:`Table` does, in one compiled call per decision (:meth:`EnvBatch.table_step
    <commerce.kernelkit.EnvBatch.table_step>`), every seat a learner, chance drawn from the
    game's own random stream (so a seed deals other cards than the reference's).

    The observation and mask of the seat to decide come with each step; another seat's
    observation is one more compiled call. What needs the reference's objects (the spectator's
    text) replays the game's recorded codes through the reference engine (:meth:`decoded`).
    Made by :func:`make_table`.

    >>> from commerce.rules import find_ruleset
    >>> table = CompiledTable.made(find_ruleset("peel"), 4)
    >>> table.reset(seed=1)
    >>> table.observation(table.seat).shape, int(table.mask().sum()) > 0
    ((646,), True)
    """

    def __init__(self, rules: Ruleset, players: int, batch: EnvBatch, *,
                 episode: Episode) -> None:
        spec = family_spec(rules.family)
        if spec.encoding is None:
            raise RulesetError(f"the {rules.family} family has no encoding for the research API")
        self.rules, self.players, self.episode = rules, players, episode
        self.encoding: Encoding = spec.encoding
        self.num_actions = self.encoding.num_actions(rules, players)
        self.observation_size = observation_size(self.encoding, rules, players)
        self._batch = batch  # its configuration holds the first dealer, if fixed
        self._status = batch.status
        kind = type(batch)
        if kind.table_reset is None or kind.table_step is None or kind.table_observe is None \
                or batch.paid_at is None:
            raise RulesetError(f"the {rules.family} family's compiled engine does not step "
                               "every seat")
        self._reset_one, self._step_one = kind.table_reset, kind.table_step
        self._observe_one = kind.table_observe
        self._tables, self._state, self._work = batch.tables, batch.state, batch.work
        self._obs = np.zeros(self.observation_size, np.float32)
        self._mask = np.zeros(self.num_actions, np.int8)
        self._actor, self._done, self._deals, self._deal_number = (
            batch.status_slot(name) for name in ("actor", "done", "deals", "deal"))
        self._codes: list[int] = []
        self._decoded: tuple[int, GameState] | None = None
        self.seat: int | None = None
        """The seat to decide now (None once the episode is over)."""
        self.done = True
        """Whether the episode is over."""
        self.opening_paid = [0.0] * players
        """What each seat was paid before the first learner's decision of the episode (the
        deals the bots ended, those of the games a reset skipped included)."""
        self.skipped_deals = 0
        """The deals of the games the last reset skipped (the bots ended them before a
        learner's first decision)."""

    @classmethod
    def made(cls, rules: Ruleset, players: int, *, episode: Episode = "deal",
             dealer: int | None = None,
             bots: Sequence[tuple[int, float] | None] | None = None) -> CompiledTable:
        """The compiled table of *rules* at *players* seats: every seat a learner, or as
        *bots* gives each seat (None: a learner; else a compiled bot's policy code and
        boldness, played inside each step).

        :raises RulesetError: where the family has no compiled engine that steps every seat,
            or it does not play an option of *rules* (its message names it).
        """
        batch = compiled_table(rules, players, episode=episode, dealer=dealer, record=_ROOM,
                               bots=bots)
        return cls(rules, players, batch, episode=episode)

    @property
    def deals(self) -> int:
        """Deals finished in this episode (not those of the games a reset skipped)."""
        return int(self._status[0, self._deals]) - self.skipped_deals

    def reset(self, seed: int | None = None) -> None:
        """A new game: the game's random stream started from *seed* (None: unpredictable),
        the dealer drawn from it unless fixed, then chance plays until a seat must decide."""
        self._batch.seed([random.SystemRandom().getrandbits(64) if seed is None else seed])
        self._status[0, self._batch.record_slot] = 0
        self._codes, self._decoded = [], None
        self._reset_one(0, self._obs, self._mask, self._tables, self._state, self._work)
        self.opening_paid = self._take_paid()
        self.skipped_deals = 0
        self.skipped_deals = self.deals - int(self._status[0, self._deal_number]) + 1
        self._after()

    def _after(self) -> None:
        self.done = bool(self._status[0, self._done])
        self.seat = None if self.done else int(self._status[0, self._actor])
        if self._status[0, self._batch.record_slot] > _ROOM // 2:
            self._codes.extend(self._batch.records()[0])

    def mask(self) -> npt.NDArray[np.int8]:
        """The legal actions as a 0/1 mask over the action space (all 0 once over)."""
        return np.zeros_like(self._mask) if self.done else self._mask.copy()

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """What *seat* may know now, as a vector (:mod:`commerce.encoding`)."""
        if seat == self.seat:
            return self._obs.copy()
        row = np.zeros(self.observation_size, np.float32)
        self._observe_one(0, seat, row, self._tables, self._state)
        return row

    def step(self, index: int) -> list[float]:
        """The seat to decide plays the legal action *index*; then chance plays on until a
        seat must decide. Returns what each seat was paid meanwhile (deals that ended).

        :raises IllegalActionError: if *index* is not legal now (nothing changes).
        """
        if self.done:
            raise IllegalActionError(IllegalReason.GAME_OVER, "the episode is over")
        if not 0 <= index < self.num_actions or not self._mask[index]:
            raise IllegalActionError(IllegalReason.WRONG_KIND,
                                     f"action {index} is not legal now (seat {self.seat})")
        self._step_one(0, index, self._obs, self._mask, self._tables, self._state, self._work)
        rewards = self._take_paid()
        self._after()
        return rewards

    def _take_paid(self) -> list[float]:
        """What each seat was paid since the last call (then cleared)."""
        paid = self._batch.paid_of(self._state)[0]
        rewards = [float(x) for x in paid.tolist()]
        paid[:] = 0
        return rewards

    def raw_observation(self, seat: int) -> Observation:
        """*seat*'s observation itself (what a bot reads), of the decoded state."""
        return engine.observe(self.decoded(), seat)

    def legal(self) -> tuple[Action, ...]:
        """The legal actions of the seat to decide (empty once the episode is over), of the
        decoded state."""
        return () if self.done else engine.legal_actions(self.decoded())

    def play(self, action: Action) -> list[float]:
        """:meth:`step` with one of :meth:`legal` itself (a bot's choice).

        :raises IllegalActionError: if *action* is not legal now.
        """
        return self.step(self.encoding.action_to_int(self.rules, self.players, action))

    def codes(self) -> list[int]:
        """The episode's recorded codes: ``-1 - dealer``, then every action, chance's cards
        included (:func:`commerce.kernelkit.decode_action`); again for each game a reset
        skipped (the bots ended its deal before the learner's first decision)."""
        self._codes.extend(self._batch.records()[0])
        return list(self._codes)

    def decode(self, code: int) -> Action:
        """The reference's action of a recorded code (:meth:`codes`)."""
        return self._batch.decode_action(code)

    def decoded(self) -> GameState:
        """The reference engine's state of this game, the recorded codes replayed."""
        decode_action = self._batch.decode_action
        codes = self.codes()
        start = max(i for i, code in enumerate(codes) if code < 0)  # the last game's start
        at, state = self._decoded if self._decoded is not None and self._decoded[0] > start \
            else (start + 1, engine.new_game(self.rules, self.players,
                                             dealer=-1 - codes[start]))
        for code in codes[at:]:
            state = engine.apply(state, decode_action(code)).state
        self._decoded = (len(codes), state)
        return state

    @property
    def state(self) -> GameState:
        """The reference engine's state of this game (:meth:`decoded`)."""
        return self.decoded()

    def text(self) -> str:
        """The table as a spectator sees it (no hidden card), for ``render``."""
        spec = family_spec(self.rules.family)
        names = [f"seat_{i}" for i in range(self.players)]
        return spec.render(engine.observe(self.decoded(), None), names)


def compiled_table(rules: Ruleset, players: int, *, episode: Episode = "deal",
                   dealer: int | None = None, record: int = 64,
                   bots: Sequence[tuple[int, float] | None] | None = None) -> EnvBatch:
    """The family's compiled engine for one game of *rules* (:meth:`commerce.kernelkit.
    EnvKernel.table`), recording *record* codes: every seat a learner, or as *bots* gives
    each seat (None: a learner; else the policy code and boldness of the bot there).

    :raises RulesetError: where the family has no compiled engine that steps every seat,
        or it does not play an option of *rules* (its message names it).
    """
    spec = family_spec(rules.family)
    if spec.env_kernel is None:
        raise RulesetError(f"the {rules.family} family has no compiled engine")
    policies = boldness = None
    if bots is not None:
        from commerce.kernelkit import LEARNER  # loaded with the compiled engine

        policies = [LEARNER if b is None else b[0] for b in bots]
        boldness = [0.5 if b is None else b[1] for b in bots]
    batch: EnvBatch | None = spec.env_kernel(rules, players).table(
        episode=episode, dealer=dealer, record=record, policies=policies, boldness=boldness)
    if batch is None or batch.table_step is None or batch.paid_at is None:
        raise RulesetError(f"the {rules.family} family's compiled engine does not step "
                           "every seat")
    return batch


def make_table(rules: Ruleset, players: int, *, episode: Episode = "deal",
               dealer: int | None = None, engine: Engine = "auto") -> Table | CompiledTable:
    """The table a research environment steps: *engine* ``reference`` (:class:`Table`),
    ``compiled`` (:class:`CompiledTable`; :class:`RulesetError` where the family has none for
    *rules*) or ``auto`` (the compiled one where there is one).

    >>> from commerce.rules import find_ruleset
    >>> type(make_table(find_ruleset("peel"), 4)).__name__
    'CompiledTable'
    >>> type(make_table(find_ruleset("vingt-un"), 4)).__name__
    'Table'
    """
    if engine not in ENGINES:
        raise RulesetError(f"engine must be 'reference', 'compiled' or 'auto', not {engine!r}")
    check_table(rules, players, episode, dealer)
    if engine != "reference":
        try:
            return CompiledTable.made(rules, players, episode=episode, dealer=dealer)
        except RulesetError:
            if engine == "compiled":
                raise
    return Table(rules, players, episode=episode, dealer=dealer)
