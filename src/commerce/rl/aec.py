"""A PettingZoo AEC environment of any ruleset (made by :func:`commerce.rl.pettingzoo_env`).

Agents are ``seat_0`` ... ``seat_{n-1}``. Each observation is ``{"observation": float32
vector, "action_mask": int8 mask}`` (:mod:`commerce.encoding`; the mask is all 0 for a seat
not to act). Rewards come at the end of each deal, in the ruleset's unit. Needs the optional
packages of ``commerce[rl]``.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from commerce.errors import IllegalActionError, RulesetError
from commerce.rl.table import OBSERVATION_BOUND, Episode, Table
from commerce.rules import Ruleset

__all__ = ["CommerceAEC", "IllegalPolicy"]

IllegalPolicy = Literal["raise", "penalty"]
"""What an illegal action does: raise :class:`~commerce.errors.IllegalActionError` (nothing
changes), or end the episode with *penalty* for the seat that played it and 0 for the others
(as PettingZoo's classic games do)."""


class CommerceAEC(AECEnv):  # type: ignore[misc]
    """The agent-environment cycle of one Commerce game (see the module's docstring)."""

    metadata: dict[str, Any] = {"name": "commerce_v0", "render_modes": ["ansi", "human"],
                                "is_parallelizable": False}

    def __init__(self, rules: Ruleset, players: int, *, episode: Episode = "deal",
                 illegal: IllegalPolicy = "raise", penalty: float = -1.0,
                 dealer: int | None = None, fast: bool = True,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if illegal not in ("raise", "penalty"):
            raise RulesetError(f"illegal must be 'raise' or 'penalty', not {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise RulesetError(f"render_mode must be 'ansi' or 'human', not {render_mode!r}")
        self.table = Table(rules, players, episode=episode, dealer=dealer, fast=fast)
        self.illegal, self.penalty, self.render_mode = illegal, float(penalty), render_mode
        self.possible_agents = [f"seat_{i}" for i in range(players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        bound = np.float32(OBSERVATION_BOUND)
        obs_space = spaces.Dict({
            "observation": spaces.Box(-bound, bound, (self.table.observation_size,),
                                      np.float32),
            "action_mask": spaces.Box(0, 1, (self.table.num_actions,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.table.num_actions)
                              for a in self.possible_agents}
        self.agents: list[str] = []
        self.agent_selection = self.possible_agents[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space (the same object for every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space: the integers of :mod:`commerce.encoding`."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode: the same *seed* deals the same cards and dealer."""
        self.table.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def observe(self, agent: str) -> dict[str, Any]:
        """What *agent*'s seat may know, and its legal-action mask."""
        seat = self._seat[agent]
        mask = (self.table.mask() if self.table.seat == seat
                else np.zeros(self.table.num_actions, dtype=np.int8))
        return {"observation": self.table.observation(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        """The selected agent plays *action* (an integer of the action space)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        try:
            paid = self.table.step(int(action))
        except IllegalActionError:
            if self.illegal == "raise":
                raise
            self.rewards[agent] = self.penalty
            self.table.done = True
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos[agent] = {"illegal_action": int(action)}
        else:
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = paid[i]
            if self.table.done:
                self.terminations = dict.fromkeys(self.agents, True)
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _select(self) -> None:
        seat = self.table.seat
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def render(self) -> str | None:
        """The table as a spectator sees it ('ansi': returned, 'human': printed)."""
        if self.render_mode is None:
            return None
        text = self.table.text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
