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
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np
import pyspiel

from commerce import engine
from commerce.core import Action, ActionKind, Event
from commerce.encoding import Encoding, int_to_action, observation_size
from commerce.family import DealReader, family_spec
from commerce.rules import Ruleset, rulesets

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

    def new_initial_state(self) -> _State:
        """The deal before its first card."""
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


class _Context:
    """What a state and an observer need of their game (pyspiel may hand them another Python
    wrapper of the game, without its attributes)."""

    def __init__(self, game: Any) -> None:
        self.rules = _RULES[game.get_type().short_name]
        self.players = int(game.num_players())
        params = game.get_parameters()
        self.recall = int(params.get("recall", RECALL))
        deals = int(params.get("deals", 0))
        self.openings = openings(self.rules.id, self.players, deals,
                                 int(params.get("seed", 0))) if deals else ()
        """The openings chance chooses among (empty: chance deals every card)."""
        spec = family_spec(self.rules.family)
        assert spec.encoding is not None and spec.deal_reader is not None
        self.encoding: Encoding = spec.encoding
        self.reader: DealReader = spec.deal_reader


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
        self.game_ = _Context(game)
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
        g = self.game_
        if player == pyspiel.PlayerId.CHANCE and not self.opened:
            return f"opening {action}: " + " ".join(
                engine.format_action(g.rules, Action(ActionKind.DEAL, (c,)))[5:]
                for c in g.openings[int(action)])
        if player == pyspiel.PlayerId.CHANCE:
            return "deal " + engine.format_action(g.rules, Action(ActionKind.DEAL,
                                                                  (int(action),)))[5:]
        found = int_to_action(g.encoding, g.rules, g.players, int(action),
                              engine.legal_actions(self.state))
        return f"#{action}" if found is None else engine.format_action(g.rules, found)

    def is_terminal(self) -> bool:
        return self.current_player() == int(pyspiel.PlayerId.TERMINAL)

    def returns(self) -> list[float]:
        return list(self.paid) if self.paid is not None else [0.0] * self.game_.players

    def __str__(self) -> str:
        spec = family_spec(self.game_.rules.family)
        return str(spec.render(engine.observe(self.state, None),
                               [f"seat {i}" for i in range(self.game_.players)]))


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
        game = _Context(game)
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

    def set_from(self, state: _State, player: int) -> None:
        """Fill :attr:`tensor` with *player*'s view of *state*."""
        g = self.game
        self.tensor[:] = 0.0
        if self.view == "nothing":
            return
        self.tensor[:self.obs_size] = self._vector(state.state, player)
        if "history" not in self.dict:
            return
        mine = [(before, a) for seat, before, a in state.acted if seat == player][-g.recall:]
        history = self.dict["history"]
        for row, (before, a) in zip(history, mine, strict=False):
            if self.view == "seat":
                row[a] = 1.0
            row[self.actions:] = self._vector(before, player)

    def string_from(self, state: _State, player: int) -> str:
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
                                 "deals": 0, "seed": 0})


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
