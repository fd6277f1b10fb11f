"""What the widow games show people: menu entries in words, exchanges grouped by the card
given, with suit symbols.

>>> from commerce.cards import parse_card
>>> x = Action(ActionKind.EXCHANGE, (parse_card("7S"), parse_card("3H")))
>>> action_label(x, None)
'exchange 7♠ for 3♥'
>>> menu_group(x, None)
MenuGroup(heading='give 7♠ for', short='3♥')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from commerce.cards import format_card, format_cards
from commerce.core import Action, ActionKind, DecisionKind
from commerce.hands import evaluator_for
from commerce.presentation import (
    MenuGroup,
    Pile,
    Presentation,
    SeatView,
    TableView,
    card_face,
    hand_ranking,
    pack_symbols,
)
from commerce.text import seat_name

_BARE = {
    ActionKind.PASS: "pass",
    ActionKind.DONE: "done",
    ActionKind.KNOCK: "knock",
    ActionKind.STAND: "stand",
    ActionKind.DECLINE: "decline",
    ActionKind.BUY_HORSE: "buy a horse (one more counter)",
}


def action_label(action: Action, obs: Any) -> str:
    """A menu entry for *action* in words, its cards with suit symbols."""
    cards = action.cards
    if action.kind is ActionKind.EXCHANGE and len(cards) == 2:
        return f"exchange {format_card(cards[0], symbols=True)} for " \
               f"{format_card(cards[1], symbols=True)}"
    if action.kind is ActionKind.EXCHANGE:
        return f"take {format_cards(cards, symbols=True)} blind"
    if action.kind is ActionKind.POUNCE:
        return f"pounce on {format_cards(cards, symbols=True)}"
    return _BARE.get(action.kind, action.kind.value)


def menu_group(action: Action, obs: Any) -> MenuGroup | None:
    """One-for-one exchanges grouped by the card given; the rest stand alone."""
    cards = action.cards
    if action.kind is ActionKind.EXCHANGE and len(cards) == 2:
        return MenuGroup(f"give {format_card(cards[0], symbols=True)} for",
                         format_card(cards[1], symbols=True))
    return None


_PROMPTS = {
    DecisionKind.TURN: "Your turn: exchange with the widow, pass, or say you are content.",
    DecisionKind.MORE_EXCHANGE: "Exchange another card, or end your turn (done).",
    DecisionKind.BLIND_EXCHANGE: "You deal: exchange with the widow before you look at "
                                 "your hand, or keep it unseen (pass).",
    DecisionKind.FINAL_TURN: "Your last turn of the deal: exchange or pass.",
    DecisionKind.POUNCE_OFFER: "The fourth card of your tricon is in the widow: pounce "
                               "on it, or let it go.",
    DecisionKind.HORSE_OFFER: "You are out of counters: buy a horse (one more), or leave "
                              "the game.",
}


def table(obs: Any, names: Sequence[str]) -> TableView:
    """The table as the observation's seat sees it (only what the observation holds)."""
    rules = obs.ruleset
    seats = []
    for x in range(obs.players):
        notes = [word for flag, word in (
            (x in obs.out, "out"), (obs.knocker == x, "knocked"),
            (x in obs.stood and obs.knocker != x, "stood"), (x in obs.passed, "passed"),
            (x in obs.pounced, "pounced")) if flag]
        score = (f"{obs.tokens[x]} tokens" if obs.tokens is not None
                 else f"{obs.balances[x]:+d} stakes")
        cards = obs.hands[x]
        seats.append(SeatView(
            name=seat_name(names, x, obs.seat), score=score,
            cards=tuple(card_face(c) for c in cards) if cards else (),
            hidden=0 if cards or x in obs.out else obs.hand_sizes[x],
            dealer=x == obs.dealer,
            to_act=obs.decision is not None and obs.decision.seat == x,
            note=", ".join(notes), you=x == obs.seat, out=x in obs.out))
    piles = [Pile("widow", tuple(card_face(c) for c in obs.widow),
                  card_ids=tuple(obs.widow)),
             Pile("stock", count=f"{obs.stock_count} cards")]
    if rules.token_flow == "lowest_to_pool":
        piles.append(Pile("pool", count=f"{obs.pool} stakes, {obs.pool_counters} counters"))
    hand = tuple(obs.hand) if obs.seat is not None else ()
    note = ""
    if len(hand) >= 3 and obs.seat is not None and obs.hands[obs.seat] is not None:
        value = evaluator_for(rules).value(hand[:3]) if len(hand) == 3 else None
        note = "" if value is None else f"{value.category.value}, {value.points} points"
    elif hand:
        note = "taken blind"
    progress = f"deal {obs.deal_number}, round {obs.round}"
    if obs.tokens is not None:
        progress += f", {obs.players - len(obs.out)} of {obs.players} still in"
    d = obs.decision
    prompt = ""
    if d is not None and d.seat == obs.seat and d.kind in _PROMPTS:
        prompt = _PROMPTS[d.kind]
        if d.kind is DecisionKind.TURN and rules.end_condition == "two_stand":
            prompt = "Your turn: exchange with the widow, pass, or stand."
    elif d is not None and d.seat is not None:
        prompt = f"{seat_name(names, d.seat, obs.seat)} to act."
    return TableView(title=rules.name, progress=progress, seats=tuple(seats),
                     piles=tuple(piles), hand=tuple(card_face(c) for c in hand),
                     hand_cards=hand, hand_note=note, prompt=prompt)


PRESENTATION = Presentation(menu_group=menu_group, table=table,
                            card_symbols=pack_symbols,
                            rules_help=hand_ranking)
"""The widow family's presentation hooks."""
