"""The heuristic bot: plays like a sensible person.

Its rules of thumb are each family's ``heuristic`` hook (see :class:`commerce.family.FamilySpec`):
in the trading games it stands when its hand is likely the best at the table, otherwise trades
away the card whose replacement most improves its hand on average; the widow and Cox families
bring their own. Every family must have one: the registry refuses a family without it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from commerce.core import Action
from commerce.errors import CommerceError
from commerce.family import Observation, family_spec


class HeuristicBot:
    """Rules of thumb: stand on a hand likely to be best, trade the worst card.

    :param boldness: how sure the bot wants to be before it stands (0.5 = even chance).
    """

    name = "heuristic"

    def __init__(self, boldness: float = 0.5) -> None:
        self.boldness = boldness
        self.spec = "heuristic"

    @classmethod
    def from_options(cls, options: dict[str, str]) -> HeuristicBot:
        """Build from spec options: ``boldness`` (0-1)."""
        unknown = set(options) - {"boldness"}
        if unknown:
            raise CommerceError(f"heuristic bot options are: boldness; not {', '.join(unknown)}")
        text = options.get("boldness", "0.5")
        shown = repr(text) if len(text) <= 24 else repr(text[:20]) + "..."
        try:
            boldness = float(text)
        except ValueError:
            boldness = math.nan
        if not 0.0 <= boldness <= 1.0:  # also refuses nan
            raise CommerceError(
                f"heuristic option boldness must be a number from 0 to 1, not {shown}"
            )
        return cls(boldness)

    def act(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """Choose an action for the observation's seat (the family's heuristic)."""
        choice: Action = family_spec(obs.ruleset.family).heuristic(obs, legal, rng,
                                                                   self.boldness)
        return choice
