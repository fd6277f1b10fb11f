"""OpenSpiel games of every ruleset: ``python_commerce_<id>`` (one deal), with explicit chance.

Importing this module registers, with :func:`pyspiel.register_game`, one Python game per
preset: ``python_commerce_peel``, ``python_commerce_trade_and_barter`` ... (see
:data:`GAME_NAMES`), with the parameters ``players`` (4 by default, or the nearest count the
ruleset allows), ``recall`` (the information-state tensor's decisions), and ``deals`` and
``seed`` (chance picks one of that many drawn openings: :func:`openings`). A game is one deal
from a fixed dealer (seat 0): chance deals the cards one at a time (each chance action is a
card, with its probability), the seats act with the integers of :mod:`commerce.encoding`, and
the returns are what the deal paid each seat in the ruleset's unit; a game is zero-sum where
its rules make every deal's payoffs add up to 0 (:func:`is_zero_sum`), general-sum
otherwise. Observation tensors are the encoding's vectors; information-state and
observation strings are the seat's observation (its events of the deal from the start: perfect
recall within the deal) as JSON. Needs ``open_spiel`` (``commerce[openspiel]``).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel

from commerce import engine
from commerce.core import Action, ActionKind, Event
from commerce.encoding import Encoding, int_to_action, observation_size
from commerce.errors import RulesetError
from commerce.family import DealReader, family_spec
from commerce.rl.table import ENGINES, compiled_table
from commerce.rules import Ruleset, rulesets

if TYPE_CHECKING:
    from commerce.kernelkit import EnvBatch

__all__ = ["GAME_NAMES", "game_name", "is_zero_sum", "openings"]

UTILITY_BOUND = 1000.0
"""Returns of a deal lie within plus or minus this (the games' declared utility range)."""
MAX_LENGTH = 100_000
"""The declared bound on a deal's actions, chance's included."""
RECALL = 8
"""The default of the ``recall`` parameter: the seat's decisions the information-state tensor
keeps (the most recent; every one of a deal of the research variants)."""


def game_name(rules_id: str) -> str:
    """``python_commerce_trade_and_barter`` for ``trade-and-barter``."""
    return "python_commerce_" + rules_id.replace("-", "_")


def _default_players(rules: Ruleset) -> int:
    return min(max(4, rules.min_players), rules.max_players)


class _Game(pyspiel.Game):  # type: ignore[misc]
    rules: Ruleset
    zero_sum: bool

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", _default_players(self.rules)))
        if int(params.get("recall", RECALL)) < 0:
            raise ValueError("parameter recall: must not be negative")
        if params.get("engine", "auto") not in ENGINES:
            raise ValueError(f"parameter engine: 'auto', 'compiled' or 'reference', not "
                             f"{params.get('engine')!r}")
        spec = family_spec(self.rules.family)
        assert spec.encoding is not None
        deals = int(params.get("deals", 0))
        if not 0 <= deals <= spec.encoding.chance_outcomes:
            raise ValueError(f"parameter deals: from 0 (every deal) to "
                             f"{spec.encoding.chance_outcomes}, not {deals}")
        assert spec.encoding is not None and spec.deal_reader is not None
        encoding = spec.encoding
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.num_actions(self.rules, players),
            max_chance_outcomes=encoding.chance_outcomes,
            num_players=players,
            min_utility=-UTILITY_BOUND,
            max_utility=UTILITY_BOUND,
            utility_sum=0.0 if self.zero_sum else None,
            max_game_length=MAX_LENGTH)
        super().__init__(_game_type(self.rules, self.zero_sum), info, params)

    def new_initial_state(self) -> _State | _CompiledState:
        """The deal before its first card (on the family's compiled engine where it has one
        that plays the ruleset, unless the parameter ``engine`` says ``reference``)."""
        if _context(self).compiled is not None:
            return _CompiledState(self)
        return _State(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """The observer of an observation type (strings and tensors; see :class:`_Observer`).

        :raises ValueError: for a type Commerce does not provide: every seat's private
            information (``PrivateInfoType.ALL_PLAYERS``), or a seat's private information
            without the public (``public_info=False`` with ``SINGLE_PLAYER``).
        """
        if iig_obs_type is None:
            return _Observer(self, perfect_recall=False, view="seat")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("Commerce's observers show one seat's private information, or "
                             "none: PrivateInfoType.ALL_PLAYERS is not provided")
        if private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            if not iig_obs_type.public_info:
                raise ValueError("a seat's private information comes with the public "
                                 "(public_info=True): public_info=False is not provided "
                                 "with PrivateInfoType.SINGLE_PLAYER")
            view = "seat"
        else:
            view = "public" if iig_obs_type.public_info else "nothing"
        return _Observer(self, perfect_recall=bool(iig_obs_type.perfect_recall), view=view)


@functools.lru_cache(maxsize=64)
def openings(rules_id: str, players: int, deals: int, seed: int) -> tuple[tuple[int, ...], ...]:
    """The *deals* openings of a game with the parameter ``deals``: for each, the cards chance
    deals (in order, seat 0 dealing) until a seat first decides, drawn by ``sample_chance``
    from a generator seeded with *seed* and the deal's index. A pure function of its
    arguments (kept, as the games' states ask for it often)."""
    rules = _RULES[game_name(rules_id)]
    out = []
    for i in range(deals):
        rng = random.Random(seed * 1_000_003 + i)
        state = engine.new_game(rules, players, dealer=0)
        cards: list[int] = []
        while (d := engine.decision(state)) is not None and d.seat is None:
            action = engine.sample_chance(state, rng)
            cards.extend(action.cards)
            state, _ = engine.apply(state, action)
        out.append(tuple(cards))
    return tuple(out)


def _context(game: Any) -> _Context:
    """The context of *game* (pyspiel may hand a state another Python wrapper of the game,
    without its attributes): one per game name and parameters (:func:`_made_context`)."""
    params = game.get_parameters()
    return _made_context(game.get_type().short_name, int(game.num_players()),
                         int(params.get("recall", RECALL)), int(params.get("deals", 0)),
                         int(params.get("seed", 0)), str(params.get("engine", "auto")))


@functools.lru_cache(maxsize=64)
def _made_context(name: str, players: int, recall: int, deals: int, seed: int,
                  engine_name: str) -> _Context:
    """The context of the game *name* with these parameters (a pure function of them, kept:
    the compiled engine's tables are built once)."""
    return _Context(name, players, recall, deals, seed, engine_name)


class _Context:
    """What a state and an observer need of their game: the ruleset, the encoding, the
    openings, and the family's compiled engine where it steps the game."""

    def __init__(self, name: str, players: int, recall: int, deals: int, seed: int,
                 engine_name: str) -> None:
        self.rules = _RULES[name]
        self.players, self.recall = players, recall
        self.openings = openings(self.rules.id, self.players, deals, seed) if deals else ()
        """The openings chance chooses among (empty: chance deals every card)."""
        spec = family_spec(self.rules.family)
        assert spec.encoding is not None and spec.deal_reader is not None
        self.encoding: Encoding = spec.encoding
        self.reader: DealReader = spec.deal_reader
        self.num_actions = self.encoding.num_actions(self.rules, players)
        self.observation_size = observation_size(self.encoding, self.rules, players)
        self.pack: tuple[int, ...] = ()
        """The cards of the pack, in order (where the compiled engine steps the game)."""
        self.done_slot = self.actor_slot = -1
        """Where the compiled game's scalars say whether it is over and who acts."""
        self.compiled: EnvBatch | None = None
        """The compiled engine's batch of one game whose arrays are every state's template
        (None: the reference engine steps the game)."""
        if engine_name != "reference":
            try:
                batch = compiled_table(self.rules, players, dealer=0)
            except RulesetError:
                if engine_name == "compiled":
                    raise
            else:
                if type(batch).table_chance is not None and \
                        type(batch).table_unseen is not None:
                    self.compiled = batch
                    self.pack = tuple(sorted(int(c) for c in batch.pack))
                    self.done_slot = batch.status_slot("done")
                    self.actor_slot = batch.status_slot("actor")
                elif engine_name == "compiled":
                    raise RulesetError(f"the {self.rules.family} family's compiled engine "
                                       "does not stop for chance")


class _Shared:
    """A value a state's copies share: OpenSpiel copies a Python state with ``copy.deepcopy``
    (each ``clone()`` and ``child()``), and the engine's states and events are never changed
    in place, so a copy keeps the same ones (a state replaces them as it moves on)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class _State(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.game_ = _context(game)
        self.state = engine.new_game(self.game_.rules, self.game_.players, dealer=0)
        self.public = tuple(getattr(engine.observe(self.state, None), "events", ()))
        self.paid: list[float] | None = None
        self.acted = ()
        self.opened = not self.game_.openings
        """Whether the opening is dealt (with the parameter ``deals``, chance chooses one)."""

    @property
    def state(self) -> Any:
        """The engine's state of the deal."""
        return self._state.value

    @state.setter
    def state(self, value: Any) -> None:
        self._state = _Shared(value)

    @property
    def public(self) -> tuple[Event, ...]:
        """The public events of the deal so far (what the deal reader reads)."""
        events: tuple[Event, ...] = self._public.value
        return events

    @public.setter
    def public(self, value: tuple[Event, ...]) -> None:
        self._public = _Shared(tuple(value))

    @property
    def acted(self) -> tuple[tuple[int, Any, int], ...]:
        """The seats' decisions so far: (seat, the state it acted in, its action's integer)."""
        decisions: tuple[tuple[int, Any, int], ...] = self._acted.value
        return decisions

    @acted.setter
    def acted(self, value: Any) -> None:
        self._acted = _Shared(tuple(value))

    def current_player(self) -> int:
        if not self.opened:
            return int(pyspiel.PlayerId.CHANCE)
        if self.paid is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        d = engine.decision(self.state)
        if d is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.CHANCE) if d.seat is None else d.seat

    def _legal_actions(self, player: int) -> list[int]:
        g = self.game_
        return sorted(g.encoding.action_to_int(g.rules, g.players, a)
                      for a in engine.legal_actions(self.state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.opened:
            n = len(self.game_.openings)
            return [(i, 1.0 / n) for i in range(n)]
        legal = engine.legal_actions(self.state)
        weigh = self.game_.encoding.chance_weights
        weights = [1.0] * len(legal) if weigh is None else list(weigh(self.state, legal))
        total = sum(weights)
        return sorted((a.cards[0], w / total) for a, w in zip(legal, weights, strict=True)
                      if w > 0)

    def _apply_action(self, action: int) -> None:
        g = self.game_
        if not self.opened:
            if not 0 <= action < len(g.openings):
                raise ValueError(f"action {action} is not legal")
            self.opened = True
            for card in g.openings[action]:
                self._apply_action(card)
            return
        if self.is_chance_node():
            found: Action | None = Action(ActionKind.DEAL, (int(action),))
        else:
            found = int_to_action(g.encoding, g.rules, g.players, int(action),
                                  engine.legal_actions(self.state))
        if found is None:
            raise ValueError(f"action {action} is not legal")
        if not self.is_chance_node():
            self.acted = (*self.acted, (self.current_player(), self.state, int(action)))
        self.state, events = engine.apply(self.state, found)
        self.public = (*self.public, *(e for e in events if e.visible_to is None))
        deals = g.reader(g.rules, g.players, self.public)
        if deals:
            self.paid = [float(x) for x in deals[0].payoffs]
        elif engine.decision(self.state) is None:
            self.paid = [0.0] * g.players

    def _action_to_string(self, player: int, action: int) -> str:
        return _action_text(self.game_, player, action, not self.opened,
                            functools.partial(_state_of, self))

    def is_terminal(self) -> bool:
        return self.current_player() == int(pyspiel.PlayerId.TERMINAL)

    def returns(self) -> list[float]:
        return list(self.paid) if self.paid is not None else [0.0] * self.game_.players

    def __str__(self) -> str:
        spec = family_spec(self.game_.rules.family)
        return str(spec.render(engine.observe(self.state, None),
                               [f"seat {i}" for i in range(self.game_.players)]))

    def seat_vector(self, player: int) -> Any:
        """*player*'s observation vector now."""
        return self.game_.encoding.encode(engine.observe(self.state, player))

    def recalled(self, player: int) -> list[tuple[Callable[[], Any], Callable[[], Any], int]]:
        """*player*'s decisions so far: for each, its observation vector then and the state
        it acted in (each when asked), and its action's integer."""
        enc = self.game_.encoding
        return [(functools.partial(_encoded, enc, before, player),
                 functools.partial(_same, before), a)
                for seat, before, a in self.acted if seat == player]


def _action_text(g: _Context, player: int, action: int, opening: bool,
                 state: Callable[[], Any]) -> str:
    """The text of *action* by *player* (chance's: an opening's cards where *opening*, or a
    card; a seat's: the engine's notation of its action in *state*)."""
    if player == pyspiel.PlayerId.CHANCE and opening:
        return f"opening {action}: " + " ".join(
            engine.format_action(g.rules, Action(ActionKind.DEAL, (c,)))[5:]
            for c in g.openings[int(action)])
    if player == pyspiel.PlayerId.CHANCE:
        return "deal " + engine.format_action(g.rules, Action(ActionKind.DEAL,
                                                              (int(action),)))[5:]
    found = int_to_action(g.encoding, g.rules, g.players, int(action),
                          engine.legal_actions(state()))
    return f"#{action}" if found is None else engine.format_action(g.rules, found)


def _state_of(state: _State | _CompiledState) -> Any:
    """The reference engine's state of an OpenSpiel state."""
    return state.state


def _encoded(encoding: Encoding, state: Any, player: int) -> Any:
    return encoding.encode(engine.observe(state, player))


def _same(value: Any) -> Any:
    return value


class _Arrays:
    """A compiled game's arrays (its state and working rows): a state's copy (``clone``,
    ``child``: OpenSpiel's ``copy.deepcopy``) copies each array, not the tuples around them."""

    __slots__ = ("state", "work")

    def __init__(self, state: tuple[Any, ...], work: tuple[Any, ...]) -> None:
        self.state, self.work = state, work

    def __deepcopy__(self, memo: dict[int, Any]) -> _Arrays:
        return _Arrays(tuple(a.copy() for a in self.state), tuple(w.copy() for w in self.work))


class _CompiledState(pyspiel.State):  # type: ignore[misc]
    """A deal on the family's compiled engine (one game of its batch, every seat a learner):
    the same game as :class:`_State`, step for step (``tests/test_rl_openspiel_compiled.py``).

    Chance is explicit: the opening's cards are gathered, then dealt in one compiled call;
    a decision that chance's card follows (a trade from the stock) waits for it, then both
    are played in one call. Observation tensors, masks and returns come from the compiled
    engine; what needs the reference's objects (strings, the public view, the state at a
    chance node inside the deal) replays the recorded codes through the reference engine
    (:attr:`state`)."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        g = self.game_ = _context(game)
        batch = g.compiled
        assert batch is not None
        self.arrays = _Arrays(tuple(a.copy() for a in batch.state),
                              tuple(w.copy() for w in batch.work))
        self.obs = np.zeros(g.observation_size, np.float32)
        self.mask = np.zeros(g.num_actions, np.int8)
        self.dealt: tuple[int, ...] = ()
        """The opening's cards chance has dealt (until it is dealt)."""
        self.left = g.pack
        """The cards chance may deal next in the opening."""
        self.opened = False
        self.pending = -1
        """A decision played, waiting for chance's card (-1: none)."""
        self.actor = -1
        self.over = False
        self.paid = [0.0] * g.players
        self._codes = _Shared(())
        self._acted = _Shared(())
        self._decoded = _Shared(None)

    # -- what OpenSpiel asks ------------------------------------------------------------
    def current_player(self) -> int:
        if not self.opened or self.pending >= 0:
            return int(pyspiel.PlayerId.CHANCE)
        if self.over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.actor

    def _legal_actions(self, player: int) -> list[int]:
        if not self.opened or self.pending >= 0 or self.over:
            return []
        legal: list[int] = np.flatnonzero(self.mask).tolist()
        return legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        g = self.game_
        if not self.opened and g.openings:
            n = len(g.openings)
            return [(i, 1.0 / n) for i in range(n)]
        cards = self._chance_cards()
        odds = 1.0 / len(cards)
        return [(card, odds) for card in cards]

    def _chance_cards(self) -> list[int]:
        batch = self.game_.compiled
        assert batch is not None and batch.table_unseen is not None
        if not self.opened:
            return list(self.left)
        unseen = type(batch).table_unseen
        assert unseen is not None
        out = np.zeros(len(batch.pack), np.int64)
        n = unseen(0, out, self.arrays.state)
        return sorted(out[:n].tolist())

    def _apply_action(self, action: int) -> None:
        g = self.game_
        batch = g.compiled
        assert batch is not None
        chance_follows = type(batch).table_chance
        assert chance_follows is not None
        action = int(action)
        if not self.opened:
            if g.openings:
                if not 0 <= action < len(g.openings):
                    raise ValueError(f"action {action} is not legal")
                self._open(g.openings[action])
                return
            left = self.left
            if action not in left:
                raise ValueError(f"action {action} is not legal")
            i = left.index(action)
            self.left = left[:i] + left[i + 1:]
            self.dealt = (*self.dealt, action)
            if len(self.dealt) == 3 * g.players:
                self._open(self.dealt)
            return
        if self.pending >= 0:
            if action not in self._chance_cards():
                raise ValueError(f"action {action} is not legal")
            batch.force(self.arrays.state, 0, (action,))
            played, self.pending = self.pending, -1
            self._step(played)
            return
        if self.over or not 0 <= action < g.num_actions or not self.mask[action]:
            raise ValueError(f"action {action} is not legal")
        self._acted = _Shared((*self._acted.value,
                               (self.actor, self.obs.copy(), action, len(self._codes.value))))
        if chance_follows(0, action, batch.tables, self.arrays.state):
            self.pending = action
        else:
            self._step(action)

    def _open(self, cards: tuple[int, ...]) -> None:
        batch = self.game_.compiled
        assert batch is not None
        reset = type(batch).table_reset
        assert reset is not None
        arrays = self.arrays
        batch.force(arrays.state, 0, cards)
        reset(0, self.obs, self.mask, batch.tables, arrays.state, arrays.work)
        self.opened, self.dealt = True, ()
        self._after()

    def _step(self, action: int) -> None:
        batch = self.game_.compiled
        assert batch is not None
        step = type(batch).table_step
        assert step is not None
        arrays = self.arrays
        step(0, action, self.obs, self.mask, batch.tables, arrays.state, arrays.work)
        self._after()

    def _after(self) -> None:
        batch = self.game_.compiled
        assert batch is not None
        state = self.arrays.state
        status = state[batch.status_index]
        paid = batch.paid_of(state)[0]
        if paid.any():
            self.paid = [x + float(y) for x, y in zip(self.paid, paid.tolist(), strict=True)]
            paid[:] = 0
        n = int(status[0, batch.record_slot])
        self._codes = _Shared((*self._codes.value, *state[batch.record_at][0, :n].tolist()))
        status[0, batch.record_slot] = 0
        self.over = bool(status[0, self.game_.done_slot])
        self.actor = int(status[0, self.game_.actor_slot])

    def _action_to_string(self, player: int, action: int) -> str:
        g = self.game_
        return _action_text(g, player, action, not self.opened and bool(g.openings),
                            functools.partial(_state_of, self))

    def is_terminal(self) -> bool:
        return self.opened and self.pending < 0 and self.over

    def returns(self) -> list[float]:
        return list(self.paid)

    def __str__(self) -> str:
        spec = family_spec(self.game_.rules.family)
        return str(spec.render(engine.observe(self.state, None),
                               [f"seat {i}" for i in range(self.game_.players)]))

    # -- the views ----------------------------------------------------------------------
    def seat_vector(self, player: int) -> Any:
        """*player*'s observation vector now (the compiled engine's, unless chance is to
        deal: then the reference's of :attr:`state`)."""
        if not self.opened or self.pending >= 0:
            return self.game_.encoding.encode(engine.observe(self.state, player))
        if player == self.actor and not self.over:
            return self.obs.copy()
        batch = self.game_.compiled
        assert batch is not None
        observe = type(batch).table_observe
        assert observe is not None
        row = np.zeros(self.game_.observation_size, np.float32)
        observe(0, player, row, batch.tables, self.arrays.state)
        return row

    def recalled(self, player: int) -> list[tuple[Callable[[], Any], Callable[[], Any], int]]:
        """*player*'s decisions so far: for each, its observation vector then, the state it
        acted in (replayed when asked), and its action's integer."""
        return [(functools.partial(_same, vector), functools.partial(self._replayed, at), a)
                for seat, vector, a, at in self._acted.value if seat == player]

    @property
    def acted(self) -> tuple[tuple[int, Any, int], ...]:
        """The seats' decisions so far: (seat, the reference's state it acted in, its action's
        integer), replayed."""
        return tuple((seat, self._replayed(at), a) for seat, _, a, at in self._acted.value)

    @property
    def state(self) -> Any:
        """The reference engine's state of the deal: the recorded codes replayed (then the
        opening's cards dealt so far, or the decision waiting for chance's card)."""
        key = (len(self._codes.value), self.dealt, self.pending)
        cached = self._decoded.value
        if cached is not None and cached[0] == key:
            return cached[1]
        state = self._replayed(len(self._codes.value))
        for card in self.dealt:
            state = engine.apply(state, Action(ActionKind.DEAL, (card,))).state
        if self.pending >= 0:
            g = self.game_
            found = int_to_action(g.encoding, g.rules, g.players, self.pending,
                                  engine.legal_actions(state))
            assert found is not None
            state = engine.apply(state, found).state
        self._decoded = _Shared((key, state))
        return state

    def _replayed(self, count: int) -> Any:
        """The reference's state after the first *count* recorded codes."""
        from commerce.kernelkit import decode_action  # loaded with the compiled engine

        g = self.game_
        state = engine.new_game(g.rules, g.players, dealer=0)
        for code in self._codes.value[:count]:
            if code >= 0:
                state = engine.apply(state, decode_action(code)).state
        return state


class _Observer:
    """A view of the deal (the encoding's vector, ``tensor``, and the observation as JSON).

    *view* ``"seat"`` (public and private information, the default type): the seat's own
    observation; with perfect recall (the information state) the vector is followed by the
    seat's last ``recall`` decisions, each its action (one-hot) and the vector it acted on.
    ``"public"`` (``PrivateInfoType.NONE``): what every seat sees, the public observation
    (``engine.observe(state, None)``: no hand, no private event) encoded from the seat's
    place; with perfect recall the rows hold the public vector at each of the seat's
    decisions and no action (which card a seat traded is its own). The public string is
    the same for every seat. ``"nothing"`` (no public, no private information): an empty
    tensor and string."""

    def __init__(self, game: Any, perfect_recall: bool, view: str) -> None:
        game = _context(game)
        self.game, self.perfect_recall, self.view = game, perfect_recall, view
        self.obs_size = observation_size(game.encoding, game.rules, game.players) \
            if view != "nothing" else 0
        self.actions = game.encoding.num_actions(game.rules, game.players)
        recall = game.recall if perfect_recall and view != "nothing" else 0
        self.tensor = np.zeros(self.obs_size + recall * (self.actions + self.obs_size),
                               np.float32)
        self.dict: dict[str, Any] = {}
        if view != "nothing":
            self.dict["observation"] = self.tensor[:self.obs_size]
        if recall:
            self.dict["history"] = self.tensor[self.obs_size:].reshape(
                recall, self.actions + self.obs_size)

    def _vector(self, state: Any, player: int) -> Any:
        if self.view == "public":
            seen: Any = engine.observe(state, None)
            public = dataclasses.replace(seen, seat=player)
            return self.game.encoding.encode(public)
        return self.game.encoding.encode(engine.observe(state, player))

    def set_from(self, state: _State | _CompiledState, player: int) -> None:
        """Fill :attr:`tensor` with *player*'s view of *state*."""
        g = self.game
        self.tensor[:] = 0.0
        if self.view == "nothing":
            return
        self.tensor[:self.obs_size] = state.seat_vector(player) if self.view == "seat" \
            else self._vector(state.state, player)
        if "history" not in self.dict:
            return
        mine = state.recalled(player)[-g.recall:]
        history = self.dict["history"]
        for row, (vector, before, a) in zip(history, mine, strict=False):
            if self.view == "seat":
                row[a] = 1.0
                row[self.actions:] = vector()
            else:
                row[self.actions:] = self._vector(before(), player)

    def string_from(self, state: _State | _CompiledState, player: int) -> str:
        """*player*'s view of *state* as JSON (the public view: the same for every seat)."""
        if self.view == "nothing":
            return ""
        obs = engine.observe(state.state, None if self.view == "public" else player)
        return json.dumps(obs.to_dict(), sort_keys=True, default=repr)  # type: ignore[attr-defined]


def _game_type(rules: Ruleset, zero_sum: bool) -> Any:
    return pyspiel.GameType(
        short_name=game_name(rules.id),
        long_name=f"Commerce: {rules.name} (one deal)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if zero_sum
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.max_players,
        min_num_players=rules.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": _default_players(rules), "recall": RECALL,
                                 "deals": 0, "seed": 0, "engine": "auto"})


def is_zero_sum(rules: Ruleset) -> bool:
    """Whether every deal of *rules* pays the seats amounts that add up to 0, by its rules:
    stakes, tokens or counters only move from seat to seat. Not so where a deal pays into a
    pool that a later deal shares out (the widow games' counters paid into the pool,
    ``token_flow="lowest_to_pool"``, and a horse's price; Vingt-un's pool antes and
    overdraws) or where a hand scores points rather than moving them (Cox's game): such
    games are general-sum (their sums vary from deal to deal, so they are not constant-sum
    either). ``tests/test_rl_openspiel.py`` checks each preset's declaration over simulated
    deals."""
    options: Any = rules.options
    if rules.family == "cox":
        return False
    if rules.family == "widow":
        return bool(options.token_flow != "lowest_to_pool" and not options.buy_a_horse)
    if rules.family == "vingtun":
        return bool(options.pool_ante == 0 and options.pool_dealer_overdraw == 0)
    return True


_RULES: Mapping[str, Ruleset] = MappingProxyType({game_name(r.id): r for r in rulesets()})
"""The ruleset of each game's name."""


def _register() -> tuple[str, ...]:
    names = []
    registered = set(pyspiel.registered_names())
    for rules in rulesets():
        name = game_name(rules.id)
        names.append(name)
        if name in registered:
            continue
        zero_sum = is_zero_sum(rules)
        game_class = type(f"CommerceGame_{rules.id.replace('-', '_')}", (_Game,),
                          {"rules": rules, "zero_sum": zero_sum})
        pyspiel.register_game(_game_type(rules, zero_sum), game_class)
    return tuple(names)


GAME_NAMES = _register()
"""The registered games, one per preset."""
