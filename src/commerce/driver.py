"""The one game loop: chance from a seeded RNG, bots asked with observations, humans awaited.

The CLI, the simulator and the tests all drive games through :class:`Driver`. The driver owns
every random number generator: one for chance (a fresh one for each deal) and one per seat, all
derived from one seed, so a seed reproduces a whole game; the record it writes holds the
actions, which are the truth. The seed predicts every card, so a game without one draws it from
:mod:`secrets` (not the clock), and the record keeps it in its hidden section.

>>> from commerce.rules import find_ruleset
>>> from commerce.bots import make_bot
>>> rec = play_game(find_ruleset("peel"), [make_bot("random")] * 3, seed=1)
>>> rec.complete, sum(rec.payoffs)
(True, 0)
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Sequence
from typing import Any

from commerce import engine
from commerce.core import Action, Bot, Decision, Event, Outcome
from commerce.errors import CommerceError, RecordError
from commerce.record import GameRecord, SeatInfo, replay_error
from commerce.rules import Ruleset

_NEW_DEAL = frozenset({"deal_started", "hand_started"})
"""The events with which every family begins a deal (Cox's game: a hand)."""


class Driver:
    """Runs one game (a session of deals) for a table of bots and humans.

    :param agents: one entry per seat: a bot, or None for a human who acts through
        :meth:`act`.
    :param seed: the seed of every generator; None draws an unpredictable one from
        :mod:`secrets` (a seed predicts every card: never show it while the game runs).
    :param dealer: the first dealer; drawn with the seed when None.
    """

    def __init__(
        self,
        rules: Ruleset,
        agents: Sequence[Bot | None],
        *,
        seed: int | None = None,
        dealer: int | None = None,
        names: Sequence[str] | None = None,
        on_events: Callable[[tuple[Event, ...]], None] | None = None,
    ) -> None:
        self.rules = rules
        self.agents = list(agents)
        self.players = len(self.agents)
        if seed is None:
            seed = new_seed()
        self.seed = seed
        master = random.Random(seed)
        self._deal_seeds = random.Random(master.getrandbits(64))
        self.chance_rng = self._deal_rng()
        self.seat_rngs = [random.Random(master.getrandbits(64)) for _ in self.agents]
        if dealer is None:
            dealer = master.randrange(self.players)
        self.dealer = dealer
        self.state: Any = engine.new_game(rules, self.players, dealer=dealer)
        self.actions: list[str] = []
        self.events: list[Event] = list(getattr(self.state, "log", ()))
        self.decisions = 0
        self.on_events = on_events
        default = [("You" if a is None else f"{a.name} (seat {i})")
                   for i, a in enumerate(self.agents)]
        self.names = list(names) if names is not None else default

    # -- queries ------------------------------------------------------------------------
    def decision(self) -> Decision | None:
        """Who must act now (None when the game is over)."""
        return engine.decision(self.state)

    def outcome(self) -> Outcome | None:
        """The game's result, once over."""
        return engine.outcome(self.state)

    def waiting_for_human(self) -> int | None:
        """The human seat that must act now, if any."""
        d = engine.decision(self.state)
        if d is not None and d.seat is not None and self.agents[d.seat] is None:
            return d.seat
        return None

    # -- actions ------------------------------------------------------------------------
    def _deal_rng(self) -> random.Random:
        """Chance's generator for the next deal (or hand): its seed depends only on the game's
        seed and how many deals came before, never on how they were played, so games of one
        seed deal the same cards at the start of every deal whoever sits where."""
        return random.Random(self._deal_seeds.getrandbits(64))

    def _apply(self, action: Action, seat: int | None) -> tuple[Event, ...]:
        transition = engine.apply(self.state, action, seat=seat)
        self.state = transition.state
        for event in transition.events:
            if event.kind in _NEW_DEAL:
                self.chance_rng = self._deal_rng()
        self.actions.append(engine.format_action(self.rules, action))
        self.events.extend(transition.events)
        if seat is not None:
            self.decisions += 1
        if self.on_events is not None:
            self.on_events(transition.events)
        return transition.events

    def step(self) -> bool:
        """Make one chance or bot action; False if the game is over or a human must act."""
        d = engine.decision(self.state)
        if d is None:
            return False
        if d.seat is None:
            self._apply(engine.sample_chance(self.state, self.chance_rng), None)
            return True
        bot = self.agents[d.seat]
        if bot is None:
            return False
        obs = engine.observe(self.state, d.seat)
        legal = engine.legal_actions(self.state)
        action = bot.act(obs, legal, self.seat_rngs[d.seat])
        self._apply(action, d.seat)
        return True

    def run(self) -> None:
        """Play chance and bots until a human must act or the game is over."""
        while self.step():
            pass

    def act(self, seat: int, action: Action) -> tuple[Event, ...]:
        """A human's action for *seat*, checked (turn included); nothing changes if illegal.

        :raises IllegalActionError: saying why the action is refused.
        """
        return self._apply(action, seat)

    # -- records ------------------------------------------------------------------------
    def record(self) -> GameRecord:
        """The game so far as a record."""
        result = engine.outcome(self.state)
        return GameRecord(
            rules=self.rules,
            players=self.players,
            dealer=self.dealer,
            seed=self.seed,
            seats=tuple(
                SeatInfo(name, "human" if a is None else a.spec)
                for name, a in zip(self.names, self.agents, strict=True)
            ),
            actions=tuple(self.actions),
            complete=result is not None,
            payoffs=None if result is None else tuple(result.payoffs),
        )

    @classmethod
    def resume(
        cls,
        record: GameRecord,
        agents: Sequence[Bot | None],
        *,
        names: Sequence[str] | None = None,
    ) -> Driver:
        """Continue a saved game: replay its actions and bring every RNG to where it was.

        Chance and bots are re-asked at each recorded step so that their generators advance
        exactly as in the original run; the recorded action is what is applied.

        :raises RecordError: if the record does not fit *agents* or does not replay.
        """
        if len(agents) != record.players:
            raise RecordError(
                f"the record has {record.players} seats, but {len(agents)} players were given"
            )
        # a record without a seed continues with a fresh secret one (kept in its next save)
        driver = cls(record.rules, agents, seed=record.seed, dealer=record.dealer,
                     names=names or [s.name for s in record.seats] or None)
        for i, text in enumerate(record.actions):
            state = driver.state
            try:
                action = engine.parse_action(state, text)
                d = engine.decision(state)
                if d is None:
                    raise replay_error(record, i, "it comes after the end")
                if d.seat is None:
                    engine.sample_chance(state, driver.chance_rng)
                elif (bot := driver.agents[d.seat]) is not None:
                    bot.act(engine.observe(state, d.seat), engine.legal_actions(state),
                            driver.seat_rngs[d.seat])
                driver._apply(action, d.seat)
            except RecordError:
                raise
            except CommerceError as exc:
                raise replay_error(record, i, exc) from None
        return driver


def new_seed() -> int:
    """An unpredictable seed for a game whose cards must stay secret (63 bits from
    :mod:`secrets`; a seed from the clock could be guessed from the time of the game)."""
    return secrets.randbits(63)


def play_game(
    rules: Ruleset,
    bots: Sequence[Bot],
    *,
    seed: int,
    dealer: int | None = None,
) -> GameRecord:
    """Play a whole game with bots in every seat and return its record."""
    driver = Driver(rules, bots, seed=seed, dealer=dealer)
    driver.run()
    return driver.record()
