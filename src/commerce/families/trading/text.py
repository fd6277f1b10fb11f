"""The trading family in words: log lines for events and the table as one seat sees it.

Presentation only: the rules never import this module.
"""

from __future__ import annotations

from collections.abc import Sequence

from commerce.cards import format_card, format_cards
from commerce.core import Event
from commerce.families.trading.rules import TradingObservation
from commerce.hands import evaluator_for
from commerce.text import plural, seat_name, seat_object, showdown_lines


def describe_event(e: Event, names: Sequence[str], viewer: int | None) -> str | None:
    """One log line for an event, or None for events not worth a line."""
    who = seat_name(names, e.seat, viewer)
    you = e.seat == viewer
    k = e.kind
    if k == "deal_started":
        return f"— Deal {e.get('deal')}: {who} deal{'' if you else 's'}; the pool holds " \
               f"{e.get('pool')}."
    if k == "dealt":
        return f"{who} {'are' if you else 'is'} dealt {format_cards(e.get('cards'))}."
    if k == "traded":
        cost = e.get("cost")
        paid = f", paying {cost} to the dealer" if cost else ""
        return f"{who} trade{'' if you else 's'} a card for ready money{paid}."
    if k == "traded_card":
        return f"{who} put{'' if you else 's'} {format_card(e.get('card'))} under the stock."
    if k == "drew":
        return f"{who} draw{'' if you else 's'} {format_card(e.get('card'))}."
    if k == "barter_offered":
        return f"{who} offer{'' if you else 's'} " \
               f"{seat_object(names, e.get('partner'), viewer)} a barter."
    if k == "barter_card":
        return f"  (the card offered is {format_card(e.get('card'))})"
    if k == "bartered":
        partner = seat_name(names, e.get("partner"), viewer)
        back = seat_object(names, e.seat, viewer)
        return f"{partner} give{'' if e.get('partner') == viewer else 's'} {back} a card back."
    if k == "barter_returned":
        return f"  (the card given back is {format_card(e.get('card'))})"
    if k == "stood":
        return f"{who} stand{'' if you else 's'}."
    if k == "round_limit":
        return f"No one has stood after {e.get('rounds')} rounds: the hands are shown."
    if k == "showdown":
        return showdown_lines(e, names, viewer, mark="← wins", name_width=12, cards_width=10)
    if k == "paid":
        why = e.get("why")
        stakes = plural(int(e.get("amount") or 0), "stake")
        if why == "pool":
            to = seat_name(names, e.get("to"), viewer)
            return f"{to} take{'' if e.get('to') == viewer else 's'} the pool ({stakes})."
        to = seat_object(names, e.get("to"), viewer)
        return f"{who} pay{'' if you else 's'} {to} {stakes} ({why})."
    return None


def render(obs: TradingObservation, names: Sequence[str]) -> str:
    """The table as the observation's seat sees it."""
    lines = [f"{obs.ruleset.name} — deal {obs.deal_number} of {obs.deals_total}; "
             f"pool {obs.pool}; stock {obs.stock_count} cards"]
    for seat in range(obs.players):
        marks = []
        if seat == obs.dealer:
            marks.append("dealer")
        if obs.decision is not None and obs.decision.seat == seat:
            marks.append("to act")
        hand = obs.hands[seat]
        shown = format_cards(hand) if hand else "? ? ?"
        lines.append(f"  {seat_name(names, seat, obs.seat):<12} {obs.balances[seat]:+4d}  "
                     f"{shown:<10} {', '.join(marks)}")
    if obs.seat is not None and len(obs.hand) < 3 and obs.hand:
        lines.append(f"Your hand: {format_cards(obs.hand, symbols=True)}  "
                     "(the card bought comes next, from the stock)")
    elif obs.seat is not None and obs.hand:
        value = evaluator_for(obs.ruleset).value(obs.hand)
        lines.append(f"Your hand: {format_cards(obs.hand, symbols=True)}  "
                     f"({value.category.value}, {value.points} points)")
    if obs.offered is not None and obs.decision is not None and obs.decision.seat == obs.seat:
        lines.append(f"You are offered {format_card(obs.offered)} in barter.")
    return "\n".join(lines)
