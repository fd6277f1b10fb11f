"""What the trading games show people: menu entries in words, with suit symbols.

>>> from commerce.cards import parse_card
>>> action_label(Action(ActionKind.TRADE, (parse_card("7S"),)), None)
'trade 7♠'
"""

from __future__ import annotations

from collections.abc import Sequence

from commerce.cards import format_card
from commerce.core import Action, ActionKind, DecisionKind
from commerce.families.trading.observe import TradingObservation
from commerce.hands import evaluator_for
from commerce.presentation import (
    Pile,
    Presentation,
    SeatView,
    TableView,
    card_face,
    hand_ranking,
    pack_symbols,
    quantity,
)
from commerce.text import seat_name

_WORDS = {
    ActionKind.STAND: "stand",
    ActionKind.DONE: "done (end your turn)",
    ActionKind.TRADE: "trade {card}",
    ActionKind.BARTER: "barter {card}",
    ActionKind.GIVE: "give {card}",
}


def action_label(action: Action, obs: TradingObservation) -> str:
    """A menu entry for *action* in words, its card with a suit symbol."""
    card = format_card(action.cards[0], symbols=True) if action.cards else ""
    return _WORDS.get(action.kind, action.kind.value).format(card=card)


_PROMPTS = {
    DecisionKind.TURN: "Your turn: stand, trade a card for ready money, or barter one.",
    DecisionKind.AFTER_TRADE: "You traded: stand now, or end your turn.",
    DecisionKind.BARTER_REPLY: "You are offered {offered} in barter: give a card back, "
                               "or stand.",
}


def table(obs: TradingObservation, names: Sequence[str]) -> TableView:
    """The table as the observation's seat sees it (only what the observation holds)."""
    seats = []
    for x in range(obs.players):
        hand = obs.hands[x]
        notes = []
        if obs.over and x == obs.seat:
            notes.append("game over")
        seats.append(SeatView(
            name=seat_name(names, x, obs.seat),
            score=quantity(obs.balances[x], "stakes", signed=True),
            cards=tuple(card_face(c) for c in hand) if hand else (),
            hidden=0 if hand else 3, dealer=x == obs.dealer,
            to_act=obs.decision is not None and obs.decision.seat == x,
            note=", ".join(notes), you=x == obs.seat))
    piles = (Pile("pool", count=quantity(obs.pool, "stakes")),
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


_EXPLAIN = {
    DecisionKind.TURN: (
        "On your turn you do one thing. Stand if you think your hand is the best at the "
        "table: the trading stops and every hand is shown. Or trade a card for ready money: "
        "it goes under the stock, you pay one stake to the dealer and take the top card of "
        "the stock. Or barter: offer a card to your left-hand neighbour, who must give you "
        "one back unseen, or stand."),
    DecisionKind.AFTER_TRADE: (
        "You have traded or bartered this turn: you may still stand now, or end your turn."),
    DecisionKind.BARTER_REPLY: (
        "Your right-hand neighbour offers you a card in barter. You must give one of yours "
        "back for it, or stand, which stops the trading and shows every hand."),
}


def explain(obs: TradingObservation) -> str:
    """The decision at hand in words, for the help."""
    d = obs.decision
    if d is None or obs.seat is None or d.seat != obs.seat:
        return ""
    return _EXPLAIN.get(d.kind, "")


_COMMANDS = """Type an action by its number from the list, or in words:
  stand | s                 stand: everyone shows their hands
  trade CARD | t CARD       trade CARD for ready money (e.g. 't 7h')
  barter CARD | b CARD      offer CARD to your neighbour
  give CARD | g CARD        give CARD back to the player who offered a barter
  done | d                  end your turn without standing
Cards: rank A K Q J T (or 10) 9 ... 2 and suit S H D C (or ♠♥♦♣),
e.g. AS 10h T♦.
"""
"""The plain interface's help."""


PRESENTATION = Presentation(table=table, card_symbols=pack_symbols,
                            rules_help=hand_ranking, explain=explain, commands=_COMMANDS,
                            short_words={"s": "stand", "t": "trade", "b": "barter", "g": "give",
                                         "d": "done"})
"""The trading family's presentation hooks."""
