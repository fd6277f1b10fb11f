"""A Gymnasium environment: one seat learns, our bots play the others.

Importing this module registers one id per preset with :func:`gymnasium.register`
(``commerce/Peel-v1``, ``commerce/VingtUn-v0`` ...; see :data:`ENV_IDS`). The observation is the
learner's vector (:mod:`commerce.encoding`), the action an integer of the action space, and
``info["action_mask"]`` the legal actions (also :meth:`CommerceGym.action_masks`, as maskable
algorithms ask for it; :class:`MaskedObservation` puts the mask into the observation). Needs the
optional packages of ``commerce[rl]``.
"""

from __future__ import annotations

import random
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from commerce.bots import make_bot
from commerce.compiled import policy_code
from commerce.core import Bot
from commerce.driver import seat_seed
from commerce.errors import IllegalActionError, RulesetError
from commerce.family import family_spec
from commerce.rl.table import (
    ENGINES,
    OBSERVATION_BOUND,
    CompiledTable,
    Engine,
    Episode,
    Table,
    make_table,
    warn_fast,
)
from commerce.rules import Ruleset, find_ruleset, rulesets

__all__ = ["ENTRY_POINT", "ENV_IDS", "CommerceGym", "MaskedObservation", "env_id", "register_envs"]

Vector = npt.NDArray[np.float32]


class CommerceGym(gymnasium.Env[Vector, np.int64]):
    """One learning seat against bots (see the module's docstring).

    :param rules: a ruleset id.
    :param players: the number of seats.
    :param seat: the learner's seat (the dealer is drawn at each reset, so its place varies).
    :param opponents: the bots' spec (``random``, ``heuristic``, ``search:iterations=50`` ...),
        one for every other seat or a comma-separated list, one per other seat.
    :param episode: ``"deal"`` or ``"game"``.
    :param illegal: ``"penalty"`` (the default: the episode ends, the learner gets *penalty*,
        so that an unmasked algorithm learns the rules) or ``"raise"``.
    :param set: rule options to change (``{"pack": 32}``).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, rules: str = "peel", players: int = 4, *, seat: int = 0,
                 opponents: str = "heuristic", episode: Episode = "deal",
                 illegal: str = "penalty", penalty: float = -1.0,
                 set: dict[str, Any] | None = None,
                 fast: bool | None = None, render_mode: str | None = None,
                 engine: Engine = "auto") -> None:
        ruleset = find_ruleset(rules)
        if set:
            ruleset = ruleset.with_options(**set)
        warn_fast(fast)
        if players not in ruleset.player_range():
            raise RulesetError(f"{ruleset.name} is for {ruleset.min_players} to "
                               f"{ruleset.max_players} players, not {players}")
        if not 0 <= seat < players:
            raise RulesetError(f"seat must be from 0 to {players - 1}")
        if illegal not in ("raise", "penalty"):
            raise RulesetError(f"illegal must be 'raise' or 'penalty', not {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise RulesetError(f"render_mode must be 'ansi', not {render_mode!r}")
        specs = [s.strip() for s in opponents.split(",")]
        if len(specs) == 1:
            specs *= players - 1
        if len(specs) != players - 1:
            raise RulesetError(f"give one opponent, or {players - 1}, not {len(specs)}")
        others = iter(specs)
        self.bots: list[Bot | None] = [None if i == seat else make_bot(next(others))
                                       for i in range(players)]
        self.table: Table | CompiledTable = _table(ruleset, players, episode, engine,
                                                   self.bots)
        self.seat, self.illegal, self.penalty = seat, illegal, float(penalty)
        self.render_mode = render_mode
        bound = np.float32(OBSERVATION_BOUND)
        self.observation_space = spaces.Box(-bound, bound, (self.table.observation_size,),
                                            np.float32)
        self.action_space = spaces.Discrete(self.table.num_actions)
        self._bot_rngs = [random.Random(0) for _ in range(players)]
        self._pending = 0.0
        self._skipped = 0

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Vector, dict[str, Any]]:
        """A new episode, dealt from *seed*; the bots play until the learner must decide.

        An episode that ends before the learner's first decision (another seat stood at
        once) is not shown: the next one is dealt, from the same generator. What a skipped
        episode's deals paid the learner is not lost: it comes with the learner's first
        reward, and its deals are counted in ``info["deals"]``, so that returns per deal
        are the seat's over every deal.
        """
        super().reset(seed=seed)
        draw = random.Random(int(self.np_random.integers(2**63)))
        pending, skipped = 0.0, 0
        while True:
            deal = draw.getrandbits(63)
            self.table.reset(deal)
            if isinstance(self.table, CompiledTable):  # its compiled bots played inside
                pending += self.table.opening_paid[self.seat]
                skipped += self.table.skipped_deals
            # each opponent's generator one-way from the episode's seed (as the driver's)
            self._bot_rngs = [random.Random(seat_seed(deal, k)) for k in range(len(self.bots))]
            pending += self._bots_play()
            if not self.table.done:
                self._pending, self._skipped = pending, skipped
                return self._observation(), self._info()
            skipped += self.table.deals

    def step(self, action: Any) -> tuple[Vector, SupportsFloat, bool, bool, dict[str, Any]]:
        """The learner plays *action*; the bots play until its next decision or the end.

        The reward is what the learner was paid meanwhile (deals that ended), with, on the
        first step, what deals that ended before its first decision paid it (those of the
        episode, and those of the episodes the reset skipped); an illegal action's penalty
        (``illegal="penalty"``) comes with that too.
        """
        table = self.table
        try:
            paid = table.step(int(action))[self.seat]
        except IllegalActionError:
            if self.illegal == "raise":
                raise
            table.done = True
            info = {**self._info(), "illegal_action": int(action)}
            penalty, self._pending = self.penalty + self._pending, 0.0
            return self._observation(), penalty, True, False, info
        paid += self._bots_play() + self._pending
        self._pending = 0.0
        return self._observation(), paid, table.done, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans (what maskable algorithms call)."""
        return self.table.mask().astype(bool)

    def render(self) -> str | None:
        """The table as a spectator sees it ('ansi')."""
        return self.table.text() if self.render_mode == "ansi" else None

    def _bots_play(self) -> float:
        table, paid = self.table, 0.0
        while not table.done and table.seat != self.seat:
            seat = table.seat
            assert seat is not None
            bot = self.bots[seat]
            assert bot is not None
            obs = table.raw_observation(seat) if getattr(bot, "reads_observation", True) \
                else None
            paid += table.play(bot.act(obs, table.legal(), self._bot_rngs[seat]))[self.seat]
        return paid

    def _observation(self) -> Vector:
        return self.table.observation(self.seat)

    def _info(self) -> dict[str, Any]:
        """The mask, and ``deals``: the deals the episode's rewards so far cover (those
        finished in it, and those of the episodes its reset skipped)."""
        return {"action_mask": self.table.mask(), "deals": self.table.deals + self._skipped}


