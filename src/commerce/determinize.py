"""Determinisation: whole states consistent with what one seat has seen.

An information-set search never sees the state. It asks :func:`sample_state` for a complete
state drawn from the seat's observation: its own cards and everything it was shown are where
it saw them, and the cards it has not seen are dealt at random among the places they may be.
Each family registers how to do that with :func:`register_sampler`; the module
``commerce.families.<family>_sample`` is imported on first use if it exists.

>>> import random
>>> from commerce import engine
>>> from commerce.rules import find_ruleset
>>> state = engine.new_game(find_ruleset("peel"), players=4)
>>> state = engine.apply(state, engine.sample_chance(state, random.Random(1))).state
>>> seat = engine.decision(state).seat
>>> obs = engine.observe(state, seat)
>>> sampled = sample_state(obs, random.Random(2))
>>> engine.observe(sampled, seat) == obs
True
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

from commerce.errors import CommerceError
from commerce.rules import Family

StateSampler = Callable[[random.Random], Any]
"""Draws one complete state with the given RNG."""
SamplerFactory = Callable[[Any], StateSampler]
"""Reads an observation once and returns a sampler for it (so that many draws are cheap)."""

_SAMPLERS: dict[Family, SamplerFactory] = {}


def register_sampler(family: Family, factory: SamplerFactory) -> None:
    """Use *factory*(obs) -> (rng -> state) to determinise observations of *family*."""
    _SAMPLERS[family] = factory


def has_sampler(family: Family) -> bool:
    """Whether states of *family* can be sampled from an observation."""
    return _factory(family) is not None


def state_sampler(obs: Any) -> StateSampler:
    """A function that draws states consistent with *obs* (read once, drawn many times).

    :raises CommerceError: if the observation's family has no sampler, or the observation
        is one a sampler cannot rebuild (a spectator's, or one in the middle of a deal).
    """
    family: Family = obs.ruleset.family
    factory = _factory(family)
    if factory is None:
        raise CommerceError(
            f"no state sampler for the {family.value} family yet (register one with "
            "commerce.determinize.register_sampler)"
        )
    return factory(obs)


def sample_state(obs: Any, rng: random.Random) -> Any:
    """One complete state consistent with *obs*: ``observe(result, obs.seat) == obs``.

    Hidden cards are placed at random where the seat's knowledge allows; the state's RNG-free
    future (the unseen stock) is part of the draw.
    """
    return state_sampler(obs)(rng)


def _factory(family: Family) -> SamplerFactory | None:
    factory = _SAMPLERS.get(family)
    if factory is None:
        name = f"commerce.families.{family.value}_sample"
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            return None
        factory = _SAMPLERS.get(family)
    return factory
