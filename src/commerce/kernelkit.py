"""What every family's compiled kernel shares: policy and action codes, per-game random streams.

A *kernel* (a family's ``kernel`` hook, driven by :mod:`commerce.fast`) plays whole games in
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

from collections.abc import Callable
from typing import Any, Final, TypeVar, cast

import numba
import numpy as np

from commerce.core import Action, ActionKind

RANDOM: Final = 0
"""Policy code: a uniformly random legal action (the random bot)."""
HEURISTIC: Final = 1
"""Policy code: the family's heuristic, compiled (the heuristic bot)."""

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
