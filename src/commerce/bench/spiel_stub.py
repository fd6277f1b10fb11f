"""A game with no rules, of the shape of a random deal of Peel at four seats, as an OpenSpiel
Python game: the floor under which no Python game of that shape can step.

A random deal of ``python_commerce_peel`` (four seats) has, on average, 12.7 chance nodes
of some 46 outcomes (the twelve cards of the opening, then a card after some trades) and 3.5
decisions among some 4.7 legal actions. The stub's deal has twelve chance nodes of 52, 51 ...
41 outcomes, then three or four decisions (as the first card was even or odd) among five
actions, the first followed by one more chance node of 40 outcomes; it pays nothing. What a
step of it costs is OpenSpiel's own (the state's Python methods called from C++), and
``commerce bench peers`` times it beside Commerce's game.

>>> import pyspiel
>>> game = pyspiel.load_game(STUB)
>>> state = game.new_initial_state()
>>> len(state.chance_outcomes()), state.is_chance_node()
(52, True)
"""

from __future__ import annotations

from typing import Any

import pyspiel

__all__ = ["STUB"]

STUB = "python_commerce_stub"
"""The stub's registered name."""

_OPENING = 12
_ACTIONS = 5

_TYPE = pyspiel.GameType(
    short_name=STUB,
    long_name="A game of Peel's shape with no rules (a benchmark's floor)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=4,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={})


class _StubGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        info = pyspiel.GameInfo(num_distinct_actions=_ACTIONS, max_chance_outcomes=52,
                                num_players=4, min_utility=-1.0, max_utility=1.0,
                                utility_sum=0.0, max_game_length=20)
        super().__init__(_TYPE, info, params or {})

    def new_initial_state(self) -> _StubState:
        """A deal before its first card."""
        return _StubState(self)


class _StubState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.chances = 0
        self.decisions = 0
        self.length = 3
        self.card_due = False

    def current_player(self) -> int:
        if self.chances < _OPENING or self.card_due:
            return int(pyspiel.PlayerId.CHANCE)
        if self.decisions == self.length:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.decisions % 4

    def _legal_actions(self, player: int) -> list[int]:
        return list(range(_ACTIONS))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = 52 - self.chances
        odds = 1.0 / n
        return [(card, odds) for card in range(n)]

    def _apply_action(self, action: int) -> None:
        if self.chances < _OPENING or self.card_due:
            if self.chances == 0:
                self.length = 3 + action % 2
            self.chances += 1
            self.card_due = False
            return
        self.decisions += 1
        self.card_due = self.decisions == 1

    def _action_to_string(self, player: int, action: int) -> str:
        return f"{'card' if player == pyspiel.PlayerId.CHANCE else 'action'} {action}"

    def is_terminal(self) -> bool:
        return self.current_player() == int(pyspiel.PlayerId.TERMINAL)

    def returns(self) -> list[float]:
        return [0.0] * 4

    def __str__(self) -> str:
        return f"{self.chances} cards, {self.decisions} decisions"


if STUB not in pyspiel.registered_names():
    pyspiel.register_game(_TYPE, _StubGame)
