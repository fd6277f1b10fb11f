"""What every family's compiled kernel shares: policy and action codes, per-game random streams.

A *kernel* (a family's ``kernel`` hook, driven by :mod:`commerce.compiled`) plays whole games in
compiled code (numba), many at a time, with states held in small integer arrays. This core
module holds the parts that do not depend on a family:

* the policy codes a kernel plays (:data:`RANDOM`, :data:`HEURISTIC`) and the bot names that
  map to them (:func:`policy_code`);
* the action codes a kernel records: ``kind * 64 + card`` (:data:`NO_CARD` for an action that
  names no card), decoded by :func:`decode_action` into the :class:`commerce.core.Action` the
  reference engine replays;
* the random streams: game *i* of a batch run with master seed *s* draws its players' random
  choices from its own splitmix64 stream started at ``mix(mix(s) + (i + 1) * GAMMA)``, and
  chance's cards from one stream per deal (:func:`chance_start`) of its *group* (``i // k``
  for groups of *k* games, *k* = 1 unless a tournament's blocks share their deals), so that a
  game's cards and choices depend only on the master seed and its index, never on how the
  batch was split between threads. :func:`stream_start` and :func:`next_below` are the
  compiled helpers.

Only the kernels import this module (numba is a heavy import; ``import commerce`` does not
load it).

>>> decode_action(encode_action_py("trade", 7))
Action(kind=<ActionKind.TRADE: 'trade'>, cards=(7,))
>>> decode_action(encode_action_py("stand", None)).cards
()
>>> policy_code("heuristic"), policy_code("random"), policy_code("search")
(1, 0, None)
"""

from __future__ import annotations

import types
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Final, TypeVar, cast

import numba
import numpy as np

from commerce.core import Action, ActionKind

RANDOM: Final = 0
"""Policy code: a uniformly random legal action (the random bot)."""
HEURISTIC: Final = 1
"""Policy code: the family's heuristic, compiled (the heuristic bot)."""
LEARNER: Final = -1
"""Policy code of a steppable kernel's seat that its caller plays: the kernel stops at its
decisions (a vector environment's learner; every seat of the research API's table)."""

NO_CARD: Final = 63
"""The card field of an action code that names no card."""

KINDS: Final[tuple[ActionKind, ...]] = (
    ActionKind.DEAL, ActionKind.STAND, ActionKind.TRADE, ActionKind.BARTER, ActionKind.GIVE,
    ActionKind.DONE, ActionKind.EXCHANGE, ActionKind.PASS,
)
"""Action kinds by code: an action code is ``KINDS.index(kind) * 64 + card``."""

_KIND_CODE: Final = {kind: i for i, kind in enumerate(KINDS)}

GAMMA: Final = 0x9E3779B97F4A7C15
"""The splitmix64 increment (the golden ratio in 64 bits)."""
_MASK: Final = (1 << 64) - 1


_F = TypeVar("_F", bound=Callable[..., Any])


def uncounted(inline: str = "never") -> Callable[[_F], _F]:
    """``numba.njit`` (cached, releasing the GIL) for a compiled function that takes arrays
    but allocates none: without numba's reference counting of its arrays (``_nrt=False``).
    Counting every array argument of every call, two atomic operations each, was a quarter
    of a random Peel game's time; such a function may not create arrays."""
    options: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False, "inline": inline}
    return cast(Callable[[_F], _F], numba.njit(**options))


def policy_code(bot_spec: str) -> int | None:
    """The kernel policy that plays like the bot *bot_spec*, or None if it has none.

    Only the plain ``random`` and ``heuristic`` bots (the heuristic with any boldness, read by
    :func:`heuristic_boldness`) are compiled.
    """
    name = bot_spec.strip().lower().partition(":")[0]
    return {"random": RANDOM, "heuristic": HEURISTIC}.get(name)


def encode_action_py(kind: str, card: int | None) -> int:
    """The code of the action of *kind* (its value, e.g. ``"trade"``) naming *card*."""
    return _KIND_CODE[ActionKind(kind)] * 64 + (NO_CARD if card is None else card)


