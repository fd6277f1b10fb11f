"""A PettingZoo AEC environment of any ruleset (made by :func:`commerce.rl.pettingzoo_env`,
or by the versioned modules :mod:`commerce.rl.commerce_v0` and :mod:`commerce.rl.commerce_v1`).

Agents are ``seat_0`` ... ``seat_{n-1}`` (``commerce_v0``) or ``player_0`` ...
``player_{n-1}`` (``commerce_v1``, as PettingZoo's card games name them). Each observation is
``{"observation": float32 vector, "action_mask": int8 mask}`` (:mod:`commerce.encoding`; the
mask is all 0 for a seat not to act). Rewards come at the end of each deal, in the ruleset's
unit. :meth:`CommerceAEC.state` is privileged: every seat's observation vector at once, for
centralised critics, never a seat's input. There is no parallel environment: the games are
sequential, one seat deciding at a time. Needs the optional packages of ``commerce[rl]``.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from commerce.errors import IllegalActionError, RulesetError
from commerce.rl.table import OBSERVATION_BOUND, Engine, Episode, make_table, warn_fast
from commerce.rules import Ruleset

__all__ = ["AGENT_PREFIXES", "CommerceAEC", "IllegalPolicy", "OrderEnforced", "order_enforced"]

AGENT_PREFIXES = {"commerce_v0": "seat", "commerce_v1": "player"}
"""Each version's agent names: ``seat_0`` ... (v0), ``player_0`` ... (v1)."""

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
                 dealer: int | None = None, fast: bool | None = None,
                 render_mode: str | None = None, version: str = "commerce_v0",
                 engine: Engine = "auto") -> None:
        super().__init__()
        if version not in AGENT_PREFIXES:
            raise RulesetError(f"version must be one of {', '.join(AGENT_PREFIXES)}, "
                               f"not {version!r}")
        self.metadata = {**self.metadata, "name": version}
        if illegal not in ("raise", "penalty"):
            raise RulesetError(f"illegal must be 'raise' or 'penalty', not {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise RulesetError(f"render_mode must be 'ansi' or 'human', not {render_mode!r}")
        warn_fast(fast)
        self.table = make_table(rules, players, episode=episode, dealer=dealer, engine=engine)
        self.illegal, self.penalty, self.render_mode = illegal, float(penalty), render_mode
        self.possible_agents = [f"{AGENT_PREFIXES[version]}_{i}" for i in range(players)]
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
        size = self.table.observation_size
        self.state_space = spaces.Box(-bound, bound, (players * size,), np.float32)
        """The space of :meth:`state`: every seat's observation vector, in seat order."""
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

    def state(self) -> npt.NDArray[np.float32]:
        """The full state, privileged: every seat's observation vector (the one
        :meth:`observe` gives it), concatenated in seat order, so every hand and what each
        seat alone has seen. For centralised critics during training; never what an acting
        seat may read. Cards no seat has seen (the stock's) are in no seat's view, and not in
        it. It is the one surface of the research API the no-leak harness does not hold to a
        seat's view (``tests/harness/noleak.py``: ``EXEMPT``)."""
        return np.concatenate([self.table.observation(seat)
                               for seat in range(self.table.players)])

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


_BEFORE_RESET = "{} cannot be accessed before reset"


class OrderEnforced(OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper``, the same checks, with the attributes an
    ``agent_iter`` loop reads at every step (``agents``, ``agent_selection``) and ``last``
    read from the environment directly instead of through the wrapper's ``__getattr__``
    (a third of a random loop's time)."""

    @property
    def agents(self) -> list[str]:
        """The agents still in the episode (an error before ``reset``)."""
        if not self._has_reset:
            raise AttributeError(_BEFORE_RESET.format("agents"))
        return self.env.agents  # type: ignore[no-any-return]

    @property
    def agent_selection(self) -> str:
        """The agent to act (an error before ``reset``)."""
        if not self._has_reset:
            raise AttributeError(_BEFORE_RESET.format("agent_selection"))
        return self.env.agent_selection  # type: ignore[no-any-return]

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, cumulative reward, terminated, truncated and
        info (an error before ``reset``)."""
        if not self._has_reset:
            raise AttributeError(_BEFORE_RESET.format("agent_selection"))
        return self.env.last(observe)  # type: ignore[no-any-return]


def order_enforced(env: CommerceAEC) -> OrderEnforcingWrapper:
    """*env* in PettingZoo's ``OrderEnforcingWrapper`` (:class:`OrderEnforced`, a subclass
    with the same checks), as its classic games' ``env()`` return theirs: ``step``,
    ``observe``, ``state``, ``render`` and ``agent_iter`` before ``reset`` raise one clear
    error, and so does reading ``agents``, ``rewards`` ..."""
    return OrderEnforced(env)
