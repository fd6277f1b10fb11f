"""Cox's patented Commerce (1925), the reference rules: the entry points, in the order of play.

A game is ``hands_per_game`` hands (four). Each hand (read the modules in this order):

1. :mod:`.game`: a new game, a new hand.
2. :mod:`.deal`: chance deals the Directors face up (``deal W X R X ...``): the Wholesaler
   and the Retailer; the Retailer's Supply Base is No. 1, the others numbered from him to the
   right. Chance shuffles the pack into the four Supply Bases of 20 (one ``deal`` action may
   name all 80 cards, by face: base 1 top to bottom, then 2, 3, 4; the order is never
   observed). The Retailer deals eight cards each.
3. :mod:`.layout`: Greenbacks, threes and fourths are laid out as soon as held; Greenbacks and
   fourths are replaced from the bottom of Base 4.
4. :mod:`.turn`: from the Retailer, to the right, each player draws the top card of the
   current base or buys the last discard ("I buy"), then discards. A discard may be bought by
   a player holding two like it, or whose hand it completes at once; the others are asked in
   turn order, nearest to the discarder first; the players between lose their turn.
5. :mod:`.settle`: a player who discards leaving a complete hand may sell out; the hand also
   ends when the supply runs out. Every holding is scored (:mod:`.scoring`).

:mod:`.choices` says what is legal, :mod:`.observe` what each seat sees, :mod:`.notation` how
actions are written. The state is :class:`.state.CoxState`. :mod:`.kernel` plays the same game
compiled.
"""

from __future__ import annotations

import random

from commerce.core import Action, ActionKind, Event, Outcome, Transition, evolve
from commerce.families.cox.cards import face_card
from commerce.families.cox.choices import check, decision, directors_left, legal_actions
from commerce.families.cox.deal import deal_directors, place
from commerce.families.cox.game import new_game
from commerce.families.cox.notation import action_label, format_action, parse_action
from commerce.families.cox.observe import CoxObservation, event_to_dict, observe, reveal_all
from commerce.families.cox.options import CoxOptions
from commerce.families.cox.state import BLANK, RETAILER, WHOLESALER, CoxState, Phase
from commerce.families.cox.turn import buy, choose_to_draw, decline_offer, discard

__all__ = [
    "BLANK", "RETAILER", "WHOLESALER", "CoxObservation", "CoxState", "Phase", "action_label",
    "apply", "apply_unchecked", "check", "decision", "event_to_dict", "format_action",
    "legal_actions", "new_game", "observe", "outcome", "parse_action", "reveal_all",
    "sample_chance",
]


def apply(s: CoxState, action: Action) -> Transition:
    """Check *action*, then play it: the successor state and the events, in order.

    The hand's log gains the events (a new hand starts its own log).

    :raises IllegalActionError: with the reason, if *action* is not legal in *s*.
    """
    check(s, action)
    return apply_unchecked(s, action)


def apply_unchecked(s: CoxState, action: Action) -> Transition:
    """Play an action already known to be legal (one of :func:`legal_actions`, or
    :func:`sample_chance`'s): :func:`apply` without the check, for the search's playouts."""
    out: list[Event] = []
    after = _play(s, action, out)
    events = tuple(out)
    if after.session.hand_number == s.session.hand_number:
        after = evolve(after, deal=evolve(after.deal, log=s.deal.log + events))
    return Transition(after, events)


def _play(s: CoxState, action: Action, out: list[Event]) -> CoxState:
    kind = action.kind
    phase = s.turn.phase
    if kind is ActionKind.DEAL:
        if phase is Phase.DIRECTORS:
            return deal_directors(s, action.cards, out)
        return place(s, action.cards, out)
    if kind is ActionKind.BUY:
        return buy(s, out)
    if kind is ActionKind.DRAW or kind is ActionKind.DECLINE:
        if phase is Phase.TURN:
            return choose_to_draw(s, draw=kind is ActionKind.DRAW, out=out)
        return decline_offer(s, out)
    return discard(s, action.cards[0], sell_out=kind is ActionKind.SELL_OUT, out=out)


def sample_chance(s: CoxState, rng: random.Random) -> Action:
    """Chance's next action drawn with *rng*: all the Directors, or the whole supply in order.

    The supply is named by faces; a multi-card ``deal`` is the same as placing its cards one at
    a time.
    """
    if s.turn.phase is Phase.DIRECTORS:
        left = list(directors_left(s).elements())
        rng.shuffle(left)
        return Action(ActionKind.DEAL, tuple(left))
    faces = [face_card(c) for c in s.deal.unseen]
    rng.shuffle(faces)
    return Action(ActionKind.DEAL, tuple(faces))


def outcome(s: CoxState) -> Outcome | None:
    """Each seat's total score over the hands, once the game is over (decision #40: ties
    shared)."""
    if s.turn.phase is not Phase.OVER:
        return None
    opts = CoxOptions.of(s.ruleset)
    totals = s.session.totals
    scores = s.session.hand_scores
    best = max(totals)
    return Outcome(
        payoffs=totals,
        reason=(f"{opts.hands_per_game} "
                f"{'hand' if opts.hands_per_game == 1 else 'hands'} played"),
        details={
            "net": totals,
            "hand_scores": scores,
            "winners": tuple(i for i, t in enumerate(totals) if t == best),
            "hands": s.session.hand_number,
            "hands_won": tuple(sum(1 for h in scores if h[i] == max(h))
                               for i in range(s.players)),
        },
    )
