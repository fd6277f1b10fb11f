"""The trading family's heuristic: stand when the hand is likely the best at the table,
otherwise replace the card whose replacement most improves the hand on average (bartering it
when ready money would cost more than the replacement is expected to win back), and answer a
barter by giving back the card missed least.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from commerce.cards import pack
from commerce.core import Action, ActionKind, DecisionKind
from commerce.families.trading.options import TradingOptions
from commerce.families.trading.rules import TradingObservation
from commerce.hands import evaluator_for
from commerce.rules import Ruleset
from commerce.strength import card_to_replace, strength_table, win_chance


def _find(legal: Sequence[Action], kind: ActionKind, card: int | None = None) -> Action | None:
    for a in legal:
        if a.kind is kind and (card is None or a.cards == (card,)):
            return a
    return None


def trading_action(obs: TradingObservation, legal: Sequence[Action], rng: random.Random,
                   boldness: float) -> Action:
    """The heuristic's choice in a trading-family game.

    Reads ``ruleset``, ``players``, ``hand``, ``decision`` and ``offered`` of *obs*.
    """
    rules: Ruleset = obs.ruleset
    hand = tuple(obs.hand)
    opponents = obs.players - 1
    p_win = win_chance(rules, hand, opponents)
    stand = _find(legal, ActionKind.STAND)
    assert obs.decision is not None, "the heuristic is asked only at the seat's decision"
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
    barter = _find(legal, ActionKind.BARTER, give)
    if barter is not None and (trade is None or _barter_rather(obs, hand, give, p_win)):
        return barter
    if trade is not None:
        return trade
    return stand if stand is not None else legal[rng.randrange(len(legal))]


def _barter_rather(obs: TradingObservation, hand: tuple[int, ...], give: int,
                   p_win: float) -> bool:
    """Whether to barter *give* rather than trade it: when ready money costs more than the
    replacement is expected to win back (its gain in the chance to take the pool, times the
    pool). A barter is free and brings a card of the neighbour's, much like a card of the
    stock; it tells the neighbour one card, which is why a cheap trade is still preferred."""
    rules = obs.ruleset
    opts = TradingOptions.of(rules)
    cost: int = opts.dealer_trade_cost if obs.seat == obs.dealer else opts.trade_cost
    if cost <= 0:
        return False
    keep = tuple(c for c in hand if c != give)
    seen = set(hand)
    unknown = [c for c in pack(rules.pack) if c not in seen]
    opponents = obs.players - 1
    after = sum(win_chance(rules, (*keep, x), opponents) for x in unknown) / len(unknown)
    return (after - p_win) * obs.pool < cost
