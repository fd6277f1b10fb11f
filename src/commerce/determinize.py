"""Determinisation: whole states consistent with what one seat has seen.

An information-set search never sees the state. It asks :func:`sample_state` for a complete
state drawn from the seat's observation: its own cards and everything it was shown are where
it saw them, and the cards it has not seen are dealt at random among the places they may be.
Each family provides how to do that as its ``sampler`` hook (see
:class:`commerce.family.FamilySpec`).

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

import random

from commerce.errors import CommerceError
from commerce.family import GameState, Observation, StateSampler, family_spec


def has_sampler(family: str) -> bool:
    """Whether states of *family* can be sampled from an observation."""
    return family_spec(family).sampler is not None


def state_sampler(obs: Observation) -> StateSampler:
    """A function that draws states consistent with *obs* (read once, drawn many times).

    :raises CommerceError: if the observation's family has no sampler, or the observation
        is one a sampler cannot rebuild (a spectator's, or one in the middle of a deal).
    """
    family = obs.ruleset.family
    factory = family_spec(family).sampler
    if factory is None:
        raise CommerceError(f"no state sampler for the {family} family yet (give it a "
                            "sampler hook)")
    return factory(obs)


def sample_state(obs: Observation, rng: random.Random) -> GameState:
    """One complete state consistent with *obs*: ``observe(result, obs.seat) == obs``.

    Hidden cards are placed at random where the seat's knowledge allows; the state's RNG-free
    future (the unseen stock) is part of the draw.
    """
    state: GameState = state_sampler(obs)(rng)
    return state