def decode_action(code: int) -> Action:
    """The action an action code stands for."""
    kind, card = divmod(int(code), 64)
    return Action(KINDS[kind], () if card == NO_CARD else (card,))


def mix64(z: int) -> int:
    """The splitmix64 output function, in Python (for tests and seeds)."""
    z &= _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def master_key(seed: int) -> int:
    """The key a batch run's master *seed* (any integer) is reduced to."""
    return mix64(seed & _MASK)


_C1 = np.uint64(0xBF58476D1CE4E5B9)
_C2 = np.uint64(0x94D049BB133111EB)
_GAMMA = np.uint64(GAMMA)
_S27, _S30, _S31, _S32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)
_ONE = np.uint64(1)


@numba.njit(cache=True, inline="always")
def mix(z: Any) -> Any:
    """The splitmix64 output function on a ``uint64`` (compiled)."""
    z = (z ^ (z >> _S30)) * _C1
    z = (z ^ (z >> _S27)) * _C2
    return z ^ (z >> _S31)


@numba.njit(cache=True, inline="always")
def stream_start(key: Any, index: Any) -> Any:
    """The first state of game *index*'s stream in a run whose :func:`master_key` is *key*."""
    return mix(key + (np.uint64(index) + _ONE) * _GAMMA)


# The columns of a stand sample (a kernel's ``stand_run``, read by ``analyze
# stand-threshold``): the seat's place from the dealer, its hand's evaluator rank, what
# standing and playing on paid it in the deal, 1 where standing won the deal, the player
# decisions the game made before, and the actions recorded of each way (standing, playing on).
(S_PLACE, S_RANK, S_STAND, S_PLAY, S_WON, S_DECISION, S_STOOD, S_PLAYED) = range(8)
SAMPLE_WIDTH: Final = 8
"""Columns of a stand sample (``S_PLACE`` ...)."""

CHANCE_SALT: Final = 0x5851F42D4C957F2D
"""Mixed into a run's key for the chance streams (:func:`chance_start`)."""
_SALT = np.uint64(CHANCE_SALT)
DEALS_PER_GROUP: Final = 1024
"""Chance streams a group of games has: one per deal, and the last for the first dealer."""
_DPG = np.uint64(DEALS_PER_GROUP)


@numba.njit(cache=True, inline="always")
def chance_start(key: Any, group: Any, deal: Any) -> Any:
    """The first state of the chance stream of deal *deal* (from 0; ``DEALS_PER_GROUP - 1``
    for the choice of the first dealer) of the games of *group*: the games of one group (a
    tournament's block) share their first dealer and the cards chance deals them, deal for
    deal, however the players play (the reference driver's fresh chance generator per deal).
    """
    return stream_start(key ^ _SALT, np.uint64(group) * _DPG + np.uint64(deal))


@numba.njit(cache=True, inline="always")
def next_below(state: Any, m: Any) -> Any:
    """``(state, j)``: the next state and ``j`` uniform in ``0 .. m-1`` (the high 32 bits of
    the output times *m*: a bias below ``m / 2**32``)."""
    state = state + _GAMMA
    x = mix(state) >> _S32
    return state, np.int64((x * np.uint64(m)) >> _S32)


def cuda_twin(dispatcher: Any, twins: dict[Any, Any] | None = None) -> Any:
    """The CUDA device function compiled from the Python source of the compiled (CPU)
    function *dispatcher*: its Python function over a copy of its module's globals in which
    every compiled function it calls is replaced by that function's own twin (recursively;
    *twins* holds those made so far), given to ``numba.cuda.jit(device=True)``. A kernel's
    steps thus run on a GPU as the same source, not as a second copy of the rules to keep
    equal. Only for code that allocates no arrays (the GPU thread's arrays are made by the
    caller, in its local memory). Needs numba's CUDA target (the ``numba-cuda`` package, or
    its simulator with ``NUMBA_ENABLE_CUDASIM=1``)."""
    from numba import cuda

    made = {} if twins is None else twins
    if dispatcher in made:
        return made[dispatcher]
    source = dispatcher.py_func
    names = dict(source.__globals__)
    for name in source.__code__.co_names:
        called = names.get(name)
        if isinstance(called, numba.core.registry.CPUDispatcher):
            names[name] = cuda_twin(called, made)
    twin = types.FunctionType(source.__code__, names, source.__name__, source.__defaults__,
                              source.__closure__)
    made[dispatcher] = device = cast(Any, cuda).jit(device=True)(twin)
    return device


