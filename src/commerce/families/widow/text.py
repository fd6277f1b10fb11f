"""Words for the widow games: one log line per event, and the table as a seat sees it.

Only events the viewer may see reach :func:`describe_event`; the widow is face up, so the cards
exchanged with it are public.

>>> from commerce.core import Event
>>> describe_event(Event("exchanged", 1, (("gave", 12), ("took", 51))), ["Ann", "Bo"], 0)
'Bo gives 5S to the widow and takes AC.'
"""

from __future__ import annotations

from collections.abc import Sequence

from commerce.cards import Card, format_card, format_cards
from commerce.core import Event
from commerce.families.widow.observe import WidowObservation
from commerce.families.widow.options import WidowOptions
from commerce.text import seat_name, seat_object, showdown_lines


def _s(seat: int | None, viewer: int | None, verb: str) -> str:
    """The verb agreeing with its subject: 'You take' / 'Bo takes'."""
    if seat == viewer:
        return verb
    if verb.endswith(("s", "sh", "ch", "x")):
        return verb + "es"
    return verb + "s"


def _cards(value: Card | tuple[Card, ...]) -> str:
    return format_cards(value) if isinstance(value, tuple) else format_card(value)


def describe_event(e: Event, names: Sequence[str], viewer: int | None) -> str | None:
    """One log line for a widow-family event, or None for one not worth a line."""
    who = seat_name(names, e.seat, viewer)
    k = e.kind
    if k == "deal_started":
        return f"- Deal {e.get('deal')}: {who} {_s(e.seat, viewer, 'deal')}."
    if k in ("dealt", "looked"):
        return None  # the hand is on the table view; one line per card would be noise
    if k == "widow_dealt":
        return f"The widow gets {format_card(e.get('card'))}."
    if k == "widow_card":
        return f"A card is added to the widow: {format_card(e.get('card'))}."
    if k == "round_started":
        return f"Round {e.get('round')}."
    if k == "blind_passed":
        return f"{who} {_s(e.seat, viewer, 'keep')} the dealt cards unseen."
    if k == "blind_done":
        return f"{who} {_s(e.seat, viewer, 'look')} at the hand."
    if k == "blind_exchanged":
        dealer = seat_object(names, e.seat, viewer)
        return (f"Before looking, {dealer} {_s(e.seat, viewer, 'put')} {_cards(e.get('gave'))} "
                f"in the widow and {_s(e.seat, viewer, 'take')} {_cards(e.get('took'))}.")
    if k == "exchanged":
        return (f"{who} {_s(e.seat, viewer, 'give')} {_cards(e.get('gave'))} to the widow "
                f"and {_s(e.seat, viewer, 'take')} {_cards(e.get('took'))}.")
    if k == "done":
        return None
    if k == "passed":
        return f"{who} {_s(e.seat, viewer, 'pass')}."
    if k == "knocked":
        return f"{who} {_s(e.seat, viewer, 'knock')}: everyone else has one more turn."
    if k == "stood":
        return f"{who} {_s(e.seat, viewer, 'stand')}."
    if k == "pounced":
        return f"Pounce! {who} {_s(e.seat, viewer, 'take')} {format_card(e.get('card'))}."
    if k == "pounce_declined":
        return f"{who} {_s(e.seat, viewer, 'let')} {format_card(e.get('card'))} go."
    if k == "round_limit":
        return f"No end after {e.get('rounds')} rounds: the hands are shown."
    if k == "showdown":
        return showdown_lines(e, names, viewer, mark="<- best", name_width=10, cards_width=12)
    if k == "token_moved":
        to = seat_object(names, e.get("to"), viewer)
        return f"{who} {_s(e.seat, viewer, 'lose')} a token to {to}."
    if k == "paid":
        to = seat_object(names, e.get("to"), viewer)
        return f"{who} {_s(e.seat, viewer, 'pay')} {to} {e.get('amount')}."
    if k == "counter_to_pool":
        return f"{who} {_s(e.seat, viewer, 'put')} a counter in the pool."
    if k == "prize":
        return f"{who} {_s(e.seat, viewer, 'take')} {e.get('amount')} from the pool."
    if k == "went_out":
        return f"{who} {'are' if e.seat == viewer else 'is'} out of the game."
    if k == "horse_bought":
        return f"{who} {_s(e.seat, viewer, 'buy')} a horse for {e.get('price')}."
    if k == "horse_declined":
        return f"{who} {_s(e.seat, viewer, 'decline')} to buy a horse."
    if k == "pool_taken":
        return f"{who} {_s(e.seat, viewer, 'take')} the pool ({e.get('amount')})."
    if k == "deal_ended":
        return None
    return f"{k} {who}"


def render(obs: WidowObservation, names: Sequence[str]) -> str:
    """The table as the observation's seat sees it, with the players' names."""
    from commerce.hands import evaluator_for

    rules = obs.ruleset
    lines = [f"{rules.name} - deal {obs.deal_number}, round {obs.round}"]
    pool = (f"    pool: {obs.pool} stakes, {obs.pool_counters} counters"
            if WidowOptions.of(rules).token_flow == "lowest_to_pool" else "")
    lines.append(f"Widow: {format_cards(obs.widow, symbols=True) or '-'}    "
                 f"stock: {obs.stock_count}{pool}")
    for x in range(obs.players):
        tags = []
        if x == obs.dealer:
            tags.append("dealer")
        if obs.decision is not None and obs.decision.seat == x:
            tags.append("to act")
        for flag, word in ((obs.knocker == x, "knocked"),
                           (x in obs.stood and obs.knocker != x, "stood"),
                           (x in obs.passed, "passed"), (x in obs.pounced, "pounced"),
                           (x in obs.locked and x not in obs.stood and x not in obs.passed,
                            "no more exchanges")):
            if flag:
                tags.append(word)
        count = (f"{obs.tokens[x]} tokens" if obs.tokens is not None
                 else f"{obs.balances[x]:+d} stakes")
        if x in obs.out:
            shown = "out"
        else:
            cards = obs.hands[x]
            shown = format_cards(cards) if cards else "? " * obs.hand_sizes[x]
        lines.append(f"  {seat_name(names, x, obs.seat):<10} {count:<10} {shown:<12} "
                     f"{', '.join(tags)}")
    hand = obs.hand
    if hand and len(hand) >= 3 and obs.seat is not None and obs.hands[obs.seat] is not None:
        value = evaluator_for(rules).value(hand)
        lines.append(f"Your hand: {format_cards(hand, symbols=True)}  "
                     f"({value.category.value}, {value.points} points)")
    if obs.pounce_offer is not None:
        lines.append(f"You may pounce on {format_card(obs.pounce_offer)}!")
    return "\n".join(lines)
