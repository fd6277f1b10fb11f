"""Vingt-un in words: log lines for events and the table as one seat sees it.

Presentation only: the rules never import this module.
"""

from __future__ import annotations

from collections.abc import Sequence

from commerce.cards import format_card, format_cards
from commerce.core import Event
from commerce.families.vingtun.observe import HandView, VingtUnObservation
from commerce.families.vingtun.state import total
from commerce.text import plural, seat_name, seat_object


def _s(you: bool) -> str:
    return "" if you else "s"


def describe_event(e: Event, names: Sequence[str], viewer: int | None) -> str | None:
    """One log line for an event, or None for events not worth a line."""
    who = seat_name(names, e.seat, viewer)
    you = e.seat == viewer
    k = e.kind
    if k == "turned":
        return f"{who} {'are' if you else 'is'} turned {format_card(e.get('card'))}."
    if k == "first_dealer":
        return f"{who} turn{_s(you)} up the first ace and deal{_s(you)} first."
    if k == "deal_started":
        return f"— Deal {e.get('deal')}: {who} take{_s(you)} the deal."
    if k == "hand_started":
        return f"— Hand {e.get('hand')} of the deal."
    if k == "dealt":
        return f"{who} {'are' if you else 'is'} dealt {format_card(e.get('card'))} face down."
    if k == "staked":
        return f"{who} stake{_s(you)} {e.get('amount')}."
    if k == "doubled":
        return f"{who} call{_s(you)} double: every stake is doubled."
    if k == "no_double":
        return f"{who} do{'' if you else 'es'} not double."
    if k == "natural":
        if e.get("void"):
            return f"{who} also hold{_s(you)} a natural, {format_cards(e.get('cards'))}: void."
        return f"{who} hold{_s(you)} a natural, {format_cards(e.get('cards'))}!"
    if k == "asked":
        return f"{who} ask{_s(you)} for a card."
    if k == "drew":
        return f"{who} {'are' if you else 'is'} given {format_card(e.get('card'))}."
    if k == "content":
        return f"{who} {'are' if you else 'is'} content."
    if k == "kept":
        return f"{who} keep{_s(you)} the pair as one hand." if e.get("pair") else None
    if k == "divided":
        return f"{who} divide{_s(you)} {format_cards(e.get('cards'))} into two hands."
    if k == "over":
        return f"{who} over-draw{_s(you)} with {format_cards(e.get('cards'))} " \
               f"({e.get('total')})."
    if k == "renewed":
        pone = seat_object(names, e.seat, viewer)
        return f"The last card goes to {pone}, the pone, shuffled with the used cards: " \
               f"{e.get('count')} cards in the stock."
    if k == "paid":
        to = seat_object(names, e.get("to"), viewer)
        counters = plural(int(e.get("amount") or 0), "counter")
        return f"{who} pay{_s(you)} {to} {counters} ({e.get('why')})."
    if k == "pooled":
        return f"{who} put{_s(you)} {e.get('amount')} in the pool ({e.get('why')})."
    if k == "pool_taken":
        return f"{who} take{_s(you)} the pool ({e.get('amount')})."
    if k == "shown":
        parts = []
        for seat, own in enumerate(e.get("hands")):
            shown = " | ".join(f"{format_cards(h)} ({total(h)})" for h in own if h)
            if shown:
                parts.append(f"{seat_name(names, seat, viewer)}: {shown}")
        return "Hands shown: " + "; ".join(parts) + "." if parts else None
    if k == "deal_ended":
        return f"{who} give{_s(you)} up the deal after {plural(int(e.get('hands') or 0), 'hand')}."
    if k == "pool_shared":
        return f"The pool ({e.get('amount')}) is shared out."
    return None


def hand_text(h: HandView) -> str:
    """A hand of cards as a seat sees it: ``? 7H`` with its total where all are seen."""
    cards = " ".join("?" if c is None else format_card(c) for c in h.cards) or "-"
    known = tuple(c for c in h.cards if c is not None)
    points = f" ({total(known)})" if known and len(known) == len(h.cards) else ""
    stake = f", stake {h.stake}" if h.stake else ""
    state = "" if h.status == "open" else f", {h.status}"
    return f"{cards}{points}{stake}{state}"


def render(obs: VingtUnObservation, names: Sequence[str]) -> str:
    """The table as the observation's seat sees it."""
    double = ", doubled" if obs.doubled else ""
    lines = [f"{obs.ruleset.name} — deal {obs.deal_number} of {obs.deals_total}, hand "
             f"{obs.hand_number}{double}; pool {obs.pool}; stock {obs.stock_count}, used "
             f"{len(obs.used)}"]
    for seat in range(obs.players):
        marks = []
        if seat == obs.dealer:
            marks.append("dealer")
        if obs.decision is not None and obs.decision.seat == seat:
            marks.append("to act")
        hands = " | ".join(hand_text(h) for h in obs.hands[seat]) or "-"
        lines.append(f"  {seat_name(names, seat, obs.seat):<12} {obs.balances[seat]:+4d}  "
                     f"{hands}  {', '.join(marks)}")
    return "\n".join(lines)
