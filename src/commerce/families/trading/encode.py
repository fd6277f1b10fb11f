"""The trading family's encoding for learning agents (:mod:`commerce.encoding`).

Actions: ``stand`` 0, ``done`` 1, then ``trade``, ``barter`` and ``give`` of each card of the
pack (P cards: 52, or 32 for the piquet pack), P integers each, in card order.

>>> import commerce
>>> from commerce.core import Action, ActionKind
>>> from commerce.cards import parse_card
>>> from commerce.rules import find_ruleset
>>> peel = find_ruleset("peel")
>>> ENCODING.action_to_int(peel, 4, Action(ActionKind.TRADE, (parse_card("2S"),)))
2
>>> ENCODING.action_to_int(peel, 4, Action(ActionKind.GIVE, (parse_card("AC"),)))
157
"""

from __future__ import annotations

from commerce.core import Action, ActionKind, Event
from commerce.encoding import (
    DECISION_KINDS,
    Encoding,
    Features,
    Segment,
    history_segments,
    relative,
    write_history,
)
from commerce.errors import IllegalActionError, IllegalReason
from commerce.families.trading.observe import TradingObservation
from commerce.rules import Ruleset

HISTORY = 8
"""K: the acts of the last turns kept in the ``history`` segment."""

KINDS = ("stood", "traded", "traded_card", "drew", "barter_offered", "barter_card", "bartered",
         "barter_returned")
"""The event kinds the history records."""

_CARD_KINDS = {ActionKind.TRADE: 0, ActionKind.BARTER: 1, ActionKind.GIVE: 2}


def num_actions(rules: Ruleset, _players: int) -> int:
    """``stand``, ``done``, and three actions per card of the pack."""
    return 2 + 3 * rules.pack


def action_to_int(rules: Ruleset, _players: int, action: Action) -> int:
    """The stable integer of *action* (see the module's docstring)."""
    if action.kind is ActionKind.STAND:
        return 0
    if action.kind is ActionKind.DONE:
        return 1
    group = _CARD_KINDS.get(action.kind)
    if group is None or len(action.cards) != 1:
        raise IllegalActionError(IllegalReason.WRONG_KIND,
                                 f"no place in the action space for {action}")
    return 2 + group * rules.pack + action.cards[0] - (52 - rules.pack)


def layout(rules: Ruleset, players: int) -> tuple[Segment, ...]:
    """The segments of a trading observation vector."""
    p = rules.pack
    return (
        Segment("phase", len(DECISION_KINDS) + 1,
                "the decision now, one-hot over the decision kinds, last: the game is over"),
        Segment("to_act", players + 1,
                "who acts, relative to the seat (0: the seat itself), last: chance or nobody"),
        Segment("position", players, "the seat's place after the dealer (0: the dealer)"),
        Segment("hand", p, "the seat's own cards, one slot per card of the pack"),
        Segment("offered", p, "the card offered in a pending barter the seat is part of"),
        Segment("stakes", players, "each seat's net stakes, from the seat on (0: the seat)"),
        Segment("pool", 1, "stakes in the pool"),
        Segment("stock", 1, "cards left in the stock"),
        Segment("deal", 2, "the deal's number (from 1) and the deals in the session"),
        *history_segments(KINDS, players, p, HISTORY),
    )


def _cards(offset: int, e: Event) -> tuple[int, ...]:
    card = e.get("card")
    return () if card is None else (card - offset,)


def encode(obs: TradingObservation) -> list[float]:
    """The observation as numbers (see :func:`layout`)."""
    rules, n, me = obs.ruleset, obs.players, obs.seat
    offset = 52 - rules.pack
    f = Features(layout(rules, n))
    d = obs.decision
    f.one_hot("phase", len(DECISION_KINDS) if d is None else DECISION_KINDS.index(d.kind))
    who = None if d is None else relative(d.seat, me, n)
    f.one_hot("to_act", n if who is None else who)
    f.one_hot("position", relative(me, obs.dealer, n))
    f.bits("hand", (c - offset for c in obs.hand))
    f.bits("offered", () if obs.offered is None else (obs.offered - offset,))
    base = 0 if me is None else me
    f.put("stakes", [float(obs.balances[(base + i) % n]) for i in range(n)])
    f.put("pool", [float(obs.pool)])
    f.put("stock", [float(obs.stock_count)])
    f.put("deal", [float(obs.deal_number), float(obs.deals_total)])
    write_history(f, obs.events, KINDS, me, n, rules.pack, HISTORY,
                  lambda e: _cards(offset, e))
    return f.done()


ENCODING = Encoding(num_actions=num_actions, action_to_int=action_to_int, layout=layout,
                    encode=encode, history=HISTORY, chance_outcomes=52)
"""The trading family's encoding."""
