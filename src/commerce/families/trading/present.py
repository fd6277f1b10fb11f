"""What the trading games show people: menu entries in words, with suit symbols.

>>> from commerce.cards import parse_card
>>> action_label(Action(ActionKind.TRADE, (parse_card("7S"),)), None)
'trade 7♠'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from commerce.cards import format_card
from commerce.core import Action, ActionKind, DecisionKind
from commerce.hands import evaluator_for
from commerce.presentation import (
    Pile,
    Presentation,
    SeatView,
    TableView,
    card_face,
    hand_ranking,
    pack_symbols,
)
from commerce.text import seat_name

_WORDS = {
    ActionKind.STAND: "stand",
    ActionKind.DONE: "done (end your turn)",
    ActionKind.TRADE: "trade {card}",
    ActionKind.BARTER: "barter {card}",
    ActionKind.GIVE: "give {card}",
}


def action_label(action: Action, obs: Any) -> str:
    """A menu entry for *action* in words, its card with a suit symbol."""
    card = format_card(action.cards[0], symbols=True) if action.cards else ""
    return _WORDS.get(action.kind, action.kind.value).format(card=card)


_PROMPTS = {
    DecisionKind.TURN: "Your turn: stand, trade a card for ready money, or barter one.",
    DecisionKind.AFTER_TRADE: "You traded: stand now, or end your turn.",
    DecisionKind.BARTER_REPLY: "You are offered {offered} in barter: give a card back, "
                               "or stand.",
}


def table(obs: Any, names: Sequence[str]) -> TableView:
    """The table as the observation's seat sees it (only what the observation holds)."""
    seats = []
    for x in range(obs.players):
        hand = obs.hands[x]
        notes = []
        if obs.over and x == obs.seat:
            notes.append("game over")
        seats.append(SeatView(
            name=seat_name(names, x, obs.seat), score=f"{obs.balances[x]:+d} stakes",
            cards=tuple(card_face(c) for c in hand) if hand else (),
            hidden=0 if hand else 3, dealer=x == obs.dealer,
            to_act=obs.decision is not None and obs.decision.seat == x,
            note=", ".join(notes), you=x == obs.seat))
    piles = (Pile("pool", count=f"{obs.pool} stakes"),
             Pile("stock", count=f"{obs.stock_count} cards"))
    hand = tuple(obs.hand) if obs.seat is not None else ()
    note = ""
    if len(hand) == 3:
        value = evaluator_for(obs.ruleset).value(hand)
        note = f"{value.category.value}, {value.points} points"
    elif hand:
        note = "the card bought comes next"
    prompt = ""
    d = obs.decision
    if d is not None and d.seat == obs.seat and d.kind in _PROMPTS:
        offered = format_card(obs.offered, symbols=True) if obs.offered is not None else ""
        prompt = _PROMPTS[d.kind].format(offered=offered)
    elif d is not None and d.seat is not None:
        prompt = f"{seat_name(names, d.seat, obs.seat)} to act."
    return TableView(title=obs.ruleset.name,
                     progress=f"deal {obs.deal_number} of {obs.deals_total}",
                     seats=tuple(seats), piles=piles,
                     hand=tuple(card_face(c) for c in hand), hand_cards=hand,
                     hand_note=note, prompt=prompt)


PRESENTATION = Presentation(table=table, card_symbols=pack_symbols,
                            rules_help=hand_ranking)
"""The trading family's presentation hooks."""
