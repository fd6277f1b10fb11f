"""The heuristic bot: plays like a sensible person.

In the trading games it stands when its hand is likely the best at the table, otherwise trades
away the card whose replacement most improves its hand on average, and answers a barter by
giving back the card it misses least. Other families register their own rules of thumb with
:func:`register_family_heuristic`; where none exists the bot plays at random.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from commerce.cards import pack
from commerce.core import Action, ActionKind, DecisionKind
from commerce.errors import CommerceError
from commerce.hands import Evaluator, evaluator_for
from commerce.rules import Family, Ruleset

FamilyHeuristic = Callable[[Any, Sequence[Action], random.Random, float], Action]
_FAMILY: dict[Family, FamilyHeuristic] = {}


def register_family_heuristic(family: Family, fn: FamilyHeuristic) -> None:
    """Use *fn*(obs, legal, rng, boldness) for the heuristic bot in *family*."""
    _FAMILY[family] = fn


_STRENGTH: dict[int, tuple[Evaluator, list[float]]] = {}


def strength_table(rules: Ruleset) -> list[float]:
    """For each dense rank: the share of the pack's hands it beats (ties count half)."""
    ev = evaluator_for(rules)
    hit = _STRENGTH.get(id(ev))
    if hit is not None and hit[0] is ev:
        return hit[1]
    counts = [0] * ev.level_count
    for hand, rank in ev.sorted_ranks.items():
        if len(hand) == 3:
            counts[rank] += 1
    total = sum(counts)
    table: list[float] = []
    below = 0
    for c in counts:
        table.append((below + c / 2) / total)
        below += c
    _STRENGTH[id(ev)] = (ev, table)
    return table


def win_chance(rules: Ruleset, hand: Sequence[int], opponents: int) -> float:
    """A rough chance that *hand* beats *opponents* random hands."""
    table = strength_table(rules)
    return float(table[evaluator_for(rules).rank_of(tuple(hand))] ** max(opponents, 1))


def best_replacement(
    rules: Ruleset, hand: Sequence[int], unknown: Sequence[int]
) -> tuple[int, float]:
    """The card of *hand* whose replacement by a random *unknown* card gains most on average.

    Returns (card to give, expected strength after the replacement).
    """
    table = strength_table(rules)
    rank_of = evaluator_for(rules).rank_of
    best_card, best_value = hand[0], -1.0
    for give in hand:
        keep = tuple(c for c in hand if c != give)
        total = 0.0
        for x in unknown:
            total += table[rank_of((*keep, x))]
        value = total / len(unknown)
        if value > best_value:
            best_card, best_value = give, value
    return best_card, best_value


_REPLACE: dict[tuple[int, tuple[int, ...]], tuple[Evaluator, int]] = {}


def card_to_replace(rules: Ruleset, hand: tuple[int, ...]) -> int:
    """The card the heuristic trades from *hand*: :func:`best_replacement` against every card
    not in *hand*, memoised by hand."""
    ev = evaluator_for(rules)
    key = (id(ev), tuple(hand))
    hit = _REPLACE.get(key)
    if hit is not None and hit[0] is ev:
        return hit[1]
    seen = set(hand)
    unknown = [c for c in pack(rules.pack) if c not in seen]
    give, _ = best_replacement(rules, key[1], unknown)
    if len(_REPLACE) > 100_000:
        _REPLACE.clear()
    _REPLACE[key] = (ev, give)
    return give


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

    def act(self, obs: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        """Choose an action for the observation's seat."""
        family = obs.ruleset.family
        if family is Family.TRADING:
            return trading_action(obs, legal, rng, self.boldness)
        fn = _FAMILY.get(family)
        if fn is None:
            _load_family(family)
            fn = _FAMILY.get(family)
        if fn is not None:
            return fn(obs, legal, rng, self.boldness)
        return legal[rng.randrange(len(legal))]


def _load_family(family: Family) -> None:
    import importlib

    try:
        importlib.import_module(f"commerce.bots.heuristic_{family.value}")
    except ModuleNotFoundError:
        pass


def _find(legal: Sequence[Action], kind: ActionKind, card: int | None = None) -> Action | None:
    for a in legal:
        if a.kind is kind and (card is None or a.cards == (card,)):
            return a
    return None


def trading_action(obs: Any, legal: Sequence[Action], rng: random.Random,
                   boldness: float) -> Action:
    """The heuristic's choice in a trading-family game.

    Reads only ``ruleset``, ``players``, ``hand``, ``decision`` and ``offered`` of *obs*, so
    the search bot's playouts can call it with a light view of a drawn state.
    """
    rules: Ruleset = obs.ruleset
    hand = tuple(obs.hand)
    opponents = obs.players - 1
    p_win = win_chance(rules, hand, opponents)
    stand = _find(legal, ActionKind.STAND)
    kind = obs.decision.kind
    if kind is DecisionKind.AFTER_TRADE:
        if stand is not None and p_win >= boldness:
            return stand
        done = _find(legal, ActionKind.DONE)
        return done if done is not None else legal[0]
    if kind is DecisionKind.BARTER_REPLY:
        if stand is not None and p_win >= boldness:
            return stand
        table = strength_table(rules)
        rank_of = evaluator_for(rules).rank_of
        offered = obs.offered
        gives = [a for a in legal if a.kind is ActionKind.GIVE]
        if offered is None or not gives:
            return gives[0] if gives else legal[0]

        def after(a: Action) -> float:
            card = a.cards[0]
            if card == offered:
                return table[rank_of(hand)]
            return table[rank_of(tuple(offered if c == card else c for c in hand))]

        return max(gives, key=after)
    # An ordinary turn.
    if stand is not None and p_win >= boldness:
        return stand
    give = card_to_replace(rules, hand)
    trade = _find(legal, ActionKind.TRADE, give)
    if trade is not None:
        return trade
    barter = _find(legal, ActionKind.BARTER, give)
    if barter is not None:
        return barter
    return stand if stand is not None else legal[rng.randrange(len(legal))]
