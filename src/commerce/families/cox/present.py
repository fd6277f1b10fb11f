"""What Cox's game shows people: the table as data (its menu words are
:func:`notation.action_label`)."""

from __future__ import annotations

from collections.abc import Sequence

from commerce.core import DecisionKind
from commerce.families.cox.cards import (
    HONOUR_NAMES,
    TRANSPORT_NAMES,
    CoxCard,
    format_cox_card,
    is_bank,
    is_captain,
    is_greenback,
    is_honour,
    transport_suit,
)
from commerce.families.cox.observe import CoxObservation
from commerce.families.cox.options import CoxOptions
from commerce.families.cox.text import decision_prompt
from commerce.presentation import CardFace, Pile, Presentation, SeatView, TableView
from commerce.text import seat_name

_SUIT_COLOURS = ("blue", "cyan", "magenta")
"""Automobiles, Ships, Aeroplanes."""


def card_name(card: CoxCard) -> str:
    """A card of Cox's pack in words.

    >>> card_name(0), card_name(61), card_name(63), card_name(77)
    ('Automobiles 1', 'Captain of Ships', 'the Bank', 'Greenbacks 2')
    """
    text = format_cox_card(card)
    if is_bank(card):
        return "the Bank"
    if is_captain(card):
        return f"Captain of {TRANSPORT_NAMES['ASP'.index(text[0])]}"
    if is_honour(card):
        return f"{HONOUR_NAMES['FGIM'.index(text[0])]} {text[1:]}"
    return f"{TRANSPORT_NAMES[transport_suit(card)]} {text[1:]}"


def card_face(card: CoxCard) -> CardFace:
    """A card of Cox's pack as drawn, coloured by its series, with its name in words.

    >>> card_face(0).colour, card_face(0).symbols, card_face(0).name
    ('blue', 'A1', 'Automobiles 1')
    """
    text = format_cox_card(card)
    if is_captain(card) or is_bank(card):
        colour = "yellow"
    elif is_greenback(card):
        colour = "green"
    elif is_honour(card):
        colour = "red"
    else:
        colour = _SUIT_COLOURS[transport_suit(card)]
    return CardFace(text, text, colour, card_name(card))


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def table(obs: CoxObservation, names: Sequence[str]) -> TableView:
    """The table as the observation's seat sees it (only what the observation holds)."""
    seats = []
    for x in range(obs.players):
        rack = obs.racks[x]
        laid = tuple(card_face(c) for group in obs.laid[x] for c in group)
        shown = laid + tuple(card_face(c) for c in obs.greenbacks[x])
        if rack is not None and x != obs.seat:
            shown = tuple(card_face(c) for c in rack) + shown
        base = obs.base_numbers[x]
        roles = [role for who, role in ((obs.retailer, "retailer"),
                                        (obs.wholesaler, "wholesaler")) if who == x]
        points = f"{obs.totals[x]:+d} point{'' if abs(obs.totals[x]) == 1 else 's'}"
        seats.append(SeatView(
            name=seat_name(names, x, obs.seat),
            score=points + ("" if base is None else f", base {base}"),
            cards=shown, hidden=0 if rack is not None else obs.rack_sizes[x],
            dealer=obs.retailer == x,
            to_act=obs.decision is not None and obs.decision.seat == x,
            note=", ".join(roles), you=x == obs.seat))
    top = (card_face(obs.discards[-1]),) if obs.discards else ()
    supply = ", ".join(f"No. {i + 1}: {_cards(n) if n else 'empty'}"
                       for i, n in enumerate(obs.supply))
    piles = (Pile("discards", top, _cards(len(obs.discards))),
             Pile("Supply Bases", count=supply))
    hand = tuple(obs.rack) if obs.seat is not None else ()
    d = obs.decision
    prompt = decision_prompt(obs, names) or ""  # the plain view's own words
    if not prompt and d is not None and d.seat is not None:
        prompt = f"{seat_name(names, d.seat, obs.seat)} to act."
    return TableView(title=obs.ruleset.name,
                     progress=f"hand {obs.hand_number} of {obs.hands_total}",
                     seats=tuple(seats), piles=piles,
                     hand=tuple(card_face(c) for c in hand), hand_cards=hand,
                     hand_note=holding_note(obs), prompt=prompt)


def holding_note(obs: CoxObservation) -> str:
    """What the player's holding (rack, laid-out sets and Greenbacks) would count now, as the
    plain interface says it, e.g. ``counts +12 now``; "" for a spectator."""
    from commerce.families.cox.scoring import score_holding

    if obs.seat is None:
        return ""
    opts = CoxOptions.of(obs.ruleset)
    held = [*obs.rack, *(c for g in obs.laid[obs.seat] for c in g), *obs.greenbacks[obs.seat]]
    now = score_holding(held, obs.base_numbers[obs.seat],
                        captain_can_be_fourth=opts.captain_can_be_fourth,
                        bank_double_order=opts.bank_double_order,
                        bank_counts_for_clear_hand=opts.bank_counts_for_clear_hand)
    return f"counts {now.score:+d} now"


_EXPLAIN = {
    DecisionKind.DRAW_OR_BUY: (
        "Your turn: draw the top card of the supply, or buy the last discard (say \"I buy\"). "
        "You may buy a discard only if you hold two cards like it (you lay the three out), "
        "or if it completes your hand at once (you must then sell out). Then you discard."),
    DecisionKind.BUY_OFFER: (
        "\"I buy\": another player discarded a card you may buy, because you hold two like "
        "it (or it completes your hand). If you buy it, the players between lose their turn "
        "and you discard next. Or decline and let it go."),
    DecisionKind.DISCARD: (
        "Discard one card face up. If the cards left make a complete hand (two threes or "
        "fours of a kind and a pair, every card used), you may say \"I sell out\": the hand "
        "ends and everybody scores what he holds."),
}


def explain(obs: CoxObservation) -> str:
    """The decision at hand in words, for the help."""
    d = obs.decision
    if d is None or obs.seat is None or d.seat != obs.seat:
        return ""
    return _EXPLAIN.get(d.kind, "")


_COMMANDS = """Type an action by its number from the list, or in words:
  draw | d                  draw the top card of the supply
  buy | i buy               buy the last discard
  discard CARD              discard a card face up (e.g. 'discard A3')
  sell out CARD | i sell out  sell out, discarding CARD
  decline                   let the discard go
Cards: A1-A5 Automobiles, S1-S5 Ships, P1-P5 Aeroplanes, AC SC PC Captains,
BK the Bank, F1-F4 Fruit, G1-G4 Grain, I1-I4 Industries, M1-M4 Greenbacks.
"""
"""The plain interface's help."""


PRESENTATION = Presentation(table=table, explain=explain, commands=_COMMANDS,
                            short_words={"d": "draw", "b": "buy"},
                            gain_words="expected points of this hand, less the others' average",
                            deal_word="hand")
"""Cox's presentation hooks."""