def cuda_kernel(function: Callable[..., None]) -> Any:
    """``numba.cuda.jit(function)``: a CUDA kernel (whose module must hold ``numba.cuda`` as
    its global ``cuda``, which numba's simulator swaps for its own while it runs)."""
    from numba import cuda

    return cast(Any, cuda).jit(function)


@numba.njit(cache=True, inline="always")
def zeroed(a: Any) -> Any:
    """*a* (one axis) filled with zeros, as ``np.zeros`` makes a CPU kernel's working arrays
    (a GPU thread's local arrays, through :func:`cuda_twin`, start with whatever was there)."""
    for i in range(a.shape[0]):
        a[i] = 0
    return a


class CudaBatch:
    """A family kernel's tables on a GPU, ready to play batches there, one CUDA thread a game
    (a family's ``kernel_cuda`` module subclasses it with the CUDA kernel, built by
    :meth:`compiled`, that runs the CPU kernel's own steps through :func:`cuda_twin`).

    :meth:`run` takes what the CPU kernel's ``run`` takes, the result arrays as device arrays
    (``numba.cuda.to_device`` of :func:`commerce.compiled.new_result`'s, in
    :meth:`commerce.compiled.BatchResult.arrays`' order): game *i* draws from the same streams,
    so the GPU plays the games the CPU kernel plays for the same seed."""

    outputs: int = 15
    """How many of the result arrays the CUDA kernel takes (the first ones)."""

    def __init__(self, tables: Sequence[Any], block: int = 128) -> None:
        from numba import cuda

        self.block = block
        self._tables = tuple(cast(Any, cuda).to_device(np.ascontiguousarray(t))
                             for t in tables)

    def compiled(self) -> Any:
        """The CUDA kernel: ``(key, index0, games, *tables, policies, boldness, share,
        *outputs)``, thread *i* playing row *i* (game ``index0 + i``)."""
        raise NotImplementedError

    def run(self, seed: int, index0: int, games: int, policies: Any, boldness: Any,
            share: int, out: Sequence[Any]) -> None:
        """Launch games ``index0`` to ``index0 + games`` of the run of *seed* into the
        device arrays *out*; returns once launched (``numba.cuda.synchronize()`` waits)."""
        from numba import cuda

        gpu = cast(Any, cuda)
        grid = (games + self.block - 1) // self.block
        self.compiled()[grid, self.block](
            np.uint64(master_key(seed)), index0, games, *self._tables,
            gpu.to_device(policies), gpu.to_device(boldness), share, *out[:self.outputs])


