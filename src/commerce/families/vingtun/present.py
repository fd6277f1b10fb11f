"""What Vingt-un shows people: menu entries in words and the table as data.

>>> from commerce.core import Action, ActionKind
>>> action_label(Action(ActionKind.STAKE, amount=2), None)
'stake 2 counters'
"""

from __future__ import annotations

from collections.abc import Sequence

from commerce.cards import rank_of
from commerce.core import Action, ActionKind
from commerce.families.vingtun.observe import VingtUnObservation
from commerce.families.vingtun.options import VingtUnOptions
from commerce.families.vingtun.state import total, value
from commerce.presentation import (
    Pile,
    Presentation,
    SeatView,
    TableView,
    card_face,
    pack_symbols,
    quantity,
)
from commerce.rules import Ruleset
from commerce.text import seat_name

_WORDS = {
    ActionKind.CONTENT: "content (no more cards)",
    ActionKind.DRAW: "a card",
    ActionKind.DIVIDE: "divide the pair",
    ActionKind.DOUBLE: "double every stake",
    ActionKind.DECLINE: "do not double",
}

_PROMPTS = {
    "stake": "Stake on your first card.",
    "double": "You deal: double every stake on your first card, or not.",
    "divide": "Before the drawing: divide your pair into two hands, or keep it as one?",
    "play": "Content, or a card?",
    "dealer": "You deal: draw for yourself, or be content and settle.",
}


def action_label(action: Action, obs: VingtUnObservation) -> str:
    """A menu entry for *action* in words."""
    if action.kind is ActionKind.STAKE:
        return f"stake {action.amount} counter{'' if action.amount == 1 else 's'}"
    if action.kind is ActionKind.DECLINE and getattr(obs, "stage", None) == "divide":
        return "keep the two cards as one hand"
    return _WORDS.get(action.kind, action.kind.value)


def unit_of(_rules: Ruleset) -> str:
    """What Vingt-un's payoffs count, in words: the counters staked and paid (as its seats,
    pool and stakes say)."""
    return "counters"


def rules_help(_rules: Ruleset) -> list[str]:
    """What wins, best first, each with an example, for the help (ace 1 or 11, courts 10,
    others their face)."""
    return ["a natural (an ace and a ten-card), e.g. A♠ K♥",
            "Vingt-un drawn (21 in three or more cards), e.g. 7♠ 7♥ 7♦",
            "the higher total under 22, e.g. 10♠ 9♥ (19) beats 10♦ 8♣ (18)",
            "a tie with the dealer, e.g. 10♠ 7♥ against his 9♦ 8♣: the dealer's",
            "over 21: lost at once, e.g. 10♠ 6♥ 8♦ (24)"]


def _pair(obs: VingtUnObservation) -> bool:
    """Whether the seat's two cards may be divided under the ``divide`` option."""
    if obs.seat is None:
        return False
    own = obs.hands[obs.seat]
    cards = tuple(own[0].cards) if len(own) == 1 else ()
    divide = VingtUnOptions.of(obs.ruleset).divide
    if len(cards) != 2 or divide == "never":
        return False
    a, b = cards
    if a is None or b is None:
        return False
    return rank_of(a) == rank_of(b) if divide == "same_rank" \
        else value(a) == value(b)


def table(obs: VingtUnObservation, names: Sequence[str]) -> TableView:
    """The table as the observation's seat sees it (only what the observation holds)."""
    seats = []
    for x in range(obs.players):
        own = obs.hands[x]
        faces = tuple(card_face(c) for h in own for c in h.cards if c is not None)
        hidden = sum(1 for h in own for c in h.cards if c is None)
        notes = [h.status for h in own if h.status != "open"]
        stakes = sum(h.stake for h in own)
        if len(own) > 1:
            notes.insert(0, f"divided, stake {own[0].stake} on each hand")
        elif stakes:
            notes.insert(0, f"stake {stakes}")
        seats.append(SeatView(
            name=seat_name(names, x, obs.seat),
            score=quantity(obs.balances[x], "counters", signed=True),
            cards=faces, hidden=hidden, dealer=x == obs.dealer,
            to_act=obs.decision is not None and obs.decision.seat == x,
            note=", ".join(notes), you=x == obs.seat))
    piles = (Pile("pool", count=quantity(obs.pool, "counters")),
             Pile("stock", count=quantity(obs.stock_count, "cards")),
             Pile("used", count=quantity(len(obs.used), "cards")))
    hand = tuple(obs.hand) if obs.seat is not None else ()
    note = ""
    if obs.seat is not None and obs.hands[obs.seat]:
        note = " | ".join(f"{total(tuple(c for c in h.cards if c is not None))}"
                          for h in obs.hands[obs.seat] if h.cards)
        note = f"total {note}" if note else ""
    d = obs.decision
    prompt = ""
    if d is not None and d.seat == obs.seat and obs.stage in _PROMPTS:
        prompt = _PROMPTS[obs.stage]
        if obs.stage == "divide" and not _pair(obs):
            prompt = "Before the drawing: you hold no pair to divide; keep your two cards."
        if obs.stage == "play" and obs.seat is not None and len(obs.hands[obs.seat]) > 1:
            prompt = f"Content, or a card, on your {('first', 'second')[obs.part]} hand?"
    elif d is not None and d.seat is not None and obs.stage == "divide":
        prompt = f"{seat_name(names, d.seat, obs.seat)} to say whether to divide a pair."
    elif d is not None and d.seat is not None:
        prompt = f"{seat_name(names, d.seat, obs.seat)} to act."
    return TableView(title=obs.ruleset.name,
                     progress=f"deal {obs.deal_number} of {obs.deals_total}, hand "
                              f"{obs.hand_number}" + (", doubled" if obs.doubled else ""),
                     seats=tuple(seats), piles=piles,
                     hand=tuple(card_face(c) for c in hand), hand_cards=hand,
                     hand_note=note, prompt=prompt)


PRESENTATION = Presentation(table=table, card_symbols=pack_symbols, rules_help=rules_help)
"""Vingt-un's presentation hooks."""
