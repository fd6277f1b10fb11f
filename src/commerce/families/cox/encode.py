"""Cox's game's encoding for learning agents (:mod:`commerce.encoding`).

Cards are counted by *face* (the 35 printed faces: copies of a transport number are alike, so
no vector tells copies apart). Actions: ``draw`` 0, ``buy`` 1, ``decline`` 2, then ``discard``
of each face (35) and ``sell out`` discarding each face (35).

>>> import commerce
>>> from commerce.core import Action, ActionKind
>>> from commerce.families.cox.cards import parse_cox_card
>>> from commerce.rules import find_ruleset
>>> cox = find_ruleset("cox")
>>> ENCODING.num_actions(cox, 4)
73
>>> ENCODING.action_to_int(cox, 4, Action(ActionKind.SELL_OUT, (parse_cox_card("BK"),)))
56
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

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
from commerce.families.cox.cards import face_card, face_of
from commerce.families.cox.choices import directors_left
from commerce.families.cox.observe import CoxObservation
from commerce.families.cox.state import BLANK, CoxState, Phase
from commerce.rules import Ruleset

FACES = 35
"""Faces of the pack: 15 transport numbers, the 3 Captains, the Bank, 16 honour cards."""

HISTORY = 8
"""K: the acts of the last turns kept in the ``history`` segment."""

KINDS = ("drew", "drew_card", "bought", "declined", "discarded", "laid_out", "sold_out")
"""The event kinds the history records."""

_PLAIN = {ActionKind.DRAW: 0, ActionKind.BUY: 1, ActionKind.DECLINE: 2}


def num_actions(_rules: Ruleset, _players: int) -> int:
    """Three actions without a card, then a discard and a sell-out per face."""
    return 3 + 2 * FACES


def action_to_int(_rules: Ruleset, _players: int, action: Action) -> int:
    """The stable integer of *action* (see the module's docstring)."""
    plain = _PLAIN.get(action.kind)
    if plain is not None:
        return plain
    if len(action.cards) == 1:
        if action.kind is ActionKind.DISCARD:
            return 3 + face_of(action.cards[0])
        if action.kind is ActionKind.SELL_OUT:
            return 3 + FACES + face_of(action.cards[0])
    raise IllegalActionError(IllegalReason.WRONG_KIND,
                             f"no place in the action space for {action}")


def layout(rules: Ruleset, players: int) -> tuple[Segment, ...]:
    """The segments of a Cox observation vector."""
    n = players
    return (
        Segment("phase", len(DECISION_KINDS) + 1,
                "the decision now, one-hot over the decision kinds, last: the game is over"),
        Segment("to_act", n + 1,
                "who acts, relative to the seat (0: the seat itself), last: chance or nobody"),
        Segment("position", n,
                "the seat's place after the Wholesaler, Cox's dealer (0: the Wholesaler; "
                "all 0 before the Directors cards are dealt)"),
        Segment("retailer", n, "the Retailer (Base No. 1), relative to the seat, one-hot"),
        Segment("hand", FACES, "the seat's rack: how many of each face it holds"),
        Segment("laid", n * FACES,
                "each seat's laid-out combinations and Greenbacks, by face, seat by seat from "
                "the seat on"),
        Segment("discards", FACES, "the discard pile, by face"),
        Segment("live", FACES, "the discard that may still be bought, one-hot by face"),
        Segment("discarder", n, "who made it, relative to the seat, one-hot"),
        Segment("rack_sizes", n, "cards in each rack, from the seat on"),
        Segment("supply", 4, "cards left in Supply Bases 1 to 4"),
        Segment("current_base", 5, "the base drawn from next, one-hot (last: all empty)"),
        Segment("stakes", n, "each seat's score over the finished hands, from the seat on"),
        Segment("deal", 2, "the hand's number (from 1) and the hands in the game"),
        *history_segments(KINDS, n, FACES, HISTORY, ", by face"),
    )


def _faces(e: Event) -> Iterable[int]:
    card, cards = e.get("card"), e.get("cards")
    if card is not None:
        yield face_of(card)
    for c in cards or ():
        yield face_of(c)


def encode(obs: CoxObservation) -> list[float]:
    """The observation as numbers (see :func:`layout`)."""
    n, me = obs.players, obs.seat
    f = Features(layout(obs.ruleset, n))
    d = obs.decision
    f.one_hot("phase", len(DECISION_KINDS) if d is None else DECISION_KINDS.index(d.kind))
    who = None if d is None else relative(d.seat, me, n)
    f.one_hot("to_act", n if who is None else who)
    f.one_hot("position", None if obs.wholesaler is None else relative(me, obs.wholesaler, n))
    f.one_hot("retailer", relative(obs.retailer, me, n))
    f.bits("hand", (face_of(c) for c in obs.rack))
    base = 0 if me is None else me
    laid: list[int] = []
    for i in range(n):
        seat = (base + i) % n
        for group in (*obs.laid[seat], obs.greenbacks[seat]):
            laid.extend(i * FACES + face_of(c) for c in group)
    f.bits("laid", laid)
    f.bits("discards", (face_of(c) for c in obs.discards))
    f.one_hot("live", None if obs.live is None else face_of(obs.live))
    f.one_hot("discarder", relative(obs.discarder, me, n))
    f.put("rack_sizes", [float(obs.rack_sizes[(base + i) % n]) for i in range(n)])
    f.put("supply", [float(x) for x in obs.supply])
    f.one_hot("current_base", obs.current_base - 1)
    f.put("stakes", [float(obs.totals[(base + i) % n]) for i in range(n)])
    f.put("deal", [float(obs.hand_number), float(obs.hands_total)])
    write_history(f, obs.events, KINDS, me, n, FACES, HISTORY, _faces)
    return f.done()


def chance_weights(s: CoxState, legal: Sequence[Action]) -> list[float]:
    """The odds of each chance action: a Directors card by how many of it are left to deal,
    a card of the supply by how many unseen copies its face has (``sample_chance`` shuffles
    them all)."""
    if s.turn.phase is Phase.DIRECTORS:
        left = directors_left(s)
        return [float(left[a.cards[0]]) for a in legal]
    faces = Counter(face_card(c) for c in s.deal.unseen)
    return [float(faces[a.cards[0]]) for a in legal]


ENCODING = Encoding(num_actions=num_actions, action_to_int=action_to_int, layout=layout,
                    encode=encode, history=HISTORY, chance_outcomes=BLANK + 1,
                    chance_weights=chance_weights)
"""Cox's game's encoding."""
