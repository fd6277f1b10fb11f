"""Plain-text views of observations and events, for the terminal and for logs.

Everything here works from an observation or from events a seat may see: never from a state.
Each family supplies its own words through the hooks ``describe_event`` and ``render`` of its
:class:`~commerce.family.FamilySpec`.
"""

from __future__ import annotations

from collections.abc import Sequence

from commerce.core import Event
from commerce.family import Observation, family_spec


def describe_event(e: Event, names: Sequence[str], viewer: int | None,
                   family: str = "trading") -> str | None:
    """One log line for an event, or None for events not worth a line."""
    return family_spec(family).describe_event(e, names, viewer)


def render(obs: Observation, names: Sequence[str]) -> str:
    """The table as the observation's seat sees it."""
    text: str = family_spec(obs.ruleset.family).render(obs, names)
    return text
