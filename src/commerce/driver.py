"""The one game loop: chance from a seeded RNG, bots asked with observations, humans awaited.

The CLI, the simulator and the tests all drive games through :class:`Driver`. The driver owns
every random number generator: one for chance (a fresh one for each deal) and one per seat, all
derived from one seed, so a seed reproduces a whole game (a seat's generator one-way, with a
keyed hash: :func:`seat_seed`, so that a bot reading its generator learns nothing of the seed,
the deal or another seat's); the record it writes holds the
actions, which are the truth. The seed predicts every card, so a game without one draws it from
:mod:`secrets` (not the clock), and the record keeps it in its hidden section.

>>> from commerce.rules import find_ruleset
>>> from commerce.bots import make_bot
>>> rec = play_game(find_ruleset("peel"), [make_bot("random")] * 3, seed=1)
>>> rec.complete, sum(rec.payoffs)
(True, 0)
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Callable, Sequence

from commerce import engine
from commerce.core import Action, Bot, Decision, Event, Outcome, Transition
from commerce.errors import CommerceError, RecordError
from commerce.family import GameState, Observation, family_spec
from commerce.record import GameRecord, SeatInfo, replay_error
from commerce.rules import Ruleset

_NEW_DEAL = frozenset({"deal_started", "hand_started"})
"""The events with which every family begins a deal (Cox's game: a hand)."""

_MASK64 = (1 << 64) - 1
_CHANCE, _DEALER = 1, 3
"""The streams derived from a game's seed with :func:`derive_seed`: chance (one per deal),
the dealer (each seat's generator is derived one-way: :func:`seat_seed`)."""


def derive_seed(seed: int, stream: int, index: int) -> int:
    """The seed of generator *index* of *stream* in a game of *seed*: a SplitMix64 mix, so
    that chance's generators and the dealer's draw are seeded from the game's seed directly
    (no generator is drawn from to seed another). The mix is invertible: it seeds only what no
    player is handed (a seat's generator comes from :func:`seat_seed`).

    >>> derive_seed(1, 1, 0) == derive_seed(1, 1, 0) != derive_seed(1, 1, 1)
    True
    """
    z = (seed * 0x9E3779B97F4A7C15 + stream * 0xBF58476D1CE4E5B9 + index + 1) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def seat_seed(seed: int, seat: int) -> int:
    """The seed of *seat*'s generator in a game of *seed*: a keyed hash (BLAKE2b, the game's
    seed the key), one-way. A generator handed to a player (a bot, an agent, an
    environment's opponent) can be read back to the number that seeded it
    (``rng.getstate()`` inverts Python's seeding); from that number nothing leads back to the
    game's seed, and so to the deal or another seat's generator.

    >>> seat_seed(1, 0) == seat_seed(1, 0) != seat_seed(1, 1)
    True
    """
    key = hashlib.blake2b(str(seed).encode(), digest_size=32, person=b"commerce/game").digest()
    digest = hashlib.blake2b(f"seat/{seat}".encode(), key=key, digest_size=32,
                             person=b"commerce/seat").digest()
    return int.from_bytes(digest, "big")


class Driver:
    """Runs one game (a session of deals) for a table of bots and humans.

    :param agents: one entry per seat: a bot, or None for a human who acts through
        :meth:`act`.
    :param seed: the seed of every generator; None draws an unpredictable one from
        :mod:`secrets` (a seed predicts every card: never show it while the game runs).
    :param dealer: the first dealer; drawn with the seed when None.

    A bot that declares ``reads_observation = False`` is given None in place of the
    observation.
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
        self._deals = 0
        self.chance_rng = self._deal_rng()
        self._seat_rngs: list[random.Random | None] = [None] * self.players
        if dealer is None:
            dealer = derive_seed(seed, _DEALER, 0) % self.players
        self.dealer = dealer
        spec = family_spec(rules.family)
        self.state: GameState = engine.new_game(rules, self.players, dealer=dealer)
        self._decision: Callable[[GameState], Decision | None] = engine.decision
        self._legal: Callable[[GameState], tuple[Action, ...]] = engine.legal_actions
        self._observe: Callable[[GameState, int | None], Observation] = engine.observe
        self._sample: Callable[[GameState, random.Random], Action] = engine.sample_chance
        self._step: Callable[[GameState, Action], Transition] = engine.apply
        self._outcome: Callable[[GameState], Outcome | None] = engine.outcome
        self._format = spec.format_action
        self._actions: list[Action] = []
        self._texts: list[str] = []
        # what the new game's state already holds
        self.events: list[Event] = list(getattr(self.state, "log", ()))
        self.decisions = 0
        self.on_events = on_events
        self._reads = [a is not None and getattr(a, "reads_observation", True)
                       for a in self.agents]
        default = [("You" if a is None else f"{a.name} (seat {i})")
                   for i, a in enumerate(self.agents)]
        self.names = list(names) if names is not None else default

    @property
    def seat_rngs(self) -> list[random.Random]:
        """Each seat's own generator (made when first asked for)."""
        return [self._seat_rng(seat) for seat in range(self.players)]

    def _seat_rng(self, seat: int) -> random.Random:
        rng = self._seat_rngs[seat]
        if rng is None:
            rng = self._seat_rngs[seat] = random.Random(seat_seed(self.seed, seat))
        return rng

    @property
    def actions(self) -> list[str]:
        """Every action so far in the family's notation (formatted when first asked for)."""
        texts, fmt = self._texts, self._format
        texts.extend(fmt(a) for a in self._actions[len(texts):])
        return list(texts)

    def reference_state(self) -> GameState:
        """The game's state in the reference engine's terms: :attr:`state` itself (the
        driver steps the reference engine)."""
        return self.state

    def visible_events(self, seat: int | None) -> tuple[Event, ...]:
        """The events of the game so far that *seat* may see (None: a spectator)."""
        return engine.visible_events(self.events, seat)

    # -- queries ------------------------------------------------------------------------
    def decision(self) -> Decision | None:
        """Who must act now (None when the game is over)."""
        return self._decision(self.state)

    def outcome(self) -> Outcome | None:
        """The game's result, once over."""
        return self._outcome(self.state)

    def waiting_for_human(self) -> int | None:
        """The human seat that must act now, if any."""
        d = self._decision(self.state)
        if d is not None and d.seat is not None and self.agents[d.seat] is None:
            return d.seat
        return None

    # -- actions ------------------------------------------------------------------------
    def _deal_rng(self) -> random.Random:
        """Chance's generator for the next deal (or hand): its seed depends only on the game's
        seed and how many deals came before, never on how they were played, so games of one
        seed deal the same cards at the start of every deal whoever sits where."""
        rng = random.Random(derive_seed(self.seed, _CHANCE, self._deals))
        self._deals += 1
        return rng

    def _apply(self, action: Action, seat: int | None) -> tuple[Event, ...]:
        """Apply *action* (checked: an illegal one raises and changes nothing)."""
        self.state, events = self._step(self.state, action)
        for event in events:
            if event.kind in _NEW_DEAL:
                self.chance_rng = self._deal_rng()
        self._actions.append(action)
        self.events.extend(events)
        if seat is not None:
            self.decisions += 1
        if self.on_events is not None:
            self.on_events(events)
        return events

    def step(self) -> bool:
        """Make one chance or bot action; False if the game is over or a human must act."""
        state = self.state
        d = self._decision(state)
        if d is None:
            return False
        seat = d.seat
        if seat is None:
            self._apply(self._sample(state, self.chance_rng), None)
            return True
        bot = self.agents[seat]
        if bot is None:
            return False
        obs = self._observe(state, seat) if self._reads[seat] else None
        rng = self._seat_rng(seat)
        legal = self._legal(state)
        action = bot.act(obs, legal, rng)
        self._apply(action, seat)
        return True

    def step_shown(self, seat: int) -> bool:
        """Play chance and the bots until a step changes what *seat* sees (its observation,
        or an event it may see), a human must act or the game is over; whether something
        changed for *seat*.

        A step that shows *seat* nothing (an offer made to another seat and declined unseen,
        such as a Pounce or Cox's "I buy") is played on at once: what a paced table shows
        *seat*, and when, is then the same whether that offer was made or never made.
        """
        before = self._observe(self.state, seat)
        seen = len(self.events)
        while self.step():
            if (self._observe(self.state, seat) != before
                    or engine.visible_events(self.events[seen:], seat)):
                return True
        return False

    def run(self) -> None:
        """Play chance and bots until a human must act or the game is over."""
        while self.step():
            pass

    def act(self, seat: int, action: Action) -> tuple[Event, ...]:
        """A human's action for *seat*, checked (turn included); nothing changes if illegal.

        :raises IllegalActionError: saying why the action is refused.
        """
        engine.check(self.reference_state(), action, seat=seat)
        return self._apply(action, seat)

    # -- records ------------------------------------------------------------------------
    def record(self) -> GameRecord:
        """The game so far as a record."""
        result = self._outcome(self.state)
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
                            driver._seat_rng(d.seat))
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