class EnvBatch:
    """The Python side of a family's steppable kernel (its ``env_kernel`` hook's batches):
    *num_envs* games stepped together, the learner at one seat.

    A family's subclass builds, in its ``__init__``, the compiled tables (``tables``), the
    games' arrays (``state``, the recorded codes at ``state[record_at]``), the working rows
    (``work``) and the outputs (:meth:`_outputs`), and names its compiled ``reset_envs(first,
    stop, marked, tables, state, outputs, work)`` and ``step_envs(first, stop, actions, tables,
    state, outputs, work)``, and the per-game scalars (``status``) with the slots of the
    next-step wait (``wait_slot``) and of the codes recorded (``record_slot``)."""

    num_envs: int
    seat: int
    players: int
    observation_size: int
    num_actions: int
    tables: tuple[Any, ...]
    state: tuple[Any, ...]
    work: tuple[Any, ...]
    status: Any
    wait_slot: int
    record_slot: int
    record_at: int
    reset_envs: Callable[..., None]
    step_envs: Callable[..., None]
    decode_action: Callable[[int], Action] = staticmethod(decode_action)
    """The action a recorded code stands for (the family's code: :func:`decode_action` of
    this module by default)."""
    scalars: tuple[str, ...] = ()
    """The names of ``status``'s columns (the family's per-game scalars)."""
    paid_at: ClassVar[tuple[int, int] | None] = None
    """Where what each seat was paid and not yet told is kept (the research API's table reads
    and clears it after each step): the array of ``state`` and its column; None where the
    family keeps only the learner's."""
    table_reset: ClassVar[Callable[..., None] | None] = None
    """``table_reset(e, obs, mask, tables, state, work)``, where the family's batch can have
    every seat a learner (the research API's table, :class:`commerce.rl.table.CompiledTable`):
    a fresh episode in game *e*, the seat to decide's observation and mask into the rows
    *obs* and *mask*; None where it cannot."""
    table_step: ClassVar[Callable[..., None] | None] = None
    """``table_step(e, index, obs, mask, tables, state, work)``: the seat to decide in game *e*
    plays the legal action *index*, chance plays on to the next decision; that seat's
    observation and mask into *obs* and *mask*."""
    table_observe: ClassVar[Callable[..., None] | None] = None
    """``table_observe(e, seat, row, tables, state)``: *seat*'s observation into *row*."""
    table_chance: ClassVar[Callable[..., bool] | None] = None
    """``table_chance(e, index, tables, state)``: whether the seat to decide's legal action
    *index* is followed by chance's card (explicit chance: the research API's OpenSpiel
    games); None where the family's batches cannot stop for chance."""
    table_unseen: ClassVar[Callable[..., int] | None] = None
    """``table_unseen(e, out, state)``: the cards chance may deal next into *out*; returns
    their number."""
    forced_index: ClassVar[int] = -1
    """Where in ``state`` the array of the cards chance is to deal next is (:meth:`force`)."""
    status_index: ClassVar[int] = 0
    """Where in ``state`` the per-game scalars (``status``) are."""
    pack: Any = None
    """The cards of the pack, as the kernel holds them."""

    def _outputs(self) -> None:
        """Allocate the outputs: observations, masks, rewards, terminations, final observations
        and where they are set, and the deals each episode's rewards cover (``obs``, ``mask``,
        ``rewards``, ``terminated``, ``final_obs``, ``final``, ``deals``; ``outputs`` holds
        them in that order). ``deals`` counts the deals finished in the episode (the ended
        one's where a step ended it) and those of the episodes its reset skipped because they
        ended before the learner's first decision, whose payoffs come with its first
        reward."""
        n, at = self.num_envs, self.observation_size
        self.obs = np.zeros((n, at), np.float32)
        self.mask = np.zeros((n, self.num_actions), np.int8)
        self.rewards = np.zeros(n, np.float64)
        self.terminated = np.zeros(n, np.bool_)
        self.final_obs = np.zeros((n, at), np.float32)
        self.final = np.zeros(n, np.bool_)
        self.deals = np.zeros(n, np.int64)
        self.outputs = (self.obs, self.mask, self.rewards, self.terminated, self.final_obs,
                        self.final, self.deals)

    def reset(self, which: Any = None) -> None:
        """Deal a fresh episode in every environment (or those marked in the boolean array
        *which*), their streams going on."""
        marked = np.ones(self.num_envs, np.bool_) if which is None else which
        type(self).reset_envs(0, self.num_envs, marked, self.tables, self.state, self.outputs,
                              self.work)

    def step(self, actions: Any, first: int = 0, stop: int | None = None) -> None:
        """Step environments *first* to *stop* (all by default) with *actions* (int64, one
        legal action of the action space per environment, already checked); it releases the
        GIL, so threads may step disjoint ranges."""
        type(self).step_envs(first, self.num_envs if stop is None else stop, actions,
                             self.tables, self.state, self.outputs, self.work)

    def seed(self, seeds: Sequence[int]) -> None:
        """Restart each game's random streams from its own seed (one per game)."""
        raise NotImplementedError(f"{type(self).__name__} does not say how it is seeded")

    def force(self, state: tuple[Any, ...], e: int, cards: Sequence[int]) -> None:
        """Make *cards* the next cards chance deals in game *e* of *state* (this batch's
        ``state`` or a copy of it), in order, instead of drawing them; each must be one chance
        may deal then."""
        state[self.forced_index][e, :len(cards)] = cards
        status = state[self.status_index]
        status[e, self.status_slot("forced_at")] = 0
        status[e, self.status_slot("forced")] = len(cards)

    def paid_of(self, state: tuple[Any, ...]) -> Any:
        """``(num_envs, players)``: what each seat was paid and not yet told in *state* (this
        batch's ``state`` or a copy of it; :attr:`paid_at`)."""
        if self.paid_at is None:
            raise TypeError(f"{type(self).__name__} keeps only the learner's reward")
        at, column = self.paid_at
        return state[at][:, :, column]

    def status_slot(self, name: str) -> int:
        """The column of ``status`` that holds the scalar *name* (:attr:`scalars`)."""
        return self.scalars.index(name)

    def waiting(self) -> Any:
        """Which environments wait for a next-step reset (their mask is all 0)."""
        return self.status[:, self.wait_slot] == 1

    def records(self) -> list[list[int]]:
        """Each environment's recorded codes since the last call (``-1 - dealer`` for a fresh
        game, then the family kernel's action codes, chance's included), then cleared.

        :raises OverflowError: if an environment recorded more than the room it was given.
        """
        rec = self.state[self.record_at]
        counts = self.status[:, self.record_slot].copy()
        if rec.shape[1] and (counts > rec.shape[1]).any():
            raise OverflowError("more actions than the recording has room for")
        self.status[:, self.record_slot] = 0
        return [rec[e, :counts[e]].tolist() for e in range(self.num_envs)]