def _table(rules: Ruleset, players: int, episode: Episode, engine: Engine,
           bots: list[Bot | None]) -> Table | CompiledTable:
    """The family's compiled table where it has one, unless *engine* is ``reference``: the
    bots with a compiled policy (random, heuristic) played inside its steps, the others
    (search, learned ...) in Python, reading the game the compiled table decodes; else the
    reference's, every bot played in Python."""
    if engine not in ENGINES:
        raise RulesetError(f"engine must be 'reference', 'compiled' or 'auto', not {engine!r}")
    if engine != "reference":
        lineup: list[tuple[int, float] | None] = []
        for bot in bots:
            code = None if bot is None else policy_code(bot.name)
            lineup.append(None if bot is None or code is None
                          else (code, float(getattr(bot, "boldness", 0.5))))
        try:
            return CompiledTable.made(rules, players, episode=episode, bots=lineup)
        except RulesetError:
            if engine == "compiled":
                raise
    return make_table(rules, players, episode=episode, engine="reference")


class MaskedObservation(gymnasium.ObservationWrapper[dict[str, Any], np.int64, Vector],
                        gymnasium.utils.RecordConstructorArgs):
    """Observations as ``{"observation": vector, "action_mask": int8 mask}`` (the convention
    of PettingZoo's classic games and of action-masking models).

    *env* is a :class:`CommerceGym`, or one wrapped (what ``gymnasium.make`` returns). The
    wrapper records its constructor's arguments, as Gymnasium's own do, so a wrapped
    environment's ``spec`` can remake it (``env.spec.make()``, what ``check_env`` does)."""

    def __init__(self, env: gymnasium.Env[Vector, np.int64]) -> None:
        gymnasium.utils.RecordConstructorArgs.__init__(self)
        gymnasium.ObservationWrapper.__init__(self, env)
        inner = env.unwrapped
        if not isinstance(inner, CommerceGym):
            raise RulesetError(f"MaskedObservation wraps a CommerceGym, not {inner!r}")
        self.observation_space = spaces.Dict({
            "observation": env.observation_space,
            "action_mask": spaces.Box(0, 1, (inner.table.num_actions,), np.int8),
        })
        self._table = inner.table

    def observation(self, observation: Vector) -> dict[str, Any]:
        """The vector with the legal actions' mask."""
        return {"observation": observation, "action_mask": self._table.mask()}


def env_id(rules_id: str, version: int | None = None) -> str:
    """The registered id of a preset: ``commerce/Peel-v1``, ``commerce/VingtUn-v0``, of its
    family's :attr:`~commerce.family.FamilySpec.env_version` (or *version*).

    >>> env_id("vingt-un"), env_id("no-pair-or-point"), env_id("peel", 0)
    ('commerce/VingtUn-v0', 'commerce/NoPairOrPoint-v1', 'commerce/Peel-v0')
    """
    if version is None:
        version = family_spec(find_ruleset(rules_id).family).env_version
    return "commerce/" + "".join(w.capitalize() for w in rules_id.split("-")) + f"-v{version}"


ENTRY_POINT = "commerce.rl.gym:CommerceGym"
"""The registered ids' entry point (a string, so that a spec serialises with
``spec.to_json()`` and an environment made from it pickles)."""


def register_envs() -> tuple[str, ...]:
    """Register every preset with Gymnasium (ids already registered are kept): the entry
    point :data:`ENTRY_POINT`, the ruleset's id and the number of players as keywords; and
    each earlier version of a preset's id, with the engine it stepped then (``reference``).
    Returns the current ids."""
    ids = []
    for rules in rulesets():
        players = min(max(4, rules.min_players), rules.max_players)
        current = family_spec(rules.family).env_version
        for version in range(current + 1):
            name = env_id(rules.id, version)
            kwargs: dict[str, Any] = {"rules": rules.id, "players": players}
            if version < current:
                kwargs["engine"] = "reference"
            if name not in gymnasium.registry:
                gymnasium.register(id=name, entry_point=ENTRY_POINT, kwargs=kwargs)
        ids.append(env_id(rules.id, current))
    return tuple(ids)


ENV_IDS = register_envs()
"""The current registered ids, one per preset (four players, or the nearest the ruleset
allows)."""
