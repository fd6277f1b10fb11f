"""Log lines for the events of Cox's 1925 Commerce, in plain English.

:func:`describe_event` is given only events the viewer may see (a private event is shown to its
seat alone, or to everybody in a review, where the viewer is None); it names the viewer "You".

>>> from commerce.core import Event
>>> names = ["Alice", "Bob", "Carol"]
>>> describe_event(Event("drew", 2, (("base", 2),)), names, 0)
'Carol draws from base 2.'
>>> describe_event(Event("discarded", 0, (("card", 0),)), names, 0)
'You discard A1.'
>>> describe_event(Event("bought", 1, (("card", 24), ("from", 0), ("lost_turns", (2,)))),
...                names, 0)
"Bob buys S2 from you — Carol's turn is skipped."
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from commerce.core import DecisionKind, Event, Seat
from commerce.families.cox.cards import (
    TRANSPORT_NAMES,
    CoxCard,
    face_card,
    format_cox_card,
    format_cox_cards,
    is_bank,
    is_black,
    is_wild,
    kind_name,
    kind_of,
    transport_suit,
)
from commerce.families.cox.choices import pair_kind as _pair_kind
from commerce.families.cox.choices import without_face as _without_face
from commerce.families.cox.observe import CoxObservation
from commerce.families.cox.options import CoxOptions
from commerce.families.cox.scoring import is_complete, score_holding

SILENT_KINDS = frozenset({"director", "declined"})
"""Event kinds that get no line: each Directors card (``directors_dealt`` sums them up) and
each decline (every seat is asked about every discard, so a "no" tells nothing)."""
KINDS = SILENT_KINDS | frozenset({
    "hand_started", "directors_dealt", "supply_formed", "dealt", "dealt_cards",
    "greenback_laid", "replaced", "replacement", "no_replacement", "laid_out", "fourth_laid",
    "drew", "drew_card", "bought", "discarded", "sold_out", "no_discard", "supply_exhausted",
    "hand_scored", "game_over",
})
"""Every event kind of the cox family that :func:`describe_event` knows."""


def _name(names: Sequence[str], seat: int | None, viewer: int | None, *,
          lower: bool = False) -> str:
    if seat is None:
        return "nobody"
    if seat == viewer:
        return "you" if lower else "You"
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat}"


def _verb(you: bool, plain: str, third: str | None = None) -> str:
    return plain if you else (third or plain + "s")


def _group(cards: Sequence[int]) -> str:
    """``three A1``, ``four Grain (G1 G2 G3 G4)``, or the cards with a wild card."""
    naturals = [c for c in cards if not is_wild(c)]
    size = {3: "three", 4: "four"}.get(len(cards), str(len(cards)))
    kinds = {kind_of(c) for c in naturals}
    if len(naturals) == len(cards) and len(kinds) == 1:
        k = kinds.pop()
        if k < 15:
            return f"{size} {kind_name(k)}"
        return f"{size} {kind_name(k)} ({format_cox_cards(cards)})"
    return f"{size} of a kind ({format_cox_cards(cards)})"


def _seats(names: Sequence[str], seats: Sequence[int], viewer: int | None) -> str:
    words = [_name(names, s, viewer, lower=True) for s in seats]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _skipped(names: Sequence[str], seats: Sequence[int], viewer: int | None) -> str:
    owners = ["your" if s == viewer else f"{_name(names, s, viewer)}'s" for s in seats]
    if len(owners) == 1:
        return f"{owners[0]} turn is skipped"
    return ", ".join(owners[:-1]) + " and " + owners[-1] + " turns are skipped"


def _scored(e: Event, names: Sequence[str], viewer: int | None) -> str:
    reason = e.get("reason")
    hand = e.get("hand")
    if reason == "sold_out":
        why = f"{_name(names, e.seat, viewer)} sold out"
    else:
        why = "the supply ran out"
    lines = [f"Hand {hand} is over ({why}). The count:"]
    breakdowns: Sequence[dict[str, Any]] = e.get("breakdowns") or ()
    totals = e.get("totals") or ()
    width = max((len(_name(names, s, viewer)) for s in range(len(breakdowns))), default=4)
    for seat, bd in enumerate(breakdowns):
        items = ", ".join(f"{item['what']} {item['points']:+d}" for item in bd["breakdown"])
        total = f"  (total {totals[seat]})" if seat < len(totals) else ""
        lines.append(f"  {_name(names, seat, viewer):<{width}} {bd['score']:+4d}  "
                     f"{items or 'nothing'}{total}")
    return "\n".join(lines)


def describe_event(e: Event, names: Sequence[str], viewer: int | None) -> str | None:
    """One English log line (or a few, for the count) for a Cox event; None for events that
    say nothing worth a line (single Directors cards, declines)."""
    k = e.kind
    who = _name(names, e.seat, viewer)
    you = (e.seat is not None and e.seat == viewer) or who == "You"  # a player named "You"
    if k == "hand_started":
        return f"— Hand {e.get('hand')} —"
    if k in SILENT_KINDS:
        return None
    if k == "directors_dealt":
        numbers: Sequence[int | None] = e.get("base_numbers") or ()
        held = [(s, n) for s, n in sorted(enumerate(numbers), key=lambda x: x[1] or 9)
                if n is not None]
        bases = ", ".join(f"{_name(names, s, viewer, lower=k > 0)} {n}"
                          for k, (s, n) in enumerate(held))
        retailer, wholesaler = e.get("retailer"), e.get("wholesaler")
        both = "the Retailer and the Wholesaler" if retailer == wholesaler else \
            f"the Retailer and {_name(names, wholesaler, viewer, lower=True)} the Wholesaler"
        r_name = _name(names, retailer, viewer)
        return f"{r_name} {_verb(r_name == 'You', 'are', 'is')} {both}. Supply Bases: {bases}."
    if k == "supply_formed":
        return f"{who} {_verb(you, 'cut')} the pack into four Supply Bases of 20."
    if k == "dealt":
        return f"{who} {_verb(you, 'deal')} {e.get('cards_each')} cards to each player."
    if k == "dealt_cards":
        return f"{who} {_verb(you, 'are', 'is')} dealt {format_cox_cards(sorted(e.get('cards')))}."
    if k == "greenback_laid":
        return f"{who} {_verb(you, 'lay')} out Greenback {format_cox_card(e.get('card'))}."
    if k == "replaced":
        return f"{who} {_verb(you, 'take')} a replacement from the bottom of base " \
               f"{e.get('base')}."
    if k == "replacement":
        return f"  (the replacement is {format_cox_card(e.get('card'))})"
    if k == "no_replacement":
        return f"No replacement is left for {_name(names, e.seat, viewer, lower=True)}."
    if k == "laid_out":
        return f"{who} {_verb(you, 'lay')} out {_group(e.get('cards'))}."
    if k == "fourth_laid":
        return f"{who} {_verb(you, 'lay')} out a fourth {format_cox_card(e.get('card'))}."
    if k == "drew":
        return f"{who} {_verb(you, 'draw')} from base {e.get('base')}."
    if k == "drew_card":
        return f"  (the card drawn is {format_cox_card(e.get('card'))})"
    if k == "bought":
        lost: Sequence[int] = e.get("lost_turns") or ()
        text = (f"{who} {_verb(you, 'buy')} {format_cox_card(e.get('card'))} from "
                f"{_name(names, e.get('from'), viewer, lower=True)}")
        return text + (f" — {_skipped(names, lost, viewer)}." if lost else ".")
    if k == "discarded":
        return f"{who} {_verb(you, 'discard')} {format_cox_card(e.get('card'))}."
    if k == "sold_out":
        return (f"{who} {_verb(you, 'discard')} {format_cox_card(e.get('card'))} and "
                f"{_verb(you, 'sell')} out!")
    if k == "no_discard":
        return f"{who} {_verb(you, 'have', 'has')} no card to discard."
    if k == "supply_exhausted":
        return "The supply is exhausted: the hand ends."
    if k == "hand_scored":
        return _scored(e, names, viewer)
    if k == "game_over":
        totals = e.get("totals") or ()
        winners: Sequence[int] = e.get("winners") or ()
        best = totals[winners[0]] if winners and totals else 0
        if len(winners) == 1:
            w = winners[0]
            return f"Game over: {_name(names, w, viewer)} {_verb(w == viewer, 'win')} " \
                   f"with {best} points."
        return f"Game over: {_seats(names, winners, viewer)} share the win with {best} " \
               "points each."
    return f"{who}: {k.replace('_', ' ')}."


_RACK_GROUPS: Final = (*TRANSPORT_NAMES, "Honours", "Bank")


def group_rack(rack: tuple[CoxCard, ...]) -> str:
    """A rack grouped by kind: ``Automobiles: A1 A1 AC | Ships: S3 | Honours: F2 G1 | Bank``.

    >>> from commerce.families.cox.cards import parse_cox_cards
    >>> group_rack(parse_cox_cards("G1 A1 S3 BK A1 F2 AC"))
    'Automobiles: A1 A1 AC | Ships: S3 | Honours: F2 G1 | Bank'
    """
    groups: dict[str, list[str]] = {}
    for c in sorted(rack):
        if is_bank(c):
            label = "Bank"
        elif is_black(c):
            label = TRANSPORT_NAMES[transport_suit(c)]
        else:
            label = "Honours"
        groups.setdefault(label, []).append(format_cox_card(c))
    parts = []
    for label in _RACK_GROUPS:
        if label in groups:
            parts.append("Bank" if label == "Bank" else f"{label}: {' '.join(groups[label])}")
    return " | ".join(parts) or "-"


def _seat_label(obs: CoxObservation, seat: Seat, names: Sequence[str] | None) -> str:
    name = names[seat] if names is not None and 0 <= seat < len(names) else f"seat {seat}"
    if seat == obs.seat:
        return "You" if names is not None else f"{name} (you)"
    return name


def _can_sell_out(obs: CoxObservation) -> list[CoxCard]:
    """The faces whose discard leaves the viewer a complete hand."""
    if obs.seat is None:
        return []
    held = [*obs.rack, *(c for g in obs.laid[obs.seat] for c in g)]
    cap4 = CoxOptions.of(obs.ruleset).captain_can_be_fourth
    return [f for f in sorted({face_card(c) for c in obs.rack})
            if is_complete(_without_face(held, f), captain_can_be_fourth=cap4)]


def _may_buy(obs: CoxObservation) -> bool:
    """Whether the viewer may buy the live discard (the engine's rule, from the view)."""
    card = obs.live
    if card is None or obs.seat is None or obs.seat == obs.discarder:
        return False
    rules = obs.ruleset
    opts = CoxOptions.of(rules)
    empty = not any(obs.supply)
    if empty and opts.last_discard_buyable == "no":
        return False
    if not (empty and opts.last_discard_buyable == "sell_out_only") and \
            _pair_kind(obs.rack, card) is not None:
        return True
    held = [*obs.rack, *(c for g in obs.laid[obs.seat] for c in g), card]
    return any(
        f != face_card(card) and is_complete(
            _without_face(held, f), captain_can_be_fourth=opts.captain_can_be_fourth)
        for f in sorted({face_card(c) for c in obs.rack}))


def _declined_live(obs: CoxObservation) -> bool:
    """Whether the viewer, the turn player, has already declined the live discard (the others
    are being asked: his view shows the turn as it stood)."""
    for e in reversed(obs.events):
        if e.kind == "discarded":
            return False
        if e.kind == "declined" and e.seat == obs.seat:
            return True
    return False


def decision_prompt(obs: CoxObservation, names: Sequence[str] | None) -> str | None:
    """What the viewer is asked, in words, when it is his decision."""
    d = obs.decision
    if d is None or obs.seat is None or d.seat != obs.seat:
        return None
    live = None if obs.live is None else format_cox_card(obs.live)
    discarder = None if obs.discarder is None else _seat_label(obs, obs.discarder, names)
    empty = not any(obs.supply)
    if d.kind is DecisionKind.DRAW_OR_BUY:
        if live is not None and _declined_live(obs):
            return f"You did not buy {live}: the other players are asked whether they buy it."
        take = "the supply is empty" if empty else f"draw from base {obs.current_base}"
        if live is None or not _may_buy(obs):
            return f"Your turn: {take}."
        return f"Your turn: {take}, or say \"I buy\" to take {discarder}'s {live}."
    if d.kind is DecisionKind.BUY_OFFER:
        return (f"{discarder} discarded {live}. Do you buy it? Say \"I buy\" (buy) or "
                "decline.")
    if d.kind is DecisionKind.DISCARD:
        sells = _can_sell_out(obs)
        if sells:
            cards = " or ".join(format_cox_card(f) for f in sells)
            return (f"Your hand is complete if you discard {cards}: say \"I sell out\" "
                    f"(sell out {format_cox_card(sells[0])}) or discard a card.")
        return "Discard a card (e.g. 'discard " + format_cox_card(obs.rack[0]) + "')." \
            if obs.rack else "Discard a card."
    return None


def render_observation(obs: CoxObservation, names: Sequence[str] | None = None) -> str:
    """A plain-text picture of *obs* for a terminal: the viewer's rack grouped by kind, every
    player's laid-out combinations and Greenbacks, the discard, the supply, the scores and
    what the viewer is asked. *names* are the players' names (default "seat N")."""
    lines = [
        f"{obs.ruleset.name} — hand {obs.hand_number} of {obs.hands_total}"
        + ("  (game over)" if obs.over else ""),
    ]
    if obs.retailer is not None:
        lines.append(f"Retailer: {_seat_label(obs, obs.retailer, names)} (base 1)   "
                     f"Wholesaler: {_seat_label(obs, obs.wholesaler, names)}"
                     if obs.wholesaler is not None else "")
    width = max(len(_seat_label(obs, i, names)) for i in range(obs.players))
    for i in range(obs.players):
        base = obs.base_numbers[i]
        mark = ">" if obs.decision is not None and obs.decision.seat == i else " "
        rack = obs.racks[i]
        shown = group_rack(rack) if rack is not None else f"{obs.rack_sizes[i]} cards"
        laid = " | ".join(format_cox_cards(g) for g in obs.laid[i]) or "-"
        money = format_cox_cards(obs.greenbacks[i]) or "-"
        lines.append(
            f"{mark} {_seat_label(obs, i, names):<{width}}  base "
            f"{base if base is not None else '-'}  total {obs.totals[i]:+d}   rack: {shown}"
        )
        lines.append(f"  {'':<{width}}  laid out: {laid}   Greenbacks: {money}")
    if obs.seat is not None:
        opts = CoxOptions.of(obs.ruleset)
        held = [*obs.rack, *(c for g in obs.laid[obs.seat] for c in g),
                *obs.greenbacks[obs.seat]]
        now = score_holding(held, obs.base_numbers[obs.seat],
                            captain_can_be_fourth=opts.captain_can_be_fourth,
                            bank_double_order=opts.bank_double_order,
                            bank_counts_for_clear_hand=opts.bank_counts_for_clear_hand)
        items = ", ".join(f"{item.what} {item.points:+d}" for item in now.breakdown)
        lines.append(f"Your holding would count {now.score:+d} now"
                     + (f" ({items})" if items else "") + ".")
    top = format_cox_card(obs.discards[-1]) if obs.discards else "-"
    live = "" if obs.live is None or obs.discarder is None else \
        f" ({_seat_label(obs, obs.discarder, names)}'s, may be bought)"
    lines.append(f"Discard: {top}{live}   pile: {len(obs.discards)}")
    supply = "  ".join(f"{i + 1}:{n}" for i, n in enumerate(obs.supply))
    drawing = f"drawing from base {obs.current_base}" if obs.current_base <= 4 else "empty"
    lines.append(f"Supply left (base:cards): {supply}   {drawing}")
    if obs.hand_scores:
        hands = "; ".join(f"hand {h}: " + ", ".join(
            f"{_seat_label(obs, i, names)} {p:+d}" for i, p in enumerate(scores))
            for h, scores in enumerate(obs.hand_scores, 1))
        lines.append(f"Scores so far: {hands}")
    prompt = decision_prompt(obs, names)
    if prompt is not None:
        lines.append(prompt)
    elif obs.decision is not None and obs.decision.seat is not None:
        lines.append(f"To act: {_seat_label(obs, obs.decision.seat, names)} "
                     f"({obs.decision.kind.value})")
    return "\n".join(line for line in lines if line)