class EnvKernel:
    """A family's ``env_kernel`` hook's object for one ruleset (*rules*) at one table size
    (*players*): its compiled tables (*kernel*, the family kernel's ``build``), ready to make
    batches by *make* (the family's :class:`EnvBatch`, called with the tables and
    :meth:`batch`'s arguments). *every_seat*: the family's batches can have every seat a
    learner (:meth:`table`)."""

    def __init__(self, rules: Any, players: int, kernel: Any,
                 make: Callable[..., EnvBatch], *, every_seat: bool = False) -> None:
        self.rules, self.players, self.kernel, self.make = rules, players, kernel, make
        self.every_seat = every_seat

    def table(self, *, episode: str, dealer: int | None, record: int,
              policies: Sequence[int] | None = None,
              boldness: Sequence[float] | None = None) -> EnvBatch | None:
        """One game stepped one decision at a time by the batch's ``table_step`` (the
        research API's table): every seat a learner, or each played by its policy code in
        *policies* (:data:`LEARNER` for a learner's seat) and *boldness*; its first dealer
        *dealer* (None: drawn by chance). None if the family's batches cannot
        (*every_seat*)."""
        if not self.every_seat:
            return None
        p = self.players
        return self.make(self.kernel, 1, -1, [LEARNER] * p if policies is None else policies,
                         [0.5] * p if boldness is None else boldness, episode=episode,
                         same_step=False, record=record, dealer=dealer)

    def batch(self, num_envs: int, seat: int, policies: Sequence[int],
              boldness: Sequence[float], *, episode: str = "deal", same_step: bool = True,
              record: int = 0) -> EnvBatch:
        """*num_envs* environments, the learner at *seat*, every seat played by its policy
        code (:data:`RANDOM`, :data:`HEURISTIC`; the learner's is not read) and boldness;
        *episode* ``"deal"`` or ``"game"``; *record*: the actions each environment keeps
        between two :meth:`EnvBatch.records` (0: none)."""
        return self.make(self.kernel, num_envs, seat, policies, boldness, episode=episode,
                         same_step=same_step, record=record)
