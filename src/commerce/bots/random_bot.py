"""The random bot: a uniformly random legal action."""

from __future__ import annotations

import random
from collections.abc import Sequence

from commerce.core import Action
from commerce.errors import CommerceError


class RandomBot:
    """Plays a uniformly random legal action: the bottom of the ladder."""

    name = "random"
    reads_observation = False
    """It never looks at the observation (the driver then builds none)."""

    def __init__(self) -> None:
        self.spec = "random"

    @classmethod
    def from_options(cls, options: dict[str, str]) -> RandomBot:
        """Build from spec options (it takes none)."""
        if options:
            raise CommerceError(f"the random bot takes no options, not {', '.join(options)}")
        return cls()

    def act(self, obs: object, legal: Sequence[Action], rng: random.Random) -> Action:
        """A uniformly random legal action."""
        return legal[rng.randrange(len(legal))]
